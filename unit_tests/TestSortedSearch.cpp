// SPDX-License-Identifier: BSD-3-Clause
// Ordo::sorted_search (index and complete), sorted_equality_count, lower_bound / upper_bound and
// sorted_search_team against std::lower_bound / std::upper_bound, against sequential references of
// moderngpu's sorted search, and against moderngpu's published demonstrations.

#include "Ordo_ModernGpuSearchDemos.hpp"
#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace OrdoTest;
using Ordo::Bounds;

// Every result of a search, as the std:: oracle or a CPU reference gives it.
struct Expected {
  std::vector<std::int64_t> a_index, b_index, counts;
  std::vector<std::uint8_t> a_match, b_match;
  std::int64_t a_matches = 0, b_matches = 0;
};

// The oracle: binary searches of the C++ standard library, element by element.
template <class T, class Comp>
Expected std_oracle(const std::vector<T>& a, const std::vector<T>& b, Bounds bounds,
                    const Comp& comp) {
  Expected e;
  for (const T& x : a) {
    const auto [lo, hi] = std::equal_range(b.begin(), b.end(), x, comp);
    e.a_index.push_back((bounds == Bounds::lower ? lo : hi) - b.begin());
    e.a_match.push_back(lo != hi);
    e.counts.push_back(hi - lo);
    e.a_matches += lo != hi;
  }
  for (const T& y : b) {
    const auto [lo, hi] = std::equal_range(a.begin(), a.end(), y, comp);
    // Bounds::lower: upper bounds of B into A; Bounds::upper: lower bounds.
    e.b_index.push_back((bounds == Bounds::lower ? hi : lo) - a.begin());
    e.b_match.push_back(lo != hi);
    e.b_matches += lo != hi;
  }
  return e;
}

// Sequential references after moderngpu's CPU sorted search, written for Ordo: CPUSortedSearch
// (one side, either bound), CPUSortedSearch2 (both sides, lower bound of A into B) and
// CPUSortedSearch3 (with matches, here separate flags instead of the high bit).
template <class T, class Comp>
std::vector<std::int64_t> cpu_sorted_search(const std::vector<T>& a, const std::vector<T>& b,
                                            Bounds bounds, const Comp& comp) {
  std::vector<std::int64_t> index(a.size());
  std::size_t i = 0, j = 0;
  while (i < a.size()) {
    const bool take_a =
        j >= b.size() || (bounds == Bounds::upper ? comp(a[i], b[j]) : !comp(b[j], a[i]));
    if (take_a) {
      index[i++] = j;
    } else {
      ++j;
    }
  }
  return index;
}

template <class T, class Comp>
Expected cpu_sorted_search3(const std::vector<T>& a, const std::vector<T>& b, const Comp& comp,
                            bool with_matches) {
  Expected e;
  e.a_index.resize(a.size());
  e.b_index.resize(b.size());
  e.a_match.resize(a.size());
  e.b_match.resize(b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a = j >= b.size() || (i < a.size() && !comp(b[j], a[i]));
    if (take_a) {
      const bool match = with_matches && j < b.size() && !comp(a[i], b[j]);
      e.a_index[i] = j;
      e.a_match[i++] = match;
      e.a_matches += match;
    } else {
      const bool match = with_matches && i > 0 && !comp(a[i - 1], b[j]);
      e.b_index[j] = i;
      e.b_match[j++] = match;
      e.b_matches += match;
    }
  }
  return e;
}

template <class T>
std::size_t tile_size() {
  using Tuning = Ordo::Impl::SearchTuning<ExecSpace, sizeof(T)>;
  return std::size_t(Tuning::team_size) * Tuning::vt;
}

Ordo::Impl::SearchPath search_path(Path path) {
  switch (path) {
    case Path::tiled: return Ordo::Impl::SearchPath::tiled;
    case Path::fused: return Ordo::Impl::SearchPath::fused;
    default: return Ordo::Impl::SearchPath::automatic;
  }
}

