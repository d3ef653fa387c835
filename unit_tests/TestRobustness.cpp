// SPDX-License-Identifier: BSD-3-Clause
// Robustness: input Ordo cannot check cheaply (unsorted input, comparators that are not strict
// weak orders, scans that do not start at 0 or decrease, permutations with entries out of range)
// gives unspecified output but never an access outside the caller's Views; the errors added for
// what can be checked; float keys whose bits differ where Ordo::less sees them equal; the team
// calls' checks. Built into the unit tests (ORDO_ENABLE_DEBUG_CHECKS: unsorted input may throw
// instead) and, with the fuzz driver, into ordo-robustness-<backend> without the checks.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestRobustness.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace OrdoTest;

Keys unsorted_keys(std::size_t n, std::uint64_t seed, std::uint32_t range = 1000) {
  std::mt19937_64 rng(seed);
  Keys v(n);
  for (auto& x : v) x = std::uint32_t(rng() % range);
  return v;
}

// Sorted keys but for one element moved to the front: monotone co-ranks almost everywhere.
Keys nearly_sorted_keys(std::size_t n, std::uint64_t seed) {
  Keys v = unsorted_keys(n, seed);
  std::sort(v.begin(), v.end());
  if (n > 1) std::rotate(v.begin(), v.end() - 1, v.end());
  return v;
}

const std::vector<std::size_t> sizes{1, 100, 5001, 70001};

TEST(Robustness, MergeOfUnsortedInputOrUnderBadComparators) {
  for (std::size_t n : sizes) {
    for (int kind = 0; kind < 4; ++kind) {
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("n " + std::to_string(n) + ", " + order_name(kind) + ", path " +
                     std::to_string(int(path)));
        robust_merge(unsorted_keys(n, 1), unsorted_keys(n / 2 + 3, 2), {kind}, path, n % 3);
        robust_merge(nearly_sorted_keys(n, 3), nearly_sorted_keys(n + 7, 4), {kind}, path, 1);
      }
    }
  }
}

TEST(Robustness, SearchOfUnsortedInputOrUnderBadComparators) {
  for (std::size_t n : sizes) {
    for (int kind = 0; kind < 4; ++kind) {
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("n " + std::to_string(n) + ", " + order_name(kind) + ", path " +
                     std::to_string(int(path)));
        robust_search(unsorted_keys(n, 5), unsorted_keys(2 * n + 1, 6), {kind}, path);
        robust_search(nearly_sorted_keys(2 * n, 7), nearly_sorted_keys(n, 8), {kind}, path);
      }
    }
  }
}

TEST(Robustness, SetOperationsOfUnsortedInputOrUnderBadComparators) {
  for (std::size_t n : sizes) {
    for (int kind = 0; kind < 4; ++kind) {
      for (Path path : {Path::dispatch, Path::tiled}) {
        SCOPED_TRACE("n " + std::to_string(n) + ", " + order_name(kind) + ", path " +
                     std::to_string(int(path)));
        robust_set_ops(unsorted_keys(n, 9, 50), unsorted_keys(n + 11, 10, 50), {kind}, path);
        robust_set_ops(nearly_sorted_keys(n, 11), nearly_sorted_keys(n, 12), {kind}, path);
      }
    }
  }
}

TEST(Robustness, SortsUnderBadComparators) {
  Ordo::Impl::SortOptions portable;
  portable.path = Ordo::Impl::SortPath::portable;
  for (std::size_t n : sizes) {
    for (int kind = 1; kind < 4; ++kind) {
      for (const auto& options : {Ordo::Impl::SortOptions{}, portable}) {
        SCOPED_TRACE("n " + std::to_string(n) + ", " + order_name(kind) + ", " +
                     (options.path == Ordo::Impl::SortPath::portable ? "portable" : "automatic"));
        robust_sorts(unsorted_keys(n, 13), {kind}, options);
        // 1000 equal keys: std::sort under <= wrote hundreds of elements outside its range.
        robust_sorts(Keys(n, 7u), {kind}, options);
      }
    }
  }
}

