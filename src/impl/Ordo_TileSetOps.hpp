// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILESETOPS_HPP
#define ORDO_IMPL_TILESETOPS_HPP

// Lane and team level of the set operations: one step of std::set_<op> (the walk every level
// runs), a piece of the walk between two balanced-path cuts, and the team-level intersection.
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

#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_Traits.hpp>

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
// head, or both when they are equal (a pair), and returns whether it emits, and from where
// (from_a, index).
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
  KOKKOS_INLINE_FUNCTION bool done() const { return ai >= a_end && bi >= b_end; }

  KOKKOS_INLINE_FUNCTION bool step(bool& from_a, Index& index) {
    const bool has_a = ai < a_end, has_b = bi < b_end;
    const bool a_first = has_a && (!has_b || comp(ak, bk));
    const bool b_first = !a_first && has_b && (!has_a || comp(bk, ak));
    from_a = !b_first;
    index = b_first ? bi : ai;
    if (!b_first && ++ai < a_end) ak = a(ai);
    if (!a_first && ++bi < b_end) bk = b(bi);
    return a_first ? Rule::a_alone : b_first ? Rule::b_alone : Rule::pair;
  }
};

// The walk over a[ai, a_end) and b[bi, b_end): emit(from_a, index) for each output, in order.
template <SetOp Op, class Index, class AView, class BView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void set_walk(const AView& a, Index ai, Index a_end, const BView& b,
                                     Index bi, Index b_end, const Comp& comp, const Emit& emit) {
  SetWalk<Op, Index, AView, BView, Comp> w(a, ai, a_end, b, bi, b_end, comp);
  while (!w.done()) {
    bool from_a;
    Index index;
    if (w.step(from_a, index)) emit(from_a, index);
  }
}

// Piece c of `pieces` of the walk over whole Views a and b, cut on the balanced path at even
// diagonals: emit(from_a, index) for each of its outputs.
template <SetOp Op, class AView, class BView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void set_piece(const AView& a, const BView& b, std::int64_t c,
                                      std::int64_t pieces, const Comp& comp, const Emit& emit) {
  const std::int64_t m = a.extent(0), n = b.extent(0), total = m + n;
  auto cut = [&](std::int64_t p) {
    return balanced_path<std::int64_t>(a, 0, m, b, 0, n, chunk_begin(total, pieces, p), comp);
  };
  // A piece holds its diagonals and at most one element of a cut.
  const std::int64_t room = chunk_begin(total, pieces, c + 1) - chunk_begin(total, pieces, c) + 1;
  const auto first = cut(c), last = cut(c + 1);
  const std::int64_t a_end = piece_end(last.first, first.first, room);
  const std::int64_t b_end = piece_end(last.second, first.second, room - (a_end - first.first));
  set_walk<Op>(a, first.first, a_end, b, first.second, b_end, comp, emit);
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

}  // namespace Ordo::Impl

#endif
