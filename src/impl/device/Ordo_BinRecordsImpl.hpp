// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_BINRECORDSIMPL_HPP
#define ORDO_IMPL_BINRECORDSIMPL_HPP

// Device level of bin_permutation with the particles' arrays: the permutation, the offsets and
// every array in cell order.
//   records   device backends, ids scattered over the cells: the radix sort of the ids
//             (Ordo_SortRadixImpl.hpp) carries every column of the arrays and the input positions
//             with its passes (RecordColumns), so that each pass reads the records in order and
//             writes each digit's run of a tile contiguously: two passes over the records for
//             2^16 cells, no random read (Ordo::sort::radix::*), then the offsets
//   gather    host backends, nearly sorted ids (the permutation's rows stay close, so a gather
//             streams) and elements wider than the stage: bin_permutation, then one gather
//             (Ordo::gather::rows)

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_BinningImpl.hpp>
#include <impl/device/Ordo_PermutationImpl.hpp>
#include <impl/device/Ordo_SortRadixImpl.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Ordo::Impl {

// The workspace copy of a View's columns between the passes: column c of a rank-2 View
// contiguous (LayoutLeft), so that a pass moves each column coalesced.
template <class View>
using ColumnCopy = WorkspaceCopy<Kokkos::LayoutLeft, View>;

// One slot per View the records carry.
enum class RecordSlot : int {};

// The end of the chain of carried Views.
struct RecordEnd {
  static constexpr std::size_t element_bytes = 0;
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_column(const F&) const {}
};

// One View of the chain: its columns (one for rank 1, extent(1) for rank 2), then the rest.
template <class Src, class Dst, class Next>
struct RecordLink {
  using T = typename Dst::non_const_value_type;
  static constexpr std::size_t element_bytes = sizeof(T) > Next::element_bytes
                                                   ? sizeof(T)
                                                   : Next::element_bytes;
  Src src;
  Dst dst;
  ColumnCopy<Dst> buffer;
  Next next;
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_column(const F& f) const {
    if constexpr (Dst::rank() == 2) {
      const std::int64_t m = dst.extent(1);
      for (std::int64_t c = 0; c < m; ++c) {
        f([&](std::int64_t i) -> T { return src(i, c); },
          [&](std::int64_t i) -> T& { return dst(i, c); },
          [&](std::int64_t i) -> T& { return buffer(i, c); });
      }
    } else {
      f([&](std::int64_t i) -> T { return src(i); }, [&](std::int64_t i) -> T& { return dst(i); },
        [&](std::int64_t i) -> T& { return buffer(i); });
    }
    next.for_each_column(f);
  }
};

// The carrier of the radix sort (Ordo_TileRadix.hpp): the input positions into perm, then every
// View's columns.
template <class PermView, class Chain>
struct RecordColumns {
  using Index = typename PermView::non_const_value_type;
  static constexpr bool carries = true;
  static constexpr std::size_t element_bytes = sizeof(Index) > Chain::element_bytes
                                                   ? sizeof(Index)
                                                   : Chain::element_bytes;
  PermView perm;
  WorkspaceView<Index, typename PermView::execution_space, typename PermView::memory_space>
      positions;
  Chain chain;
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_column(const F& f) const {
    f([](std::int64_t i) { return Index(i); }, [&](std::int64_t i) -> Index& { return perm(i); },
      [&](std::int64_t i) -> Index& { return positions(i); });
    chain.for_each_column(f);
  }
};

// The type of the chain of std::get<I>(srcs) -> std::get<I>(dsts) for every I from I on.
template <class Srcs, class Dsts, std::size_t I = 0, bool End = I == std::tuple_size_v<Srcs>>
struct RecordChainOf {
  using type = RecordEnd;
};
template <class Srcs, class Dsts, std::size_t I>
struct RecordChainOf<Srcs, Dsts, I, false> {
  using type = RecordLink<std::tuple_element_t<I, Srcs>, std::tuple_element_t<I, Dsts>,
                          typename RecordChainOf<Srcs, Dsts, I + 1>::type>;
};

// That chain, each View with its workspace copy.
template <std::size_t I = 0, class ExecSpace, class Srcs, class Dsts>
typename RecordChainOf<Srcs, Dsts, I>::type record_chain(const ExecSpace& space, const Srcs& srcs,
                                                         const Dsts& dsts) {
  if constexpr (I == std::tuple_size_v<Srcs>) {
    return RecordEnd{};
  } else {
    return {std::get<I>(srcs), std::get<I>(dsts),
            workspace_copy<Kokkos::LayoutLeft>(space, std::get<I>(dsts), RecordSlot(int(I))),
            record_chain<I + 1>(space, srcs, dsts)};
  }
}

// Whether the records way takes these ids and Views on ExecSpace: a device backend, ids of 4 or 8
// bytes, a carrier whose elements (the positions', every View's) are no wider than
// BinningTuning's record_element_max (a tile of one column is staged in team scratch).
template <class ExecSpace, class CellView, class PermView, class Srcs, class Dsts>
inline constexpr bool records_way_v =
    !is_host_space_v<ExecSpace> && sizeof(typename CellView::value_type) >= 4 &&
    RecordColumns<PermView, typename RecordChainOf<Srcs, Dsts>::type>::element_bytes <=
        BinningTuning<ExecSpace>::record_element_max;

