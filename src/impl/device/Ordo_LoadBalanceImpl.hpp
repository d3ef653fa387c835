// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_LOADBALANCEIMPL_HPP
#define ORDO_IMPL_LOADBALANCEIMPL_HPP

// Device level of the load-balancing search (moderngpu's): for every output position k, the
// item it belongs to, the last i with counts_scan(i) <= k. That is the upper bound of k in the
// scan minus one, so the search is sorted search's walk of X = the scan and Y = the output
// positions 0, 1, ..., N - 1, a sequence computed, never stored:
//   device backends: Ordo::<algo>::partition (the merge-path partitioner) then Ordo::<algo>::tiles
//                    (team/Ordo_TileLoadBalance.hpp: a tile loads only its items' scan values);
//                    small inputs: one launch, Ordo::<algo>::fused
//   host backends:   Ordo::<algo>::host, the search's merge-path chunk a thread (ItemSink)
// (interval_expand, interval_gather and the joins' expansion run it too). No per-item loop, no
// atomics: every output costs the same whatever the counts.

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_MergePathLaunch.hpp>
#include <impl/device/Ordo_SortedSearchImpl.hpp>
#include <impl/team/Ordo_TileLoadBalance.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// The walk's Y results: position k's upper bound in the scan gives its item; store(k, item, rank).
// Its results are plain stores where the store's are: a store that writes only at k (whatever
// item it is told) may be told a wrong item first and the right one later.
template <class Scan, class Store>
struct ItemSink {
  Scan scan;
  Store store;
  static constexpr bool want_x = false, want_y = true, match = false, count_matches = false;
  static constexpr bool plain_stores = Store::writes_at_k;

  KOKKOS_INLINE_FUNCTION void x(std::int64_t, std::int64_t, bool) const {}
  KOKKOS_INLINE_FUNCTION void y(std::int64_t k, std::int64_t upper, bool) const {
    // upper is 0 only where the scan does not start at 0 or decreases (unchecked without
    // ORDO_ENABLE_DEBUG_CHECKS): item 0 then, never index -1.
    const std::int64_t item = upper > 0 ? upper - 1 : 0;
    store(k, item, k - std::int64_t(scan(item)));
  }
  KOKKOS_INLINE_FUNCTION void add_counts(std::int64_t, std::int64_t) const {}
};

template <class ItemView, class RankView>
struct ItemStore {
  static constexpr bool writes_at_k = true;
  ItemView out_item;
  RankView out_rank;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t item,
                                         std::int64_t rank) const {
    out_item(k) = typename ItemView::non_const_value_type(item);
    if (out_rank.extent(0)) out_rank(k) = typename RankView::non_const_value_type(rank);
  }
};

// interval_expand: out(k) = values(item).
template <class Values, class Out>
struct ExpandStore {
  static constexpr bool writes_at_k = true;
  Values values;
  Out out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t item, std::int64_t) const {
    out(k) = values(item);
  }
};

// interval_gather: out(k) = values(starts(item) + rank). An interval that leaves values (an
// error under ORDO_ENABLE_DEBUG_CHECKS) reads the nearest element of values instead.
template <class Starts, class Values, class Out>
struct GatherStore {
  static constexpr bool writes_at_k = true;
  Starts starts;
  Values values;
  Out out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t item,
                                         std::int64_t rank) const {
    const std::int64_t at = std::int64_t(starts(item)) + rank, last = values.extent(0) - 1;
    out(k) = values(at < 0 ? 0 : at > last ? last : at);
  }
};

// store(k, item, rank) for every output position k in [0, outputs). Host backends walk one
// merge-path chunk a thread (the search's host path, ItemSink); device backends, and tests that
// ask for the tiled or fused path, run LoadBalanceTiles. Kernel labels: Ordo::<algo>::<phase>.
template <class ExecSpace, class Scan, class Store>
void load_balance(const std::string& algo, const ExecSpace& space, const Scan& scan,
                  std::int64_t outputs, const Store& store,
                  SearchPath path = SearchPath::automatic) {
  using T = typename Scan::non_const_value_type;
  // No positions, or no items to own them (an error the public calls raise before this).
  if (outputs == 0 || scan.extent(0) == 0) return;
  const CountingSequence<T> positions{outputs};
  if constexpr (is_host_space_v<ExecSpace>) {
    if (path == SearchPath::automatic) {
      search_dispatch(algo, space, scan, positions, ItemSink<Scan, Store>{scan, store}, less<>{});
      return;
    }
  }
  using Tuning = SearchTuning<ExecSpace, sizeof(T)>;
  constexpr int vt = Tuning::vt;
  const std::int64_t tile = std::int64_t(Tuning::team_size) * vt;
  const std::int64_t tiles = (std::int64_t(scan.extent(0)) + outputs + tile - 1) / tile;
  const bool fused =
      path == SearchPath::automatic ? tiles <= Tuning::fused_max_tiles : path == SearchPath::fused;
  using Part = PartitionView<ExecSpace>;
  launch_merge_path_tiles(
      "Ordo::" + algo, space, scan, positions, less<>{}, Tuning::team_size, tile, fused,
      [&](auto fused_tag, const Part& part) {
        return LoadBalanceTiles<vt, decltype(fused_tag)::value, ExecSpace, Scan, Part, Store>{
            scan, positions, part, store};
      });
}

