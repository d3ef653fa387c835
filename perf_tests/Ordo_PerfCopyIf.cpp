// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf copy_if and ordo-perf retrieve_all: compaction and hash-map export against
// cub::DeviceSelect::If (CUDA builds), Kokkos::Experimental::copy_if, std::copy_if and
// std::copy_if(par) (host), the parallel_scan export users write today, and a device copy of the
// bytes moved.
//
// copy_if       n keys in random order, keeping a fraction of them (--fraction, default 0.5), to
//               an output of n: Ordo::copy_if with the count to a device View (the row the
//               ratios divide by),
//               copy_if_unordered likewise, and copy_if returning the count (fences)
// retrieve_all  a Kokkos::UnorderedMap<u32, u32> of capacity n holding n/2 entries (or
//               --fraction of n): Ordo::retrieve_all (count to a device View), the unordered
//               variant, the fencing form, and a parallel_scan over the capacity with valid_at

#include "Ordo_PerfCopyIf.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfHostBaselines.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <Kokkos_StdAlgorithms.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_select.cuh>
#endif

namespace OrdoPerf {
namespace {

template <class T>
struct KeepBelow {
  T threshold;
  KOKKOS_INLINE_FUNCTION bool operator()(const T& x) const { return x < threshold; }
};

// A fraction as a percentage, for primitive names.
std::string share(double fraction) { return std::to_string(int(fraction * 100 + 0.5)) + "%"; }

// Keys from random ranks (every type of --key), and the threshold below which `fraction` of them
// fall.
template <class T>
std::vector<T> random_keys(std::int64_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  std::uint64_t state = seed;
  const int bits = sizeof(T) >= 8 ? 62 : int(sizeof(T) * 8) - 1;
  for (auto& x : v) x = from_rank<T>(splitmix64(state) >> (64 - bits));
  return v;
}

template <class T>
T quantile(std::vector<T> v, double fraction) {
  const auto k = std::size_t(fraction * double(v.size()));
  if (k >= v.size()) return *std::max_element(v.begin(), v.end()) + T(1);
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

template <class T>
void run_copy_if_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const auto h = random_keys<T>(n, 17);
  const KeepBelow<T> pred{quantile(h, o.fraction)};
  std::vector<T> expected;
  std::copy_if(h.begin(), h.end(), std::back_inserter(expected), pred);
  const std::int64_t k = expected.size();
  auto in = to_device(h, "in");
  // out holds n, as a caller who does not know the count allocates it (Ordo's dispatch may then
  // take the vendor's selection; "ordo single pass" is Ordo's own kernel on the same out).
  Kokkos::View<T*, MemorySpace> out("out", n);
  Kokkos::View<std::int64_t*, MemorySpace> count("count", 1);

  const double bytes = double(n + k) * sizeof(T);
  const std::string name = o.fraction == 0.5 ? "copy_if" : "copy_if:keep" + share(o.fraction);
  Point p{name, o.key, o.dist, "ordo", false, n, {}, bytes, 1.0};
  p.stats =
      time_device(space, o.warmup, o.reps, [&] { Ordo::copy_if(space, in, out, pred, count); });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  auto row = [&](const std::string& impl, const Stats& s) {
    report.point(Point{name, o.key, o.dist, impl, false, n, s, bytes, s.median_ms / ordo_ms});
  };
  if (o.check) {
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    check(std::equal(expected.begin(), expected.end(), got.data()), "copy_if");
  }

  row("ordo unordered", time_device(space, o.warmup, o.reps,
                                    [&] { Ordo::copy_if_unordered(space, in, out, pred, count); }));
  if (o.check) {
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<T> sorted(got.data(), got.data() + k), want = expected;
    std::sort(sorted.begin(), sorted.end());
    std::sort(want.begin(), want.end());
    check(sorted == want, "copy_if_unordered");
  }
  row("ordo count returned",
      time_device(space, o.warmup, o.reps, [&] { Ordo::copy_if(space, in, out, pred); }));
  // Both ways of stable compaction on this backend (the dispatch picks one, CompactTuning).
  for (auto [impl, path] :
       {std::pair{"ordo single pass", Ordo::Impl::CompactPath::single_pass},
        std::pair{"ordo reduce then scan", Ordo::Impl::CompactPath::reduce_then_scan}}) {
    row(impl, time_device(space, o.warmup, o.reps, [&, path = path] {
          Ordo::Impl::compact_dispatch(
              space, n, Ordo::Impl::SelectByPredicate<decltype(in), KeepBelow<T>>{in, pred},
              Ordo::Impl::EmitElement<decltype(in), decltype(out)>{in, out}, count, path);
        }));
  }

  if (wanted(o, "copy")) {
    row("copy", time_copy(o, bytes));
  }
  if (wanted(o, "Kokkos::Experimental::copy_if")) {
    Kokkos::View<T*, MemorySpace> kout("kokkos_out", n);
    row("Kokkos::Experimental::copy_if", time_device(space, o.warmup, o.reps, [&] {
          Kokkos::Experimental::copy_if(space, in, kout, pred);
        }));
  }
  if ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::copy_if"))) {
    std::vector<T> sout(n);
    row("std::copy_if",
        time_host(o.warmup, o.reps, [&] { std::copy_if(h.begin(), h.end(), sout.begin(), pred); }));
  }
  {
    std::vector<T> pout(n);
    host_parallel_copy_if(o, h, pout, pred, row);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if (wanted(o, "cub::DeviceSelect::If")) {
    Kokkos::View<int*, MemorySpace> selected("cub_selected", 1);
    std::size_t temp_bytes = 0;
    cuda_check(cub::DeviceSelect::If(nullptr, temp_bytes, in.data(), out.data(), selected.data(),
                                     int(n), pred, space.cuda_stream()),
               "cub::DeviceSelect::If");
    Kokkos::View<std::byte*, MemorySpace> temp("cub_temp", temp_bytes);
    row("cub::DeviceSelect::If", time_device(space, o.warmup, o.reps, [&] {
          cub::DeviceSelect::If(temp.data(), temp_bytes, in.data(), out.data(), selected.data(),
                                int(n), pred, space.cuda_stream());
        }));
  }
#endif
}

using U32Map = Kokkos::UnorderedMap<std::uint32_t, std::uint32_t, ExecSpace>;

// The export users write today: a scan over the map's capacity with valid_at.
struct ScanExport {
  U32Map map;
  Kokkos::View<std::uint32_t*, MemorySpace> keys, values;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint32_t i, std::uint32_t& pos, bool final) const {
    if (map.valid_at(i)) {
      if (final) {
        keys(pos) = map.key_at(i);
        values(pos) = map.value_at(i);
      }
      ++pos;
    }
  }
};

void run_retrieve_all_point(const Options& o, Report& report, int log2n) {
  const ExecSpace space;
  const std::int64_t capacity = std::int64_t(1) << log2n;
  const auto entries = std::int64_t(o.fraction * double(capacity));
  U32Map map(capacity);
  // Distinct keys: i times an odd constant is a bijection of 32-bit integers.
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<ExecSpace>(space, 0, entries), KOKKOS_LAMBDA(std::int64_t i) {
        const auto key = std::uint32_t(i) * 2654435761u;
        map.insert(key, key ^ 0x5bd1e995u);
      });
  space.fence();
  if (map.failed_insert() || std::int64_t(map.size()) != entries) {
    throw std::runtime_error("ordo-perf retrieve_all: the map did not take every entry");
  }
  Kokkos::View<std::uint32_t*, MemorySpace> keys("keys", entries), values("values", entries);
  Kokkos::View<std::int64_t*, MemorySpace> count("count", 1);

