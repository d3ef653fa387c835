// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_BINNING_HPP
#define ORDO_BINNING_HPP

// Particle cell lists: bin_permutation (the stable order of integer cell ids and the cells' CRS
// offsets, in one call) and gather (every array of a particle set reordered out of place, in one
// launch), with views(...), the list of Views gather takes.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_BinRecordsImpl.hpp>
#include <impl/device/Ordo_BinningImpl.hpp>
#include <impl/device/Ordo_PermutationImpl.hpp>
#include <impl/device/Ordo_SortImpl.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Ordo {

/// A list of Views for gather: Ordo::views(x, v, mass).
template <class... Views>
struct ViewList {
  std::tuple<Views...> views;  ///< the Views, in the order given
};

/// The list of the Views given, in that order (each copied: a View is a handle).
template <class... Views>
ViewList<Views...> views(const Views&... v) {
  static_assert((Kokkos::is_view_v<Views> && ...), "Ordo::views takes Kokkos::Views");
  return ViewList<Views...>{std::tuple<Views...>(v...)};
}

/// Out-of-place gather: for every pair k, dst[k](i) = src[k](perm(i)) for i in [0, perm.extent(0)),
/// rank-1 Views element by element and rank-2 Views (View<double*[3]>, LayoutLeft, LayoutRight or
/// strided) row by row: dst[k](i, c) = src[k](perm(i), c). Every pair in one launch that reads
/// perm once. A particle code that double-buffers its arrays gathers into the second set and
/// swaps; nothing is saved first (apply_permutation reorders in place with the same kernel,
/// after saving the Views). perm holds integers; each destination holds perm.extent(0) rows of its
/// source's value type (and row length); a source may have any number of rows. Errors
/// (std::invalid_argument, before any kernel): sizes, a destination overlapping perm, a source or
/// another destination, unreachable memory. perm's entries must be rows of every source (checked
/// with ORDO_ENABLE_DEBUG_CHECKS; without, a position whose entry is not a row of a source keeps
/// that destination's row). Allocates nothing. Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class PermView, class... Srcs, class... Dsts,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void gather(const ExecSpace& space, const PermView& perm, const ViewList<Srcs...>& src,
            const ViewList<Dsts...>& dst) {
  constexpr const char* fn = "Ordo::gather";
  const Impl::Region region(fn);
  static_assert(sizeof...(Srcs) > 0, "Ordo::gather: no View to gather");
  static_assert(sizeof...(Srcs) == sizeof...(Dsts),
                "Ordo::gather: as many destination Views as source Views");
  Impl::static_check_views<ExecSpace, PermView>();
  static_assert(std::is_integral_v<typename PermView::value_type>, "Ordo: perm holds integers");
  Impl::check_all_reachable<ExecSpace>(fn, "perm", perm);
  using Seq = std::index_sequence_for<Srcs...>;
  Impl::check_gather<ExecSpace>(fn, perm, src.views, dst.views, Seq{});
  if constexpr (Impl::debug_checks) {
    Impl::check_permutation_range(fn, space, perm, Impl::fewest_rows(src.views, Seq{}));
  }
  Impl::gather_impl("Ordo::gather::rows", space, perm, src.views, dst.views);
}

/// gather on perm's execution space. Synchronization: fences that space before returning.
template <class PermView, class... Srcs, class... Dsts,
          std::enable_if_t<Kokkos::is_view_v<PermView>, int> = 0>
void gather(const PermView& perm, const ViewList<Srcs...>& src, const ViewList<Dsts...>& dst) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  gather(space, perm, src, dst);
  space.fence("Ordo::gather: fence");
}

/// A particle code's cell list in one call: for integer cell ids in [0, nbins), perm gets the
/// stable permutation that orders the particles by cell (perm(i) = the particle at sorted
/// position i; equal cells keep their input order) and offsets the cells' CRS offsets: cell c's
/// particles are perm[offsets(c), offsets(c + 1)), empty cells included, offsets(nbins) = n.
/// Ids already in order take one pass (perm the identity); otherwise on CUDA the vendor radix sort
/// over the bits nbins needs (2^16 cells: two 8-bit passes), on host backends a counting sort of
/// one chunk a thread, elsewhere Ordo's stable sort; the offsets come from the sorted ids.
/// Errors (std::invalid_argument): sizes (perm: n, offsets: nbins + 1), capacities, aliasing,
/// nbins < 0, unreachable memory, n >= 2^32 - 1, before any kernel; a cell id outside [0, nbins)
/// is found by the first pass and raised before any output is written (perm and offsets are
/// unchanged), naming the first such particle. Synchronization: fences `space` (the first pass is
/// read back).
template <class ExecSpace, class CellView, class PermView, class OffsetView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void bin_permutation(const ExecSpace& space, const CellView& cells, std::int64_t nbins,
                     const PermView& perm, const OffsetView& offsets) {
  constexpr const char* fn = "Ordo::bin_permutation";
  const Impl::Region region(fn);
  const std::size_t n = cells.extent(0);
  Impl::check_bin_permutation_arguments<ExecSpace>(fn, cells, nbins, perm, offsets);
  using Cell = typename CellView::non_const_value_type;
  using Index = typename PermView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::bin_permutation_bound<ExecSpace, Cell, Index>(std::int64_t(n), nbins);
  });
  Impl::bin_permutation_impl(fn, space, cells, nbins, perm, offsets);
}

