// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_MERGEIMPL_HPP
#define ORDO_IMPL_MERGEIMPL_HPP

// Device level of merge and merge_by_key: dispatch by execution space and size.
//   device backends: Ordo::merge::partition (merge path of every tile boundary) then
//                    Ordo::merge::tiles (as many teams as the device holds, each running tiles
//                    one after another, the next one's loads in flight); small inputs: one
//                    launch, Ordo::merge::fused, one team per tile, co-ranking its own tile
//                    from MergeTuning's vendor_from on, keys that the vendor merge takes
//                    (Vendor::takes_merge; cub::DeviceMerge on CUDA) go to it instead
//   host backends:   Ordo::merge::host, one merge-path chunk per thread, merged as interleaved
//                    sequential walks

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_MergePathLaunch.hpp>
#include <impl/device/Ordo_VendorCalls.hpp>
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
    merge_chunk_interleaved<HostTuning::merge_ways>(a, b, out, c, chunks, comp,
                                                    GatherEmit<Values>{values});
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

// The vendor merge of a and b into out[0, |a| + |b|): true if it ran (Ordo::merge::vendor), false
// where the seam does not take the keys (Vendor::takes_merge) or its temporary storage would pass
// the merge's workspace bound (merge_path_bound, what the call reserved); then nothing ran.
template <class ExecSpace, class AView, class BView, class OutView, class Comp>
bool vendor_merge(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                  const Comp& comp) {
  if constexpr (Vendor<ExecSpace>::template takes_merge<AView, BView, OutView, Comp>()) {
    const std::int64_t m = a.extent(0), n = b.extent(0);
    const Region region("Ordo::merge::vendor");
    return with_vendor_temp(
        space, VendorShape{m, n},
        [&](void* temp, std::size_t& bytes) {
          Vendor<ExecSpace>::merge("Ordo::merge", temp, bytes, a.data(), m, b.data(), n, out.data(),
                                   comp, space);
        },
        merge_path_bound(m + n), WorkspaceSlot::partition);
  } else {
    (void)space, (void)a, (void)b, (void)out, (void)comp;
    return false;
  }
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
    if constexpr (std::is_same_v<Values, NoValues> &&
                  Vendor<ExecSpace>::template takes_merge<AView, BView, OutView, Comp>()) {
      if (total >= Tuning::vendor_from && vendor_merge(space, a, b, out, comp)) return;
    }
    const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::vt;
    merge_tiled(space, a, b, out, values, comp,
                (total + tile - 1) / tile <= Tuning::fused_max_tiles);
  }
}

}  // namespace Ordo::Impl

#endif
