// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf-kokkoskernels: Ordo::KokkosKernels' CRS sorts against Kokkos Kernels' own, in one run,
// called by their View forms on a CrsMatrix of int column ids and f64 values (graphs: its row map
// and column ids) whose row lengths follow --segments (ordo-perf segmented_sort's names):
//   sort_crs_matrix, sort_crs_graph               rows of distinct column ids
//   sort_and_merge_matrix, sort_and_merge_graph   a share --repeats of each row's entries repeat a
//                                                 column id of the row (an SpGEMM's unmerged
//                                                 output); the call allocates the merged outputs
//                                                 (timed), the previous call's are freed before
//                                                 it (untimed)
// Every timed call starts from the same unsorted rows.
//   coo2crs   the CRS matrix of Triplets (ordo-perf coo2crs' inputs: --dist uniform or fem:B;
//             int indices, f64 values), the matrix allocated in the call

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo_KokkosKernels.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_SortCrs.hpp>
#include <KokkosSparse_coo2crs.hpp>

#include <CLI/CLI.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace OrdoPerf;
using Matrix = KokkosSparse::CrsMatrix<double, int, ExecSpace>;
using Offset = Matrix::size_type;
using RowMap = Matrix::row_map_type::non_const_type;
using Entries = Matrix::index_type;
using Values = Matrix::values_type;

const std::vector<std::string> primitives = {"sort_crs_matrix", "sort_crs_graph",
                                             "sort_and_merge_matrix", "sort_and_merge_graph",
                                             "coo2crs"};

// Rows of n entries in all: lengths from --segments, column ids of [0, 2^24), a share `repeats` of
// each row's entries copies of the row's other column ids; values small integers (exact sums).
struct HostRows {
  std::vector<Offset> rows;
  std::vector<int> cols;
  std::vector<double> values;
  HostRows(const std::string& segments, std::int64_t n, double repeats) {
    const auto offsets = segment_offsets(segments, n, 3);
    rows.assign(offsets.begin(), offsets.end());
    cols.resize(n);
    values.resize(n);
    std::uint64_t state = 7;
    for (std::size_t r = 0; r + 1 < rows.size(); ++r) {
      const std::int64_t lo = rows[r], len = std::int64_t(rows[r + 1]) - lo;
      const std::int64_t distinct =
          std::max<std::int64_t>(len > 0, len - std::int64_t(len * repeats));
      for (std::int64_t k = 0; k < len; ++k) {
        cols[lo + k] = k < distinct ? int(splitmix64(state) % (1 << 24))
                                    : cols[lo + std::int64_t(splitmix64(state) % distinct)];
      }
      for (std::int64_t k = len; k > 1; --k) {
        std::swap(cols[lo + k - 1], cols[lo + std::int64_t(splitmix64(state) % k)]);
      }
    }
    for (std::int64_t i = 0; i < n; ++i) values[i] = double(cols[i] % 7);
  }
  // The oracle: each row's (column, value) pairs sorted, and with `merge` the values of a
  // repeated column summed.
  HostRows sorted(bool merge) const {
    HostRows out = *this;
    out.rows = {0};
    out.cols.clear();
    out.values.clear();
    for (std::size_t r = 0; r + 1 < rows.size(); ++r) {
      std::vector<std::pair<int, double>> row;
      for (auto i = rows[r]; i < rows[r + 1]; ++i) row.push_back({cols[i], values[i]});
      std::sort(row.begin(), row.end());
      for (std::size_t k = 0; k < row.size(); ++k) {
        if (merge && k > 0 && row[k].first == row[k - 1].first) {
          out.values.back() += row[k].second;
        } else {
          out.cols.push_back(row[k].first);
          out.values.push_back(row[k].second);
        }
      }
      out.rows.push_back(Offset(out.cols.size()));
    }
    return out;
  }
};

