// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILESORT_HPP
#define ORDO_IMPL_TILESORT_HPP

// Team level of sort: the sorts one team runs, on the network of Ordo_TileNetwork.hpp
// (portable) or the warps of CUDA's team seam (WarpSeam<Kokkos::Cuda>, team/Ordo_WarpSeam.hpp):
//   team_sort_block  the block kernel's team: load a block into scratch, sort it (or finish a
//                    streaming merge level's half merges), store it
//   team_sort        sort_team / sort_by_key_team: a segment in the caller's Views, whole team
//   thread_sort      sort_thread: a segment sorted by one thread's vector lanes
// and the tile agents of the sort kernels: SortBlocks (the block kernel), SegmentGroupSort and
// SegmentTeamSort (segmented sort's bins), SortStreamFlip (a streaming merge level's flip).

#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_Slab.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileNetwork.hpp>
#include <impl/team/Ordo_WarpSeam.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// The block kernel's team on the portable network: records [base, base + count) of source
// (count <= block, W lanes of R registers per slab) into padded scratch (full blocks transposed,
// load_offset), team_block_sort (HalfMerge: team_block_half_merge, records in position order),
// then stored in order to sink.
template <bool HalfMerge, int W, int R, class K, class V, class Member, class Source, class Sink,
          class Order>
KOKKOS_INLINE_FUNCTION void team_sort_block(const Member& member, const Source& source,
                                            const Sink& sink, const Order& order, std::int64_t base,
                                            std::int64_t count, std::int64_t block) {
  const auto tile = ScratchTile<K, V>::allocate(member, block);
  load_block_tile<W, R>(member, source, tile, base, count, block, !HalfMerge);
  if constexpr (HalfMerge) {
    team_block_half_merge<W, R, K, V>(member, tile, block, count, order);
  } else {
    team_block_sort<W, R, true, K, V>(member, tile, block, count, order);
  }
  store_tile<K, V>(member, tile, sink, base, count);
}

// The team seam a sort of keys K runs on: the space's seam Seam for encoded (unsigned) keys, the
// only ones the warps sort; TeamSeam otherwise.
template <class Seam, class K>
using SortSeam = std::conditional_t<std::is_unsigned_v<K>, Seam, TeamSeam>;

// The same block with a warp seam's warps (a warp per slab of 32 * R records, Slabs slabs):
// Seam::sort_block sorts it in scratch, the team stores it. Teams of whole warps only.
template <class Seam, bool HalfMerge, int Slabs, int R, class K, class V, class Member,
          class Source, class Sink, class Order>
KOKKOS_INLINE_FUNCTION void warp_sort_block(const Member& member, const Source& source,
                                            const Sink& sink, const Order& order, std::int64_t base,
                                            std::int64_t count, std::int64_t block) {
  const auto tile = ScratchTile<K, V>::allocate(member, block);
  Seam::template sort_block<HalfMerge, Slabs, R, K, V>(member, source, tile, order, base, count,
                                                       block);
  store_tile<K, V>(member, tile, sink, base, count);
}

// sort_team and sort_by_key_team: keys (and values) in place, Codec's order. On a warp seam
// (CUDA), teams of whole warps sort encoded keys in registers first (team_sort_in_warps); what
// that leaves, the portable network finishes.
template <class Member, class Codec, class KeyView, class ValueView, class Comp>
KOKKOS_INLINE_FUNCTION void team_sort(const Member& member, const KeyView& keys,
                                      const ValueView& values, const Comp& comp) {
  using K = typename Codec::Bits;
  using V = typename ValueView::non_const_value_type;
  const RecordOrder<typename Codec::Less, false> order{Codec::less_of(comp)};
  const std::int64_t n = keys.extent(0);
  member.team_barrier();  // the team's last writes to keys are in
  if (n < 2) return;
  const ViewTile<Codec, KeyView, ValueView> tile{keys, values, n};
  std::int64_t sorted = 0;  // runs of `sorted` positions sorted already
  using Seam = WarpSeam<typename Member::execution_space>;
  if constexpr (Seam::warp && Codec::encoded) {
    if (Seam::template team_sort_in_warps<K, V>(tile, n, order, sorted)) return;
  }
  using Tuning = typename SortTypes<typename Member::execution_space, K, V>::Team;
  constexpr int R = Tuning::regs;
  team_block_sort<Tuning::lanes, R, true, K, V>(member, tile, network_size(n, R), n, order, sorted);
}

// sort_thread and sort_by_key_thread: keys (and values) in place, Codec's order, by the calling
// thread's vector lanes.
template <class Member, class Codec, class KeyView, class ValueView, class Comp>
KOKKOS_INLINE_FUNCTION void thread_sort(const Member& member, const KeyView& keys,
                                        const ValueView& values, const Comp& comp) {
  using V = typename ValueView::non_const_value_type;
  const RecordOrder<typename Codec::Less, false> order{Codec::less_of(comp)};
  const std::int64_t n = keys.extent(0);
  if (n < 2) return;
  constexpr int R =
      SortTypes<typename Member::execution_space, typename Codec::Bits, V>::Team::regs;
  const ViewTile<Codec, KeyView, ValueView> tile{keys, values, n};
  team_block_sort<1, R, false, typename Codec::Bits, V>(member, tile, network_size(n, R), n, order);
}

