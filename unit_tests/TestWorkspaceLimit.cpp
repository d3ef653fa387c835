// SPDX-License-Identifier: BSD-3-Clause
// The workspace queries and Ordo::set_workspace_limit: for a call of every family, under a limit
// one byte short of its query the call throws before anything runs (its Views as they were, no
// workspace taken); under a limit of its query it runs (the query bounds what it takes), holds at
// most the limit, and its results match std::.

#include "Ordo_TestGenerators.hpp"
#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace OrdoTest;
using Key = std::uint32_t;

constexpr std::size_t no_limit = std::numeric_limits<std::size_t>::max();

// One call: `bound` its query; `reset` sets its inputs and poisons its outputs; `call` runs it on
// `space`; `state` every element it may write, as bytes; `expect` its results against std::.
struct Case {
  std::string name;
  std::size_t bound;
  std::function<void()> reset, call;
  std::function<std::string()> state;
  std::function<void()> expect;
};

template <class... Views>
std::string bytes_of(const Views&... views) {
  std::string out;
  auto add = [&](const auto& v) {
    const auto host = to_host(v);
    out.append(reinterpret_cast<const char*>(host.data()), host.size() * sizeof(host[0]));
  };
  (add(views), ...);
  return out;
}

std::string limit_error(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no exception";
}

void run_case(const Case& c) {
  SCOPED_TRACE(c.name);
  Ordo::release_workspaces<MemorySpace>();
  c.reset();
  const std::string before = c.state();
  if (c.bound == 0) {  // a call that needs no workspace runs under a limit of none
    Ordo::set_workspace_limit<MemorySpace>(0);
    c.call();
    ExecSpace().fence();
    EXPECT_EQ(Ordo::workspace_bytes<MemorySpace>(), 0u);
    c.expect();
    Ordo::set_workspace_limit<MemorySpace>(no_limit);
    return;
  }
  Ordo::set_workspace_limit<MemorySpace>(c.bound - 1);
  EXPECT_EQ(Ordo::workspace_limit<MemorySpace>(), c.bound - 1);
  const std::string what = limit_error(c.call);
  EXPECT_NE(what.find("Ordo::set_workspace_limit"), std::string::npos) << what;
  EXPECT_NE(what.find(std::to_string(c.bound)), std::string::npos) << what;
  ExecSpace().fence();
  EXPECT_EQ(c.state(), before) << "a refused call changed its Views";
  EXPECT_EQ(Ordo::workspace_bytes<MemorySpace>(), 0u);

  Ordo::set_workspace_limit<MemorySpace>(c.bound);
  c.reset();
  c.call();
  ExecSpace().fence();
  EXPECT_LE(Ordo::workspace_bytes<MemorySpace>(), c.bound);
  c.expect();
  Ordo::set_workspace_limit<MemorySpace>(no_limit);
  Ordo::release_workspaces<MemorySpace>();
}

// The sorts' Views: the keys, and their input positions as values; reset() sets both.
struct KeysAndPositions {
  std::vector<Key> input;
  DeviceView<Key> keys;
  DeviceView<std::uint32_t> values;
  explicit KeysAndPositions(const std::vector<Key>& in)
      : input(in), keys("keys", in.size()), values("values", in.size()) {}
  void reset() const {
    Kokkos::deep_copy(keys, to_device(input));
    std::vector<std::uint32_t> positions(input.size());
    std::iota(positions.begin(), positions.end(), 0u);
    Kokkos::deep_copy(values, to_device(positions));
  }
};

// A comparator Ordo cannot encode (the slab sort on devices, the host sort on hosts).
struct ByLowByte {
  KOKKOS_INLINE_FUNCTION bool operator()(Key a, Key b) const {
    return (a & 0xFF) < (b & 0xFF) || ((a & 0xFF) == (b & 0xFF) && a < b);
  }
};

struct IsOdd {
  KOKKOS_INLINE_FUNCTION bool operator()(Key k) const { return k % 2 == 1; }
};

std::vector<std::size_t> sizes() {
  std::vector<std::size_t> out{1, 3000, 150000};
  if (!on_host) out.push_back(std::size_t(1) << 21);  // the vendor sort where it is built
  return out;
}

