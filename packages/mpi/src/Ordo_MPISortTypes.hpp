// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_SORT_TYPES_HPP
#define ORDO_MPI_SORT_TYPES_HPP

// Options, statistics and result types of the distributed sort (packages/mpi).

#include <Ordo_BuildOptions.hpp>

#include <cstdint>

#if defined(ORDO_ENABLE_NCCL)
#include <nccl.h>
#endif

namespace Ordo::MPI {

/// How the keys travel between ranks. `direct` passes the Views' memory to MPI (host memory, or
/// device memory with a CUDA-aware MPI); `staged` copies through pinned host buffers; `nccl` sends
/// them between the GPUs with NCCL (builds with Ordo_ENABLE_NCCL, the CUDA execution space, keys
/// in memory the GPU can reach; MPI still carries the counts and splitters). `automatic` is nccl
/// where NCCL is built in and the keys are in Kokkos::CudaSpace, else direct for host memory and
/// for device memory when MPI says at run time that it is CUDA-aware (Open MPI's
/// MPIX_Query_cuda_support), else staged. Every rank must take NCCL or none.
enum class Exchange { automatic, direct, staged, nccl };

/// What one rank saw of one distributed sort (filled when SortOptions::stats points to it).
struct SortStats {
  /// Splitter rounds: 1 where the one round of samples placed every cut; 0 for one rank.
  int splitter_rounds = 0;
  double local_sort_seconds = 0;     ///< copy of the input and the local Ordo sort
  double splitter_seconds = 0;       ///< the splitters (sample round or refinement)
  double exchange_seconds = 0;       ///< counts and the exchange of keys (and values)
  double merge_seconds = 0;          ///< merge of the received sorted runs into the output
  std::uint64_t bytes_sent = 0;      ///< key and value bytes this rank sent to other ranks
  std::uint64_t bytes_received = 0;  ///< key and value bytes this rank received from other ranks
  std::uint64_t keys_after = 0;      ///< keys this rank holds after the sort
  bool direct = false;               ///< whether the exchange passed the Views' memory to MPI
  bool nccl = false;                 ///< whether the exchange went through NCCL
};

/// Options of the distributed sorts.
struct SortOptions {
  /// The balanced forms give no rank more than (1 + imbalance) * N / P + 1 keys (N keys over P
  /// ranks); 0 asks for the exact split. The keep-counts forms always split exactly.
  double imbalance = 1.0 / 16;
  Exchange exchange = Exchange::automatic;  ///< how the keys travel between ranks
  SortStats* stats = nullptr;               ///< where to write this rank's SortStats, if not null
  /// How long the NCCL exchange waits for its transfers before it aborts the communicator and
  /// throws on every rank.
  double nccl_timeout_seconds = 300;
#if defined(ORDO_ENABLE_NCCL)
  /// The NCCL communicator to exchange over: null for Ordo's own, made from the MPI communicator
  /// on first use and cached on it. A caller's must hold the MPI communicator's ranks in the same
  /// order, on the execution space's device; Ordo aborts it if the exchange fails.
  ncclComm_t nccl_comm = nullptr;
#endif
};

/// The keys and values a rank holds after Ordo::MPI::sort_by_key.
template <class KeyView, class ValueView>
struct SortedPairs {
  KeyView keys;      ///< this rank's sorted keys
  ValueView values;  ///< their values
};

}  // namespace Ordo::MPI

#endif
