// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_BINNINGIMPL_HPP
#define ORDO_IMPL_BINNINGIMPL_HPP

// Device level of bin_permutation: the stable permutation that orders integer cell ids in
// [0, nbins), and the cells' CRS offsets.
//   scan      one read of the cells (Ordo::bin_permutation::scan): the first id outside
//             [0, nbins), and how many ids order before the one before them; read back, so that
//             bad ids raise before any output is written
//   sorted    ids already in order: the identity and the offsets in one pass
//             (Ordo::bin_permutation::identity)
//   vendor    CUDA with the vendor seam, contiguous Views: the vendor radix sort of (id, position)
//             over the bits nbins needs only (2^16 cells: two passes of eight bits), then the
//             offsets from the sorted ids (Ordo::bin_permutation::offsets)
//   counting  host backends: a counting sort, one chunk of the ids a thread (count, one scan of
//             the threads' counts, stable scatter), where the threads' counts stay small beside n
//   sort      otherwise Ordo's stable sort of the ids (Ordo_SortImpl.hpp) into the workspace,
//             then the offsets

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_HostCountingImpl.hpp>
#include <impl/device/Ordo_RunsImpl.hpp>
#include <impl/device/Ordo_SortBounds.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/device/Ordo_SortVendorImpl.hpp>
#include <impl/device/Ordo_VendorCalls.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// The device passes over the ids: BinningTuning's items positions a thread, strided by the
// threads, so that a warp's loads stay coalesced and each thread keeps several in flight (one
// 4-byte element a thread leaves too few bytes in flight to fill a GPU's memory).
template <int Items, class F>
struct Strided {
  F f;
  std::int64_t n, stride;
  template <class... Results>
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t, Results&... results) const {
    for (int k = 0; k < Items; ++k) {
      const std::int64_t i = t + k * stride;
      if (i < n) f(i, results...);
    }
  }
};

// f(i) for i in [0, n), or a reduction of f(i, results...) into the reducers.
template <class ExecSpace, class F, class... Reducers>
void over_ids(const char* label, const ExecSpace& space, std::int64_t n, const F& f,
              const Reducers&... reducers) {
  constexpr int items = BinningTuning<ExecSpace>::items;
  const std::int64_t stride = (n + items - 1) / items;
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> range(space, 0, stride);
  if constexpr (sizeof...(Reducers) == 0) {
    Kokkos::parallel_for(label, range, Strided<items, F>{f, n, stride});
  } else {
    Kokkos::parallel_reduce(label, range, Strided<items, F>{f, n, stride}, reducers...);
  }
}

// The offsets of sorted ids (validated by the scan: FillBinOffsets clamps every write all the
// same).
template <class CellView, class OffsetView>
struct SortedBins {
  FillBinOffsets<CellView, OffsetView> fill;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    int errors = 0;
    fill(i, errors);
  }
};

template <class ExecSpace, class CellView, class OffsetView>
void fill_bin_offsets(const ExecSpace& space, const CellView& sorted, std::int64_t nbins,
                      const OffsetView& offsets) {
  const std::int64_t n = sorted.extent(0);
  over_ids("Ordo::bin_permutation::offsets", space, n + 1,
           SortedBins<CellView, OffsetView>{{sorted, offsets, n, nbins}});
}

// The scan every call makes: the first bad id (a minimum), how many ids order before the id
// before them, and how many lie more than `near` cells below it (sums).
template <class CellView>
struct ScanCells {
  CellView cells;
  std::int64_t n, nbins, near;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& first_bad,
                                         std::int64_t& descents, std::int64_t& far) const {
    const auto c = cells(i);
    if (!key_in_bins(c, nbins) && i < first_bad) first_bad = i;
    if (i > 0 && c < cells(i - 1)) {
      ++descents;
      if (std::int64_t(cells(i - 1)) - std::int64_t(c) > near) ++far;
    }
  }
};

// Ids in order: perm(i) = i and the offsets, from one read of the ids.
template <class CellView, class PermView, class OffsetView>
struct IdentityBins {
  FillBinOffsets<CellView, OffsetView> fill;
  PermView perm;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    int errors = 0;
    fill(i, errors);
    if (i < fill.n) perm(i) = typename PermView::non_const_value_type(i);
  }
};

// The bits a sort of ids in [0, nbins) must look at.
inline int bin_bits(std::int64_t nbins) {
  return nbins > 1 ? 64 - Kokkos::countl_zero(std::uint64_t(nbins - 1)) : 1;
}

// ---- host backends: counting sort ------------------------------------------------------------

// The chunks of the counting sort: one a thread, none smaller than BinningTuning's host_grain.
template <class ExecSpace>
std::int64_t host_bin_chunks(std::int64_t n, std::int64_t concurrency) {
  return host_counting_chunks(n, concurrency, BinningTuning<ExecSpace>::host_grain);
}

