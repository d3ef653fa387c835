// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_CUDA_NCCL_HPP
#define ORDO_MPI_CUDA_NCCL_HPP

// CUDA seam of Ordo::MPI's NCCL exchange (Ordo_MPINccl.hpp): which execution and memory spaces
// can take NCCL, the stream it runs on, making a communicator on the execution space's device,
// and waiting for the stream while watching NCCL's error state and the clock.

#include <Ordo_BuildOptions.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

#if defined(ORDO_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <string>
#endif

namespace Ordo::MPI::Impl {

// Whether this build can exchange keys in MemSpace through NCCL on ExecSpace, and whether
// Exchange::automatic takes it there (keys in CUDA device memory).
template <class ExecSpace, class MemSpace>
constexpr bool nccl_possible() {
#if defined(ORDO_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  return std::is_same_v<ExecSpace, Kokkos::Cuda> &&
         Kokkos::SpaceAccessibility<Kokkos::Cuda, MemSpace>::accessible;
#else
  return false;
#endif
}

template <class ExecSpace, class MemSpace>
constexpr bool nccl_automatic() {
#if defined(ORDO_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  return nccl_possible<ExecSpace, MemSpace>() && std::is_same_v<MemSpace, Kokkos::CudaSpace>;
#else
  return false;
#endif
}

#if defined(ORDO_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)

namespace NcclSeam {

inline cudaStream_t stream(const Kokkos::Cuda& space) { return space.cuda_stream(); }

// NCCL's text for code, with the communicator's last error where it has one.
inline std::string message(ncclResult_t code, ncclComm_t comm) {
  std::string s = ncclGetErrorString(code);
  const char* last = comm ? ncclGetLastError(comm) : nullptr;
  if (last && *last) s += std::string(" (") + last + ")";
  return s;
}

// A communicator of rank `rank` of `ranks` on space's device (the calling thread's current device
// is restored); *comm is null if NCCL made none. Blocking: a non-blocking communicator posts its
// calls from NCCL's own thread, which measured slower (perf_tests/README.md, the distributed
// sort).
inline ncclResult_t init(const Kokkos::Cuda& space, ncclComm_t* comm, int ranks,
                         const ncclUniqueId& id, int rank) {
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(space.cuda_device());
  const ncclResult_t r = ncclCommInitRank(comm, ranks, id, rank);
  cudaSetDevice(previous);
  return r;
}

// Waits until space's stream has run what was put on it; returns what went wrong (empty if
// nothing): the stream's error, NCCL's error state of comm, or more than timeout seconds.
inline std::string wait(const Kokkos::Cuda& space, ncclComm_t comm, double timeout) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    const cudaError_t q = cudaStreamQuery(space.cuda_stream());
    if (q == cudaSuccess) return {};
    if (q != cudaErrorNotReady) return std::string("the stream: ") + cudaGetErrorString(q);
    ncclResult_t state = ncclSuccess;
    ncclCommGetAsyncError(comm, &state);
    if (state != ncclSuccess && state != ncclInProgress) return message(state, comm);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout)
      return "it took longer than options.nccl_timeout_seconds";
  }
}

}  // namespace NcclSeam

#endif

}  // namespace Ordo::MPI::Impl

#endif
