// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_DEVICE_MERGEPATHLAUNCH_HPP
#define ORDO_IMPL_DEVICE_MERGEPATHLAUNCH_HPP

// Device level of the merge-path partitioner: the launches over the merge path of two sequences.
//   partition_merge_path     the co-rank of every tile boundary, one launch
//   launch_merge_path_tiles  a tiled kernel over the merge path: partition then tiles, fused, or
//                            pipelined persistent teams
//   host_chunk_count         how many merge-path chunks a host backend splits the work into

#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/team/Ordo_TileRange.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// The boundaries of one merge of a and b cut into tiles of `tile` outputs: boundary t is the
// co-rank of output min(t * tile, |a| + |b|).
template <class AView, class BView, class Comp>
struct MergeBoundaries {
  AView a;
  BView b;
  std::int64_t tile;
  Comp comp;
  template <class Probes>
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t t, const Probes& probes) const {
    const std::int64_t m = a.extent(0), n = b.extent(0);
    const std::int64_t diag = t * tile < m + n ? t * tile : m + n;
    return merge_path<std::int64_t>(a, 0, m, b, 0, n, diag, comp, probes);
  }
};

// The partition kernel: part(t) = boundaries(t, probes) for every t in [0, part.extent(0)), where
// `boundaries` finds boundary t's co-rank with the probes it is given (MergeBoundaries above;
// sort's merge passes, many pairs of runs at once). One thread per boundary (RangePolicy), or the
// Lanes vector lanes of a team thread (TeamPolicy). Lanes run a wider search with fewer dependent
// steps but fetch more sectors; SortTuning's partition_lanes says where they win.
template <int Lanes, class ExecSpace, class Boundaries, class PartView>
struct MergePathPartition {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Boundaries boundaries;
  PartView part;
  std::int64_t* ticket;  // zeroed by the first boundary's thread where not null

  KOKKOS_FUNCTION void operator()(std::int64_t t) const {
    part(t) = boundaries(t, ThreadProbes{});
    if (t == 0 && ticket != nullptr) *ticket = 0;
  }
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t t =
        std::int64_t(member.league_rank()) * member.team_size() + member.team_rank();
    if (t >= std::int64_t(part.extent(0))) return;
    const std::int64_t r = boundaries(t, VectorProbes<Lanes, Member>{member});
    Kokkos::single(Kokkos::PerThread(member), [&] {
      part(t) = r;
      if (t == 0 && ticket != nullptr) *ticket = 0;
    });
  }
};

// Calls f(std::integral_constant<int, L>) for L = lanes, one of the widths partitions search
// with: 1 (one thread per boundary), 4, 8, 16 or 32 vector lanes (Kokkos::abort otherwise).
template <class F>
void with_partition_lanes(int lanes, const F& f) {
  switch (lanes) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    case 32: f(std::integral_constant<int, 32>{}); break;
    default: Kokkos::abort("Ordo: partition lanes must be 1, 4, 8, 16 or 32");
  }
}

// Launches the partition kernel over part's boundaries: one thread each (Lanes 1), or Lanes vector
// lanes each in teams of tile_threads / Lanes threads (tile_threads: the team size of the tiles
// that read part, so that a partition team spans as many lanes as a tile team has threads).
template <int Lanes = 1, class ExecSpace, class Boundaries, class PartView>
void partition_merge_path(const std::string& label, const ExecSpace& space,
                          const Boundaries& boundaries, const PartView& part, int tile_threads = 1,
                          std::int64_t* ticket = nullptr) {
  const std::int64_t count = part.extent(0);
  const MergePathPartition<Lanes, ExecSpace, Boundaries, PartView> partition{boundaries, part,
                                                                             ticket};
  if constexpr (Lanes == 1) {
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, count),
        partition);
  } else {
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    const int vector = Lanes < Policy::vector_length_max() ? Lanes : Policy::vector_length_max();
    const int threads = tile_threads / Lanes > 1 ? tile_threads / Lanes : 1;
    Kokkos::parallel_for(
        label, Policy(space, int((count + threads - 1) / threads), threads, vector), partition);
  }
}

