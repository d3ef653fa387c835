// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SEGMENTEDSORTIMPL_HPP
#define ORDO_IMPL_SEGMENTEDSORTIMPL_HPP

// Device level of segmented sort: the order of the launches (census, lists, one launch a bin:
// Ordo_SegmentedSortBins.hpp), the long bin and the host backends:
//   Ordo::segmented_sort::long::first    the long bin's segments laid end to end: each one's
//   Ordo::segmented_sort::long::slots    first slot, and each slot's segment
//   (Ordo::sort's kernels)               the long records sorted by key, stably, carrying their
//                                        slot; then by segment, stably, carrying their rank
//   Ordo::segmented_sort::long::gather   their values, before anything is written
//   Ordo::segmented_sort::long::scatter  slot i of the segment order back to its position
//   Ordo::segmented_sort::host           host backends: one thread a segment (the lane networks,
//                                        else the standard library); segments above SortTuning's
//                                        host_grain take the host sort, one after another

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_PermutationImpl.hpp>
#include <impl/device/Ordo_SegmentedSortBins.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace Ordo::Impl {

// ---- the long bin ----------------------------------------------------------------------------

template <class ExecSpace>
using SlotView = WorkspaceView<std::uint32_t, ExecSpace>;

// The caller's position of slot i of the long bin (its segments end to end).
template <class Segments, class Firsts, class Slots>
struct LongPlace {
  Segments segments;  // the long bin's (BinSegments)
  Firsts firsts;      // firsts(j): segment j's first slot
  Slots slots;        // slots(i): slot i's segment
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t i) const {
    const std::int64_t j = slots(i);
    std::int64_t lo, n;
    segments(j, lo, n);
    return lo + (i - firsts(j));
  }
};

template <class Segments, class Firsts>
struct LongFirsts {
  Segments segments;
  Firsts firsts;
  std::int64_t count;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, std::int64_t& before, bool final) const {
    std::int64_t lo, n;
    segments(j, lo, n);
    if (final) {
      firsts(j) = before;
      if (j + 1 == count) firsts(count) = before + n;
    }
    before += n;
  }
};

template <class ExecSpace, class Segments, class Firsts, class Slots>
struct LongSlots {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Segments segments;
  Firsts firsts;
  Slots slots;
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t j = member.league_rank(), first = firsts(j), n = firsts(j + 1) - first;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(member, n),
                         [&](std::int64_t t) { slots(first + t) = std::uint32_t(j); });
  }
};

// Sort sources: slot i's key (from the caller's keys), and the segment of the i-th slot in key
// order.
template <class Keys, class Place>
struct LongKeys {
  Keys keys;
  Place place;
  KOKKOS_INLINE_FUNCTION auto load(std::int64_t i) const { return keys.load(place(i)); }
};

template <class Slots>
struct LongSegmentOf {
  Slots slots, by_key;
  KOKKOS_INLINE_FUNCTION std::uint32_t load(std::int64_t i) const { return slots(by_key(i)); }
};

template <class Records, class Place, class Values>
struct LongGather {
  Records records;
  Place place;
  Values values;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    values(i) = records.values.load(place(i));
  }
};

// Slot i of the segment order: rank(i) in key order, whose key is keys(rank(i)) and whose
// slot was by_key(rank(i)).
template <bool WithValues, class Records, class Place, class Keys, class Values, class Slots>
struct LongScatter {
  Records records;
  Place place;
  Keys keys;
  Values values;
  Slots by_key, rank;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t at = place(i), r = rank(i);
    records.keys.store(at, keys(r));
    if constexpr (WithValues) records.values.store(at, values(by_key(r)));
  }
};

