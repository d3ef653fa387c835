// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILESETOPS_HPP
#define ORDO_IMPL_TILESETOPS_HPP

// Lane and team level of the set operations: the walk of std::set_<op> as a loop (set_walk: the
// host backends' pieces and the team-level intersection) and as one step at a time in registers
// (SetWalk: the device tiles), a piece of the walk between two balanced-path cuts, and the
// team-level intersection.
//
// std::set_<op> on sorted ranges with duplicates pairs the r-th copy of a key in A with its r-th
// copy in B. A step consumes the smaller head, or both heads when they are equal (a pair), and
// emits at most one element:
//   intersection          a pair emits its A element
//   union                 everything emits; a pair emits its A element only
//   difference            an unpaired A element emits
//   symmetric difference  an unpaired element of either side emits
// Cut on the balanced path (Ordo_MergePath.hpp), the walk's pieces are set operations of their
// own whose outputs, concatenated, are the whole output.

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileMerge.hpp>
#include <impl/team/Ordo_TileRange.hpp>
#include <impl/team/Ordo_WarpSeam.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

enum class SetOp { intersection, set_union, difference, symmetric_difference };

// Whether an element of A alone, of B alone, or a pair emits under Op.
template <SetOp Op>
struct SetRule {
  static constexpr bool a_alone = Op != SetOp::intersection;
  static constexpr bool b_alone = Op == SetOp::set_union || Op == SetOp::symmetric_difference;
  static constexpr bool pair = Op == SetOp::intersection || Op == SetOp::set_union;
};

// The walk over a[ai, a_end) and b[bi, b_end), the heads kept in registers. step() consumes one
// head, or both when they are equal (a pair), and returns whether it emits; index: the consumed
// A element's, else the B element's. Once both ranges are consumed a step consumes and emits
// nothing, so a fixed number of steps needs no test of the end.
template <SetOp Op, class Index, class AView, class BView, class Comp>
struct SetWalk {
  using Key = typename AView::non_const_value_type;
  using Rule = SetRule<Op>;
  const AView& a;
  const BView& b;
  const Comp& comp;
  Index ai, a_end, bi, b_end;
  Key ak{}, bk{};

  KOKKOS_INLINE_FUNCTION SetWalk(const AView& a_, Index ai_, Index a_end_, const BView& b_,
                                 Index bi_, Index b_end_, const Comp& comp_)
      : a(a_), b(b_), comp(comp_), ai(ai_), a_end(a_end_), bi(bi_), b_end(b_end_) {
    if (ai < a_end) ak = a(ai);
    if (bi < b_end) bk = b(bi);
  }

  KOKKOS_INLINE_FUNCTION bool step(Index& index) {
    const bool has_a = ai < a_end, has_b = bi < b_end;
    const bool take_a = has_a && (!has_b || !comp(bk, ak));
    const bool take_b = has_b && (!has_a || !comp(ak, bk));
    index = take_a ? ai : bi;
    const bool emits = take_a ? (take_b ? Rule::pair : Rule::a_alone) : take_b && Rule::b_alone;
    if (take_a && ++ai < a_end) ak = a(ai);
    if (take_b && ++bi < b_end) bk = b(bi);
    return emits;
  }
};

// The walk over a[ai, a_end) and b[bi, b_end): emit(from_a, index) for each output, in order
// (the loop of std::set_<op>: one comparison while the heads differ, the rest of A or B emitted
// without one; the host backends' pieces and set_intersection_team).
template <SetOp Op, class Index, class AView, class BView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void set_walk(const AView& a, Index ai, Index a_end, const BView& b,
                                     Index bi, Index b_end, const Comp& comp, const Emit& emit) {
  using Rule = SetRule<Op>;
  while (ai < a_end && bi < b_end) {
    if (comp(a(ai), b(bi))) {
      if (Rule::a_alone) emit(true, ai);
      ++ai;
    } else if (comp(b(bi), a(ai))) {
      if (Rule::b_alone) emit(false, bi);
      ++bi;
    } else {
      if (Rule::pair) emit(true, ai);
      ++ai;
      ++bi;
    }
  }
  if constexpr (Rule::a_alone) {
    for (; ai < a_end; ++ai) emit(true, ai);
  }
  if constexpr (Rule::b_alone) {
    for (; bi < b_end; ++bi) emit(false, bi);
  }
}

// Piece c of `pieces` of the walk over whole Views a and b, cut on the balanced path at even
// diagonals: A's [a0, a1) and B's [b0, b1).
struct SetPieceRange {
  std::int64_t a0, a1, b0, b1;
};

