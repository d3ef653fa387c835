#ifndef ORDO_IMPL_TRAITS_HPP
#define ORDO_IMPL_TRAITS_HPP

#include <Kokkos_Core.hpp>

namespace Ordo::Impl {

// Host backends (Serial, OpenMP, Threads) dispatch to host algorithms.
template <class ExecSpace>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

}  // namespace Ordo::Impl

#endif
