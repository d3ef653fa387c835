// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_RUNSIMPL_HPP
#define ORDO_IMPL_RUNSIMPL_HPP

// Device level of the runs of equal keys:
//   unique, unique_by_key   a stable compaction of the runs' first elements (device/
//                           Ordo_CopyIfImpl.hpp: Ordo::copy_if::tiles, or count, scan and scatter
//                           on host backends)
//   reduce_by_key,          Ordo::<algo>::tiles  one pass, a team a tile (team/Ordo_TileRuns.hpp),
//   run_length_encode       the tiles chained by the look-back's words and carried values
//   bin_offsets             Ordo::bin_offsets::fill  each element writes the offsets of the bins
//                           between its key and the one before it; a reduction of the errors

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/Ordo_TileRuns.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace Ordo::Impl {

// A reduction op as Ordo calls it, op(a, b) (a before b): a binary function object, or a Kokkos
// reducer (its join(dest, src)).
template <class Op, class V, class = void>
struct ReduceOp {
  Op op;
  KOKKOS_INLINE_FUNCTION V operator()(const V& a, const V& b) const { return V(op(a, b)); }
};

template <class Op, class V>
struct ReduceOp<Op, V,
                std::void_t<decltype(std::declval<const Op&>().join(std::declval<V&>(),
                                                                    std::declval<const V&>()))>> {
  Op op;
  KOKKOS_INLINE_FUNCTION V operator()(const V& a, const V& b) const {
    V r = a;
    op.join(r, b);
    return r;
  }
};

// The value of element i: values(i), or 1 (run_length_encode).
template <class ValueView>
struct ValueOf {
  ValueView values;
  KOKKOS_INLINE_FUNCTION typename ValueView::non_const_value_type operator()(std::int64_t i) const {
    return values(i);
  }
};

template <class V>
struct One {
  KOKKOS_INLINE_FUNCTION V operator()(std::int64_t) const { return V(1); }
};

// The runs of keys reduced in one pass: keys_out(r) and values_out(r) for run r (dropped past
// their extents), the number of runs to total(0).
template <class V, class ExecSpace, class KeyView, class Source, class Op, class Comp, class KeyOut,
          class ValueOut, class TotalView>
void reduce_runs(const std::string& algo, const ExecSpace& space, const KeyView& keys,
                 const Source& source, const Op& op, const Comp& comp, const KeyOut& keys_out,
                 const ValueOut& values_out, const TotalView& total) {
  const std::int64_t n = keys.extent(0);
  if (n == 0) {
    Kokkos::deep_copy(space, Kokkos::subview(total, 0), 0);
    return;
  }
  using Tuning = RunsTuning<ExecSpace>;
  using Key = typename KeyView::non_const_value_type;
  constexpr int vt = Tuning::vt(sizeof(Key), sizeof(V));
  constexpr std::int64_t tile = std::int64_t(Tuning::team_size) * vt;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const auto words = workspace<std::uint64_t>(space, tiles + 1, WorkspaceSlot::runs_words);
  using Words = decltype(words);
  using Carries = LookbackCarries<V, Words>;
  const Carries carries{
      workspace<std::uint64_t>(space, Carries::words_for(tiles), WorkspaceSlot::runs_carries)};
  // A single tile takes no ticket and reads no word: nothing to zero.
  if (tiles > 1) Kokkos::deep_copy(space, words, 0);
  using Functor = RunTiles<Tuning::team_size, vt, Tuning::lookback_window, ExecSpace, KeyView,
                           Source, V, Op, Comp, KeyOut, ValueOut, TotalView, Words, Carries>;
  launch_tiles<Tuning::team_size, Tuning::min_teams>(
      "Ordo::" + algo + "::tiles", space,
      TilePlan{tiles, Tuning::team_size, Functor::scratch_bytes()},
      Functor{keys, source, op, comp, keys_out, values_out, total, words, carries, n, tiles});
}

// ---- bin_offsets -----------------------------------------------------------------------------

// Error bits of bin_offsets.
enum BinError : int { key_out_of_range = 1, keys_unsorted = 2 };

// Whether key k names one of nbins bins, [0, nbins).
template <class K>
KOKKOS_INLINE_FUNCTION bool key_in_bins(const K& k, std::int64_t nbins) {
  if constexpr (std::is_signed_v<K>) {
    if (k < 0) return false;
  }
  return std::uint64_t(k) < std::uint64_t(nbins);
}

// Position i in [0, n] writes offsets(b) = i for the bins b in (keys(i - 1), keys(i)] (from bin 0
// at i = 0, to bin nbins at i = n), clamped to [0, nbins]: every bin is written once when the
// keys are sorted and in range, and no write leaves offsets otherwise.
template <class KeyView, class OffsetView>
struct FillBinOffsets {
  KeyView keys;
  OffsetView offsets;
  std::int64_t n, nbins;

  // The key as a bin in [-1, nbins] (out-of-range keys clamp to -1 or nbins, flagged).
  KOKKOS_INLINE_FUNCTION std::int64_t bin(std::int64_t i, int& errors) const {
    const auto k = keys(i);
    if (key_in_bins(k, nbins)) return std::int64_t(k);
    errors |= key_out_of_range;
    return k < decltype(k)(1) ? -1 : nbins;
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, int& errors) const {
    const std::int64_t lo = i == 0 ? 0 : bin(i - 1, errors) + 1;
    const std::int64_t hi = i == n ? nbins : bin(i, errors);
    if (i > 0 && i < n && keys(i) < keys(i - 1)) errors |= keys_unsorted;
    using Offset = typename OffsetView::non_const_value_type;
    for (std::int64_t b = lo < 0 ? 0 : lo; b <= hi && b <= nbins; ++b) offsets(b) = Offset(i);
  }
};

// The first element that is out of range or out of order (only after bin_offsets failed).
template <class KeyView>
struct FirstBadKey {
  KeyView keys;
  std::int64_t nbins;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& first) const {
    const bool bad = !key_in_bins(keys(i), nbins) || (i > 0 && keys(i) < keys(i - 1));
    if (bad && i < first) first = i;
  }
};

template <class ExecSpace, class KeyView, class OffsetView>
void bin_offsets_impl(const char* fn, const ExecSpace& space, const KeyView& keys,
                      const OffsetView& offsets) {
  const std::int64_t n = keys.extent(0), nbins = std::int64_t(offsets.extent(0)) - 1;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  int errors = 0;
  Kokkos::parallel_reduce("Ordo::bin_offsets::fill", Range(space, 0, n + 1),
                          FillBinOffsets<KeyView, OffsetView>{keys, offsets, n, nbins},
                          Kokkos::BOr<int>(errors));
  if (errors == 0) return;
  std::int64_t first = n;
  Kokkos::parallel_reduce("Ordo::bin_offsets::check", Range(space, 0, n),
                          FirstBadKey<KeyView>{keys, nbins}, Kokkos::Min<std::int64_t>(first));
  const auto key = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(keys, Kokkos::make_pair(first, first + 1)));
  fail(fn, std::string("sorted_keys(") + std::to_string(first) + ") = " + std::to_string(key(0)) +
               (!key_in_bins(key(0), nbins)
                    ? " lies outside [0, " + std::to_string(nbins) + ")"
                    : " orders before the key before it (the keys are not sorted)") +
               "; offsets holds partial results");
}

}  // namespace Ordo::Impl

#endif