template <class View>
std::vector<std::uint8_t> flags_of(const View& v) {
  const auto h = to_host(v);
  return std::vector<std::uint8_t>(h.begin(), h.end());
}

// Runs every search mode on a and b (sorted under comp) through `path` and checks each output
// against the std:: oracle: both index directions (int32 for A, int64 for B, each one element
// longer than needed), uint8_t and bool match flags, the match counts from the fencing overload
// and from the device-View overload, and sorted_equality_count. Inputs are checked unchanged.
// a starts `offset` elements into its allocation and b one more (so b is never aligned where a is).
template <class T, class Comp>
void check_search(Path path, const std::vector<T>& a, const std::vector<T>& b, const Comp& comp,
                  std::size_t offset = 0) {
  const ExecSpace space;
  const auto p = search_path(path);
  const auto da = at_offset(a, offset), db = at_offset(b, offset + 1);
  for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
    SCOPED_TRACE(bounds == Bounds::lower ? "lower" : "upper");
    const Expected e = std_oracle(a, b, bounds, comp);

    auto a_index = poisoned<std::int32_t>(a.size() + 1, "a_index");
    if (path == Path::dispatch) {
      Ordo::sorted_search(space, da, db, a_index, bounds, comp);
    } else {
      Ordo::Impl::index_search(space, da, db, a_index, bounds, comp, p);
    }
    EXPECT_EQ(e.a_index, head_checked<std::int64_t>(a_index, a.size()));

    a_index = poisoned<std::int32_t>(a.size() + 1, "a_index");
    auto b_index = poisoned<std::int64_t>(b.size() + 1, "b_index");
    auto a_match = poisoned<std::uint8_t>(a.size(), "a_match");
    auto b_match = DeviceView<bool>("b_match", b.size());
    Kokkos::deep_copy(b_match, true);
    const Ordo::SearchOutputs outputs{a_index, a_match, b_index, b_match};
    Ordo::MatchCounts counts;
    if (path == Path::dispatch) {
      counts = Ordo::sorted_search(space, da, db, outputs, bounds, comp);
    } else {
      auto device_counts = poisoned<std::int64_t>(2, "counts");
      Ordo::Impl::complete_search(space, da, db, outputs, bounds, device_counts, comp, p);
      const auto h = to_host(device_counts);
      counts = {h[0], h[1]};
    }
    EXPECT_EQ(e.a_index, head_checked<std::int64_t>(a_index, a.size()));
    EXPECT_EQ(e.b_index, head_checked<std::int64_t>(b_index, b.size()));
    EXPECT_EQ(e.a_match, flags_of(a_match));
    EXPECT_EQ(e.b_match, flags_of(b_match));
    EXPECT_EQ(e.a_matches, counts.a);
    EXPECT_EQ(e.b_matches, counts.b);

    if (bounds == Bounds::lower) {
      auto eq = poisoned<std::int32_t>(a.size() + 1, "counts");
      if (path == Path::dispatch) {
        Ordo::sorted_equality_count(space, da, db, eq, comp);
      } else {
        Ordo::Impl::equality_count(space, da, db, eq, comp, p);
      }
      EXPECT_EQ(e.counts, head_checked<std::int64_t>(eq, a.size()));
    }
  }
  space.fence();
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

template <class T>
class SortedSearchTyped : public ::testing::Test {};

using KeyTypes =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(SortedSearchTyped, KeyTypes);

