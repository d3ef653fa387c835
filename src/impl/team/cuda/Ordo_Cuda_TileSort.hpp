// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_TILESORT_HPP
#define ORDO_IMPL_CUDA_TILESORT_HPP

// CUDA seam of sort's team level (HotSort): the block and segment sorts that
// Ordo_TileNetwork.hpp runs portably, here from the warps' registers (team/cuda/Ordo_Cuda_Slab.hpp)
// with the team's padded scratch as the exchange buffer:
//   warp_sort           one warp sorts up to 32 * R records in one slab
//   block_sort          a team of S warps: slab_sort, then for every multi-slab level the slabs go
//                       to the exchange buffer, each thread merges columns of the level's slabs
//                       there (multi-slab flip and half merge), and each warp reloads its slab and
//                       finishes with a slab half merge
//   block_half_merge    the end of a streaming merge level: multi-slab half merges in the
//                       exchange buffer, then each warp's slab half merge
//   sort_block          the block kernel's team (Ordo_SortBlocksImpl.hpp): load, sort, store
//   team_sort_in_warps  sort_team's segments that whole warps sort in registers
//   group_sort_segments segmented sort's segments of one slab, one a group of a warp's lanes
// Called by every thread of a Kokkos CUDA team whose threads form whole warps (linear thread id =
// threadIdx.y * blockDim.x + threadIdx.x).

#include <impl/lane/Ordo_SlabTile.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/cuda/Ordo_Cuda_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#if defined(ORDO_CUDA_SEAM)

