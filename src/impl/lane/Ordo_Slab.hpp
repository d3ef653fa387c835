// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SLAB_HPP
#define ORDO_IMPL_SLAB_HPP

// Lane level of sort (HotSort): a slab is W vector lanes times R registers per lane.
// Every sort of Ordo runs one sorting network, the bitonic sort in its "flip" form, over the
// positions of a block of slabs. Position e = slab * W * R + lane * R + register: each lane holds
// a column of R consecutive positions, so a sorted slab is sorted down each lane's registers and
// then across lanes. The stages of the network for a block of B positions:
//   for size = 2, 4, ..., B:
//     flip(size):  pairs (i, i ^ (size - 1)) for i with bit size/2 clear
//     half(d):     pairs (i, i + d) for i with bit d clear, for d = size/4, ..., 1
// A pair (i, j), i < j, exchanges when key j orders strictly before key i. Stages with distances
// below R stay inside a lane (each lane sorts or merges its registers with a branch-free network);
// distances from R to W * R exchange across the lanes of one slab (the slab flip and half merges:
// warp shuffles in the CUDA seam, team scratch in the portable code); larger ones cross slabs
// (multi-slab merges, team level). Padding positions (at and after the element count) never move:
// a pair only exchanges when both its positions hold elements, so nothing is written for them.
//
// This header: the record order (plain or stable), register compare-exchange, the in-lane
// networks, the column merge of a group of slabs or blocks, the pair enumeration of a stage, and
// the padded scratch index that keeps the lane columns free of bank conflicts (one spare word per
// 32, the patent's padding formula).

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Sorts that carry no values hold NoValue in their value registers: it occupies nothing.
struct NoValue {};

// Order of (key, value) records: by key only (sort, sort_by_key), or by key then value, where the
// value is the element's input position (stable sort, sort_permutation): every record is then
// distinct and the unstable network gives the stable order.
template <class Less, bool Stable>
struct RecordOrder {
  Less less;
  template <class K, class V>
  KOKKOS_FORCEINLINE_FUNCTION bool operator()(const K& a, const V& va, const K& b,
                                              const V& vb) const {
    if constexpr (Stable) {
      return less(a, b) || (!less(b, a) && va < vb);
    } else {
      (void)va;
      (void)vb;
      return less(a, b);
    }
  }
};

// Orders under which a compare-exchange is a plain min and max: unstable, `<` on integer keys, no
// values (every encoded key type sorting without values). The networks use min / max there, one
// instruction per register instead of a compare and selects.
template <class Order, class K, class V>
inline constexpr bool min_max_order_v =
    std::conjunction_v<std::is_same<Order, RecordOrder<TypedLess<K>, false>>, std::is_integral<K>,
                       std::is_same<V, NoValue>>;

// The element count of a guarded network, or NoBound where padding holds keys that order after
// every element (the CUDA seam pads encoded keys with the all-ones word), so no guard is needed.
struct NoBound {};
KOKKOS_FORCEINLINE_FUNCTION constexpr bool operator<(std::int64_t, NoBound) { return true; }

template <class K, class V, class Order>
KOKKOS_FORCEINLINE_FUNCTION void compare_exchange(K& ki, V& vi, K& kj, V& vj, const Order& order) {
  if constexpr (min_max_order_v<Order, K, V>) {
    const K lo = kj < ki ? kj : ki;
    kj = kj < ki ? ki : kj;
    ki = lo;
  } else {
    const bool swap = order(kj, vj, ki, vi);
    const K k = swap ? kj : ki;
    kj = swap ? ki : kj;
    ki = k;
    if constexpr (!std::is_same_v<V, NoValue>) {
      const V v = swap ? vj : vi;
      vj = swap ? vi : vj;
      vi = v;
    }
  }
}

// In-lane networks over a lane's R registers (positions lane * R + r). Count-aware variants skip
// pairs whose upper position is padding (first + r >= count).
template <int R, int Size, class K, class V, class Order, class Bound>
KOKKOS_FORCEINLINE_FUNCTION void lane_flip(K (&k)[R], V (&v)[R], const Order& order,
                                           std::int64_t first, Bound count) {
  ORDO_UNROLL
  for (int r = 0; r < R; ++r) {
    const int j = r ^ (Size - 1);
    if ((r & (Size / 2)) == 0 && first + j < count) compare_exchange(k[r], v[r], k[j], v[j], order);
  }
}

template <int R, int D, class K, class V, class Order, class Bound>
KOKKOS_FORCEINLINE_FUNCTION void lane_half(K (&k)[R], V (&v)[R], const Order& order,
                                           std::int64_t first, Bound count) {
  if constexpr (D > 0) {
    ORDO_UNROLL
    for (int r = 0; r < R; ++r) {
      if ((r & D) == 0 && first + r + D < count)
        compare_exchange(k[r], v[r], k[r + D], v[r + D], order);
    }
    lane_half<R, D / 2>(k, v, order, first, count);
  }
}

