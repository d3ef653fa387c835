#ifndef ORDO_IMPL_CUDA_COMPACT_HPP
#define ORDO_IMPL_CUDA_COMPACT_HPP

// CUDA seam of compaction (seed 002), warp-level: selections are ballots, counts are popcounts,
// and a lane finds its output position as a base plus the number of selected lanes below it.
//   warp_aggregated_compact  unordered: one atomic per warp claims room for the warp's elements
//   warp_lookback_compact    stable, single pass: warp counts are scanned in the block, and warp 0
//                            runs the decoupled look-back 32 tiles at a time
// Both are called by every thread of a Kokkos CUDA team (vector length 1, so team ranks are
// consecutive lanes); every lane runs the same trip counts, so the ballots see full warps.

#include <Ordo_Config.hpp>
#include <impl/Ordo_LookbackWord.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
#define ORDO_CUDA_WARP_COMPACT 1

namespace Ordo::Impl::CudaSeam {

// The team's tile [begin, end) of team_size * VT elements, this thread's rank t; thread t takes
// elements begin + k * team_size + t, so each warp's lanes cover 32 consecutive elements per step.
// Each warp ballots its selections of all VT steps first, claims room for all of them with one
// atomic (one per 32 * VT elements), then writes each step's selections contiguously.
template <int VT, class Select, class Emit, class TotalView>
KOKKOS_INLINE_FUNCTION void warp_aggregated_compact(std::int64_t begin, std::int64_t end,
                                                    int team_size, int t, const Select& select,
                                                    const Emit& emit, const TotalView& total) {
#if defined(__CUDA_ARCH__)
  using Count = typename TotalView::non_const_value_type;
  const unsigned lane = unsigned(t) & 31u;
  const unsigned below = (1u << lane) - 1u;
  unsigned masks[VT];
  int warp_count = 0;
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t i = begin + std::int64_t(k) * team_size + t;
    masks[k] = __ballot_sync(0xffffffffu, i < end && select(i));
    warp_count += __popc(masks[k]);
  }
  if (warp_count == 0) return;
  Count base = 0;
  if (lane == 0) base = Kokkos::atomic_fetch_add(&total(0), Count(warp_count));
  std::int64_t pos = __shfl_sync(0xffffffffu, (long long)base, 0);
  const std::int64_t capacity = emit.capacity();
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t at = pos + __popc(masks[k] & below);
    if (((masks[k] >> lane) & 1u) && at < capacity) {
      emit.store(at, emit.load(begin + std::int64_t(k) * team_size + t));
    }
    pos += __popc(masks[k]);
  }
#else
  (void)begin, (void)end, (void)team_size, (void)t, (void)select, (void)emit, (void)total;
#endif
}

// Stable single-pass compaction of one tile of team_size * VT elements of [0, n) (team_size a
// multiple of 32, at most 1024). The tile's number comes from the ticket counter state(tiles);
// warp w takes the 32 * VT consecutive elements from w * 32 * VT on, 32 per step, so the output
// order is warp, step, lane: input order. Warp 0 scans the warp counts, publishes the tile's
// count, and looks back over the words of the 32 preceding tiles at a time (each lane waits for
// its tile's word) up to the nearest inclusive prefix.
template <int VT, class Select, class Emit, class StateView, class TotalView>
KOKKOS_INLINE_FUNCTION void warp_lookback_compact(std::int64_t n, std::int64_t tiles, int team_size,
                                                  int t, const Select& select, const Emit& emit,
                                                  const StateView& state, const TotalView& total) {
#if defined(__CUDA_ARCH__)
  __shared__ long long tile_id, tile_prefix;
  __shared__ int warp_offsets[32];
  const unsigned full = 0xffffffffu;
  const int lane = t & 31, warp = t >> 5, warps = team_size >> 5;
  __syncthreads();  // the shared words are free (a block may run several teams)
  if (t == 0) tile_id = (long long)atomicAdd((unsigned long long*)&state(tiles), 1ull);
  __syncthreads();
  const std::int64_t id = tile_id;
  const std::int64_t first = id * team_size * VT + std::int64_t(warp) * 32 * VT;
  const std::int64_t end = n;

  unsigned masks[VT];
  int count = 0;
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t i = first + 32 * k + lane;
    masks[k] = __ballot_sync(full, i < end && select(i));
    count += __popc(masks[k]);
  }
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
    const std::int64_t kept = __shfl_sync(full, inclusive, 31);
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
      tile_prefix = prefix;
    }
  }
  __syncthreads();

  std::int64_t pos = tile_prefix + warp_offsets[warp];
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
  (void)n, (void)tiles, (void)team_size, (void)t, (void)select, (void)emit, (void)state,
      (void)total;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
