#ifndef ORDO_IMPL_CUDA_SLAB_HPP
#define ORDO_IMPL_CUDA_SLAB_HPP

// CUDA seam of sort (seed 003, HotSort), the same network as Ordo_Slab.hpp with a warp's 32
// lanes as the slab's lanes and its registers as registers:
//   slab_flip / slab_half   the slab flip and half merges across lanes, by shuffles
//   slab_sort               per-lane sorting network, then flip and half merges up to the slab
//   block_sort              a team of S warps: slab_sort, then for every multi-slab level the
//                           slabs go to the exchange buffer, each thread merges columns of the
//                           level's slabs there (multi-slab flip and half merge), and each warp
//                           reloads its slab and finishes with a slab half merge
//   block_half_merge        the end of a streaming merge level: multi-slab half merges in the
//                           exchange buffer, then each warp's slab half merge
// Keys are encoded (Ordo_SortKeys.hpp) and padding holds the all-ones word, so the register
// networks run without guards. Called by every thread of a Kokkos CUDA team whose threads form
// whole warps (linear thread id = threadIdx.y * blockDim.x + threadIdx.x).

#include <Ordo_Config.hpp>
#include <impl/Ordo_Slab.hpp>
#include <impl/Ordo_SlabTeam.hpp>
#include <impl/Ordo_Tuning.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
#define ORDO_CUDA_SLAB 1

namespace Ordo::Impl::CudaSeam {

#if defined(__CUDA_ARCH__)
template <class T>
__device__ __forceinline__ T shfl_xor(const T& x, int mask) {
  if constexpr (std::is_same_v<T, NoValue>) {
    return x;
  } else if constexpr (sizeof(T) == 4) {
    unsigned u;
    memcpy(&u, &x, 4);
    u = __shfl_xor_sync(0xffffffffu, u, mask);
    T y;
    memcpy(&y, &u, 4);
    return y;
  } else if constexpr (sizeof(T) == 8) {
    unsigned long long u;
    memcpy(&u, &x, 8);
    u = __shfl_xor_sync(0xffffffffu, u, mask);
    T y;
    memcpy(&y, &u, 8);
    return y;
  } else {
    constexpr int words = (sizeof(T) + 3) / 4;
    unsigned u[words] = {};
    memcpy(u, &x, sizeof(T));
#pragma unroll
    for (int w = 0; w < words; ++w) u[w] = __shfl_xor_sync(0xffffffffu, u[w], mask);
    T y;
    memcpy(&y, u, sizeof(T));
    return y;
  }
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

template <bool Unrolled, int R, class K, class V, class Order>
__device__ __forceinline__ void slab_sort(K (&k)[R], V (&v)[R], int lane, const Order& order) {
  static_assert(R >= 2 && (R & (R - 1)) == 0, "a power-of-two slab height of at least 2");
  lane_sort<R>(k, v, order, 0, NoBound{});
  auto level = [&](int span) {
    slab_flip(k, v, lane, span - 1, order);
    slab_half_merge<Unrolled>(k, v, lane, span / 4, order);
  };
  if constexpr (Unrolled) {
#pragma unroll
    for (int span = 2; span <= 32; span *= 2) level(span);
  } else {
#pragma unroll 1
    for (int span = 2; span <= 32; span *= 2) level(span);
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

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
