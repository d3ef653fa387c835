// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf set_ops, join and load_balancing_search: the relational primitives against
// thrust::set_* (CUDA builds), std::set_* and their parallel forms (host builds), a hash join
// built from Kokkos::UnorderedMap (what a Kokkos user writes today), and a device copy of the
// bytes moved.
//
// Inputs: 2^log2n u32 keys a side, sorted (--dist):
//   match:P   a's keys distinct and even; P% of b's keys taken from a, the others odd (no match)
//   dups      both sides from [0, n/4): about 4 copies of a key a side (joins: 4n pairs)
//   all       (the default) match:1, match:50, match:100 and dups
// set_ops: every operation (--mode intersection, union, difference or symmetric_difference),
// the count to a device View; bytes: both inputs and the output.
// join:    inner join (--mode inner, left, full or size; default inner and size), int32 indices;
// bytes: both inputs and both index outputs.
// load_balancing_search: 2^log2n outputs from items of 0 to 7 (mean 3.5) outputs, item and rank
// to int32 Views; bytes: the scan and both outputs.

#include "Ordo_PerfRelational.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfHostBaselines.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <Kokkos_UnorderedMap.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <thrust/execution_policy.h>
#include <thrust/set_operations.h>
#endif

namespace OrdoPerf {
namespace {

using Key = std::uint32_t;
using Index = std::int32_t;
template <class T>
using DeviceView = Kokkos::View<T*, MemorySpace>;

std::vector<std::string> dists_of(const Options& o) {
  if (o.dist == "uniform" || o.dist == "all") return {"match:1", "match:50", "match:100", "dups"};
  return {o.dist};
}

// The two sorted sides of one input (see the top of this file).
void make_inputs(const std::string& dist, std::int64_t n, std::vector<Key>& a,
                 std::vector<Key>& b) {
  std::uint64_t state = 12345;
  a.resize(n);
  b.resize(n);
  if (dist == "dups") {
    const std::uint64_t range = std::uint64_t(n / 4 > 0 ? n / 4 : 1);
    for (auto& x : a) x = Key(splitmix64(state) % range);
    for (auto& x : b) x = Key(splitmix64(state) % range);
  } else if (dist.rfind("match:", 0) == 0) {
    const std::uint64_t percent = std::stoul(dist.substr(6));
    for (auto& x : a) x = Key(splitmix64(state) >> 33) * 2;  // even, below 2^32
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    while (std::int64_t(a.size()) < n) a.push_back(a.back() + 2);  // distinct, even
    for (auto& x : b) {
      x = splitmix64(state) % 100 < percent ? a[splitmix64(state) % a.size()]
                                            : Key(splitmix64(state) >> 33) * 2 + 1;
    }
  } else {
    throw std::invalid_argument("ordo-perf: --dist for set_ops and join: match:P, dups or all");
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
}

void set_op_oracle(const std::string& op, const std::vector<Key>& a, const std::vector<Key>& b,
                   std::vector<Key>& out) {
  out.clear();
  auto o = std::back_inserter(out);
  if (op == "intersection") std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), o);
  if (op == "union") std::set_union(a.begin(), a.end(), b.begin(), b.end(), o);
  if (op == "difference") std::set_difference(a.begin(), a.end(), b.begin(), b.end(), o);
  if (op == "symmetric_difference") {
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), o);
  }
}

template <class A, class B, class Out, class Count>
void ordo_set_op(const std::string& op, const ExecSpace& space, const A& a, const B& b,
                 const Out& out, const Count& count) {
  if (op == "intersection") Ordo::set_intersection(space, a, b, out, count);
  if (op == "union") Ordo::set_union(space, a, b, out, count);
  if (op == "difference") Ordo::set_difference(space, a, b, out, count);
  if (op == "symmetric_difference") Ordo::set_symmetric_difference(space, a, b, out, count);
}

