// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILEIO_HPP
#define ORDO_IMPL_TILEIO_HPP

// Team level: how tiles move between global memory and the memory a team shares. Every tiled
// kernel loads and stores its tiles here:
//   tile_stage       coalesced staging of tile(0, count) = load(0, count), VT loads in flight per
//                    thread, full tiles unchecked (the fused merge and search tiles, sort's merge
//                    passes, the set operations)
//   tile_load        tile_stage of two ranges back to back (a merge tile's A and B)
//   tile_load_async  a merge or search tile's A and B, on CUDA in 16-byte asynchronous copies
//                    (the seam's cp.async) placed where they line up with global memory
//                    (tile_layout), awaited by tile_wait; elsewhere tile_load
//   team_pipeline    a team running tiles one after another, the next one's loads in flight
//   tile_store       a tile to contiguous memory, 16 bytes at a time where aligned
//   load_block_tile  a sort block into padded scratch, full blocks in slab-transposed order
//                    (load_offset, Ordo_Slab.hpp)
//   store_tile       a sort block from scratch to its sink, in order
//   load_vector      G consecutive elements in one 16-byte load (vector_group, vector_aligned):
//                    the compaction's full tiles on CUDA's warp seam, which stage the kept
//                    elements in scratch and store them coalesced (Ordo_Cuda_Compact.hpp)

#include <impl/core/Ordo_Traits.hpp>
#include <impl/lane/Ordo_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Cooperative, coalesced staging of tile(0, count) = load(0, count): element i is loaded by
// thread i % team_size, with VT loads in flight per thread. Full tiles (at least VT * team_size
// elements) load without bounds tests. (The thread index is opaque, so that the compiler does not
// hold both branches' addresses in registers.)
template <int VT, class Member, class Load, class TileView>
KOKKOS_INLINE_FUNCTION void tile_stage(const Member& member, int count, const Load& load,
                                       const TileView& tile) {
  using T = typename TileView::value_type;
  const int nt = member.team_size(), t = opaque(member.team_rank());
  T v[VT];
  if (count >= VT * nt) {
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) v[k] = load(k * nt + t);
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) tile(k * nt + t) = v[k];
  } else {
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      const int i = k * nt + t;
      if (i < count) v[k] = load(i);
    }
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      const int i = k * nt + t;
      if (i < count) tile(i) = v[k];
    }
  }
  // Tiles with halo elements may hold a few more than VT * team_size.
  for (int i = VT * nt + t; i < count; i += nt) tile(i) = load(i);
}

// Cooperative, coalesced load of a tile's A range a[a0, a0 + na) and B range b[b0, b0 + nb) into
// tile(0, na + nb) (tile_stage). Where A and B are contiguous Views of one type, each element is
// one address select and one load, not a predicated load from each View (the load phase is a
// large share of a merge pass's instructions).
template <int VT, class Member, class AView, class BView, class TileView>
KOKKOS_INLINE_FUNCTION void tile_load(const Member& member, const AView& a, std::int64_t a0, int na,
                                      const BView& b, std::int64_t b0, int nb,
                                      const TileView& tile) {
  using T = typename TileView::value_type;
  auto load = [&](int i) -> T {
    if constexpr (std::is_same_v<AView, BView> && is_contiguous_1d_v<AView>) {
      return *(i < na ? a.data() + (a0 + i) : b.data() + (b0 + (i - na)));
    } else {
      return i < na ? a(a0 + i) : b(b0 + (i - na));
    }
  };
  tile_stage<VT>(member, na + nb, load, tile);
}

// Vector access: G consecutive elements of T as one 16-byte load where the address allows.
// vector_group<T>: how many elements of T a 16-byte vector holds (1: T does not tile one).
template <class T>
inline constexpr int vector_group = std::is_trivially_copyable_v<T> && sizeof(T) <= 8 &&
                                            16 % sizeof(T) == 0
                                        ? int(16 / sizeof(T))
                                        : 1;

template <int G, class T>
struct alignas(G * sizeof(T)) VectorOf {
  T v[G];
};

// Whether element 0 at p starts a vector of G elements (then so does every element G * k).
template <int G, class T>
KOKKOS_INLINE_FUNCTION bool vector_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(VectorOf<G, T>) == 0;
}

// v[0, G) = p[0, G) in one load; p is G-aligned (vector_aligned).
template <int G, class T>
KOKKOS_FORCEINLINE_FUNCTION void load_vector(const T* p, std::remove_const_t<T>* v) {
  using Vector = VectorOf<G, std::remove_const_t<T>>;
  const Vector x = *reinterpret_cast<const Vector*>(p);
  ORDO_UNROLL
  for (int j = 0; j < G; ++j) v[j] = x.v[j];
}

