// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_RADIX_HPP
#define ORDO_IMPL_CUDA_RADIX_HPP

// CUDA seam of the radix sort's ranking (Ordo_TileRadix.hpp, step 1), warp-level: warp w owns the
// tile positions [w * 32 * Items, (w + 1) * 32 * Items), lane l's key k at position
// w * 32 * Items + k * 32 + l (coalesced loads). For each k the lanes holding equal digits find
// each other (one ballot per digit bit; __match_any_sync measured slower, its latency on every
// key's critical path): a key's rank is its warp's count of that digit so far plus its
// peers on lower lanes, and the lowest peer adds the peers to the count. Counters: column w of
// counters(digit * warps + w). Called by every thread of a Kokkos CUDA team of whole warps
// (vector length 1, so team ranks are consecutive lanes).

#include <Ordo_BuildOptions.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(ORDO_CUDA_SEAM)

namespace Ordo::Impl::CudaSeam {

// The position in the tile of thread t's key k.
template <int Items>
KOKKOS_INLINE_FUNCTION int warp_tile_position(int t, int k) {
  return (t >> 5) * 32 * Items + k * 32 + (t & 31);
}

template <int Items, class Member, class K, class Counters>
KOKKOS_INLINE_FUNCTION void warp_rank(const Member& member, const K (&key)[Items], int pass,
                                      int (&rank)[Items], const Counters& counters) {
  const int warps = member.team_size() / 32;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits * warps),
                       [&](int j) { counters(j) = 0; });
  member.team_barrier();
#if defined(__CUDA_ARCH__)
  const int t = member.team_rank(), lane = t & 31, w = t >> 5;
  const unsigned below = (1u << lane) - 1u;
  for (int k = 0; k < Items; ++k) {
    const int d = radix_digit(key[k], pass);
    unsigned peers = 0xffffffffu;  // the lanes whose digit equals d, bit by bit
    for (int b = 0; b < radix_bits; ++b) {
      const bool bit = (d >> b) & 1;
      const unsigned votes = __ballot_sync(0xffffffffu, bit);
      peers &= bit ? votes : ~votes;
    }
    auto& count = counters(d * warps + w);
    const int before = count;
    __syncwarp();
    if (lane == __ffs(peers) - 1) count = before + __popc(peers);
    __syncwarp();
    rank[k] = before + __popc(peers & below);
  }
#else
  (void)key;
  (void)pass;
  (void)rank;
#endif
  member.team_barrier();
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