void run_set_op_point(const Options& o, Report& report, const std::string& op,
                      const std::string& dist, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  std::vector<Key> ha, hb, expected;
  make_inputs(dist, n, ha, hb);
  set_op_oracle(op, ha, hb, expected);
  auto a = to_device(ha, "a"), b = to_device(hb, "b");
  DeviceView<Key> out("out", expected.size());
  DeviceView<std::int64_t> count("count", 1);
  const double bytes = double(2 * n + std::int64_t(expected.size())) * sizeof(Key);
  const std::string primitive = "set_ops:" + op;
  Point p{primitive, "u32", dist, "ordo", false, 2 * n, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps, [&] { ordo_set_op(op, space, a, b, out, count); });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  if (o.check) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
    check(c(0) == std::int64_t(expected.size()) &&
              std::equal(expected.begin(), expected.end(), h.data()),
          primitive);
  }
  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(
        Point{primitive, "u32", dist, impl, false, 2 * n, s, bytes, s.median_ms / ordo_ms});
  };
  if (wanted(o, "copy")) baseline("copy", time_copy(o, bytes));
  if (on_host && wanted(o, "std::set_*")) {
    std::vector<Key> out_h;
    out_h.reserve(expected.size());
    baseline("std::set_" + op,
             time_host(o.warmup, o.reps, [&] { set_op_oracle(op, ha, hb, out_h); }));
  }
  {
    // Room for every element of both inputs: libstdc++'s parallel set operations write more than
    // the sequential result where keys repeat (--dist dups wrote past an output of that size).
    std::vector<Key> out_h(ha.size() + hb.size());
    host_parallel_set_ops(o, op, ha, hb, out_h, baseline);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if (wanted(o, "thrust::set_*")) {
    const auto policy = thrust::cuda::par_nosync.on(space.cuda_stream());
    const Key *a0 = a.data(), *a1 = a0 + n, *b0 = b.data(), *b1 = b0 + n;
    Key* r = out.data();
    baseline("thrust::set_" + op, time_device(space, o.warmup, o.reps, [&] {
               if (op == "intersection") thrust::set_intersection(policy, a0, a1, b0, b1, r);
               if (op == "union") thrust::set_union(policy, a0, a1, b0, b1, r);
               if (op == "difference") thrust::set_difference(policy, a0, a1, b0, b1, r);
               if (op == "symmetric_difference") {
                 thrust::set_symmetric_difference(policy, a0, a1, b0, b1, r);
               }
             }));
  }
#endif
}

// The hash join a Kokkos user writes today (on the default instance): b's runs into an UnorderedMap
// (key -> run start and length), a probes it for its count, a scan gives the offsets, a second
// probe writes the pairs.
using HashMap = Kokkos::UnorderedMap<Key, Kokkos::pair<Index, Index>, ExecSpace>;

std::int64_t hash_join(HashMap& map, const DeviceView<Key>& a, const DeviceView<Key>& b,
                       const DeviceView<Index>& counts, const DeviceView<Index>& a_out,
                       const DeviceView<Index>& b_out) {
  map.clear();
  const HashMap m = map;
  const Index na = Index(a.extent(0)), nb = Index(b.extent(0));
  Kokkos::parallel_for(
      "hash_join::build", Kokkos::RangePolicy<ExecSpace>(0, nb), KOKKOS_LAMBDA(Index j) {
        if (j > 0 && b(j - 1) == b(j)) return;
        Index end = j + 1;
        while (end < nb && b(end) == b(j)) ++end;
        m.insert(b(j), Kokkos::pair<Index, Index>(j, end - j));
      });
  Kokkos::parallel_for(
      "hash_join::probe", Kokkos::RangePolicy<ExecSpace>(0, na), KOKKOS_LAMBDA(Index i) {
        const auto slot = m.find(a(i));
        counts(i) = m.valid_at(slot) ? m.value_at(slot).second : 0;
      });
  std::int64_t total = 0;
  Kokkos::parallel_scan(
      "hash_join::scan", Kokkos::RangePolicy<ExecSpace>(0, na),
      KOKKOS_LAMBDA(Index i, std::int64_t & running, bool final) {
        const Index c = counts(i);
        if (final) counts(i) = Index(running);
        running += c;
      },
      total);
  Kokkos::parallel_for(
      "hash_join::write", Kokkos::RangePolicy<ExecSpace>(0, na), KOKKOS_LAMBDA(Index i) {
        const auto slot = m.find(a(i));
        if (!m.valid_at(slot)) return;
        const auto run = m.value_at(slot);
        for (Index r = 0; r < run.second; ++r) {
          a_out(counts(i) + r) = i;
          b_out(counts(i) + r) = run.first + r;
        }
      });
  return total;
}

