// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_LOADBALANCE_HPP
#define ORDO_LOADBALANCE_HPP

// The load-balancing search and the interval operations built on it (moderngpu's): work given
// as per-item counts, spread evenly over output positions. counts_scan is the exclusive scan of
// the counts (counts_scan(i) = the first output position of item i, counts_scan(0) = 0, non-
// decreasing); the output's extent N is the total. Output position k belongs to item
// item(k) = the last i with counts_scan(i) <= k (items with a zero count own no position) and is
// its rank(k) = k - counts_scan(item(k))-th output. One sorted search of the positions into the
// scan: every output costs the same, whatever the counts.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_LoadBalanceImpl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo {

/// out_item(k) = item(k) and out_rank(k) = rank(k) for every k in [0, out_item.extent(0)) (see
/// above); out_rank may have extent 0 (no ranks) or at least out_item's.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class Scan, class ItemView, class RankView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void load_balancing_search(const ExecSpace& space, const Scan& counts_scan,
                           const ItemView& out_item, const RankView& out_rank) {
  constexpr const char* fn = "Ordo::load_balancing_search";
  const Impl::Region region(fn);
  const std::int64_t outputs = out_item.extent(0);
  // Items go up to counts_scan.extent(0) - 1, ranks to outputs - 1.
  Impl::check_index_output<ExecSpace>(fn, "out_item", out_item, 0,
                                      Impl::largest_index(counts_scan.extent(0)));
  if (out_rank.extent(0) != 0) {
    Impl::check_index_output<ExecSpace>(fn, "out_rank", out_rank, outputs,
                                        Impl::largest_index(outputs));
  }
  Impl::check_no_alias(fn, "out_item", out_item, "counts_scan", counts_scan);
  Impl::check_no_alias(fn, "out_rank", out_rank, "counts_scan", counts_scan, "out_item", out_item);
  Impl::check_all_reachable<ExecSpace>(fn, "out_item", out_item, "out_rank", out_rank);
  Impl::check_counts_scan(fn, space, counts_scan, outputs);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::merge_path_bound(std::int64_t(counts_scan.extent(0) + outputs));
  });
  Impl::load_balance("load_balancing_search", space, counts_scan, outputs,
                     Impl::ItemStore<ItemView, RankView>{out_item, out_rank});
}

/// The same without the ranks.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class Scan, class ItemView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void load_balancing_search(const ExecSpace& space, const Scan& counts_scan,
                           const ItemView& out_item) {
  load_balancing_search(space, counts_scan, out_item,
                        Kokkos::View<std::int64_t*, typename ItemView::memory_space>());
}

/// interval_expand: out(k) = values(item(k)) for k in [0, out.extent(0)): each value repeated
/// its item's count times. values holds one value per item.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class Scan, class Values, class Out,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void interval_expand(const ExecSpace& space, const Scan& counts_scan, const Values& values,
                     const Out& out) {
  constexpr const char* fn = "Ordo::interval_expand";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, Values, Out>();
  Impl::check_size_equal(fn, "values", values, counts_scan.extent(0), "one value per item");
  Impl::check_no_alias(fn, "out", out, "counts_scan", counts_scan, "values", values);
  Impl::check_all_reachable<ExecSpace>(fn, "values", values, "out", out);
  Impl::check_counts_scan(fn, space, counts_scan, out.extent(0));
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::merge_path_bound(std::int64_t(counts_scan.extent(0) + out.extent(0)));
  });
  Impl::load_balance("interval_expand", space, counts_scan, out.extent(0),
                     Impl::ExpandStore<Values, Out>{values, out});
}

/// interval_gather: out(k) = values(starts(item(k)) + rank(k)) for k in [0, out.extent(0)):
/// item i's interval values[starts(i), starts(i) + count(i)) copied to its output positions.
/// Every interval must lie inside values (checked with ORDO_ENABLE_DEBUG_CHECKS; without, an
/// interval that leaves values reads its nearest element instead, never outside values).
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class Scan, class Starts, class Values, class Out,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void interval_gather(const ExecSpace& space, const Scan& counts_scan, const Starts& starts,
                     const Values& values, const Out& out) {
  constexpr const char* fn = "Ordo::interval_gather";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, Starts, Values, Out>();
  Impl::check_size_equal(fn, "starts", starts, counts_scan.extent(0), "one start per item");
  Impl::check_no_alias(fn, "out", out, "counts_scan", counts_scan, "starts", starts, "values",
                       values);
  Impl::check_all_reachable<ExecSpace>(fn, "starts", starts, "values", values, "out", out);
  Impl::check_counts_scan(fn, space, counts_scan, out.extent(0));
  Impl::check_intervals(fn, space, counts_scan, starts, values.extent(0), out.extent(0));
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::merge_path_bound(std::int64_t(counts_scan.extent(0) + out.extent(0)));
  });
  Impl::load_balance("interval_gather", space, counts_scan, out.extent(0),
                     Impl::GatherStore<Starts, Values, Out>{starts, values, out});
}

/// load_balancing_search on out_item's execution space. Synchronization: fences that space.
template <class Scan, class ItemView, std::enable_if_t<Kokkos::is_view_v<Scan>, int> = 0>
void load_balancing_search(const Scan& counts_scan, const ItemView& out_item) {
  const typename ItemView::execution_space space;
  load_balancing_search(space, counts_scan, out_item);
  space.fence("Ordo::load_balancing_search: fence");
}

}  // namespace Ordo

#endif
