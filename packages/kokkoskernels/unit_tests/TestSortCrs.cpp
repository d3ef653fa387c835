// SPDX-License-Identifier: BSD-3-Clause
// Ordo::KokkosKernels' CRS sorts against Kokkos Kernels' own (KokkosSparse::sort_crs_matrix,
// sort_crs_graph, sort_and_merge_matrix, sort_and_merge_graph) called the same way on a copy of
// the same input, and against std::sort and a sequential merge of every row. The cases of Kokkos
// Kernels' own CRS-sort test: every way of naming the execution space (an instance, a template
// argument, the Views' own), the matrix and graph objects, unmanaged Views, one long row, and
// sort_and_merge with and without repeated columns, in place, with empty rows, no entries and no
// rows.

#include "Ordo_TestOracle.hpp"

#include <Ordo_KokkosKernels.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_SortCrs.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

using Device = Kokkos::Device<ExecSpace, MemorySpace>;

// How the execution space is named: an instance, a template argument, or neither (the Views' or
// the object's own); Object: the matrix or graph object instead of its Views.
// template_arguments: every template argument named (sort_crs_matrix and sort_crs_graph).
enum class Form {
  instance,
  template_argument,
  template_arguments,
  implicit,
  object,
  object_instance
};
const Form all_forms[] = {
    Form::instance, Form::template_argument, Form::template_arguments, Form::implicit,
    Form::object,   Form::object_instance};
const char* name(Form f) {
  const char* names[] = {"instance", "template argument", "template arguments", "implicit",
                         "object",   "object instance"};
  return names[int(f)];
}

template <class View, class T>
View to_view(const std::vector<T>& host, const std::string& label) {
  using NC = typename View::non_const_type;
  NC v(label, host.size());
  Kokkos::deep_copy(v, Kokkos::View<const T*, Kokkos::HostSpace>(host.data(), host.size()));
  return v;
}

// A matrix in host arrays: row lengths from a power law (a graph's adjacency), with empty rows
// and, with `long_row`, one row of 20,000 entries; a fraction `repeats` of each row's entries
// repeat a column id of the row (the long row: 50 column ids). Values are small integers, so that
// sums are exact in any order.
template <class Ordinal, class Offset, class Scalar>
struct HostCrs {
  std::vector<Offset> rows{0};
  std::vector<Ordinal> cols;
  std::vector<Scalar> values;
  Ordinal num_cols = 0;

  HostCrs(std::size_t num_rows, Ordinal columns, bool long_row, double repeats, std::uint64_t seed)
      : num_cols(columns) {
    std::mt19937_64 rng(seed);
    for (std::size_t r = 0; r < num_rows; ++r) {
      const double u = (double(rng() >> 11) + 1) / double(std::uint64_t(1) << 53);
      std::size_t len = std::min<std::size_t>(std::size_t(3.0 / std::pow(u, 1 / 1.5)) - 2, 3000);
      const bool is_long = long_row && r == num_rows / 2;
      if (is_long) len = 20000;
      const std::size_t distinct = std::min<std::size_t>(
          std::size_t(columns),
          is_long && repeats > 0
              ? 50
              : std::max<std::size_t>(len > 0, std::size_t(len * (1 - repeats))));
      len = repeats > 0 ? len : distinct;
      std::vector<Ordinal> row;
      while (row.size() < distinct) {
        for (std::size_t k = row.size(); k < distinct; ++k) row.push_back(Ordinal(rng() % columns));
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
      }
      for (std::size_t k = distinct; k < len; ++k) row.push_back(row[rng() % distinct]);
      std::shuffle(row.begin(), row.end(), rng);
      for (auto c : row) {
        cols.push_back(c);
        values.push_back(Scalar(double(int((r + std::size_t(c)) % 17) - 8)));
      }
      rows.push_back(Offset(cols.size()));
    }
  }

