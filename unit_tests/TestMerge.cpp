// SPDX-License-Identifier: BSD-3-Clause
// Ordo::merge, Ordo::merge_by_key and Ordo::merge_team against std::merge.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace OrdoTest;

template <class T>
using Tuning = Ordo::Impl::MergeTuning<ExecSpace, sizeof(T)>;

template <class T>
std::size_t tile_size() {
  return std::size_t(Tuning<T>::team_size) * Tuning<T>::vt;
}

template <class AView, class BView, class OutView, class Comp>
void run_merge(Path path, const AView& a, const BView& b, const OutView& out, const Comp& comp) {
  const ExecSpace space;
  switch (path) {
    case Path::dispatch: Ordo::merge(space, a, b, out, comp); break;
    case Path::tiled:
      Ordo::Impl::merge_tiled(space, a, b, out, Ordo::Impl::NoValues{}, comp, false);
      break;
    case Path::fused:
      Ordo::Impl::merge_tiled(space, a, b, out, Ordo::Impl::NoValues{}, comp, true);
      break;
  }
  space.fence();
}

// Merges a and b (already sorted under comp) on the backend, with out one element longer than
// needed, and checks out against std::merge bit for bit, the spare element and the inputs
// untouched.
template <class T, class Comp>
void check_merge(Path path, const std::vector<T>& a, const std::vector<T>& b, const Comp& comp) {
  std::vector<T> expected(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), comp);
  expected.push_back(poison_value<T>());

  auto da = to_device(a, "a");
  auto db = to_device(b, "b");
  auto out = poisoned<T>(expected.size());
  run_merge(path, da, db, out, comp);
  ASSERT_TRUE(bitwise_equal(expected, to_host(out)))
      << "|a| = " << a.size() << ", |b| = " << b.size() << ", path " << int(path);
  ASSERT_TRUE(bitwise_equal(a, to_host(da)));
  ASSERT_TRUE(bitwise_equal(b, to_host(db)));
}

template <class T>
class MergeTyped : public ::testing::Test {};

using KeyTypes =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(MergeTyped, KeyTypes);

TYPED_TEST(MergeTyped, AllDistributionsAndBoundarySizes) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t tile = tile_size<T>();
  // Host chunks are 2^14 outputs; device tiles are `tile` outputs.
  const auto sizes = test_sizes({tile, std::size_t(1) << 14}, 3 * tile + 17);
  for (Dist dist : all_distributions()) {
    for (std::size_t total : sizes) {
      for (auto [m, n] : splits(total)) {
        for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
          SCOPED_TRACE(name(dist) + " m=" + std::to_string(m) + " n=" + std::to_string(n));
          check_merge(path, sorted_input<T>(dist, m, 1, comp), sorted_input<T>(dist, n, 2, comp),
                      comp);
        }
      }
    }
  }
}

TYPED_TEST(MergeTyped, LargeUniform) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t total = large_size();
  for (Path path : {Path::dispatch, Path::tiled}) {
    check_merge(path, sorted_input<T>(Dist::uniform, total / 2 + 3, 3, comp),
                sorted_input<T>(Dist::uniform, total / 2 - 3, 4, comp), comp);
  }
}

// The dispatch at the single-launch bound (fused_max_tiles tiles) and one element either side: on
// device backends one launch below and at it, the partition kernel and the tiles above.
TYPED_TEST(MergeTyped, DispatchAroundTheSingleLaunchBound) {
  using T = TypeParam;
  const Ordo::less<> comp;
  const std::size_t bound = std::size_t(Tuning<T>::fused_max_tiles) * tile_size<T>();
  for (std::size_t total : {bound - 1, bound, bound + 1}) {
    SCOPED_TRACE("total " + std::to_string(total));
    check_merge(Path::dispatch, sorted_input<T>(Dist::uniform, total / 2 + 1, 31, comp),
                sorted_input<T>(Dist::few_distinct, total - total / 2 - 1, 32, comp), comp);
  }
}