TEST(WorkspaceLimit, Sorts) {
  const ExecSpace space;
  for (const std::size_t n : sizes()) {
    const std::vector<Key> input = generate<Key>(Dist::few_distinct, n, 7 + n);
    std::vector<Key> sorted = input;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return input[a] < input[b]; });
    const KeysAndPositions data(input);
    const auto &keys = data.keys, &values = data.values;
    auto reset = [&] { data.reset(); };
    auto state = [&] { return bytes_of(keys, values); };
    const std::string at = " n=" + std::to_string(n);
    run_case({"sort" + at, Ordo::sort_workspace_bytes<ExecSpace, Key>(n), reset,
              [&] { Ordo::sort(space, keys); }, state, [&] { EXPECT_EQ(to_host(keys), sorted); }});
    run_case({"sort_by_key" + at, Ordo::sort_workspace_bytes<ExecSpace, Key, std::uint32_t>(n),
              reset, [&] { Ordo::sort_by_key(space, keys, values); }, state,
              [&] {
                EXPECT_EQ(to_host(keys), sorted);
                const auto v = to_host(values);
                for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(input[v[i]], sorted[i]) << i;
              }});
    run_case({"stable_sort_by_key" + at,
              Ordo::sort_workspace_bytes<ExecSpace, Key, std::uint32_t>(n, true), reset,
              [&] { Ordo::stable_sort_by_key(space, keys, values); }, state,
              [&] {
                EXPECT_EQ(to_host(keys), sorted);
                EXPECT_EQ(to_host(values), order);
              }});
    DeviceView<std::uint32_t> perm("perm", n);
    run_case({"sort_permutation" + at, Ordo::sort_workspace_bytes<ExecSpace, Key>(n, true),
              [&] {
                reset();
                Kokkos::deep_copy(perm, poison_value<std::uint32_t>());
              },
              [&] { Ordo::sort_permutation(space, keys, perm); },
              [&] { return bytes_of(keys, perm); }, [&] { EXPECT_EQ(to_host(perm), order); }});
    std::vector<Key> by_low = input;
    std::sort(by_low.begin(), by_low.end(), ByLowByte{});
    run_case({"sort, a comparator of its own" + at,
              Ordo::sort_workspace_bytes<ExecSpace, Key, void, ByLowByte>(n), reset,
              [&] { Ordo::sort(space, keys, ByLowByte{}); }, state,
              [&] { EXPECT_EQ(to_host(keys), by_low); }});
    // apply_permutation: its query of the Views it permutes.
    std::vector<std::uint32_t> reversed(n);
    std::iota(reversed.rbegin(), reversed.rend(), 0u);
    const auto dreversed = to_device(reversed);
    run_case({"apply_permutation" + at, Ordo::apply_permutation_workspace_bytes<ExecSpace>(keys),
              reset, [&] { Ordo::apply_permutation(space, dreversed, keys); }, state,
              [&] {
                std::vector<Key> expect(input.rbegin(), input.rend());
                EXPECT_EQ(to_host(keys), expect);
              }});
    // bin_permutation: unsorted ids in 1000 cells (the sort or counting path).
    std::vector<std::int32_t> cells(n);
    for (std::size_t i = 0; i < n; ++i) cells[i] = std::int32_t((n - i) * 7 % 1000);
    const auto dcells = to_device(cells);
    DeviceView<std::int64_t> cell_offsets("cell_offsets", 1001);
    std::vector<std::uint32_t> by_cell(n);
    std::iota(by_cell.begin(), by_cell.end(), 0u);
    std::stable_sort(by_cell.begin(), by_cell.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return cells[a] < cells[b]; });
    run_case({"bin_permutation" + at,
              Ordo::bin_permutation_workspace_bytes<ExecSpace, std::int32_t>(n, 1000),
              [&] { Kokkos::deep_copy(perm, poison_value<std::uint32_t>()); },
              [&] { Ordo::bin_permutation(space, dcells, 1000, perm, cell_offsets); },
              [&] { return bytes_of(perm, cell_offsets); },
              [&] { EXPECT_EQ(to_host(perm), by_cell); }});
  }
}