// bin_permutation's checks of the arrays beyond gather's: every source holds n rows, and neither
// a destination nor a source overlaps the outputs.
template <class CellView, class PermView, class OffsetView, class Srcs, class Dsts,
          std::size_t... I>
void check_bin_arrays(const char* fn, std::size_t n, const CellView& cells, const PermView& perm,
                      const OffsetView& offsets, const Srcs& srcs, const Dsts& dsts,
                      std::index_sequence<I...>) {
  (check_size_equal(fn, "a source", std::get<I>(srcs), n, "one row per cell id"), ...);
  (check_no_alias(fn, "a destination", std::get<I>(dsts), "cells", cells, "offsets", offsets), ...);
  (check_no_alias(fn, "perm", perm, "a source", std::get<I>(srcs)), ...);
  (check_no_alias(fn, "offsets", offsets, "a source", std::get<I>(srcs)), ...);
}

// The radix sort's key of an id.
template <class Cell>
using CellCodec = Codec<Cell, less<>>;

// The records way's workspace (before reserved_bytes): the sort's, the sorted ids, the positions
// and a copy of every View.
template <class ExecSpace, class CellView, class PermView, class Dsts, std::size_t... I>
std::size_t bin_records_bound(std::int64_t n, const Dsts& dsts, std::index_sequence<I...>) {
  using Cell = typename CellView::non_const_value_type;
  using Index = typename PermView::non_const_value_type;
  using K = typename CellCodec<Cell>::Bits;
  using Carrier = RecordColumns<PermView, RecordEnd>;  // the tuning of any carrier
  return radix_sort_bound<ExecSpace, K, NoValue, Carrier>(n) + slot_bytes<Cell>(n) +
         slot_bytes<Index>(n) +
         (slot_bytes<typename std::tuple_element_t<I, Dsts>::non_const_value_type>(
              std::int64_t(std::get<I>(dsts).extent(0) * std::get<I>(dsts).extent(1))) +
          ... + 0);
}

// The records way (ids validated, n >= 1): the ids sorted into the workspace with the positions
// and every column carried, then the offsets from the sorted ids. warp: the CUDA ranking seam.
template <class ExecSpace, class CellView, class PermView, class OffsetView, class Srcs, class Dsts>
void bin_records(const ExecSpace& space, const CellView& cells, std::int64_t nbins,
                 const PermView& perm, const OffsetView& offsets, const Srcs& srcs,
                 const Dsts& dsts, bool warp) {
  const std::int64_t n = cells.extent(0);
  using Cell = typename CellView::non_const_value_type;
  using Index = typename PermView::non_const_value_type;
  using C = CellCodec<Cell>;
  const auto sorted = workspace<Cell>(space, n, WorkspaceSlot::bin_keys);
  const auto positions = workspace<Index, ExecSpace, typename PermView::memory_space>(
      space, n, WorkspaceSlot::bin_positions);
  const auto chain = record_chain(space, srcs, dsts);
  using Carrier = RecordColumns<PermView, decltype(chain)>;
  const Ends<CodecKeys<C, CellView>, NoEnd> source{{cells}, {}};
  const Ends<CodecKeys<C, decltype(sorted)>, NoEnd> sink{{sorted}, {}};
  radix_sort<ExecSpace, typename C::Bits, NoValue>(space, n, source, sink, warp,
                                                   Carrier{perm, positions, chain});
  fill_bin_offsets(space, sorted, nbins, offsets);
}

// bin_permutation with the arrays (argument checks done): the scan, then the identity and a copy
// (ids in order), the records way, or the permutation and one gather.
template <class ExecSpace, class CellView, class PermView, class OffsetView, class Srcs, class Dsts>
void bin_with_arrays_impl(const char* fn, const ExecSpace& space, const CellView& cells,
                          std::int64_t nbins, const PermView& perm, const OffsetView& offsets,
                          const Srcs& srcs, const Dsts& dsts) {
  const std::int64_t n = cells.extent(0);
  if (n == 0) {
    fill_bin_offsets(space, cells, nbins, offsets);
    return;
  }
  const CellOrder order = scan_cells(fn, space, cells, nbins);
  if (order.descents == 0) {
    identity_bins(space, cells, nbins, perm, offsets);
  } else {
    if constexpr (records_way_v<ExecSpace, CellView, PermView, Srcs, Dsts>) {
      using Tuning = BinningTuning<ExecSpace>;
      if (n >= Tuning::records_from && order.far_descents * Tuning::records_scattered > n) {
        bin_records(space, cells, nbins, perm, offsets, srcs, dsts, true);
        return;
      }
    }
    sort_bins(fn, space, cells, nbins, perm, offsets);
  }
  gather_impl("Ordo::gather::rows", space, perm, srcs, dsts);
}

}  // namespace Ordo::Impl

#endif