// Inputs and output starting 1 to 3 elements into their allocations: the tile loads and stores
// at every alignment, on every path.
TYPED_TEST(MergeTyped, SubviewsAtEveryOffset) {
  using T = TypeParam;
  const Ordo::less<> comp;
  for (std::size_t offset : {1, 2, 3}) {
    for (std::size_t total : offset_sizes(tile_size<T>())) {
      const auto a = sorted_input<T>(Dist::uniform, total / 3, 21, comp);
      const auto b = sorted_input<T>(Dist::few_distinct, total - total / 3, 22, comp);
      std::vector<T> expected(total);
      std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), comp);
      for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
        SCOPED_TRACE("offset " + std::to_string(offset) + " total " + std::to_string(total));
        const auto da = at_offset(a, offset + 1), db = at_offset(b, offset);
        const auto out = at_offset(std::vector<T>(total + 1, poison_value<T>()), offset + 2);
        run_merge(path, da, db, out, comp);
        ASSERT_TRUE(bitwise_equal(expected, head_checked(out, total)));
        ASSERT_TRUE(bitwise_equal(a, to_host(da)));
        ASSERT_TRUE(bitwise_equal(b, to_host(db)));
      }
    }
  }
}

// The vendor merge (cub::DeviceMerge, which Ordo::merge takes from MergeTuning's vendor_from
// on): where this build has one, it takes integer keys under Ordo::less and Ordo::greater (at
// every size from vendor_from on; below, only where its temporary storage fits the merge's
// workspace bound) and writes what std::merge writes, at tile boundaries, with an empty side, all
// keys equal, and inputs and output 1 to 3 elements into their allocations; floating-point keys
// (whose equal keys may differ in bits: CUB's merge is not stable) never go to it. Elsewhere it
// takes nothing.
TYPED_TEST(MergeTyped, VendorMergeTakesIntegersOnly) {
  using T = TypeParam;
  const ExecSpace space;
  const std::int64_t from = Tuning<T>::vendor_from;
  auto run = [&](const std::vector<T>& a, const std::vector<T>& b, std::size_t offset,
                 const auto& comp) {
    std::vector<T> expected(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), comp);
    const auto da = at_offset(a, offset + 1), db = at_offset(b, offset);
    const auto out = at_offset(std::vector<T>(expected.size() + 1, poison_value<T>()), offset + 2);
    using Out = std::decay_t<decltype(out)>;
    constexpr bool takes =
        Ordo::Impl::Vendor<ExecSpace>::template takes_merge<std::decay_t<decltype(da)>,
                                                            std::decay_t<decltype(db)>, Out,
                                                            std::decay_t<decltype(comp)>>();
    const bool ran = Ordo::Impl::vendor_merge(space, da, db, out, comp);
    space.fence();
    EXPECT_TRUE(takes || !ran);
    if (std::int64_t(expected.size()) >= from) EXPECT_EQ(takes, ran);
    if (ran) {
      ASSERT_TRUE(bitwise_equal(expected, head_checked(out, expected.size())))
          << "|a| = " << a.size() << ", |b| = " << b.size();
    } else {
      ASSERT_TRUE(
          bitwise_equal(std::vector<T>(expected.size() + 1, poison_value<T>()), to_host(out)));
    }
    ASSERT_TRUE(bitwise_equal(a, to_host(da)));
    ASSERT_TRUE(bitwise_equal(b, to_host(db)));
  };
  const Ordo::less<> asc;
  const Ordo::greater<> desc;
  auto sizes = offset_sizes(tile_size<T>());
  if (!on_host) sizes.push_back(std::size_t(Tuning<T>::vendor_from) + 3);
  for (std::size_t total : sizes) {
    for (std::size_t offset : {1, 2, 3}) {
      SCOPED_TRACE("total " + std::to_string(total) + " offset " + std::to_string(offset));
      run(sorted_input<T>(Dist::uniform, total / 3, 41, asc),
          sorted_input<T>(Dist::few_distinct, total - total / 3, 42, asc), offset, asc);
      run(sorted_input<T>(Dist::heavy_duplicates, total / 2, 43, desc),
          sorted_input<T>(Dist::uniform, total - total / 2, 44, desc), offset, desc);
    }
    run(sorted_input<T>(Dist::all_equal, total / 2, 45, asc),
        sorted_input<T>(Dist::all_equal, total - total / 2, 46, asc), 0, asc);
    run(std::vector<T>{}, sorted_input<T>(Dist::uniform, total, 47, asc), 0, asc);
    run(sorted_input<T>(Dist::uniform, total, 48, asc), std::vector<T>{}, 0, asc);
  }
}

