// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_BINNINGRESORTIMPL_HPP
#define ORDO_IMPL_BINNINGRESORTIMPL_HPP

// Device level of bin_permutation, the pieces its paths share (the passes over the ids, the
// offsets of sorted ids) and the re-sort of nearly sorted ids (Ordo_BinningImpl.hpp says which
// ids take it): a check that the ids in order with both neighbours (kept) are in order among
// themselves (Ordo::bin_permutation::near::check), the displaced ids listed (near::split) and
// sorted alone, every id placed by its rank among the kept and the displaced ones (near::kept,
// near::displaced), the offsets the sums of both kinds' (near::offsets).

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_RunsImpl.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

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

// Whether position i of the ids is in order with both its neighbours: the ids a re-sort keeps
// in place (those that moved, and the neighbour that sees one out of order, are displaced).
template <class CellView>
KOKKOS_INLINE_FUNCTION bool kept_in_place(const CellView& cells, std::int64_t i, std::int64_t n) {
  return (i == 0 || !(cells(i) < cells(i - 1))) && (i + 1 >= n || !(cells(i + 1) < cells(i)));
}

// What the scans found: the first position whose id lies outside [0, nbins) (n: none), how many
// ids order before the id before them, how many are displaced; for the re-sort also the first
// and last kept ids, and whether the kept ones fail to be in order (or lie more than
// BinningTuning's near_lookahead apart, where the re-sort's walks could not find each other).
struct BinScan {
  std::int64_t first_bad, descents, displaced, first_kept, last_kept;
  int near_fails;
};

// The re-sort's check, where the scan makes it a candidate: the first and last kept ids, and
// whether each kept id's successor among the kept ones follows it in order within the lookahead.
template <class CellView>
struct CheckKept {
  CellView cells;
  std::int64_t n, lookahead;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& first_kept,
                                         std::int64_t& last_kept, int& fails) const {
    if (!kept_in_place(cells, i, n)) return;
    if (i < first_kept) first_kept = i;
    if (i > last_kept) last_kept = i;
    const std::int64_t end = n - i - 1 < lookahead ? n : i + 1 + lookahead;
    std::int64_t j = i + 1;
    while (j < end && !kept_in_place(cells, j, n)) ++j;
    if (j < n && (j == end || cells(j) < cells(i))) fails = 1;
  }
};

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

// ---- the re-sort ----------------------------------------------------------------------------

// ---- device backends: the re-sort of nearly sorted ids ---------------------------------------

// The re-sort's split (one scan of the ids): the displaced ids and their positions, in input
// order, to a list; each kept id's rank among the kept ones to krank; kept_offsets(c) = the kept
// ids in cells below c (the kept ids are in order: each writes the cells from its predecessor's
// on, found by stepping back over displaced ids).
template <class CellView, class DCells, class DPos, class KRank, class KOffsets>
struct SplitDisplaced {
  using value_type = std::int64_t;
  CellView cells;
  DCells dcells;
  DPos dpos;
  KRank krank;
  KOffsets kept_offsets;
  std::int64_t n, nbins, lookahead, first_kept, last_kept, kept_total;

  KOKKOS_INLINE_FUNCTION void fill(std::int64_t lo, std::int64_t hi, std::int64_t k) const {
    for (std::int64_t c = lo < 0 ? 0 : lo; c <= hi && c <= nbins; ++c) {
      kept_offsets(c) = typename KOffsets::value_type(k);
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& q, bool final) const {
    const bool kept = kept_in_place(cells, i, n);
    if (final) {
      const std::int64_t c = std::int64_t(cells(i));
      if (!kept) {
        if (q < std::int64_t(dcells.extent(0))) {
          dcells(q) = cells(i);
          dpos(q) = typename DPos::value_type(i);
        }
      } else {
        const std::int64_t k = i - q;
        krank(i) = typename KRank::value_type(k);
        std::int64_t p = i - 1;
        for (std::int64_t steps = 0; p >= 0 && steps < lookahead && !kept_in_place(cells, p, n);
             ++steps) {
          --p;
        }
        fill(i == first_kept || p < 0 ? 0 : std::int64_t(cells(p)) + 1, c, k);
        if (i == last_kept) fill(c + 1, nbins, kept_total);
      }
    }
    if (!kept) ++q;
  }
};

// Kept id i goes to its rank among the kept ones plus the displaced ids that order before it
// (in lower cells, or in its cell at earlier positions: a search of its cell's displaced ids,
// whose list positions rise with their input positions).
template <class CellView, class KRank, class DOrder, class DOffsets, class PermView>
struct PlaceKept {
  CellView cells;
  KRank krank;
  DOrder dorder;  // the displaced list's positions in sorted order
  DOffsets doffsets;
  PermView perm;
  std::int64_t n, nbins;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (!kept_in_place(cells, i, n) || !key_in_bins(cells(i), nbins)) return;
    const std::int64_t c = std::int64_t(cells(i)), k = std::int64_t(krank(i));
    const std::int64_t q = i - k;  // displaced ids before i
    const std::int64_t d = std::int64_t(dorder.extent(0));
    std::int64_t lo = std::int64_t(doffsets(c)), hi = std::int64_t(doffsets(c + 1));
    lo = lo < 0 ? 0 : lo > d ? d : lo;
    hi = hi < lo ? lo : hi > d ? d : hi;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (std::int64_t(dorder(mid)) < q) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    const std::int64_t out = k + lo;
    if (out >= 0 && out < n) perm(out) = typename PermView::value_type(i);
  }
};