// The View forms of each implementation, named alike: NAME::f(args...) calls NS::f(args...).
#define ORDO_PERF_CALLS(NAME, NS)                \
  struct NAME {                                  \
    template <class... A>                        \
    static void sort_crs_matrix(A&... a) {       \
      NS::sort_crs_matrix(a...);                 \
    }                                            \
    template <class... A>                        \
    static void sort_crs_graph(A&... a) {        \
      NS::sort_crs_graph(a...);                  \
    }                                            \
    template <class... A>                        \
    static void sort_and_merge_matrix(A&... a) { \
      NS::sort_and_merge_matrix(a...);           \
    }                                            \
    template <class... A>                        \
    static void sort_and_merge_graph(A&... a) {  \
      NS::sort_and_merge_graph(a...);            \
    }                                            \
  };
ORDO_PERF_CALLS(OrdoCalls, Ordo::KokkosKernels)
ORDO_PERF_CALLS(KokkosSparseCalls, KokkosSparse)
#undef ORDO_PERF_CALLS

template <class V>
std::vector<typename V::non_const_value_type> host_of(const V& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename V::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

// coo2crs: Ordo's against Kokkos Kernels' on the same triplets.
void run_coo2crs_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const Triplets t = make_triplets(o.dist, std::int64_t(1) << log2n, 17);
  const std::int64_t count = t.row.size();
  const auto row = to_device(t.row, "row");
  const auto col = to_device(t.col, "col");
  const auto data = to_device(t.data, "data");
  Ordo::KokkosKernels::Coo2CrsMatrix<ExecSpace, decltype(row), decltype(col), decltype(data)> A, K;
  Point p{"coo2crs", "i32", o.dist, "ordo", true, count, {}, 0.0, 1.0};
  p.stats = time_device(space, o.warmup, o.reps, [&] {
    A = Ordo::KokkosKernels::coo2crs(space, int(t.m), int(t.n), row, col, data);
  });
  p.bytes = double(count) * 16 + double(A.nnz()) * 12 + double(t.m + 1) * 4;
  report.point(p);
  if (wanted(o, "copy")) {
    const Stats s = time_copy(o, p.bytes);
    report.point(Point{"coo2crs", "i32", o.dist, "copy", true, count, s, p.bytes,
                       s.median_ms / p.stats.median_ms});
  }
  if (wanted(o, "KokkosSparse")) {
    const Stats s = time_device(space, o.warmup, o.reps, [&] {
      K = KokkosSparse::coo2crs(int(t.m), int(t.n), row, col, data);
    });
    report.point(Point{"coo2crs", "i32", o.dist, "KokkosSparse::coo2crs", true, count, s, p.bytes,
                       s.median_ms / p.stats.median_ms});
    if (o.check && (host_of(K.graph.row_map) != host_of(A.graph.row_map) ||
                    host_of(K.graph.entries) != host_of(A.graph.entries) ||
                    host_of(K.values) != host_of(A.values))) {
      throw std::runtime_error(
          "ordo-perf-kokkoskernels --check: coo2crs differs from Kokkos "
          "Kernels'");
    }
  }
}