void run_join_point(const Options& o, Report& report, const std::string& mode,
                    const std::string& dist, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  std::vector<Key> ha, hb;
  make_inputs(dist, n, ha, hb);
  std::int64_t pairs = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto [lo, hi] = std::equal_range(hb.begin(), hb.end(), ha[i]);
    pairs += (hi - lo) + (mode == "left" && lo == hi ? 1 : 0);
  }
  auto a = to_device(ha, "a"), b = to_device(hb, "b");
  const std::int64_t capacity = mode == "full" ? pairs + 2 * n : pairs;
  DeviceView<Index> a_out("a_out", capacity), b_out("b_out", capacity);
  const double bytes = double(2 * n) * sizeof(Key) + double(2 * pairs) * sizeof(Index);
  const std::string primitive = "join:" + mode;
  std::int64_t size = 0;
  Point p{primitive, "u32", dist, "ordo", false, 2 * n, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps, [&] {
    if (mode == "inner") size = Ordo::inner_join(space, a, b, a_out, b_out);
    if (mode == "left") size = Ordo::left_join(space, a, b, a_out, b_out);
    if (mode == "full") size = Ordo::full_outer_join(space, a, b, a_out, b_out);
    if (mode == "size") size = Ordo::join_size(space, Ordo::JoinKind::inner, a, b);
  });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  if (o.check && mode != "full") check(size == pairs, primitive + " size");
  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(
        Point{primitive, "u32", dist, impl, false, 2 * n, s, bytes, s.median_ms / ordo_ms});
  };
  if (wanted(o, "copy")) baseline("copy", time_copy(o, bytes));
  if (mode == "inner" && wanted(o, "Kokkos::UnorderedMap hash join")) {
    HashMap map(std::uint32_t(2 * n));
    DeviceView<Index> counts("counts", n);
    std::int64_t hash_size = 0;
    baseline("Kokkos::UnorderedMap hash join", time_device(space, o.warmup, o.reps, [&] {
               hash_size = hash_join(map, a, b, counts, a_out, b_out);
             }));
    if (o.check) check(hash_size == pairs, "the hash join's size");
  }
}

void run_lbs_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  std::vector<Index> scan;
  std::uint64_t state = 99;
  for (std::int64_t total = 0; total < n;) {
    scan.push_back(Index(total));
    total += std::int64_t(splitmix64(state) % 8);
  }
  auto d_scan = to_device(scan, "scan");
  DeviceView<Index> item("item", n), rank("rank", n);
  const double bytes = double(scan.size()) * sizeof(Index) + double(2 * n) * sizeof(Index);
  Point p{"load_balancing_search", "i32", "counts:0-7", "ordo", false, n, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps,
                        [&] { Ordo::load_balancing_search(space, d_scan, item, rank); });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  if (o.check) {
    auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), item);
    auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rank);
    for (std::int64_t k = 0; k < n; ++k) {
      const auto i = std::upper_bound(scan.begin(), scan.end(), Index(k)) - scan.begin() - 1;
      check(hi(k) == i && hr(k) == k - scan[i], "load_balancing_search");
    }
  }
  if (wanted(o, "copy")) {
    const Stats s = time_copy(o, bytes);
    report.point(Point{"load_balancing_search", "i32", "counts:0-7", "copy", false, n, s, bytes,
                       s.median_ms / ordo_ms});
  }
}

}  // namespace

void run_set_ops(const Options& o, Report& report) {
  const std::vector<std::string> ops =
      o.mode.empty()
          ? std::vector<std::string>{"intersection", "union", "difference", "symmetric_difference"}
          : std::vector<std::string>{o.mode};
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n)) {
    for (const auto& dist : dists_of(o)) {
      for (const auto& op : ops) run_set_op_point(o, report, op, dist, log2n);
    }
  }
}

void run_join(const Options& o, Report& report) {
  const std::vector<std::string> modes =
      o.mode.empty() ? std::vector<std::string>{"inner", "size"} : std::vector<std::string>{o.mode};
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n)) {
    for (const auto& dist : dists_of(o)) {
      for (const auto& mode : modes) run_join_point(o, report, mode, dist, log2n);
    }
  }
}

void run_load_balancing_search(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n)) {
    run_lbs_point(o, report, log2n);
  }
}

}  // namespace OrdoPerf