TEST(Robustness, JoinsOfUnsortedInputOrUnderBadComparators) {
  for (std::size_t n : {std::size_t(1), std::size_t(100), std::size_t(5001)}) {
    for (int kind = 0; kind < 4; ++kind) {
      SCOPED_TRACE("n " + std::to_string(n) + ", " + order_name(kind));
      robust_joins(unsorted_keys(n, 14, 300), unsorted_keys(n + 5, 15, 300), {kind});
    }
  }
}

TEST(Robustness, RunsUnderBadComparators) {
  for (std::size_t n : sizes) {
    for (int kind = 0; kind < 4; ++kind) {
      SCOPED_TRACE("n " + std::to_string(n) + ", " + order_name(kind));
      robust_runs(unsorted_keys(n, 16, 50), {kind});
      robust_runs(Keys(n, 7u), {kind});
    }
  }
}

TEST(Robustness, BinOffsetsOfUnsortedOrOutOfRangeKeys) {
  for (std::size_t n : sizes) {
    SCOPED_TRACE("n " + std::to_string(n));
    robust_bin_offsets(unsorted_keys(n, 17, 100), 100);
    robust_bin_offsets(unsorted_keys(n, 18, 100), 60);
    robust_bin_offsets(nearly_sorted_keys(n, 19), 1000);
  }
}

TEST(Robustness, LoadBalanceOfBadScans) {
  for (std::size_t m : {std::size_t(1), std::size_t(50), std::size_t(3001)}) {
    const std::size_t outputs = 4 * m + 3;
    std::mt19937_64 rng(m);
    std::vector<std::int64_t> starting_late(m), decreasing(m), random(m), starts(m);
    for (std::size_t i = 0; i < m; ++i) {
      starting_late[i] = std::int64_t(5 + 4 * i);         // counts_scan(0) > 0
      decreasing[i] = std::int64_t(outputs - 1 - 4 * i);  // from the end down to below 0
      random[i] = std::int64_t(rng() % (2 * outputs)) - std::int64_t(outputs / 2);
      starts[i] = std::int64_t(rng() % (3 * m)) - std::int64_t(m);  // intervals leave values
    }
    for (const auto* scan : {&starting_late, &decreasing, &random}) {
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("m " + std::to_string(m) + ", path " + std::to_string(int(path)));
        robust_load_balance(*scan, starts, outputs, path);
      }
    }
  }
}

TEST(Robustness, PermutationsOutOfRange) {
  for (std::size_t n : sizes) {
    std::mt19937_64 rng(n);
    std::vector<std::int64_t> perm(n);
    for (auto& p : perm) p = std::int64_t(rng() % (3 * n + 1)) - std::int64_t(n);
    SCOPED_TRACE("n " + std::to_string(n));
    robust_permutation(perm);
  }
}

// ---- errors that hold in every build ----------------------------------------------------------

struct Even {
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint32_t x) const { return x % 2 == 0; }
};

template <class F>
void expect_error(const char* prefix, F&& f) {
  const std::string message = error_of(f);
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
}

TEST(RobustnessErrors, CountOverlappingTheInput) {
  const Keys in = unsorted_keys(100, 16);
  Guarded<std::uint32_t> g(100, 0, in);
  DeviceView<std::uint32_t> out("out", 100);
  // count(0) over in's first two elements.
  const Kokkos::View<std::int64_t*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> count(
      reinterpret_cast<std::int64_t*>(g.view.data()), 1);
  const ExecSpace space;
  expect_error("Ordo::copy_if: count aliases in",
               [&] { Ordo::copy_if(space, g.view, out, Even{}, count); });
  expect_error("Ordo::copy_if_unordered: count aliases in",
               [&] { Ordo::copy_if_unordered(space, g.view, out, Even{}, count); });
  expect_error("Ordo::copy_flagged: count aliases in",
               [&] { Ordo::copy_flagged(space, g.view, g.view, out, count); });
  EXPECT_EQ(g.elements(), in);
}

