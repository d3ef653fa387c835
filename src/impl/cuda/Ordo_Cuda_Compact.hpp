#ifndef ORDO_IMPL_CUDA_COMPACT_HPP
#define ORDO_IMPL_CUDA_COMPACT_HPP

// CUDA seam of unordered compaction (seed 002): warp-aggregated atomics. Each warp ballots its
// lanes' selections, one lane claims room for all of them with a single atomic, and every
// selected lane emits its element at the claimed base plus the number of selected lanes below it
// (and of the warp's earlier steps).

#include <Ordo_Config.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
#define ORDO_CUDA_WARP_COMPACT 1

namespace Ordo::Impl::CudaSeam {

// The team's tile [begin, end) of team_size * VT elements, this thread's rank t; thread t takes
// elements begin + k * team_size + t, so each warp's lanes cover 32 consecutive elements per step.
// Each warp ballots its selections of all VT steps first, claims room for all of them with one
// atomic (one per 32 * VT elements), then writes each step's selections contiguously. Team
// threads must map onto consecutive lanes (Kokkos' CUDA team with vector length 1); every lane
// runs the same trip count, so the ballots see full warps.
template <int VT, class Select, class Emit, class TotalView>
KOKKOS_INLINE_FUNCTION void warp_aggregated_compact(std::int64_t begin, std::int64_t end,
                                                    int team_size, int t, const Select& select,
                                                    const Emit& emit, const TotalView& total) {
#if defined(__CUDA_ARCH__)
  using Count = typename TotalView::non_const_value_type;
  const unsigned lane = unsigned(t) & 31u;
  const unsigned below = (1u << lane) - 1u;
  unsigned masks[VT];
  int warp_count = 0;
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t i = begin + std::int64_t(k) * team_size + t;
    masks[k] = __ballot_sync(0xffffffffu, i < end && select(i));
    warp_count += __popc(masks[k]);
  }
  if (warp_count == 0) return;
  Count base = 0;
  if (lane == 0) base = Kokkos::atomic_fetch_add(&total(0), Count(warp_count));
  std::int64_t pos = __shfl_sync(0xffffffffu, (long long)base, 0);
  const std::int64_t capacity = emit.capacity();
  typename Emit::value_type v[VT];
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    if ((masks[k] >> lane) & 1u) v[k] = emit.load(begin + std::int64_t(k) * team_size + t);
  }
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const std::int64_t at = pos + __popc(masks[k] & below);
    if (((masks[k] >> lane) & 1u) && at < capacity) emit.store(at, v[k]);
    pos += __popc(masks[k]);
  }
#else
  (void)begin, (void)end, (void)team_size, (void)t, (void)select, (void)emit, (void)total;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
