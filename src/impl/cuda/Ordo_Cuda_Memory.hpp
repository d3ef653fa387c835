// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_MEMORY_HPP
#define ORDO_IMPL_CUDA_MEMORY_HPP

// CUDA seam of the argument checks (Ordo_Checks.hpp): where the driver says a pointer lies, for
// unmanaged Views whose memory Kokkos did not allocate. And the look-back words' loads and stores
// (Ordo_LookbackWord.hpp) as relaxed accesses at device scope: a volatile access compiles to a
// system-scope one.

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>

#include <cstdint>

namespace Ordo::Impl::CudaSeam {

KOKKOS_FORCEINLINE_FUNCTION std::uint64_t load_relaxed(const std::uint64_t& word) {
#if defined(__CUDA_ARCH__)
  std::uint64_t value;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(value) : "l"(&word) : "memory");
  return value;
#else
  return *static_cast<const volatile std::uint64_t*>(&word);
#endif
}

KOKKOS_FORCEINLINE_FUNCTION void store_relaxed(std::uint64_t& word, std::uint64_t value) {
#if defined(__CUDA_ARCH__)
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(&word), "l"(value) : "memory");
#else
  *static_cast<volatile std::uint64_t*>(&word) = value;
#endif
}

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
