// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTMERGEPASSIMPL_HPP
#define ORDO_IMPL_SORTMERGEPASSIMPL_HPP

// Device level of sort: the merge passes after the block kernel and the streaming levels, each
// doubling the sorted run length with the merge-path tiles of merge:
//   Ordo::sort::merge::partition  the co-rank of every tile's first output (the shared partition
//                                 kernel of Ordo_MergePath.hpp; from the samples of the runs that
//                                 the pass before wrote, after the first pass)
//   Ordo::sort::merge::tiles      one team per tile: team_merge_tile, outputs to the next buffer
//                                 or the caller's Views, every partition_sample-th key sampled
//   Ordo::sort::merge::fused      passes of few tiles: the teams co-rank their own tiles

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_MergePathLaunch.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileMergePass.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// The boundaries of a merge pass for the partition kernel (Ordo_MergePath.hpp): boundary t is the
// co-rank of tile t's first output in its pair.
template <int S, class KeyView, class SampleView, class Less>
struct PassBoundaries {
  KeyView keys;
  SampleView samples;
  PassShape shape;
  Less less;
  template <class Probes>
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t t, const Probes& probes) const {
    const PassTile p(int(t), shape);
    if (p.count <= 0) return 0;  // past the last pair's outputs: never read
    return pass_co_rank<S>(keys, samples, p, shape.run, p.diag, less, probes);
  }
};

// A merge pass. samples_in: the samples of keys' runs (empty:
// none), samples_out: where to write those of the pass's output (empty: nowhere); one buffer can
// be both, the partition reading before the tiles write.
template <class ExecSpace, class K, class V, class KeyView, class ValueView, class Sink,
          class SampleView, class Less>
void sort_merge_pass(const ExecSpace& space, std::int64_t n, std::int64_t run, const KeyView& keys,
                     const ValueView& values, const Sink& sink, const SampleView& samples_in,
                     const SampleView& samples_out, const Less& less, const SortOptions& options) {
  using Tuning = MergeTuning<ExecSpace, sizeof(K)>;
  constexpr int vt = Tuning::vt;
  const PassShape shape(n, run, Tuning::team_size * vt);
  const std::int64_t tiles = shape.tiles();
  using Part = PartitionView<ExecSpace>;
  using SortTune = typename SortTypes<ExecSpace, K, V>::Tuning;
  constexpr int S = SortTune::partition_sample;
  // Large keys-only passes (DRAM-bound) run with launch bounds that trade registers for more
  // resident tiles; smaller ones (L2-resident, latency-bound) without. Fused passes are never
  // that large, so only the partitioned tiles are instantiated with bounds.
  static_assert(SortTune::bounded_merge_from / (Tuning::team_size * vt) > Tuning::fused_max_tiles,
                "sorts with bounded merge passes have too many tiles for a fused launch");
  const TilePlan plan{tiles, Tuning::team_size,
                      SortMergeTiles<vt, false, ExecSpace, K, V, KeyView, ValueView, Sink, Part,
                                     SampleView, Less>::scratch_bytes(Tuning::team_size)};
  auto launch = [&](auto fused, const auto& tiles_functor, const char* label) {
    if constexpr (SortTune::bounded_merge_from < never && !decltype(fused)::value) {
      if (n >= SortTune::bounded_merge_from) {
        launch_tiles<Tuning::team_size, SortTune::merge_min_teams>(label, space, plan,
                                                                   tiles_functor);
        return;
      }
    }
    launch_tiles(label, space, plan, tiles_functor);
  };
  using Fused =
      SortMergeTiles<vt, true, ExecSpace, K, V, KeyView, ValueView, Sink, Part, SampleView, Less>;
  using Tiles =
      SortMergeTiles<vt, false, ExecSpace, K, V, KeyView, ValueView, Sink, Part, SampleView, Less>;
  if (tiles <= Tuning::fused_max_tiles) {
    launch(std::true_type{}, Fused{keys, values, sink, Part(), samples_out, shape, less},
           "Ordo::sort::merge::fused");
    return;
  }
  const Part part = workspace<std::int64_t>(space, tiles);
  const int lanes =
      options.partition_lanes > 0 ? options.partition_lanes : SortTune::partition_lanes(n);
  const PassBoundaries<S, KeyView, SampleView, Less> boundaries{keys, samples_in, shape, less};
  with_partition_lanes(lanes, [&](auto lanes_constant) {
    partition_merge_path<decltype(lanes_constant)::value>("Ordo::sort::merge::partition", space,
                                                          boundaries, part, Tuning::team_size);
  });
  launch(std::false_type{}, Tiles{keys, values, sink, part, samples_out, shape, less},
         "Ordo::sort::merge::tiles");
}

}  // namespace Ordo::Impl

#endif
