// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MERGE_HPP
#define ORDO_MERGE_HPP

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_MergeImpl.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace Ordo {

/// Stable merge of sorted a and b into out[0, |a| + |b|): on ties every element of a comes before
/// the equal elements of b. out may be longer; its tail is left as it was.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class AView, class BView, class OutView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void merge(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
           const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::merge";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, AView, BView, OutView>();
  Impl::check_size_at_least(fn, "out", out, a.extent(0) + b.extent(0));
  Impl::check_no_alias(fn, "out", out, "a", a, "b", b);
  Impl::check_all_reachable<ExecSpace>(fn, "a", a, "b", b, "out", out);
  if constexpr (Impl::debug_checks) {
    Impl::check_sorted(fn, "a", space, a, comp);
    Impl::check_sorted(fn, "b", space, b, comp);
  }
  const Impl::WorkspaceReservation reservation(
      fn, space, [&] { return Impl::merge_path_bound(std::int64_t(a.extent(0) + b.extent(0))); });
  Impl::merge_dispatch(space, a, b, out, Impl::NoValues{}, comp);
}

/// merge on out's execution space. Synchronization: fences that space before returning.
template <class AView, class BView, class OutView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AView>, int> = 0>
void merge(const AView& a, const BView& b, const OutView& out, const Comp& comp = Comp{}) {
  using ExecSpace = typename OutView::execution_space;
  const ExecSpace space;
  merge(space, a, b, out, comp);
  space.fence("Ordo::merge: fence");
}

/// Stable merge of the keys of two sorted key-value sequences; each value moves with its key.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class AKeys, class AValues, class BKeys, class BValues, class OutKeys,
          class OutValues, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void merge_by_key(const ExecSpace& space, const AKeys& a_keys, const AValues& a_values,
                  const BKeys& b_keys, const BValues& b_values, const OutKeys& out_keys,
                  const OutValues& out_values, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::merge_by_key";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, AKeys, AValues, BKeys, BValues, OutKeys, OutValues>();
  const std::size_t total = a_keys.extent(0) + b_keys.extent(0);
  Impl::check_size_equal(fn, "a_values", a_values, a_keys.extent(0), "one value per key of a");
  Impl::check_size_equal(fn, "b_values", b_values, b_keys.extent(0), "one value per key of b");
  Impl::check_size_at_least(fn, "out_keys", out_keys, total);
  Impl::check_size_at_least(fn, "out_values", out_values, total);
  Impl::check_no_alias(fn, "out_keys", out_keys, "a_keys", a_keys, "b_keys", b_keys, "a_values",
                       a_values, "b_values", b_values);
  Impl::check_no_alias(fn, "out_values", out_values, "a_keys", a_keys, "b_keys", b_keys, "a_values",
                       a_values, "b_values", b_values, "out_keys", out_keys);
  Impl::check_all_reachable<ExecSpace>(fn, "a_keys", a_keys, "a_values", a_values, "b_keys", b_keys,
                                       "b_values", b_values, "out_keys", out_keys, "out_values",
                                       out_values);
  if constexpr (Impl::debug_checks) {
    Impl::check_sorted(fn, "a_keys", space, a_keys, comp);
    Impl::check_sorted(fn, "b_keys", space, b_keys, comp);
  }
  const Impl::WorkspaceReservation reservation(
      fn, space, [&] { return Impl::merge_path_bound(std::int64_t(total)); });
  Impl::merge_dispatch(
      space, a_keys, b_keys, out_keys,
      Impl::MergeValues<AValues, BValues, OutValues>{a_values, b_values, out_values}, comp);
}

/// merge_by_key on out_keys' execution space. Synchronization: fences that space before returning.
template <class AKeys, class AValues, class BKeys, class BValues, class OutKeys, class OutValues,
          class Comp = less<>, std::enable_if_t<Kokkos::is_view_v<AKeys>, int> = 0>
void merge_by_key(const AKeys& a_keys, const AValues& a_values, const BKeys& b_keys,
                  const BValues& b_values, const OutKeys& out_keys, const OutValues& out_values,
                  const Comp& comp = Comp{}) {
  using ExecSpace = typename OutKeys::execution_space;
  const ExecSpace space;
  merge_by_key(space, a_keys, a_values, b_keys, b_values, out_keys, out_values, comp);
  space.fence("Ordo::merge_by_key: fence");
}

/// Team-level stable merge for use inside a user's TeamPolicy kernel: every thread of the team
/// calls it with the same arguments; a, b and out may be global or scratch Views. Allocates
/// nothing and needs no scratch of its own (merge_team_scratch_size is 0). out must hold
/// a.extent(0) + b.extent(0) elements (checked with ORDO_ENABLE_DEBUG_CHECKS: Kokkos::abort).
/// Synchronization: ends with a team barrier, after which out is complete.
template <class Member, class AView, class BView, class OutView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void merge_team(const Member& member, const AView& a, const BView& b,
                                       const OutView& out, const Comp& comp = Comp{}) {
  Impl::kernel_check(out.extent(0) >= a.extent(0) + b.extent(0),
                     "Ordo::merge_team: out is shorter than a and b together");
  const std::int64_t chunks = member.team_size();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, chunks), [&](std::int64_t c) {
    Impl::merge_chunk(a, b, out, c, chunks, comp, Impl::NoEmit{});
  });
  member.team_barrier();
}

/// Scratch bytes merge_team needs from the caller: none.
constexpr std::size_t merge_team_scratch_size(std::size_t /*a_size*/, std::size_t /*b_size*/) {
  return 0;
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) of the merge-path calls over
/// `total` elements: merge and merge_by_key (both inputs), sorted_search and
/// sorted_equality_count (both inputs), lower_bound and upper_bound (haystack and needles), the
/// load-balancing search, interval_expand and interval_gather (the scan and the outputs). A few
/// bytes per tile; the call reserves this much before anything runs (Ordo::set_workspace_limit).
template <class ExecSpace>
std::size_t merge_workspace_bytes(std::size_t total) {
  return Impl::reserved_bytes<ExecSpace>(Impl::merge_path_bound(std::int64_t(total)));
}

}  // namespace Ordo

#endif