TEST(Merge, DescendingWithGreater) {
  const Ordo::greater<> comp;
  for (std::size_t total :
       {std::size_t(0), std::size_t(1), tile_size<double>() + 1, std::size_t(100003)}) {
    for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
      check_merge(path, sorted_input<double>(Dist::float_specials, total / 3, 5, comp),
                  sorted_input<double>(Dist::float_specials, total - total / 3, 6, comp), comp);
    }
  }
}

// Particle and ByCell (Ordo_TestBackend.hpp): equal cells test stability through x.
TEST(Merge, UserTypeAndComparator) {
  for (std::size_t total : {std::size_t(5), tile_size<Particle>() * 2 + 1, std::size_t(40000)}) {
    const auto a = sorted_particles(total / 2, 7, 13, 1.0f);
    const auto b = sorted_particles(total - total / 2, 5, 11, -1.0f);
    for (Path path : {Path::dispatch, Path::tiled, Path::fused}) check_merge(path, a, b, ByCell{});
  }
}

TEST(Merge, StridedViewsAndNoSpaceOverload) {
  const Ordo::less<> comp;
  const std::size_t n = 5000;
  auto a_host = sorted_input<std::int64_t>(Dist::uniform, 2 * n, 7, comp);
  auto b_host = sorted_input<std::int64_t>(Dist::few_distinct, n, 8, comp);
  auto a_all = to_device(a_host);
  auto b = to_device(b_host);
  // Every other element of a: still sorted, LayoutStride.
  auto a = Kokkos::subview(a_all, Kokkos::pair<std::size_t, std::size_t>(0, 2 * n));
  Kokkos::View<std::int64_t*, Kokkos::LayoutStride, MemorySpace> a_strided(
      a.data(), Kokkos::LayoutStride(n, 2));
  std::vector<std::int64_t> a_even(n);
  for (std::size_t i = 0; i < n; ++i) a_even[i] = a_host[2 * i];
  std::vector<std::int64_t> expected(2 * n);
  std::merge(a_even.begin(), a_even.end(), b_host.begin(), b_host.end(), expected.begin());
  auto out = poisoned<std::int64_t>(2 * n);
  Ordo::merge(a_strided, b, out);  // fences
  EXPECT_TRUE(bitwise_equal(expected, to_host(out)));
}

// merge_by_key: values record where each key came from, so the oracle checks stability exactly.
template <class Key, class Value>
void check_merge_by_key(Path path, Dist dist, std::size_t m, std::size_t n) {
  const Ordo::less<> comp;
  auto a = sorted_input<Key>(dist, m, 11, comp);
  auto b = sorted_input<Key>(dist, n, 12, comp);
  std::vector<Value> av(m), bv(n);
  for (std::size_t i = 0; i < m; ++i) av[i] = Value(i);
  for (std::size_t j = 0; j < n; ++j) bv[j] = Value(m + j);
  std::vector<std::pair<Key, Value>> ap(m), bp(n), ep(m + n);
  for (std::size_t i = 0; i < m; ++i) ap[i] = {a[i], av[i]};
  for (std::size_t j = 0; j < n; ++j) bp[j] = {b[j], bv[j]};
  std::merge(ap.begin(), ap.end(), bp.begin(), bp.end(), ep.begin(),
             [&](const auto& x, const auto& y) { return comp(x.first, y.first); });
  std::vector<Key> ek(m + n);
  std::vector<Value> ev(m + n);
  for (std::size_t k = 0; k < m + n; ++k) std::tie(ek[k], ev[k]) = ep[k];

  auto da = to_device(a), db = to_device(b);
  auto dav = to_device(av), dbv = to_device(bv);
  auto ok = poisoned<Key>(m + n);
  auto ov = poisoned<Value>(m + n);
  const ExecSpace space;
  using MV = Ordo::Impl::MergeValues<decltype(dav), decltype(dbv), decltype(ov)>;
  switch (path) {
    case Path::dispatch: Ordo::merge_by_key(space, da, dav, db, dbv, ok, ov); break;
    case Path::tiled:
      Ordo::Impl::merge_tiled(space, da, db, ok, MV{dav, dbv, ov}, comp, false);
      break;
    case Path::fused:
      Ordo::Impl::merge_tiled(space, da, db, ok, MV{dav, dbv, ov}, comp, true);
      break;
  }
  space.fence();
  ASSERT_TRUE(bitwise_equal(ek, to_host(ok))) << "m=" << m << " n=" << n;
  ASSERT_TRUE(bitwise_equal(ev, to_host(ov))) << "m=" << m << " n=" << n;
  ASSERT_TRUE(bitwise_equal(av, to_host(dav)));
  ASSERT_TRUE(bitwise_equal(bv, to_host(dbv)));
}

