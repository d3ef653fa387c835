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
  // Whether the output takes elements of B (the by-key forms then need B's values).
  static constexpr bool reads_b = b_alone;
};

// One step of the walk from a[ai] and b[bi] (ai < a_end or bi < b_end): advances past what it
// consumes; returns whether it emits, and from where (from_a, index).
template <SetOp Op, class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION bool set_step(const AView& a, Index& ai, Index a_end, const BView& b,
                                     Index& bi, Index b_end, const Comp& comp, bool& from_a,
                                     Index& index) {
  using Rule = SetRule<Op>;
  const bool has_a = ai < a_end, has_b = bi < b_end;
  const bool a_first = has_a && (!has_b || comp(a(ai), b(bi)));
  const bool b_first = !a_first && has_b && (!has_a || comp(b(bi), a(ai)));
  if (a_first) {
    from_a = true;
    index = ai++;
    return Rule::a_alone;
  }
  if (b_first) {
    from_a = false;
    index = bi++;
    return Rule::b_alone;
  }
  from_a = true;
  index = ai++;
  ++bi;
  return Rule::pair;
}

// The walk over a[ai, a_end) and b[bi, b_end): emit(from_a, index) for each output, in order.
template <SetOp Op, class Index, class AView, class BView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void set_walk(const AView& a, Index ai, Index a_end, const BView& b,
                                     Index bi, Index b_end, const Comp& comp, const Emit& emit) {
  while (ai < a_end || bi < b_end) {
    bool from_a;
    Index index;
    if (set_step<Op>(a, ai, a_end, b, bi, b_end, comp, from_a, index)) emit(from_a, index);
  }
}

// Piece c of `pieces` of the walk over whole Views a and b, cut on the balanced path at even
// diagonals: emit(from_a, index) for each of its outputs.
template <SetOp Op, class AView, class BView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void set_piece(const AView& a, const BView& b, std::int64_t c,
                                      std::int64_t pieces, const Comp& comp, const Emit& emit) {
  const std::int64_t m = a.extent(0), n = b.extent(0), total = m + n;
  auto cut = [&](std::int64_t p) {
    const std::int64_t d = total / pieces * p + (p < total % pieces ? p : total % pieces);
    return balanced_path<std::int64_t>(a, 0, m, b, 0, n, d, comp);
  };
  const auto first = cut(c), last = cut(c + 1);
  set_walk<Op>(a, first.first, last.first, b, first.second, last.second, comp, emit);
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