// The long bin's `count` segments (Segments), `m` records in all.
template <class Codec, class V, class ExecSpace, class Records, class Segments>
void sort_long_segments(const ExecSpace& space, const Records& records, const Segments& segments,
                        std::int64_t count, std::int64_t m, const typename Codec::Less& less,
                        const SortOptions& options) {
  using K = typename Codec::Bits;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Slots = SlotView<ExecSpace>;
  constexpr bool with_values = !std::is_same_v<V, NoValue>;
  const auto firsts = workspace<std::int64_t>(space, count + 1, WorkspaceSlot::segment_firsts);
  const Slots slots = workspace<std::uint32_t>(space, m, WorkspaceSlot::segment_slots);
  const auto keys = workspace<K>(space, m, WorkspaceSlot::segment_keys);
  const Slots by_key = workspace<std::uint32_t>(space, m, WorkspaceSlot::segment_order0);
  const Slots rank = workspace<std::uint32_t>(space, m, WorkspaceSlot::segment_order1);
  const auto values =
      workspace<StoredValue<V>>(space, with_values ? m : 0, WorkspaceSlot::segment_values);
  using Firsts = std::remove_const_t<decltype(firsts)>;
  Kokkos::parallel_scan("Ordo::segmented_sort::long::first", Range(space, 0, count),
                        LongFirsts<Segments, Firsts>{segments, firsts, count});
  Kokkos::parallel_for("Ordo::segmented_sort::long::slots",
                       Kokkos::TeamPolicy<ExecSpace>(space, count, Kokkos::AUTO),
                       LongSlots<ExecSpace, Segments, Firsts, Slots>{segments, firsts, slots});
  using Place = LongPlace<Segments, Firsts, Slots>;
  const Place place{segments, firsts, slots};
  using Keys = decltype(records.keys);
  using BySlot = PositionValues<Slots>;
  const Ends<LongKeys<Keys, Place>, BySlot> key_source{{records.keys, place}, {}};
  const Ends<PlainEnd<std::remove_const_t<decltype(keys)>>, PlainEnd<Slots>> key_sink{{keys},
                                                                                      {by_key}};
  sort_records<Codec, true, std::uint32_t>(space, m, key_source, key_sink, less, options);
  using SegmentCodec = Ordo::Impl::Codec<std::uint32_t, Ordo::less<>>;
  const Ends<LongSegmentOf<Slots>, BySlot> segment_source{{slots, by_key}, {}};
  const Ends<NoEnd, PlainEnd<Slots>> segment_sink{{}, {rank}};
  // The radix sort skips the digits every segment index shares (one pass below 256 segments);
  // the slab sort took as long as the sort by key.
  SortOptions by_segment = options;
  by_segment.algorithm = SortAlgorithm::radix;
  sort_records<SegmentCodec, true, std::uint32_t>(
      space, m, segment_source, segment_sink, SegmentCodec::less_of(Ordo::less<>{}), by_segment);
  if constexpr (with_values) {
    Kokkos::parallel_for("Ordo::segmented_sort::long::gather", Range(space, 0, m),
                         LongGather<Records, Place, decltype(values)>{records, place, values});
  }
  Kokkos::parallel_for(
      "Ordo::segmented_sort::long::scatter", Range(space, 0, m),
      LongScatter<with_values, Records, Place, decltype(keys), decltype(values), Slots>{
          records, place, keys, values, by_key, rank});
}

// ---- host backends ---------------------------------------------------------------------------

// A segment's records at base + [0, n) as records [0, n) (the host sort of one long segment).
template <class End>
struct EndAt {
  End end;
  std::int64_t base;
  KOKKOS_INLINE_FUNCTION auto load(std::int64_t i) const { return end.load(base + i); }
  template <class T>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, const T& x) const {
    end.store(base + i, x);
  }
};

// The encoded key of a host record.
template <class K>
K host_key(const K& k) {
  return k;
}
template <class K, class V>
K host_key(const HostRecord<K, V>& r) {
  return r.key;
}

// Stable LSD radix sort of a's records by their encoded keys K (8-bit digits; one read counts
// every pass's digits, a pass whose digit every key shares is skipped); b: a buffer.
template <class K, class Rec>
void host_radix_sort(std::vector<Rec>& a, std::vector<Rec>& b) {
  constexpr int passes = int(sizeof(K));
  const std::size_t n = a.size();
  std::uint32_t counts[passes][256] = {};
  for (const Rec& r : a) {
    const K k = host_key(r);
    for (int p = 0; p < passes; ++p) ++counts[p][(k >> (8 * p)) & 255];
  }
  b.resize(n);
  for (int p = 0; p < passes; ++p) {
    if (counts[p][(host_key(a[0]) >> (8 * p)) & 255] == n) continue;
    std::uint32_t at[256], sum = 0;
    for (int d = 0; d < 256; ++d) at[d] = sum, sum += counts[p][d];
    for (const Rec& r : a) b[at[(host_key(r) >> (8 * p)) & 255]++] = r;
    a.swap(b);
  }
}