  // The oracles: each row's (column, value) pairs sorted by column (rows without repeats), and
  // merged (sorted, the values of a column summed).
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
  HostCrs merged() const {
    HostCrs m = *this;
    m.rows = {0};
    m.cols.clear();
    m.values.clear();
    for (std::size_t r = 0; r + 1 < rows.size(); ++r) {
      std::map<Ordinal, Scalar> row;
      for (auto i = rows[r]; i < rows[r + 1]; ++i) row[cols[i]] += values[i];
      for (const auto& [c, v] : row) m.cols.push_back(c), m.values.push_back(v);
      m.rows.push_back(Offset(m.cols.size()));
    }
    return m;
  }
};

template <class Scalar, class Ordinal, class Offset, class Traits = void>
using Matrix = KokkosSparse::CrsMatrix<Scalar, Ordinal, Device, Traits, Offset>;

template <class M, class H>
M device_matrix(const H& host) {
  return M("A", typename M::ordinal_type(host.rows.size() - 1), host.num_cols, host.cols.size(),
           to_view<typename M::values_type>(host.values, "values"),
           to_view<typename M::row_map_type>(host.rows, "row_map"),
           to_view<typename M::index_type>(host.cols, "entries"));
}

// ---- sort_crs_matrix and sort_crs_graph
// ----------------------------------------------------------

// Ordo's form f on `ordo`, Kokkos Kernels' on `kk` (copies of one matrix, or with `graph` their
// graphs).
template <class M>
void sort_both(Form f, bool graph, const M& ordo, const M& kk) {
  using R = typename M::row_map_type;
  using E = typename M::index_type;
  using V = typename M::values_type;
  if (graph) {
    switch (f) {
      case Form::instance:
        Ordo::KokkosKernels::sort_crs_graph(ExecSpace(), ordo.graph.row_map, ordo.graph.entries);
        KokkosSparse::sort_crs_graph(ExecSpace(), kk.graph.row_map, kk.graph.entries);
        break;
      case Form::template_argument:
        Ordo::KokkosKernels::sort_crs_graph<ExecSpace>(ordo.graph.row_map, ordo.graph.entries);
        KokkosSparse::sort_crs_graph<ExecSpace>(kk.graph.row_map, kk.graph.entries);
        break;
      case Form::template_arguments:
        Ordo::KokkosKernels::sort_crs_graph<ExecSpace, R, E>(ordo.graph.row_map,
                                                             ordo.graph.entries);
        KokkosSparse::sort_crs_graph<ExecSpace, R, E>(kk.graph.row_map, kk.graph.entries);
        break;
      case Form::implicit:
        Ordo::KokkosKernels::sort_crs_graph(ordo.graph.row_map, ordo.graph.entries);
        KokkosSparse::sort_crs_graph(kk.graph.row_map, kk.graph.entries);
        break;
      case Form::object:
        Ordo::KokkosKernels::sort_crs_graph(ordo.graph);
        KokkosSparse::sort_crs_graph(kk.graph);
        break;
      case Form::object_instance:
        Ordo::KokkosKernels::sort_crs_graph(ExecSpace(), ordo.graph);
        KokkosSparse::sort_crs_graph(ExecSpace(), kk.graph);
    }
    return;
  }
  switch (f) {
    case Form::instance:
      Ordo::KokkosKernels::sort_crs_matrix(ExecSpace(), ordo.graph.row_map, ordo.graph.entries,
                                           ordo.values);
      KokkosSparse::sort_crs_matrix(ExecSpace(), kk.graph.row_map, kk.graph.entries, kk.values);
      break;
    case Form::template_argument:
      Ordo::KokkosKernels::sort_crs_matrix<ExecSpace>(ordo.graph.row_map, ordo.graph.entries,
                                                      ordo.values);
      KokkosSparse::sort_crs_matrix<ExecSpace>(kk.graph.row_map, kk.graph.entries, kk.values);
      break;
    case Form::template_arguments:
      Ordo::KokkosKernels::sort_crs_matrix<ExecSpace, R, E, V>(ordo.graph.row_map,
                                                               ordo.graph.entries, ordo.values);
      KokkosSparse::sort_crs_matrix<ExecSpace, R, E, V>(kk.graph.row_map, kk.graph.entries,
                                                        kk.values);
      break;
    case Form::implicit:
      Ordo::KokkosKernels::sort_crs_matrix(ordo.graph.row_map, ordo.graph.entries, ordo.values);
      KokkosSparse::sort_crs_matrix(kk.graph.row_map, kk.graph.entries, kk.values);
      break;
    case Form::object:
      Ordo::KokkosKernels::sort_crs_matrix(ordo);
      KokkosSparse::sort_crs_matrix(kk);
      break;
    case Form::object_instance:
      Ordo::KokkosKernels::sort_crs_matrix(ExecSpace(), ordo);
      KokkosSparse::sort_crs_matrix(ExecSpace(), kk);
  }
}

