// SPDX-License-Identifier: BSD-3-Clause
// Ordo::KokkosKernels::coo2crs and crs2coo against a sequential std::map assembly and against
// KokkosSparse::coo2crs and crs2coo on the same triplets; the assembly in two phases
// (coo2crs_pattern, coo2crs_refill) against the oracle and the one-phase call.

#include "Ordo_TestBackend.hpp"
#include "Ordo_TestOracle.hpp"
#include "Ordo_TestTriplets.hpp"

#include <Ordo_KokkosKernels.hpp>

#include <KokkosSparse_coo2crs.hpp>
#include <KokkosSparse_crs2coo.hpp>
#include <Kokkos_Complex.hpp>
#include <Kokkos_Core.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace OrdoTest;

template <class R, class C, class V>
auto device_triplets(const Triplets<R, C, V>& t) {
  return std::make_tuple(to_device(t.row, "row"), to_device(t.col, "col"),
                         to_device(t.data, "data"));
}

// coo2crs in every form against the oracle (and Kokkos Kernels where `upstream`); float sums the
// same bits on a second run; crs2coo of the result gives back the assembled triplets.
template <class R, class C, class V>
void check_coo2crs(const Triplets<R, C, V>& t, bool upstream) {
  const auto a = assemble(t);
  auto [row, col, data] = device_triplets(t);
  const ExecSpace space;
  const auto A = Ordo::KokkosKernels::coo2crs(space, R(t.m), R(t.n), row, col, data);
  ASSERT_EQ(std::int64_t(A.numRows()), t.m);
  ASSERT_EQ(std::int64_t(A.numCols()), t.n);
  expect_crs(a, A.graph.row_map, A.graph.entries, A.values);
  const auto B = Ordo::KokkosKernels::coo2crs(R(t.m), R(t.n), row, col, data);
  EXPECT_TRUE(bitwise_equal(to_host(A.values), to_host(B.values))) << "the same bits every run";
  EXPECT_EQ(to_host(row), t.row) << "the input is left as it was";
  // crs2coo: row k of the assembled entries, their columns and values.
  const auto coo = Ordo::KokkosKernels::crs2coo(A);
  std::vector<std::int64_t> rows;
  for (std::size_t r = 0; r + 1 < a.row_map.size(); ++r) {
    for (auto k = a.row_map[r]; k < a.row_map[r + 1]; ++k) rows.push_back(std::int64_t(r));
  }
  const auto got_rows = to_host(coo.row());
  EXPECT_EQ(rows, std::vector<std::int64_t>(got_rows.begin(), got_rows.end()));
  EXPECT_EQ(to_host(A.graph.entries), to_host(coo.col()));
  EXPECT_TRUE(bitwise_equal(to_host(A.values), to_host(coo.data())));
  // Kokkos Kernels' calls build for one index type of rows and columns only.
  if constexpr (std::is_same_v<R, C>) {
    static_assert(std::is_same_v<std::decay_t<decltype(B)>,
                                 decltype(KokkosSparse::coo2crs(R(t.m), R(t.n), row, col, data))>,
                  "the same matrix type as Kokkos Kernels'");
    if (upstream) {
      const auto K = KokkosSparse::coo2crs(R(t.m), R(t.n), row, col, data);
      EXPECT_EQ(to_host(K.graph.row_map), to_host(A.graph.row_map));
      EXPECT_EQ(to_host(K.graph.entries), to_host(A.graph.entries));
      expect_values(to_host(K.values), to_host(A.values));
      KokkosSparse::CooMatrix<V, R, ExecSpace> from(R(t.m), R(t.n), row, col, data);
      EXPECT_TRUE(
          bitwise_equal(to_host(A.values), to_host(Ordo::KokkosKernels::coo2crs(from).values)));
      auto copy = A;  // Kokkos Kernels' crs2coo takes a non-const matrix
      EXPECT_EQ(to_host(KokkosSparse::crs2coo(copy).row()), to_host(coo.row()));
    }
  }
}

