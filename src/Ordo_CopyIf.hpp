// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_COPYIF_HPP
#define ORDO_COPYIF_HPP

// Stream compaction: the elements of a View that a predicate (or a flag) selects,
// copied densely and in input order.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo {

/// Stable compaction: copies every in(i) with pred(in(i)) true to out, in input order, and
/// returns how many. Throws std::invalid_argument when out is too small for the selection (out
/// then holds its first out.extent(0) elements; nothing is written past its end).
/// Synchronization: fences `space` (the count is read back to the host).
template <class ExecSpace, class InView, class OutView, class Pred,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t copy_if(const ExecSpace& space, const InView& in, const OutView& out,
                     const Pred& pred) {
  constexpr const char* fn = "Ordo::copy_if";
  const Impl::Region region(fn);
  Impl::check_compaction<ExecSpace>(fn, in, out);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  return Impl::counted(fn, space, out.extent(0), [&](const auto& total) {
    Impl::copy_if_dispatch(fn, space, in, out, pred, total);
  });
}

/// The same, writing the selected count to count(0) instead of returning it (it may exceed
/// out.extent(0): out then holds the first out.extent(0) selected elements).
/// Synchronization: asynchronous on `space` (no fence, no host round trip).
template <class ExecSpace, class InView, class OutView, class Pred, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void copy_if(const ExecSpace& space, const InView& in, const OutView& out, const Pred& pred,
             const CountView& count) {
  constexpr const char* fn = "Ordo::copy_if";
  const Impl::Region region(fn);
  Impl::check_index_output<ExecSpace>(fn, "count", count, 1, in.extent(0));
  Impl::check_no_alias(fn, "count", count, "in", in);
  Impl::check_compaction<ExecSpace>(fn, in, out, "count", count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  Impl::copy_if_dispatch(fn, space, in, out, pred, count);
}

/// copy_if on out's execution space. Synchronization: fences that space.
template <class InView, class OutView, class Pred,
          std::enable_if_t<Kokkos::is_view_v<InView>, int> = 0>
std::int64_t copy_if(const InView& in, const OutView& out, const Pred& pred) {
  return copy_if(typename OutView::execution_space(), in, out, pred);
}

/// Unordered compaction: the same elements as copy_if, in any order (the order may differ from
/// run to run), for when order does not matter; one launch, one atomic per tile instead of the
/// look-back (on CUDA, warp ballots and aggregated atomics). Returns the count; errors as
/// copy_if.
/// Synchronization: fences `space`.
template <class ExecSpace, class InView, class OutView, class Pred,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t copy_if_unordered(const ExecSpace& space, const InView& in, const OutView& out,
                               const Pred& pred) {
  constexpr const char* fn = "Ordo::copy_if_unordered";
  const Impl::Region region(fn);
  Impl::check_compaction<ExecSpace>(fn, in, out);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  return Impl::compact_and_count<false>(fn, space, in.extent(0),
                                        Impl::SelectByPredicate<InView, Pred>{in, pred},
                                        Impl::EmitElement<InView, OutView>{in, out});
}

/// copy_if_unordered writing the selected count to count(0). Synchronization: asynchronous.
template <class ExecSpace, class InView, class OutView, class Pred, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void copy_if_unordered(const ExecSpace& space, const InView& in, const OutView& out,
                       const Pred& pred, const CountView& count) {
  constexpr const char* fn = "Ordo::copy_if_unordered";
  const Impl::Region region(fn);
  Impl::check_index_output<ExecSpace>(fn, "count", count, 1, in.extent(0));
  Impl::check_no_alias(fn, "count", count, "in", in);
  Impl::check_compaction<ExecSpace>(fn, in, out, "count", count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  Impl::compact_unordered_dispatch(space, in.extent(0),
                                   Impl::SelectByPredicate<InView, Pred>{in, pred},
                                   Impl::EmitElement<InView, OutView>{in, out}, count);
}

/// Stable compaction by flags: copies every in(i) with flags(i) nonzero, in input order, and
/// returns how many (errors as copy_if). Synchronization: fences `space`.
template <class ExecSpace, class InView, class FlagView, class OutView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t copy_flagged(const ExecSpace& space, const InView& in, const FlagView& flags,
                          const OutView& out) {
  constexpr const char* fn = "Ordo::copy_flagged";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, FlagView>();
  Impl::check_size_equal(fn, "flags", flags, in.extent(0), "one flag per element of in");
  Impl::check_compaction<ExecSpace>(fn, in, out, "flags", flags);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  return Impl::compact_and_count<true>(fn, space, in.extent(0), Impl::SelectByFlag<FlagView>{flags},
                                       Impl::EmitElement<InView, OutView>{in, out});
}

/// copy_flagged writing the selected count to count(0). Synchronization: asynchronous.
template <class ExecSpace, class InView, class FlagView, class OutView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void copy_flagged(const ExecSpace& space, const InView& in, const FlagView& flags,
                  const OutView& out, const CountView& count) {
  constexpr const char* fn = "Ordo::copy_flagged";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, FlagView>();
  Impl::check_size_equal(fn, "flags", flags, in.extent(0), "one flag per element of in");
  Impl::check_index_output<ExecSpace>(fn, "count", count, 1, in.extent(0));
  Impl::check_no_alias(fn, "count", count, "in", in, "flags", flags);
  Impl::check_compaction<ExecSpace>(fn, in, out, "flags", flags, "count", count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  Impl::compact_dispatch(space, in.extent(0), Impl::SelectByFlag<FlagView>{flags},
                         Impl::EmitElement<InView, OutView>{in, out}, count);
}

}  // namespace Ordo

#endif
