// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_MEMORY_HPP
#define ORDO_IMPL_CUDA_MEMORY_HPP

// CUDA seam of the argument checks (Ordo_Checks.hpp): where the driver says a pointer lies, for
// unmanaged Views whose memory Kokkos did not allocate. And the look-back words' loads and stores
// (Ordo_LookbackWord.hpp) as relaxed accesses at device scope: a volatile access compiles to a
// system-scope one. And the tile loads' asynchronous copies (Ordo_TileIO.hpp): global memory to
// team scratch without registers (cp.async, sm_80 and later; a plain copy before).

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

// Bytes (4, 8 or 16) of global memory at src to shared memory at dst, both aligned to Bytes, in
// flight until async_wait (16 bytes bypass L1); async_commit closes the group of the copies this
// thread issued.
template <int Bytes>
KOKKOS_FORCEINLINE_FUNCTION void async_copy(void* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned shared = unsigned(__cvta_generic_to_shared(dst));
  if constexpr (Bytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared), "l"(src) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(shared), "l"(src), "n"(Bytes)
                 : "memory");
  }
#else
  struct alignas(Bytes) Chunk {
    unsigned char b[Bytes];
  };
  *static_cast<Chunk*>(dst) = *static_cast<const Chunk*>(src);
#endif
}

KOKKOS_FORCEINLINE_FUNCTION void async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits until at most Pending of this thread's latest commit groups are still in flight.
template <int Pending>
KOKKOS_FORCEINLINE_FUNCTION void async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
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
