// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_LANE_MERGEPATH_HPP
#define ORDO_IMPL_LANE_MERGEPATH_HPP

// Lane level of the one merge-path partitioner of Ordo: the searches one thread (or one thread's
// vector lanes) runs. Every primitive that splits the merge of two sorted sequences into pieces
// (merge, sorted search, the merge phases of sort, set operations, joins, the load-balancing
// search) finds its cuts here; the team level (team/Ordo_TileRange.hpp) co-ranks a tile's ends
// with a whole team, the device level (device/Ordo_MergePathLaunch.hpp) launches the partitions.
//   merge_path           the co-rank of a cross diagonal: a thread's binary search, or with
//                        the probes of a thread's vector lanes (narrowing_search)
//   sampled_merge_path   the same, searching samples of A and B first (sort's merge passes)
//   balanced_path        merge_path moved off the middle of a pair of equal keys (set operations)
//   gallop_up/down       a first-false search near one end of a range (runs of equal keys)
//   chunk_begin          where chunk c of a merge path cut into chunks begins
//   binary_search        a needle's bound in a range (needles in any order)
//   piece_end            a piece's end co-rank held against its start (inputs that are not sorted)

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Who runs the probes of a narrowing search (below): one thread (one probe a round, a binary
// search) or a thread's Lanes vector lanes. count(test) is how many of the round's probes p in
// [0, size()) pass test(p), known to every lane or thread that runs it.
struct ThreadProbes {
  KOKKOS_INLINE_FUNCTION static constexpr int size() { return 1; }
  template <class Test>
  KOKKOS_INLINE_FUNCTION int count(const Test& test) const {
    return test(0) ? 1 : 0;
  }
};

template <int Lanes, class Member>
struct VectorProbes {
  const Member& member;
  KOKKOS_INLINE_FUNCTION static constexpr int size() { return Lanes; }
  template <class Test>
  KOKKOS_INLINE_FUNCTION int count(const Test& test) const {
    int passed = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, Lanes), [&](int p, int& c) { c += test(p) ? 1 : 0; },
        passed);
    return passed;
  }
};

// The first position in [lo, hi) where `before` is false (hi if none), `before` holding on a
// prefix of the range. Each round tests size() probes spread evenly over what remains; the
// number that pass narrows it by a factor of size() + 1 (with one probe: a binary search).
template <class Index, class Probes, class Before>
KOKKOS_INLINE_FUNCTION Index narrowing_search(Index lo, Index hi, const Probes& probes,
                                              const Before& before) {
  const Index size = probes.size();
  while (lo < hi) {
    const Index width = hi - lo;
    // Probe p tests lo + (p + 1) * width / (size + 1): non-decreasing in p, below hi.
    auto probe = [&](Index p) { return lo + (p + 1) * width / (size + 1); };
    const Index passed = probes.count([&](int p) { return before(probe(p)); });
    const Index new_lo = passed == 0 ? lo : probe(passed - 1) + 1;
    hi = passed == size ? hi : probe(passed);
    lo = new_lo;
  }
  return lo;
}

// The same first position, found near lo (gallop_up) or near hi (gallop_down): probes 1, 2, 4,
// ... away from that end, then a binary search of the last gap; O(log d) steps for an answer d
// away (the runs of equal keys the set operations and joins look for are mostly short).
template <class Index, class Before>
KOKKOS_INLINE_FUNCTION Index gallop_up(Index lo, Index hi, const Before& before) {
  Index next = lo, step = 1;
  while (next < hi && before(next)) {  // before(q) for every q below next + 1
    lo = next + 1;
    next = lo + step;
    step *= 2;
  }
  return narrowing_search(lo, next < hi ? next : hi, ThreadProbes{}, before);
}

template <class Index, class Before>
KOKKOS_INLINE_FUNCTION Index gallop_down(Index lo, Index hi, const Before& before) {
  Index probe = hi - 1, step = 1;
  while (probe >= lo && !before(probe)) {  // !before(q) for every q from probe on
    hi = probe;
    probe = hi - 1 - step;
    step *= 2;
  }
  return narrowing_search(probe + 1 > lo ? probe + 1 : lo, hi, ThreadProbes{}, before);
}

