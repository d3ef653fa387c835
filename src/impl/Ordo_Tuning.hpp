#ifndef ORDO_IMPL_TUNING_HPP
#define ORDO_IMPL_TUNING_HPP

// The one place per backend for Ordo's tuning constants. Device kernels read them from here;
// nothing else in Ordo hard-codes a team size, a VT or a switch point.

#include <Kokkos_Core.hpp>

#include <impl/Ordo_Traits.hpp>

#include <cstddef>
#include <cstdint>

namespace Ordo::Impl {

// Tiled merge (merge, merge_by_key): team_size threads, vt outputs per thread, so one tile is
// team_size * vt outputs. Inputs of at most fused_max_tiles tiles are merged in a single launch
// whose teams find their own tile boundaries (team_merge_path); larger ones run the partition
// kernel first.
template <class ExecSpace, std::size_t KeyBytes>
struct MergeTuning {
  static constexpr int team_size = 1;
  static constexpr int vt = 16;
  static constexpr std::int64_t fused_max_tiles = 1;
};

#if defined(KOKKOS_ENABLE_CUDA)
template <std::size_t KeyBytes>
struct MergeTuning<Kokkos::Cuda, KeyBytes> {
  static constexpr int team_size = 128;
  static constexpr int vt = KeyBytes <= 4 ? 15 : 9;
  static constexpr std::int64_t fused_max_tiles = 64;
};
#endif

}  // namespace Ordo::Impl

#endif
