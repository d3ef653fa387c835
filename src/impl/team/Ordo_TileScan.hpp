// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TEAM_TILESCAN_HPP
#define ORDO_IMPL_TEAM_TILESCAN_HPP

// Team level of the exclusive scan of 64-bit counts (device/Ordo_ScanImpl.hpp): a team scans a
// tile of team_size * VT counts staged in scratch with coalesced loads (each thread sums VT
// consecutive ones, a team scan, the tile's prefix from the look-back, the prefixes back through
// scratch to coalesced stores).

#include <impl/core/Ordo_Traits.hpp>
#include <impl/team/Ordo_Lookback.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

template <int VT, int Window, class ExecSpace, class Out, class Item, class Words>
struct ScanTiles {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tile = Kokkos::View<std::int64_t*, typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryUnmanaged>;
  Out out;
  Item item;
  Words words;  // words(t): tile t's look-back word; words(tiles): the ticket counter
  std::int64_t n, tiles;

  // The counts, and one word for the tile's sum.
  std::size_t team_shmem_size(int team_size) const {
    return Tile::shmem_size(std::size_t(team_size) * VT + 1);
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t id = tile_lookback(words).ticket(member, tiles);
    const int nt = member.team_size(), t = member.team_rank();
    const Tile tile(member.team_scratch(0), std::size_t(nt) * VT + 1);
    const std::int64_t base = id * nt * VT;  // the tile's first count, of n + 1
    // Coalesced loads into scratch; each thread then owns VT consecutive counts (VT odd: a warp's
    // reads of 8-byte counts VT apart meet at most two to a bank).
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      const std::int64_t i = base + k * nt + t;
      tile(k * nt + t) = i < n ? item(i) : 0;
    }
    member.team_barrier();
    std::int64_t sum = 0;
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) sum += tile(t * VT + k);
    const std::int64_t before = member.team_scan(sum);
    // The last thread's inclusive sum is the tile's, passed through scratch.
    if (t == nt - 1) tile(std::size_t(nt) * VT) = before + sum;
    member.team_barrier();
    const std::int64_t tile_sum = tile(std::size_t(nt) * VT);
    const std::int64_t prefix = tile_lookback(words).template prefix<Window>(member, id, tile_sum);
    std::int64_t running = prefix + before;
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      const std::int64_t v = tile(t * VT + k);
      tile(t * VT + k) = running;
      running += v;
    }
    member.team_barrier();
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      const std::int64_t i = base + k * nt + t;
      if (i <= n) out(i) = tile(k * nt + t);
    }
  }
};

}  // namespace Ordo::Impl

#endif
