// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf: Ordo's primitives against their baselines, in one binary and one run
// (perf_tests/README.md).

#include "Ordo_PerfAssembly.hpp"
#include "Ordo_PerfBinning.hpp"
#include "Ordo_PerfCopyIf.hpp"
#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfMerge.hpp"
#include "Ordo_PerfRelational.hpp"
#include "Ordo_PerfRuns.hpp"
#include "Ordo_PerfSegmentedSort.hpp"
#include "Ordo_PerfSort.hpp"
#include "Ordo_PerfSortedSearch.hpp"

#include <CLI/CLI.hpp>

#include <Kokkos_Core.hpp>

#include <fstream>
#include <iostream>
#include <map>

namespace {

void add_common(CLI::App* sub, OrdoPerf::Options& o) {
  sub->add_option("--log2n", o.log2n, "sizes as log2: first:last[:step] (default per primitive)");
  sub->add_option("--key", o.key, "key type")
      ->check(CLI::IsMember({"u32", "u64", "i32", "i64", "f32", "f64"}));
  sub->add_flag("--values", o.values, "carry u32 values with the keys (merge_by_key, sort_by_key)");
  sub->add_option(
      "--dist", o.dist,
      "input distribution: uniform, few_distinct, all_equal, bits20 (sort: keys evenly "
      "spread over [0, 2^20)); set_ops and join: match:P (P% of b's keys in a), dups, "
      "or all (the default); unique, run_length_encode, reduce_by_key: runs:L (sorted "
      "keys in runs of mean length L, default 4); particle_binning: uniform (random cells) "
      "or moved:P (a sorted set after P% of its particles moved to a neighbouring "
      "cell); scan_by_key: runs:L; coo2crs: uniform (random triplets, 30% repeats) or fem:B "
      "(B x B element blocks)");
  sub->add_option(
      "--baseline", o.baselines,
      "baselines to run (default: all built in): copy, std::merge, "
      "cub::DeviceMerge::MergeKeys, cub::DeviceMerge::MergePairs, std::lower_bound, "
      "thrust::lower_bound, cub::DeviceSelect::If, Kokkos::Experimental::copy_if, "
      "std::copy_if, parallel_scan, Kokkos::sort, Kokkos::Experimental::sort_by_key, "
      "Kokkos::Experimental::sort_team, std::sort, cub::DeviceRadixSort::SortKeys, "
      "cub::DeviceRadixSort::SortPairs, cub::DeviceMergeSort::SortKeys, "
      "cub::DeviceMergeSort::SortPairs, cub::DeviceSegmentedSort::SortKeys, "
      "cub::DeviceSegmentedSort::SortPairs, sort_team, std::sort per segment, "
      "std::set_*, thrust::set_*, Kokkos::UnorderedMap hash join, std:: (the runs' host "
      "loops), cub::DeviceSelect::Unique, cub::DeviceRunLengthEncode::Encode, "
      "cub::DeviceReduce::ReduceByKey, Kokkos::BinSort, cub pipeline, sequential counting "
      "sort, cub::DeviceScan::InclusiveScanByKey, thrust::inclusive_scan_by_key");
  sub->add_flag("--check", o.check, "check Ordo's output against the std:: oracle");
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"ordo-perf: Ordo's primitives against their baselines"};
  app.require_subcommand(1);
  app.fallthrough();
  std::string format = "table", output;
  OrdoPerf::Options o;
  app.add_option("--format", format, "table, csv or jsonl")
      ->check(CLI::IsMember({"table", "csv", "jsonl"}));
  app.add_option("--output", output, "also append JSON lines to this file");
  app.add_option("--reps", o.reps, "timed repetitions per point (median, min, max)");
  app.add_option("--warmup", o.warmup, "untimed calls before timing");

