// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_SORTEDSEARCH_HPP
#define ORDO_SORTEDSEARCH_HPP

// Vectorized sorted search (moderngpu's): bounds of sorted needles in a sorted haystack in one
// merge-like pass, the complete search (both directions, match flags, match counts), equality
// counts, and binary searches for needles in any order.

#include <Ordo_Comparators.hpp>
#include <Ordo_SearchTypes.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_SortedSearchImpl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo {

/// For sorted a (needles) and sorted b (haystack): a_index[i] = the lower (or upper) bound of
/// a[i] in b, in one pass over both (O(|a| + |b|)); on CUDA, where a and b together hold at most
/// 2^19 elements, one binary search a needle (one launch; docs/ALGORITHMS.md). a_index may be
/// longer; its tail is left as it was. Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class AView, class BView, class IndexView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<IndexView>,
                           int> = 0>
void sorted_search(const ExecSpace& space, const AView& a, const BView& b, const IndexView& a_index,
                   Bounds bounds, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sorted_search";
  const Impl::Region region(fn);
  Impl::check_index_output<ExecSpace>(fn, "a_index", a_index, a.extent(0), b.extent(0));
  Impl::check_no_alias(fn, "a_index", a_index, "a", a, "b", b);
  Impl::check_all_reachable<ExecSpace>(fn, "a_index", a_index);
  Impl::check_search_inputs(fn, space, a, b, comp);
  const Impl::WorkspaceReservation reservation(
      fn, space, [&] { return Impl::merge_path_bound(std::int64_t(a.extent(0) + b.extent(0))); });
  Impl::index_search(space, a, b, a_index, bounds, comp);
}

/// The complete search. With Bounds::lower: a_index = lower bounds of A into B and
/// b_index = upper bounds of B into A; with Bounds::upper the reverse. a_match[i] = 1 when b holds
/// an element equal to a[i] (equal: neither orders before the other), b_match likewise. Writes
/// {matches of A, matches of B} to counts(0), counts(1).
/// Synchronization: asynchronous on `space` (no fence, no host round trip).
template <
    class ExecSpace, class AView, class BView, class AI, class AM, class BI, class BM, class Counts,
    class Comp = less<>,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<Counts>, int> = 0>
void sorted_search(const ExecSpace& space, const AView& a, const BView& b,
                   const SearchOutputs<AI, AM, BI, BM>& outputs, Bounds bounds,
                   const Counts& counts, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sorted_search";
  const Impl::Region region(fn);
  Impl::check_index_output<ExecSpace>(fn, "counts", counts, 2,
                                      a.extent(0) > b.extent(0) ? a.extent(0) : b.extent(0));
  Impl::check_no_alias(fn, "counts", counts, "a", a, "b", b, "a_index", outputs.a_index, "a_match",
                       outputs.a_match, "b_index", outputs.b_index, "b_match", outputs.b_match);
  Impl::check_all_reachable<ExecSpace>(fn, "counts", counts);
  Impl::check_complete_search(fn, space, a, b, outputs, comp);
  const Impl::WorkspaceReservation reservation(
      fn, space, [&] { return Impl::merge_path_bound(std::int64_t(a.extent(0) + b.extent(0))); });
  Impl::complete_search(space, a, b, outputs, bounds, counts, comp);
}

/// The complete search, returning the match counts.
/// Synchronization: fences `space` before returning (the counts are read back to the host).
template <
    class ExecSpace, class AView, class BView, class AI, class AM, class BI, class BM,
    class Comp = less<>,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Comp>, int> = 0>
MatchCounts sorted_search(const ExecSpace& space, const AView& a, const BView& b,
                          const SearchOutputs<AI, AM, BI, BM>& outputs, Bounds bounds,
                          const Comp& comp = Comp{}) {
  const Impl::Region region("Ordo::sorted_search");
  Impl::check_complete_search("Ordo::sorted_search", space, a, b, outputs, comp);
  const Impl::WorkspaceReservation reservation("Ordo::sorted_search", space, [&] {
    return Impl::merge_path_bound(std::int64_t(a.extent(0) + b.extent(0)));
  });
  const auto counts = Impl::workspace<std::int64_t>(space, 2, Impl::WorkspaceSlot::counts);
  Impl::complete_search(space, a, b, outputs, bounds, counts, comp);
  const auto host = Impl::read_back<2>(space, counts, "Ordo::sorted_search: fence");
  return MatchCounts{host[0], host[1]};
}

/// sorted_search on a_index's execution space. Synchronization: fences that space.
template <class AView, class BView, class IndexView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AView> && Kokkos::is_view_v<IndexView>, int> = 0>
void sorted_search(const AView& a, const BView& b, const IndexView& a_index, Bounds bounds,
                   const Comp& comp = Comp{}) {
  using ExecSpace = typename IndexView::execution_space;
  const ExecSpace space;
  sorted_search(space, a, b, a_index, bounds, comp);
  space.fence("Ordo::sorted_search: fence");
}

/// The complete search on a's execution space. Synchronization: fences that space.
template <class AView, class BView, class AI, class AM, class BI, class BM, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AView>, int> = 0>
MatchCounts sorted_search(const AView& a, const BView& b,
                          const SearchOutputs<AI, AM, BI, BM>& outputs, Bounds bounds,
                          const Comp& comp = Comp{}) {
  return sorted_search(typename AView::execution_space(), a, b, outputs, bounds, comp);
}