// One thread a segment: the lane networks up to lane_max records (unstable sorts), then
// host_chunk_sort or, for encoded keys from host_radix_from records on, the radix sort
// (both stable), up to host_grain; the longer ones after, each by the host sort on every
// thread.
template <class Codec, bool Stable, class V, class ExecSpace, class Records, class Offsets>
void host_segmented_sort(const ExecSpace& space, const Records& records, const Offsets& offsets,
                         const typename Codec::Less& less, bool any_long) {
  using K = typename Codec::Bits;
  using Types = SortTypes<ExecSpace, K, V>;
  using Rec = HostRecordOf<K, V>;
  const std::int64_t segments = std::int64_t(offsets.extent(0)) - 1;
  const RecordOrder<typename Codec::Less, false> order{less};
  Kokkos::parallel_for(
      "Ordo::segmented_sort::host",
      Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                          Kokkos::IndexType<std::int64_t>>(space, 0, segments),
      [=](std::int64_t s) {
        const std::int64_t lo = std::int64_t(offsets(s)), n = std::int64_t(offsets(s + 1)) - lo;
        if (n < 2 || n > Types::Tuning::host_grain) return;
        if (!Stable && n <= Types::Segments::lane_max) {
          sort_segment_in_lanes<Types::Segments::lane_max, 2, Codec, V>(records, lo, n, order);
          return;
        }
        thread_local std::vector<Rec> buffer, spare;
        buffer.resize(n);
        for (std::int64_t i = 0; i < n; ++i) buffer[i] = load_host_record<K, V>(records, lo + i);
        bool radix = false;
        if constexpr (Codec::encoded) radix = n >= Types::Segments::host_radix_from;
        if (radix) {
          if constexpr (Codec::encoded) host_radix_sort<K>(buffer, spare);  // stable
        } else {
          spare.resize(n);
          host_chunk_sort(buffer.data(), buffer.data() + n, spare.data(),
                          HostRecordLess<typename Codec::Less>{less});
        }
        for (std::int64_t i = 0; i < n; ++i) store_host_record<V>(records, lo + i, buffer[i]);
      });
  if (!any_long) return;
  space.fence("Ordo::segmented_sort: fence");  // the offsets are read on the host
  for (std::int64_t s = 0; s < segments; ++s) {
    const std::int64_t lo = std::int64_t(offsets(s)), n = std::int64_t(offsets(s + 1)) - lo;
    if (n <= Types::Tuning::host_grain) continue;
    using At = Ends<EndAt<decltype(records.keys)>, EndAt<decltype(records.values)>>;
    const At at{{records.keys, lo}, {records.values, lo}};
    host_sort<ExecSpace, K, V>(space, n, at, at, less);
  }
}

// ---- order of the launches ---------------------------------------------------------------------

// One group of a CUDA warp's lanes a segment of at most `capacity` records (CUDA seam; capacity
// a power of two from a warp's lanes on, C the bin's): R = max(group_regs, C / lanes)
// registers a lane, C / R lanes a group.
template <std::int64_t C, class Seam, class ExecSpace, class K, class V, class Records, class Order,
          class Segments>
void sort_group_bin(const ExecSpace& space, const Records& records, const Order& order,
                    const Segments& bin, std::int64_t count, std::int64_t capacity) {
  using Types = SortTypes<ExecSpace, K, V>;
  constexpr int lanes = cuda_warp_lanes;
  if constexpr (C < lanes * Types::Team::seam_regs) {
    if (capacity > C) {
      sort_group_bin<2 * C, Seam, ExecSpace, K, V>(space, records, order, bin, count, capacity);
      return;
    }
  }
  constexpr int group_regs = Types::Segments::group_regs;
  constexpr int R = C / lanes > group_regs ? int(C / lanes) : group_regs;
  constexpr int W = int(C / R), team = Types::Segments::group_team, groups = team / W;
  static_assert(W >= 1 && W <= lanes && team % lanes == 0, "groups inside whole warps");
  launch_tiles("Ordo::segmented_sort::groups", space, TilePlan{(count + groups - 1) / groups, team},
               SegmentGroupSort<Seam, W, R, ExecSpace, K, V, Records, Order, Segments>{
                   records, order, bin, count});
}