// Whether the counting sort takes n ids in nbins cells: its counts (a row of nbins a chunk) stay
// within BinningTuning's counts_per_id of n.
template <class ExecSpace>
bool host_counting_bins(std::int64_t n, std::int64_t nbins, std::int64_t concurrency) {
  using Tuning = BinningTuning<ExecSpace>;
  return host_bin_chunks<ExecSpace>(n, concurrency) * nbins <=
         Tuning::counts_per_id * n + Tuning::counts_floor;
}

// The counting sort's pass: item i is its id and position; ids outside [0, nbins) are dropped.
template <class CellView, class PermView>
struct CountingBinsPass {
  using Cell = typename CellView::non_const_value_type;
  using Index = typename PermView::non_const_value_type;
  struct Item {
    Cell cell;
    std::int64_t i;
  };
  CellView cells;
  PermView perm;
  std::int64_t nbins;
  Item item(std::int64_t i) const { return {cells(i), i}; }
  std::int64_t bucket(const Item& x) const {
    return key_in_bins(x.cell, nbins) ? std::int64_t(x.cell) : -1;
  }
  void store(std::int64_t to, const Item& x) const { perm(to) = Index(x.i); }
};

template <class ExecSpace, class CellView, class PermView, class OffsetView>
void counting_bins(const ExecSpace& space, const CellView& cells, std::int64_t nbins,
                   const PermView& perm, const OffsetView& offsets) {
  const std::int64_t n = cells.extent(0);
  using Offset = typename OffsetView::non_const_value_type;
  host_counting_pass<std::uint32_t>(
      "Ordo::bin_permutation::host", space, n, host_bin_chunks<ExecSpace>(n, space.concurrency()),
      nbins, WorkspaceSlot::bin_counts, CountingBinsPass<CellView, PermView>{cells, perm, nbins},
      [=](std::int64_t c, std::int64_t first, std::int64_t count) {
        offsets(c) = Offset(first);
        if (c == nbins - 1) offsets(nbins) = Offset(first + count);
      });
}

// ---- device backends -------------------------------------------------------------------------

template <class ExecSpace, class CellView, class PermView>
inline constexpr bool vendor_bins_v =
    vendor_sort_available_v<ExecSpace>&& is_contiguous_1d_v<CellView>&&
        is_contiguous_1d_v<PermView> &&
    sizeof(typename CellView::value_type) >= 4;

// perm(i) = i into the sort's input positions.
template <class View>
struct Positions {
  View positions;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    positions(i) = typename View::value_type(i);
  }
};

// The vendor's sort of n (id, position) records by `bits` bits, from cells and positions into
// sorted and perm (with temp null: its temporary storage, as vendor_temp_bytes asks it).
template <class ExecSpace, class Cell, class Index>
struct VendorBinSort {
  const char* fn;
  ExecSpace space;
  const Cell* cells;
  Cell* sorted;
  const Index* positions;
  Index* perm;
  std::int64_t n;
  int bits;
  void operator()(void* temp, std::size_t& bytes) const {
    Vendor<ExecSpace>::sort_into(fn, temp, bytes, cells, sorted, positions, perm, n, 0, bits, false,
                                 space);
  }
};

// bin_permutation's checks of its arguments.
template <class ExecSpace, class CellView, class PermView, class OffsetView>
void check_bin_permutation_arguments(const char* fn, const CellView& cells, std::int64_t nbins,
                                     const PermView& perm, const OffsetView& offsets) {
  static_check_views<ExecSpace, CellView>();
  static_assert(std::is_integral_v<typename CellView::value_type> &&
                    !std::is_same_v<typename CellView::non_const_value_type, bool>,
                "Ordo::bin_permutation: the cell ids are integers");
  if (nbins < 0) fail(fn, "nbins is " + std::to_string(nbins) + ", needs at least 0");
  const std::size_t n = cells.extent(0);
  check_sort_size(fn, cells);
  check_index_output<ExecSpace>(fn, "perm", perm, n, largest_index(n));
  check_size_equal(fn, "perm", perm, n, "one position per cell id");
  check_index_output<ExecSpace>(fn, "offsets", offsets, std::size_t(nbins) + 1, n);
  check_size_equal(fn, "offsets", offsets, std::size_t(nbins) + 1, "nbins + 1 offsets");
  check_all_reachable<ExecSpace>(fn, "cells", cells, "perm", perm, "offsets", offsets);
  check_no_alias(fn, "perm", perm, "cells", cells);
  check_no_alias(fn, "offsets", offsets, "cells", cells, "perm", perm);
}