TYPED_TEST(SortedSearchTyped, AllDistributionsAndBoundarySizes) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t tile = tile_size<T>();
  const auto sizes = test_sizes({tile, std::size_t(1) << 14}, 3 * tile + 17);
  for (Dist dist : all_distributions()) {
    for (std::size_t total : sizes) {
      for (auto [m, n] : splits(total)) {
        for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
          SCOPED_TRACE(name(dist) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                       " path " + std::to_string(int(path)));
          // Different seeds for A and B; few distinct values give many matches.
          check_search(path, sorted_input<T>(dist, m, 1, comp), sorted_input<T>(dist, n, 2, comp),
                       comp);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

TYPED_TEST(SortedSearchTyped, LargeUniform) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t total = large_size();
  for (Path path : {Path::dispatch, Path::tiled}) {
    check_search(path, sorted_input<T>(Dist::few_distinct, total / 2 + 3, 3, comp),
                 sorted_input<T>(Dist::uniform, total / 2 - 3, 4, comp), comp);
  }
}

// The dispatch at the single-launch bound (fused_max_tiles tiles) and one element either side: on
// device backends one launch below and at it, the partition kernel and the tiles above.
TYPED_TEST(SortedSearchTyped, DispatchAroundTheSingleLaunchBound) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t bound =
      std::size_t(Ordo::Impl::SearchTuning<ExecSpace, sizeof(T)>::fused_max_tiles) * tile_size<T>();
  for (std::size_t total : {bound - 1, bound, bound + 1}) {
    SCOPED_TRACE("total " + std::to_string(total));
    check_search(Path::dispatch, sorted_input<T>(Dist::few_distinct, total / 2 - 1, 33, comp),
                 sorted_input<T>(Dist::uniform, total - total / 2 + 1, 34, comp), comp);
  }
}

// Inputs starting 1 to 3 elements into their allocations: the tile loads at every alignment.
TYPED_TEST(SortedSearchTyped, SubviewsAtEveryOffset) {
  using T = TypeParam;
  const Ordo::less<> comp;
  for (std::size_t offset : {1, 2, 3}) {
    for (std::size_t total : offset_sizes(tile_size<T>())) {
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("offset " + std::to_string(offset) + " total " + std::to_string(total));
        check_search(path, sorted_input<T>(Dist::few_distinct, total / 3, 23, comp),
                     sorted_input<T>(Dist::few_distinct, total - total / 3, 24, comp), comp,
                     offset);
      }
    }
  }
}

// Strided needles and haystack (LayoutStride: every other element), on every path: the tile loads
// take the element-wise path and stay right.
TEST(SortedSearch, StridedViews) {
  const Ordo::less<> comp;
  for (std::size_t n : {std::size_t(100), tile_size<std::uint32_t>() + 3, std::size_t(20001)}) {
    const auto a_host = sorted_input<std::uint32_t>(Dist::few_distinct, 2 * n, 41, comp);
    const auto b_host = sorted_input<std::uint32_t>(Dist::uniform, 2 * n + 1, 42, comp);
    const auto a_all = to_device(a_host), b_all = to_device(b_host);
    using Strided = Kokkos::View<const std::uint32_t*, Kokkos::LayoutStride, MemorySpace>;
    const Strided a(a_all.data(), Kokkos::LayoutStride(n, 2));
    const Strided b(b_all.data() + 1, Kokkos::LayoutStride(n, 2));
    std::vector<std::uint32_t> a_even(n), b_odd(n);
    for (std::size_t i = 0; i < n; ++i) {
      a_even[i] = a_host[2 * i];
      b_odd[i] = b_host[2 * i + 1];
    }
    std::vector<std::int32_t> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      expected[i] =
          std::int32_t(std::lower_bound(b_odd.begin(), b_odd.end(), a_even[i]) - b_odd.begin());
    }
    for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
      SCOPED_TRACE("n " + std::to_string(n) + " path " + std::to_string(int(path)));
      Kokkos::View<std::int32_t*, MemorySpace> index("index", n);
      if (path == Path::dispatch) {
        Ordo::sorted_search(ExecSpace(), a, b, index, Ordo::Bounds::lower, comp);
      } else {
        Ordo::Impl::index_search(ExecSpace(), a, b, index, Ordo::Bounds::lower, comp,
                                 search_path(path));
      }
      ASSERT_EQ(expected, to_host(index));
    }
  }
}