  std::map<std::string, void (*)(const OrdoPerf::Options&, OrdoPerf::Report&)> primitives = {
      {"merge", OrdoPerf::run_merge},
      {"sorted_search", OrdoPerf::run_sorted_search},
      {"copy_if", OrdoPerf::run_copy_if},
      {"retrieve_all", OrdoPerf::run_retrieve_all},
      {"sort", OrdoPerf::run_sort},
      {"segmented_sort", OrdoPerf::run_segmented_sort},
      {"set_ops", OrdoPerf::run_set_ops},
      {"join", OrdoPerf::run_join},
      {"load_balancing_search", OrdoPerf::run_load_balancing_search},
      {"unique",
       [](const OrdoPerf::Options& o, OrdoPerf::Report& r) { OrdoPerf::run_runs(o, r, "unique"); }},
      {"run_length_encode",
       [](const OrdoPerf::Options& o, OrdoPerf::Report& r) {
         OrdoPerf::run_runs(o, r, "run_length_encode");
       }},
      {"reduce_by_key", [](const OrdoPerf::Options& o,
                           OrdoPerf::Report& r) { OrdoPerf::run_runs(o, r, "reduce_by_key"); }},
      {"particle_binning", OrdoPerf::run_particle_binning},
      {"coo2crs", OrdoPerf::run_coo2crs},
      {"scan_by_key", OrdoPerf::run_scan_by_key}};
  for (auto& [name, run] : primitives) {
    add_common(app.add_subcommand(name, "time " + name), o);
  }
  app.get_subcommand("sorted_search")
      ->add_option("--mode", o.mode, "lower, complete, equality_count or unsorted (default: all)")
      ->check(CLI::IsMember({"lower", "complete", "equality_count", "unsorted"}));
  app.get_subcommand("sorted_search")
      ->add_option("--index", o.index,
                   "index type of the outputs: i32 (default) or u64 (needed above 2^31 elements)")
      ->check(CLI::IsMember({"i32", "u64"}));
  app.get_subcommand("set_ops")
      ->add_option("--mode", o.mode, "intersection, union, difference or symmetric_difference")
      ->check(CLI::IsMember({"intersection", "union", "difference", "symmetric_difference"}));
  app.get_subcommand("join")
      ->add_option("--mode", o.mode, "inner, left, full or size (default: inner and size)")
      ->check(CLI::IsMember({"inner", "left", "full", "size"}));
  app.get_subcommand("sort")
      ->add_option("--mode", o.mode,
                   "keys (default; --values for pairs) or team (1024-key segments)")
      ->check(CLI::IsMember({"keys", "team"}));
  app.get_subcommand("sort")
      ->add_option("--stream-levels", o.stream_levels,
                   "tuning experiment: streaming merge levels to run (default: Ordo's tuning)")
      ->check(CLI::Range(0, 8));
  app.get_subcommand("sort")
      ->add_option("--partition-lanes", o.partition_lanes,
                   "tuning experiment: vector lanes that search each merge-pass tile boundary, "
                   "1 (one thread), 4, 8, 16 or 32 (default: Ordo's tuning)")
      ->check(CLI::IsMember({1, 4, 8, 16, 32}));
  app.get_subcommand("sort")
      ->add_option("--algorithm", o.algorithm,
                   "the slab sort, Ordo's radix sort, the vendor radix sort or the vendor merge "
                   "sort (arithmetic keys; CUB on CUDA builds with Ordo_ENABLE_CUB, else Ordo's "
                   "radix sort, or the slab sort for merge) at every size (default: Ordo's "
                   "dispatch)")
      ->check(CLI::IsMember({"slab", "radix", "vendor", "merge"}));
  app.get_subcommand("sort")
      ->add_option("--vendor-bits", o.vendor_bits,
                   "tuning experiment: whether the vendor sort first finds the bits that vary, "
                   "0 or 1 (default: Ordo's tuning)")
      ->check(CLI::Range(0, 1));
  app.get_subcommand("sort")
      ->add_option("--keys", o.keys,
                   "key Views: 1 (default) or 2 (sort_by_key(keys(row, col), f64 values); --dist "
                   "uniform: any u32, matrix: both below n / 16)")
      ->check(CLI::Range(1, 2));
  app.get_subcommand("segmented_sort")
      ->add_option("--segments", o.segments,
                   "segment lengths: uniform:L, powerlaw (mean about 16, at most 2^16), tiny "
                   "(mean 4) or cells (Poisson, mean 32); default powerlaw");
  for (const char* name : {"copy_if", "retrieve_all"}) {
    app.get_subcommand(name)
        ->add_option(
            "--fraction", o.fraction,
            "copy_if: share of the keys kept; retrieve_all: entries per slot (default 0.5)")
        ->check(CLI::Range(0.0, 1.0));
  }
  auto* all = app.add_subcommand("all", "every implemented primitive at its default size");
  all->add_flag("--check", o.check, "check Ordo's output against the std:: oracle");

  CLI11_PARSE(app, argc, argv);

  Kokkos::ScopeGuard guard(argc, argv);
  try {
    OrdoPerf::Report report;
    report.add_sink(format, std::cout);
    std::ofstream file;
    if (!output.empty()) {
      file.open(output, std::ios::app);
      report.add_sink("jsonl", file);
    }
    for (auto& [name, run] : primitives) {
      if (all->parsed()) {
        run(o, report);
        if (name == "merge") {
          OrdoPerf::Options with_values = o;
          with_values.values = true;
          run(with_values, report);
        }
      } else if (app.got_subcommand(name)) {
        run(o, report);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