// One team a segment in a block of the bin's capacity (at least a slab).
template <class Seam, class ExecSpace, class K, class V, class Records, class Order, class Segments>
void sort_team_bin(const ExecSpace& space, const Records& records, const Order& order,
                   const Segments& bin, std::int64_t count, std::int64_t capacity) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  constexpr std::int64_t slab = (Seam::warp ? cuda_warp_lanes : Tuning::lanes) * Tuning::regs;
  const std::int64_t block = capacity > slab ? capacity : slab, slabs = block / slab;
  const std::size_t bytes = ScratchTile<K, V>::bytes(block);
  const TilePlan plan = Seam::warp
                            ? TilePlan{count, int(slabs) * cuda_warp_lanes, bytes}
                            : TilePlan{count, int(std::min<std::int64_t>(slabs, Tuning::slabs)),
                                       bytes, false, Tuning::lanes};
  launch_tiles(
      "Ordo::segmented_sort::teams", space, plan,
      SegmentTeamSort<Seam, ExecSpace, K, V, Records, Order, Segments>{records, order, bin, block});
}

// Sorts every segment of `records` (n of them; keys by Codec, values V: the input positions for
// the stable order on device backends) after the census has checked the offsets.
template <class Codec, bool Stable, class V, class ExecSpace, class Records, class Offsets>
void segmented_sort_records(const char* fn, const ExecSpace& space, std::int64_t n,
                            const Records& records, const Offsets& offsets,
                            const typename Codec::Less& less, const SortOptions& options) {
  using K = typename Codec::Bits;
  using Types = SortTypes<ExecSpace, K, V>;
  using Bins = SegmentBins<typename Types::Segments>;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t segments = std::int64_t(offsets.extent(0)) - 1;
  if (segments == 0) {
    // Nothing to sort, but the one offset must still lie inside keys, as every offset must.
    using Pair = Kokkos::pair<std::int64_t, std::int64_t>;
    const auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{},
                                                           Kokkos::subview(offsets, Pair(0, 1)));
    const std::int64_t at = std::int64_t(first(0));
    const std::string what = "offsets(0) = " + std::to_string(at);
    if (at < 0) fail(fn, what + ": an offset is negative");
    if (at > n)
      fail(fn, what + " is past the end of keys, which has " + std::to_string(n) + " elements");
    return;
  }
  const auto census = segment_census<Bins, Types::Segments::list_team>(fn, space, offsets, n);
  if constexpr (is_host_space_v<ExecSpace>) {
    if (options.path == SortPath::automatic) {
      host_segmented_sort<Codec, Stable, V>(space, records, offsets, less,
                                            census[Bins::long_bin] > 0);
      return;
    }
  }
  const RecordOrder<typename Codec::Less, Stable> order{less};
  using Order = std::remove_const_t<decltype(order)>;
  Kokkos::parallel_for("Ordo::segmented_sort::lanes", Range(space, 0, segments),
                       SegmentLanes<Types::Segments::lane_max, Codec, V, Records, Order, Offsets>{
                           records, order, offsets});
  std::int64_t starts[Bins::count + 1] = {};
  for (int b = Bins::lane_bins; b < Bins::count; ++b) starts[b + 1] = starts[b] + census[b];
  if (starts[Bins::count] == 0) return;
  using List = SlotView<ExecSpace>;
  const List lists =
      workspace<std::uint32_t>(space, starts[Bins::count], WorkspaceSlot::segment_lists);
  const auto cursors = workspace<std::int64_t>(space, Bins::count, WorkspaceSlot::segment_cursors);
  Kokkos::deep_copy(space, cursors, 0);
  segment_pass<true, Bins>(space, offsets, lists, cursors, n, starts, Types::Segments::list_team);
  using Segments = BinSegments<Offsets, List>;
  const bool seam = Codec::encoded && options.path == SortPath::automatic;
  for (int b = Bins::lane_bins; b < Bins::long_bin; ++b) {
    const std::int64_t count = census[b], capacity = Bins::capacity(b);
    if (count == 0) continue;
    const Segments bin{offsets, lists, starts[b]};
    with_warp_seam<ExecSpace>(seam, [&](auto space_seam) {
      using Seam = SortSeam<decltype(space_seam), K>;
      if constexpr (Seam::warp) {
        if (capacity <= cuda_warp_lanes * Types::Team::seam_regs) {
          sort_group_bin<cuda_warp_lanes, Seam, ExecSpace, K, V>(space, records, order, bin, count,
                                                                 capacity);
          return;
        }
      }
      sort_team_bin<Seam, ExecSpace, K, V>(space, records, order, bin, count, capacity);
    });
  }
  if (census[Bins::long_bin] > 0) {
    sort_long_segments<Codec, V>(space, records, Segments{offsets, lists, starts[Bins::long_bin]},
                                 census[Bins::long_bin], census[Bins::count], less, options);
  }
}

