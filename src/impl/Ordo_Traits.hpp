// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TRAITS_HPP
#define ORDO_IMPL_TRAITS_HPP

#include <Ordo_Config.hpp>

#include <impl/cuda/Ordo_Cuda_Toolchain.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

// Fully unrolled loops in device code (register arrays indexed by the loop variable stay in
// registers); nothing on the host compilers.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define ORDO_UNROLL _Pragma("unroll")
#else
#define ORDO_UNROLL
#endif

namespace Ordo::Impl {

// Host backends (Serial, OpenMP, Threads) dispatch to host algorithms.
template <class ExecSpace>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// A launch policy whose functor travels as the kernel's argument. Kokkos copies a functor of 512
// bytes or more (retrieve_all's selection carries a whole Kokkos::UnorderedMap; the segmented
// sort's radix passes carry their segment Views) to constant memory before each launch: a copy
// from pinned host memory on the stream, and a wait for the previous such kernel to finish.
template <class Policy>
auto by_argument(const Policy& policy) {
  return Kokkos::Experimental::require(policy,
                                       Kokkos::Experimental::WorkItemProperty::HintLightWeight);
}

// Rank-1 Views whose element i is data()[i].
template <class V, class = void>
inline constexpr bool is_contiguous_1d_v = false;
template <class V>
inline constexpr bool is_contiguous_1d_v<V, std::enable_if_t<Kokkos::is_view_v<V>>> =
    unsigned(V::rank) == 1 && (std::is_same_v<typename V::array_layout, Kokkos::LayoutRight> ||
                               std::is_same_v<typename V::array_layout, Kokkos::LayoutLeft>);

// x, hidden from the optimizer in CUDA device code. Kokkos runs a team's body in a loop over league
// ranks; from a plain thread index the compiler hoists everything derived from it (every
// register's load and store position, every stage's lane predicates) out of that loop and holds
// it in registers for the whole kernel (ptxas, sm_90: sort's block kernel 96 registers instead of
// 48; a slab of 32 registers per lane 255 instead of 72). Team kernels index by
// opaque(member.team_rank()).
KOKKOS_FORCEINLINE_FUNCTION int opaque(int x) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(x));
#endif
  return x;
}

// Calls launch(std::true_type{}) where the CUDA seams (src/impl/cuda/) are built, the space is
// Cuda and `warp` asks for them, else launch(std::false_type{}) (the portable kernel).
template <class ExecSpace, class Launch>
void with_warp_seam(bool warp, const Launch& launch) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(ORDO_ENABLE_CUDA_SPECIALIZATIONS)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    if (warp) {
      launch(std::true_type{});
      return;
    }
  }
#endif
  (void)warp;
  launch(std::false_type{});
}

}  // namespace Ordo::Impl

#endif
