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
#include <impl/team/Ordo_TileSearch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// Which path a search takes: the dispatch's choice, or (for tests) one of the tiled paths (the
// walk's fused and partitioned tiles, Ordo_SortedSearchImpl.hpp; here, tiled: the device path).
enum class SearchPath { automatic, tiled, fused };

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
