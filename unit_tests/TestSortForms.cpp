// SPDX-License-Identifier: BSD-3-Clause
// The sorts under comparator objects and Kokkos' forms (argsort, ranges), and the team-level sorts
// inside a user kernel, against std::sort / std::stable_sort.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"
#include "Ordo_TestSortChecks.hpp"
#include "Ordo_TestSortOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace OrdoTest;

// ---- comparator objects and Kokkos' forms ---------------------------------------------------

// An argsort comparator: orders indices by the values they name. It holds a View and has no
// default constructor, so a sort that rebuilt it from its type would not compile, and one that
// built a new one would order by nothing.
struct ByValue {
  Kokkos::View<const float*, MemorySpace> values;
  explicit ByValue(Kokkos::View<const float*, MemorySpace> v) : values(v) {}
  KOKKOS_INLINE_FUNCTION bool operator()(std::int32_t a, std::int32_t b) const {
    return values(a) < values(b);
  }
};

// Indices 0..n-1 and distinct values (a shuffled ramp), so that the argsort order is unique.
std::vector<float> distinct_values(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i);
  std::shuffle(v.begin(), v.end(), std::mt19937_64(3));
  return v;
}

// Sorts each segment of `seg` indices of d by `comp`: level 0 with sort_team, 1 with sort_thread.
template <class View, class Comp>
void argsort_segments(const View& d, std::size_t seg, std::size_t segs, const Comp& comp,
                      int level) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_for(
      "test::argsort", Policy(ExecSpace(), int(segs), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& m) {
        const auto s = Kokkos::subview(
            d, Kokkos::make_pair(m.league_rank() * seg, (m.league_rank() + 1) * seg));
        if (level == 0) {
          Ordo::sort_team(m, s, comp);
        } else {
          if (m.team_rank() == 0) Ordo::sort_thread(m, s, comp);
        }
      });
  Kokkos::fence();
}

// Sorts each segment of `seg` keys and their values, descending, with sort_by_key_thread.
template <class Keys, class Values>
void sort_by_key_thread_segments(const Keys& k, const Values& v, std::size_t seg,
                                 std::size_t segs) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  Kokkos::parallel_for(
      "test::sort_by_key_thread", Policy(ExecSpace(), int(segs), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& m) {
        const auto r = Kokkos::make_pair(m.league_rank() * seg, (m.league_rank() + 1) * seg);
        if (m.team_rank() == 0) {
          Ordo::sort_by_key_thread(m, Kokkos::subview(k, r), Kokkos::subview(v, r),
                                   Ordo::greater<>{});
        }
      });
  Kokkos::fence();
}

TEST(SortComparatorObjects, ArgsortDeviceTeamThread) {
  const std::size_t seg = 300, segs = 40, n = seg * segs;
  const auto hv = distinct_values(n);
  const auto dv = to_device(hv, "values");
  const ByValue by_value(dv);
  std::vector<std::int32_t> idx(n);
  // Device level: all n indices; team and thread level: each segment's own indices.
  auto expected = [&](std::size_t first, std::size_t count) {
    std::vector<std::int32_t> e(count);
    std::iota(e.begin(), e.end(), std::int32_t(first));
    std::sort(e.begin(), e.end(), [&](std::int32_t a, std::int32_t b) { return hv[a] < hv[b]; });
    return e;
  };
  std::iota(idx.begin(), idx.end(), 0);
  auto all = to_device(idx, "idx");
  Ordo::sort(all, by_value);
  ASSERT_EQ(to_host(all), expected(0, n));
  for (int level = 0; level < 2; ++level) {
    auto d = to_device(idx, "idx");
    argsort_segments(d, seg, segs, by_value, level);
    const auto out = to_host(d);
    for (std::size_t g = 0; g < segs; ++g) {
      const auto e = expected(g * seg, seg);
      ASSERT_TRUE(std::equal(e.begin(), e.end(), out.begin() + g * seg))
          << (level ? "sort_thread" : "sort_team") << ", segment " << g;
    }
  }
}

// sort_by_key_thread (Kokkos has it): one segment per team, its keys and values by the first
// thread's vector lanes, against std::sort of the pairs (distinct keys).
TEST(SortComparatorObjects, SortByKeyThread) {
  const std::size_t seg = 200, segs = 16, n = seg * segs;
  const auto hk = distinct_values(n);
  std::vector<std::uint32_t> hv(n);
  std::iota(hv.begin(), hv.end(), 0u);
  auto k = to_device(hk, "keys");
  auto v = to_device(hv, "values");
  sort_by_key_thread_segments(k, v, seg, segs);
  const auto ok = to_host(k);
  const auto ov = to_host(v);
  for (std::size_t g = 0; g < segs; ++g) {
    std::vector<std::pair<float, std::uint32_t>> e(seg);
    for (std::size_t i = 0; i < seg; ++i) e[i] = {hk[g * seg + i], hv[g * seg + i]};
    std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; i < seg; ++i) {
      ASSERT_EQ(ok[g * seg + i], e[i].first) << g << ", " << i;
      ASSERT_EQ(ov[g * seg + i], e[i].second) << g << ", " << i;
    }
  }
}

