// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_WARPSEAM_HPP
#define ORDO_IMPL_WARPSEAM_HPP

// The team-level seam: the team operations the tile agents take from one object, a template
// parameter `Seam` of every tile that has a warp-level form, chosen in one place (with_warp_seam
// below, or WarpSeam<ExecSpace> where a tile has no other choice):
//   TeamSeam                the portable operations, every backend (the primary template's)
//   WarpSeam<ExecSpace>     the space's seam: TeamSeam, except where a backend seam specializes it
//                           (team/cuda/Ordo_Cuda_WarpSeam.hpp: Kokkos::Cuda's shuffles, ballots
//                           and warp look-back walks)
// Both answer the same calls with the same results:
//   tile_id             the tile a team takes: a ticket, or (CUDA) its block's index
//   scan_counts         the team's exclusive scan of its threads' counts, and their total
//   tile_prefix         a tile's output offset from the look-back, the total at the last tile
//   scan_partials       the team's scan of its threads' run partials (a fixed order of joins)
//   carry_prefix        the segmented look-back of the runs' tiles (heads before, carried value)
//   radix_position      the tile position of a thread's k-th key of a radix pass
//   radix_rank          a radix pass's count of its keys by digit, a column of counters each
// Whole tiles that only warps run (compaction by ballots, the sort blocks' slabs) are members of
// the CUDA seam alone; a tile calls them under `if constexpr (Seam::warp)`, so no portable tile
// names a backend. Every tile runs on TeamSeam on every backend (the tests force it on CUDA).

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/cuda/Ordo_Cuda_WarpSeam.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

struct TeamSeam {
  static constexpr bool warp = false;

  // Team scratch slots scan_counts takes (of int).
  KOKKOS_INLINE_FUNCTION static constexpr int count_slots(int) { return 1; }
  // Counter columns of a radix pass's team (a thread each, at most radix_max_columns: a column's
  // 256 counters take 512 bytes of scratch), and the column thread t counts in: consecutive
  // threads share one, so that a column's keys are one run of the tile.
  static constexpr int radix_max_columns = 32;
  KOKKOS_INLINE_FUNCTION static constexpr int radix_columns(int team_size) {
    return team_size < radix_max_columns ? team_size : radix_max_columns;
  }
  KOKKOS_INLINE_FUNCTION static int radix_column(int t, int team_size) {
    return t / (team_size / radix_columns(team_size));
  }

  // The tile this team takes: a ticket from words(tiles), in the order teams start, so that every
  // tile it looks back on has started.
  template <class Member, class Words>
  KOKKOS_INLINE_FUNCTION static std::int64_t tile_id(const Member& member, const Words& words,
                                                     std::int64_t tiles) {
    return tile_lookback(words).ticket(member, tiles);
  }

  // The exclusive scan of the threads' counts (`before`) and their total; `slots`: count_slots
  // ints of team scratch, rewritten only after a later barrier. Ends with a team barrier.
  template <class Member, class Slots>
  KOKKOS_INLINE_FUNCTION static TeamCounts scan_counts(const Member& member, int mine,
                                                       const Slots& slots) {
    const int before = member.team_scan(mine);
    if (member.team_rank() == member.team_size() - 1) slots(0) = before + mine;
    member.team_barrier();
    return {before, slots(0)};
  }

  // Tile id's output offset, given its count `kept` (every thread gets it; the team's scratch
  // writes before the call are seen after it): one thread publishes the count and walks back,
  // Window words at a time; the last tile writes the total. prefix_slot: one int64 of scratch.
  template <int Window, class Member, class Words, class Total, class Slot>
  KOKKOS_INLINE_FUNCTION static std::int64_t tile_prefix(const Member& member, std::int64_t id,
                                                         std::int64_t kept, const Words& words,
                                                         const Total& total, std::int64_t tiles,
                                                         const Slot& prefix_slot) {
    (void)prefix_slot;
    member.team_barrier();
    const std::int64_t prefix = tile_lookback(words).template prefix<Window>(member, id, kept);
    if (id == tiles - 1 && member.team_rank() == 0) {
      total(0) = typename Total::non_const_value_type(prefix + kept);
    }
    return prefix;
  }