TEST(WorkspaceLimit, SegmentedSorts) {
  const ExecSpace space;
  // Segments of 0 to 40 records and, every 50th, of 1000 to 5000 (past a team's block).
  for (const std::size_t segments : {std::size_t(1), std::size_t(400)}) {
    std::vector<std::int64_t> offsets{0};
    for (std::size_t s = 0; s < segments; ++s) {
      offsets.push_back(offsets.back() + std::int64_t(s % 50 == 49 ? 1000 + 80 * s : s % 41));
    }
    const std::size_t n = std::size_t(offsets.back());
    const std::vector<Key> input = generate<Key>(Dist::uniform, n, 11 + segments);
    std::vector<Key> sorted = input;
    for (std::size_t s = 0; s < segments; ++s) {
      std::sort(sorted.begin() + offsets[s], sorted.begin() + offsets[s + 1]);
    }
    const KeysAndPositions data(input);
    const auto &keys = data.keys, &values = data.values;
    const auto doffsets = to_device(offsets);
    auto reset = [&] { data.reset(); };
    auto state = [&] { return bytes_of(keys, values); };
    auto expect = [&] {
      EXPECT_EQ(to_host(keys), sorted);
      const auto v = to_host(values);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(input[v[i]], sorted[i]) << i;
    };
    const std::string at = " segments=" + std::to_string(segments);
    run_case({"segmented_sort" + at,
              Ordo::segmented_sort_workspace_bytes<ExecSpace, Key>(n, segments), reset,
              [&] { Ordo::segmented_sort(space, keys, doffsets); }, state,
              [&] { EXPECT_EQ(to_host(keys), sorted); }});
    run_case({"segmented_sort_by_key" + at,
              Ordo::segmented_sort_workspace_bytes<ExecSpace, Key, std::uint32_t>(n, segments),
              reset, [&] { Ordo::segmented_sort_by_key(space, keys, values, doffsets); }, state,
              expect});
    run_case(
        {"stable_segmented_sort_by_key" + at,
         Ordo::segmented_sort_workspace_bytes<ExecSpace, Key, std::uint32_t>(n, segments, true),
         reset, [&] { Ordo::stable_segmented_sort_by_key(space, keys, values, doffsets); }, state,
         expect});
  }
}

TEST(WorkspaceLimit, TiledFamilies) {
  const ExecSpace space;
  for (const std::size_t n : sizes()) {
    const std::vector<Key> a = sorted_input<Key>(Dist::few_distinct, n, 3 + n, std::less<>{});
    const std::vector<Key> b =
        sorted_input<Key>(Dist::few_distinct, n / 2 + 1, 5 + n, std::less<>{});
    const auto da = to_device(a), db = to_device(b);
    const std::string at = " n=" + std::to_string(n);

    std::vector<Key> merged(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());
    DeviceView<Key> out("out", merged.size());
    auto poison_out = [&] { Kokkos::deep_copy(out, poison_value<Key>()); };
    run_case({"merge" + at, Ordo::merge_workspace_bytes<ExecSpace>(merged.size()), poison_out,
              [&] { Ordo::merge(space, da, db, out); }, [&] { return bytes_of(out); },
              [&] { EXPECT_EQ(to_host(out), merged); }});

    DeviceView<std::int64_t> lower("lower", b.size());
    run_case({"lower_bound" + at, Ordo::merge_workspace_bytes<ExecSpace>(a.size() + b.size()),
              [&] { Kokkos::deep_copy(lower, -1); },
              [&] { Ordo::lower_bound(space, da, db, lower); }, [&] { return bytes_of(lower); },
              [&] {
                const auto got = to_host(lower);
                for (std::size_t j = 0; j < b.size(); ++j) {
                  ASSERT_EQ(got[j], std::lower_bound(a.begin(), a.end(), b[j]) - a.begin()) << j;
                }
              }});

    std::vector<Key> odd;
    std::copy_if(a.begin(), a.end(), std::back_inserter(odd), IsOdd{});
    DeviceView<Key> kept("kept", a.size());
    run_case({"copy_if" + at, Ordo::compaction_workspace_bytes<ExecSpace>(a.size()),
              [&] { Kokkos::deep_copy(kept, poison_value<Key>()); },
              [&] { EXPECT_EQ(Ordo::copy_if(space, da, kept, IsOdd{}), std::int64_t(odd.size())); },
              [&] { return bytes_of(kept); },
              [&] { EXPECT_EQ(head_checked(kept, odd.size()), odd); }});

    std::vector<Key> runs;
    std::vector<std::int64_t> lengths;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (i == 0 || a[i] != a[i - 1]) {
        runs.push_back(a[i]);
        lengths.push_back(0);
      }
      ++lengths.back();
    }
    DeviceView<Key> heads("heads", a.size());
    DeviceView<std::int64_t> counts("counts", a.size());
    run_case({"run_length_encode" + at, Ordo::compaction_workspace_bytes<ExecSpace>(a.size()),
              [&] {
                Kokkos::deep_copy(heads, poison_value<Key>());
                Kokkos::deep_copy(counts, poison_value<std::int64_t>());
              },
              [&] {
                EXPECT_EQ(Ordo::run_length_encode(space, da, heads, counts),
                          std::int64_t(runs.size()));
              },
              [&] { return bytes_of(heads, counts); },
              [&] {
                EXPECT_EQ(head_checked(heads, runs.size()), runs);
                EXPECT_EQ(head_checked(counts, runs.size()), lengths);
              }});

    std::vector<Key> both;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    DeviceView<Key> united("united", a.size() + b.size());
    run_case({"set_union" + at, Ordo::set_operation_workspace_bytes<ExecSpace>(a.size(), b.size()),
              [&] { Kokkos::deep_copy(united, poison_value<Key>()); },
              [&] { EXPECT_EQ(Ordo::set_union(space, da, db, united), std::int64_t(both.size())); },
              [&] { return bytes_of(united); },
              [&] { EXPECT_EQ(head_checked(united, both.size()), both); }});

    // The inner join of keys with few repeats (about as many pairs as keys), its pairs counted
    // by std::equal_range.
    const std::vector<Key> p = sorted_input<Key>(Dist::uniform, n, 13 + n, std::less<>{});
    const std::vector<Key> q = sorted_input<Key>(Dist::uniform, n / 2 + 1, 17 + n, std::less<>{});
    const auto dp = to_device(p), dq = to_device(q);
    std::int64_t pairs = 0;
    for (const Key k : p) {
      const auto range = std::equal_range(q.begin(), q.end(), k);
      pairs += range.second - range.first;
    }
    DeviceView<std::int64_t> a_out("a_out", pairs), b_out("b_out", pairs);
    run_case({"inner_join" + at,
              Ordo::join_workspace_bytes<ExecSpace>(p.size(), q.size(), std::size_t(pairs)),
              [&] {
                Kokkos::deep_copy(a_out, -1);
                Kokkos::deep_copy(b_out, -1);
              },
              [&] { EXPECT_EQ(Ordo::inner_join(space, dp, dq, a_out, b_out), pairs); },
              [&] { return bytes_of(a_out, b_out); },
              [&] {
                const auto ia = to_host(a_out), ib = to_host(b_out);
                for (std::int64_t k = 0; k < pairs; ++k) ASSERT_EQ(p[ia[k]], q[ib[k]]) << k;
              }});
    run_case({"join_size" + at, Ordo::join_workspace_bytes<ExecSpace>(p.size(), q.size(), 0), [] {},
              [&] { EXPECT_EQ(Ordo::join_size(space, Ordo::JoinKind::inner, dp, dq), pairs); },
              [] { return std::string(); }, [] {}});
  }
}