// Tile boundaries written by the partition kernel (workspace memory).
template <class ExecSpace>
using PartitionView = Kokkos::View<std::int64_t*, typename ExecSpace::memory_space,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Whether a tiles functor runs tiles one after another (team_pipeline) rather than one a team.
template <class Tiles, class = void>
inline constexpr bool pipelined_tiles_v = false;
template <class Tiles>
inline constexpr bool pipelined_tiles_v<Tiles, std::void_t<decltype(Tiles::pipelined)>> =
    Tiles::pipelined;

// Launches a tiled kernel over the merge path of a and b, tiles of tile_size elements, teams of
// team_size threads. fused: one launch, labelled <prefix>::fused, of
// make_tiles(std::true_type, PartitionView()), one team per tile, co-ranking its own; otherwise
// <prefix>::partition writes every tile boundary and <prefix>::tiles runs
// make_tiles(std::false_type, part): one team per tile, or, for pipelined tiles
// (pipelined_tiles_v), as many teams as the device holds at once (Tiles::min_teams: launch
// bounds), part holding one more word, their ticket counter, which the partition zeroes.
template <class ExecSpace, class AView, class BView, class Comp, class MakeTiles>
void launch_merge_path_tiles(const std::string& prefix, const ExecSpace& space, const AView& a,
                             const BView& b, const Comp& comp, int team_size,
                             std::int64_t tile_size, bool fused, const MakeTiles& make_tiles) {
  const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
  if (total == 0) return;
  const std::int64_t tiles = (total + tile_size - 1) / tile_size;
  if (fused) {
    launch_tiles(prefix + "::fused", space, TilePlan{tiles, team_size},
                 make_tiles(std::true_type{}, PartitionView<ExecSpace>()));
    return;
  }
  using Tiles = decltype(make_tiles(std::false_type{}, PartitionView<ExecSpace>()));
  if constexpr (pipelined_tiles_v<Tiles>) {
    const PartitionView<ExecSpace> part = workspace<std::int64_t>(space, tiles + 2);
    partition_merge_path(
        prefix + "::partition", space, MergeBoundaries<AView, BView, Comp>{a, b, tile_size, comp},
        PartitionView<ExecSpace>(part.data(), tiles + 1), 1, part.data() + tiles + 1);
    launch_tiles<Tiles::team_size, Tiles::min_teams>(prefix + "::tiles", space,
                                                     TilePlan{tiles, team_size, 0, true},
                                                     make_tiles(std::false_type{}, part));
  } else {
    const PartitionView<ExecSpace> part = workspace<std::int64_t>(space, tiles + 1);
    partition_merge_path(prefix + "::partition", space,
                         MergeBoundaries<AView, BView, Comp>{a, b, tile_size, comp}, part);
    launch_tiles(prefix + "::tiles", space, TilePlan{tiles, team_size},
                 make_tiles(std::false_type{}, part));
  }
}

// Host backends split the merge path of `total` elements into one chunk per thread, but no
// smaller than HostTuning::merge_path_grain, so that small inputs stay on one thread.
template <class ExecSpace>
std::int64_t host_chunk_count(const ExecSpace& space, std::int64_t total) {
  const std::int64_t grain = HostTuning::merge_path_grain;
  const std::int64_t most = (total + grain - 1) / grain;
  const std::int64_t threads = space.concurrency();
  return threads < most ? threads : most;
}

// An upper bound of the workspace of the merge-path calls over `total` elements of both inputs
// (merge, the sorted searches, the load-balancing search): the partition and two counts.
inline std::size_t merge_path_bound(std::int64_t total) {
  return tile_words_bytes(total) + slot_bytes<std::int64_t>(2);
}

}  // namespace Ordo::Impl

#endif
