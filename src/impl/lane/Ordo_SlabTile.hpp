// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_LANE_SLABTILE_HPP
#define ORDO_IMPL_LANE_SLABTILE_HPP

// Lane level of sort: the memory a block of slabs exchanges through, reached by a tile accessor,
// get(e, key, value) / set(e, key, value) at block position e, that the portable network
// (team/Ordo_TileNetwork.hpp) and the CUDA seam (team/cuda/Ordo_Cuda_TileSort.hpp) both run over:
//   ScratchTile  padded team scratch (the device kernels' tiles)
//   ViewTile     the caller's Views (team-level sorts), encoding keys on the way in
//   TileAt       positions [base, ...) of a tile as a tile of their own

#include <impl/lane/Ordo_Slab.hpp>

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

}  // namespace Ordo::Impl

#endif