// A limit counts every instance's buffers: the caller's own are freed where they are in the
// way, those held for another host thread are not.
TEST(WorkspaceLimit, OwnBuffersMakeRoom) {
  const ExecSpace space;
  const std::size_t n = 150000;
  const std::vector<Key> input = generate<Key>(Dist::uniform, n, 5);
  std::vector<Key> sorted = input;
  std::sort(sorted.begin(), sorted.end());
  auto keys = to_device(input);
  Ordo::release_workspaces<MemorySpace>();
  const std::size_t sort_bound = Ordo::sort_workspace_bytes<ExecSpace, Key>(n);
  Ordo::set_workspace_limit<MemorySpace>(sort_bound);
  Ordo::sort(space, keys);
  const std::size_t held = Ordo::workspace_bytes<MemorySpace>();
  EXPECT_GT(held, 0u);
  // A merge needs room the sort's buffers may leave: it frees them first where it must.
  DeviceView<Key> out("out", 2 * n);
  Ordo::merge(space, keys, keys, out);
  ExecSpace().fence();
  EXPECT_LE(Ordo::workspace_bytes<MemorySpace>(), sort_bound);
  std::vector<Key> twice(2 * n);
  std::merge(sorted.begin(), sorted.end(), sorted.begin(), sorted.end(), twice.begin());
  EXPECT_EQ(to_host(out), twice);
  // Another host thread's buffers count, and are not freed: a sort they leave no room for is
  // refused, its keys as they were.
  Ordo::sort(space, keys);
  ExecSpace().fence();
  ASSERT_GT(Ordo::workspace_bytes<MemorySpace>(), 0u);
  auto other_keys = to_device(input);
  std::string what;
  std::thread other([&] { what = limit_error([&] { Ordo::sort(space, other_keys); }); });
  other.join();
  EXPECT_NE(what.find("held by other instances and threads"), std::string::npos) << what;
  EXPECT_EQ(to_host(other_keys), input);
  Ordo::set_workspace_limit<MemorySpace>(no_limit);
  Ordo::release_workspaces<MemorySpace>();
}

}  // namespace
