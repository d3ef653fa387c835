// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_INPUTS_HPP
#define ORDO_PERF_INPUTS_HPP

// Inputs shared by ordo-perf's primitives: sorted keys of each distribution, made without a sort,
// random orders of them, and the key types --key names.

#include "Ordo_PerfHarness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace OrdoPerf {

// Sorted inputs without a sort: ranks from cumulative random gaps, mapped monotonically onto T.
template <class T>
inline T from_rank(std::uint64_t r) {
  if constexpr (std::is_floating_point_v<T>) {
    return T(std::ldexp(double(r), -40) - 1.0);
  } else if constexpr (std::is_signed_v<T>) {
    return T(std::int64_t(r) - (std::int64_t(1) << (sizeof(T) * 8 - 2)));
  } else {
    return T(r);
  }
}

template <class T>
std::vector<T> sorted_keys(const std::string& dist, std::size_t n, std::uint64_t seed) {
  if (dist != "uniform" && dist != "few_distinct" && dist != "all_equal" && dist != "bits20") {
    throw std::invalid_argument("ordo-perf: --dist is uniform, few_distinct, all_equal or bits20");
  }
  if (dist == "bits20") {  // evenly spread over [0, 2^20)
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = T((std::uint64_t(i) << 20) / n);
    return v;
  }
  const bool uniform = dist == "uniform", few_distinct = dist == "few_distinct";
  std::vector<T> v(n);
  std::uint64_t state = seed, rank = 0;
  const int bits = sizeof(T) >= 8 ? 62 : int(sizeof(T) * 8) - 1;
  const std::uint64_t mean_gap = std::max<std::uint64_t>(1, (std::uint64_t(1) << bits) / (n + 1));
  for (std::size_t i = 0; i < n; ++i) {
    if (uniform) {
      rank += splitmix64(state) % (2 * mean_gap);
    } else if (few_distinct) {
      rank += splitmix64(state) % (n / 4 + 1) == 0 ? 1 : 0;
    }
    v[i] = from_rank<T>(rank);
  }
  return v;
}

template <class T>
Kokkos::View<T*, MemorySpace> to_device(const std::vector<T>& h, const char* label) {
  Kokkos::View<T*, MemorySpace> v(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), h.size());
  Kokkos::deep_copy(
      v, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
             h.data(), h.size()));
  return v;
}

// The same keys in a random order (Fisher-Yates with splitmix64).
template <class T>
std::vector<T> shuffled(std::vector<T> v, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[splitmix64(state) % i]);
  return v;
}

// Calls f(T{}) with the key type --key names.
template <class F>
void for_key_type(const std::string& key, F&& f) {
  if (key == "u32")
    f(std::uint32_t{});
  else if (key == "i32")
    f(std::int32_t{});
  else if (key == "u64")
    f(std::uint64_t{});
  else if (key == "i64")
    f(std::int64_t{});
  else if (key == "f32")
    f(float{});
  else if (key == "f64")
    f(double{});
  else
    throw std::invalid_argument("ordo-perf: unknown --key '" + key + "'");
}

// CRS offsets of segments whose lengths follow `dist`, n keys in all (the last segment cut):
//   uniform:L  every segment L keys
//   powerlaw   Pareto(1.5) lengths, at least 1, mean about 16, at most 2^16 (a graph's adjacency)
//   tiny       uniform in [0, 8] (mean 4)
//   cells      Poisson, mean 32 (particles in cells)
inline std::vector<std::int64_t> segment_offsets(const std::string& dist, std::int64_t n,
                                                 std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::int64_t uniform = 0;
  if (dist.rfind("uniform:", 0) == 0) uniform = std::stoll(dist.substr(8));
  if (uniform <= 0 && dist != "powerlaw" && dist != "tiny" && dist != "cells") {
    throw std::invalid_argument("ordo-perf: --segments is uniform:L, powerlaw, tiny or cells");
  }
  std::poisson_distribution<std::int64_t> poisson(32.0);
  std::vector<std::int64_t> offsets{0};
  while (offsets.back() < n) {
    std::int64_t len = uniform;
    if (dist == "powerlaw") {
      const double u = (double(rng() >> 11) + 1) / double(std::uint64_t(1) << 53);
      len = 1 + std::int64_t(std::min(65535.0, 7.5 * (std::pow(u, -1 / 1.5) - 1)));
    } else if (dist == "tiny") {
      len = std::int64_t(rng() % 9);
    } else if (dist == "cells") {
      len = poisson(rng);
    }
    offsets.push_back(std::min(n, offsets.back() + len));
  }
  return offsets;
}

}  // namespace OrdoPerf

#endif