namespace Ordo::Impl::CudaSeam {

#if defined(__CUDA_ARCH__)
// A lane's R registers to and from its run of R positions in the team's padded scratch
// (ScratchTile; the run shares one padding row).
template <int R, class K, class V, class Exchange>
__device__ __forceinline__ void slab_store(const Exchange& x, const K (&k)[R], const V (&v)[R],
                                           int first) {
  x.template set_run<R>(first, k, v);
}

template <int R, class K, class V, class Exchange>
__device__ __forceinline__ void slab_load(const Exchange& x, K (&k)[R], V (&v)[R], int first) {
  x.template get_run<R>(first, k, v);
}

// The calling warp sorts the n <= 32 * R records of exchange x (positions [0, n)) in one slab:
// loads (coalesced rows where n fills the slab; otherwise in position order, padding on top),
// slab_sort, slab_transpose, stores of whole rows.
template <int R, class K, class V, class Order, class Exchange>
__device__ void warp_sort(const Exchange& x, std::int64_t n, const Order& order) {
  const int lane = team_thread() % 32;
  K k[R];
  V v[R];
#pragma unroll
  for (int r = 0; r < R; ++r) x.get(load_offset<32, R>(lane * R + r, n == 32 * R), k[r], v[r]);
  slab_sort<false>(k, v, lane, order);
  slab_transpose(k, v, lane);
#pragma unroll
  for (int q = 0; q < R; ++q) x.set(transposed_position<R>(lane, q), k[q], v[q]);
}

// The multi-slab merges of one level of `group` slabs (of Slab positions each), run on the
// exchange buffer. Flip: the flip merge, then half merges down to one slab apart; column q of a
// group holds, from each slab t of the group, position q (first half of the group) or
// Slab - 1 - q (second half, read flipped), so that the flip pairs and the half pairs all lie in
// the column. Otherwise: half merges from group / 2 slabs apart down to one, column q holding
// position q of every slab. Each thread merges whole columns in registers (column_merge; G: the
// group, dispatched up to MaxGroup). 32-bit index arithmetic; Slab and group are powers of two.
template <int Slab, int MaxGroup, bool Flip, int G = 2, class K, class V, class Order,
          class Exchange>
__device__ void multi_slab_merge(const Exchange& x, int slabs, int group, int thread, int threads,
                                 const Order& order) {
  if constexpr (G < MaxGroup) {
    if (group != G) {
      multi_slab_merge<Slab, MaxGroup, Flip, 2 * G, K, V>(x, slabs, group, thread, threads, order);
      return;
    }
  }
  for (int c = thread; c < slabs / G * Slab; c += threads) {
    const int g = c / Slab, q = c % Slab;
    auto pos = [&](int t) { return column_position<Flip>(g * G * Slab, t, G, Slab, q); };
    K k[G];
    V v[G];
#pragma unroll
    for (int t = 0; t < G; ++t) x.get(pos(t), k[t], v[t]);
    column_merge<G, Flip>(k, v, order, [](int) { return true; });
#pragma unroll
    for (int t = 0; t < G; ++t) x.set(pos(t), k[t], v[t]);
  }
}

// Whether the block kernels' slabs of R registers per lane run their merge levels unrolled.
template <int R>
inline constexpr bool unrolled_slab = R <= CudaSlabTuning::unrolled_regs;

// Sorts the block of `slabs` slabs whose registers the team's warps hold (warp w: slab w; warps
// beyond `slabs` hold padding and take part in the barriers only). Leaves the sorted block in the
// exchange buffer, in position order, after a barrier.
template <int MaxSlabs, int R, class K, class V, class Order, class Exchange>
__device__ void block_sort(K (&k)[R], V (&v)[R], const Exchange& x, std::int64_t slabs,
                           const Order& order) {
  const int thread = team_thread();
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  const int lane = thread % 32, warp = thread / 32;
  constexpr int slab = 32 * R;
  const bool active = warp < slabs;
  const int first = slab_first<R>(thread);
  if (active) slab_sort<unrolled_slab<R>>(k, v, lane, order);
  for (int group = 2; group <= slabs; group *= 2) {
    if (active) slab_store(x, k, v, first);
    __syncthreads();
    multi_slab_merge<int(slab), MaxSlabs, true, 2, K, V>(x, int(slabs), group, thread, threads,
                                                         order);
    __syncthreads();
    if (active) {
      slab_load(x, k, v, first);
      slab_half_merge<unrolled_slab<R>>(k, v, lane, 16, order);
    }
  }
  if (active) slab_store(x, k, v, first);
  __syncthreads();
}

// The end of a streaming merge level (device level): the block of `slabs` slabs in the exchange
// buffer, in position order, has been through the level's flip and half merges at distances of a
// block and more; the multi-slab half merges in the buffer, then each warp's slab half merge from
// registers sort it. Leaves the sorted block in the exchange buffer after a barrier.
template <int MaxSlabs, int R, class K, class V, class Order, class Exchange>
__device__ void block_half_merge(const Exchange& x, std::int64_t slabs, const Order& order) {
  const int thread = team_thread();
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  const int lane = thread % 32, warp = thread / 32;
  constexpr int slab = 32 * R;
  const int first = slab_first<R>(thread);
  multi_slab_merge<slab, MaxSlabs, false, 2, K, V>(x, int(slabs), int(slabs), thread, threads,
                                                   order);
  __syncthreads();
  if (warp < slabs) {
    K k[R];
    V v[R];
    slab_load(x, k, v, first);
    slab_half_merge<unrolled_slab<R>>(k, v, lane, 16, order);
    slab_store(x, k, v, first);
  }
  __syncthreads();
}
#endif

// The block kernel's team (device/Ordo_SortBlocksImpl.hpp): records [base, base + count) of source
// (count <= block = Slabs * 32 * R) sorted into block positions [0, count) of tile (a ScratchTile
// of the block), from which the caller stores them. Each warp loads its slab into registers,
// block_sort. HalfMerge: the block goes to scratch in position order (padding: the all-ones word)
// for block_half_merge (the end of a streaming merge level).
template <bool HalfMerge, int Slabs, int R, class K, class V, class Member, class Source,
          class Order>
KOKKOS_INLINE_FUNCTION void sort_block(const Member& member, const Source& source,
                                       const ScratchTile<K, V>& tile, const Order& order,
                                       std::int64_t base, std::int64_t count, std::int64_t block) {
#if defined(__CUDA_ARCH__)
  const int thread = team_thread();
  K k[R];
  V v[R];
  // Record g of the block into registers; padding: the all-ones word.
  auto load = [&](int r, std::int64_t g) {
    if (g < count) {
      k[r] = source.keys.load(base + g);
      v[r] = source.values.load(base + g);
    } else {
      k[r] = ~K(0);
      v[r] = padding_value<V>();
    }
  };
  if constexpr (HalfMerge) {
    // Coalesced rows through registers (all R loads in flight before the scratch stores).
    const int threads = member.team_size();
#pragma unroll
    for (int r = 0; r < R; ++r) load(r, r * threads + thread);
#pragma unroll
    for (int r = 0; r < R; ++r) tile.set(r * threads + thread, k[r], v[r]);
    member.team_barrier();
    block_half_merge<Slabs, R, K, V>(tile, block / (32 * R), order);
  } else {
    const int first = slab_first<R>(thread);
#pragma unroll
    for (int r = 0; r < R; ++r) load(r, load_offset<32, R>(first + r, count == block));
    block_sort<Slabs>(k, v, tile, block / (32 * R), order);
  }
#else
  (void)member, (void)source, (void)tile, (void)order, (void)base, (void)count, (void)block;
#endif
}

// Segmented sort's group bins (Ordo_SegmentedSortImpl.hpp): the warp's lanes in groups of W, each
// group sorting the segment tile_of(g) returns (g: the group's index in the team) of count(g) <=
// W * R records (0: none) in its slab of W lanes, in position order (lane l of the group holds
// positions l * R + [0, R)); every lane of the warp takes part in the shuffles. Whole warps take
// warp_sort's coalesced rows (position order measured twice as slow there).
template <int W, int R, class K, class V, class TileOf, class Order>
KOKKOS_INLINE_FUNCTION void group_sort_segments(const TileOf& tile_of, const Order& order) {
#if defined(__CUDA_ARCH__)
  const int thread = team_thread();
  std::int64_t n = 0;
  const auto tile = tile_of(thread / W, n);
  if constexpr (W == 32) {  // a whole warp: coalesced rows in and out (warp_sort)
    if (n > 1) warp_sort<R, K, V>(tile, n, order);
  } else {
    const int lane = thread % 32, first = (lane % W) * R;
    K k[R];
    V v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) tile.get(first + r, k[r], v[r]);
    slab_sort<false, W>(k, v, lane, order);
#pragma unroll
    for (int r = 0; r < R; ++r) tile.set(first + r, k[r], v[r]);
  }
#else
  (void)tile_of, (void)order;
#endif
}