// M's Views (or, with Unmanaged, unmanaged Views of a managed copy) sorted both ways.
template <class Scalar, class Ordinal, class Offset, bool Unmanaged = false>
void check_sort(Form f, bool graph, std::size_t rows, Ordinal columns, bool long_row) {
  using Managed = Matrix<Scalar, Ordinal, Offset>;
  using M = Matrix<Scalar, Ordinal, Offset,
                   std::conditional_t<Unmanaged, Kokkos::MemoryTraits<Kokkos::Unmanaged>, void>>;
  HostCrs<Ordinal, Offset, Scalar> host(rows, columns, long_row, 0, 17 + rows);
  const Managed ordo_data = device_matrix<Managed>(host), kk_data = device_matrix<Managed>(host);
  const M ordo(ordo_data), kk(kk_data);
  sort_both(f, graph, ordo, kk);
  Kokkos::fence();
  const std::string what = std::string(name(f)) + (graph ? ", graph, " : ", matrix, ") +
                           std::to_string(rows) + " rows, " + std::to_string(host.cols.size()) +
                           " entries" + (Unmanaged ? ", unmanaged" : "");
  EXPECT_TRUE(bitwise_equal(to_host(kk.graph.entries), to_host(ordo.graph.entries))) << what;
  const auto unsorted_values = host.values;
  host.sort_rows();
  EXPECT_TRUE(bitwise_equal(host.cols, to_host(ordo.graph.entries))) << what;
  // A graph's sort leaves the values alone.
  EXPECT_TRUE(bitwise_equal(graph ? unsorted_values : host.values, to_host(ordo.values))) << what;
  EXPECT_TRUE(bitwise_equal(to_host(kk.values), to_host(ordo.values))) << what;
  EXPECT_TRUE(bitwise_equal(host.rows, to_host(ordo.graph.row_map))) << what;
}

TEST(KokkosKernels, SortCrsEveryFormAgainstKokkosSparse) {
  for (Form f : all_forms) {
    for (bool graph : {false, true}) {
      for (std::size_t rows : {0, 1, 10, 100, 1000}) {
        check_sort<double, int, std::size_t>(f, graph, rows, 1000, false);
      }
      check_sort<double, int, std::size_t, true>(f, graph, 50, 50, false);
    }
  }
}

TEST(KokkosKernels, SortCrsLongRows) {
  for (bool graph : {false, true}) {
    check_sort<double, int, std::size_t>(Form::implicit, graph, 1, 50000, true);
    check_sort<double, int, std::size_t>(Form::instance, graph, 300, 50000, true);
  }
}

TEST(KokkosKernels, SortCrsOrdinalOffsetScalarTypes) {
  check_sort<double, int, int>(Form::instance, false, 2000, 1 << 20, true);
  check_sort<float, std::int64_t, std::size_t>(Form::instance, false, 2000, 1 << 20, true);
  check_sort<Kokkos::complex<double>, int, std::size_t>(Form::object, false, 500, 5000, false);
  check_sort<double, std::int64_t, int>(Form::instance, true, 2000, 1 << 20, true);
}

// ---- sort_and_merge_matrix and sort_and_merge_graph
// ----------------------------------------------

// The outputs of one sort_and_merge call, and whether they are the inputs' Views.
template <class M>
struct Merged {
  M matrix;
  bool same_entries;
};

