// SPDX-License-Identifier: BSD-3-Clause
// Ordo::KokkosKernels::sort_crs_matrix and sort_crs_graph against KokkosSparse::sort_crs_matrix
// and sort_crs_graph, and std::sort of every row.

#include "Ordo_TestOracle.hpp"

#include <Ordo_KokkosKernels.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_SortCrs.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

using Device = Kokkos::Device<ExecSpace, MemorySpace>;

// A matrix in host arrays: rows of distinct, shuffled column ids; row lengths from a power law
// (a graph's adjacency) with empty rows and, with `long_row`, one row longer than any team's block.
template <class Ordinal, class Offset, class Scalar>
struct HostCrs {
  std::vector<Offset> rows{0};
  std::vector<Ordinal> cols;
  std::vector<Scalar> values;
  Ordinal num_cols = 0;

  HostCrs(std::size_t num_rows, Ordinal columns, bool long_row, std::uint64_t seed)
      : num_cols(columns) {
    std::mt19937_64 rng(seed);
    for (std::size_t r = 0; r < num_rows; ++r) {
      const double u = (double(rng() >> 11) + 1) / double(std::uint64_t(1) << 53);
      std::size_t len = std::min<std::size_t>(std::size_t(3.0 / std::pow(u, 1 / 1.5)) - 2, 3000);
      if (long_row && r == num_rows / 2) len = 20000;
      len = std::min<std::size_t>(len, std::size_t(columns));
      std::vector<Ordinal> row;
      while (row.size() < len) {
        for (std::size_t k = row.size(); k < len; ++k) row.push_back(Ordinal(rng() % columns));
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
      }
      std::shuffle(row.begin(), row.end(), rng);
      for (auto c : row) {
        cols.push_back(c);
        values.push_back(Scalar(double(r) * 0.5 + double(c)));
      }
      rows.push_back(Offset(cols.size()));
    }
  }

  // The oracle: std::sort of each row's (column, value) pairs.
  void sort_rows() {
    for (std::size_t r = 0; r + 1 < rows.size(); ++r) {
      std::vector<std::pair<Ordinal, Scalar>> row;
      for (auto i = rows[r]; i < rows[r + 1]; ++i) row.push_back({cols[i], values[i]});
      std::sort(row.begin(), row.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t k = 0; k < row.size(); ++k) {
        cols[rows[r] + k] = row[k].first;
        values[rows[r] + k] = row[k].second;
      }
    }
  }
};

template <class Scalar, class Ordinal>
void check_matrix(std::size_t num_rows, Ordinal num_cols, bool long_row) {
  using Matrix = KokkosSparse::CrsMatrix<Scalar, Ordinal, Device>;
  using Offset = typename Matrix::size_type;
  HostCrs<Ordinal, Offset, Scalar> host(num_rows, num_cols, long_row, 17 + num_rows);
  auto make = [&] {
    auto rows = to_device(host.rows, "row_map");
    auto cols = to_device(host.cols, "entries");
    auto values = to_device(host.values, "values");
    return Matrix("A", Ordinal(num_rows), host.num_cols, Offset(host.cols.size()), values, rows,
                  cols);
  };
  const Matrix ordo = make(), kk = make();
  Ordo::KokkosKernels::sort_crs_matrix(ordo);
  KokkosSparse::sort_crs_matrix(kk);
  Kokkos::fence();
  const std::string what =
      std::to_string(num_rows) + " rows, " + std::to_string(host.cols.size()) + " entries";
  EXPECT_TRUE(bitwise_equal(to_host(kk.graph.entries), to_host(ordo.graph.entries))) << what;
  EXPECT_TRUE(bitwise_equal(to_host(kk.values), to_host(ordo.values))) << what;
  host.sort_rows();
  EXPECT_TRUE(bitwise_equal(host.cols, to_host(ordo.graph.entries))) << what;
  EXPECT_TRUE(bitwise_equal(host.values, to_host(ordo.values))) << what;
}

TEST(KokkosKernels, SortCrsMatrixAgainstKokkosSparse) {
  for (std::size_t rows : {0, 1, 7, 500, 4000}) check_matrix<double, int>(rows, 100000, false);
  check_matrix<double, int>(300, 50000, true);
  check_matrix<float, std::int64_t>(2000, 1 << 20, true);
}

TEST(KokkosKernels, SortCrsGraphAgainstKokkosSparse) {
  using Matrix = KokkosSparse::CrsMatrix<double, int, Device>;
  using Graph = typename Matrix::staticcrsgraph_type;
  using Offset = typename Matrix::size_type;
  for (std::size_t rows : {1, 64, 3000}) {
    HostCrs<int, Offset, double> host(rows, 70000, rows == 64, 5);
    auto make = [&] {
      using Entries = typename Graph::entries_type::non_const_type;
      using RowMap = typename Graph::row_map_type::non_const_type;
      Entries cols("entries", host.cols.size());
      RowMap row_map("row_map", host.rows.size());
      Kokkos::deep_copy(
          cols, Kokkos::View<const int*, Kokkos::HostSpace>(host.cols.data(), host.cols.size()));
      Kokkos::deep_copy(row_map, Kokkos::View<const Offset*, Kokkos::HostSpace>(host.rows.data(),
                                                                                host.rows.size()));
      return Graph(cols, row_map);
    };
    const Graph ordo = make(), kk = make();
    Ordo::KokkosKernels::sort_crs_graph(ordo);
    KokkosSparse::sort_crs_graph(kk);
    Kokkos::fence();
    EXPECT_TRUE(bitwise_equal(to_host(kk.entries), to_host(ordo.entries))) << rows << " rows";
    host.sort_rows();
    EXPECT_TRUE(bitwise_equal(host.cols, to_host(ordo.entries))) << rows << " rows";
  }
}

TEST(KokkosKernels, BadRowMapLeavesTheMatrixUnchanged) {
  using Matrix = KokkosSparse::CrsMatrix<double, int, Device>;
  using Offset = typename Matrix::size_type;
  const std::vector<int> cols = {3, 1, 2, 0};
  const std::vector<double> values = {1, 2, 3, 4};
  const std::vector<Offset> rows = {0, 3, 2, 4};  // decreasing
  const Matrix A("A", 3, 4, 4, to_device(values, "values"), to_device(rows, "row_map"),
                 to_device(cols, "entries"));
  const std::string error = error_of([&] { Ordo::KokkosKernels::sort_crs_matrix(A); });
  EXPECT_NE(error.find("Ordo::KokkosKernels::sort_crs_matrix: offsets(1) = 3, offsets(2) = 2"),
            std::string::npos)
      << error;
  EXPECT_TRUE(bitwise_equal(cols, to_host(A.graph.entries)));
  EXPECT_TRUE(bitwise_equal(values, to_host(A.values)));
}

}  // namespace