  // Bytes an export moves: the slot bitset, the key and value arrays over the capacity (the
  // entries are spread over all of it), the entries written.
  const double bytes = double(capacity) / 8 + double(capacity + entries) * 8;
  const std::string name =
      o.fraction == 0.5 ? "retrieve_all" : "retrieve_all:load" + share(o.fraction);
  Point p{name, "u32", o.dist, "ordo", true, capacity, {}, bytes, 1.0};
  p.stats = time_device(space, o.warmup, o.reps,
                        [&] { Ordo::retrieve_all(space, map, keys, values, count); });
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  auto row = [&](const std::string& impl, const Stats& s) {
    report.point(Point{name, "u32", o.dist, impl, true, capacity, s, bytes, s.median_ms / ordo_ms});
  };
  // The entries as a set (their slot order is checked against the scan export below).
  auto check_export = [&](const char* what) {
    auto hk = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
    auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    std::vector<std::uint64_t> got(entries), want(entries);
    for (std::int64_t i = 0; i < entries; ++i) {
      check(hv(i) == (hk(i) ^ 0x5bd1e995u), std::string(what) + " (pairing)");
      got[i] = hk(i);
      want[i] = std::uint32_t(i) * 2654435761u;
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    check(got == want, what);
  };
  if (o.check) check_export("retrieve_all");

  row("ordo unordered", time_device(space, o.warmup, o.reps, [&] {
        Ordo::retrieve_all_unordered(space, map, keys, values, count);
      }));
  if (o.check) check_export("retrieve_all_unordered");
  row("ordo count returned",
      time_device(space, o.warmup, o.reps, [&] { Ordo::retrieve_all(space, map, keys, values); }));

  if (wanted(o, "copy")) {
    row("copy", time_copy(o, bytes));
  }
  if (wanted(o, "parallel_scan")) {
    Kokkos::View<std::uint32_t*, MemorySpace> skeys("scan_keys", entries),
        svalues("scan_values", entries);
    std::uint32_t total = 0;
    row("parallel_scan export", time_device(space, o.warmup, o.reps, [&] {
          Kokkos::parallel_scan("export", Kokkos::RangePolicy<ExecSpace>(space, 0, map.capacity()),
                                ScanExport{map, skeys, svalues}, total);
        }));
    if (o.check) {
      auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), skeys);
      Ordo::retrieve_all(space, map, keys, values);
      auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
      check(std::int64_t(total) == entries && std::equal(a.data(), a.data() + entries, b.data()),
            "retrieve_all (slot order, against the scan export)");
    }
  }
}

}  // namespace

void run_copy_if(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "22" : "26") : o.log2n)) {
    for_key_type(o.key, [&](auto key) { run_copy_if_point<decltype(key)>(o, report, log2n); });
  }
}

void run_retrieve_all(const Options& o, Report& report) {
  for (int log2n : parse_log2n(o.log2n.empty() ? (on_host ? "20" : "26") : o.log2n)) {
    run_retrieve_all_point(o, report, log2n);
  }
}

}  // namespace OrdoPerf