// sort_and_merge by form f, of Ordo's or of Kokkos Kernels' (NS: the namespace whose calls F
// makes), on `in` or, `in_place`, with each output View also passed as its input (holding a copy
// of in's).
#define ORDO_TEST_SORT_AND_MERGE(NS, F)                                                          \
  template <class M>                                                                             \
  Merged<M> F(Form f, bool graph, bool in_place, const M& in) {                                  \
    using R = typename M::row_map_type::non_const_type;                                          \
    using E = typename M::index_type;                                                            \
    using V = typename M::values_type;                                                           \
    using G = typename M::staticcrsgraph_type;                                                   \
    if (f == Form::object || f == Form::object_instance) {                                       \
      M out;                                                                                     \
      if (graph) {                                                                               \
        const G g = f == Form::object ? NS::sort_and_merge_graph(in.graph)                       \
                                      : NS::sort_and_merge_graph(ExecSpace(), in.graph);         \
        out = M("out", g, in.numCols());                                                         \
      } else {                                                                                   \
        out = f == Form::object ? NS::sort_and_merge_matrix(in)                                  \
                                : NS::sort_and_merge_matrix(ExecSpace(), in);                    \
      }                                                                                          \
      Kokkos::fence();                                                                           \
      return {out, out.graph.entries.data() == in.graph.entries.data()};                         \
    }                                                                                            \
    R rowmap;                                                                                    \
    E entries;                                                                                   \
    V values;                                                                                    \
    if (in_place) {                                                                              \
      rowmap = R("rowmap", in.graph.row_map.extent(0));                                          \
      entries = E("entries", in.graph.entries.extent(0));                                        \
      values = V("values", in.values.extent(0));                                                 \
      Kokkos::deep_copy(rowmap, in.graph.row_map);                                               \
      Kokkos::deep_copy(entries, in.graph.entries);                                              \
      Kokkos::deep_copy(values, in.values);                                                      \
    }                                                                                            \
    const auto* input_entries = in_place ? entries.data() : in.graph.entries.data();             \
    auto call = [&](const auto& r, const auto& e, const auto& v) {                               \
      if (graph && f == Form::instance) {                                                        \
        NS::sort_and_merge_graph(ExecSpace(), r, e, rowmap, entries);                            \
      } else if (graph && f == Form::template_argument) {                                        \
        NS::sort_and_merge_graph<ExecSpace>(r, e, rowmap, entries);                              \
      } else if (graph) {                                                                        \
        NS::sort_and_merge_graph(r, e, rowmap, entries);                                         \
      } else if (f == Form::instance) {                                                          \
        NS::sort_and_merge_matrix(ExecSpace(), r, e, v, rowmap, entries, values);                \
      } else if (f == Form::template_argument) {                                                 \
        NS::sort_and_merge_matrix<ExecSpace>(r, e, v, rowmap, entries, values);                  \
      } else {                                                                                   \
        NS::sort_and_merge_matrix(r, e, v, rowmap, entries, values);                             \
      }                                                                                          \
    };                                                                                           \
    if (in_place) {                                                                              \
      call(rowmap, entries, values);                                                             \
    } else {                                                                                     \
      call(in.graph.row_map, in.graph.entries, in.values);                                       \
    }                                                                                            \
    Kokkos::fence();                                                                             \
    const M out =                                                                                \
        graph ? M("out", G(entries, rowmap), in.numCols())                                       \
              : M("out", in.numRows(), in.numCols(), values.extent(0), values, rowmap, entries); \
    return {out, entries.data() == input_entries};                                               \
  }
ORDO_TEST_SORT_AND_MERGE(Ordo::KokkosKernels, ordo_merge)
ORDO_TEST_SORT_AND_MERGE(KokkosSparse, kk_merge)
#undef ORDO_TEST_SORT_AND_MERGE