// Whether tile_load_async copies a tile without registers (the CUDA seam's asynchronous copies):
// on CUDA, from contiguous Views of one type whose elements are 4, 8 or 16 bytes.
template <class ExecSpace, class AView, class BView>
constexpr bool loads_async() {
  using T = typename AView::value_type;
  constexpr std::size_t bytes = sizeof(T);
  return is_cuda_space_v<ExecSpace> && std::is_same_v<AView, BView> && is_contiguous_1d_v<AView> &&
         std::is_trivially_copyable_v<T> && (bytes == 4 || bytes == 8 || bytes == 16);
}
template <class ExecSpace, class AView, class BView>
inline constexpr bool async_tile_loads = loads_async<ExecSpace, AView, BView>();

// Where a tile's loads put A and B: A's element i at tile(a_at + i), B's element j at
// tile(b_at + j), b_at >= a_at + na.
struct TileLayout {
  int a_at, b_at;
};

// The slots a tile of `count` elements of T takes in scratch (tile_load_async's alignment gaps,
// and one for a serial merge's look-ahead).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr int tile_slots(int count) {
  return count + (sizeof(T) < 16 ? int(32 / sizeof(T)) : 2);
}

// Where tile_load_async puts A = a[a0, a0 + na) and B = b[b0, ...) in `tile`: where async, A and
// B where their elements line up with global memory's 16-byte lines (so that copies of 16 bytes
// move them), otherwise back to back.
template <class ExecSpace, class AView, class BView, class TileView>
KOKKOS_INLINE_FUNCTION TileLayout tile_layout(const AView& a, std::int64_t a0, int na,
                                              const BView& b, std::int64_t b0,
                                              const TileView& tile) {
  if constexpr (async_tile_loads<ExecSpace, AView, BView>) {
    using T = typename TileView::non_const_value_type;
    constexpr int G = int(16 / sizeof(T));  // elements a 16-byte line
    auto phase = [](const void* p) {
      return int(reinterpret_cast<std::uintptr_t>(p) / sizeof(T) % G);
    };
    const int base = phase(tile.data());
    const int a_at = (phase(a.data() + a0) - base + G) % G;
    const int b_at = a_at + na + ((phase(b.data() + b0) - (base + a_at + na) % G) % G + G) % G;
    return {a_at, b_at};
  } else {
    (void)a, (void)a0, (void)b, (void)b0, (void)tile;
    return {0, na};
  }
}

// tile_load's staging of A = a[a0, a0 + na) and B = b[b0, b0 + nb) into `tile` (tile_slots(na +
// nb) slots) where tile_layout says, left in flight where async_tile_loads (tile_commit closes a
// tile's loads, tile_wait awaits them), otherwise done on return. The async copies move 16 bytes
// each; the few elements before a range's first 16-byte line and after its last move one by one.
template <int VT, class Member, class AView, class BView, class TileView>
KOKKOS_INLINE_FUNCTION void tile_load_async(const Member& member, const AView& a, std::int64_t a0,
                                            int na, const BView& b, std::int64_t b0, int nb,
                                            const TileView& tile) {
  using Space = typename Member::execution_space;
  if constexpr (async_tile_loads<Space, AView, BView>) {
    using T = typename TileView::non_const_value_type;
    constexpr int G = int(16 / sizeof(T));
    const int nt = member.team_size(), t = opaque(member.team_rank());
    const T* const pa = a.data() + a0;
    const T* const pb = b.data() + b0;
    const TileLayout at = tile_layout<Space>(a, a0, na, b, b0, tile);
    // Elements before the first 16-byte line of A and of B.
    auto head = [](const T* p, int n) {
      const int h = (G - int(reinterpret_cast<std::uintptr_t>(p) / sizeof(T) % G)) % G;
      return h < n ? h : n;
    };
    const int ha = head(pa, na), hb = head(pb, nb);
    const int va = (na - ha) / G, vb = (nb - hb) / G;
    for (int v = t; v < va + vb; v += nt) {
      const bool in_a = v < va;
      const int i = in_a ? ha + v * G : hb + (v - va) * G;
      Seam::async_copy<16>(&tile((in_a ? at.a_at : at.b_at) + i), (in_a ? pa : pb) + i);
    }
    // The heads and tails, element by element: A's, then B's.
    const int sa = na - va * G, scalars = sa + nb - vb * G;
    for (int e = t; e < scalars; e += nt) {
      const bool in_a = e < sa;
      const int k = in_a ? e : e - sa, h = in_a ? ha : hb, v = in_a ? va : vb;
      const int i = k < h ? k : k + v * G;
      Seam::async_copy<int(sizeof(T))>(&tile((in_a ? at.a_at : at.b_at) + i), (in_a ? pa : pb) + i);
    }
  } else {
    tile_load<VT>(member, a, a0, na, b, b0, nb, tile);
  }
}

