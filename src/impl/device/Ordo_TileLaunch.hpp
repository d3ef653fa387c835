// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_DEVICE_TILELAUNCH_HPP
#define ORDO_IMPL_DEVICE_TILELAUNCH_HPP

// Device level: the one launcher of tiled kernels (a TeamPolicy functor whose teams each run one
// tile, or, persistent, run tiles one after another by ticket). Every tiled primitive launches
// here; launch_merge_path_tiles (device/Ordo_MergePathLaunch.hpp) adds the choice between one fused
// launch, partition + tiles and pipelined persistent teams for work cut on the merge path.

#include <impl/core/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace Ordo::Impl {

// A tiled launch: `tiles` tiles, teams of `team_size` threads of `vector_length` lanes, `scratch`
// bytes of team scratch (level 0) a team beyond what the functor's team_shmem_size asks, and
// persistent: as many teams as the device holds at once (at least one, at most one a tile), which
// take their tiles by ticket.
struct TilePlan {
  std::int64_t tiles;
  int team_size;
  std::size_t scratch = 0;
  bool persistent = false;
  int vector_length = 1;
};

// Launches `tiles` as `label` under `plan`. MinTeams > 0: launch bounds for MinTeams resident
// teams of TeamSize threads an SM (the Tuning struct's choice: registers against resident tiles).
// The functor travels as the kernel's argument (by_argument).
template <int TeamSize = 0, int MinTeams = 0, class ExecSpace, class Tiles>
void launch_tiles(const std::string& label, const ExecSpace& space, const TilePlan& plan,
                  const Tiles& tiles) {
  if (plan.tiles <= 0) return;
  std::int64_t league = plan.tiles;
  if (plan.persistent) {
    const std::int64_t resident = space.concurrency() / plan.team_size;
    league = plan.tiles < resident ? plan.tiles : resident > 0 ? resident : 1;
  }
  using Bounds = Kokkos::LaunchBounds<(MinTeams > 0 ? TeamSize : 0), MinTeams>;
  Kokkos::TeamPolicy<ExecSpace, Bounds> policy(space, league, plan.team_size, plan.vector_length);
  if (plan.scratch > 0) policy.set_scratch_size(0, Kokkos::PerTeam(plan.scratch));
  Kokkos::parallel_for(label, by_argument(policy), tiles);
}

}  // namespace Ordo::Impl

#endif