template <class Scalar, class Ordinal, class Offset>
void check_merge(Form f, bool graph, bool in_place, const HostCrs<Ordinal, Offset, Scalar>& host,
                 std::size_t rowmap_extent, const std::string& input) {
  using M = Matrix<Scalar, Ordinal, Offset>;
  auto make = [&] {
    if (rowmap_extent == host.rows.size()) return device_matrix<M>(host);
    return M("A", 0, host.num_cols, 0, typename M::values_type(),
             to_view<typename M::row_map_type>(std::vector<Offset>(rowmap_extent), "row_map"),
             typename M::index_type());
  };
  const M ordo_in = make(), kk_in = make();
  const auto ordo = ordo_merge(f, graph, in_place, ordo_in);
  const auto kk = kk_merge(f, graph, in_place, kk_in);
  const std::string what = std::string(name(f)) + (graph ? ", graph, " : ", matrix, ") +
                           (in_place ? "in place, " : "") + input;
  EXPECT_TRUE(bitwise_equal(to_host(kk.matrix.graph.row_map), to_host(ordo.matrix.graph.row_map)))
      << what;
  EXPECT_TRUE(bitwise_equal(to_host(kk.matrix.graph.entries), to_host(ordo.matrix.graph.entries)))
      << what;
  EXPECT_TRUE(bitwise_equal(to_host(kk.matrix.values), to_host(ordo.matrix.values))) << what;
  EXPECT_EQ(kk.matrix.numRows(), ordo.matrix.numRows()) << what;
  EXPECT_EQ(kk.matrix.nnz(), ordo.matrix.nnz()) << what;
  EXPECT_EQ(kk.same_entries, ordo.same_entries) << what;
  if (rowmap_extent != host.rows.size()) return;
  const auto merged = host.merged();
  EXPECT_TRUE(bitwise_equal(merged.rows, to_host(ordo.matrix.graph.row_map))) << what;
  EXPECT_TRUE(bitwise_equal(merged.cols, to_host(ordo.matrix.graph.entries))) << what;
  if (!graph) EXPECT_TRUE(bitwise_equal(merged.values, to_host(ordo.matrix.values))) << what;
}

TEST(KokkosKernels, SortAndMergeEveryFormAgainstKokkosSparse) {
  using H = HostCrs<int, std::size_t, double>;
  // one_column, few_columns: rows that end with the column id the next row starts with.
  const H repeats(200, 500, false, 0.3, 3), distinct(200, 500, false, 0, 4),
      one_column(300, 1, false, 0.3, 10), few_columns(300, 3, false, 0.3, 11);
  H no_entries(0, 7, false, 0, 5);
  no_entries.rows.assign(6, 0);
  for (Form f : all_forms) {
    if (f == Form::template_arguments) continue;  // sort_and_merge deduces the Views' types
    for (bool graph : {false, true}) {
      for (bool in_place : {false, true}) {
        if (in_place && (f == Form::object || f == Form::object_instance)) continue;
        check_merge(f, graph, in_place, repeats, repeats.rows.size(), "30% repeats");
        check_merge(f, graph, in_place, distinct, distinct.rows.size(), "no repeats");
        check_merge(f, graph, in_place, one_column, one_column.rows.size(), "one column");
        check_merge(f, graph, in_place, few_columns, few_columns.rows.size(), "3 columns");
        check_merge(f, graph, in_place, no_entries, 6, "5 rows, no entries");
        check_merge(f, graph, in_place, no_entries, 0, "a row map of no elements");
        check_merge(f, graph, in_place, no_entries, 1, "a row map of one element");
      }
    }
  }
}

TEST(KokkosKernels, SortAndMergeLongRowsAndTypes) {
  for (bool graph : {false, true}) {
    const HostCrs<int, std::size_t, double> a(3000, 1 << 16, true, 0.3, 6);
    check_merge(Form::instance, graph, false, a, a.rows.size(), "a long row of repeats");
    const HostCrs<int, int, double> b(3000, 1 << 16, true, 0.3, 7);
    check_merge(Form::template_argument, graph, true, b, b.rows.size(), "int offsets");
  }
  const HostCrs<std::int64_t, std::size_t, float> c(3000, 1 << 20, true, 0.5, 8);
  check_merge(Form::implicit, false, false, c, c.rows.size(), "int64 ordinals, float");
  const HostCrs<int, std::size_t, Kokkos::complex<double>> d(500, 300, false, 0.3, 9);
  check_merge(Form::object, false, false, d, d.rows.size(), "complex<double>");
}