// The search of merge_path below over [lo, hi], a range known to hold the co-rank.
template <class Index, class AView, class BView, class Comp, class Probes = ThreadProbes>
KOKKOS_INLINE_FUNCTION Index merge_path_between(const AView& a, Index a_begin, const BView& b,
                                                Index b_begin, Index diag, Index lo, Index hi,
                                                const Comp& comp, const Probes& probes = Probes()) {
  // A[i] is among the first diag outputs unless B[diag - 1 - i] orders strictly before it.
  return narrowing_search(
      lo, hi, probes, [&](Index i) { return !comp(b(b_begin + diag - 1 - i), a(a_begin + i)); });
}

// Co-rank of `diag`: the number of elements of A among the first `diag` elements of
// the stable merge of A = a[a_begin, a_begin + a_count) and B = b[b_begin, b_begin + b_count),
// where on ties every element of A comes before the equal elements of B. Views or scratch Views.
template <class Index, class AView, class BView, class Comp, class Probes = ThreadProbes>
KOKKOS_INLINE_FUNCTION Index merge_path(const AView& a, Index a_begin, Index a_count,
                                        const BView& b, Index b_begin, Index b_count, Index diag,
                                        const Comp& comp, const Probes& probes = Probes()) {
  const Index lo = diag > b_count ? diag - b_count : Index(0);
  const Index hi = diag < a_count ? diag : a_count;
  return merge_path_between(a, a_begin, b, b_begin, diag, lo, hi, comp, probes);
}

// The same co-rank, where every S-th element of A and of B is also stored in a small array of
// samples: A[u * S] in samples(a_samples + u), B[u * S] in samples(b_samples + u). The samples
// are searched first and the arrays only inside a window of 2 * S positions, so that most of the
// dependent loads go to an array S times smaller (sort's merge-pass partitions; a sample step
// still costs about what a DRAM step does).
// For A's sampled position i = u * S, let j = diag - 1 - i and c = j / S, so that
// B[c * S] <= B[j] <= B[(c + 1) * S]. If B[(c + 1) * S] orders before A[i], then so does B[j]:
// A[i] is surely not among the first diag outputs ("after", monotone in u). If A[i] does not
// order after B[c * S], it surely is ("before", monotone the other way). A sampled position that
// is neither is followed by an "after" one (A[i + S] >= A[i] > B[c * S], the next position's
// lower sample), so the first "after" position u * S and the one 2 * S before it, which is then
// "before", bracket the co-rank.
template <int S, class Index, class AView, class BView, class Samples, class Comp,
          class Probes = ThreadProbes>
KOKKOS_INLINE_FUNCTION Index sampled_merge_path(const AView& a, Index a_begin, Index a_count,
                                                const BView& b, Index b_begin, Index b_count,
                                                const Samples& samples, Index a_samples,
                                                Index b_samples, Index diag, const Comp& comp,
                                                const Probes& probes = Probes()) {
  const Index lo = diag > b_count ? diag - b_count : Index(0);
  const Index hi = diag < a_count ? diag : a_count;
  // Sampled positions of A in [lo, hi): u * S for u in [u_lo, u_hi); the first "after" one.
  const Index u_lo = (lo + S - 1) / S, u_hi = (hi + S - 1) / S;
  const Index first = narrowing_search(u_lo, u_hi, probes, [&](Index u) {
    const Index next = (diag - 1 - u * S) / S + 1;  // c + 1
    return !(next * S < b_count && comp(samples(b_samples + next), samples(a_samples + u)));
  });
  const Index window_lo = first - 2 >= u_lo ? (first - 2) * S + 1 : lo;
  const Index window_hi = first < u_hi ? first * S : hi;
  return merge_path_between(a, a_begin, b, b_begin, diag, window_lo, window_hi, comp, probes);
}