// One team per block (team_sort_block; on a warp seam its sort_block, a warp per slab).
// HalfMerge: the end of a streaming merge level (records in position order, half merges only)
// instead of a block sort.
template <bool HalfMerge, class Seam, class ExecSpace, class K, class V, class Source, class Sink,
          class Order>
struct SortBlocks {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  Source source;
  Sink sink;
  Order order;
  std::int64_t n, block;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t base = member.league_rank() * block;
    const std::int64_t count = n - base < block ? n - base : block;
    if constexpr (Seam::warp) {
      warp_sort_block<Seam, HalfMerge, Tuning::slabs, Tuning::regs, K, V>(
          member, source, sink, order, base, count, block);
    } else {
      team_sort_block<HalfMerge, Tuning::lanes, Tuning::regs, K, V>(member, source, sink, order,
                                                                    base, count, block);
    }
  }
};

// Records [lo, lo + n) of a segment as a tile of positions [0, n); padding above (the all-ones
// key: encoded keys only).
template <class K, class V, class Records>
struct SegmentTile {
  Records records;
  std::int64_t lo, n;
  KOKKOS_FORCEINLINE_FUNCTION void get(std::int64_t e, K& k, V& v) const {
    if (e < n) {
      k = records.keys.load(lo + e);
      v = records.values.load(lo + e);
    } else {
      k = ~K(0);
      v = padding_value<V>();
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void set(std::int64_t e, const K& k, const V& v) const {
    if (e < n) {
      records.keys.store(lo + e, k);
      records.values.store(lo + e, v);
    }
  }
};

// One group of W lanes a segment (a warp seam's group_sort_segments), team_size / W groups a
// team.
template <class Seam, int W, int R, class ExecSpace, class K, class V, class Records, class Order,
          class Segments>
struct SegmentGroupSort {
  static_assert(Seam::warp, "segments of one slab are sorted by a warp seam's lane groups");
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Records records;
  Order order;
  Segments segments;
  std::int64_t count;
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t groups = member.team_size() / W;
    auto tile_of = [&](int g, std::int64_t& n) {
      const std::int64_t i = member.league_rank() * groups + g;
      std::int64_t lo = 0;
      n = 0;
      if (i < count) segments(i, lo, n);
      return SegmentTile<K, V, Records>{records, lo, n};
    };
    Seam::template group_sort_segments<W, R, K, V>(tile_of, order);
  }
};

// One team a segment in a block of `block` positions (on a warp seam its sort_block, a warp a
// slab).
template <class Seam, class ExecSpace, class K, class V, class Records, class Order, class Segments>
struct SegmentTeamSort {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  Records records;
  Order order;
  Segments segments;
  std::int64_t block;
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    std::int64_t lo, n;
    segments(member.league_rank(), lo, n);
    if constexpr (Seam::warp) {
      warp_sort_block<Seam, false, Tuning::slabs, Tuning::regs, K, V>(member, records, records,
                                                                      order, lo, n, block);
    } else {
      team_sort_block<false, Tuning::lanes, Tuning::regs, K, V>(member, records, records, order, lo,
                                                                n, block);
    }
  }
};

// The flip merge of groups of G sorted-by-half blocks over global memory (in place), with the
// level's half merges down to one block apart: column q of a group holds position q of each block
// of its first half and position block - 1 - q of each block of its second half (the multi-slab
// column of the CUDA seam, with blocks for slabs), so every pair of those stages lies in one
// column, which one thread merges in registers. Consecutive threads take consecutive columns:
// coalesced loads and stores (descending in the second half). Pairs whose upper position is at or
// after n are skipped (padding never moves).
template <int G, class ExecSpace, class K, class V, class Records, class Order>
struct SortStreamFlip {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Records records;
  Order order;
  std::int64_t n, block, columns;  // columns: per team

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t first = member.league_rank() * columns;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(member, columns), [&](std::int64_t i) {
      const std::int64_t c = first + i, q = c % block, base = c / block * (G * block);
      auto pos = [&](int t) { return column_position<true>(base, t, G, block, q); };
      K k[G];
      V v[G];
      ORDO_UNROLL
      for (int t = 0; t < G; ++t) {
        if (pos(t) < n) {
          k[t] = records.keys.load(pos(t));
          v[t] = records.values.load(pos(t));
        }
      }
      column_merge<G, true>(k, v, order, [&](int t) { return pos(t) < n; });
      ORDO_UNROLL
      for (int t = 0; t < G; ++t) {
        if (pos(t) < n) {
          records.keys.store(pos(t), k[t]);
          records.values.store(pos(t), v[t]);
        }
      }
    });
  }
};

}  // namespace Ordo::Impl

#endif
