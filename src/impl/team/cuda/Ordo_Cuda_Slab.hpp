// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_SLAB_HPP
#define ORDO_IMPL_CUDA_SLAB_HPP

// CUDA seam of sort (HotSort), the same network as Ordo_Slab.hpp with a warp's 32
// lanes as the slab's lanes and its registers as registers:
//   slab_flip / slab_half   the slab flip and half merges across lanes, by shuffles
//   slab_sort               per-lane sorting network, then flip and half merges up to the slab
//                           (a warp's, or a group of its lanes')
//   slab_transpose          a slab's registers transposed for coalesced rows
//   shfl_xor / shfl_up / shfl_idx, warp_inclusive_scan
//                           any value moved or scanned across the lanes (also the compaction,
//                           runs and set-operation seams' warp scans)
// (Lane level: the team-level block sorts built from these are team/cuda/Ordo_Cuda_TileSort.hpp.)
// Keys are encoded (Ordo_SortKeys.hpp) and padding holds the all-ones word, so the register
// networks run without guards. Called by every thread of a Kokkos CUDA team whose threads form
// whole warps (linear thread id = threadIdx.y * blockDim.x + threadIdx.x).

#include <Ordo_BuildOptions.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(ORDO_CUDA_SEAM)

namespace Ordo::Impl::CudaSeam {

#if defined(__CUDA_ARCH__)
// x shuffled across the warp a 32-bit word at a time: shuffle(word) moves one word (any trivially
// copyable T; NoValue moves nothing).
template <class T, class Shuffle>
__device__ __forceinline__ T shfl_words(const T& x, const Shuffle& shuffle) {
  if constexpr (std::is_same_v<T, NoValue>) {
    return x;
  } else {
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned u[words] = {};
    memcpy(u, &x, sizeof(T));
#pragma unroll
    for (int w = 0; w < words; ++w) u[w] = shuffle(u[w]);
    T y;
    memcpy(&y, u, sizeof(T));
    return y;
  }
}

// x from the lane whose index differs from this one's in `mask`'s bits.
template <class T>
__device__ __forceinline__ T shfl_xor(const T& x, int mask) {
  return shfl_words(x, [mask](unsigned u) { return __shfl_xor_sync(0xffffffffu, u, mask); });
}

// x from the lane `delta` below this one (lanes below delta keep their own).
template <class T>
__device__ __forceinline__ T shfl_up(const T& x, int delta) {
  return shfl_words(x, [delta](unsigned u) { return __shfl_up_sync(0xffffffffu, u, delta); });
}

// The lanes' inclusive scan of x under join (associative, a before b): lane `lane` gets the join
// of lanes [0, lane]'s x, joined in lane order.
template <class T, class Join>
__device__ __forceinline__ T warp_inclusive_scan(T x, int lane, const Join& join) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T lower = shfl_up(x, d);
    if (lane >= d) x = join(lower, x);
  }
  return x;
}

// x from lane `lane`.
template <class T>
__device__ __forceinline__ T shfl_idx(const T& x, int lane) {
  return shfl_words(x, [lane](unsigned u) { return __shfl_sync(0xffffffffu, u, lane); });
}

// The calling thread's linear index in its team, opaque (see Ordo_Traits.hpp).
__device__ __forceinline__ int team_thread() {
  return opaque(threadIdx.y * blockDim.x + threadIdx.x);
}

// The lane keeps the partner's record when the pair exchanges: the pair is (lower lane's
// position, upper lane's position) and exchanges when the upper record orders first. (Written so
// that the lane's side stays a predicate: min or max for plain keys, else two compares and one
// predicate operation, not a materialized bool per register.)
template <class K, class V, class Order>
__device__ __forceinline__ void keep(K& k, V& v, const K& a, const V& va, bool lower,
                                     const Order& order) {
  if constexpr (min_max_order_v<Order, K, V>) {
    const K lo = a < k ? a : k, hi = a < k ? k : a;
    k = lower ? lo : hi;
  } else {
    const bool a_first = order(a, va, k, v), k_first = order(k, v, a, va);
    const bool take = (lower && a_first) || (!lower && k_first);
    k = take ? a : k;
    if constexpr (!std::is_same_v<V, NoValue>) v = take ? va : v;
  }
}