template <class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION SetPieceRange set_piece_range(const AView& a, const BView& b, std::int64_t c,
                                                     std::int64_t pieces, const Comp& comp) {
  const std::int64_t m = a.extent(0), n = b.extent(0), total = m + n;
  auto cut = [&](std::int64_t p) {
    return balanced_path<std::int64_t>(a, 0, m, b, 0, n, chunk_begin(total, pieces, p), comp);
  };
  // A piece holds its diagonals and at most one element of a cut.
  const std::int64_t room = chunk_begin(total, pieces, c + 1) - chunk_begin(total, pieces, c) + 1;
  const auto first = cut(c), last = cut(c + 1);
  const std::int64_t a_end = piece_end(last.first, first.first, room);
  const std::int64_t b_end = piece_end(last.second, first.second, room - (a_end - first.first));
  return {first.first, a_end, first.second, b_end};
}

// Piece c of `pieces` of the walk: emit(from_a, index) for each of its outputs.
template <SetOp Op, class AView, class BView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void set_piece(const AView& a, const BView& b, std::int64_t c,
                                      std::int64_t pieces, const Comp& comp, const Emit& emit) {
  const SetPieceRange r = set_piece_range(a, b, c, pieces, comp);
  set_walk<Op>(a, r.a0, r.a1, b, r.b0, r.b1, comp, emit);
}

// Chunk c of `chunks` as Ways walks interleaved (host backends): pieces c * Ways + w of
// chunks * Ways, their steps in lockstep (InterleavedPieces) with no branch on the comparisons,
// so that a core overlaps the pieces' loads where a single walk waits on each comparison. Every
// step stages its candidate at k[w] (stage.select: the taken head, A's on a pair) and moves k[w]
// on only where the step emits, so a slot a step did not emit into is overwritten by the next
// output or lies past the piece's count (a step consumes at least one element, so a piece's
// outputs stay inside its room); the rest of each piece walks one step at a time
// (stage(k, from_a, index)). k[w] enters as piece w's first slot and leaves past its last output.
template <SetOp Op, int Ways, class AView, class BView, class Comp, class Stage>
inline void set_chunk_interleaved(const AView& a, const BView& b, std::int64_t c,
                                  std::int64_t chunks, const Comp& comp, std::int64_t (&k)[Ways],
                                  const Stage& stage) {
  using Rule = SetRule<Op>;
  InterleavedPieces<Ways> p;
  for (int w = 0; w < Ways; ++w) {
    const SetPieceRange r = set_piece_range(a, b, c * Ways + w, chunks * Ways, comp);
    p.i[w] = r.a0;
    p.i_end[w] = r.a1;
    p.j[w] = r.b0;
    p.j_end[w] = r.b1;
  }
  auto &i = p.i, &j = p.j;
  while (const std::int64_t steps = p.lockstep()) {
    for (std::int64_t s = 0; s < steps; ++s) {
      for (int w = 0; w < Ways; ++w) {
        const auto x = a(i[w]);
        const auto y = b(j[w]);
        // As set_walk's branches: a comparator that holds both ways takes A alone, so that
        // every step consumes an element.
        const bool a_first = comp(x, y), b_first = comp(y, x) & !a_first;
        const bool emits = (Rule::a_alone & a_first) | (Rule::b_alone & b_first) |
                           (Rule::pair & !a_first & !b_first);
        stage.select(k[w], !b_first, i[w], j[w], x, y);
        k[w] += emits;
        i[w] += !b_first;
        j[w] += !a_first;
      }
    }
  }
  for (int w = 0; w < Ways; ++w) {
    set_walk<Op>(a, i[w], p.i_end[w], b, j[w], p.j_end[w], comp,
                 [&](bool from_a, std::int64_t index) { stage(k[w]++, from_a, index); });
  }
}

// Team-level intersection (set_intersection_team): each thread walks one piece twice, to count
// its outputs and, after a team scan, to write them; writes past out's end are dropped.
// Returns the full output size to every thread.
template <class Member, class AView, class BView, class OutView, class Comp>
KOKKOS_INLINE_FUNCTION std::int64_t team_set_intersection(const Member& member, const AView& a,
                                                          const BView& b, const OutView& out,
                                                          const Comp& comp) {
  const std::int64_t pieces = member.team_size(), c = member.team_rank();
  const std::int64_t capacity = out.extent(0);
  std::int64_t mine = 0;
  set_piece<SetOp::intersection>(a, b, c, pieces, comp, [&](bool, std::int64_t) { ++mine; });
  std::int64_t pos = member.team_scan(mine);
  set_piece<SetOp::intersection>(a, b, c, pieces, comp, [&](bool, std::int64_t i) {
    if (pos < capacity) out(pos) = a(i);
    ++pos;
  });
  std::int64_t all = mine;
  member.team_reduce(Kokkos::Sum<std::int64_t>(all));
  member.team_barrier();
  return all;
}