TEST(RobustnessErrors, OverlappingPermutedViews) {
  const std::size_t n = 64;
  std::vector<std::int64_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = std::int64_t(n - 1 - i);
  const auto p = to_device(perm);
  const Keys data = unsorted_keys(n + 8, 17);
  Guarded<std::uint32_t> g(n + 8, 0, data);
  const DeviceView<std::uint32_t> first =
      Kokkos::subview(g.view, std::make_pair(std::size_t(0), n));
  const DeviceView<std::uint32_t> shifted =
      Kokkos::subview(g.view, std::make_pair(std::size_t(8), n + 8));
  expect_error("Ordo::apply_permutation: one of the permuted Views aliases another",
               [&] { Ordo::apply_permutation(ExecSpace(), p, first, shifted); });
  EXPECT_EQ(g.elements(), data);
}

// gather with entries that are no row of the source: without the debug checks those rows keep
// their contents and nothing outside the Views is touched; with them, the error.
TEST(RobustnessErrors, GatherWithPositionsOutOfRange) {
  const std::size_t n = 300;
  std::vector<std::int64_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) {
    perm[i] = i % 7 == 0 ? -1 : i % 11 == 0 ? std::int64_t(n) + 5 : std::int64_t(n - 1 - i);
  }
  const Keys src_h = unsorted_keys(n, 21);
  Guarded<std::uint32_t> src(n, 0, src_h), dst(n, 3);
  const auto p = to_device(perm);
  if constexpr (Ordo::Impl::debug_checks) {
    expect_error("Ordo::gather: perm holds positions outside [0, 300)", [&] {
      Ordo::gather(ExecSpace(), p, Ordo::views(src.view), Ordo::views(dst.view));
    });
  } else {
    Ordo::gather(ExecSpace(), p, Ordo::views(src.view), Ordo::views(dst.view));
  }
  const auto out = dst.elements();
  for (std::size_t i = 0; i < n; ++i) {
    const bool moved = !Ordo::Impl::debug_checks && perm[i] >= 0 && perm[i] < std::int64_t(n);
    EXPECT_EQ(out[i], moved ? src_h[std::size_t(perm[i])] : poison_value<std::uint32_t>()) << i;
  }
  EXPECT_EQ(src.elements(), src_h);
}

// bin_permutation refuses ids outside [0, nbins) in every build, before any output is written.
TEST(RobustnessErrors, BinPermutationWithIdsOutOfRange) {
  const std::size_t n = 5000;
  std::vector<std::int32_t> cells(n);
  for (std::size_t i = 0; i < n; ++i) cells[i] = std::int32_t(i * 13 % 100);
  cells[4321] = 100;
  Guarded<std::uint32_t> perm(n, 1);
  Guarded<std::uint32_t> offsets(101, 2);
  expect_error("Ordo::bin_permutation: cells(4321) = 100 lies outside [0, 100)", [&] {
    Ordo::bin_permutation(ExecSpace(), to_device(cells), 100, perm.view, offsets.view);
  });
  EXPECT_EQ(perm.elements(), std::vector<std::uint32_t>(n, poison_value<std::uint32_t>()));
  EXPECT_EQ(offsets.elements(), std::vector<std::uint32_t>(101, poison_value<std::uint32_t>()));
}

TEST(RobustnessErrors, JoinSizeOfAnInvalidKind) {
  const auto a = to_device(Keys{1, 2, 3});
  expect_error("Ordo::join_size: kind is 7",
               [&] { Ordo::join_size(ExecSpace(), static_cast<Ordo::JoinKind>(7), a, a); });
}

