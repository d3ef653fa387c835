// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILEIO_HPP
#define ORDO_IMPL_TILEIO_HPP

// Team level: how tiles move between global memory and the memory a team shares. Every tiled
// kernel loads and stores its tiles here:
//   tile_stage       coalesced staging of tile(0, count) = load(0, count), VT loads in flight per
//                    thread, full tiles unchecked (merge, sorted search, sort's merge passes)
//   tile_load        tile_stage of two ranges back to back (a merge tile's A and B)
//   load_block_tile  a sort block into padded scratch, full blocks in slab-transposed order
//                    (load_offset, Ordo_Slab.hpp)
//   store_tile       a sort block from scratch to its sink, in order
//   load_vector      G consecutive elements in one 16-byte load (vector_group, vector_aligned):
//                    the compaction's full tiles on CUDA's warp seam, which stage the kept
//                    elements in scratch and store them coalesced (Ordo_Cuda_Compact.hpp)
// (The merge and search tiles still load element by element: issue 20's next step.)

#include <impl/Ordo_Slab.hpp>
#include <impl/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

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
bool vector_aligned(const T* p) {
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

// Cooperative, coalesced staging of tile(0, count) = load(0, count): element i is loaded by
// thread i % team_size, with VT loads in flight per thread. Full tiles (at least VT * team_size
// elements) load without bounds tests. (With the thread index opaque the branch costs 3 or 4
// registers: merge's tiles 52 -> 56, sort's 50 -> 53 on sm_90; from a plain index it cost 17 to
// 60.)
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
// one address select and one load, not a predicated load from each View (Nsight Compute, H100:
// the load phase was a fifth of a sort merge pass's instructions).
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
