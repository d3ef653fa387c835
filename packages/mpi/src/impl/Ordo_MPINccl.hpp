// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_NCCL_HPP
#define ORDO_MPI_NCCL_HPP

// The NCCL exchange of the distributed sort (Ordo_ENABLE_NCCL): the sorted runs move between the
// GPUs with grouped ncclSend / ncclRecv on the execution space instance's stream; the counts, the
// splitters and every agreement stay on MPI. The NCCL communicator is made from the MPI
// communicator (NCCL's unique id broadcast over MPI), cached on it as an MPI attribute, and
// destroyed when the MPI communicator is freed, by Ordo::MPI::release_nccl_communicator, or at
// Kokkos::finalize; a caller may pass its own (SortOptions::nccl_comm).
//
// No hang: the wait for the transfers polls the stream and NCCL's error state against
// SortOptions::nccl_timeout_seconds (so does every wait on a non-blocking communicator a caller
// passes), and after posting and after finishing the ranks agree over MPI on the outcome; a
// communicator is made only once every rank has the unique id (ncclCommInitRank itself waits for
// every rank to join: blocking communicators, see Ordo_Cuda_Nccl.hpp). A failure on any rank aborts
// the communicator on every rank and throws std::runtime_error on every rank, naming the first rank
// that failed and NCCL's message. The exchange writes only Ordo's workspaces: the caller's Views
// are untouched.

#include <Ordo_BuildOptions.hpp>

#if defined(ORDO_ENABLE_NCCL)

#include <Ordo_MPISortTypes.hpp>
#include <impl/Ordo_MPICall.hpp>
#include <impl/cuda/Ordo_Cuda_Nccl.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace Ordo::MPI::Impl {

// Every rank says whether its step failed (a non-empty message); when any did, every rank throws
// std::runtime_error naming the first rank that failed and its message.
inline void agree_on_outcome(MPI_Comm comm, const char* fn, const std::string& failure) {
  struct Outcome {
    int failed = 0;
    char message[252] = {};
  } mine;
  mine.failed = failure.empty() ? 0 : 1;
  std::strncpy(mine.message, failure.c_str(), sizeof(mine.message) - 1);
  int ranks = 1;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  std::vector<Outcome> all(ranks);
  check_mpi(
      MPI_Allgather(&mine, sizeof(Outcome), MPI_BYTE, all.data(), sizeof(Outcome), MPI_BYTE, comm),
      "MPI_Allgather of the NCCL outcome");
  for (int r = 0; r < ranks; ++r) {
    if (all[r].failed) {
      throw std::runtime_error(std::string(fn) + ": NCCL failed on rank " + std::to_string(r) +
                               ": " + all[r].message);
    }
  }
}

// Waits while comm has an operation in progress (a non-blocking communicator's calls, the caller's,
// return ncclInProgress); returns its final state, or ncclInProgress after timeout seconds.
inline ncclResult_t nccl_settle(ncclComm_t comm, ncclResult_t state, double timeout) {
  const auto start = std::chrono::steady_clock::now();
  while (state == ncclInProgress) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout)
      return ncclInProgress;
    if (ncclCommGetAsyncError(comm, &state) != ncclSuccess) return ncclInternalError;
  }
  return state;
}

// The NCCL communicators Ordo made, one cached on each MPI communicator (an MPI attribute whose
// deletion, when the MPI communicator is freed, destroys it).
class NcclCommunicators {
 public:
  static NcclCommunicators& instance() {
    static NcclCommunicators cache;
    return cache;
  }
  ncclComm_t find(MPI_Comm comm) {
    void* entry = nullptr;
    int found = 0;
    check_mpi(MPI_Comm_get_attr(comm, keyval(), &entry, &found), "MPI_Comm_get_attr");
    return found ? static_cast<Entry*>(entry)->nccl : nullptr;
  }
  void insert(MPI_Comm comm, ncclComm_t nccl) {
    Entry* e = new Entry{comm, nccl};
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      entries_.push_back(e);
      if (!hooked_) Kokkos::push_finalize_hook([] { NcclCommunicators::instance().release_all(); });
      hooked_ = true;
    }
    check_mpi(MPI_Comm_set_attr(comm, keyval(), e), "MPI_Comm_set_attr");
  }
  // Destroys comm's NCCL communicator (aborting what it has in flight when abort is set).
  void release(MPI_Comm comm, bool abort = false) {
    if (!find(comm)) return;
    abort_next_ = abort;
    check_mpi(MPI_Comm_delete_attr(comm, keyval()), "MPI_Comm_delete_attr");
    abort_next_ = false;
  }
  void release_all() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    while (true) {
      Entry* e = nullptr;
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (entries_.empty()) return;
        e = entries_.back();
      }
      if (finalized) {
        destroy(e);
      } else {
        MPI_Comm_delete_attr(e->comm, keyval());
      }
    }
  }

 private:
  struct Entry {
    MPI_Comm comm;
    ncclComm_t nccl;
  };
  int keyval() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (keyval_ == MPI_KEYVAL_INVALID) {
      check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &deleted, &keyval_, nullptr),
                "MPI_Comm_create_keyval");
    }
    return keyval_;
  }
  static int deleted(MPI_Comm, int, void* entry, void*) {
    instance().destroy(static_cast<Entry*>(entry));
    return MPI_SUCCESS;
  }
  void destroy(Entry* e) {
    if (abort_next_) {
      ncclCommAbort(e->nccl);
    } else {
      ncclCommDestroy(e->nccl);
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.erase(std::remove(entries_.begin(), entries_.end(), e), entries_.end());
    delete e;
  }
  std::mutex mutex_;
  std::vector<Entry*> entries_;
  int keyval_ = MPI_KEYVAL_INVALID;
  bool hooked_ = false;
  bool abort_next_ = false;
};

