// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SCANIMPL_HPP
#define ORDO_IMPL_SCANIMPL_HPP

// Device level of an exclusive scan of 64-bit counts (the joins' outputs per key): out(i) = the
// sum of item(0 .. i - 1) for i in [0, n], so out(n) is the total.
//   device backends: Ordo::<algo>::scan  one pass, a team a tile of team_size * vt counts
//                    staged in scratch with coalesced loads (each thread sums vt consecutive
//                    ones, a team scan, the decoupled look-back of TileLookback, the prefixes
//                    back through scratch to coalesced stores; team/Ordo_TileScan.hpp): one pass
//                    where Kokkos::parallel_scan takes two
//   host backends:   Ordo::<algo>::scan  Kokkos::parallel_scan

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/team/Ordo_TileScan.hpp>

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
    launch_tiles<Tuning::team_size, Tuning::min_teams>(
        "Ordo::" + algo + "::scan", space, TilePlan{tiles, Tuning::team_size},
        ScanTiles<Tuning::vt, Tuning::lookback_window, ExecSpace, Out, Item, decltype(words)>{
            out, item, words, n, tiles});
  }
}

}  // namespace Ordo::Impl

#endif
