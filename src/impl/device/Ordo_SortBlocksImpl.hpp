// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTBLOCKSIMPL_HPP
#define ORDO_IMPL_SORTBLOCKSIMPL_HPP

// Device level of sort, the kernels before the merge passes:
//   Ordo::sort::blocks         one team per block of SortTuning's slabs: load (transposed for
//                              full blocks), the slab network (CUDA seam from registers, or the
//                              portable team network in scratch), store in order
//   Ordo::sort::stream::flip   streaming merge levels (smaller sorts, SortTuning's
//   Ordo::sort::stream::half   stream_levels): the flip merge of groups of 2, 4, ... blocks over
//                              global memory, each thread merging a column of the group in
//                              registers (flip and half merges down to one block apart), then
//                              the half merges inside every block (the block kernel's shape)

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_Slab.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileSort.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Slabs per block: SortTuning's, or as few as hold all n records when one block does (a small
// sort's one team then runs a shorter network with fewer warps).
template <class Tuning>
std::int64_t block_slabs(std::int64_t n) {
  constexpr std::int64_t slab = std::int64_t(Tuning::lanes) * Tuning::regs;
  const std::int64_t fit = network_size(n, slab) / slab;
  return fit < Tuning::slabs ? fit : Tuning::slabs;
}

// The block kernel (HalfMerge: the end of a streaming merge level) over n records.
template <bool HalfMerge, class ExecSpace, class K, class V, class Source, class Sink, class Order>
void sort_blocks(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                 const Order& order, bool seam) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  const std::int64_t slabs = block_slabs<Tuning>(n);
  const std::int64_t block = slabs * Tuning::lanes * Tuning::regs;
  const std::int64_t blocks = (n + block - 1) / block;
  const std::size_t bytes = ScratchTile<K, V>::bytes(block);
  const char* label = HalfMerge ? "Ordo::sort::stream::half" : "Ordo::sort::blocks";
  with_warp_seam<ExecSpace>(seam, [&](auto space_seam) {
    using Seam = SortSeam<decltype(space_seam), K>;
    const TilePlan plan = Seam::warp ? TilePlan{blocks, int(slabs) * cuda_warp_lanes, bytes}
                                     : TilePlan{blocks, int(slabs), bytes, false, Tuning::lanes};
    launch_tiles(label, space, plan,
                 SortBlocks<HalfMerge, Seam, ExecSpace, K, V, Source, Sink, Order>{
                     source, sink, order, n, block});
  });
}

// ---- streaming merge levels ---------------------------------------------------------------

// Streaming merge levels that sorts of n records run (SortTuning's stream_levels, or the one
// SortOptions forces), at most log2(stream_max_group).
template <class Tuning>
int stream_levels(std::int64_t n, const SortOptions& options) {
  constexpr int most = [] {
    int log2 = 0;
    while ((2 << log2) <= Tuning::stream_max_group) ++log2;
    return log2;
  }();
  const int levels = options.stream_levels >= 0 ? options.stream_levels : Tuning::stream_levels(n);
  return levels < most ? levels : most;
}

// The flip kernel of a streaming level of `group` blocks (instantiated for G = 2, 4, ...,
// SortTuning::stream_max_group).
template <int G, class ExecSpace, class K, class V, class Records, class Order>
void stream_flip(const ExecSpace& space, std::int64_t n, std::int64_t block, int group,
                 const Records& records, const Order& order) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  if constexpr (G <= Tuning::stream_max_group) {
    if (group != G) {
      stream_flip<2 * G, ExecSpace, K, V>(space, n, block, group, records, order);
      return;
    }
    constexpr std::int64_t threads = std::int64_t(Tuning::slabs) * Tuning::lanes;
    const std::int64_t columns = (n + G * block - 1) / (G * block) * block;
    launch_tiles(
        "Ordo::sort::stream::flip", space,
        TilePlan{(columns + threads - 1) / threads, int(threads)},
        SortStreamFlip<G, ExecSpace, K, V, Records, Order>{records, order, n, block, threads});
  }
}

}  // namespace Ordo::Impl

#endif