// sort_team's CUDA path (Ordo_TileSort.hpp's team_sort) for a team of whole warps: a segment
// that fits one warp's slab sorts there (R: the fewest registers per lane that hold it, up to
// Tuning::seam_regs; every stage in registers and shuffles); returns true. A longer one sorts
// in runs of 32 * Tuning::run_regs records, warp w taking runs w, w + warps, ..., sets
// `sorted` to that run length and returns false: the portable network then merges the runs. The
// user's kernel takes the registers of sort_team's heaviest path, which is why the runs stay
// short (perf_tests/README.md, "Tuning values"). Teams of other shapes: false, sorted unchanged.
template <class Tuning, class K, class V, class Tile, class Order>
KOKKOS_INLINE_FUNCTION bool team_sort_in_warps(const Tile& tile, std::int64_t n, const Order& order,
                                               std::int64_t& sorted) {
#if defined(__CUDA_ARCH__)
  const int threads = blockDim.x * blockDim.y;
  if (threads % 32 != 0) return false;
  auto one_run = [&](auto regs) -> bool {
    constexpr int R = decltype(regs)::value;
    if constexpr (R > Tuning::seam_regs) {
      return false;
    } else {
      if (n > 32 * R) return false;
      if (team_thread() < 32) warp_sort<R, K, V>(tile, n, order);
      __syncthreads();
      return true;
    }
  };
  using R4 = std::integral_constant<int, 4>;
  using R8 = std::integral_constant<int, 8>;
  using R16 = std::integral_constant<int, 16>;
  using R32 = std::integral_constant<int, 32>;
  if (one_run(R4{}) || one_run(R8{}) || one_run(R16{}) || one_run(R32{})) return true;
  // Warp w sorts runs w, w + warps, ... of 32 * R records each in its slab.
  constexpr int R = Tuning::run_regs;
  constexpr std::int64_t run = 32 * R;
  for (std::int64_t r = team_thread() / 32; r * run < n; r += threads / 32) {
    const TileAt<Tile> at{tile, r * run};
    warp_sort<R, K, V>(at, n - r * run < run ? n - r * run : run, order);
  }
  __syncthreads();
  sorted = run;
  return false;
#else
  (void)tile, (void)n, (void)order, (void)sorted;
  return false;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
