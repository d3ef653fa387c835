// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_COMPACT_HPP
#define ORDO_IMPL_CUDA_COMPACT_HPP

// CUDA seam of compaction (seed 002), warp-level: selections are ballots, counts are popcounts,
// warp counts are scanned in the block, and a lane finds its output position as the tile's base
// plus the selected elements before it. The tile's base comes from
//   LookbackBase  stable, single pass: warp 0 runs the decoupled look-back 32 tiles at a time
//   AtomicBase    unordered: one atomic on the total per tile (seed 002's aggregated atomics,
//                 aggregated over the whole block)
// Both are called by every thread of a Kokkos CUDA team (vector length 1, so team ranks are
// consecutive lanes); every lane runs the same trip counts, so the ballots see full warps.

#include <Ordo_Config.hpp>
#include <impl/Ordo_LookbackWord.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
#define ORDO_CUDA_WARP_COMPACT 1

namespace Ordo::Impl::CudaSeam {

// Where a stable tile's output starts: the decoupled look-back. Called by the 32 lanes of one
// warp with the tile's count; publishes it, looks back over the words of the 32 preceding tiles at
// a time (each lane waits for its tile's word) up to the nearest inclusive prefix, publishes this
// tile's inclusive prefix, and writes the total when this is the last tile.
template <class StateView, class TotalView>
struct LookbackBase {
  StateView state;  // state(t): tile t's word; state(tiles): the ticket counter
  TotalView total;
  std::int64_t tiles;

  // The tile's number: the next ticket (tiles are numbered in the order they start).
  KOKKOS_INLINE_FUNCTION std::int64_t tile_id(std::int64_t, int t) const {
#if defined(__CUDA_ARCH__)
    __shared__ long long id;
    __syncthreads();  // the shared word is free (a block may run several teams)
    if (t == 0) id = (long long)atomicAdd((unsigned long long*)&state(tiles), 1ull);
    __syncthreads();
    return id;
#else
    (void)t;
    return 0;
#endif
  }

  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t id, int lane,
                                                 std::int64_t kept) const {
#if defined(__CUDA_ARCH__)
    const unsigned full = 0xffffffffu;
    if (lane == 0) {
      LookbackWord::publish(
          state(id),
          (id == 0 ? LookbackWord::inclusive : LookbackWord::aggregate) | std::uint64_t(kept));
    }
    long long prefix = 0;
    for (std::int64_t nearest = id - 1; nearest >= 0; nearest -= 32) {
      const std::int64_t j = nearest - lane;
      std::uint64_t word = LookbackWord::inclusive;  // before tile 0: an inclusive 0
      if (j >= 0) {
        do {
          word = LookbackWord::read(state(j));
        } while (word == 0);
      }
      const unsigned found = __ballot_sync(full, (word & LookbackWord::inclusive) != 0);
      const int stop = found ? __ffs(found) - 1 : 31;
      long long value = lane <= stop ? (long long)(word & LookbackWord::value_mask) : 0;
#pragma unroll
      for (int d = 16; d > 0; d >>= 1) value += __shfl_xor_sync(full, value, d);
      prefix += value;
      if (found) break;
    }
    if (lane == 0) {
      if (id > 0) {
        LookbackWord::publish(state(id), LookbackWord::inclusive | std::uint64_t(prefix + kept));
      }
      if (id == tiles - 1) total(0) = typename TotalView::non_const_value_type(prefix + kept);
    }
    return prefix;
#else
    (void)id, (void)lane, (void)kept;
    return 0;
#endif
  }
};

// Where an unordered tile's output starts: one atomic on the total claims room for the tile.
template <class TotalView>
struct AtomicBase {
  TotalView total;

  KOKKOS_INLINE_FUNCTION std::int64_t tile_id(std::int64_t league_rank, int) const {
    return league_rank;
  }

  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t, int lane, std::int64_t kept) const {
#if defined(__CUDA_ARCH__)
    using Count = typename TotalView::non_const_value_type;
    long long base = 0;
    if (lane == 0 && kept > 0) base = (long long)Kokkos::atomic_fetch_add(&total(0), Count(kept));
    return __shfl_sync(0xffffffffu, base, 0);
#else
    (void)lane, (void)kept;
    return 0;
#endif
  }
};

// Compaction of one tile of team_size * VT elements of [0, n) (team_size a multiple of 32, at
// most 1024; base.tile_id says which), this thread's rank t. Warp w takes the 32 * VT consecutive
// elements from w * 32 * VT on, 32 per step, so the tile's output order is warp, step, lane: input
// order. Each warp ballots its VT steps, warp 0 scans the warp counts and asks `base` (LookbackBase
// or AtomicBase) where the tile's output starts, then every lane writes its selected elements.
template <int VT, class Select, class Emit, class Base>
KOKKOS_INLINE_FUNCTION void warp_tile_compact(std::int64_t league_rank, std::int64_t n,
                                              int team_size, int t, const Select& select,
                                              const Emit& emit, const Base& base) {
#if defined(__CUDA_ARCH__)
  const std::int64_t id = base.tile_id(league_rank, t);
  __shared__ long long tile_base;
  __shared__ int warp_offsets[32];
  const unsigned full = 0xffffffffu;
  const int lane = t & 31, warp = t >> 5, warps = team_size >> 5;
  const std::int64_t first = id * team_size * VT + std::int64_t(warp) * 32 * VT;

  unsigned masks[VT];
  int count = 0;
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t i = first + 32 * k + lane;
    masks[k] = __ballot_sync(full, i < n && select(i));
    count += __popc(masks[k]);
  }
  __syncthreads();  // the shared words are free (a block may run several teams)
  if (lane == 0) warp_offsets[warp] = count;
  __syncthreads();

  if (warp == 0) {
    const int c = lane < warps ? warp_offsets[lane] : 0;
    int inclusive = c;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int y = __shfl_up_sync(full, inclusive, d);
      if (lane >= d) inclusive += y;
    }
    if (lane < warps) warp_offsets[lane] = inclusive - c;
    const long long start = base(id, lane, __shfl_sync(full, inclusive, 31));
    if (lane == 0) tile_base = start;
  }
  __syncthreads();

  std::int64_t pos = tile_base + warp_offsets[warp];
  const unsigned below = (1u << lane) - 1u;
  const std::int64_t capacity = emit.capacity();
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t at = pos + __popc(masks[k] & below);
    if (((masks[k] >> lane) & 1u) && at < capacity)
      emit.store(at, emit.load(first + 32 * k + lane));
    pos += __popc(masks[k]);
  }
#else
  (void)league_rank, (void)n, (void)team_size, (void)t, (void)select, (void)emit, (void)base;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