TEST(MergeByKey, StableU32KeysU32Values) {
  const std::size_t tile = tile_size<std::uint32_t>();
  for (Dist dist : {Dist::few_distinct, Dist::all_equal, Dist::uniform, Dist::organ_pipe}) {
    for (std::size_t total : test_sizes({tile}, 100000)) {
      for (auto [m, n] : splits(total)) {
        for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
          SCOPED_TRACE(name(dist));
          check_merge_by_key<std::uint32_t, std::uint32_t>(path, dist, m, n);
        }
      }
    }
  }
}

TEST(MergeByKey, DoubleKeysInt64Values) {
  for (Dist dist : {Dist::float_specials, Dist::heavy_duplicates}) {
    for (Path path : {Path::dispatch, Path::tiled, Path::fused}) {
      check_merge_by_key<double, std::int64_t>(path, dist, 3001, 4999);
    }
  }
  check_merge_by_key<double, std::int64_t>(Path::dispatch, Dist::uniform, large_size() / 2,
                                           large_size() / 2 + 1);
}

// merge_team inside a user kernel: team s merges segment s of A with segment s of B.
// (A free function: CUDA's extended lambdas may not live in gtest's private TestBody.)
void merge_segments_in_teams(const DeviceView<std::int32_t>& a, const DeviceView<std::int32_t>& b,
                             const DeviceView<std::int32_t>& out, int segments, std::size_t seg_a,
                             std::size_t seg_b) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_for(
      "OrdoTest::merge_team", Policy(segments, Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& member) {
        const std::size_t s = member.league_rank();
        using R = Kokkos::pair<std::size_t, std::size_t>;
        Ordo::merge_team(member, Kokkos::subview(a, R(s * seg_a, (s + 1) * seg_a)),
                         Kokkos::subview(b, R(s * seg_b, (s + 1) * seg_b)),
                         Kokkos::subview(out, R(s * (seg_a + seg_b), (s + 1) * (seg_a + seg_b))));
      });
  Kokkos::fence();
}

TEST(MergeTeam, OneTeamPerSegment) {
  const Ordo::less<> comp;
  const int segments = 37;
  const std::size_t seg_a = 300, seg_b = 211;
  std::vector<std::int32_t> a, b, expected;
  for (int s = 0; s < segments; ++s) {
    auto sa = sorted_input<std::int32_t>(Dist::few_distinct, seg_a, 20 + s, comp);
    auto sb = sorted_input<std::int32_t>(Dist::uniform, seg_b, 60 + s, comp);
    a.insert(a.end(), sa.begin(), sa.end());
    b.insert(b.end(), sb.begin(), sb.end());
    std::vector<std::int32_t> e(seg_a + seg_b);
    std::merge(sa.begin(), sa.end(), sb.begin(), sb.end(), e.begin());
    expected.insert(expected.end(), e.begin(), e.end());
  }
  auto da = to_device(a), db = to_device(b);
  auto out = poisoned<std::int32_t>(expected.size());
  merge_segments_in_teams(da, db, out, segments, seg_a, seg_b);
  EXPECT_TRUE(bitwise_equal(expected, to_host(out)));
}

// Host array access for the thread-level partitioner.
struct HostArray {
  const std::int32_t* p;
  KOKKOS_INLINE_FUNCTION std::int32_t operator()(std::int64_t i) const { return p[i]; }
};

// P probes a round, tested one after another (the shape of a thread's P vector lanes or a team's P
// threads, without a Kokkos member).
template <int P>
struct SerialProbes {
  KOKKOS_INLINE_FUNCTION static constexpr int size() { return P; }
  template <class Test>
  KOKKOS_INLINE_FUNCTION int count(const Test& test) const {
    int passed = 0;
    for (int p = 0; p < P; ++p) passed += test(p) ? 1 : 0;
    return passed;
  }
};

// The predicate of a narrowing search over [lo, hi): true before `end`; notes probes outside.
struct PrefixBefore {
  std::int64_t lo, hi, end;
  bool* outside;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    if (i < lo || i >= hi) *outside = true;
    return i < end;
  }
};

