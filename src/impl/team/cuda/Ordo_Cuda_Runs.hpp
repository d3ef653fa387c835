// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_RUNS_HPP
#define ORDO_IMPL_CUDA_RUNS_HPP

// CUDA seam of the runs' tiles (team/Ordo_TileRuns.hpp: reduce_by_key, run_length_encode, the
// scans by key), warp-level:
//   warp_scan_partials  the team's scan of its threads' partials by shuffles inside each warp,
//                       the warps' totals through scratch and one team barrier, where the
//                       portable scan takes log2(team) rounds of two barriers each
//   warp_carry_prefix   the segmented look-back (TileLookback::carry_prefix) walked by one warp,
//                       a lane a word, 32 words at once, so that no thread holds a window of words
//                       and carried values in registers
// The order of the joins is fixed (the lanes' scan, then the warps' totals left to right; the
// carried values folded left to right as the portable walk does), so floating-point reductions
// give the same bits on every run. Called by the threads of a Kokkos CUDA team of whole warps
// (vector length 1, so team ranks are consecutive lanes).

#include <Ordo_BuildOptions.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/team/cuda/Ordo_Cuda_Compact.hpp>
#include <impl/team/cuda/Ordo_Cuda_Slab.hpp>

#include <Kokkos_Core.hpp>

#if defined(ORDO_CUDA_SEAM)

namespace Ordo::Impl::CudaSeam {

// The team's scan of its threads' partials `mine` under `join` (associative, a before b; P an
// aggregate of heads and value): `before` gets the join of the partials of threads [0, r) (unset
// for thread 0) and `tile` the join of threads [0, last_thread]; the partials of threads after
// last_thread are never joined into either. Every thread gets both. heads and values: a slot a
// warp of team scratch, read after the one team barrier: the caller rewrites them only after a
// later one.
template <int Team, class Member, class P, class Join, class Heads, class Values>
KOKKOS_INLINE_FUNCTION void warp_scan_partials(const Member& member, int last_thread, const P& mine,
                                               const Join& join, const Heads& heads,
                                               const Values& values, P& before, P& tile) {
  static_assert(Team % 32 == 0, "the warp seam's teams are whole warps");
#if defined(__CUDA_ARCH__)
  const int r = member.team_rank(), lane = r & 31, warp = r >> 5, last_warp = last_thread >> 5;
  // The lanes' inclusive scan, then each lane's exclusive one (its lower neighbour's inclusive).
  const P inclusive = warp_inclusive_scan(mine, lane, join);
  const P exclusive = shfl_up(inclusive, 1);
  // Each warp's total: its last lane's inclusive, or the last thread's in the last warp.
  const int last_lane = warp < last_warp ? 31 : last_thread & 31;
  if (warp <= last_warp && lane == last_lane) {
    heads(warp) = inclusive.heads;
    values(warp) = inclusive.value;
  }
  member.team_barrier();
  // The warps' totals joined left to right: those before this warp, then the lanes before this
  // one; the tile's from every warp that holds an element.
  P prefix = {heads(0), values(0)};
#pragma unroll
  for (int u = 1; u < Team / 32; ++u) {
    if (u > last_warp) break;
    if (u == warp) before = prefix;
    prefix = join(prefix, P{heads(u), values(u)});
  }
  tile = prefix;
  if (lane > 0) before = warp == 0 ? exclusive : join(before, exclusive);
#else
  (void)member;
  (void)last_thread;
  (void)mine;
  (void)join;
  (void)heads;
  (void)values;
  (void)before;
  (void)tile;
#endif
}

// TileLookback::carry_prefix walked by the 32 lanes of one warp (the same words, carried values
// and result): tile id counts `sum` run heads and ends in an open run of partial value `own`.
// Returns the heads before the tile and sets `carry` to the open run's value at its start (unset
// for tile 0). The warp reads 32 words at a time (warp_window, the compaction's walk) back to the
// nearest inclusive word; the fold starts at the nearest tile with a head or that inclusive word
// and adds the aggregates after it left to right, 32 loads in flight.
template <class Words, class Carries, class V, class Op>
KOKKOS_INLINE_FUNCTION std::int64_t warp_carry_prefix(int lane, std::int64_t id, std::int64_t sum,
                                                      const V& own, const Words& words,
                                                      const Carries& carries, const Op& op,
                                                      V& carry) {
#if defined(__CUDA_ARCH__)
  constexpr unsigned full = 0xffffffffu;
  if (lane == 0) {
    carries.store(id, id == 0 ? Carries::inclusive : Carries::aggregate, own);
    __threadfence();
    LookbackWord::publish(words(id), (id == 0 ? LookbackWord::inclusive : LookbackWord::aggregate) |
                                         std::uint64_t(sum));
  }
  if (id == 0) return 0;
  long long count = 0;
  std::int64_t from = -1;
  bool from_inclusive = false;
  for (std::int64_t nearest = id - 1;; nearest -= 32) {
    const WarpWindow window = warp_window(words, nearest, lane);
    // The nearest tile with a head of its own or the inclusive word: where the fold starts.
    const bool starts = lane <= window.stop && ((window.word & LookbackWord::inclusive) != 0 ||
                                                (window.word & LookbackWord::value_mask) != 0);
    const unsigned start = __ballot_sync(full, starts);
    if (from < 0 && start) {
      const int s = __ffs(start) - 1;
      from = nearest - s;
      from_inclusive = s == window.stop && window.found;
    }
    count += window.sum;
    if (window.found) break;
  }
  __syncwarp();  // the words every lane saw, ordered before any lane's loads of the values
  __threadfence();
  V fold = carries.load(from, from_inclusive ? Carries::inclusive : Carries::aggregate);
  for (std::int64_t first = from + 1; first < id; first += 32) {
    const V a = first + lane < id ? carries.load(first + lane, Carries::aggregate) : fold;
    const int m = id - first < 32 ? int(id - first) : 32;
    for (int i = 0; i < m; ++i) fold = op(fold, shfl_idx(a, i));
  }
  carry = fold;
  if (lane == 0) {
    carries.store(id, Carries::inclusive, sum > 0 ? own : op(fold, own));
    __threadfence();
    LookbackWord::publish(words(id), LookbackWord::inclusive | std::uint64_t(count + sum));
  }
  return count;
#else
  (void)lane;
  (void)id;
  (void)sum;
  (void)own;
  (void)words;
  (void)carries;
  (void)op;
  (void)carry;
  return 0;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
