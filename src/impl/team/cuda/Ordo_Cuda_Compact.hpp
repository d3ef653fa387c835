// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_COMPACT_HPP
#define ORDO_IMPL_CUDA_COMPACT_HPP

// CUDA seam of compaction, warp-level: selections are ballots, counts are popcounts,
// warp counts are scanned in the block, and a lane finds its output position as the tile's base
// plus the selected elements before it. The tile's base comes from
//   LookbackBase  stable, single pass: warp 0 runs the decoupled look-back 32 tiles at a time
//   AtomicBase    unordered: one atomic on the total per tile (warp-aggregated atomics,
//                 aggregated over the whole block)
// Both are called by every thread of a Kokkos CUDA team (vector length 1, so team ranks are
// consecutive lanes); every lane runs the same trip counts, so the ballots see full warps. The
// set operations' tiles take the same look-back after warp_scan_counts, a scan of their threads'
// output counts.

#include <Ordo_BuildOptions.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/team/cuda/Ordo_Cuda_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// Whether the warp seam (warp_tile_compact) stages the kept elements in scratch: where the
// selection tests the element itself (copy_if) or the elements load as vectors. Selections that
// do not read the element (copy_flagged, retrieve_all's map slots) load only the kept ones, after
// the tile's base is known, and need no stage (staging retrieve_all's 8-byte entries, 32 KiB a
// team, measured slower: perf_tests/README.md, copy_if and retrieve_all). Defined on every
// backend: the kernels size their scratch by it.
template <class Select, int G>
inline constexpr bool compact_stages = Select::by_value || G > 1;

}  // namespace Ordo::Impl

#if defined(ORDO_CUDA_SEAM)

namespace Ordo::Impl::CudaSeam {

#if defined(__CUDA_ARCH__)
// One window of a warp's look-back walk (LookbackBase below, the runs' warp_carry_prefix in
// Ordo_Cuda_Runs.hpp): lane l waits for the word of tile nearest - l (before tile 0: an inclusive
// 0). found: the lanes whose word is inclusive; stop: the nearest of them (31 if none); sum: the
// counts of lanes [0, stop], every lane gets it; word: the lane's own.
struct WarpWindow {
  std::uint64_t word;
  unsigned found;
  int stop;
  long long sum;
};

template <class Words>
__device__ __forceinline__ WarpWindow warp_window(const Words& words, std::int64_t nearest,
                                                  int lane) {
  const unsigned full = 0xffffffffu;
  const std::int64_t t = nearest - lane;
  std::uint64_t word = LookbackWord::inclusive;
  if (t >= 0) {
    do {
      word = LookbackWord::read(words(t));
    } while (word == 0);
  }
  const unsigned found = __ballot_sync(full, (word & LookbackWord::inclusive) != 0);
  const int stop = found ? __ffs(found) - 1 : 31;
  long long sum = lane <= stop ? (long long)(word & LookbackWord::value_mask) : 0;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(full, sum, d);
  return {word, found, stop, sum};
}

// warp_inclusive_scan's join for counts.
struct AddCounts {
  __device__ int operator()(int a, int b) const { return a + b; }
};
#endif

// The team's exclusive scan of its threads' counts (the set operations' tiles): each warp's lanes
// by shuffles, the warps' totals through `sums` (a slot a warp of team scratch) and one team
// barrier. Every thread gets both counts. The caller rewrites `sums` only after a later barrier.
template <class Member, class Sums>
KOKKOS_INLINE_FUNCTION TeamCounts warp_scan_counts(const Member& member, int mine,
                                                   const Sums& sums) {
#if defined(__CUDA_ARCH__)
  const int r = member.team_rank(), lane = r & 31, warp = r >> 5;
  const int warps = member.team_size() >> 5;
  const int inclusive = warp_inclusive_scan(mine, lane, AddCounts{});
  if (lane == 31) sums(warp) = inclusive;
  member.team_barrier();
  TeamCounts counts{inclusive - mine, 0};
  for (int u = 0; u < warps; ++u) {
    const int s = sums(u);
    if (u < warp) counts.before += s;
    counts.total += s;
  }
  return counts;
#else
  (void)member, (void)mine, (void)sums;
  return {0, 0};
#endif
}

// Where a stable tile's output starts: the decoupled look-back. Called by the 32 lanes of one
// warp with the tile's count; publishes it, looks back over the words of the 32 preceding tiles at
// a time (each lane waits for its tile's word) up to the nearest inclusive prefix, publishes this
// tile's inclusive prefix, and writes the total when this is the last tile.
template <class StateView, class TotalView>
struct LookbackBase {
  StateView state;  // state(t): tile t's word
  TotalView total;
  std::int64_t tiles;