// The narrowing search finds the end of the prefix where its predicate holds, for every range
// [lo, hi) up to 70 wide, every prefix length and 1 to 129 probes a round.
template <int P>
void check_narrowing_search() {
  for (std::int64_t lo : {std::int64_t(0), std::int64_t(5), std::int64_t(1) << 33}) {
    for (std::int64_t width = 0; width <= 70; ++width) {
      for (std::int64_t end = lo; end <= lo + width; ++end) {
        bool outside = false;
        const std::int64_t got = Ordo::Impl::narrowing_search(
            lo, lo + width, SerialProbes<P>{}, PrefixBefore{lo, lo + width, end, &outside});
        ASSERT_EQ(got, end) << P << " probes, range [" << lo << ", " << lo + width << ")";
        ASSERT_FALSE(outside) << P << " probes, range [" << lo << ", " << lo + width << ")";
      }
    }
  }
}

TEST(MergePath, NarrowingSearchFindsThePrefixEnd) {
  check_narrowing_search<1>();
  check_narrowing_search<2>();
  check_narrowing_search<3>();
  check_narrowing_search<7>();
  check_narrowing_search<32>();
  check_narrowing_search<129>();
}

// The sampled co-rank (sort's merge passes) against std::merge's stable order: for every diagonal
// of A and B (B starting at a sampled position, as sort's runs do), the number of A's elements
// among the first diag outputs, searched with `Probes` (one thread's binary search, or P probes a
// round as a thread's vector lanes run them).
template <int S, class Probes = Ordo::Impl::ThreadProbes>
void check_sampled_merge_path(Dist dist, std::size_t run, std::size_t na, std::size_t nb,
                              unsigned seed) {
  const Ordo::less<> comp;
  auto a = sorted_input<std::int32_t>(dist, na, seed, comp);
  auto b = sorted_input<std::int32_t>(dist, nb, seed + 1, comp);
  std::vector<std::int32_t> keys(run + nb);
  std::copy(a.begin(), a.end(), keys.begin());
  std::copy(b.begin(), b.end(), keys.begin() + run);
  std::vector<std::int32_t> samples((run + nb + S - 1) / S);
  for (std::size_t u = 0; u < samples.size(); ++u) samples[u] = keys[u * S];
  // Tagged merge: the A elements among the first d outputs.
  std::vector<std::pair<std::int32_t, int>> ta, tb, merged(na + nb);
  for (auto x : a) ta.emplace_back(x, 0);
  for (auto x : b) tb.emplace_back(x, 1);
  std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), merged.begin(),
             [](const auto& x, const auto& y) { return x.first < y.first; });
  auto at = [](const std::vector<std::int32_t>& v) { return HostArray{v.data()}; };
  std::int64_t expected = 0;
  for (std::size_t d = 0; d <= na + nb; ++d) {
    const std::int64_t got = Ordo::Impl::sampled_merge_path<S, std::int64_t>(
        at(keys), 0, std::int64_t(na), at(keys), std::int64_t(run), std::int64_t(nb), at(samples),
        0, std::int64_t(run / S), std::int64_t(d), comp, Probes{});
    ASSERT_EQ(got, expected) << "S " << S << " run " << run << " na " << na << " nb " << nb
                             << " diag " << d << " " << name(dist) << ", " << Probes::size()
                             << " probes";
    if (d < na + nb && merged[d].second == 0) ++expected;
  }
}

TEST(MergePath, SampledCoRankMatchesStdMerge) {
  unsigned seed = 1;
  for (Dist dist : {Dist::uniform, Dist::few_distinct, Dist::all_equal, Dist::sorted}) {
    for (std::size_t run : {32, 96, 512}) {
      for (std::size_t na : {run, run - 1, run / 3 + 1}) {
        for (std::size_t nb : {std::size_t(0), std::size_t(1), run / 2 + 3, run}) {
          check_sampled_merge_path<1>(dist, run, na, nb, ++seed);
          check_sampled_merge_path<8>(dist, run, na, nb, ++seed);
          check_sampled_merge_path<32>(dist, run, na, nb, ++seed);
          check_sampled_merge_path<8, SerialProbes<4>>(dist, run, na, nb, ++seed);
          check_sampled_merge_path<32, SerialProbes<32>>(dist, run, na, nb, ++seed);
        }
      }
    }
  }
}

