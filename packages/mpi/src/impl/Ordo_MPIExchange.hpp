// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_EXCHANGE_HPP
#define ORDO_MPI_EXCHANGE_HPP

// The one exchange of the distributed sort: MPI_Alltoallv of sorted runs, either straight from
// the Views' memory or through pinned host buffers (Ordo workspaces, kept between calls), or
// NCCL's send and receive between GPUs (Ordo_MPINccl.hpp); which one each rank takes.

#include <Ordo_MPISortTypes.hpp>
#include <impl/Ordo_MPICall.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Nccl.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <numeric>
#include <vector>

namespace Ordo::MPI::Impl {

// The distributed sort's workspace slots (Ordo::Impl::workspace), kept between calls so that MPI
// finds the same buffers (and its registration of them) again.
enum class MPISlot : int {
  keys,
  values,
  received_keys,
  received_values,
  staged_send,  // pinned host memory
  staged_receive
};

// What the MPI library says, at run time, of CUDA device memory (Open MPI's
// MPIX_Query_cuda_support; other libraries do not say).
enum class CudaSupport { yes, no, unknown };

inline CudaSupport mpi_cuda_support() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA)
  return MPIX_Query_cuda_support() == 1 ? CudaSupport::yes : CudaSupport::no;
#else
  return CudaSupport::unknown;
#endif
}

template <class MemSpace>
constexpr bool host_memory() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible;
}

template <class MemSpace>
bool exchange_direct(Exchange how) {
  if (how != Exchange::automatic) return how == Exchange::direct;
  return host_memory<MemSpace>() || mpi_cuda_support() == CudaSupport::yes;
}

// The way this rank's keys travel: through NCCL, or handed to MPI directly or staged.
enum class Way { direct, staged, nccl };

template <class ExecSpace, class MemSpace>
Way exchange_way(Exchange how) {
  if (how == Exchange::nccl ||
      (how == Exchange::automatic && nccl_automatic<ExecSpace, MemSpace>()))
    return Way::nccl;
  return exchange_direct<MemSpace>(how) ? Way::direct : Way::staged;
}

// An MPI datatype of one element: counts and displacements are in elements, not bytes.
class ElementType {
 public:
  explicit ElementType(int bytes) {
    check_mpi(MPI_Type_contiguous(bytes, MPI_BYTE, &type_), "MPI_Type_contiguous");
    check_mpi(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  ~ElementType() { MPI_Type_free(&type_); }
  ElementType(const ElementType&) = delete;
  ElementType& operator=(const ElementType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Element counts to and from every rank, and where each run starts.
struct ExchangePlan {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::size_t received = 0;
};

inline ExchangePlan plan_exchange(MPI_Comm comm, const std::vector<std::uint64_t>& cuts) {
  const int ranks = static_cast<int>(cuts.size()) - 1;
  ExchangePlan p;
  p.send_counts.resize(ranks);
  p.recv_counts.resize(ranks);
  p.send_displs.resize(ranks);
  p.recv_displs.resize(ranks);
  for (int r = 0; r < ranks; ++r) {
    p.send_counts[r] = static_cast<int>(cuts[r + 1] - cuts[r]);
    p.send_displs[r] = static_cast<int>(cuts[r]);
  }
  check_mpi(MPI_Alltoall(p.send_counts.data(), 1, MPI_INT, p.recv_counts.data(), 1, MPI_INT, comm),
            "MPI_Alltoall of the counts");
  std::exclusive_scan(p.recv_counts.begin(), p.recv_counts.end(), p.recv_displs.begin(), 0);
  p.received = std::size_t(p.recv_displs[ranks - 1]) + p.recv_counts[ranks - 1];
  return p;
}

// recv's runs from every rank, in rank order, from send's runs to every rank. Fences `space`.
template <class ExecSpace, class T, class... SendProps, class... RecvProps>
void exchange(const ExecSpace& space, MPI_Comm comm, const ExchangePlan& plan,
              const Kokkos::View<T*, SendProps...>& send,
              const Kokkos::View<T*, RecvProps...>& recv, bool direct) {
  const ElementType type(sizeof(T));
  if (direct) {
    space.fence("Ordo::MPI::sort: before the exchange");
    check_mpi(MPI_Alltoallv(send.data(), plan.send_counts.data(), plan.send_displs.data(),
                            type.get(), recv.data(), plan.recv_counts.data(),
                            plan.recv_displs.data(), type.get(), comm),
              "MPI_Alltoallv");
    return;
  }
  // The pinned buffers stay in Ordo's workspaces: pinning host memory costs far more than copying
  // it, and MPI finds the same buffers again.
  const auto host_send = Ordo::Impl::workspace<T, ExecSpace, Kokkos::SharedHostPinnedSpace>(
      space, send.extent(0), MPISlot::staged_send);
  const auto host_recv = Ordo::Impl::workspace<T, ExecSpace, Kokkos::SharedHostPinnedSpace>(
      space, recv.extent(0), MPISlot::staged_receive);
  Kokkos::deep_copy(space, host_send, send);
  space.fence("Ordo::MPI::sort: staged send");
  check_mpi(MPI_Alltoallv(host_send.data(), plan.send_counts.data(), plan.send_displs.data(),
                          type.get(), host_recv.data(), plan.recv_counts.data(),
                          plan.recv_displs.data(), type.get(), comm),
            "MPI_Alltoallv");
  Kokkos::deep_copy(space, recv, host_recv);
  space.fence("Ordo::MPI::sort: staged receive");
}

}  // namespace Ordo::MPI::Impl

#endif
