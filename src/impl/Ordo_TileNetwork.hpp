// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILENETWORK_HPP
#define ORDO_IMPL_TILENETWORK_HPP

// Team level of sort (seed 003): the network of Ordo_Slab.hpp over a block of positions held in
// memory the team shares, portable to every backend. Lane work (each lane's column of R
// positions: the per-lane sorting network, and the in-lane end of every merge) runs over
// TeamThreadRange (slabs) x ThreadVectorRange (lanes); the slab flip and half merges and the
// multi-slab merges run as compare-exchange stages over the block's pairs, exchanging through
// the shared memory, one team barrier per stage. The CUDA seam (cuda/Ordo_Cuda_TileSort.hpp) runs
// the same stages from registers; Ordo_TileSort.hpp holds the team-level sorts built on both.
//
// Block memory is reached through a tile accessor: get(e, key, value) / set(e, key, value) at
// block position e.
//   ScratchTile  padded team scratch (the device kernels' tiles)
//   ViewTile     the caller's Views (team-level sorts), encoding keys on the way in

#include <impl/Ordo_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

template <class K, class V>
struct ScratchTile {
  K* keys;
  V* values;  // unused for NoValue

  template <class Member>
  KOKKOS_INLINE_FUNCTION static ScratchTile allocate(const Member& member, std::int64_t block) {
    ScratchTile t;
    t.keys = static_cast<K*>(
        member.team_scratch(0).get_shmem_aligned(sizeof(K) * padded_size(block), alignof(K)));
    t.values = nullptr;
    if constexpr (!std::is_same_v<V, NoValue>) {
      t.values = static_cast<V*>(
          member.team_scratch(0).get_shmem_aligned(sizeof(V) * padded_size(block), alignof(V)));
    }
    return t;
  }
  static std::size_t bytes(std::int64_t block) {
    // get_shmem aligns each piece; leave room for it.
    return (sizeof(K) + (std::is_same_v<V, NoValue> ? 0 : sizeof(V))) * padded_size(block) + 64;
  }
  template <class Index>
  KOKKOS_FORCEINLINE_FUNCTION void get(Index e, K& k, V& v) const {
    get_padded(padded(e), k, v);
  }
  template <class Index>
  KOKKOS_FORCEINLINE_FUNCTION void set(Index e, const K& k, const V& v) const {
    set_padded(padded(e), k, v);
  }
  // Positions first + [0, R): with first a multiple of R and R a power of two of at most 32 they
  // share one padding word's row, so one padded index and constant offsets address them.
  template <int R>
  KOKKOS_FORCEINLINE_FUNCTION void get_run(int first, K (&k)[R], V (&v)[R]) const {
    static_assert(R <= 32 && (R & (R - 1)) == 0, "a run inside one row of 32");
    const int p = padded(first);
    ORDO_UNROLL
    for (int r = 0; r < R; ++r) get_padded(p + r, k[r], v[r]);
  }
  template <int R>
  KOKKOS_FORCEINLINE_FUNCTION void set_run(int first, const K (&k)[R], const V (&v)[R]) const {
    static_assert(R <= 32 && (R & (R - 1)) == 0, "a run inside one row of 32");
    const int p = padded(first);
    ORDO_UNROLL
    for (int r = 0; r < R; ++r) set_padded(p + r, k[r], v[r]);
  }

 private:
  template <class Index>
  KOKKOS_FORCEINLINE_FUNCTION void get_padded(Index p, K& k, V& v) const {
    k = keys[p];
    if constexpr (!std::is_same_v<V, NoValue>) v = values[p];
  }
  template <class Index>
  KOKKOS_FORCEINLINE_FUNCTION void set_padded(Index p, const K& k, const V& v) const {
    keys[p] = k;
    if constexpr (!std::is_same_v<V, NoValue>) values[p] = v;
  }
};

// The caller's keys (and values) in place, n of them; positions at and after n are padding (the
// encoded padding word where Codec has one).
template <class Codec, class KeyView, class ValueView>
struct ViewTile {
  using K = typename Codec::Bits;
  using V = typename ValueView::non_const_value_type;
  KeyView keys;
  ValueView values;
  std::int64_t n;

