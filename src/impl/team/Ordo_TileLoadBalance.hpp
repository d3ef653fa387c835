// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILELOADBALANCE_HPP
#define ORDO_IMPL_TILELOADBALANCE_HPP

// Team level of the load-balancing search: the search walk (Ordo_TileSearch.hpp) of X = the
// scan of item counts and Y = the output positions y0, y0 + 1, ..., which it computes instead of
// loading. A tile of team_size * VT steps loads only its items' scan values (and the item before
// them, which owns the tile's first positions), each thread walks VT steps without branches and
// writes the item of each position it passes into scratch, and the team stores the positions'
// results coalesced. Every step costs the same whatever the counts (items with a zero count take
// one).

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileRange.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The sequence first, first + 1, ..., first + n - 1 as a read-only rank-1 "View" of T.
template <class T>
struct CountingSequence {
  using value_type = T;
  using non_const_value_type = T;
  std::int64_t n;
  std::int64_t first = 0;
  KOKKOS_INLINE_FUNCTION T operator()(std::int64_t i) const { return T(first + i); }
  KOKKOS_INLINE_FUNCTION std::int64_t extent(int) const { return n; }
};

// One team per tile of the merge path of scan and the positions [0, outputs): store(k, item,
// rank) for each position k. Fused: the team co-ranks its tile's ends itself; otherwise they come
// from part.
template <int VT, bool Fused, class ExecSpace, class Scan, class PartView, class Store>
struct LoadBalanceTiles {
  using T = typename Scan::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using ScanTile = Kokkos::View<T*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using IndexTile = Kokkos::View<int*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Scan scan;
  CountingSequence<T> positions;
  PartView part;
  Store store;

  // The scan values of a tile's items and the one before (at most count + 1, and one more held
  // free), and each position's item.
  static std::size_t scratch_bytes(int threads) {
    const int count = threads * VT;
    return ScanTile::shmem_size(count + 2) + IndexTile::shmem_size(count);
  }
  std::size_t team_shmem_size(int threads) const { return scratch_bytes(threads); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int nt = member.team_size(), t = member.team_rank();
    const TileRange r = tile_range<Fused>(member, member.league_rank(), std::int64_t(nt) * VT, scan,
                                          positions, part, less<>{});
    const int count = r.count, nx = int(r.a1 - r.a0), ny = count - nx;
    const std::int64_t y0 = r.begin - r.a0;
    // Scratch holds scan[first, first + loaded): the item before the tile's first (it owns the
    // positions before the tile's first item starts) and the tile's items, at least one element
    // (the dispatch runs only with items).
    const std::int64_t first = r.a0 > 0 ? r.a0 - 1 : 0;
    const int xs = int(r.a0 - first), x_end = xs + nx;
    const int loaded = x_end > 0 ? x_end : 1;
    const ScanTile values(member.team_scratch(0), count + 2);
    const IndexTile owner(member.team_scratch(0), count);
    tile_stage<VT>(
        member, loaded, [&](int i) { return scan(first + i); }, values);
    member.team_barrier();

    // The thread's co-rank, then VT steps: an X step passes an item's start (X first on ties: an
    // item starting at position k owns k), a Y step gives a position the last item passed.
    const int diag = t * VT < count ? t * VT : count;
    const int mine = count - diag < VT ? count - diag : VT;
    const CountingSequence<T> tile_positions{ny, y0};
    const int xl = merge_path<int>(values, xs, nx, tile_positions, 0, ny, diag, less<>{});
    int xi = xs + xl, k = diag - xl;
    // Branch-free steps: the next item's start is read from scratch at every step, past the last
    // item too (xi <= x_end <= count + 1 lies inside values), and a Y step's write is predicated.
    // (Held in a register from one X step to the next, the fused kernel as nvcc 13.0 built it took
    // Y steps before equal starts: two threads then wrote one position. Not understood.)
    ORDO_UNROLL
    for (int s = 0; s < VT; ++s) {
      const bool live = s < mine;
      const bool x_step = (xi < x_end) & !(tile_positions(k) < values(xi));
      // k < count: a thread takes at most mine steps from diag. Before any item's start (a scan
      // that does not start at 0) this is -1: the store below takes the first item.
      if (live & !x_step) owner(k) = xi - 1;
      xi += int(live & x_step);
      k += int(live & !x_step);
    }
    member.team_barrier();

    // A slot's item is held to the loaded ones: -1 before any item's start, and on a scan that is
    // not sorted the threads' walks need not meet, so a slot may be left unwritten (holding
    // anything) or written twice; no read or write leaves scratch or the caller's Views.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, ny), [&](int i) {
      const int o = owner(i), j = o < 0 ? 0 : o < loaded ? o : loaded - 1;
      store(y0 + i, first + j, y0 + i - std::int64_t(values(j)));
    });
  }
};

}  // namespace Ordo::Impl

#endif