TEST(SortedSearch, SeedCpuReferencesAgreeWithStd) {
  const Ordo::less<> comp;
  for (Dist dist : {Dist::uniform, Dist::few_distinct, Dist::all_equal, Dist::heavy_duplicates}) {
    for (auto [m, n] : splits(3001)) {
      const auto a = sorted_input<std::int32_t>(dist, m, 5, comp);
      const auto b = sorted_input<std::int32_t>(dist, n, 6, comp);
      const auto lower = std_oracle(a, b, Bounds::lower, comp);
      const auto upper = std_oracle(a, b, Bounds::upper, comp);
      EXPECT_EQ(lower.a_index, cpu_sorted_search(a, b, Bounds::lower, comp));
      EXPECT_EQ(upper.a_index, cpu_sorted_search(a, b, Bounds::upper, comp));
      const auto two = cpu_sorted_search3(a, b, comp, false);  // CPUSortedSearch2
      EXPECT_EQ(lower.a_index, two.a_index);
      EXPECT_EQ(lower.b_index, two.b_index);
      const auto three = cpu_sorted_search3(a, b, comp, true);
      EXPECT_EQ(lower.a_index, three.a_index);
      EXPECT_EQ(lower.a_match, three.a_match);
      EXPECT_EQ(lower.b_index, three.b_index);
      EXPECT_EQ(lower.b_match, three.b_match);
      EXPECT_EQ(lower.a_matches, three.a_matches);
      EXPECT_EQ(lower.b_matches, three.b_matches);
    }
  }
}

// moderngpu's first sorted-search demonstration: lower bounds of 100 needles in a haystack of 200.
TEST(SortedSearch, ModernGpuDemonstration1) {
  auto needles = to_device(ModernGpuDemo::demo1_needles),
       haystack = to_device(ModernGpuDemo::demo1_haystack);
  for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
    auto index = poisoned<int>(needles.extent(0));
    Ordo::Impl::index_search(ExecSpace(), needles, haystack, index, Bounds::lower, Ordo::less<>(),
                             search_path(path));
    EXPECT_EQ(ModernGpuDemo::demo1_lower_bound, to_host(index));
  }
}

// moderngpu's second sorted-search demonstration: the complete lower-bound search with match flags.
TEST(SortedSearch, ModernGpuDemonstration2) {
  auto a = to_device(ModernGpuDemo::demo2_a), b = to_device(ModernGpuDemo::demo2_b);
  for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
    auto a_index = poisoned<int>(a.extent(0)), b_index = poisoned<int>(b.extent(0));
    auto a_match = poisoned<std::uint8_t>(a.extent(0)),
         b_match = poisoned<std::uint8_t>(b.extent(0));
    auto counts = poisoned<std::int64_t>(2);
    Ordo::Impl::complete_search(ExecSpace(), a, b,
                                Ordo::SearchOutputs{a_index, a_match, b_index, b_match},
                                Bounds::lower, counts, Ordo::less<>(), search_path(path));
    EXPECT_EQ(ModernGpuDemo::demo2_a_lower_bound, to_host(a_index));
    EXPECT_EQ(ModernGpuDemo::demo2_b_upper_bound, to_host(b_index));
    const auto am = to_host(a_match), bm = to_host(b_match);
    EXPECT_EQ(ModernGpuDemo::demo2_a_match, std::vector<int>(am.begin(), am.end()));
    EXPECT_EQ(ModernGpuDemo::demo2_b_match, std::vector<int>(bm.begin(), bm.end()));
    const auto c = to_host(counts);
    EXPECT_EQ(
        std::count(ModernGpuDemo::demo2_a_match.begin(), ModernGpuDemo::demo2_a_match.end(), 1),
        c[0]);
    EXPECT_EQ(
        std::count(ModernGpuDemo::demo2_b_match.begin(), ModernGpuDemo::demo2_b_match.end(), 1),
        c[1]);
  }
}

TEST(SortedSearch, NeedlesBelowAndAboveTheHaystack) {
  const Ordo::less<> comp;
  std::vector<std::int64_t> low(5000), high(7000);
  for (std::size_t i = 0; i < low.size(); ++i) low[i] = -std::int64_t(low.size()) + std::int64_t(i);
  for (std::size_t i = 0; i < high.size(); ++i) high[i] = std::int64_t(i / 3);
  for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
    check_search(path, low, high, comp);
    check_search(path, high, low, comp);
  }
}