  // The team's scan of its threads' partials `mine` under `join` (associative, a before b; P an
  // aggregate of heads and value), Hillis and Steele: a fixed order, so floating-point joins give
  // the same bits on every run. `before` gets the join of threads [0, r) (unset for thread 0),
  // `tile` of threads [0, last_thread] (the partials after it are never read). heads, values:
  // Team slots of scratch.
  template <int Team, class Member, class P, class Join, class Heads, class Values>
  KOKKOS_INLINE_FUNCTION static void scan_partials(const Member& member, int last_thread, P mine,
                                                   const Join& join, const Heads& heads,
                                                   const Values& values, P& before, P& tile) {
    const int r = member.team_rank();
    heads(r) = mine.heads;
    values(r) = mine.value;
    for (int d = 1; d < Team; d *= 2) {
      member.team_barrier();
      const P sum = r >= d ? join(P{heads(r - d), values(r - d)}, mine) : mine;
      member.team_barrier();
      mine = sum;
      heads(r) = mine.heads;
      values(r) = mine.value;
    }
    member.team_barrier();
    if (r > 0) before = {heads(r - 1), values(r - 1)};
    tile = {heads(last_thread), values(last_thread)};
    member.team_barrier();
  }

  // TileLookback::carry_prefix, walked by thread 0 (r: the caller's team rank): tile id counts
  // `sum` run heads and ends in an open run of partial value `own`. Returns the heads before the
  // tile and sets `carry` to the open run's value at its start, both on thread 0 only.
  template <int Window, class Words, class Carries, class V, class Op>
  KOKKOS_INLINE_FUNCTION static std::int64_t carry_prefix(int r, std::int64_t id, std::int64_t sum,
                                                          const V& own, const Words& words,
                                                          const Carries& carries, const Op& op,
                                                          V& carry) {
    if (r != 0) return 0;
    return tile_lookback(words).template carry_prefix<Window>(id, sum, own, carries, op, carry);
  }

  // A radix pass's tile positions: thread t owns [t * Items, (t + 1) * Items) in order.
  template <int Items>
  KOKKOS_INLINE_FUNCTION static int radix_position(int t, int k) {
    return t * Items + k;
  }

  // A radix pass's count: thread r counts its own keys, in order, in its column (radix_column) of
  // counters(digit * columns + column), the threads sharing a column one after another in team
  // order (a barrier between turns); rank[k]: the keys of key[k]'s digit its column counted before
  // it. Ends with a team barrier.
  template <int Items, class Member, class K, class Counters>
  KOKKOS_INLINE_FUNCTION static void radix_rank(const Member& member, const K (&key)[Items],
                                                int pass, int (&rank)[Items],
                                                const Counters& counters) {
    const int team = member.team_size(), r = member.team_rank();
    const int columns = radix_columns(team), turns = team / columns;
    const int column = radix_column(r, team);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits * columns),
                         [&](int j) { counters(j) = 0; });
    member.team_barrier();
    for (int turn = 0; turn < turns; ++turn) {
      if (r % turns == turn) {
        for (int k = 0; k < Items; ++k) {
          auto& c = counters(radix_digit(key[k], pass) * columns + column);
          rank[k] = c;
          c = c + 1;
        }
      }
      member.team_barrier();
    }
  }
};

template <class ExecSpace>
struct WarpSeam : TeamSeam {};

// Calls launch(WarpSeam<ExecSpace>{}) where `warp` asks for the space's seam, else
// launch(TeamSeam{}) (the portable tiles, on every backend).
template <class ExecSpace, class Launch>
void with_warp_seam(bool warp, const Launch& launch) {
  if constexpr (WarpSeam<ExecSpace>::warp) {
    if (warp) {
      launch(WarpSeam<ExecSpace>{});
      return;
    }
  }
  (void)warp;
  launch(TeamSeam{});
}

}  // namespace Ordo::Impl

#endif