// Slab flip merge: lane l's register r pairs with lane l ^ mask's register R - 1 - r.
template <int R, class K, class V, class Order>
__device__ __forceinline__ void slab_flip(K (&k)[R], V (&v)[R], int lane, int mask,
                                          const Order& order) {
  const bool lower = (lane & ((mask + 1) >> 1)) == 0;
#pragma unroll
  for (int r = 0; r < R / 2; ++r) {
    const K a = shfl_xor(k[R - 1 - r], mask), b = shfl_xor(k[r], mask);
    const V va = shfl_xor(v[R - 1 - r], mask), vb = shfl_xor(v[r], mask);
    keep(k[r], v[r], a, va, lower, order);
    keep(k[R - 1 - r], v[R - 1 - r], b, vb, lower, order);
  }
}

// Slab half merge step: lane l's register r pairs with lane l ^ mask's register r.
template <int R, class K, class V, class Order>
__device__ __forceinline__ void slab_half(K (&k)[R], V (&v)[R], int lane, int mask,
                                          const Order& order) {
  const bool lower = (lane & mask) == 0;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const K a = shfl_xor(k[r], mask);
    const V va = shfl_xor(v[r], mask);
    keep(k[r], v[r], a, va, lower, order);
  }
}

// Half merges from lane distance `mask` down, then inside the lanes. Unrolled: the level loops as
// straight-line code (the block kernels, see CudaSlabTuning), else rolled (the team-level sorts,
// whose user kernels take the registers of every path they compile).
template <bool Unrolled, int R, class K, class V, class Order>
__device__ __forceinline__ void slab_half_merge(K (&k)[R], V (&v)[R], int lane, int mask,
                                                const Order& order) {
  if constexpr (Unrolled) {
#pragma unroll
    for (; mask >= 1; mask >>= 1) slab_half(k, v, lane, mask, order);
  } else {
#pragma unroll 1
    for (; mask >= 1; mask >>= 1) slab_half(k, v, lane, mask, order);
  }
  lane_half<R, R / 2>(k, v, order, 0, NoBound{});
}

// Lanes: the slab's width, 32 (a warp) or a power-of-two group of its lanes (segmented sort's
// groups: the shuffles' masks stay below Lanes, so each aligned group sorts its own slab).
template <bool Unrolled, int Lanes = 32, int R, class K, class V, class Order>
__device__ __forceinline__ void slab_sort(K (&k)[R], V (&v)[R], int lane, const Order& order) {
  static_assert(R >= 2 && (R & (R - 1)) == 0, "a power-of-two slab height of at least 2");
  static_assert(Lanes >= 1 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0, "a group of lanes");
  lane_sort<R>(k, v, order, 0, NoBound{});
  auto level = [&](int span) {
    slab_flip(k, v, lane, span - 1, order);
    slab_half_merge<Unrolled>(k, v, lane, span / 4, order);
  };
  if constexpr (Unrolled) {
#pragma unroll
    for (int span = 2; span <= Lanes; span *= 2) level(span);
  } else {
#pragma unroll 1
    for (int span = 2; span <= Lanes; span *= 2) level(span);
  }
}

// The first block position of thread `thread`'s R registers: warp w holds slab w, lane l its
// positions [l * R, l * R + R).
template <int R>
__device__ __forceinline__ int slab_first(int thread) {
  return (thread / 32) * (32 * R) + (thread % 32) * R;
}

// The slab's registers transposed for coalesced stores: a butterfly of log2(R) shuffle stages
// trades lane bit j for register bit j (j < log2(R)). Before, register r of lane l holds slab
// position l * R + r; after, register q of lane l holds transposed_position<R>(l, q), so that
// each register's lanes hold runs of R consecutive positions (R = 32: one row of 32).
template <int R, int M = 1, class K, class V>
__device__ __forceinline__ void slab_transpose(K (&k)[R], V (&v)[R], int lane) {
  static_assert(R <= 32, "a register bit per lane bit");
  if constexpr (M < R) {
    const bool upper = (lane & M) != 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      if (r & M) continue;
      // The lower lane sends register r | M and receives the upper lane's register r into it;
      // the upper lane sends register r and receives the lower lane's register r | M into it.
      const K k0 = k[r], k1 = k[r | M];
      const V v0 = v[r], v1 = v[r | M];
      const K kr = shfl_xor(upper ? k0 : k1, M);
      const V vr = shfl_xor(upper ? v0 : v1, M);
      k[r] = upper ? kr : k[r];
      v[r] = upper ? vr : v[r];
      k[r | M] = upper ? k[r | M] : kr;
      v[r | M] = upper ? v[r | M] : vr;
    }
    slab_transpose<R, 2 * M>(k, v, lane);
  }
}

template <int R>
__device__ __forceinline__ int transposed_position(int lane, int q) {
  return ((lane & ~(R - 1)) | q) * R + (lane & (R - 1));
}

#endif

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