TEST(SortedSearch, DescendingWithGreater) {
  const Ordo::greater<> comp;
  for (std::size_t total : {std::size_t(1), tile_size<double>() + 1, std::size_t(100003)}) {
    for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
      check_search(path, sorted_input<double>(Dist::float_specials, total / 3, 5, comp),
                   sorted_input<double>(Dist::float_specials, total - total / 3, 6, comp), comp);
    }
  }
}

// Particle and ByCell (Ordo_TestBackend.hpp): equal cells match however x differs.
TEST(SortedSearch, UserTypeAndComparator) {
  for (std::size_t total : {std::size_t(7), tile_size<Particle>() * 2 + 1, std::size_t(30011)}) {
    const auto a = sorted_particles(total / 2, 7, 23, 1.0f);
    const auto b = sorted_particles(total - total / 2, 5, 31, -1.0f);
    for (Path path : {Path::dispatch, Path::tiled, Path::fused}) check_search(path, a, b, ByCell{});
  }
}

TEST(SortedSearch, SixtyFourBitIndexViewsAndNoSpaceOverloads) {
  const Ordo::less<> comp;
  const auto a = sorted_input<float>(Dist::few_distinct, 40000, 9, comp);
  const auto b = sorted_input<float>(Dist::uniform, 50001, 10, comp);
  auto da = to_device(a), db = to_device(b);
  for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
    const Expected e = std_oracle(a, b, bounds, comp);
    auto a_index = poisoned<std::uint64_t>(a.size());
    Ordo::sorted_search(da, db, a_index, bounds);  // fences
    EXPECT_EQ(e.a_index, head_checked<std::int64_t>(a_index, a.size()));
    auto b_index = poisoned<std::int64_t>(b.size());
    // Only b_index wanted: the other outputs are empty Views.
    const auto counts =
        Ordo::sorted_search(da, db,
                            Ordo::SearchOutputs{DeviceView<std::int64_t>(), DeviceView<bool>(),
                                                b_index, DeviceView<bool>()},
                            bounds);
    EXPECT_EQ(e.b_index, head_checked<std::int64_t>(b_index, b.size()));
    EXPECT_EQ(e.a_matches, counts.a);
    EXPECT_EQ(e.b_matches, counts.b);
  }
  auto eq = poisoned<std::uint64_t>(a.size());
  Ordo::sorted_equality_count(da, db, eq);
  EXPECT_EQ(std_oracle(a, b, Bounds::lower, comp).counts, head_checked<std::int64_t>(eq, a.size()));
}

// lower_bound / upper_bound: needles in any order, some outside the haystack's range.
template <class T, class Comp>
void check_binary_search(const std::vector<T>& haystack, const std::vector<T>& needles,
                         const Comp& comp) {
  auto dh = to_device(haystack), dn = to_device(needles);
  std::vector<std::int64_t> el, eu;
  for (const T& x : needles) {
    el.push_back(std::lower_bound(haystack.begin(), haystack.end(), x, comp) - haystack.begin());
    eu.push_back(std::upper_bound(haystack.begin(), haystack.end(), x, comp) - haystack.begin());
  }
  auto lower = poisoned<std::int64_t>(needles.size() + 1);
  auto upper = poisoned<std::int32_t>(needles.size() + 1);
  Ordo::lower_bound(ExecSpace(), dh, dn, lower, comp);
  Ordo::upper_bound(dh, dn, upper, comp);  // fences
  EXPECT_EQ(el, head_checked<std::int64_t>(lower, needles.size()));
  EXPECT_EQ(eu, head_checked<std::int64_t>(upper, needles.size()));
  // The device path (samples of the haystack in scratch), on any backend.
  lower = poisoned<std::int64_t>(needles.size() + 1);
  upper = poisoned<std::int32_t>(needles.size() + 1);
  const auto tiled = Ordo::Impl::SearchPath::tiled;
  Ordo::Impl::binary_search_dispatch<false>("test", ExecSpace(), dh, dn, lower, comp, tiled);
  Ordo::Impl::binary_search_dispatch<true>("test", ExecSpace(), dh, dn, upper, comp, tiled);
  ExecSpace().fence();
  EXPECT_EQ(el, head_checked<std::int64_t>(lower, needles.size()));
  EXPECT_EQ(eu, head_checked<std::int64_t>(upper, needles.size()));
  EXPECT_TRUE(bitwise_equal(needles, to_host(dn)));
}

