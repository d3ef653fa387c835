// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_MERGEIMPL_HPP
#define ORDO_IMPL_MERGEIMPL_HPP

// Device level of merge and merge_by_key: dispatch by execution space and size.
//   device backends: Ordo::merge::partition (merge path of every tile boundary) then
//                    Ordo::merge::tiles (as many teams as the device holds, each running tiles
//                    one after another, the next one's loads in flight); small inputs: one
//                    launch, Ordo::merge::fused, one team per tile, co-ranking its own tile
//                    from MergeTuning's vendor_from on, keys that the vendor merge can take
//                    (vendor_merge: cub::DeviceMerge on CUDA) go to it instead
//   host backends:   Ordo::merge::host, one merge-path chunk per thread, merged sequentially

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Cub.hpp>
#include <impl/device/Ordo_MergePathLaunch.hpp>
#include <impl/team/Ordo_TileMerge.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

template <class AView, class BView, class OutView, class Values, class Comp>
struct MergeHost {
  AView a;
  BView b;
  OutView out;
  Values values;
  std::int64_t chunks;
  Comp comp;

  void operator()(std::int64_t c) const {
    merge_chunk(a, b, out, c, chunks, comp, GatherEmit<Values>{values});
  }
};

// The tiled path, on any backend (host backends run it with their own team size, which tests
// use to check it on CPU). fused selects the single-launch variant.
template <class ExecSpace, class AView, class BView, class OutView, class Values, class Comp>
void merge_tiled(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                 const Values& values, const Comp& comp, bool fused) {
  using Tuning = MergeTuning<ExecSpace, sizeof(typename OutView::non_const_value_type)>;
  constexpr int vt = Tuning::vt;
  using Part = PartitionView<ExecSpace>;
  launch_merge_path_tiles(
      "Ordo::merge", space, a, b, comp, Tuning::team_size, std::int64_t(Tuning::team_size) * vt,
      fused, [&](auto fused_tag, const Part& part) {
        return MergeTiles<vt, decltype(fused_tag)::value, ExecSpace, AView, BView, OutView, Part,
                          Values, Comp>{a, b, out, part, values, comp};
      });
}

// Whether the vendor merge (cub::DeviceMerge, built where ORDO_CUB_MERGE) may merge these keys
// with Ordo's contract: CUDA, no values, contiguous Views of one integer type under Ordo::less or
// Ordo::greater. CUB's merge is not stable, which only keys that are equal but not the same bits
// could show: integers have none.
template <class ExecSpace, class AView, class BView, class OutView, class Values, class Comp>
constexpr bool vendor_merge_takes() {
#if defined(ORDO_CUDA_VENDOR) && defined(ORDO_CUB_MERGE)
  using Key = typename OutView::non_const_value_type;
  return std::is_same_v<ExecSpace, Kokkos::Cuda> && std::is_same_v<Values, NoValues> &&
         is_contiguous_1d_v<AView> && is_contiguous_1d_v<BView> && is_contiguous_1d_v<OutView> &&
         std::is_same_v<typename AView::non_const_value_type, Key> &&
         std::is_same_v<typename BView::non_const_value_type, Key> && std::is_integral_v<Key> &&
         is_ordo_order_v<Comp, Key>;
#else
  return false;
#endif
}

// The vendor merge of a and b into out[0, |a| + |b|), where vendor_merge_takes: true if it ran
// (Ordo::merge::vendor), false where it cannot take the keys or its temporary storage would pass
// the merge's workspace bound (merge_path_bound, what the call reserved); then nothing ran.
template <class ExecSpace, class AView, class BView, class OutView, class Comp>
bool vendor_merge(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                  const Comp& comp) {
  if constexpr (vendor_merge_takes<ExecSpace, AView, BView, OutView, NoValues, Comp>()) {
#if defined(ORDO_CUDA_VENDOR) && defined(ORDO_CUB_MERGE)
    const std::int64_t m = a.extent(0), n = b.extent(0);
    const char* fn = "Ordo::merge";
    std::size_t bytes = 0;
    CudaSeam::cub_merge_keys(fn, nullptr, bytes, a.data(), m, b.data(), n, out.data(), comp, space);
    if (slot_bytes<std::byte>(std::int64_t(bytes)) > merge_path_bound(m + n)) return false;
    const auto temp = workspace<std::byte>(space, bytes);
    const Region region("Ordo::merge::vendor");
    CudaSeam::cub_merge_keys(fn, temp.data(), bytes, a.data(), m, b.data(), n, out.data(), comp,
                             space);
    return true;
#endif
  }
  (void)space, (void)a, (void)b, (void)out, (void)comp;
  return false;
}

template <class ExecSpace, class AView, class BView, class OutView, class Values, class Comp>
void merge_dispatch(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                    const Values& values, const Comp& comp) {
  const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
  if (total == 0) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    const std::int64_t chunks = host_chunk_count(space, total);
    Kokkos::parallel_for(
        "Ordo::merge::host",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
        MergeHost<AView, BView, OutView, Values, Comp>{a, b, out, values, chunks, comp});
  } else {
    using Tuning = MergeTuning<ExecSpace, sizeof(typename OutView::non_const_value_type)>;
    if constexpr (vendor_merge_takes<ExecSpace, AView, BView, OutView, Values, Comp>()) {
      if (total >= Tuning::vendor_from && vendor_merge(space, a, b, out, comp)) return;
    }
    const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::vt;
    merge_tiled(space, a, b, out, values, comp,
                (total + tile - 1) / tile <= Tuning::fused_max_tiles);
  }
}

}  // namespace Ordo::Impl

#endif