  KOKKOS_FORCEINLINE_FUNCTION void get(std::int64_t e, K& k, V& v) const {
    if (e < n) {
      k = Codec::encode(keys(e));
      if constexpr (!std::is_same_v<V, NoValue>) v = values(e);
    } else if constexpr (Codec::encoded) {
      k = Codec::padding;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void set(std::int64_t e, const K& k, const V& v) const {
    if (e < n) {
      keys(e) = Codec::decode(k);
      if constexpr (!std::is_same_v<V, NoValue>) values(e) = v;
    }
  }
};

// Positions [base, base + ...) of a tile as a tile of their own.
template <class Tile>
struct TileAt {
  const Tile& tile;
  std::int64_t base;
  template <class K, class V>
  KOKKOS_FORCEINLINE_FUNCTION void get(std::int64_t e, K& k, V& v) const {
    tile.get(base + e, k, v);
  }
  template <class K, class V>
  KOKKOS_FORCEINLINE_FUNCTION void set(std::int64_t e, const K& k, const V& v) const {
    tile.set(base + e, k, v);
  }
};

// The compare-exchange of positions i < j of a tile: exchanges when j's record orders first.
template <class K, class V, class Tile, class Index, class Order>
KOKKOS_INLINE_FUNCTION void exchange_pair(const Tile& tile, Index i, Index j, const Order& order) {
  K ki, kj;
  V vi, vj;
  tile.get(i, ki, vi);
  tile.get(j, kj, vj);
  if (order(kj, vj, ki, vi)) {
    tile.set(i, kj, vj);
    tile.set(j, ki, vi);
  }
}

// A View-shaped stand-in for "no values".
struct NoValueView {
  using non_const_value_type = NoValue;
  KOKKOS_INLINE_FUNCTION NoValue operator()(std::int64_t) const { return {}; }
};

// The network stages of Ordo_Slab.hpp over block positions [0, block) of `tile`, of which
// [0, count) hold elements (block: a power of two, at least R). WholeTeam: every thread of the
// team runs them, slabs spread over the team's threads, each step ending with a team barrier;
// otherwise one thread's vector lanes run them (sort_thread), with the vector-lane
// synchronization that ends every ThreadVectorRange loop.
template <int W, int R, bool WholeTeam, class K, class V, class Member, class Tile, class Order>
struct TeamNetwork {
  const Member& member;
  const Tile& tile;
  std::int64_t block, count;
  const Order& order;

  // Lane work: every lane loads its column of R positions, runs `network` on it, stores it back.
  template <class Network>
  KOKKOS_INLINE_FUNCTION void lanes(const Network& network) const {
    const std::int64_t columns = block / R;
    auto column = [&](std::int64_t c) {
      if (c >= columns) return;
      K k[R];
      V v[R];
      for (int r = 0; r < R; ++r) tile.get(c * R + r, k[r], v[r]);
      network(k, v, c * R);
      for (int r = 0; r < R; ++r) {
        if (c * R + r < count) tile.set(c * R + r, k[r], v[r]);
      }
    };
    if constexpr (WholeTeam) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, (columns + W - 1) / W),
                           [&](std::int64_t s) {
                             Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, W),
                                                  [&](int l) { column(s * W + l); });
                           });
      member.team_barrier();
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, columns), column);
    }
  }

  // One compare-exchange stage over the block's pairs.
  template <class PairOf>
  KOKKOS_INLINE_FUNCTION void stage(const PairOf& pair_of) const {
    auto pair = [&](std::int64_t p) {
      std::int64_t i, j;
      pair_of(p, i, j);
      if (j < count) exchange_pair<K, V>(tile, i, j, order);
    };
    if constexpr (WholeTeam) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(member, block / 2), pair);
      member.team_barrier();
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, block / 2), pair);
    }
  }

  // Half merges at distances d, d / 2, ..., 1 (d: a power of two, or 0 for none across lanes).
  KOKKOS_INLINE_FUNCTION void half_merge(std::int64_t d) const {
    for (; d >= R; d /= 2) {
      stage([&](std::int64_t p, std::int64_t& i, std::int64_t& j) { half_pair(p, d, i, j); });
    }
    lanes([&](K(&k)[R], V(&v)[R], std::int64_t first) {
      lane_half<R, R / 2>(k, v, order, first, count);
    });
  }
};

// Sorts the block (see TeamNetwork for its shape and callers); WholeTeam: ends with a barrier.
// `sorted`: the block's runs of `sorted` positions are sorted already (a power of two of at least
// R, the caller's writes to them visible to the team), so only the merge levels above remain; 0:
// none are.
template <int W, int R, bool WholeTeam, class K, class V, class Member, class Tile, class Order>
KOKKOS_INLINE_FUNCTION void team_block_sort(const Member& member, const Tile& tile,
                                            std::int64_t block, std::int64_t count,
                                            const Order& order, std::int64_t sorted = 0) {
  const TeamNetwork<W, R, WholeTeam, K, V, Member, Tile, Order> net{member, tile, block, count,
                                                                    order};
  if (sorted < R) {
    net.lanes(
        [&](K(&k)[R], V(&v)[R], std::int64_t first) { lane_sort<R>(k, v, order, first, count); });
    sorted = R;
  }
  for (std::int64_t size = 2 * sorted; size <= block; size *= 2) {
    net.stage([&](std::int64_t p, std::int64_t& i, std::int64_t& j) { flip_pair(p, size, i, j); });
    net.half_merge(size / 4);
  }
}

// The end of a streaming merge level (device level): the block's records have been through the
// level's flip and half merges at distances of a block and more; the half merges from block / 2
// down sort it. Whole team; ends with a barrier.
template <int W, int R, class K, class V, class Member, class Tile, class Order>
KOKKOS_INLINE_FUNCTION void team_block_half_merge(const Member& member, const Tile& tile,
                                                  std::int64_t block, std::int64_t count,
                                                  const Order& order) {
  const TeamNetwork<W, R, true, K, V, Member, Tile, Order> net{member, tile, block, count, order};
  net.half_merge(block / 2);
}

}  // namespace Ordo::Impl

#endif