TEST(RobustnessErrors, ZeroSegmentsWithAnOffsetOutsideKeys) {
  const Keys keys = unsorted_keys(5, 18);
  Guarded<std::uint32_t> g(5, 0, keys);
  for (std::int64_t offset : {std::int64_t(-3), std::int64_t(6)}) {
    const auto offsets = to_device(std::vector<std::int64_t>{offset});
    expect_error("Ordo::segmented_sort: offsets(0) = ",
                 [&] { Ordo::segmented_sort(ExecSpace(), g.view, offsets); });
  }
  for (std::int64_t offset : {std::int64_t(0), std::int64_t(5)}) {
    const auto offsets = to_device(std::vector<std::int64_t>{offset});
    Ordo::segmented_sort(ExecSpace(), g.view, offsets);
  }
  EXPECT_EQ(g.elements(), keys);
}

TEST(RobustnessErrors, IntervalsOfEmptyValues) {
  const auto scan = to_device(std::vector<std::int64_t>{0, 2});
  const auto starts = to_device(std::vector<std::int64_t>{0, 0});
  DeviceView<std::uint32_t> values("values", 0), out("out", 4);
  expect_error("Ordo::interval_gather: values is empty",
               [&] { Ordo::interval_gather(ExecSpace(), scan, starts, values, out); });
}

// Two columns of one LayoutRight 2-D View (an array of structs) share no element: accepted, and
// sorted as std::stable_sort sorts the pairs; one column twice is an alias.
TEST(RobustnessErrors, ColumnsOfOneArrayOfStructs) {
  const std::size_t n = 5001;
  const Keys keys = unsorted_keys(n, 19, 100);
  Kokkos::View<std::uint32_t* [2], Kokkos::LayoutRight, MemorySpace> aos("aos", n);
  auto h = Kokkos::create_mirror_view(aos);
  for (std::size_t i = 0; i < n; ++i) h(i, 0) = keys[i], h(i, 1) = std::uint32_t(i);
  Kokkos::deep_copy(aos, h);
  const auto k = Kokkos::subview(aos, Kokkos::ALL, 0);
  const auto v = Kokkos::subview(aos, Kokkos::ALL, 1);
  expect_error("Ordo::stable_sort_by_key: values aliases keys",
               [&] { Ordo::stable_sort_by_key(ExecSpace(), k, k); });
  Ordo::stable_sort_by_key(ExecSpace(), k, v);
  Kokkos::deep_copy(h, aos);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = {keys[i], std::uint32_t(i)};
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(h(i, 0), expected[i].first) << i;
    ASSERT_EQ(h(i, 1), expected[i].second) << i;
  }
}

// 128 items need item indices up to 127, which int8_t holds; 129 do not.
TEST(RobustnessErrors, NarrowIndexTypesHoldTheLargestIndex) {
  for (std::size_t m : {std::size_t(128), std::size_t(129)}) {
    std::vector<std::int64_t> scan(m);
    for (std::size_t i = 0; i < m; ++i) scan[i] = std::int64_t(i);
    const auto s = to_device(scan);
    DeviceView<std::int8_t> item("item", m);
    if (m == 128) {
      Ordo::load_balancing_search(ExecSpace(), s, item);
      ExecSpace().fence();
      const auto h = to_host(item);
      for (std::size_t k = 0; k < m; ++k) ASSERT_EQ(std::int64_t(h[k]), std::int64_t(k));
    } else {
      expect_error("Ordo::load_balancing_search: out_item's value type cannot hold 128",
                   [&] { Ordo::load_balancing_search(ExecSpace(), s, item); });
    }
  }
}

// ---- float keys whose bits differ where Ordo::less sees them equal ----------------------------