// A row map that starts past 0 and ends before the last entry: the entries outside it are not
// the matrix's (sort_and_merge's outputs drop them).
TEST(KokkosKernels, SortAndMergeRowMapInsideTheEntries) {
  using R = Kokkos::View<std::size_t*, MemorySpace>;
  using E = Kokkos::View<int*, MemorySpace>;
  using V = Kokkos::View<double*, MemorySpace>;
  const std::vector<std::size_t> rows = {2, 5, 5, 9};
  const std::vector<int> cols = {7, 7, 3, 1, 3, 4, 4, 2, 4, 9, 9};
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  R ordo_rows, kk_rows;
  E ordo_cols, kk_cols;
  V ordo_values, kk_values;
  Ordo::KokkosKernels::sort_and_merge_matrix(to_view<R>(rows, "rows"), to_view<E>(cols, "cols"),
                                             to_view<V>(values, "values"), ordo_rows, ordo_cols,
                                             ordo_values);
  KokkosSparse::sort_and_merge_matrix(to_view<R>(rows, "rows"), to_view<E>(cols, "cols"),
                                      to_view<V>(values, "values"), kk_rows, kk_cols, kk_values);
  // The oracle: the matrix [2, 9) of the entries, merged row by row.
  HostCrs<int, std::size_t, double> inside(0, 10, false, 0, 1);
  inside.rows = {0, 3, 3, 7};
  inside.cols.assign(cols.begin() + 2, cols.begin() + 9);
  inside.values.assign(values.begin() + 2, values.begin() + 9);
  const auto merged = inside.merged();
  EXPECT_TRUE(bitwise_equal(merged.rows, to_host(ordo_rows)));
  EXPECT_TRUE(bitwise_equal(merged.cols, to_host(ordo_cols)));
  EXPECT_TRUE(bitwise_equal(merged.values, to_host(ordo_values)));
  EXPECT_TRUE(bitwise_equal(to_host(kk_rows), to_host(ordo_rows)));
  EXPECT_TRUE(bitwise_equal(to_host(kk_cols), to_host(ordo_cols)));
  EXPECT_TRUE(bitwise_equal(to_host(kk_values), to_host(ordo_values)));
}

// ---- bad input
// -----------------------------------------------------------------------------------

TEST(KokkosKernels, BadRowMapLeavesTheInputUnchanged) {
  using M = Matrix<double, int, std::size_t>;
  const std::vector<int> cols = {3, 1, 2, 0, 2};
  const std::vector<double> values = {1, 2, 3, 4, 5};
  const std::vector<std::size_t> rows = {0, 3, 2, 5};  // decreasing
  const M A("A", 3, 4, 5, to_view<M::values_type>(values, "values"),
            to_view<M::row_map_type>(rows, "row_map"), to_view<M::index_type>(cols, "entries"));
  auto expect_error = [&](const char* fn, auto&& call) {
    const std::string error = error_of(call);
    EXPECT_NE(error.find(std::string(fn) + ": offsets(1) = 3, offsets(2) = 2"), std::string::npos)
        << error;
    EXPECT_TRUE(bitwise_equal(cols, to_host(A.graph.entries))) << fn;
    EXPECT_TRUE(bitwise_equal(values, to_host(A.values))) << fn;
  };
  expect_error("Ordo::KokkosKernels::sort_crs_matrix",
               [&] { Ordo::KokkosKernels::sort_crs_matrix(A); });
  expect_error("Ordo::KokkosKernels::sort_crs_matrix", [&] {
    Ordo::KokkosKernels::sort_crs_matrix(A.graph.row_map, A.graph.entries, A.values);
  });
  expect_error("Ordo::KokkosKernels::sort_crs_graph",
               [&] { Ordo::KokkosKernels::sort_crs_graph(A.graph.row_map, A.graph.entries); });
  expect_error("Ordo::KokkosKernels::sort_and_merge_matrix",
               [&] { Ordo::KokkosKernels::sort_and_merge_matrix(A); });
  expect_error("Ordo::KokkosKernels::sort_and_merge_graph",
               [&] { Ordo::KokkosKernels::sort_and_merge_graph(A.graph); });
}

}  // namespace