// One team per tile of about team_size * VT elements of A and B (a cut may add one), on the team
// seam Seam (team/Ordo_WarpSeam.hpp): the tile's number, the scan of the threads' output counts
// and the look-back (on CUDA the block's index, warp shuffles and a walk by warp 0; portable a
// ticket, the team's scan and a walk by one thread).
template <SetOp Op, int VT, int Window, class Seam, class ExecSpace, class AView, class BView,
          class Emit, class Cuts, class Words, class Total, class Comp>
struct SetTiles {
  using Key = typename AView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using KeyTile = Kokkos::View<Key*, Scratch, Kokkos::MemoryUnmanaged>;
  using IndexTile = Kokkos::View<int*, Scratch, Kokkos::MemoryUnmanaged>;
  using PrefixSlot = Kokkos::View<std::int64_t*, Scratch, Kokkos::MemoryUnmanaged>;

  AView a;
  BView b;
  Emit emit;
  Cuts cuts;
  Words words;  // words(t): tile t's look-back word; words(tiles): the ticket counter
  Total total;
  std::int64_t tiles;
  Comp comp;

  static std::size_t scratch_bytes(int team_size) {
    const std::size_t tile = std::size_t(team_size) * VT + 1;
    return KeyTile::shmem_size(tile + 1) + IndexTile::shmem_size(tile) +
           IndexTile::shmem_size(2 * (team_size + 1)) +
           IndexTile::shmem_size(Seam::count_slots(team_size)) + PrefixSlot::shmem_size(1);
  }
  std::size_t team_shmem_size(int team_size) const { return scratch_bytes(team_size); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int nt = member.team_size(), t = member.team_rank();
    const int tile_size = nt * VT + 1;
    KeyTile keys(member.team_scratch(0), tile_size + 1);
    IndexTile slots(member.team_scratch(0), tile_size);
    IndexTile split(member.team_scratch(0), 2 * (nt + 1));
    IndexTile sums(member.team_scratch(0), Seam::count_slots(nt));
    PrefixSlot prefix_slot(member.team_scratch(0), 1);

    const std::int64_t id = Seam::tile_id(member, words, tiles);
    const std::int64_t a0 = cuts(2 * id), b0 = cuts(2 * id + 1);
    const std::int64_t a1 = piece_end<std::int64_t>(cuts(2 * id + 2), a0, tile_size);
    const int na = int(a1 - a0);
    const int nb = int(piece_end<std::int64_t>(cuts(2 * id + 3), b0, tile_size - na) - b0);
    const int count = na + nb;
    tile_load<VT>(member, a, a0, na, b, b0, nb, keys);
    member.team_barrier();

    // The threads' cuts inside the tile (the tile is a set operation of its own).
    {
      const int diag = t * VT < count ? t * VT : count;
      const auto cut = balanced_path<int>(keys, 0, na, keys, na, nb, diag, comp);
      split(2 * t) = cut.first;
      split(2 * t + 1) = cut.second;
      if (t == nt - 1) {
        split(2 * nt) = na;
        split(2 * nt + 1) = nb;
      }
    }
    member.team_barrier();

    // Walk the piece in registers: at most VT + 1 steps (a cut may add one element).
    SetWalk<Op, int, KeyTile, KeyTile, Comp> walk(keys, split(2 * t), split(2 * t + 2), keys,
                                                  na + split(2 * t + 1), na + split(2 * t + 3),
                                                  comp);
    int src[VT + 1];
    unsigned emitted = 0;
    ORDO_UNROLL
    for (int k = 0; k < VT + 1; ++k) {
      if (walk.step(src[k])) emitted |= 1u << k;
    }
    const int mine = Kokkos::popcount(emitted);
    // The threads' pieces hold at most count outputs together, unless the input is not sorted:
    // then only the first count are kept.
    auto stage = [&](int pos) {
      ORDO_UNROLL
      for (int k = 0; k < VT + 1; ++k) {
        if ((emitted & (1u << k)) && pos < count) slots(pos++) = src[k];
      }
    };
    const TeamCounts counts = Seam::scan_counts(member, mine, sums);
    stage(counts.before);
    const int kept = counts.total < count ? counts.total : count;
    const std::int64_t prefix =
        Seam::template tile_prefix<Window>(member, id, kept, words, total, tiles, prefix_slot);

    const std::int64_t capacity = emit.capacity();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, kept), [&](int i) {
      const int s = slots(i);
      if (prefix + i < capacity) {
        emit.store(prefix + i, keys(s), s < na, s < na ? a0 + s : b0 + (s - na));
      }
    });
  }
};

}  // namespace Ordo::Impl

#endif
