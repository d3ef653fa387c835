// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILENETWORK_HPP
#define ORDO_IMPL_TILENETWORK_HPP

// Team level of sort: the network of Ordo_Slab.hpp over a block of positions held in
// memory the team shares, portable to every backend. Lane work (each lane's column of R
// positions: the per-lane sorting network, and the in-lane end of every merge) runs over
// TeamThreadRange (slabs) x ThreadVectorRange (lanes); the slab flip and half merges and the
// multi-slab merges run as compare-exchange stages over the block's pairs, exchanging through
// the shared memory, one team barrier per stage. The CUDA seam (team/cuda/Ordo_Cuda_TileSort.hpp)
// runs the same stages from registers; Ordo_TileSort.hpp holds the team-level sorts built on both.
//
// Block memory is reached through a tile accessor (lane/Ordo_SlabTile.hpp).

#include <impl/lane/Ordo_Slab.hpp>
#include <impl/lane/Ordo_SlabTile.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

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
