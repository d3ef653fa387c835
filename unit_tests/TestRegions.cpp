// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Tools annotations: every public device-level call opens one profiling region named after
// it, and every kernel it launches carries an Ordo::<algo>::<phase> label (Kokkos' own fills and
// copies keep their Kokkos:: labels). Checked through Kokkos Tools' callbacks on each backend.
#include "Ordo_TestBackend.hpp"
#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>
#include <Kokkos_UnorderedMap.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;

struct Seen {
  std::vector<std::string> regions, kernels;
  int open = 0;  // regions pushed and not yet popped
};
Seen seen;

void push_region(const char* name) {
  seen.regions.emplace_back(name);
  ++seen.open;
}
void pop_region() { --seen.open; }
void begin_kernel(const char* name, std::uint32_t, std::uint64_t*) {
  seen.kernels.emplace_back(name);
}

// Registers the callbacks for the test's lifetime.
struct ToolsCallbacks {
  ToolsCallbacks() { set(push_region, pop_region, begin_kernel); }
  ~ToolsCallbacks() { set(nullptr, nullptr, nullptr); }
  static void set(void (*push)(const char*), void (*pop)(),
                  void (*begin)(const char*, std::uint32_t, std::uint64_t*)) {
    Kokkos::Tools::Experimental::set_push_region_callback(push);
    Kokkos::Tools::Experimental::set_pop_region_callback(pop);
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(begin);
    Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(begin);
    Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(begin);
  }
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Runs one call; its first region must be `name`, every region it opened must be closed again,
// every kernel label must start with Ordo:: (or Kokkos:: for Kokkos' own), and at least one must
// be Ordo's.
void expect_annotated(const std::string& name, const std::function<void()>& call,
                      bool ordo_kernel_expected = true) {
  SCOPED_TRACE(name);
  ExecSpace().fence();
  seen = Seen{};
  call();
  ExecSpace().fence();
  ASSERT_FALSE(seen.regions.empty()) << "no region";
  EXPECT_EQ(seen.regions.front(), name);
  EXPECT_EQ(seen.open, 0) << "regions left open";
  bool ordo_kernel = false;
  for (const auto& k : seen.kernels) {
    EXPECT_TRUE(starts_with(k, "Ordo::") || starts_with(k, "Kokkos::")) << "kernel label " << k;
    ordo_kernel = ordo_kernel || starts_with(k, "Ordo::");
  }
  if (ordo_kernel_expected) {
    EXPECT_TRUE(ordo_kernel) << "no Ordo:: kernel among " << seen.kernels.size();
  }
}

struct Odd {
  KOKKOS_FUNCTION bool operator()(std::uint32_t x) const { return (x & 1u) != 0; }
};

template <class Map>
struct FillMap {
  Map map;
  KOKKOS_FUNCTION void operator()(int i) const {
    map.insert(std::uint32_t(7 * i), std::uint32_t(i));
  }
};

TEST(Regions, EveryPublicCallIsOneRegionWithOrdoKernels) {
  const ToolsCallbacks callbacks;
  const ExecSpace space;
  const std::size_t n = 3000;
  const auto keys_h = generate<std::uint32_t>(Dist::uniform, n, 1);
  auto sorted_h = keys_h;
  std::sort(sorted_h.begin(), sorted_h.end());
  const auto a = to_device(sorted_h, "a");
  const auto b = to_device(generate<std::uint32_t>(Dist::few_distinct, n, 2), "b");
  Ordo::sort(space, b);
  DeviceView<std::uint32_t> keys("keys", n), values("values", n), out("out", 2 * n),
      out_values("out_values", 2 * n), big("big", (std::size_t(1) << 19) + 3);
  DeviceView<std::int64_t> index("index", n), counts("counts", 2), perm("perm", n);
  DeviceView<std::int64_t> index_b("index_b", n);
  DeviceView<std::uint8_t> match("match", n), match_b("match_b", n), flags("flags", n);
  Kokkos::deep_copy(flags, 1);
  auto fresh = [&] { Kokkos::deep_copy(keys, to_device(keys_h)); };

  expect_annotated("Ordo::sort", [&] { fresh(), Ordo::sort(space, keys); });
  // The radix sort's size: on CUDA with the vendor seam CUB's sorts take it, no Kokkos kernel.
  expect_annotated(
      "Ordo::sort", [&] { Ordo::sort(space, big); },
      !Ordo::Impl::vendor_sort_available_v<ExecSpace>);
  expect_annotated("Ordo::sort", [&] { fresh(), Ordo::sort(space, keys, 10, 2000); });
  expect_annotated("Ordo::sort_by_key", [&] { fresh(), Ordo::sort_by_key(space, keys, values); });
  expect_annotated("Ordo::stable_sort_by_key",
                   [&] { fresh(), Ordo::stable_sort_by_key(space, keys, values); });
  // Segments of every bin: lanes, teams (or warps) and the long bin.
  const auto offsets = to_device(std::vector<std::int64_t>{0, 3, 40, 100, 2990, 3000}, "offsets");
  expect_annotated("Ordo::segmented_sort",
                   [&] { fresh(), Ordo::segmented_sort(space, keys, offsets); });
  expect_annotated("Ordo::segmented_sort_by_key",
                   [&] { fresh(), Ordo::segmented_sort_by_key(space, keys, values, offsets); });
  expect_annotated("Ordo::stable_segmented_sort_by_key", [&] {
    fresh(), Ordo::stable_segmented_sort_by_key(space, keys, values, offsets);
  });
  expect_annotated("Ordo::sort_permutation", [&] { Ordo::sort_permutation(space, a, perm); });
  expect_annotated("Ordo::apply_permutation",
                   [&] { Ordo::apply_permutation(space, perm, keys, values); });
  expect_annotated("Ordo::gather",
                   [&] { Ordo::gather(space, perm, Ordo::views(a), Ordo::views(keys)); });
  {
    const auto cells = to_device(std::vector<std::int32_t>{3, 1, 2, 0, 1}, "cells");
    const auto cell_perm = poisoned<std::uint32_t>(5);
    const auto cell_offsets = poisoned<std::int64_t>(5);
    expect_annotated("Ordo::bin_permutation",
                     [&] { Ordo::bin_permutation(space, cells, 4, cell_perm, cell_offsets); });
  }
  expect_annotated("Ordo::merge", [&] { Ordo::merge(space, a, b, out); });
  expect_annotated("Ordo::merge_by_key",
                   [&] { Ordo::merge_by_key(space, a, keys, b, values, out, out_values); });
  expect_annotated("Ordo::sorted_search",
                   [&] { Ordo::sorted_search(space, a, b, index, Ordo::Bounds::lower); });
  expect_annotated("Ordo::sorted_search", [&] {
    Ordo::sorted_search(space, a, b, Ordo::SearchOutputs{index, match, index_b, match_b},
                        Ordo::Bounds::upper);
  });
  expect_annotated("Ordo::sorted_search", [&] {
    Ordo::sorted_search(space, a, b, Ordo::SearchOutputs{index, match, index_b, match_b},
                        Ordo::Bounds::lower, counts);
  });
  expect_annotated("Ordo::sorted_equality_count",
                   [&] { Ordo::sorted_equality_count(space, a, b, index); });
  expect_annotated("Ordo::lower_bound", [&] { Ordo::lower_bound(space, a, b, index); });
  expect_annotated("Ordo::upper_bound", [&] { Ordo::upper_bound(space, a, b, index); });
  const Odd odd;
  expect_annotated("Ordo::copy_if", [&] { Ordo::copy_if(space, a, out, odd); });
  expect_annotated("Ordo::copy_if", [&] { Ordo::copy_if(space, a, out, odd, counts); });
  expect_annotated("Ordo::copy_if_unordered", [&] { Ordo::copy_if_unordered(space, a, out, odd); });
  expect_annotated("Ordo::copy_flagged", [&] { Ordo::copy_flagged(space, a, flags, out); });

  // The relational primitives (a is distinct, so joins of a with a or b stay small).
  expect_annotated("Ordo::set_intersection", [&] { Ordo::set_intersection(space, a, b, out); });
  expect_annotated("Ordo::set_union", [&] { Ordo::set_union(space, a, b, out, counts); });
  expect_annotated("Ordo::set_difference_by_key", [&] {
    Ordo::set_difference_by_key(space, a, keys, b, values, out, out_values);
  });
  DeviceView<std::int64_t> pair_a("pair_a", 4 * n), pair_b("pair_b", 4 * n);
  expect_annotated("Ordo::inner_join", [&] { Ordo::inner_join(space, a, a, pair_a, pair_b); });
  expect_annotated("Ordo::full_outer_join",
                   [&] { Ordo::full_outer_join(space, a, b, pair_a, pair_b); });
  expect_annotated("Ordo::join_size", [&] { Ordo::join_size(space, Ordo::JoinKind::left, a, b); });
  const auto scan = to_device(std::vector<std::int64_t>{0, 0, 5, 900, 1000}, "scan");
  expect_annotated("Ordo::load_balancing_search",
                   [&] { Ordo::load_balancing_search(space, scan, pair_a, pair_b); });
  const auto five = Kokkos::subview(values, std::pair<std::size_t, std::size_t>(0, 5));
  expect_annotated("Ordo::interval_expand", [&] { Ordo::interval_expand(space, scan, five, out); });
  const DeviceView<std::int64_t> starts("starts", 5);
  expect_annotated("Ordo::interval_gather",
                   [&] { Ordo::interval_gather(space, scan, starts, big, out); });

  using Map = Kokkos::UnorderedMap<std::uint32_t, std::uint32_t, ExecSpace>;
  Map map(2 * n);
  Kokkos::parallel_for("OrdoTest::fill_map", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                       FillMap<Map>{map});
  expect_annotated("Ordo::retrieve_all", [&] { Ordo::retrieve_all(space, map, out, out_values); });
  expect_annotated("Ordo::retrieve_all_unordered",
                   [&] { Ordo::retrieve_all_unordered(space, map, out, out_values); });
}

// A call that fails its argument checks still closes its region.
TEST(Regions, ClosedWhenACallThrows) {
  const ToolsCallbacks callbacks;
  DeviceView<std::uint32_t> a("a", 10), out("out", 5);
  seen = Seen{};
  EXPECT_THROW(Ordo::merge(ExecSpace(), a, a, out), std::invalid_argument);
  ASSERT_EQ(seen.regions.size(), 1u);
  EXPECT_EQ(seen.regions.front(), "Ordo::merge");
  EXPECT_EQ(seen.open, 0);
}

// Which path bin_permutation took, by its kernels: cells in order one pass, others a counting
// sort (host backends) or a sort.
TEST(Regions, BinPermutationPaths) {
  const ToolsCallbacks callbacks;
  const ExecSpace space;
  const std::size_t n = 20000, nbins = 500;
  std::vector<std::int32_t> sorted(n), random(n);
  for (std::size_t i = 0; i < n; ++i) {
    sorted[i] = std::int32_t(i * nbins / n);
    random[i] = std::int32_t(i * 7919 % nbins);
  }
  DeviceView<std::uint32_t> perm("perm", n);
  DeviceView<std::int64_t> offsets("offsets", nbins + 1);
  auto kernels_of = [&](const std::vector<std::int32_t>& cells) {
    const auto d = to_device(cells);
    seen = Seen{};
    Ordo::bin_permutation(space, d, std::int64_t(nbins), perm, offsets);
    space.fence();
    return seen.kernels;
  };
  auto has = [](const std::vector<std::string>& k, const std::string& label) {
    return std::find(k.begin(), k.end(), label) != k.end();
  };
  const auto in_order = kernels_of(sorted);
  EXPECT_TRUE(has(in_order, "Ordo::bin_permutation::identity"));
  EXPECT_FALSE(has(in_order, "Ordo::bin_permutation::offsets"));
  const auto shuffled = kernels_of(random);
  EXPECT_FALSE(has(shuffled, "Ordo::bin_permutation::identity"));
  // Host backends count (a chunk a thread), device backends sort, then read the sorted ids.
  EXPECT_TRUE(has(shuffled, on_host ? "Ordo::bin_permutation::host::scatter"
                                    : "Ordo::bin_permutation::offsets"));
}

}  // namespace
