// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_BINARYSEARCHIMPL_HPP
#define ORDO_IMPL_BINARYSEARCHIMPL_HPP

// Device level of the bounds of needles in any order (Ordo::lower_bound, Ordo::upper_bound): one
// binary search per needle, Ordo::<lower_bound|upper_bound>::search; on device backends each team
// first loads evenly spaced haystack samples into scratch for the top levels of its searches.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// Which path a search takes: the dispatch's choice, or (for tests) one of the tiled paths (the
// walk's fused and partitioned tiles, Ordo_SortedSearchImpl.hpp; here, tiled: the device path).
enum class SearchPath { automatic, tiled, fused };

// Binary search of a needle in hay[begin, begin + len) (any needle order): begin plus the number
// of elements that order before the needle (Upper: that do not order after it). Branch-free: the
// loop runs ceil(log2 len) times.
template <bool Upper, class Haystack, class Needle, class Comp>
KOKKOS_INLINE_FUNCTION std::int64_t binary_search(const Haystack& hay, std::int64_t begin,
                                                  std::int64_t len, const Needle& needle,
                                                  const Comp& comp) {
  if (len == 0) return begin;
  while (len > 1) {
    const std::int64_t half = len / 2;
    const auto& probe = hay(begin + half - 1);
    const bool before = Upper ? !comp(needle, probe) : comp(probe, needle);
    begin = before ? begin + half : begin;
    len -= half;
  }
  const auto& last = hay(begin);
  return begin + (Upper ? !comp(needle, last) : comp(last, needle));
}

// Host backends: one binary search per needle.
template <bool Upper, class Haystack, class Needles, class Out, class Comp>
struct BinarySearchHost {
  Haystack haystack;
  Needles needles;
  Out out;
  Comp comp;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    out(i) = typename Out::non_const_value_type(
        binary_search<Upper>(haystack, 0, haystack.extent(0), needles(i), comp));
  }
};

// Device backends: each team first loads `samples` evenly spaced haystack elements into scratch
// (sample j = hay[j * step]), so that the top levels of every search run in scratch instead of
// chasing L2 and DRAM; each needle then finishes in one step-long range of the haystack. A team
// takes per_team needles (binary_search_dispatch chooses how many).
template <int Samples, class ExecSpace, class Haystack, class Needles, class Out, bool Upper,
          class Comp>
struct BinarySearchTiles {
  using Key = typename Haystack::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using SampleTile = Kokkos::View<Key*, typename ExecSpace::scratch_memory_space,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Haystack haystack;
  Needles needles;
  Out out;
  Comp comp;
  int samples;            // min(Samples, |haystack|)
  std::int64_t step;      // ceil(|haystack| / samples)
  std::int64_t per_team;  // needles a team

  std::size_t team_shmem_size(int) const { return SampleTile::shmem_size(Samples); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    SampleTile tile(member.team_scratch(0), Samples);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, samples),
                         [&](int j) { tile(j) = haystack(j * step); });
    member.team_barrier();
    const std::int64_t n = haystack.extent(0), count = needles.extent(0);
    const std::int64_t first = member.league_rank() * per_team;
    const std::int64_t last = first + per_team < count ? first + per_team : count;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, first, last), [&](std::int64_t i) {
      const auto needle = needles(i);
      // c samples order before the needle: the answer lies in [(c - 1) * step + 1, c * step].
      const std::int64_t c = binary_search<Upper>(tile, 0, samples, needle, comp);
      const std::int64_t lo = c > 0 ? (c - 1) * step + 1 : 0;
      const std::int64_t hi = c * step < n ? c * step : n;
      out(i) = typename Out::non_const_value_type(
          binary_search<Upper>(haystack, lo, hi > lo ? hi - lo : 0, needle, comp));
    });
  }
};

// path tiled runs the device path on any backend (tests).
template <bool Upper, class ExecSpace, class Haystack, class Needles, class Out, class Comp>
void binary_search_dispatch(const char* label, const ExecSpace& space, const Haystack& haystack,
                            const Needles& needles, const Out& out, const Comp& comp,
                            SearchPath path = SearchPath::automatic) {
  const std::int64_t n = haystack.extent(0), count = needles.extent(0);
  if (count == 0) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (path == SearchPath::automatic) {
      Kokkos::parallel_for(
          label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, count),
          BinarySearchHost<Upper, Haystack, Needles, Out, Comp>{haystack, needles, out, comp});
      return;
    }
  }
  {
    using Tuning = BinarySearchTuning<ExecSpace, sizeof(typename Haystack::value_type)>;
    // At most Tuning::samples samples, `step` apart, the last one inside the haystack.
    const std::int64_t most = n < Tuning::samples ? n : Tuning::samples;
    const std::int64_t step = most > 0 ? (n + most - 1) / most : 1;
    const int samples = int((n + step - 1) / step);
    // A thread's needles are searched one after the other: one a thread until concurrency /
    // Tuning::thread_share threads have one, then up to Tuning::needles_per_thread (which share
    // the team's samples).
    const std::int64_t share = space.concurrency() / Tuning::thread_share;
    const std::int64_t threads = share > 0 ? share : 1;
    const std::int64_t spread = (count + threads - 1) / threads;
    const std::int64_t per_thread =
        spread < Tuning::needles_per_thread ? spread : Tuning::needles_per_thread;
    const std::int64_t per_team = std::int64_t(Tuning::team_size) * per_thread;
    launch_tiles(label, space, TilePlan{(count + per_team - 1) / per_team, Tuning::team_size},
                 BinarySearchTiles<Tuning::samples, ExecSpace, Haystack, Needles, Out, Upper, Comp>{
                     haystack, needles, out, comp, samples, step, per_team});
  }
}

template <bool Upper, class ExecSpace, class Haystack, class Needles, class Out, class Comp>
void binary_search_all(const char* fn, const char* label, const ExecSpace& space,
                       const Haystack& haystack, const Needles& needles, const Out& out,
                       const Comp& comp) {
  static_check_views<ExecSpace, Haystack, Needles>();
  check_index_output<ExecSpace>(fn, "out", out, needles.extent(0), haystack.extent(0));
  check_no_alias(fn, "out", out, "haystack", haystack, "needles", needles);
  check_all_reachable<ExecSpace>(fn, "haystack", haystack, "needles", needles, "out", out);
  if constexpr (debug_checks) check_sorted(fn, "haystack", space, haystack, comp);
  binary_search_dispatch<Upper>(label, space, haystack, needles, out, comp);
}

}  // namespace Ordo::Impl

#endif
