// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf-kokkoskernels: Ordo::KokkosKernels::sort_crs_matrix against
// KokkosSparse::sort_crs_matrix on a CrsMatrix of int column ids and f64 values whose row lengths
// follow --segments (ordo-perf segmented_sort's names), in one run. Every timed call starts from
// the same unsorted rows.

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo_KokkosKernels.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_SortCrs.hpp>

#include <CLI/CLI.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace OrdoPerf;
using Matrix = KokkosSparse::CrsMatrix<double, int, ExecSpace>;
using Offset = Matrix::size_type;

void run_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const int columns = 1 << 24;
  const auto offsets64 = segment_offsets(o.segments, n, 3);
  std::vector<Offset> hrows(offsets64.begin(), offsets64.end());
  const int rows = int(hrows.size()) - 1;
  std::uint64_t state = 7;
  std::vector<int> hcols(n);
  std::vector<double> hvalues(n);
  for (std::int64_t i = 0; i < n; ++i) {
    hcols[i] = int(splitmix64(state) % columns);
    hvalues[i] = 0.5 * hcols[i];
  }
  const auto in_cols = to_device(hcols, "in_cols");
  const auto in_values = to_device(hvalues, "in_values");
  const auto row_map = to_device(hrows, "row_map");
  const Matrix A("A", rows, columns, Offset(n), Kokkos::View<double*, MemorySpace>("values", n),
                 row_map, Kokkos::View<int*, MemorySpace>("entries", n));
  auto reset = [&] {
    Kokkos::deep_copy(space, A.graph.entries, in_cols);
    Kokkos::deep_copy(space, A.values, in_values);
  };
  const double bytes = 2.0 * n * (sizeof(int) + sizeof(double));
  Point p{"sort_crs_matrix", "i32", o.segments, "ordo", true, n, {}, bytes, 1.0};
  p.stats = time_device(
      space, o.warmup, o.reps, [&] { Ordo::KokkosKernels::sort_crs_matrix(space, A); }, reset);
  report.point(p);
  if (o.check) {
    const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
    const auto vals = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values);
    for (int r = 0; r < rows; ++r) {
      std::sort(hcols.begin() + hrows[r], hcols.begin() + hrows[r + 1]);
    }
    for (std::int64_t i = 0; i < n; ++i) {
      if (cols(i) != hcols[i] || vals(i) != 0.5 * cols(i)) {
        throw std::runtime_error("ordo-perf-kokkoskernels --check: a row differs from std::sort");
      }
    }
  }
  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(Point{"sort_crs_matrix", "i32", o.segments, impl, true, n, s, bytes,
                       s.median_ms / p.stats.median_ms});
  };
  if (wanted(o, "copy")) baseline("copy", time_copy(o, bytes));
  if (wanted(o, "KokkosSparse::sort_crs_matrix")) {
    baseline("KokkosSparse::sort_crs_matrix",
             time_device(
                 space, o.warmup, o.reps, [&] { KokkosSparse::sort_crs_matrix(space, A); }, reset));
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"ordo-perf-kokkoskernels: Ordo's CRS sorts against Kokkos Kernels'"};
  std::string format = "table", output;
  Options o;
  o.log2n = on_host ? "22" : "24";
  app.add_option("--format", format, "table, csv or jsonl")
      ->check(CLI::IsMember({"table", "csv", "jsonl"}));
  app.add_option("--output", output, "also append JSON lines to this file");
  app.add_option("--reps", o.reps, "timed repetitions per point (median, min, max)");
  app.add_option("--warmup", o.warmup, "untimed calls before timing");
  app.add_option("--log2n", o.log2n, "nonzeros as log2: first:last[:step]");
  app.add_option("--segments", o.segments,
                 "row lengths: uniform:L, powerlaw (default), tiny or cells (ordo-perf's names)");
  app.add_option("--baseline", o.baselines, "copy, KokkosSparse::sort_crs_matrix (default: all)");
  app.add_flag("--check", o.check, "check Ordo's rows against std::sort");
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
    for (int log2n : parse_log2n(o.log2n)) run_point(o, report, log2n);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
