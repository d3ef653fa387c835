#ifndef ORDO_IMPL_CUDA_COMPACT_HPP
#define ORDO_IMPL_CUDA_COMPACT_HPP

// CUDA seam of unordered compaction (seed 002): warp-aggregated atomics. Each warp ballots its
// lanes' selections, one lane claims room for all of them with a single atomic, and every
// selected lane emits its element at the claimed base plus the number of selected lanes below it.

#include <Ordo_Config.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
#define ORDO_CUDA_WARP_COMPACT 1

namespace Ordo::Impl::CudaSeam {

// The team's tile [begin, end), team_size threads, this thread's rank t. Team threads must map
// onto consecutive lanes (Kokkos' CUDA team with vector length 1); every lane runs the same trip
// count, so the ballots see full warps.
template <class Select, class Emit, class TotalView>
KOKKOS_INLINE_FUNCTION void warp_aggregated_compact(std::int64_t begin, std::int64_t end,
                                                    int team_size, int t, const Select& select,
                                                    const Emit& emit, const TotalView& total) {
#if defined(__CUDA_ARCH__)
  using Count = typename TotalView::non_const_value_type;
  const unsigned lane = unsigned(t) & 31u;
  const unsigned below = (1u << lane) - 1u;
  const std::int64_t capacity = emit.capacity();
  for (std::int64_t first = begin; first < end; first += team_size) {
    const std::int64_t i = first + t;
    const bool keep = i < end && select(i);
    const unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (mask == 0) continue;
    const int leader = __ffs(mask) - 1;
    Count base = 0;
    if (int(lane) == leader) base = Kokkos::atomic_fetch_add(&total(0), Count(__popc(mask)));
    base = __shfl_sync(0xffffffffu, base, leader);
    const std::int64_t pos = std::int64_t(base) + __popc(mask & below);
    if (keep && pos < capacity) emit(i, pos);
  }
#else
  (void)begin, (void)end, (void)team_size, (void)t, (void)select, (void)emit, (void)total;
#endif
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