// The per-lane sorting network: stages of sizes Size, 2 * Size, ..., R.
template <int R, int Size = 2, class K, class V, class Order, class Bound>
KOKKOS_FORCEINLINE_FUNCTION void lane_sort(K (&k)[R], V (&v)[R], const Order& order,
                                           std::int64_t first, Bound count) {
  if constexpr (Size <= R) {
    lane_flip<R, Size>(k, v, order, first, count);
    lane_half<R, Size / 4>(k, v, order, first, count);
    lane_sort<R, 2 * Size>(k, v, order, first, count);
  }
}

// The compare-exchanges, in order, of the merge of a column of G positions (a power of two, at
// least 2, held in registers: the loops unroll fully): the multi-slab merges of the CUDA seam (a
// column of a group of slabs) and the streaming merge levels (a column of a group of blocks).
// Flip: the flip merge (t with G - 1 - t), then half merges down to distance 1; otherwise half
// merges from distance G / 2. pair(t, u) with t < u.
template <bool Flip, int G, class Pair>
KOKKOS_FORCEINLINE_FUNCTION void column_pairs(const Pair& pair) {
  if constexpr (Flip) {
    ORDO_UNROLL
    for (int t = 0; 2 * t < G; ++t) pair(t, G - 1 - t);
  }
  ORDO_UNROLL
  for (int d = Flip ? G / 4 : G / 2; d >= 1; d /= 2) {
    ORDO_UNROLL
    for (int t = 0; t < G; ++t) {
      if ((t & d) == 0) pair(t, t + d);
    }
  }
}

// Row t of column q of a group of `group` runs of `stride` positions from `base`: position q of
// the run, or with Flip, in the group's second half, position stride - 1 - q (read flipped), so
// that the flip pairs and the half pairs of column_pairs all lie in the column.
template <bool Flip, class Index>
KOKKOS_FORCEINLINE_FUNCTION Index column_position(Index base, int t, int group, Index stride,
                                                  Index q) {
  return base + t * stride + (!Flip || 2 * t < group ? q : stride - 1 - q);
}

// The column merge of G positions held in registers. Pairs (t, u) whose upper position does not
// hold an element (!valid(u)) are skipped.
template <int G, bool Flip, class K, class V, class Order, class Valid>
KOKKOS_FORCEINLINE_FUNCTION void column_merge(K (&k)[G], V (&v)[G], const Order& order,
                                              const Valid& valid) {
  column_pairs<Flip, G>([&](int t, int u) {
    if (valid(u)) compare_exchange(k[t], v[t], k[u], v[u], order);
  });
}

// The smallest power-of-two multiple of `from` (a power of two) that is at least n: the block of
// positions a network over n elements runs on.
KOKKOS_INLINE_FUNCTION std::int64_t network_size(std::int64_t n, std::int64_t from) {
  while (from < n) from *= 2;
  return from;
}

// The positions (i, j) of pair p of a stage.
KOKKOS_INLINE_FUNCTION void flip_pair(std::int64_t p, std::int64_t size, std::int64_t& i,
                                      std::int64_t& j) {
  const std::int64_t half = size / 2, t = p % half, base = (p / half) * size;
  i = base + t;
  j = base + size - 1 - t;
}

KOKKOS_INLINE_FUNCTION void half_pair(std::int64_t p, std::int64_t d, std::int64_t& i,
                                      std::int64_t& j) {
  i = (p / d) * 2 * d + p % d;
  j = i + d;
}

// Scratch index of position e: one spare word after every 32, so that lanes storing their columns
// (stride R) and threads reading consecutive positions hit distinct banks.
// (In the index type of the caller: 32-bit inside a team's block.)
template <class Index>
KOKKOS_INLINE_FUNCTION constexpr Index padded(Index e) {
  return e + (e >> 5);
}

// Elements of scratch a block of `positions` needs per key (or value) array.
KOKKOS_INLINE_FUNCTION constexpr std::int64_t padded_size(std::int64_t positions) {
  return padded(positions) + 1;
}

// Block position of global element g of a tile of `count` elements starting at `base`: full
// tiles load in transposed order (register r of lane l in slab s reads base + s*W*R + r*W + l, so
// a slab's loads are coalesced rows); partial tiles load in order, so that their padding sits at
// the top positions. Both the CUDA seam and the portable code use this mapping.
template <int W, int R>
KOKKOS_INLINE_FUNCTION std::int64_t load_offset(std::int64_t e, bool full) {
  if (!full) return e;
  constexpr std::int64_t slab = std::int64_t(W) * R;
  const std::int64_t s = e / slab, q = e % slab;
  return s * slab + (q % R) * W + q / R;
}

}  // namespace Ordo::Impl

#endif