// Displaced id s (in sorted order) goes to s plus the kept ids that order before it (in lower
// cells, or in its cell at earlier positions: the first ranks of the kept ids before it).
template <class DSorted, class DOrder, class DPos, class KOffsets, class PermView>
struct PlaceDisplaced {
  DSorted dsorted;
  DOrder dorder;
  DPos dpos;
  KOffsets kept_offsets;
  PermView perm;
  std::int64_t n, nbins;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    const std::int64_t q = std::int64_t(dorder(s));
    if (q < 0 || q >= std::int64_t(dpos.extent(0)) || !key_in_bins(dsorted(s), nbins)) return;
    const std::int64_t pos = std::int64_t(dpos(q)), c = std::int64_t(dsorted(s));
    const std::int64_t k0 = std::int64_t(kept_offsets(c)), k1 = std::int64_t(kept_offsets(c + 1));
    const std::int64_t before = pos - q - k0;  // kept ids of cell c before pos
    const std::int64_t out = s + k0 + (before < 0 ? 0 : before > k1 - k0 ? k1 - k0 : before);
    if (out >= 0 && out < n && pos >= 0 && pos < n) perm(out) = typename PermView::value_type(pos);
  }
};

template <class OffsetView, class KOffsets, class DOffsets>
struct SumOffsets {
  OffsetView offsets;
  KOffsets kept_offsets;
  DOffsets doffsets;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t c) const {
    offsets(c) = typename OffsetView::non_const_value_type(kept_offsets(c) + doffsets(c));
  }
};

// The re-sort: the displaced ids (few) sorted alone, then kept and displaced ids placed by
// their ranks; the offsets are the sums of the kept and displaced ids' offsets.
template <class ExecSpace, class CellView, class PermView, class OffsetView>
void near_bins_impl(const ExecSpace& space, const CellView& cells, std::int64_t nbins,
                    const BinScan& scan, const PermView& perm, const OffsetView& offsets) {
  const std::int64_t n = cells.extent(0), d = scan.displaced;
  using Cell = typename CellView::non_const_value_type;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Tuning = BinningTuning<ExecSpace>;
  const auto dcells = workspace<Cell>(space, d, WorkspaceSlot::bin_displaced);
  const auto dsorted = workspace<Cell>(space, d, WorkspaceSlot::bin_keys);
  const auto dpos = workspace<std::uint32_t>(space, d, WorkspaceSlot::bin_displaced_positions);
  const auto dorder = workspace<std::uint32_t>(space, d, WorkspaceSlot::bin_displaced_order);
  const auto krank = workspace<std::uint32_t>(space, n, WorkspaceSlot::bin_positions);
  const auto kept_offsets = workspace<std::uint32_t>(space, nbins + 1, WorkspaceSlot::bin_counts);
  const auto doffsets = workspace<std::uint32_t>(space, nbins + 1, WorkspaceSlot::bin_offsets);
  using Split = SplitDisplaced<CellView, decltype(dcells), decltype(dpos), decltype(krank),
                               decltype(kept_offsets)>;
  Kokkos::parallel_scan("Ordo::bin_permutation::near::split", Range(space, 0, n),
                        Split{cells, dcells, dpos, krank, kept_offsets, n, nbins,
                              Tuning::near_lookahead, scan.first_kept, scan.last_kept, n - d});
  using C = Codec<Cell, less<>>;
  stable_permutation(space, dcells, dorder, CodecKeys<C, decltype(dsorted)>{dsorted}, less<>{},
                     SortOptions{});
  fill_bin_offsets(space, dsorted, nbins, doffsets);
  over_ids("Ordo::bin_permutation::near::kept", space, n,
           PlaceKept<CellView, decltype(krank), decltype(dorder), decltype(doffsets), PermView>{
               cells, krank, dorder, doffsets, perm, n, nbins});
  over_ids(
      "Ordo::bin_permutation::near::displaced", space, d,
      PlaceDisplaced<decltype(dsorted), decltype(dorder), decltype(dpos), decltype(kept_offsets),
                     PermView>{dsorted, dorder, dpos, kept_offsets, perm, n, nbins});
  Kokkos::parallel_for("Ordo::bin_permutation::near::offsets", Range(space, 0, nbins + 1),
                       SumOffsets<OffsetView, decltype(kept_offsets), decltype(doffsets)>{
                           offsets, kept_offsets, doffsets});
}

}  // namespace Ordo::Impl

#endif
