// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_TRIPLETS_HPP
#define ORDO_TEST_TRIPLETS_HPP

// Triplets of sparse matrices for the assembly's tests (the core's assemble_crs, and
// Ordo::KokkosKernels::coo2crs against Kokkos Kernels'), and the oracle: a sequential std::map
// assembly.

#include "Ordo_TestBackend.hpp"
#include "Ordo_TestOracle.hpp"

#include <Kokkos_Complex.hpp>
#include <Kokkos_Core.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace OrdoTest {

template <class R, class C, class V>
struct Triplets {
  std::int64_t m, n;
  std::vector<R> row;
  std::vector<C> col;
  std::vector<V> data;
};

// The oracle: entries summed in input order in a std::map, negative indices dropped.
template <class R, class C, class V>
struct Assembled {
  std::vector<std::int64_t> row_map;
  std::vector<std::int64_t> entries;
  std::vector<V> values;
};

template <class T>
bool negative(T x) {
  if constexpr (std::is_signed_v<T>) return x < 0;
  return false;
}

template <class R, class C, class V>
Assembled<R, C, V> assemble(const Triplets<R, C, V>& t) {
  std::map<std::pair<std::int64_t, std::int64_t>, V> sums;
  for (std::size_t i = 0; i < t.row.size(); ++i) {
    if (negative(t.row[i]) || negative(t.col[i])) continue;
    const auto key = std::make_pair(std::int64_t(t.row[i]), std::int64_t(t.col[i]));
    auto it = sums.find(key);
    if (it == sums.end()) {
      sums.emplace(key, t.data[i]);
    } else {
      it->second += t.data[i];
    }
  }
  Assembled<R, C, V> a;
  a.row_map.assign(std::size_t(t.m) + 1, 0);
  for (const auto& [key, value] : sums) {
    ++a.row_map[std::size_t(key.first) + 1];
    a.entries.push_back(key.second);
    a.values.push_back(value);
  }
  for (std::size_t r = 0; r < std::size_t(t.m); ++r) a.row_map[r + 1] += a.row_map[r];
  return a;
}

template <class V>
double magnitude(const V& v) {
  if constexpr (std::is_floating_point_v<V> || std::is_integral_v<V>) {
    return std::abs(double(v));
  } else {
    return Kokkos::abs(v);
  }
}

// Values equal: exactly for integers, within rounding otherwise (the sums' association differs).
template <class V>
void expect_values(const std::vector<V>& expected, const std::vector<V>& got) {
  ASSERT_EQ(expected.size(), got.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    if constexpr (std::is_integral_v<V>) {
      ASSERT_EQ(expected[k], got[k]) << "entry " << k;
    } else {
      const double scale = 1 + magnitude(expected[k]);
      ASSERT_LE(magnitude(V(expected[k] - got[k])), 1e-4 * scale) << "entry " << k;
    }
  }
}

// The CRS arrays against the oracle's.
template <class R, class C, class V, class RowMap, class Entries, class Values>
void expect_crs(const Assembled<R, C, V>& a, const RowMap& row_map, const Entries& entries,
                const Values& values) {
  const auto rm = to_host(row_map);
  const auto en = to_host(entries);
  ASSERT_EQ(a.row_map, std::vector<std::int64_t>(rm.begin(), rm.end()));
  ASSERT_EQ(a.entries, std::vector<std::int64_t>(en.begin(), en.end()));
  expect_values(a.values, to_host(values));
}

template <class V>
V value_of(std::mt19937_64& rng) {
  if constexpr (std::is_integral_v<V>) {
    return V(rng() % 1000) - V(500);
  } else if constexpr (std::is_floating_point_v<V>) {
    return V(double(rng() % 100000) / 997.0 - 50.0);
  } else {
    return V(double(rng() % 1000) / 7.0, double(rng() % 1000) / 11.0);
  }
}

// count random triplets in an m x n matrix, about 30% of them repeats of earlier pairs.
template <class R, class C, class V>
Triplets<R, C, V> random_triplets(std::int64_t m, std::int64_t n, std::size_t count,
                                  std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Triplets<R, C, V> t{m, n, {}, {}, {}};
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && rng() % 10 < 3) {
      const std::size_t j = rng() % i;
      t.row.push_back(t.row[j]);
      t.col.push_back(t.col[j]);
    } else {
      t.row.push_back(R(rng() % std::uint64_t(m)));
      t.col.push_back(C(rng() % std::uint64_t(n)));
    }
    t.data.push_back(value_of<V>(rng));
  }
  return t;
}

// Each of `elements` finite elements adds a dense block x block to the rows and columns of its
// nodes (consecutive node ids, neighbours sharing nodes): the FEM assembly pattern.
inline Triplets<int, int, double> fem_triplets(int elements, int block) {
  Triplets<int, int, double> t{
      std::int64_t(elements) + block, std::int64_t(elements) + block, {}, {}, {}};
  for (int e = 0; e < elements; ++e) {
    for (int a = 0; a < block; ++a) {
      for (int b = 0; b < block; ++b) {
        t.row.push_back(e + a);
        t.col.push_back(e + b);
        t.data.push_back(1.0 / double(1 + a + b + e % 7));
      }
    }
  }
  return t;
}

}  // namespace OrdoTest

#endif
