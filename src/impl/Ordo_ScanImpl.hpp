// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SCANIMPL_HPP
#define ORDO_IMPL_SCANIMPL_HPP

// Device level of an exclusive scan of 64-bit counts (the joins' outputs per key): out(i) = the
// sum of item(0 .. i - 1) for i in [0, n], so out(n) is the total.
//   device backends: Ordo::<algo>::scan  one pass, a team a tile of team_size * vt counts
//                    staged in scratch with coalesced loads (each thread sums vt consecutive
//                    ones, a team scan, the decoupled look-back of team_look_back, the prefixes
//                    back through scratch to coalesced stores); Kokkos::parallel_scan's two
//                    passes took 0.49 ms for 2^24 counts on the H100 at 7d65e01, this scan with
//                    each thread loading its own 16 counts (a warp's loads 128 bytes apart) 0.38
//   host backends:   Ordo::<algo>::scan  Kokkos::parallel_scan

#include <impl/Ordo_LookbackWord.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace Ordo::Impl {

template <class Out, class Item>
struct ScanHost {
  Out out;
  Item item;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& running, bool final) const {
    const std::int64_t v = i < n ? item(i) : 0;
    if (final) out(i) = running;
    running += v;
  }
};

template <int VT, int Window, class ExecSpace, class Out, class Item, class Words>
struct ScanTiles {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tile = Kokkos::View<std::int64_t*, typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryUnmanaged>;
  Out out;
  Item item;
  Words words;  // words(t): tile t's look-back word; words(tiles): the ticket counter
  std::int64_t n, tiles;

  std::size_t team_shmem_size(int team_size) const {
    return Tile::shmem_size(std::size_t(team_size) * VT);
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t id = team_ticket(member, words, tiles);
    const int nt = member.team_size(), t = member.team_rank();
    const Tile tile(member.team_scratch(0), std::size_t(nt) * VT);
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
    std::int64_t tile_sum = before + sum;
    member.team_reduce(Kokkos::Max<std::int64_t>(tile_sum));
    const std::int64_t prefix = team_look_back<Window>(member, words, id, tile_sum);
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

// out(i) = item(0) + ... + item(i - 1) for i in [0, n]; out has n + 1 elements. tiled: the
// device path on any backend (tests).
template <class ExecSpace, class Out, class Item>
void exclusive_scan(const std::string& algo, const ExecSpace& space, std::int64_t n,
                    const Item& item, const Out& out, bool tiled = false) {
  if (is_host_space_v<ExecSpace> && !tiled) {
    Kokkos::parallel_scan(
        "Ordo::" + algo + "::scan",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n + 1),
        ScanHost<Out, Item>{out, item, n});
  } else {
    using Tuning = ScanTuning<ExecSpace>;
    constexpr std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::vt;
    const std::int64_t tiles = (n + 1 + tile - 1) / tile;
    const auto words = workspace<std::uint64_t>(space, tiles + 1, WorkspaceSlot::scan_words);
    Kokkos::deep_copy(space, words, 0);
    Kokkos::parallel_for(
        "Ordo::" + algo + "::scan", Kokkos::TeamPolicy<ExecSpace>(space, tiles, Tuning::team_size),
        ScanTiles<Tuning::vt, Tuning::lookback_window, ExecSpace, Out, Item, decltype(words)>{
            out, item, words, n, tiles});
  }
}

}  // namespace Ordo::Impl

#endif
