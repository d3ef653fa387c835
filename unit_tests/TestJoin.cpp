// SPDX-License-Identifier: BSD-3-Clause
// Ordo::inner_join, left_join, right_join, full_outer_join and join_size against a nested-loop
// join on the host (every pair of equal keys, in the order each join states).

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace OrdoTest;
using Ordo::JoinKind;
using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;

const char* kind_name(JoinKind kind) {
  switch (kind) {
    case JoinKind::inner: return "inner";
    case JoinKind::left: return "left";
    case JoinKind::right: return "right";
    case JoinKind::full: return "full";
  }
  return "?";
}

// The oracle: nested loops. Inner and left run over a then b ((i, j) order), right over b then
// a ((j, i) order); full walks the keys in order, a key's pairs in (i, j) order or its unpaired
// entries.
template <class T, class Comp>
Pairs nested_loop_join(JoinKind kind, const std::vector<T>& a, const std::vector<T>& b,
                       const Comp& comp) {
  auto equal = [&](const T& x, const T& y) { return !comp(x, y) && !comp(y, x); };
  Pairs out;
  if (kind == JoinKind::right) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      bool any = false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (equal(a[i], b[j])) out.push_back({std::int64_t(i), std::int64_t(j)}), any = true;
      }
      if (!any) out.push_back({-1, std::int64_t(j)});
    }
    return out;
  }
  std::size_t next_b = 0;  // full join: b's unpaired entries not yet written
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (kind == JoinKind::full) {
      for (; next_b < b.size() && comp(b[next_b], a[i]); ++next_b) {
        bool paired = false;
        for (const T& x : a) paired = paired || equal(x, b[next_b]);
        if (!paired) out.push_back({-1, std::int64_t(next_b)});
      }
    }
    bool any = false;
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (equal(a[i], b[j])) out.push_back({std::int64_t(i), std::int64_t(j)}), any = true;
    }
    if (!any && kind != JoinKind::inner) out.push_back({std::int64_t(i), -1});
  }
  if (kind == JoinKind::full) {
    for (; next_b < b.size(); ++next_b) {
      bool paired = false;
      for (const T& x : a) paired = paired || equal(x, b[next_b]);
      if (!paired) out.push_back({-1, std::int64_t(next_b)});
    }
  }
  return out;
}

template <class I, class A, class B, class Comp>
std::int64_t ordo_join(JoinKind kind, const A& a, const B& b, const DeviceView<I>& a_out,
                       const DeviceView<I>& b_out, const Comp& comp) {
  const ExecSpace space;
  switch (kind) {
    case JoinKind::inner: return Ordo::inner_join(space, a, b, a_out, b_out, comp);
    case JoinKind::left: return Ordo::left_join(space, a, b, a_out, b_out, comp);
    case JoinKind::right: return Ordo::right_join(space, a, b, a_out, b_out, comp);
    case JoinKind::full: return Ordo::full_outer_join(space, a, b, a_out, b_out, comp);
  }
  return -1;
}

template <class I, class T, class Comp>
void check_joins(const std::vector<T>& a, const std::vector<T>& b, const Comp& comp) {
  const ExecSpace space;
  auto da = to_device(a, "a"), db = to_device(b, "b");
  for (JoinKind kind : {JoinKind::inner, JoinKind::left, JoinKind::right, JoinKind::full}) {
    SCOPED_TRACE(kind_name(kind));
    const Pairs expected = nested_loop_join(kind, a, b, comp);
    EXPECT_EQ(std::int64_t(expected.size()), Ordo::join_size(space, kind, da, db, comp));
    auto a_out = poisoned<I>(expected.size() + 1, "a_out");
    auto b_out = poisoned<I>(expected.size() + 2, "b_out");
    ASSERT_EQ(std::int64_t(expected.size()), ordo_join<I>(kind, da, db, a_out, b_out, comp));
    const auto ha = head_checked<std::int64_t>(a_out, expected.size());
    const auto hb = head_checked<std::int64_t>(b_out, expected.size());
    Pairs got;
    for (std::size_t k = 0; k < expected.size(); ++k) got.push_back({ha[k], hb[k]});
    ASSERT_EQ(expected, got);
  }
  EXPECT_TRUE(bitwise_equal(a, to_host(da)));
  EXPECT_TRUE(bitwise_equal(b, to_host(db)));
}