// Kokkos::sort's range form: [begin, end) sorted, the rest untouched; a bad range throws before
// anything runs.
TEST(SortComparatorObjects, RangeForm) {
  const std::size_t n = 5000;
  const auto in = generate<std::uint32_t>(Dist::uniform, n, 21);
  auto keys = to_device(in, "keys");
  Ordo::sort(keys, 100, std::size_t(4321));
  auto expected = in;
  std::sort(expected.begin() + 100, expected.begin() + 4321);
  ASSERT_EQ(to_host(keys), expected);
  Ordo::sort(ExecSpace(), keys, 0, 50, Ordo::greater<>{});
  ExecSpace().fence();
  std::sort(expected.begin(), expected.begin() + 50, std::greater<>());
  ASSERT_EQ(to_host(keys), expected);
  EXPECT_NE(error_of([&] { Ordo::sort(keys, 10, 5); }).find("[10, 5) is not inside keys"),
            std::string::npos);
  EXPECT_NE(error_of([&] { Ordo::sort(keys, 0, n + 1); }).find("which has 5000 elements"),
            std::string::npos);
  ASSERT_EQ(to_host(keys), expected);
}

// ---- team level ------------------------------------------------------------------------------

// Segments of the given lengths, one team each; mode 0: sort_team, 1: sort_by_key_team on global
// Views, 2: sort_team on a scratch copy, 3: sort_thread, one segment per team thread.
template <class T>
void check_team(const std::vector<std::size_t>& lengths, int mode, int team_size) {
  std::vector<std::int64_t> offsets(lengths.size() + 1, 0);
  for (std::size_t s = 0; s < lengths.size(); ++s) offsets[s + 1] = offsets[s] + lengths[s];
  const std::size_t n = offsets.back();
  const auto in = generate<T>(Dist::uniform, n, 17);
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  auto keys = to_device(in);
  auto values = to_device(ids);
  auto off = to_device(offsets);
  const std::int64_t segments = lengths.size();
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = Policy::member_type;
  using Scratch =
      Kokkos::View<T*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t longest = *std::max_element(lengths.begin(), lengths.end());
  const int ts = on_host ? 1 : team_size;
  if (mode == 3) {
    Kokkos::parallel_for(
        Policy(ExecSpace(), (segments + ts - 1) / ts, ts, on_host ? 1 : 4),
        KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t s = std::int64_t(m.league_rank()) * m.team_size() + m.team_rank();
          if (s >= segments) return;
          Ordo::sort_thread(m, Kokkos::subview(keys, Kokkos::make_pair(off(s), off(s + 1))));
        });
  } else {
    Kokkos::parallel_for(
        Policy(ExecSpace(), segments, ts)
            .set_scratch_size(0, Kokkos::PerTeam(Ordo::segment_scratch_size<T>(longest))),
        KOKKOS_LAMBDA(const Member& m) {
          const std::int64_t s = m.league_rank();
          const auto seg = Kokkos::make_pair(off(s), off(s + 1));
          const auto k = Kokkos::subview(keys, seg);
          if (mode == 1) {
            Ordo::sort_by_key_team(m, k, Kokkos::subview(values, seg));
          } else if (mode == 2) {
            Scratch tile(m.team_scratch(0), k.extent(0));
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, k.extent(0)),
                                 [&](std::int64_t i) { tile(i) = k(i); });
            Ordo::sort_team(m, tile);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, k.extent(0)),
                                 [&](std::int64_t i) { k(i) = tile(i); });
          } else {
            Ordo::sort_team(m, k, Ordo::less<>{});
          }
        });
  }
  Kokkos::fence();
  const auto out_k = to_host(keys);
  const auto out_v = to_host(values);
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    const auto b = offsets[s], e = offsets[s + 1];
    std::vector<T> ik(in.begin() + b, in.begin() + e), ok(out_k.begin() + b, out_k.begin() + e);
    std::vector<std::uint32_t> iv, ov;
    if (mode == 1) {
      iv.assign(ids.begin() + b, ids.begin() + e);
      ov.assign(out_v.begin() + b, out_v.begin() + e);
    }
    ASSERT_TRUE(sorted_permutation(ik, iv, ok, ov, OracleLess<T>{}))
        << "segment " << s << " of length " << lengths[s] << ", mode " << mode;
    if (mode == 1) {
      for (std::size_t i = 0; i < ok.size(); ++i)
        ASSERT_TRUE(bitwise_equal(std::vector<T>{in[ov[i]]}, std::vector<T>{ok[i]}));
    }
  }
}

TEST(SortTeam, SegmentsInsideAUserKernel) {
  const std::vector<std::size_t> lengths = {1, 0, 7, 100, 512, 1000, 1024, 1025, 2048, 3000, 33};
  for (int mode : {0, 1, 2}) check_team<std::uint32_t>(lengths, mode, 128);
  check_team<double>(lengths, 0, 64);
  check_team<std::int64_t>(lengths, 1, 96);  // three warps taking runs in turn
  // One warp: one slab of up to 32 registers per lane, else runs of 512 one after the other, then
  // the portable network.
  check_team<std::uint32_t>({1024, 999, 31, 4096, 1500}, 0, 32);
  check_team<float>({5, 64, 200, 17, 0, 1}, 3, 8);
}

}  // namespace