// The workspace of bin_permutation on n ids in nbins cells (the most of its paths).
template <class ExecSpace, class Cell, class Index>
std::size_t bin_permutation_bound(std::int64_t n, std::int64_t nbins) {
  if (n <= 0) return 0;
  using C = Codec<Cell, less<>>;
  const std::size_t sort = slot_bytes<Cell>(n) + sort_records_bound<ExecSpace, C, std::uint32_t>(n);
  std::size_t most = sort;
  if constexpr (is_host_space_v<ExecSpace>) {
    const std::int64_t chunks = host_bin_chunks<ExecSpace>(n, ExecSpace().concurrency());
    most = std::max(most, slot_bytes<std::uint32_t>(chunks * nbins));
  }
  if constexpr (vendor_sort_available_v<ExecSpace>) {
    const int bits = bin_bits(nbins);
    const std::size_t temp = vendor_temp_bytes(
        VendorShape{n, 0, 0, bits},
        VendorBinSort<ExecSpace, Cell, Index>{"Ordo::bin_permutation", ExecSpace(), nullptr,
                                              nullptr, nullptr, nullptr, n, bits});
    most = std::max(most, slot_bytes<Cell>(n) + slot_bytes<Index>(n) +
                              slot_bytes<std::byte>(std::int64_t(temp)));
  }
  return most;
}

// The unsorted ids' permutation and offsets (the scan found every id in range).
template <class ExecSpace, class CellView, class PermView, class OffsetView>
void sort_bins(const char* fn, const ExecSpace& space, const CellView& cells, std::int64_t nbins,
               const PermView& perm, const OffsetView& offsets) {
  const std::int64_t n = cells.extent(0);
  using Cell = typename CellView::non_const_value_type;
  using Index = typename PermView::non_const_value_type;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (host_counting_bins<ExecSpace>(n, nbins, space.concurrency())) {
      counting_bins(space, cells, nbins, perm, offsets);
      return;
    }
  }
  const auto sorted = workspace<Cell>(space, n, WorkspaceSlot::bin_keys);
  if constexpr (vendor_bins_v<ExecSpace, CellView, PermView>) {
    const int bits = bin_bits(nbins);
    const auto positions = workspace<Index>(space, n, WorkspaceSlot::bin_positions);
    const VendorBinSort<ExecSpace, Cell, Index> sort{
        fn, space, cells.data(), sorted.data(), positions.data(), perm.data(), n, bits};
    const auto temp = vendor_temp(space, VendorShape{n, 0, 0, bits}, sort);
    std::size_t bytes = temp.extent(0);
    over_ids("Ordo::bin_permutation::positions", space, n,
             Positions<decltype(positions)>{positions});
    sort(temp.data(), bytes);
    fill_bin_offsets(space, sorted, nbins, offsets);
    return;
  }
  (void)fn;
  using C = Codec<Cell, less<>>;
  stable_permutation(space, cells, perm, CodecKeys<C, decltype(sorted)>{sorted}, less<>{},
                     SortOptions{});
  fill_bin_offsets(space, sorted, nbins, offsets);
}

// What the scan found: the ids that order before the id before them, and those of them more than
// BinningTuning's near_cells cells below it.
struct CellOrder {
  std::int64_t descents = 0, far_descents = 0;
};

// The scan of n >= 1 ids, read back: raises on the first id outside [0, nbins) (nothing written).
template <class ExecSpace, class CellView>
CellOrder scan_cells(const char* fn, const ExecSpace& space, const CellView& cells,
                     std::int64_t nbins) {
  const std::int64_t n = cells.extent(0);
  std::int64_t first_bad = n;
  CellOrder order;
  over_ids("Ordo::bin_permutation::scan", space, n,
           ScanCells<CellView>{cells, n, nbins, BinningTuning<ExecSpace>::near_cells},
           Kokkos::Min<std::int64_t>(first_bad), Kokkos::Sum<std::int64_t>(order.descents),
           Kokkos::Sum<std::int64_t>(order.far_descents));
  if (first_bad < n) {
    const auto id = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(cells, Kokkos::make_pair(first_bad, first_bad + 1)));
    fail(fn, "cells(" + std::to_string(first_bad) + ") = " + std::to_string(id(0)) +
                 " lies outside [0, " + std::to_string(nbins) +
                 "); perm and offsets are unchanged");
  }
  return order;
}

template <class ExecSpace, class CellView, class PermView, class OffsetView>
void identity_bins(const ExecSpace& space, const CellView& cells, std::int64_t nbins,
                   const PermView& perm, const OffsetView& offsets) {
  const std::int64_t n = cells.extent(0);
  over_ids("Ordo::bin_permutation::identity", space, n + 1,
           IdentityBins<CellView, PermView, OffsetView>{{cells, offsets, n, nbins}, perm});
}

template <class ExecSpace, class CellView, class PermView, class OffsetView>
void bin_permutation_impl(const char* fn, const ExecSpace& space, const CellView& cells,
                          std::int64_t nbins, const PermView& perm, const OffsetView& offsets) {
  if (cells.extent(0) == 0) {  // every offset 0
    fill_bin_offsets(space, cells, nbins, offsets);
    return;
  }
  if (scan_cells(fn, space, cells, nbins).descents == 0) {
    identity_bins(space, cells, nbins, perm, offsets);
    return;
  }
  sort_bins(fn, space, cells, nbins, perm, offsets);
}

}  // namespace Ordo::Impl

#endif
