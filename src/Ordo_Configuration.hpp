// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_CONFIGURATION_HPP
#define ORDO_CONFIGURATION_HPP

// Ordo::print_configuration: what this build of Ordo is and holds.

#include <Ordo_BuildOptions.hpp>
#include <Ordo_Version.hpp>
#include <Ordo_Workspace.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_SortVendorImpl.hpp>

#include <Kokkos_Core.hpp>

#include <ostream>
#include <string>
#include <type_traits>

namespace Ordo {

/// Writes Ordo's version and commit, the Kokkos it was compiled against and its enabled backends,
/// the compiled-in seams and vendor paths (CUDA warp-shuffle specializations, the default space's
/// vendor library: CUB, rocPRIM or none, Ordo::MPI's NCCL exchange),
/// whether debug checks are on, and the workspace bytes Ordo holds now in the default memory
/// space and in pinned host memory. Call it between Kokkos::initialize and Kokkos::finalize.
inline void print_configuration(std::ostream& out) {
  auto on = [](bool b) { return b ? "on" : "off"; };
  out << "Ordo " << ORDO_VERSION_STRING << " (commit " << ORDO_GIT_HASH << ")\n";
  out << "  Kokkos " << KOKKOS_VERSION / 10000 << '.' << KOKKOS_VERSION / 100 % 100 << '.'
      << KOKKOS_VERSION % 100 << ", backends:";
#if defined(KOKKOS_ENABLE_SERIAL)
  out << " Serial";
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  out << " OpenMP";
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  out << " Threads";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  out << " Cuda";
#endif
#if defined(KOKKOS_ENABLE_HIP)
  out << " HIP";
#endif
#if defined(KOKKOS_ENABLE_SYCL)
  out << " SYCL";
#endif
  out << " (default " << Kokkos::DefaultExecutionSpace::name() << ")\n";
  // The same conditions the dispatch reads (Impl::with_warp_seam, the default space's Vendor,
  // debug_checks).
  out << "  CUDA warp-shuffle specializations: " << on(Impl::cuda_specializations_built) << '\n';
  out << "  vendor calls: " << Impl::Vendor<Kokkos::DefaultExecutionSpace>::name << '\n';
#if defined(ORDO_ENABLE_NCCL)
  out << "  NCCL exchange of Ordo::MPI: on\n";
#else
  out << "  NCCL exchange of Ordo::MPI: off\n";
#endif
  out << "  debug checks: " << on(Impl::debug_checks) << '\n';
  using Device = Kokkos::DefaultExecutionSpace::memory_space;
  out << "  workspace held: " << workspace_bytes<Device>() << " bytes in " << Device::name();
  if constexpr (!std::is_same_v<Device, Kokkos::HostSpace>) {
    out << ", " << workspace_bytes<Kokkos::HostSpace>() << " in " << Kokkos::HostSpace::name();
  }
  // On host backends the pinned space is HostSpace itself: its bytes are already counted.
  if constexpr (!std::is_same_v<Kokkos::SharedHostPinnedSpace, Kokkos::HostSpace> &&
                !std::is_same_v<Kokkos::SharedHostPinnedSpace, Device>) {
    out << ", " << workspace_bytes<Kokkos::SharedHostPinnedSpace>() << " in pinned host memory";
  }
  out << '\n';
}

}  // namespace Ordo

#endif
