// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_SORT_TYPES_HPP
#define ORDO_MPI_SORT_TYPES_HPP

// Options, statistics and result types of the distributed sort (packages/mpi).

#include <cstdint>

namespace Ordo::MPI {

/// How the exchange hands the keys to MPI. `direct` passes the Views' memory to MPI (host memory,
/// or device memory with a CUDA-aware MPI); `staged` copies through pinned host buffers;
/// `automatic` is direct for host memory, and for device memory when MPI says at run time that it
/// is CUDA-aware (Open MPI's MPIX_Query_cuda_support), staged otherwise.
enum class Exchange { automatic, direct, staged };

/// What one rank saw of one distributed sort (filled when SortOptions::stats points to it).
struct SortStats {
  int splitter_rounds = 0;           ///< rounds of sampling and global counting (0 for one rank)
  double local_sort_seconds = 0;     ///< copy of the input and the local Ordo sort
  double splitter_seconds = 0;       ///< splitter refinement
  double exchange_seconds = 0;       ///< counts and the MPI_Alltoallv of keys (and values)
  double merge_seconds = 0;          ///< merge of the received sorted runs (and the copy back)
  std::uint64_t bytes_sent = 0;      ///< key and value bytes this rank sent to other ranks
  std::uint64_t bytes_received = 0;  ///< key and value bytes this rank received from other ranks
  std::uint64_t keys_after = 0;      ///< keys this rank holds after the sort
  bool direct = false;               ///< whether the exchange passed the Views' memory to MPI
};

/// Options of the distributed sorts.
struct SortOptions {
  /// The balanced forms give no rank more than (1 + imbalance) * N / P + 1 keys (N keys over P
  /// ranks); 0 asks for the exact split. The keep-counts forms always split exactly.
  double imbalance = 1.0 / 16;
  Exchange exchange = Exchange::automatic;  ///< how the keys travel between ranks
  SortStats* stats = nullptr;               ///< where to write this rank's SortStats, if not null
};

/// The keys and values a rank holds after Ordo::MPI::sort_by_key.
template <class KeyView, class ValueView>
struct SortedPairs {
  KeyView keys;      ///< this rank's sorted keys
  ValueView values;  ///< their values
};

}  // namespace Ordo::MPI

#endif