// ---- entry points ----------------------------------------------------------------------------

template <class ExecSpace, class KeyView, class Offsets>
void check_segment_offsets(const char* fn, const KeyView& keys, const Offsets& offsets) {
  static_check_views<ExecSpace, Offsets>();
  static_assert(std::is_integral_v<typename Offsets::value_type>,
                "Ordo: offsets hold an integer type");
  check_all_reachable<ExecSpace>(fn, "offsets", offsets);
  if (offsets.extent(0) == 0) {
    fail(fn, "offsets has 0 elements, needs n_segments + 1 (at least 1)");
  }
  check_no_alias(fn, "keys", keys, "offsets", offsets);
}

// Every argument check of the keys-only and the by-key forms (the census checks the offsets'
// values).
template <class ExecSpace, class KeyView, class Offsets>
void check_segmented(const char* fn, const KeyView& keys, const Offsets& offsets) {
  check_sort_keys<ExecSpace>(fn, keys);
  check_segment_offsets<ExecSpace>(fn, keys, offsets);
}

template <class ExecSpace, class KeyView, class ValueView, class Offsets>
void check_segmented_by_key(const char* fn, const KeyView& keys, const ValueView& values,
                            const Offsets& offsets) {
  check_segmented<ExecSpace>(fn, keys, offsets);
  check_sort_values<ExecSpace>(fn, keys, values);
  check_no_alias(fn, "values", values, "offsets", offsets);
}

// The entry points below the public calls (which check their arguments first, offsets aside:
// the census checks them); the tests and ordo-perf call them with SortOptions.
template <class ExecSpace, class KeyView, class Offsets, class Comp>
void segmented_sort(const char* fn, const ExecSpace& space, const KeyView& keys,
                    const Offsets& offsets, const Comp& comp, const SortOptions& options) {
  using C = Codec<typename KeyView::non_const_value_type, Comp>;
  const Ends<CodecKeys<C, KeyView>, NoEnd> records{{keys}, {}};
  segmented_sort_records<C, false, NoValue>(fn, space, keys.extent(0), records, offsets,
                                            C::less_of(comp), options);
}

template <class ExecSpace, class KeyView, class ValueView, class Offsets, class Comp>
void segmented_sort_by_key(const char* fn, const ExecSpace& space, const KeyView& keys,
                           const ValueView& values, const Offsets& offsets, const Comp& comp,
                           const SortOptions& options) {
  using C = Codec<typename KeyView::non_const_value_type, Comp>;
  using V = typename ValueView::non_const_value_type;
  const Ends<CodecKeys<C, KeyView>, PlainEnd<ValueView>> records{{keys}, {values}};
  segmented_sort_records<C, false, V>(fn, space, keys.extent(0), records, offsets, C::less_of(comp),
                                      options);
}

// Host backends sort records that carry the values (host_chunk_sort); device backends sort
// the input positions with the keys, then gather the values by them.
template <class ExecSpace, class KeyView, class ValueView, class Offsets, class Comp>
void stable_segmented_sort_by_key(const char* fn, const ExecSpace& space, const KeyView& keys,
                                  const ValueView& values, const Offsets& offsets, const Comp& comp,
                                  const SortOptions& options) {
  using C = Codec<typename KeyView::non_const_value_type, Comp>;
  const std::int64_t n = keys.extent(0);
  if (is_host_space_v<ExecSpace> && options.path == SortPath::automatic) {
    using V = typename ValueView::non_const_value_type;
    const Ends<CodecKeys<C, KeyView>, PlainEnd<ValueView>> records{{keys}, {values}};
    segmented_sort_records<C, true, V>(fn, space, n, records, offsets, C::less_of(comp), options);
    return;
  }
  const auto perm = workspace<std::uint32_t>(space, n, WorkspaceSlot::sort_permutation);
  Kokkos::parallel_for(
      "Ordo::segmented_sort::positions",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) { perm(i) = std::uint32_t(i); });
  using Perm = std::remove_const_t<decltype(perm)>;
  const Ends<CodecKeys<C, KeyView>, PositionValues<Perm>> records{{keys}, {perm}};
  segmented_sort_records<C, true, std::uint32_t>(fn, space, n, records, offsets, C::less_of(comp),
                                                 options);
  apply_permutation_impl(space, perm, values);
}

}  // namespace Ordo::Impl

#endif
