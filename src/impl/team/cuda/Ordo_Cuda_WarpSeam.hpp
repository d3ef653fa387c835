// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_WARPSEAM_HPP
#define ORDO_IMPL_CUDA_WARPSEAM_HPP

// The CUDA team-level seam, WarpSeam<Kokkos::Cuda> (the calls: team/Ordo_WarpSeam.hpp): the
// operations TeamSeam runs portably, by warp shuffles, ballots and look-backs walked by one warp
// (team/cuda/Ordo_Cuda_Compact.hpp, Ordo_Cuda_Runs.hpp, Ordo_Cuda_Radix.hpp), and the whole tiles
// only warps run (compaction by ballots, the sort blocks and segments of
// team/cuda/Ordo_Cuda_TileSort.hpp). Teams of whole warps, vector length 1.

#include <impl/core/Ordo_Traits.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/cuda/Ordo_Cuda_Compact.hpp>
#include <impl/team/cuda/Ordo_Cuda_Radix.hpp>
#include <impl/team/cuda/Ordo_Cuda_Runs.hpp>
#include <impl/team/cuda/Ordo_Cuda_TileSort.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(ORDO_CUDA_SEAM)

namespace Ordo::Impl {

template <>
struct WarpSeam<Kokkos::Cuda> {
  static constexpr bool warp = true;

  KOKKOS_INLINE_FUNCTION static constexpr int count_slots(int team_size) {
    return team_size / cuda_warp_lanes;
  }
  KOKKOS_INLINE_FUNCTION static constexpr int radix_columns(int team_size) {
    return team_size / cuda_warp_lanes;
  }
  KOKKOS_INLINE_FUNCTION static int radix_column(int t, int) { return t / cuda_warp_lanes; }

  // The block's index: blocks start in the order of their index, so every tile this one waits for
  // has started. (The barrier: the team's previous tile, where a block runs several, is stored.)
  template <class Member, class Words>
  KOKKOS_INLINE_FUNCTION static std::int64_t tile_id(const Member& member, const Words&,
                                                     std::int64_t) {
    member.team_barrier();
    return member.league_rank();
  }

  template <class Member, class Slots>
  KOKKOS_INLINE_FUNCTION static TeamCounts scan_counts(const Member& member, int mine,
                                                       const Slots& slots) {
    return CudaSeam::warp_scan_counts(member, mine, slots);
  }

  // Warp 0 walks the look-back (LookbackBase), the prefix reaches the team through prefix_slot.
  template <int Window, class Member, class Words, class Total, class Slot>
  KOKKOS_INLINE_FUNCTION static std::int64_t tile_prefix(const Member& member, std::int64_t id,
                                                         std::int64_t kept, const Words& words,
                                                         const Total& total, std::int64_t tiles,
                                                         const Slot& prefix_slot) {
    const int t = member.team_rank();
    if (t < cuda_warp_lanes) {
      const std::int64_t p = CudaSeam::LookbackBase<Words, Total>{words, total, tiles}(id, t, kept);
      if (t == 0) prefix_slot(0) = p;
    }
    member.team_barrier();
    return prefix_slot(0);
  }

  template <int Team, class Member, class P, class Join, class Heads, class Values>
  KOKKOS_INLINE_FUNCTION static void scan_partials(const Member& member, int last_thread,
                                                   const P& mine, const Join& join,
                                                   const Heads& heads, const Values& values,
                                                   P& before, P& tile) {
    CudaSeam::warp_scan_partials<Team>(member, last_thread, mine, join, heads, values, before,
                                       tile);
  }

  // Walked by warp 0; the result on thread 0 (every lane of warp 0 has it).
  template <int Window, class Words, class Carries, class V, class Op>
  KOKKOS_INLINE_FUNCTION static std::int64_t carry_prefix(int r, std::int64_t id, std::int64_t sum,
                                                          const V& own, const Words& words,
                                                          const Carries& carries, const Op& op,
                                                          V& carry) {
    if (r >= cuda_warp_lanes) return 0;
    return CudaSeam::warp_carry_prefix(r, id, sum, own, words, carries, op, carry);
  }

  template <int Items>
  KOKKOS_INLINE_FUNCTION static int radix_position(int t, int k) {
    return CudaSeam::warp_tile_position<Items>(t, k);
  }

  template <int Items, class Member, class K, class Counters>
  KOKKOS_INLINE_FUNCTION static void radix_rank(const Member& member, const K (&key)[Items],
                                                int pass, int (&rank)[Items],
                                                const Counters& counters) {
    CudaSeam::warp_rank<Items>(member, key, pass, rank, counters);
  }

  // ---- whole tiles that only warps run ----

  // Compaction of a tile by ballots (CudaSeam::warp_tile_compact): its offset from the look-back
  // (stable) or from one atomic on the total (unordered).
  template <int VT, int G, class Member, class Select, class Emit, class State, class Total>
  KOKKOS_INLINE_FUNCTION static void compact_stable(const Member& member, std::int64_t n,
                                                    const Select& select, const Emit& emit,
                                                    const State& state, const Total& total,
                                                    std::int64_t tiles,
                                                    typename Emit::value_type* stage) {
    CudaSeam::warp_tile_compact<VT, G>(
        member.league_rank(), n, member.team_size(), member.team_rank(), select, emit,
        CudaSeam::LookbackBase<State, Total>{state, total, tiles}, stage);
  }
  template <int VT, int G, class Member, class Select, class Emit, class Total>
  KOKKOS_INLINE_FUNCTION static void compact_unordered(const Member& member, std::int64_t n,
                                                       const Select& select, const Emit& emit,
                                                       const Total& total,
                                                       typename Emit::value_type* stage) {
    CudaSeam::warp_tile_compact<VT, G>(member.league_rank(), n, member.team_size(),
                                       member.team_rank(), select, emit,
                                       CudaSeam::AtomicBase<Total>{total}, stage);
  }

  // The block kernel's sort (or a streaming level's half merges) in scratch, a warp a slab.
  template <bool HalfMerge, int Slabs, int R, class K, class V, class Member, class Source,
            class Order>
  KOKKOS_INLINE_FUNCTION static void sort_block(const Member& member, const Source& source,
                                                const ScratchTile<K, V>& tile, const Order& order,
                                                std::int64_t base, std::int64_t count,
                                                std::int64_t block) {
    CudaSeam::sort_block<HalfMerge, Slabs, R, K, V>(member, source, tile, order, base, count,
                                                    block);
  }

  // sort_team's segment in the warps' registers: true when sorted; else `sorted` runs are.
  template <class K, class V, class Tile, class Order>
  KOKKOS_INLINE_FUNCTION static bool team_sort_in_warps(const Tile& tile, std::int64_t n,
                                                        const Order& order, std::int64_t& sorted) {
    using Tuning = typename SortTypes<Kokkos::Cuda, K, V>::Team;
    return CudaSeam::team_sort_in_warps<Tuning, K, V>(tile, n, order, sorted);
  }

  // Segments of one slab, a group of W lanes each.
  template <int W, int R, class K, class V, class TileOf, class Order>
  KOKKOS_INLINE_FUNCTION static void group_sort_segments(const TileOf& tile_of,
                                                         const Order& order) {
    CudaSeam::group_sort_segments<W, R, K, V>(tile_of, order);
  }
};

}  // namespace Ordo::Impl

#endif
#endif
