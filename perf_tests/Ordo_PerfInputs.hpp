// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_PERF_INPUTS_HPP
#define ORDO_PERF_INPUTS_HPP

// Inputs shared by ordo-perf's primitives: sorted keys of each distribution, made without a sort,
// random orders of them, and the key types --key names.

#include "Ordo_PerfHarness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
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

// The mean run length of --dist runs:L (uniform: 4).
inline int mean_run(const std::string& dist) {
  if (dist == "uniform") return 4;
  int l = 0;
  if (std::sscanf(dist.c_str(), "runs:%d", &l) != 1 || l < 1) {
    throw std::invalid_argument("ordo-perf: the runs want --dist runs:L (L >= 1), got " + dist);
  }
  return l;
}

// Sorted keys in runs of lengths uniform in [1, 2L - 1].
inline std::vector<std::uint32_t> run_keys(std::int64_t n, int mean, std::uint64_t seed) {
  std::vector<std::uint32_t> v(n);
  std::uint64_t state = seed;
  std::uint32_t key = 0;
  for (std::int64_t i = 0; i < n; ++key) {
    const std::int64_t len = 1 + std::int64_t(splitmix64(state) % std::uint64_t(2 * mean - 1));
    for (std::int64_t j = 0; j < len && i < n; ++j) v[i++] = key;
  }
  return v;
}

// Triplets of a sparse matrix to assemble (coo2crs): --dist uniform: count random (row, column)
// pairs of an m x m matrix, m = count / 16 within [2^16, 2^22], about 30% of them repeats of
// earlier pairs; fem:B: finite elements each adding a dense B x B block to the rows and columns of
// B consecutive nodes (neighbours share nodes), count / B^2 elements. Values: small multiples of
// 1/8 (exact sums in any order).
struct Triplets {
  std::int64_t m = 0, n = 0;
  std::vector<int> row, col;
  std::vector<double> data;
};

inline Triplets make_triplets(const std::string& dist, std::int64_t count, std::uint64_t seed) {
  Triplets t;
  std::uint64_t state = seed;
  int block = 0;
  if (dist != "uniform" && (std::sscanf(dist.c_str(), "fem:%d", &block) != 1 || block < 1)) {
    throw std::invalid_argument("ordo-perf: coo2crs wants --dist uniform or fem:B, got " + dist);
  }
  if (block == 0) {
    t.m = t.n = std::min<std::int64_t>(std::max<std::int64_t>(count / 16, 1 << 16), 1 << 22);
    t.row.resize(count);
    t.col.resize(count);
    for (std::int64_t i = 0; i < count; ++i) {
      const std::uint64_t r = splitmix64(state);
      if (i > 0 && r % 10 < 3) {
        const std::int64_t j = std::int64_t((r >> 8) % std::uint64_t(i));
        t.row[i] = t.row[j], t.col[i] = t.col[j];
      } else {
        t.row[i] = int(splitmix64(state) % std::uint64_t(t.m));
        t.col[i] = int(splitmix64(state) % std::uint64_t(t.n));
      }
    }
  } else {
    const std::int64_t elements = std::max<std::int64_t>(count / (block * block), 1);
    t.m = t.n = elements + block;
    for (std::int64_t e = 0; e < elements; ++e) {
      for (int a = 0; a < block; ++a) {
        for (int b = 0; b < block; ++b) {
          t.row.push_back(int(e + a));
          t.col.push_back(int(e + b));
        }
      }
    }
  }
  t.data.resize(t.row.size());
  for (auto& x : t.data) x = double(splitmix64(state) % 64) / 8.0;
  return t;
}

}  // namespace OrdoPerf

#endif