TEST(MergeErrors, OutTooSmall) {
  std::vector<int> a = {1, 3, 5, 7, 9, 11}, b = {2, 4, 6, 8, 10, 12};
  auto da = to_device(a), db = to_device(b);
  auto out = poisoned<int>(10);
  const auto before = to_host(out);
  EXPECT_EQ(error_of([&] { Ordo::merge(ExecSpace(), da, db, out); }),
            "Ordo::merge: out has 10 elements, needs 12");
  EXPECT_TRUE(bitwise_equal(before, to_host(out)));
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

TEST(MergeErrors, OutAliasesInput) {
  std::vector<int> a = {1, 3, 5, 7, 9, 11, 0, 0, 0, 0, 0, 0}, b = {2, 4, 6, 8, 10, 12};
  auto da = to_device(a), db = to_device(b);
  auto a_head = Kokkos::subview(da, Kokkos::pair<int, int>(0, 6));
  const std::string what = error_of([&] { Ordo::merge(ExecSpace(), a_head, db, da); });
  EXPECT_EQ(what.rfind("Ordo::merge: out aliases a", 0), 0u) << what;
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

TEST(MergeErrors, UnsortedInputUnderDebugChecks) {
  ASSERT_TRUE(Ordo::Impl::debug_checks) << "the unit tests are built with debug checks";
  std::vector<int> a = {1, 3, 2, 7}, b = {2, 4, 6, 8};
  auto da = to_device(a), db = to_device(b);
  auto out = poisoned<int>(8);
  const auto before = to_host(out);
  EXPECT_EQ(error_of([&] { Ordo::merge(ExecSpace(), da, db, out); }),
            "Ordo::merge: a is not sorted: element 2 orders before element 1");
  EXPECT_EQ(error_of([&] { Ordo::merge(ExecSpace(), db, da, out); }),
            "Ordo::merge: b is not sorted: element 2 orders before element 1");
  EXPECT_TRUE(bitwise_equal(before, to_host(out)));
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
}

TEST(MergeErrors, ByKeyValueSizesAndAliases) {
  std::vector<int> a = {1, 3}, b = {2, 4, 6};
  std::vector<double> av = {0.5}, bv = {1.5, 2.5, 3.5};
  auto da = to_device(a), db = to_device(b);
  auto dav = to_device(av), dbv = to_device(bv);
  auto ok = poisoned<int>(5);
  auto ov = poisoned<double>(5);
  const auto ok_before = to_host(ok);
  const auto ov_before = to_host(ov);
  EXPECT_EQ(error_of([&] { Ordo::merge_by_key(ExecSpace(), da, dav, db, dbv, ok, ov); }),
            "Ordo::merge_by_key: a_values has 1 elements, needs 2 (one value per key of a)");
  auto dav2 = to_device(std::vector<double>{0.5, 1.0});
  auto ov_small = poisoned<double>(4);
  EXPECT_EQ(error_of([&] { Ordo::merge_by_key(ExecSpace(), da, dav2, db, dbv, ok, ov_small); }),
            "Ordo::merge_by_key: out_values has 4 elements, needs 5");
  auto both = poisoned<double>(10);
  auto keys_as_values = Kokkos::View<int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
      reinterpret_cast<int*>(both.data()), 5);
  const std::string what =
      error_of([&] { Ordo::merge_by_key(ExecSpace(), da, dav2, db, dbv, keys_as_values, both); });
  EXPECT_EQ(what.rfind("Ordo::merge_by_key: out_values aliases out_keys", 0), 0u) << what;
  EXPECT_TRUE(bitwise_equal(ok_before, to_host(ok)));
  EXPECT_TRUE(bitwise_equal(ov_before, to_host(ov)));
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(bv, to_host(dbv)));
}

#if defined(ORDO_TEST_BACKEND_CUDA)
TEST(MergeErrors, HostMemoryInCudaView) {
  std::vector<int> a = {1, 2, 3}, b = {4, 5};
  Kokkos::View<int*, Kokkos::CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> ha(a.data(), 3);
  auto db = to_device(b);
  auto out = poisoned<int>(5);
  EXPECT_EQ(error_of([&] { Ordo::merge(ExecSpace(), ha, db, out); }),
            "Ordo::merge: a points to host memory the CUDA space cannot reach");
}
#endif

}  // namespace
