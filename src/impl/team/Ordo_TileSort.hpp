// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILESORT_HPP
#define ORDO_IMPL_TILESORT_HPP

// Team level of sort: the sorts one team runs, on the network of Ordo_TileNetwork.hpp
// (portable) or its CUDA seam (cuda/Ordo_Cuda_TileSort.hpp):
//   team_sort_block  the block kernel's team: load a block into scratch, sort it (or finish a
//                    streaming merge level's half merges), store it
//   team_sort        sort_team / sort_by_key_team: a segment in the caller's Views, whole team
//   thread_sort      sort_thread: a segment sorted by one thread's vector lanes

#include <impl/core/Ordo_Tuning.hpp>
#include <impl/cuda/Ordo_Cuda_TileSort.hpp>
#include <impl/lane/Ordo_Slab.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileNetwork.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

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

// The same block with the CUDA seam's warps (a warp per slab of 32 * R records, Slabs slabs):
// CudaSeam::sort_block sorts it in scratch, the team stores it. Teams of whole warps only.
template <bool HalfMerge, int Slabs, int R, class K, class V, class Member, class Source,
          class Sink, class Order>
KOKKOS_INLINE_FUNCTION void warp_sort_block(const Member& member, const Source& source,
                                            const Sink& sink, const Order& order, std::int64_t base,
                                            std::int64_t count, std::int64_t block) {
#if defined(ORDO_CUDA_SLAB)
  const auto tile = ScratchTile<K, V>::allocate(member, block);
  CudaSeam::sort_block<HalfMerge, Slabs, R, K, V>(member, source, tile, order, base, count, block);
  store_tile<K, V>(member, tile, sink, base, count);
#else
  (void)member, (void)source, (void)sink, (void)order, (void)base, (void)count, (void)block;
#endif
}

// sort_team and sort_by_key_team: keys (and values) in place, Codec's order. On CUDA, teams of
// whole warps sort encoded keys in registers first (CudaSeam::team_sort_in_warps); what that
// leaves, the portable network finishes.
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
#if defined(ORDO_CUDA_SLAB)
  if constexpr (Codec::encoded) {
    using Tuning = typename SortTypes<Kokkos::Cuda, K, V>::Tuning;
    if (CudaSeam::team_sort_in_warps<Tuning, K, V>(tile, n, order, sorted)) return;
  }
#endif
  constexpr int R = TeamSortTuning::regs;
  team_block_sort<TeamSortTuning::lanes, R, true, K, V>(member, tile, network_size(n, R), n, order,
                                                        sorted);
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
  constexpr int R = TeamSortTuning::regs;
  const ViewTile<Codec, KeyView, ValueView> tile{keys, values, n};
  team_block_sort<1, R, false, typename Codec::Bits, V>(member, tile, network_size(n, R), n, order);
}

// One team per block (team_sort_block; Seam: CudaSeam::sort_block, a warp per slab). HalfMerge:
// the end of a streaming merge level (records in position order, half merges only) instead of a
// block sort.
template <bool HalfMerge, bool Seam, class ExecSpace, class K, class V, class Source, class Sink,
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
    if constexpr (Seam) {
      warp_sort_block<HalfMerge, Tuning::slabs, Tuning::regs, K, V>(member, source, sink, order,
                                                                    base, count, block);
    } else {
      team_sort_block<HalfMerge, Tuning::lanes, Tuning::regs, K, V>(member, source, sink, order,
                                                                    base, count, block);
    }
  }
};

}  // namespace Ordo::Impl

#endif