// The documented order of the sorts under Ordo::less: values (-0.0 before +0.0), then NaNs,
// positive ones by payload, then negative ones by decreasing payload (the bits' order after the
// transform). Written from the floats' fields, not from Ordo's transform.
std::tuple<int, float, int, std::uint32_t> float_rank(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  const bool negative = bits >> 31;
  const std::uint32_t payload = bits & 0x7FFFFFu;
  if (x != x) return {negative ? 2 : 1, 0.0f, 0, negative ? ~payload : payload};
  return {0, x, negative ? 0 : 1, 0};
}

TEST(RobustnessNaN, StableSortsKeepTheOrderOfIdenticalBitsOnly) {
  auto nan = [](bool negative, std::uint32_t payload) {
    const std::uint32_t bits = (negative ? 0xFF800000u : 0x7F800000u) | payload;
    float x;
    std::memcpy(&x, &bits, 4);
    return x;
  };
  const float specials[] = {-0.0f,
                            0.0f,
                            nan(false, 1),
                            nan(false, 0x400000),
                            nan(true, 0x400000),
                            nan(true, 3),
                            1.5f,
                            -2.0f,
                            std::numeric_limits<float>::infinity()};
  for (std::size_t n : {std::size_t(1000), large_size()}) {
    std::mt19937_64 rng(n);
    std::vector<float> keys(n);
    for (auto& x : keys) x = specials[rng() % 9];
    std::vector<std::uint32_t> positions(n);
    for (std::size_t i = 0; i < n; ++i) positions[i] = std::uint32_t(i);
    for (bool descending : {false, true}) {
      SCOPED_TRACE("n " + std::to_string(n) + (descending ? ", greater" : ", less"));
      auto k = to_device(keys);
      auto v = to_device(positions);
      if (descending) {
        Ordo::stable_sort_by_key(ExecSpace(), k, v, Ordo::greater<>{});
      } else {
        Ordo::stable_sort_by_key(ExecSpace(), k, v);
      }
      std::vector<std::uint32_t> expected = positions;
      std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t i, std::uint32_t j) {
        return descending ? float_rank(keys[j]) < float_rank(keys[i])
                          : float_rank(keys[i]) < float_rank(keys[j]);
      });
      EXPECT_EQ(to_host(v), expected);
    }
  }
}

// ---- the team calls' checks (host backends: a device abort ends the CUDA context) -------------

// One team call with an output too short for it.
struct ShortTeamCall {
  int which;
  DeviceView<std::uint32_t> a, b, out, values;
  DeviceView<std::int64_t> index;
  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& t) const {
    switch (which) {
      case 0: Ordo::merge_team(t, a, b, out); break;
      case 1: Ordo::sorted_search_team(t, a, b, index, Ordo::Bounds::lower); break;
      case 2: Ordo::sort_by_key_team(t, a, values); break;
      default: Ordo::sort_by_key_thread(t, a, values); break;
    }
  }
};

TEST(RobustnessDeathTest, TeamCallsCheckTheirExtents) {
  if (!debug_checks || !on_host) {
    GTEST_SKIP() << "the team calls check extents with ORDO_ENABLE_DEBUG_CHECKS; a device abort "
                    "would end the CUDA context, so host backends test it";
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const ShortTeamCall call{0,
                           to_device(Keys{1, 3, 5}),
                           to_device(Keys{2, 4}),
                           DeviceView<std::uint32_t>("out", 4),
                           DeviceView<std::uint32_t>("values", 2),
                           DeviceView<std::int64_t>("index", 2)};
  const char* messages[] = {
      "Ordo::merge_team: out is shorter", "Ordo::sorted_search_team: a_index is shorter",
      "Ordo::sort_by_key_team: values is shorter", "Ordo::sort_by_key_thread: values is shorter"};
  for (int which = 0; which < 4; ++which) {
    ShortTeamCall c = call;
    c.which = which;
    EXPECT_DEATH(Kokkos::parallel_for(Kokkos::TeamPolicy<ExecSpace>(1, Kokkos::AUTO), c),
                 messages[which]);
  }
}

}  // namespace