void run_point(const Options& o, double repeats, const std::string& primitive, Report& report,
               int log2n) {
  if (primitive == "coo2crs") {
    run_coo2crs_point(o, report, log2n);
    return;
  }
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const bool merge = primitive.rfind("sort_and_merge", 0) == 0;
  const bool graph = primitive.find("graph") != std::string::npos;
  const HostRows host(o.segments, n, merge ? repeats : 0.0);
  const auto in_cols = to_device(host.cols, "in_cols");
  const auto in_values = to_device(host.values, "in_values");
  const auto row_map = to_device(host.rows, "row_map");
  const typename RowMap::const_type rows = row_map;
  const Entries entries("entries", n);
  const Values values("values", n);
  RowMap rows_out;
  Entries entries_out;
  Values values_out;
  // Untimed: the unsorted rows again, and the previous call's merged outputs released (their
  // deallocation is not the next call's work).
  auto reset = [&] {
    rows_out = RowMap();
    entries_out = Entries();
    values_out = Values();
    Kokkos::deep_copy(space, entries, in_cols);
    if (!graph) Kokkos::deep_copy(space, values, in_values);
  };
  // Each implementation's call: the View forms with an instance (asynchronous on it; the merges
  // read back their size).
  auto call = [&](auto ns) {
    using NS = decltype(ns);
    if (primitive == "sort_crs_matrix") NS::sort_crs_matrix(space, rows, entries, values);
    if (primitive == "sort_crs_graph") NS::sort_crs_graph(space, rows, entries);
    if (primitive == "sort_and_merge_matrix") {
      NS::sort_and_merge_matrix(space, rows, entries, values, rows_out, entries_out, values_out);
    }
    if (primitive == "sort_and_merge_graph") {
      NS::sort_and_merge_graph(space, rows, entries, rows_out, entries_out);
    }
  };
  // Bytes: the rows read and written once (a merge writes its merged size).
  const HostRows expected = host.sorted(merge);
  const double record = graph ? sizeof(int) : sizeof(int) + sizeof(double);
  const double bytes = record * (n + double(expected.cols.size()));
  const std::string key = "i32";
  Point p{primitive, key, o.segments, "ordo", !graph, n, {}, bytes, 1.0};
  p.stats = time_device(
      space, o.warmup, o.reps, [&] { call(OrdoCalls{}); }, reset);
  report.point(p);
  if (o.check) {
    reset();
    call(OrdoCalls{});
    space.fence();
    const bool ok =
        merge ? host_of(rows_out) == expected.rows && host_of(entries_out) == expected.cols &&
                    (graph || host_of(values_out) == expected.values)
              : host_of(entries) == expected.cols && (graph || host_of(values) == expected.values);
    if (!ok) {
      throw std::runtime_error("ordo-perf-kokkoskernels --check: " + primitive +
                               " differs from the sequential rows");
    }
  }
  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(Point{primitive, key, o.segments, impl, !graph, n, s, bytes,
                       s.median_ms / p.stats.median_ms});
  };
  if (wanted(o, "copy")) baseline("copy", time_copy(o, bytes));
  const std::string kk = "KokkosSparse::" + primitive;
  if (wanted(o, "KokkosSparse")) {
    baseline(kk, time_device(
                     space, o.warmup, o.reps, [&] { call(KokkosSparseCalls{}); }, reset));
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"ordo-perf-kokkoskernels: Ordo's CRS sorts against Kokkos Kernels'"};
  std::string format = "table", output;
  Options o;
  o.log2n = on_host ? "22" : "24";
  std::vector<std::string> chosen = primitives;
  double repeats = 0.3;
  app.add_option("--format", format, "table, csv or jsonl")
      ->check(CLI::IsMember({"table", "csv", "jsonl"}));
  app.add_option("--output", output, "also append JSON lines to this file");
  app.add_option("--primitive", chosen,
                 "sort_crs_matrix, sort_crs_graph, sort_and_merge_matrix, "
                 "sort_and_merge_graph, coo2crs (default: all)")
      ->check(CLI::IsMember(primitives))
      ->delimiter(',');
  app.add_option("--reps", o.reps, "timed repetitions per point (median, min, max)");
  app.add_option("--warmup", o.warmup, "untimed calls before timing");
  app.add_option("--log2n", o.log2n, "nonzeros as log2: first:last[:step]");
  app.add_option("--segments", o.segments,
                 "row lengths: uniform:L, powerlaw (default), tiny or cells (ordo-perf's names)");
  app.add_option("--dist", o.dist, "coo2crs: uniform (default) or fem:B");
  app.add_option("--repeats", repeats,
                 "sort_and_merge: the share of each row's entries that "
                 "repeat a column id of the row (default 0.3)")
      ->check(CLI::Range(0.0, 0.99));
  app.add_option("--baseline", o.baselines, "copy, KokkosSparse (default: all)");
  app.add_flag("--check", o.check, "check Ordo's rows against a sequential sort and merge");
  CLI11_PARSE(app, argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  try {
    Report report;
    report.add_sink(format, std::cout);
    std::ofstream file;
    if (!output.empty()) {
      file.open(output, std::ios::app);
      report.add_sink("jsonl", file);
    }
    for (const auto& primitive : chosen) {
      for (int log2n : parse_log2n(o.log2n)) run_point(o, repeats, primitive, report, log2n);
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
