// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_GENERATORS_HPP
#define ORDO_TEST_GENERATORS_HPP

// Shared test inputs (CONTRIBUTING.md, tests): sizes around block boundaries and the distributions
// every primitive is tested on, keys in runs and a non-commutative op for the runs' tests.
// Deterministic for a given seed.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace OrdoTest {

enum class Dist {
  uniform,
  sorted,
  reverse_sorted,
  all_equal,
  few_distinct,
  organ_pipe,
  heavy_duplicates,
  float_specials,
  bits20  // uniform in [0, 2^20): the radix sort's top digits are skipped (not in the list below)
};

inline const std::vector<Dist>& all_distributions() {
  static const std::vector<Dist> all = {
      Dist::uniform,      Dist::sorted,     Dist::reverse_sorted,   Dist::all_equal,
      Dist::few_distinct, Dist::organ_pipe, Dist::heavy_duplicates, Dist::float_specials};
  return all;
}

inline std::string name(Dist d) {
  switch (d) {
    case Dist::uniform: return "uniform";
    case Dist::sorted: return "sorted";
    case Dist::reverse_sorted: return "reverse_sorted";
    case Dist::all_equal: return "all_equal";
    case Dist::few_distinct: return "few_distinct";
    case Dist::organ_pipe: return "organ_pipe";
    case Dist::heavy_duplicates: return "heavy_duplicates";
    case Dist::float_specials: return "float_specials";
    case Dist::bits20: return "bits20";
  }
  return "?";
}

// A value of T from a 64-bit random number, spread over T's range (for floats: a finite value of
// either sign and varied magnitude).
template <class T>
T from_bits(std::uint64_t r) {
  if constexpr (std::is_floating_point_v<T>) {
    const double mantissa = double(r >> 11) / double(std::uint64_t(1) << 53);
    const int exponent = int(r & 63) - 32;
    return T((r & 64 ? -1.0 : 1.0) * std::ldexp(mantissa, exponent));
  } else {
    return T(r);
  }
}

// Small integers as T (few distinct values, organ pipe, sorted ranks).
template <class T>
T from_rank(std::int64_t rank) {
  return T(rank);
}

template <class T>
std::vector<T> generate(Dist dist, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + n);
  std::vector<T> v(n);
  switch (dist) {
    case Dist::uniform:
      for (auto& x : v) x = from_bits<T>(rng());
      break;
    case Dist::sorted:
      for (std::size_t i = 0; i < n; ++i) v[i] = from_rank<T>(std::int64_t(i % 120));
      std::sort(v.begin(), v.end());
      break;
    case Dist::reverse_sorted:
      for (std::size_t i = 0; i < n; ++i) v[i] = from_rank<T>(std::int64_t((n - i) % 120));
      break;
    case Dist::all_equal: std::fill(v.begin(), v.end(), from_rank<T>(42)); break;
    case Dist::few_distinct:
      for (auto& x : v) x = from_rank<T>(std::int64_t(rng() % 7));
      break;
    case Dist::organ_pipe:
      for (std::size_t i = 0; i < n; ++i)
        v[i] = from_rank<T>(std::int64_t(i < n / 2 ? i : n - i) % 127);
      break;
    case Dist::heavy_duplicates:
      for (auto& x : v) x = rng() % 10 < 9 ? from_rank<T>(5) : from_bits<T>(rng());
      break;
    case Dist::float_specials:
      if constexpr (std::is_floating_point_v<T>) {
        const T specials[] = {T(-0.0),
                              T(0.0),
                              std::numeric_limits<T>::infinity(),
                              -std::numeric_limits<T>::infinity(),
                              std::numeric_limits<T>::quiet_NaN(),
                              std::numeric_limits<T>::denorm_min(),
                              std::numeric_limits<T>::max(),
                              std::numeric_limits<T>::lowest(),
                              T(1),
                              T(-1)};
        for (auto& x : v) x = rng() % 2 ? specials[rng() % 10] : from_bits<T>(rng());
      } else {
        for (auto& x : v) x = from_bits<T>(rng());
      }
      break;
    case Dist::bits20:
      for (auto& x : v) x = from_rank<T>(std::int64_t(rng() % (1u << 20)));
      break;
  }
  return v;
}

// Sizes for one primitive: 0, 1, 2, each block size and its multiples plus and minus one, some
// primes, and `large`.
inline std::vector<std::size_t> test_sizes(const std::vector<std::size_t>& blocks,
                                           std::size_t large) {
  std::set<std::size_t> sizes = {0, 1, 2, 3, 97, 1009, 7919, large};
  for (std::size_t b : blocks) {
    for (std::size_t k : {1, 2, 3}) {
      sizes.insert(k * b - 1);
      sizes.insert(k * b);
      sizes.insert(k * b + 1);
    }
  }
  return {sizes.begin(), sizes.end()};
}

// Splits of a total size into |a| and |b|: even, lopsided, and everything on one side.
inline std::vector<std::pair<std::size_t, std::size_t>> splits(std::size_t total) {
  return {{total / 2, total - total / 2}, {total / 5, total - total / 5}, {total, 0}, {0, total}};
}

// A sorted input (two-input primitives: merge, sorted search).
template <class T, class Comp>
std::vector<T> sorted_input(Dist dist, std::size_t n, std::uint64_t seed, const Comp& comp) {
  auto v = generate<T>(dist, n, seed);
  std::sort(v.begin(), v.end(), comp);
  return v;
}

// Keys in runs of random lengths in [1, longest] (ascending, so also sorted).
template <class T>
std::vector<T> runs_of(std::size_t n, std::size_t longest, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  std::int64_t key = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t len = 1 + rng() % longest;
    for (std::size_t j = 0; j < len && i < n; ++j) v[i++] = from_rank<T>(key);
    ++key;
  }
  return v;
}

// An affine map x -> a x + b of 64-bit integers; composition is associative, not commutative.
struct Affine {
  std::uint64_t a, b;
};
// op(f, g): f first, then g.
struct Compose {
  KOKKOS_INLINE_FUNCTION Affine operator()(const Affine& f, const Affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};

}  // namespace OrdoTest

#endif