/// counts[i] = how many elements of b equal a[i] (its upper bound minus its lower bound), for
/// sorted a and b. Two walks: the lower bounds go to counts, the
/// second walk finds the upper bounds and stores the differences, with no third pass.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class AView, class BView, class CountView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sorted_equality_count(const ExecSpace& space, const AView& a, const BView& b,
                           const CountView& counts, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sorted_equality_count";
  const Impl::Region region(fn);
  Impl::check_index_output<ExecSpace>(fn, "counts", counts, a.extent(0), b.extent(0));
  Impl::check_no_alias(fn, "counts", counts, "a", a, "b", b);
  Impl::check_all_reachable<ExecSpace>(fn, "counts", counts);
  Impl::check_search_inputs(fn, space, a, b, comp);
  const Impl::WorkspaceReservation reservation(
      fn, space, [&] { return Impl::merge_path_bound(std::int64_t(a.extent(0) + b.extent(0))); });
  Impl::equality_count(space, a, b, counts, comp);
}

/// sorted_equality_count on counts' execution space. Synchronization: fences that space.
template <class AView, class BView, class CountView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AView>, int> = 0>
void sorted_equality_count(const AView& a, const BView& b, const CountView& counts,
                           const Comp& comp = Comp{}) {
  using ExecSpace = typename CountView::execution_space;
  const ExecSpace space;
  sorted_equality_count(space, a, b, counts, comp);
  space.fence("Ordo::sorted_equality_count: fence");
}

/// out[i] = the lower bound of needles[i] in the sorted haystack, for needles in any order (one
/// binary search per needle). For sorted needles, sorted_search is faster: the caller knows which
/// it has; Ordo never guesses from the data. Synchronization: asynchronous on `space`.
template <class ExecSpace, class Haystack, class Needles, class Out, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void lower_bound(const ExecSpace& space, const Haystack& haystack, const Needles& needles,
                 const Out& out, const Comp& comp = Comp{}) {
  const Impl::Region region("Ordo::lower_bound");
  const Impl::WorkspaceReservation reservation("Ordo::lower_bound", space, [&] {
    return Impl::merge_path_bound(std::int64_t(haystack.extent(0) + needles.extent(0)));
  });
  Impl::binary_search_all<false>("Ordo::lower_bound", "Ordo::lower_bound::search", space, haystack,
                                 needles, out, comp);
}

/// out[i] = the upper bound of needles[i] in the sorted haystack, needles in any order.
/// Synchronization: asynchronous on `space`.
template <class ExecSpace, class Haystack, class Needles, class Out, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void upper_bound(const ExecSpace& space, const Haystack& haystack, const Needles& needles,
                 const Out& out, const Comp& comp = Comp{}) {
  const Impl::Region region("Ordo::upper_bound");
  const Impl::WorkspaceReservation reservation("Ordo::upper_bound", space, [&] {
    return Impl::merge_path_bound(std::int64_t(haystack.extent(0) + needles.extent(0)));
  });
  Impl::binary_search_all<true>("Ordo::upper_bound", "Ordo::upper_bound::search", space, haystack,
                                needles, out, comp);
}

/// lower_bound on out's execution space. Synchronization: fences that space.
template <class Haystack, class Needles, class Out, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<Haystack>, int> = 0>
void lower_bound(const Haystack& haystack, const Needles& needles, const Out& out,
                 const Comp& comp = Comp{}) {
  const typename Out::execution_space space;
  lower_bound(space, haystack, needles, out, comp);
  space.fence("Ordo::lower_bound: fence");
}

/// upper_bound on out's execution space. Synchronization: fences that space.
template <class Haystack, class Needles, class Out, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<Haystack>, int> = 0>
void upper_bound(const Haystack& haystack, const Needles& needles, const Out& out,
                 const Comp& comp = Comp{}) {
  const typename Out::execution_space space;
  upper_bound(space, haystack, needles, out, comp);
  space.fence("Ordo::upper_bound: fence");
}

/// Team-level sorted search for use inside a user's TeamPolicy kernel: a_index[i] = the lower
/// (or upper) bound of a[i] in b, for sorted a and b; every thread of the team calls it with the
/// same arguments. Views may be global or scratch. Allocates nothing and needs no scratch
/// (sorted_search_team_scratch_size is 0). a_index must hold a.extent(0) elements (checked with
/// ORDO_ENABLE_DEBUG_CHECKS: Kokkos::abort). Synchronization: ends with a team barrier.
template <class Member, class AView, class BView, class IndexView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sorted_search_team(const Member& member, const AView& a, const BView& b,
                                               const IndexView& a_index, Bounds bounds,
                                               const Comp& comp = Comp{}) {
  Impl::kernel_check(a_index.extent(0) >= a.extent(0),
                     "Ordo::sorted_search_team: a_index is shorter than a");
  const std::int64_t chunks = member.team_size();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, chunks), [&](std::int64_t c) {
    if (bounds == Bounds::lower) {
      Impl::search_chunk(a, b, c, chunks, comp, Impl::IndexSink<true, IndexView>{a_index});
    } else {
      Impl::search_chunk(b, a, c, chunks, comp, Impl::IndexSink<false, IndexView>{a_index});
    }
  });
  member.team_barrier();
}

/// Scratch bytes sorted_search_team needs from the caller: none.
constexpr std::size_t sorted_search_team_scratch_size(std::size_t /*a_size*/,
                                                      std::size_t /*b_size*/) {
  return 0;
}

}  // namespace Ordo

#endif
