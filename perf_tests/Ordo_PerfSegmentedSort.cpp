// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf segmented_sort: Ordo::segmented_sort / segmented_sort_by_key (--values: f64 values)
// over CRS segments whose lengths follow --segments, against a copy of the bytes, a parallel loop
// of std::sort over the segments (host), Ordo::sort_team on uniform:L segments (L <= 2^14) and on
// CUDA cub::DeviceSegmentedSort. Every timed call starts from the same unsorted input.

#include "Ordo_PerfSegmentedSort.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_segmented_sort.cuh>
#endif

namespace OrdoPerf {

namespace {

using Offsets = Kokkos::View<std::int64_t*, MemorySpace>;

template <class T, class V>
void check_segments(const std::vector<T>& in, const std::vector<std::int64_t>& offsets,
                    const Kokkos::View<T*, MemorySpace>& keys,
                    const Kokkos::View<V*, MemorySpace>& values) {
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
  std::vector<T> want = in;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::sort(want.begin() + offsets[s], want.begin() + offsets[s + 1], Ordo::less<>());
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(want[i] == got(i))) {
      throw std::runtime_error("ordo-perf segmented_sort --check: keys differ from std::sort");
    }
  }
  if (values.extent(0)) {  // values(i) = keys(i) / 2 in the input
    const auto gv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (gv(i) != V(got(i)) / 2) {
        throw std::runtime_error("ordo-perf segmented_sort --check: a value left its key");
      }
    }
  }
}

template <class T>
void run_point(const Options& o, Report& report, int log2n) {
  using V = double;
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  const std::vector<std::int64_t> hoffsets = segment_offsets(o.segments, n, 3);
  const std::int64_t segments = std::int64_t(hoffsets.size()) - 1;
  std::vector<T> hin = shuffled(sorted_keys<T>("uniform", n, 5), 9);
  std::vector<V> hvalues(o.values ? n : 0);
  for (std::size_t i = 0; i < hvalues.size(); ++i) hvalues[i] = V(hin[i]) / 2;
  const auto in = to_device(hin, "in");
  const auto in_values = to_device(hvalues, "in_values");
  const auto offsets = to_device(hoffsets, "offsets");
  Kokkos::View<T*, MemorySpace> keys("keys", n), out("out", n);
  Kokkos::View<V*, MemorySpace> values("values", o.values ? n : 0),
      out_values("out_values", o.values ? n : 0);
  auto reset = [&] {
    Kokkos::deep_copy(space, keys, in);
    if (o.values) Kokkos::deep_copy(space, values, in_values);
  };
  const double bytes = 2.0 * n * (sizeof(T) + (o.values ? sizeof(V) : 0));
  Point p{"segmented_sort", o.key, o.segments, "ordo", o.values, n, {}, bytes, 1.0};
  p.stats = time_device(
      space, o.warmup, o.reps,
      [&] {
        if (o.values) {
          Ordo::segmented_sort_by_key(space, keys, values, offsets);
        } else {
          Ordo::segmented_sort(space, keys, offsets);
        }
      },
      reset);
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  if (o.check) check_segments(hin, hoffsets, keys, values);
  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(Point{"segmented_sort", o.key, o.segments, impl, o.values, n, s, bytes,
                       s.median_ms / ordo_ms});
  };
  if (wanted(o, "copy")) baseline("copy", time_copy(o, bytes));
  // Users' kernels: one team a segment calling Ordo::sort_team (equal lengths only).
  const std::int64_t length = segments > 0 ? hoffsets[1] : 0;
  if (o.segments.rfind("uniform:", 0) == 0 && length <= (1 << 14) && wanted(o, "sort_team")) {
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    using Member = Policy::member_type;
    const int team_size = on_host ? 1 : 128;
    const bool with_values = o.values;
    baseline("sort_team", time_device(
                              space, o.warmup, o.reps,
                              [&] {
                                Kokkos::parallel_for(
                                    "ordo-perf::segmented_sort_team",
                                    Policy(space, n / length, team_size),
                                    KOKKOS_LAMBDA(const Member& m) {
                                      const auto seg = Kokkos::make_pair(
                                          m.league_rank() * length, (m.league_rank() + 1) * length);
                                      if (with_values) {
                                        Ordo::sort_by_key_team(m, Kokkos::subview(keys, seg),
                                                               Kokkos::subview(values, seg));
                                      } else {
                                        Ordo::sort_team(m, Kokkos::subview(keys, seg));
                                      }
                                    });
                              },
                              reset));
  }
  if constexpr (on_host) {
    if (wanted(o, "std::sort per segment")) {
      // The loop a user writes: one std::sort per segment, segments spread over the threads.
      const bool with_values = o.values;
      baseline("std::sort per segment",
               time_device(
                   space, o.warmup, o.reps,
                   [&] {
                     Kokkos::parallel_for(
                         "ordo-perf::std_sort_segments",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
                             space, 0, segments),
                         [=](std::int64_t s) {
                           const std::int64_t lo = offsets(s), hi = offsets(s + 1);
                           if (!with_values) {
                             std::sort(keys.data() + lo, keys.data() + hi);
                             return;
                           }
                           thread_local std::vector<std::pair<T, V>> row;
                           row.resize(hi - lo);
                           for (std::int64_t i = lo; i < hi; ++i)
                             row[i - lo] = {keys(i), values(i)};
                           std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
                             return a.first < b.first;
                           });
                           for (std::int64_t i = lo; i < hi; ++i) {
                             keys(i) = row[i - lo].first;
                             values(i) = row[i - lo].second;
                           }
                         });
                   },
                   reset));
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  auto cub_baseline = [&](const char* name, auto&& call) {
    if (wanted(o, name)) baseline(name, time_cub(o.warmup, o.reps, name, call));
  };
  const auto stream = space.cuda_stream();
  if (o.values) {
    cub_baseline("cub::DeviceSegmentedSort::SortPairs", [&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedSort::SortPairs(t, b, in.data(), out.data(), in_values.data(),
                                                 out_values.data(), n, segments, offsets.data(),
                                                 offsets.data() + 1, stream);
    });
  } else {
    cub_baseline("cub::DeviceSegmentedSort::SortKeys", [&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedSort::SortKeys(t, b, in.data(), out.data(), n, segments,
                                                offsets.data(), offsets.data() + 1, stream);
    });
  }
#endif
}

}  // namespace

void run_segmented_sort(const Options& o, Report& report) {
  const auto sizes = parse_log2n(o.log2n.empty() ? (on_host ? "22" : "24") : o.log2n);
  for (int log2n : sizes) {
    for_key_type(o.key, [&](auto key) { run_point<decltype(key)>(o, report, log2n); });
  }
}

}  // namespace OrdoPerf
