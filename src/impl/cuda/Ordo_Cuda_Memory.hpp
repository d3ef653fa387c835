// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_MEMORY_HPP
#define ORDO_IMPL_CUDA_MEMORY_HPP

// CUDA seam of the argument checks (Ordo_Checks.hpp): where the driver says a pointer lies, for
// unmanaged Views whose memory Kokkos did not allocate.

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>

namespace Ordo::Impl::CudaSeam {

enum class PointerKind { device, host_mapped, host, unknown };

// host_mapped: host memory registered with (or allocated by) CUDA and mapped into the device's
// address space; host: host memory the device cannot reach; unknown: the driver could not tell
// (its error is cleared).
inline PointerKind pointer_kind(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return PointerKind::unknown;
  }
  switch (attr.type) {
    case cudaMemoryTypeUnregistered: return PointerKind::host;
    case cudaMemoryTypeHost:
      return attr.devicePointer != nullptr ? PointerKind::host_mapped : PointerKind::host;
    case cudaMemoryTypeDevice: return PointerKind::device;
    default: return PointerKind::host_mapped;  // managed memory: both sides reach it
  }
}

}  // namespace Ordo::Impl::CudaSeam

#endif
#endif