/// bin_permutation on perm's execution space. Synchronization: fences that space.
template <class CellView, class PermView, class OffsetView,
          std::enable_if_t<Kokkos::is_view_v<CellView>, int> = 0>
void bin_permutation(const CellView& cells, std::int64_t nbins, const PermView& perm,
                     const OffsetView& offsets) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  bin_permutation(space, cells, nbins, perm, offsets);
  space.fence("Ordo::bin_permutation: fence");
}

/// bin_permutation, and the particles' arrays in cell order in the same call: for every pair k,
/// dst[k](i) = src[k](perm(i)) (rank-2 Views row by row), as gather(perm, src, dst) after
/// bin_permutation would give, bit for bit. On device backends, where the ids are scattered over
/// the cells, Ordo's radix sort of the ids carries every column of the arrays with its passes:
/// each pass reads the particles in order and writes each cell range's run of a tile contiguously
/// (2^16 cells: two passes), where a gather reads a 32-byte sector for every element. Nearly
/// sorted ids (the rows of a cell close together: a re-binning after a time step), host backends
/// and elements wider than 8 bytes take bin_permutation and one gather. Each source holds n rows
/// (one a cell id); destinations as for gather. The workspace is bin_permutation's and, on the
/// radix sort's way, a copy of every array, the sorted ids and the positions (about the arrays'
/// bytes plus 16 bytes a particle, reserved before anything runs: Ordo::set_workspace_limit).
/// Errors (std::invalid_argument, before any kernel): those of bin_permutation and gather, a source
/// of another length, a destination overlapping cells or offsets, a source overlapping perm or
/// offsets; a cell id outside [0, nbins) as bin_permutation (every output unchanged).
/// Synchronization: fences `space` (the first pass is read back).
template <class ExecSpace, class CellView, class PermView, class OffsetView, class... Srcs,
          class... Dsts, std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void bin_permutation(const ExecSpace& space, const CellView& cells, std::int64_t nbins,
                     const PermView& perm, const OffsetView& offsets, const ViewList<Srcs...>& src,
                     const ViewList<Dsts...>& dst) {
  constexpr const char* fn = "Ordo::bin_permutation";
  const Impl::Region region(fn);
  static_assert(sizeof...(Srcs) > 0, "Ordo::bin_permutation: no View to order");
  static_assert(sizeof...(Srcs) == sizeof...(Dsts),
                "Ordo::bin_permutation: as many destination Views as source Views");
  const std::size_t n = cells.extent(0);
  Impl::check_bin_permutation_arguments<ExecSpace>(fn, cells, nbins, perm, offsets);
  using Seq = std::index_sequence_for<Srcs...>;
  Impl::check_gather<ExecSpace>(fn, perm, src.views, dst.views, Seq{});
  Impl::check_bin_arrays(fn, n, cells, perm, offsets, src.views, dst.views, Seq{});
  using Cell = typename CellView::non_const_value_type;
  using Index = typename PermView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    std::size_t bound = Impl::bin_permutation_bound<ExecSpace, Cell, Index>(std::int64_t(n), nbins);
    if constexpr (Impl::records_way_v<ExecSpace, CellView, PermView, std::tuple<Srcs...>,
                                      std::tuple<Dsts...>>) {
      bound = std::max(bound, Impl::bin_records_bound<ExecSpace, CellView, PermView>(
                                  std::int64_t(n), dst.views, Seq{}));
    }
    return bound;
  });
  Impl::bin_with_arrays_impl(fn, space, cells, nbins, perm, offsets, src.views, dst.views);
}

/// bin_permutation with the arrays on perm's execution space. Synchronization: fences that space.
template <class CellView, class PermView, class OffsetView, class... Srcs, class... Dsts,
          std::enable_if_t<Kokkos::is_view_v<CellView>, int> = 0>
void bin_permutation(const CellView& cells, std::int64_t nbins, const PermView& perm,
                     const OffsetView& offsets, const ViewList<Srcs...>& src,
                     const ViewList<Dsts...>& dst) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  bin_permutation(space, cells, nbins, perm, offsets, src, dst);
  space.fence("Ordo::bin_permutation: fence");
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) bin_permutation takes on n cell
/// ids of type Cell in nbins cells with a perm of Index; the call reserves this much before
/// anything runs (Ordo::set_workspace_limit). gather takes none.
template <class ExecSpace, class Cell, class Index = std::uint32_t>
std::size_t bin_permutation_workspace_bytes(std::size_t n, std::size_t nbins) {
  return Impl::reserved_bytes<ExecSpace>(
      Impl::bin_permutation_bound<ExecSpace, Cell, Index>(std::int64_t(n), std::int64_t(nbins)));
}

}  // namespace Ordo

#endif