// The NCCL communicator of comm on space's device: the caller's, the cached one when every rank
// holds it (Agreement::nccl_cached), or a new one on every rank (collective over comm; a failure
// on any rank throws on every rank).
template <class ExecSpace>
ncclComm_t nccl_communicator(const ExecSpace& space, MPI_Comm comm, const Agreement& a,
                             const SortOptions& options, const char* fn) {
  if (options.nccl_comm) return options.nccl_comm;
  auto& cache = NcclCommunicators::instance();
  if (a.nccl_cached) return cache.find(comm);
  cache.release(comm);
  ncclUniqueId id{};
  std::string failure;
  if (a.rank == 0) {
    const ncclResult_t r = ncclGetUniqueId(&id);
    if (r != ncclSuccess) failure = "ncclGetUniqueId: " + NcclSeam::message(r, nullptr);
  }
  agree_on_outcome(comm, fn, failure);
  check_mpi(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm), "MPI_Bcast of the NCCL unique id");
  ncclComm_t nccl = nullptr;
  const ncclResult_t r = NcclSeam::init(space, &nccl, a.ranks, id, a.rank);
  if (r != ncclSuccess) {
    failure = "ncclCommInitRank: " + NcclSeam::message(r, nccl);
  }
  try {
    agree_on_outcome(comm, fn, failure);
  } catch (...) {
    if (nccl) ncclCommAbort(nccl);
    throw;
  }
  cache.insert(comm, nccl);
  return nccl;
}

// recv's runs from every rank, in rank order, from send's runs to every rank, for each (send,
// recv) pair of Views (the keys, and the values when there are values), in one NCCL group on
// space's stream. Returns when the runs have arrived.
template <class ExecSpace, class Plan, class... Pairs>
void nccl_exchange(const ExecSpace& space, MPI_Comm comm, ncclComm_t nccl, const Agreement& a,
                   const Plan& plan, const SortOptions& options, const char* fn,
                   const Pairs&... pairs) {
  const auto stream = NcclSeam::stream(space);
  ncclResult_t posted = ncclGroupStart();
  auto post = [&](const auto& send, const auto& recv) {
    const std::size_t bytes = sizeof(typename std::decay_t<decltype(send)>::value_type);
    for (int r = 0; r < a.ranks; ++r) {
      if (r == a.rank) continue;
      if (plan.send_counts[r] > 0 && posted == ncclSuccess) {
        posted = ncclSend(send.data() + plan.send_displs[r], bytes * plan.send_counts[r], ncclUint8,
                          r, nccl, stream);
      }
      if (plan.recv_counts[r] > 0 && posted == ncclSuccess) {
        posted = ncclRecv(recv.data() + plan.recv_displs[r], bytes * plan.recv_counts[r], ncclUint8,
                          r, nccl, stream);
      }
    }
  };
  (post(pairs.first, pairs.second), ...);
  const ncclResult_t ended = ncclGroupEnd();
  if (posted == ncclSuccess || posted == ncclInProgress) posted = ended;
  posted = nccl_settle(nccl, posted, options.nccl_timeout_seconds);
  // This rank's own run stays on the device, behind the transfers on the same stream.
  auto keep = [&](const auto& send, const auto& recv) {
    const std::size_t n = plan.send_counts[a.rank];
    const std::size_t from = plan.send_displs[a.rank], to = plan.recv_displs[a.rank];
    Kokkos::deep_copy(space, Kokkos::subview(recv, Kokkos::make_pair(to, to + n)),
                      Kokkos::subview(send, Kokkos::make_pair(from, from + n)));
  };
  (keep(pairs.first, pairs.second), ...);

  std::string failure;
  if (posted != ncclSuccess) {
    failure = posted == ncclInProgress
                  ? "posting the exchange took longer than options.nccl_timeout_seconds"
                  : "posting the exchange: " + NcclSeam::message(posted, nccl);
  }
  auto fail_everywhere = [&](const std::string& why) {
    try {
      agree_on_outcome(comm, fn, why);
    } catch (...) {
      // A rank that failed leaves its peers' transfers waiting: every rank aborts its own.
      if (options.nccl_comm) {
        ncclCommAbort(options.nccl_comm);
      } else {
        NcclCommunicators::instance().release(comm, true);
      }
      throw;
    }
  };
  fail_everywhere(failure);
  // Every rank posted its transfers: wait for them, watching NCCL's error state and the clock.
  const std::string waited = NcclSeam::wait(space, nccl, options.nccl_timeout_seconds);
  if (!waited.empty()) failure = "the exchange: " + waited;
  fail_everywhere(failure);
}

}  // namespace Ordo::MPI::Impl

#endif
#endif