// The balanced path (the set operations' partitioner, after moderngpu's): the co-rank of `diag`
// moved so that a cut through a key's copies never separates a pair. The set operations pair the
// r-th copy of a key in A with its r-th copy in B; merge_path's cut, which puts every copy in A
// before the copies in B, can leave a pair on both sides. Let v be the key at the cut, ca and cb
// its copies in A and B, d of them before the cut. The cut takes the first d copies in the
// pairing order (a0 b0 a1 b1 ... then the longer side's extra copies), and one more (a "star")
// when the d-th is the A half of a pair: ka copies of A and kb of B with ka == kb, or every copy
// of the shorter side. Returns {ka + the elements of A before v, the same for B}; the result
// covers diag or diag + 1 elements, and consecutive diagonals give consecutive, non-overlapping
// pieces. Each piece is then a set operation of its own.
template <class Index, class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION Kokkos::pair<Index, Index> balanced_path(const AView& a, Index a_begin,
                                                                Index a_count, const BView& b,
                                                                Index b_begin, Index b_count,
                                                                Index diag, const Comp& comp) {
  const Index ai = merge_path(a, a_begin, a_count, b, b_begin, b_count, diag, comp);
  const Index bi = diag - ai;
  const bool has_a = ai < a_count, has_b = bi < b_count;
  if (!has_a && !has_b) return {ai, bi};
  // v: the next key of the merge (A first on ties); its copies before the cut, if any, are the
  // elements just before it in A or B.
  const bool take_a = has_a && (!has_b || !comp(b(b_begin + bi), a(a_begin + ai)));
  const auto v = take_a ? a(a_begin + ai) : b(b_begin + bi);
  const bool left_a = ai > 0 && !comp(a(a_begin + ai - 1), v);
  const bool left_b = bi > 0 && !comp(b(b_begin + bi - 1), v);
  if (!left_a && !left_b) return {ai, bi};
  // v's copies around the cut (runs are mostly short: galloping searches from the cut).
  const Index a_lo = gallop_down(Index(0), ai, [&](Index p) { return comp(a(a_begin + p), v); });
  const Index a_hi = gallop_up(ai, a_count, [&](Index p) { return !comp(v, a(a_begin + p)); });
  const Index b_lo = gallop_down(Index(0), bi, [&](Index p) { return comp(b(b_begin + p), v); });
  const Index b_hi = gallop_up(bi, b_count, [&](Index p) { return !comp(v, b(b_begin + p)); });
  const Index ca = a_hi - a_lo, cb = b_hi - b_lo, d = (ai - a_lo) + (bi - b_lo);
  const Index pairs = ca < cb ? ca : cb;
  Index ka, kb;
  if (d <= 2 * pairs) {
    ka = kb = (d + 1) / 2;
  } else if (ca >= cb) {
    kb = cb;
    ka = d - cb;
  } else {
    ka = ca;
    kb = d - ca;
  }
  return {a_lo + ka, b_lo + kb};
}

// A piece's end co-rank held inside what the piece may hold: at least `begin` and at most `room`
// past it. Co-ranks are searched independently for each end of each piece; on sorted input they
// are monotone and this changes nothing, but on input that is not sorted (or under a comparator
// that is not a strict weak order) an end may fall before its start or overshoot the piece, and
// a kernel that trusted it would read and write outside its tile. Every co-rank from merge_path
// and balanced_path already lies inside its View, so the held one does too (Ordo::merge's
// documentation: unsorted input gives unspecified output, never an access outside the Views).
template <class Index>
KOKKOS_INLINE_FUNCTION Index piece_end(Index end, Index begin, Index room) {
  return end < begin ? begin : end > begin + room ? begin + room : end;
}

// The first merge-path position of chunk c when `total` positions are cut into `chunks` pieces
// whose sizes differ by at most one (the first total % chunks are one longer); chunk c ends where
// chunk c + 1 begins.
KOKKOS_INLINE_FUNCTION std::int64_t chunk_begin(std::int64_t total, std::int64_t chunks,
                                                std::int64_t c) {
  const std::int64_t longer = total % chunks;
  return total / chunks * c + (c < longer ? c : longer);
}

// Binary search of a needle in hay[begin, begin + len) (any needle order): begin plus the number
// of elements that order before the needle (Upper: that do not order after it). Branch-free: the
// loop runs ceil(log2 len) times.
template <bool Upper, class Haystack, class Needle, class Comp>
KOKKOS_INLINE_FUNCTION std::int64_t binary_search(const Haystack& hay, std::int64_t begin,
                                                  std::int64_t len, const Needle& needle,
                                                  const Comp& comp) {
  if (len == 0) return begin;
  while (len > 1) {
    const std::int64_t half = len / 2;
    const auto& probe = hay(begin + half - 1);
    const bool before = Upper ? !comp(needle, probe) : comp(probe, needle);
    begin = before ? begin + half : begin;
    len -= half;
  }
  const auto& last = hay(begin);
  return begin + (Upper ? !comp(needle, last) : comp(last, needle));
}

}  // namespace Ordo::Impl

#endif