// The two phases: the pattern once, the matrix from it (coo2crs' arrays and bits), refilled with
// new values several times (insert: the oracle's matrix and coo2crs' bits of the new triplets;
// the pattern's graph untouched), then added to (each entry its value plus the sum, bit for bit).
template <class R, class C, class V>
void check_refill(const Triplets<R, C, V>& t) {
  auto [row, col, data] = device_triplets(t);
  const ExecSpace space;
  const auto one = Ordo::KokkosKernels::coo2crs(space, R(t.m), R(t.n), row, col, data);
  const auto pattern = Ordo::KokkosKernels::coo2crs_pattern(space, R(t.m), R(t.n), row, col);
  ASSERT_EQ(pattern.triplets(), std::int64_t(t.row.size()));
  const auto A = Ordo::KokkosKernels::coo2crs(space, pattern, data);
  static_assert(std::is_same_v<std::decay_t<decltype(A)>, std::decay_t<decltype(one)>>,
                "the matrix type of the one-phase call");
  EXPECT_EQ(to_host(A.graph.row_map), to_host(one.graph.row_map));
  EXPECT_EQ(to_host(A.graph.entries), to_host(one.graph.entries));
  EXPECT_TRUE(bitwise_equal(to_host(one.values), to_host(A.values))) << "coo2crs' bits";
  EXPECT_EQ(A.graph.entries.data(), pattern.entries.data()) << "the pattern's graph, shared";
  auto u = t;
  for (int step = 0; step < 3; ++step) {
    std::rotate(u.data.begin(), u.data.begin() + (u.data.empty() ? 0 : 1), u.data.end());
    const auto new_data = to_device(u.data, "new data");
    Ordo::KokkosKernels::coo2crs_refill(space, pattern, new_data, A);
    expect_crs(assemble(u), A.graph.row_map, A.graph.entries, A.values);
    const auto fresh = Ordo::KokkosKernels::coo2crs(space, R(t.m), R(t.n), row, col, new_data);
    EXPECT_TRUE(bitwise_equal(to_host(fresh.values), to_host(A.values))) << "step " << step;
  }
  const auto before = to_host(A.values), sums = to_host(one.values);
  Ordo::KokkosKernels::coo2crs_refill(pattern, data, A, Ordo::KokkosKernels::Refill::add);
  std::vector<V> added(before.size());
  for (std::size_t k = 0; k < added.size(); ++k) added[k] = before[k] + sums[k];
  EXPECT_TRUE(bitwise_equal(added, to_host(A.values))) << "add: the value plus the sum";
  EXPECT_EQ(to_host(row), t.row) << "the input is left as it was";
}

TEST(Coo2Crs, PatternAndRefill) {
  for (std::size_t count : {std::size_t(1), std::size_t(1000), std::size_t(30000)}) {
    check_refill(random_triplets<int, int, double>(500, 700, count, 6));
    check_refill(random_triplets<std::int64_t, std::int64_t, float>(300, 90, count, 7));
    check_refill(random_triplets<int, std::size_t, std::int64_t>(40, 5000, count, 8));
    check_refill(random_triplets<int, int, Kokkos::complex<double>>(64, 64, count, 9));
  }
  check_refill(random_triplets<int, int, double>(1 << 16, 1 << 16, large_size(), 10));
  check_refill(fem_triplets(1000, 4));
  using T = Triplets<int, int, double>;
  check_refill(T{0, 0, {}, {}, {}});
  check_refill(T{5, 3, {}, {}, {}});
  check_refill(T{9, 9, {4, 5, -1, 4}, {1, 1, 1, 1}, {1, 2, 3, 4}});  // empty rows, a dropped one
  check_refill(T{4, 4, {-1, -2}, {0, 0}, {1, 2}});                   // every triplet dropped
  using W = Triplets<std::int64_t, std::int64_t, double>;            // the chained way
  const std::int64_t wide = std::int64_t(1) << 62;
  check_refill(W{4, wide, {3, 0, -1, 3, 1}, {wide - 1, 5, 2, wide - 1, 0}, {1, 2, 3, 4, 5}});
  // Entries of more triplets than a thread walks (a team sums them).
  for (std::int64_t len : {std::int64_t(1025), std::int64_t(40001)}) {
    auto t = random_triplets<int, int, double>(50, 50, 3000, 11);
    for (std::int64_t k = 0; k < len; ++k) {
      t.row.push_back(int(k % 2 ? 7 : 30));
      t.col.push_back(11);
      t.data.push_back(double(k % 13) / 7);
    }
    check_refill(t);
  }
}

TEST(Coo2Crs, RefillErrorsLeaveTheMatrix) {
  const auto row = to_device(std::vector<int>{0, 1, 1, 2});
  const auto col = to_device(std::vector<int>{0, 1, 1, 3});
  const auto data = to_device(std::vector<double>{1, 2, 3, 4});
  const auto pattern = Ordo::KokkosKernels::coo2crs_pattern(4, 4, row, col);
  const auto A = Ordo::KokkosKernels::coo2crs(ExecSpace(), pattern, data);
  const auto before = to_host(A.values);
  const auto shorter = to_device(std::vector<double>{1, 2, 3});
  const auto wrong = error_of([&] { Ordo::KokkosKernels::coo2crs_refill(pattern, shorter, A); });
  EXPECT_NE(wrong.find("data"), std::string::npos) << wrong;
  // A matrix of another pattern (another number of entries).
  const auto rows = to_device(std::vector<int>{0, 1, 2, 2});
  const auto other = Ordo::KokkosKernels::coo2crs(4, 4, rows, col, data);
  const auto shape = error_of([&] { Ordo::KokkosKernels::coo2crs_refill(pattern, data, other); });
  EXPECT_NE(shape.find("entries"), std::string::npos) << shape;
  EXPECT_TRUE(bitwise_equal(before, to_host(A.values))) << "the matrix unchanged";
  EXPECT_NE(error_of([&] { Ordo::KokkosKernels::coo2crs(ExecSpace(), pattern, shorter); }),
            "no exception");
  const auto bad_row = to_device(std::vector<int>{0, 4});
  const auto two = to_device(std::vector<int>{0, 0});
  const auto past = error_of([&] { Ordo::KokkosKernels::coo2crs_pattern(4, 4, bad_row, two); });
  EXPECT_NE(past.find("triplet 1 (row 4, column 0)"), std::string::npos) << past;
}