TEST(BinarySearch, UnsortedNeedles) {
  const Ordo::less<> comp;
  for (Dist dist : all_distributions()) {
    for (std::size_t n :
         {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(63), std::size_t(64),
          std::size_t(65), std::size_t(1000), std::size_t(4097), std::size_t(65537)}) {
      SCOPED_TRACE(name(dist) + " n=" + std::to_string(n));
      check_binary_search(sorted_input<double>(dist, n, 11, comp),
                          generate<double>(dist, 3 * n / 2 + 5, 12), comp);
    }
  }
  check_binary_search(sorted_input<std::uint32_t>(Dist::uniform, large_size(), 13, comp),
                      generate<std::uint32_t>(Dist::uniform, large_size() / 2, 14), comp);
  const Ordo::greater<> desc;
  check_binary_search(sorted_input<std::int32_t>(Dist::few_distinct, 5000, 15, desc),
                      generate<std::int32_t>(Dist::uniform, 7000, 16), desc);
}

// sorted_search_team inside a user kernel: team s searches segment s of A in segment s of B.
// (A free function: CUDA's extended lambdas may not live in gtest's private TestBody.)
void search_segments_in_teams(const DeviceView<std::int32_t>& a, const DeviceView<std::int32_t>& b,
                              const DeviceView<std::int32_t>& index, int segments,
                              std::size_t seg_a, std::size_t seg_b, Bounds bounds) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_for(
      "OrdoTest::sorted_search_team", Policy(segments, Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& member) {
        const std::size_t s = member.league_rank();
        using R = Kokkos::pair<std::size_t, std::size_t>;
        Ordo::sorted_search_team(member, Kokkos::subview(a, R(s * seg_a, (s + 1) * seg_a)),
                                 Kokkos::subview(b, R(s * seg_b, (s + 1) * seg_b)),
                                 Kokkos::subview(index, R(s * seg_a, (s + 1) * seg_a)), bounds);
      });
  Kokkos::fence();
}

TEST(SortedSearchTeam, OneTeamPerSegment) {
  const Ordo::less<> comp;
  const int segments = 29;
  const std::size_t seg_a = 257, seg_b = 190;
  std::vector<std::int32_t> a, b;
  std::vector<std::int64_t> lower, upper;
  for (int s = 0; s < segments; ++s) {
    const auto sa = sorted_input<std::int32_t>(Dist::few_distinct, seg_a, 30 + s, comp);
    const auto sb = sorted_input<std::int32_t>(Dist::few_distinct, seg_b, 70 + s, comp);
    a.insert(a.end(), sa.begin(), sa.end());
    b.insert(b.end(), sb.begin(), sb.end());
    for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
      const auto e = std_oracle(sa, sb, bounds, comp).a_index;
      auto& all = bounds == Bounds::lower ? lower : upper;
      all.insert(all.end(), e.begin(), e.end());
    }
  }
  auto da = to_device(a), db = to_device(b);
  for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
    auto index = poisoned<std::int32_t>(a.size());
    search_segments_in_teams(da, db, index, segments, seg_a, seg_b, bounds);
    EXPECT_EQ(bounds == Bounds::lower ? lower : upper, head_checked<std::int64_t>(index, a.size()));
  }
}