TEST(Join, DistributionsAgainstNestedLoops) {
  const Ordo::less<> comp;
  for (Dist dist :
       {Dist::uniform, Dist::few_distinct, Dist::heavy_duplicates, Dist::sorted, Dist::all_equal}) {
    for (std::size_t total : {0, 1, 2, 3, 97, 1009, 4001}) {
      if (dist == Dist::all_equal && total > 1009) continue;  // the cross product
      for (auto [m, n] : splits(total)) {
        SCOPED_TRACE(name(dist) + " m=" + std::to_string(m) + " n=" + std::to_string(n));
        const auto a = sorted_input<std::int32_t>(dist, m, 1, comp);
        const auto b = sorted_input<std::int32_t>(dist, n, 2, comp);
        check_joins<std::int32_t>(a, b, comp);
        check_joins<std::int64_t>(a, b, comp);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(Join, NoMatchesOneSidedAndDescending) {
  // Disjoint keys (even in a, odd in b), keys only on one side, and a descending order.
  std::vector<std::uint64_t> even, odd;
  for (std::uint64_t k = 0; k < 3000; ++k) (k % 2 ? odd : even).push_back(k / 3 * 2 + k % 2);
  check_joins<std::int64_t>(even, odd, Ordo::less<>{});
  check_joins<std::int64_t>(even, std::vector<std::uint64_t>{}, Ordo::less<>{});
  check_joins<std::int64_t>(std::vector<std::uint64_t>{}, odd, Ordo::less<>{});
  const Ordo::greater<> desc;
  check_joins<std::int32_t>(sorted_input<double>(Dist::few_distinct, 2000, 3, desc),
                            sorted_input<double>(Dist::float_specials, 1500, 4, desc), desc);
}

TEST(Join, LargeAgainstEqualRanges) {
  // The large size: the oracle from std::equal_range instead of nested loops.
  const ExecSpace space;
  const Ordo::less<> comp;
  const std::size_t n = large_size() / 2;
  const auto a = sorted_input<std::uint32_t>(Dist::bits20, n, 5, comp);
  const auto b = sorted_input<std::uint32_t>(Dist::bits20, n, 6, comp);
  std::vector<std::int64_t> ea, eb;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto [lo, hi] = std::equal_range(b.begin(), b.end(), a[i]);
    for (auto it = lo; it != hi; ++it) ea.push_back(std::int64_t(i)), eb.push_back(it - b.begin());
    if (lo == hi) ea.push_back(std::int64_t(i)), eb.push_back(-1);
  }
  auto da = to_device(a), db = to_device(b);
  DeviceView<std::int64_t> a_out("a_out", ea.size()), b_out("b_out", ea.size());
  ASSERT_EQ(std::int64_t(ea.size()), Ordo::left_join(space, da, db, a_out, b_out));
  EXPECT_EQ(ea, to_host(a_out));
  EXPECT_EQ(eb, to_host(b_out));
}

TEST(Join, OutputsTooSmallOrUnfit) {
  const ExecSpace space;
  const Ordo::less<> comp;
  const auto a = sorted_input<std::int32_t>(Dist::few_distinct, 500, 1, comp);
  const auto b = sorted_input<std::int32_t>(Dist::few_distinct, 400, 2, comp);
  const auto size = nested_loop_join(JoinKind::inner, a, b, comp).size();
  auto da = to_device(a), db = to_device(b);
  auto a_out = poisoned<std::int32_t>(size - 1, "a_out");
  auto b_out = poisoned<std::int32_t>(size, "b_out");
  const std::string message = error_of([&] { Ordo::inner_join(space, da, db, a_out, b_out); });
  EXPECT_NE(message.find("Ordo::inner_join: a_out has " + std::to_string(size - 1) +
                         " elements, needs " + std::to_string(size)),
            std::string::npos)
      << message;
  for (auto x : to_host(a_out)) ASSERT_EQ(poison_value<std::int32_t>(), x);
  for (auto x : to_host(b_out)) ASSERT_EQ(poison_value<std::int32_t>(), x);
  // An index type too narrow for the positions it must hold.
  DeviceView<std::int8_t> narrow("narrow", size);
  EXPECT_NE(error_of([&] {
              Ordo::inner_join(space, da, db, narrow, b_out);
            }).find("a_out's value type cannot hold 499"),
            std::string::npos);
  // An output aliasing an input.
  auto keys = to_device(std::vector<std::int32_t>{0, 1, 2, 3});
  EXPECT_NE(error_of([&] { Ordo::inner_join(space, keys, db, keys, b_out); }).find("a_out aliases"),
            std::string::npos);
}

// The joins' scan of counts, on the dispatch a user gets and on the device path (single pass
// with the look-back), against std::exclusive_scan.
struct CountsOf {
  DeviceView<std::int64_t> counts;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t i) const { return counts(i); }
};

TEST(Join, ScanOfCounts) {
  const ExecSpace space;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4095), std::size_t(4096),
                        std::size_t(100003), large_size()}) {
    std::vector<std::int64_t> counts(n), expected(n + 1);
    for (std::size_t i = 0; i < n; ++i) counts[i] = std::int64_t((i * 2654435761u) % 7);
    std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), std::int64_t(0));
    expected[n] = n ? expected[n - 1] + counts[n - 1] : 0;
    const auto d = to_device(counts);
    for (bool tiled : {false, true}) {
      auto out = poisoned<std::int64_t>(n + 2, "out");
      Ordo::Impl::exclusive_scan("join", space, std::int64_t(n), CountsOf{d}, out, tiled);
      EXPECT_EQ(expected, head_checked(out, n + 1)) << n << (tiled ? " tiled" : "");
    }
  }
}

}  // namespace