  // The tile's number: its block's. The GPU starts blocks in the order of their index, so every
  // tile a block looks back on has started (or finished) when it waits on it; no ticket (a global
  // atomic before the tile's loads) is needed. Host backends keep the ticket (CopyIfImpl).
  KOKKOS_INLINE_FUNCTION std::int64_t tile_id(std::int64_t league_rank, int) const {
    return league_rank;
  }

  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t id, int lane,
                                                 std::int64_t kept) const {
#if defined(__CUDA_ARCH__)
    if (lane == 0) {
      LookbackWord::publish(
          state(id),
          (id == 0 ? LookbackWord::inclusive : LookbackWord::aggregate) | std::uint64_t(kept));
    }
    long long prefix = 0;
    for (std::int64_t nearest = id - 1; nearest >= 0; nearest -= 32) {
      const WarpWindow window = warp_window(state, nearest, lane);
      prefix += window.sum;
      if (window.found) break;
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
// most 1024; base.tile_id says which), this thread's rank t, with `stage` (team_size * VT
// elements of the team's scratch where compact_stages). Warp w takes the 32 * VT consecutive
// elements from w * 32 * VT on in VT / G steps of 32 * G: at step s lane l holds elements
// s * 32 * G + l * G + [0, G) (G > 1: one vector load, emit.load_group, in full tiles). Each warp
// ballots its elements; where compact_stages it writes the kept ones, in input order, to the
// front of its part of `stage`, otherwise it keeps the ballots. Warp 0 scans the warp counts and
// asks `base` (LookbackBase or AtomicBase) where the tile's output starts; then each warp stores
// its kept elements to consecutive positions: from `stage` (coalesced), or each lane its own
// kept elements, loaded then.
template <int VT, int G, class Select, class Emit, class Base>
KOKKOS_INLINE_FUNCTION void warp_tile_compact(std::int64_t league_rank, std::int64_t n,
                                              int team_size, int t, const Select& select,
                                              const Emit& emit, const Base& base,
                                              typename Emit::value_type* stage) {
#if defined(__CUDA_ARCH__)
  static_assert(VT % G == 0, "whole groups per thread");
  using T = typename Emit::value_type;
  __syncthreads();  // the stage and the shared words are free (a block may run several teams)
  const std::int64_t id = base.tile_id(league_rank, t);
  __shared__ long long tile_base;
  __shared__ int warp_offsets[32];
  const unsigned full = 0xffffffffu, below = (1u << (t & 31)) - 1u;
  const int lane = t & 31, warp = t >> 5, warps = team_size >> 5;
  const std::int64_t first = id * team_size * VT + std::int64_t(warp) * 32 * VT;
  T* const kept = stage + warp * 32 * VT;
  int count = 0;  // the warp's kept elements so far
  // Stages the kept ones of this lane's group v[0, g) of step s (keep[j]: element j is kept).
  auto stage_group = [&](auto g, const T* v, const bool* keep) {
    constexpr int Gs = decltype(g)::value;
    unsigned m[Gs];
    int before = 0, step = 0;
#pragma unroll
    for (int j = 0; j < Gs; ++j) {
      m[j] = __ballot_sync(full, keep[j]);
      before += __popc(m[j] & below);
      step += __popc(m[j]);
    }
    int p = count + before;
#pragma unroll
    for (int j = 0; j < Gs; ++j) {
      if (keep[j]) kept[p++] = v[j];
    }
    count += step;
  };
  unsigned masks[compact_stages<Select, G> ? 1 : VT];  // the ballots, where not staged
  if constexpr (!compact_stages<Select, G>) {
#pragma unroll
    for (int k = 0; k < VT; ++k) {
      const std::int64_t i = first + 32 * k + lane;
      masks[k] = __ballot_sync(full, i < n && select(i));
      count += __popc(masks[k]);
    }
  } else if (first + 32 * VT <= n) {
    // A full tile: every load unchecked and in flight before the first test.
    T v[VT];
#pragma unroll
    for (int s = 0; s < VT / G; ++s) {
      if constexpr (G > 1) {
        emit.template load_group<G>(first + s * 32 * G + lane * G, &v[s * G]);
      } else if constexpr (Select::by_value) {
        v[s] = emit.load(first + 32 * s + lane);
      }
    }
#pragma unroll
    for (int s = 0; s < VT / G; ++s) {
      bool keep[G];
#pragma unroll
      for (int j = 0; j < G; ++j) {
        if constexpr (Select::by_value) {
          keep[j] = select.of_value(v[s * G + j]);
        } else {
          const std::int64_t i = first + s * 32 * G + lane * G + j;
          keep[j] = select(i);
          if (G == 1 && keep[j]) v[s] = emit.load(i);  // groups are loaded whole, above
        }
      }
      stage_group(std::integral_constant<int, G>{}, &v[s * G], keep);
    }
  } else {
    // The last tile, element by element.
#pragma unroll 1
    for (int k = 0; k < VT; ++k) {
      const std::int64_t i = first + 32 * k + lane;
      T v{};
      bool keep = false;
      if constexpr (Select::by_value) {
        if (i < n) {
          v = emit.load(i);
          keep = select.of_value(v);
        }
      } else {
        keep = i < n && select(i);
        if (keep) v = emit.load(i);
      }
      stage_group(std::integral_constant<int, 1>{}, &v, &keep);
    }
  }
  if (lane == 0) warp_offsets[warp] = count;
  __syncthreads();

  if (warp == 0) {
    const int c = lane < warps ? warp_offsets[lane] : 0;
    const int inclusive = warp_inclusive_scan(c, lane, AddCounts{});
    if (lane < warps) warp_offsets[lane] = inclusive - c;
    const long long start = base(id, lane, __shfl_sync(full, inclusive, 31));
    if (lane == 0) tile_base = start;
  }
  __syncthreads();

  const std::int64_t out = tile_base + warp_offsets[warp];
  const std::int64_t room = emit.capacity() - out;
  if constexpr (compact_stages<Select, G>) {
    for (int j = lane; j < count; j += 32) {
      if (j < room) emit.store(out + j, kept[j]);
    }
  } else {
    int j = 0;  // the warp's kept elements before step k
#pragma unroll
    for (int k = 0; k < VT; ++k) {
      const int at = j + __popc(masks[k] & below);
      if (((masks[k] >> lane) & 1u) && at < room) {
        emit.store(out + at, emit.load(first + 32 * k + lane));
      }
      j += __popc(masks[k]);
    }
  }
#else
  (void)league_rank, (void)n, (void)team_size, (void)t, (void)select, (void)emit, (void)base,
      (void)stage;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