// Stores tile(0, count) to p[0, count), consecutive threads taking consecutive elements: 16 bytes
// at a time where p and the tile both start on a 16-byte boundary.
template <class Member, class TileView, class T>
KOKKOS_INLINE_FUNCTION void tile_store(const Member& member, const TileView& tile, int count,
                                       T* p) {
  const int nt = member.team_size(), t = opaque(member.team_rank());
  int done = 0;
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= 16 && 16 % sizeof(T) == 0) {
    constexpr int G = int(16 / sizeof(T));
    using Vector = VectorOf<G, T>;
    auto aligned = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
    if (aligned(p) && aligned(tile.data())) {
      const int nv = count / G;
      for (int v = t; v < nv; v += nt) {
        reinterpret_cast<Vector*>(p)[v] = reinterpret_cast<const Vector*>(tile.data())[v];
      }
      done = nv * G;
    }
  }
  for (int i = done + t; i < count; i += nt) p[i] = tile(i);
}

// Closes this thread's group of tile_load_async copies (one group a tile, however many ranges).
template <class Member>
KOKKOS_INLINE_FUNCTION void tile_commit(const Member&) {
  Seam::async_commit<typename Member::execution_space>();
}

// Ends with a team barrier after which every tile_load_async of the team has landed, but the
// latest one where later_pending (its copies stay in flight).
template <class Member>
KOKKOS_INLINE_FUNCTION void tile_wait(const Member& member, bool later_pending) {
  using Space = typename Member::execution_space;
  if (later_pending) {
    Seam::async_wait<Space, 1>();
  } else {
    Seam::async_wait<Space, 0>();
  }
  member.team_barrier();
}

// A team runs tiles one after another, the next one's loads in flight while it works on the
// current one: stage(id, buffer) starts tile id's loads into buffer 0 or 1 (tile_load_async; the
// pipeline closes them as one commit group), work(id, buffer) runs the tile once they have
// landed. A team's first tile is its league rank; the numbers of the others come from `ticket`
// (zero before the launch), one fetch-and-add a tile taken a tile ahead, after the league's first
// tiles; numbers from `tiles` on end the team. slot: one word of team scratch.
template <class Member, class Counter, class Slot, class Stage, class Work>
KOKKOS_INLINE_FUNCTION void team_pipeline(const Member& member, Counter* ticket, const Slot& slot,
                                          std::int64_t tiles, const Stage& stage,
                                          const Work& work) {
  const bool leader = member.team_rank() == 0;
  const std::int64_t league = member.league_size();
  auto take = [&] { return league + std::int64_t(Kokkos::atomic_fetch_add(ticket, Counter(1))); };
  std::int64_t id = member.league_rank();
  if (id >= tiles) return;
  stage(id, 0);
  tile_commit(member);
  if (leader) slot(0) = take();
  member.team_barrier();
  std::int64_t next = slot(0);
  for (int buffer = 0; id < tiles; buffer ^= 1) {
    if (next < tiles) {
      stage(next, buffer ^ 1);
      tile_commit(member);
    }
    std::int64_t after = tiles;
    if (leader && next < tiles) after = take();
    tile_wait(member, next < tiles);
    work(id, buffer);
    if (leader) slot(0) = after;
    member.team_barrier();  // the buffer is free, the slot written
    id = next;
    next = slot(0);
  }
}

// A team loads records [base, base + count) of source (count <= block) into block positions of
// `tile`: full blocks, when transposed, in slab-transposed order (register r of lane l of slab s
// holds base + s*W*R + r*W + l: load_offset), partial blocks in order so that the padding sits at
// the top positions. Ends with a team barrier.
template <int W, int R, class Member, class Source, class Tile>
KOKKOS_INLINE_FUNCTION void load_block_tile(const Member& member, const Source& source,
                                            const Tile& tile, std::int64_t base, std::int64_t count,
                                            std::int64_t block, bool transposed) {
  Kokkos::parallel_for(Kokkos::TeamVectorRange(member, block), [&](std::int64_t e) {
    const std::int64_t g = load_offset<W, R>(e, transposed && count == block);
    if (g < count) tile.set(e, source.keys.load(base + g), source.values.load(base + g));
  });
  member.team_barrier();
}

// A team stores block positions [0, count) of a tile to sink positions base + [0, count).
template <class K, class V, class Member, class Tile, class Sink>
KOKKOS_INLINE_FUNCTION void store_tile(const Member& member, const Tile& tile, const Sink& sink,
                                       std::int64_t base, std::int64_t count) {
  Kokkos::parallel_for(Kokkos::TeamVectorRange(member, count), [&](std::int64_t e) {
    K k;
    V v;
    tile.get(e, k, v);
    sink.keys.store(base + e, k);
    sink.values.store(base + e, v);
  });
}

}  // namespace Ordo::Impl

#endif
