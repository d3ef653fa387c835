// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf sort: Ordo::sort / sort_by_key (--values) and, with --mode team, Ordo::sort_team on
// 1024-key segments inside a user kernel, against Kokkos::sort, Kokkos::Experimental::sort_by_key
// and sort_team, std::sort (host), a device copy of the bytes every pass moves, and on CUDA
// cub::DeviceRadixSort, cub::DeviceMergeSort and cub::DeviceSegmentedSort. Sorting is in place:
// every timed call starts from the same unsorted input, restored outside the timed region; the
// baselines' temporary storage is allocated outside it too.

#include "Ordo_PerfSort.hpp"

#include "Ordo_PerfAssembly.hpp"

#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfHostBaselines.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo.hpp>

#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#endif

namespace OrdoPerf {
namespace {

constexpr std::int64_t segment = 1024;  // --mode team

template <class T>
std::vector<T> unsorted_keys(const Options& o, std::int64_t n) {
  return shuffled(sorted_keys<T>(o.dist, n, 5), 9);
}

template <class T, class V>
void check_sorted(const std::vector<T>& in, const Kokkos::View<T*, MemorySpace>& keys,
                  const Kokkos::View<V*, MemorySpace>& values, bool segmented) {
  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
  std::vector<T> expected = in;
  const std::int64_t n = in.size(), seg = segmented ? segment : n;
  for (std::int64_t b = 0; b < n; b += seg) {
    std::sort(expected.begin() + b, expected.begin() + std::min(n, b + seg), Ordo::less<>());
  }
  if (std::memcmp(expected.data(), got.data(), n * sizeof(T)) != 0) {
    throw std::runtime_error("ordo-perf sort --check: Ordo's keys differ from std::sort");
  }
  if (values.extent(0)) {
    auto gv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    for (std::int64_t i = 0; i < n; ++i) {
      if (std::memcmp(&in[gv(i)], &got(i), sizeof(T)) != 0) {
        throw std::runtime_error("ordo-perf sort --check: a value did not move with its key");
      }
    }
  }
}

template <class T>
void run_point(const Options& o, Report& report, int log2n) {
  using V = std::uint32_t;
  const bool team = o.mode == "team";
  const ExecSpace space;
  const std::int64_t n = std::int64_t(1) << log2n;
  if (team && n % segment) throw std::invalid_argument("ordo-perf sort --mode team: n >= 1024");
  const std::vector<T> hin = unsorted_keys<T>(o, n);
  std::vector<V> hids(n);
  std::iota(hids.begin(), hids.end(), V(0));
  const auto in = to_device(hin, "in");
  const auto ids = to_device(hids, "ids");
  Kokkos::View<T*, MemorySpace> keys("keys", n), out("out", n);
  Kokkos::View<V*, MemorySpace> values("values", o.values ? n : 0), out_values;
  if (o.values) out_values = Kokkos::View<V*, MemorySpace>("out_values", n);
  auto reset = [&] {
    Kokkos::deep_copy(space, keys, in);
    if (o.values) Kokkos::deep_copy(space, values, ids);
  };
  // Bytes every pass over the data moves (one read and one write of each record): the unit of
  // the copy row, whose time says how many such passes fit in a sort's time.
  const double bytes = 2.0 * n * (sizeof(T) + (o.values ? sizeof(V) : 0));
  const std::string primitive = team ? "sort_team" : "sort";
  // A tuning experiment's rows name the setting they ran with.
  std::string settings;
  auto setting = [&](bool set, const char* name, int value) {
    if (set) settings += (settings.empty() ? "" : ",") + (name + ("=" + std::to_string(value)));
  };
  setting(o.stream_levels >= 0, "stream_levels", o.stream_levels);
  setting(o.partition_lanes > 0, "partition_lanes", o.partition_lanes);
  setting(o.vendor_bits >= 0, "vendor_bits", o.vendor_bits);
  if (!o.algorithm.empty())
    settings += (settings.empty() ? "" : ",") + ("algorithm=" + o.algorithm);
  const std::string impl = settings.empty() ? "ordo" : "ordo[" + settings + "]";
  // The experiment's settings go to Ordo's internal entry points (the public calls without their
  // argument checks); without one, the public calls run.
  Ordo::Impl::SortOptions options;
  options.stream_levels = o.stream_levels;
  options.partition_lanes = o.partition_lanes;
  options.vendor_bits = o.vendor_bits;
  if (!o.algorithm.empty()) {
    options.algorithm = o.algorithm == "radix"    ? Ordo::Impl::SortAlgorithm::radix
                        : o.algorithm == "vendor" ? Ordo::Impl::SortAlgorithm::vendor
                        : o.algorithm == "merge"  ? Ordo::Impl::SortAlgorithm::vendor_merge
                                                  : Ordo::Impl::SortAlgorithm::slab;
  }
  Point p{primitive, o.key, o.dist, impl, o.values, n, {}, bytes, 1.0};

  const std::int64_t segments = n / segment;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = Policy::member_type;
  const int team_size = on_host ? 1 : 128;
  p.stats = time_device(
      space, o.warmup, o.reps,
      [&] {
        if (team) {
          Kokkos::parallel_for(
              "ordo-perf::sort_team", Policy(space, segments, team_size),
              KOKKOS_LAMBDA(const Member& m) {
                const auto seg =
                    Kokkos::make_pair(m.league_rank() * segment, (m.league_rank() + 1) * segment);
                Ordo::sort_team(m, Kokkos::subview(keys, seg));
              });
        } else if (!settings.empty()) {
          if (o.values) {
            Ordo::Impl::sort_by_key(space, keys, values, Ordo::less<>{}, options);
          } else {
            Ordo::Impl::sort(space, keys, Ordo::less<>{}, options);
          }
        } else if (o.values) {
          Ordo::sort_by_key(space, keys, values);
        } else {
          Ordo::sort(space, keys);
        }
      },
      reset);
  const double ordo_ms = p.stats.median_ms;
  report.point(p);
  if (o.check) check_sorted(hin, keys, values, team);

  auto baseline = [&](const std::string& impl, const Stats& s) {
    report.point(
        Point{primitive, o.key, o.dist, impl, o.values, n, s, bytes, s.median_ms / ordo_ms});
  };
  if (wanted(o, "copy")) baseline("copy", time_copy(o, bytes));
  if (team) {
    if (wanted(o, "Kokkos::Experimental::sort_team")) {
      baseline("Kokkos::Experimental::sort_team",
               time_device(
                   space, o.warmup, o.reps,
                   [&] {
                     Kokkos::parallel_for(
                         "ordo-perf::kokkos_sort_team", Policy(space, segments, team_size),
                         KOKKOS_LAMBDA(const Member& m) {
                           const auto seg = Kokkos::make_pair(m.league_rank() * segment,
                                                              (m.league_rank() + 1) * segment);
                           Kokkos::Experimental::sort_team(m, Kokkos::subview(keys, seg));
                         });
                   },
                   reset));
    }
  } else if (o.values) {
    if (wanted(o, "Kokkos::Experimental::sort_by_key")) {
      baseline("Kokkos::Experimental::sort_by_key",
               time_device(
                   space, o.warmup, o.reps,
                   [&] { Kokkos::Experimental::sort_by_key(space, keys, values); }, reset));
    }
  } else if (wanted(o, "Kokkos::sort")) {
    baseline("Kokkos::sort",
             time_device(
                 space, o.warmup, o.reps, [&] { Kokkos::sort(space, keys); }, reset));
  }
  if (!team &&
      ((on_host && o.baselines.empty()) || (!o.baselines.empty() && wanted(o, "std::sort")))) {
    std::vector<T> hk(n);
    std::vector<std::pair<T, V>> hp(o.values ? n : 0);
    std::vector<double> ms;
    for (int r = 0; r < o.warmup + o.reps; ++r) {
      for (std::int64_t i = 0; i < n; ++i) {
        if (o.values) {
          hp[i] = {hin[i], hids[i]};
        } else {
          hk[i] = hin[i];
        }
      }
      const Stats s = time_host(0, 1, [&] {
        if (o.values) {
          std::sort(hp.begin(), hp.end(),
                    [](const auto& x, const auto& y) { return Ordo::less<>()(x.first, y.first); });
        } else {
          std::sort(hk.begin(), hk.end(), Ordo::less<>());
        }
      });
      if (r >= o.warmup) ms.push_back(s.median_ms);
    }
    baseline("std::sort", summarize(ms));
  }
  if (!team && !o.values) {
    std::vector<T> hk(hin);
    host_parallel_sorts(
        o, hk, Ordo::less<>(), [&] { hk = hin; }, baseline);
  } else if (!team) {
    std::vector<std::pair<T, V>> hp(n);
    auto reset_pairs = [&] {
      for (std::int64_t i = 0; i < n; ++i) hp[i] = {hin[i], hids[i]};
    };
    host_parallel_sorts(
        o, hp, [](const auto& x, const auto& y) { return Ordo::less<>()(x.first, y.first); },
        reset_pairs, baseline);
  }
#if defined(KOKKOS_ENABLE_CUDA)
  // CUB sorts out of place (in to out); temporary storage sized and allocated before timing.
  auto cub_baseline = [&](const char* name, auto&& call) {
    if (wanted(o, name)) baseline(name, time_cub(o.warmup, o.reps, name, call));
  };
  const auto stream = space.cuda_stream();
  if (team) {
    Kokkos::View<std::int64_t*, MemorySpace> offsets("offsets", segments + 1);
    Kokkos::parallel_for(
        Kokkos::RangePolicy<ExecSpace>(space, 0, segments + 1),
        KOKKOS_LAMBDA(std::int64_t s) { offsets(s) = s * segment; });
    cub_baseline("cub::DeviceSegmentedSort::SortKeys", [&](void* t, std::size_t& b) {
      return cub::DeviceSegmentedSort::SortKeys(t, b, in.data(), out.data(), n, segments,
                                                offsets.data(), offsets.data() + 1, stream);
    });
  } else if (o.values) {
    cub_baseline("cub::DeviceRadixSort::SortPairs", [&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, in.data(), out.data(), ids.data(),
                                             out_values.data(), n, 0, int(8 * sizeof(T)), stream);
    });
    if (o.dist == "bits20") {
      cub_baseline("cub::DeviceRadixSort::SortPairs[end_bit=20]", [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, in.data(), out.data(), ids.data(),
                                               out_values.data(), n, 0, 20, stream);
      });
    }
    cub_baseline("cub::DeviceMergeSort::SortPairs", [&](void* t, std::size_t& b) {
      return cub::DeviceMergeSort::SortPairsCopy(t, b, in.data(), ids.data(), out.data(),
                                                 out_values.data(), n, Ordo::less<>(), stream);
    });
  } else {
    cub_baseline("cub::DeviceRadixSort::SortKeys", [&](void* t, std::size_t& b) {
      return cub::DeviceRadixSort::SortKeys(t, b, in.data(), out.data(), n, 0, int(8 * sizeof(T)),
                                            stream);
    });
    if (o.dist == "bits20") {
      cub_baseline("cub::DeviceRadixSort::SortKeys[end_bit=20]", [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortKeys(t, b, in.data(), out.data(), n, 0, 20, stream);
      });
    }
    cub_baseline("cub::DeviceMergeSort::SortKeys", [&](void* t, std::size_t& b) {
      return cub::DeviceMergeSort::SortKeysCopy(t, b, in.data(), out.data(), n, Ordo::less<>(),
                                                stream);
    });
  }
#endif
}

}  // namespace

void run_sort(const Options& o, Report& report) {
  if (o.keys == 2) {
    run_sort_keys2(o, report);
    return;
  }
  const auto sizes = parse_log2n(o.log2n.empty() ? (on_host ? "20" : "24") : o.log2n);
  for (int log2n : sizes) {
    for_key_type(o.key, [&](auto key) { run_point<decltype(key)>(o, report, log2n); });
  }
}

}  // namespace OrdoPerf
