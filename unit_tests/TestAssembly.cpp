// SPDX-License-Identifier: BSD-3-Clause
// The assembly of CRS arrays from triplets (the core of Ordo::KokkosKernels::coo2crs, tested here
// on every backend without Kokkos Kernels) against a sequential std::map assembly.

#include "Ordo_TestOracle.hpp"
#include "Ordo_TestTriplets.hpp"

#include <Ordo.hpp>
#include <impl/device/Ordo_AssemblyImpl.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using namespace OrdoTest;

// The triplets' values replaced by others (the refills' second value array).
template <class R, class C, class V>
Triplets<R, C, V> with_new_values(Triplets<R, C, V> t) {
  std::reverse(t.data.begin(), t.data.end());
  return t;
}

// The pattern of t with its map in Views of its own (Ordo::KokkosKernels::coo2crs_pattern's way).
template <class R, class C, class V>
struct Pattern {
  DeviceView<C> row_map;
  DeviceView<R> entries;
  Ordo::Impl::AssemblyMapViews<ExecSpace::memory_space> map;
};

template <class R, class C, class V>
Pattern<R, C, V> pattern_of(const Triplets<R, C, V>& t) {
  Pattern<R, C, V> p;
  const auto graph = [&](std::int64_t nnz) {
    p.row_map = DeviceView<C>("row_map", t.m + 1);
    p.entries = DeviceView<R>("entries", nnz);
    return p;
  };
  Ordo::Impl::assemble_pattern("assemble_pattern", ExecSpace(), t.m, t.n, to_device(t.row, "row"),
                               to_device(t.col, "col"), graph, p.map);
  return p;
}

// The one-phase assembly against the oracle, twice to the same bits; then the two phases: the
// pattern alone, refilled (insert) with the same values (the one-phase call's bits) and with new
// ones (the oracle's), and added to (each entry the insert's value plus the new sum, bit for bit).
template <class R, class C, class V>
void check_assembly(const Triplets<R, C, V>& t) {
  const auto a = assemble(t);
  const auto row = to_device(t.row, "row");
  const auto col = to_device(t.col, "col");
  const auto data = to_device(t.data, "data");
  using Arrays = Ordo::Impl::CrsArrays<DeviceView<C>, DeviceView<R>, DeviceView<V>>;
  const auto crs =
      Ordo::Impl::assemble_crs<Arrays>("assemble_crs", ExecSpace(), t.m, t.n, row, col, data);
  expect_crs(a, crs.row_map, crs.entries, crs.values);
  const auto again =
      Ordo::Impl::assemble_crs<Arrays>("assemble_crs", ExecSpace(), t.m, t.n, row, col, data);
  EXPECT_TRUE(bitwise_equal(to_host(crs.values), to_host(again.values))) << "the same bits";
  // Out of row order, the values sorted with the words at any size (gather_cached 0): the same
  // bits as through the positions.
  const auto sorted =
      Ordo::Impl::assemble_crs<Arrays>("assemble_crs", ExecSpace(), t.m, t.n, row, col, data, 0);
  EXPECT_TRUE(bitwise_equal(to_host(crs.values), to_host(sorted.values))) << "values sorted";

  const auto p = pattern_of(t);
  const DeviceView<V> values("values", p.entries.extent(0));
  Ordo::Impl::refill_values(ExecSpace(), p.map.map(), data, values, false);
  expect_crs(a, p.row_map, p.entries, values);
  EXPECT_TRUE(bitwise_equal(to_host(crs.values), to_host(values))) << "refill: coo2crs' bits";
  const auto u = with_new_values(t);
  const auto new_data = to_device(u.data, "new data");
  const DeviceView<V> added("added", p.entries.extent(0));
  Kokkos::deep_copy(added, values);
  Ordo::Impl::refill_values(ExecSpace(), p.map.map(), new_data, values, false);
  Ordo::Impl::refill_values(ExecSpace(), p.map.map(), new_data, added, true);
  expect_crs(assemble(u), p.row_map, p.entries, values);
  const auto first = to_host(crs.values), second = to_host(values);
  std::vector<V> sums(first.size());
  for (std::size_t k = 0; k < sums.size(); ++k) sums[k] = first[k] + second[k];
  EXPECT_TRUE(bitwise_equal(sums, to_host(added))) << "refill, add: the value plus the new sum";
}

TEST(Assembly, RandomAndFemTriplets) {
  for (std::size_t count : {std::size_t(1), std::size_t(5000), std::size_t(70001)}) {
    check_assembly(random_triplets<int, int, double>(500, 700, count, 1));
    check_assembly(random_triplets<std::int64_t, std::int64_t, float>(3000, 90, count, 2));
    check_assembly(random_triplets<int, int, Kokkos::complex<double>>(64, 64, count, 3));
  }
  check_assembly(random_triplets<int, int, double>(1 << 16, 1 << 16, large_size(), 4));
  check_assembly(fem_triplets(20000, 4));
  check_assembly(fem_triplets(2000, 8));
}

TEST(Assembly, ShapesDroppedAndWideIndices) {
  using T = Triplets<int, int, double>;
  check_assembly(T{0, 0, {}, {}, {}});
  check_assembly(T{5, 3, {}, {}, {}});
  check_assembly(T{9, 9, {4, 5, 4, -1}, {1, 1, 1, 2}, {1, 1, 1, 7}});
  // Widths with the dropped triplets' bit past 64 bits: the chained way; at 64 bits: the packed
  // way.
  using W = Triplets<std::int64_t, std::int64_t, double>;
  for (const std::int64_t wide : {std::int64_t(1) << 62, std::int64_t(1) << 61}) {
    check_assembly(W{4, wide, {3, 0, -1, 3, 1}, {wide - 1, 5, 2, wide - 1, 0}, {1, 2, 3, 4, 5}});
    check_assembly(W{4, wide, {3, 0, 3, 1}, {wide - 1, 5, wide - 1, 0}, {1, 2, 4, 5}});
  }
}

// Entries of more triplets than the walk's limit (AssemblyTuning): a team sums each.
TEST(Assembly, LongEntriesTakeATeam) {
  using Tuning = Ordo::Impl::AssemblyTuning<ExecSpace>;
  for (std::int64_t len : {Tuning::walk_limit, Tuning::walk_limit + 1, std::int64_t(70001)}) {
    auto t = random_triplets<int, int, double>(50, 50, 3000, 5);
    for (std::int64_t k = 0; k < len; ++k) {
      t.row.push_back(7);
      t.col.push_back(11);
      t.data.push_back(double(k % 13) / 8);
    }
    check_assembly(t);
  }
}

}  // namespace