TEST(Coo2Crs, RandomTripletsEveryIndexType) {
  for (std::size_t count : {std::size_t(1), std::size_t(1000), std::size_t(30000)}) {
    check_coo2crs(random_triplets<int, int, double>(500, 700, count, 1), true);
    check_coo2crs(random_triplets<std::int64_t, std::int64_t, float>(300, 90, count, 2), true);
    // Kokkos Kernels' coo2crs does not build for unsigned column indices: Ordo's alone.
    check_coo2crs(random_triplets<int, std::size_t, std::int64_t>(40, 5000, count, 3), false);
    check_coo2crs(random_triplets<int, int, Kokkos::complex<double>>(64, 64, count, 4), true);
  }
  check_coo2crs(random_triplets<int, int, double>(1 << 16, 1 << 16, large_size(), 5), false);
}

TEST(Coo2Crs, FemBlocks) {
  check_coo2crs(fem_triplets(1000, 4), true);
  check_coo2crs(fem_triplets(200, 8), true);
}

TEST(Coo2Crs, ShapesAndEmptyRows) {
  using T = Triplets<int, int, double>;
  check_coo2crs(T{0, 0, {}, {}, {}}, true);                       // empty matrix
  check_coo2crs(T{5, 3, {}, {}, {}}, true);                       // no triplets: a row map of zeros
  check_coo2crs(T{1, 4, {0, 0, 0}, {3, 1, 3}, {1, 2, 3}}, true);  // one row
  check_coo2crs(T{4, 1, {3, 1, 3}, {0, 0, 0}, {1, 2, 3}}, true);  // one column
  check_coo2crs(T{6, 6, {2, 2, 2, 2}, {4, 4, 4, 4}, {1, 2, 3, 4}}, true);  // one entry
  check_coo2crs(T{9, 9, {4, 5, 4}, {1, 1, 1}, {1, 1, 1}}, true);  // empty rows at both ends
}

TEST(Coo2Crs, NegativeIndicesAreDropped) {
  using T = Triplets<int, int, double>;
  check_coo2crs(T{4, 4, {0, -1, 2, 3, 2}, {1, 2, -5, 3, 1}, {1, 2, 3, 4, 5}}, true);
  check_coo2crs(T{4, 4, {-1, -2}, {0, 0}, {1, 2}}, true);  // every triplet dropped
  // 64-bit indices whose widths with the dropped word pass 64 bits: the chained way.
  using W = Triplets<std::int64_t, std::int64_t, double>;
  const std::int64_t wide = std::int64_t(1) << 62;
  check_coo2crs(W{4, wide, {3, 0, -1, 3, 1}, {wide - 1, 5, 2, wide - 1, 0}, {1, 2, 3, 4, 5}},
                false);
  check_coo2crs(W{4, wide, {3, 0, 3, 1}, {wide - 1, 5, wide - 1, 0}, {1, 2, 4, 5}}, false);
}

TEST(Coo2Crs, IndicesOutOfRangeThrow) {
  const auto row = to_device(std::vector<int>{0, 1, 4, 2});
  const auto col = to_device(std::vector<int>{0, 1, 1, 7});
  const auto data = to_device(std::vector<double>{1, 2, 3, 4});
  const auto shorter = to_device(std::vector<double>{1, 2, 3});
  const auto past_row = error_of([&] { Ordo::KokkosKernels::coo2crs(4, 8, row, col, data); });
  EXPECT_NE(past_row.find("triplet 2 (row 4, column 1)"), std::string::npos) << past_row;
  const auto past_col = error_of([&] { Ordo::KokkosKernels::coo2crs(5, 7, row, col, data); });
  EXPECT_NE(past_col.find("triplet 3"), std::string::npos) << past_col;
  // A column past n with a negative row is an error too (Kokkos Kernels' order of tests).
  const auto neg = to_device(std::vector<int>{-1});
  const auto big = to_device(std::vector<int>{9});
  const auto one = to_device(std::vector<double>{1});
  EXPECT_NE(error_of([&] { Ordo::KokkosKernels::coo2crs(4, 4, neg, big, one); }), "no exception");
  EXPECT_NE(error_of([&] { Ordo::KokkosKernels::coo2crs(5, 8, row, col, shorter); }),
            "no exception");
  EXPECT_NE(error_of([&] { Ordo::KokkosKernels::coo2crs(-1, 8, row, col, data); }), "no exception");
}

}  // namespace