// ---- argument checks (Ordo_LoadBalance.hpp)

// The scan of item counts: integers, non-decreasing, from 0, at most `outputs` (the last two
// checked with ORDO_ENABLE_DEBUG_CHECKS: they read the scan).
template <class ExecSpace, class Scan>
void check_counts_scan(const char* fn, const ExecSpace& space, const Scan& scan,
                       std::int64_t outputs) {
  static_check_views<ExecSpace, Scan>();
  using T = typename Scan::non_const_value_type;
  static_assert(std::is_integral_v<T> && std::is_signed_v<T>,
                "Ordo: counts_scan holds a signed integer type");
  check_all_reachable<ExecSpace>(fn, "counts_scan", scan);
  const std::int64_t m = scan.extent(0);
  if (m == 0 && outputs > 0) {
    fail(fn, "counts_scan is empty, so no output position belongs to an item, but the output has " +
                 std::to_string(outputs) + " elements");
  }
  if (outputs > std::int64_t(std::numeric_limits<T>::max())) {
    fail(fn, "counts_scan's value type cannot hold the output size " + std::to_string(outputs));
  }
  if constexpr (debug_checks) {
    if (m == 0) return;
    check_sorted(fn, "counts_scan", space, scan, less<>{});
    T ends[2];
    Kokkos::deep_copy(space, Kokkos::View<T, Kokkos::HostSpace>(ends), Kokkos::subview(scan, 0));
    Kokkos::deep_copy(space, Kokkos::View<T, Kokkos::HostSpace>(ends + 1),
                      Kokkos::subview(scan, m - 1));
    space.fence("Ordo: check of counts_scan");
    if (ends[0] != 0) fail(fn, "counts_scan(0) = " + std::to_string(ends[0]) + ", must be 0");
    if (std::int64_t(ends[1]) > outputs) {
      fail(fn, "counts_scan(" + std::to_string(m - 1) + ") = " + std::to_string(ends[1]) +
                   " is past the output's end (" + std::to_string(outputs) + ")");
    }
  }
}

// interval_gather's intervals lie inside values: an error for values that are empty while
// positions are wanted and, with ORDO_ENABLE_DEBUG_CHECKS (it reads starts and the scan), for
// the first item whose interval [starts(i), starts(i) + count(i)) leaves them.
template <class Scan, class Starts>
struct FirstOutsideInterval {
  Scan scan;
  Starts starts;
  std::int64_t outputs, values;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& first) const {
    const std::int64_t m = scan.extent(0);
    const std::int64_t end = i + 1 < m ? std::int64_t(scan(i + 1)) : outputs;
    const std::int64_t count = end - std::int64_t(scan(i)), start = std::int64_t(starts(i));
    if (count > 0 && (start < 0 || start + count > values) && i < first) first = i;
  }
};

template <class ExecSpace, class Scan, class Starts>
void check_intervals(const char* fn, const ExecSpace& space, const Scan& scan, const Starts& starts,
                     std::int64_t values, std::int64_t outputs) {
  if (outputs > 0 && values == 0) {
    fail(fn, "values is empty, but the output has " + std::to_string(outputs) + " elements");
  }
  if constexpr (debug_checks) {
    const std::int64_t m = scan.extent(0);
    std::int64_t first = m;
    Kokkos::parallel_reduce(
        "Ordo::check_intervals",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, m),
        FirstOutsideInterval<Scan, Starts>{scan, starts, outputs, values},
        Kokkos::Min<std::int64_t>(first));
    space.fence("Ordo: check of the intervals");
    if (first < m) {
      fail(fn, "item " + std::to_string(first) + "'s interval of values is not inside values (" +
                   std::to_string(values) + " elements)");
    }
  }
}

}  // namespace Ordo::Impl

#endif