// Errors (docs/ARCHITECTURE.md, the contract): thrown before any kernel, every View left as it was.
TEST(SortedSearchErrors, SizesCapacityAndAliases) {
  std::vector<int> a = {1, 3, 5, 7}, b = {2, 3, 4};
  auto da = to_device(a), db = to_device(b);
  auto small = poisoned<int>(3);
  const auto before = to_host(small);
  const ExecSpace space;
  EXPECT_EQ(error_of([&] { Ordo::sorted_search(space, da, db, small, Bounds::lower); }),
            "Ordo::sorted_search: a_index has 3 elements, needs 4");
  EXPECT_EQ(error_of([&] { Ordo::sorted_equality_count(space, da, db, small); }),
            "Ordo::sorted_equality_count: counts has 3 elements, needs 4");
  EXPECT_EQ(error_of([&] { Ordo::lower_bound(space, db, da, small); }),
            "Ordo::lower_bound: out has 3 elements, needs 4");
  auto match_small = poisoned<bool>(2);
  auto no_int = DeviceView<int>();
  EXPECT_EQ(error_of([&] {
              Ordo::sorted_search(
                  space, da, db,
                  Ordo::SearchOutputs{no_int, DeviceView<bool>(), no_int, match_small},
                  Bounds::upper);
            }),
            "Ordo::sorted_search: b_match has 2 elements, needs 3");
  auto counts_small = poisoned<std::int64_t>(1);
  auto a_index = poisoned<int>(4);
  EXPECT_EQ(error_of([&] {
              Ordo::sorted_search(
                  space, da, db,
                  Ordo::SearchOutputs{a_index, DeviceView<bool>(), no_int, DeviceView<bool>()},
                  Bounds::lower, counts_small);
            }),
            "Ordo::sorted_search: counts has 1 elements, needs 2");
  // An index type too narrow for the haystack.
  std::vector<std::int16_t> long_b(40000);
  for (std::size_t i = 0; i < long_b.size(); ++i) long_b[i] = std::int16_t(i / 4);
  auto dlb = to_device(long_b);
  auto a16 = to_device(std::vector<std::int16_t>{1, 2});
  auto narrow = poisoned<std::int16_t>(2);
  EXPECT_EQ(error_of([&] { Ordo::sorted_search(space, a16, dlb, narrow, Bounds::lower); }),
            "Ordo::sorted_search: a_index's value type cannot hold 40000 (use a 64-bit index "
            "View)");
  // An output over an input.
  auto both = to_device(std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  auto head = Kokkos::subview(both, Kokkos::pair<int, int>(0, 4));
  auto tail = Kokkos::subview(both, Kokkos::pair<int, int>(4, 8));
  EXPECT_EQ(error_of([&] { Ordo::sorted_search(space, head, db, both, Bounds::lower); }),
            "Ordo::sorted_search: a_index aliases a (an output may not overlap another View)");
  EXPECT_EQ(error_of([&] { Ordo::sorted_search(space, db, tail, both, Bounds::upper); }),
            "Ordo::sorted_search: a_index aliases b (an output may not overlap another View)");
  EXPECT_TRUE(bitwise_equal(before, to_host(small)));
  EXPECT_TRUE(bitwise_equal(std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}, to_host(both)));
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

TEST(SortedSearchErrors, UnsortedInputUnderDebugChecks) {
  ASSERT_TRUE(Ordo::Impl::debug_checks) << "the unit tests are built with debug checks";
  std::vector<int> a = {1, 3, 5}, b = {2, 6, 4};
  auto da = to_device(a), db = to_device(b);
  auto index = poisoned<int>(3);
  const auto before = to_host(index);
  EXPECT_EQ(error_of([&] { Ordo::sorted_search(ExecSpace(), da, db, index, Bounds::lower); }),
            "Ordo::sorted_search: b is not sorted: element 2 orders before element 1");
  EXPECT_EQ(error_of([&] { Ordo::lower_bound(ExecSpace(), db, da, index); }),
            "Ordo::lower_bound: haystack is not sorted: element 2 orders before element 1");
  EXPECT_TRUE(bitwise_equal(before, to_host(index)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

}  // namespace
