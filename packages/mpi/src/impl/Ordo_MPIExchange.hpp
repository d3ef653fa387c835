// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_EXCHANGE_HPP
#define ORDO_MPI_EXCHANGE_HPP

// The one exchange of the distributed sort: MPI_Alltoallv of sorted runs, either straight from
// the Views' memory or through pinned host buffers (Ordo workspaces, kept between calls), or
// NCCL's send and receive between GPUs (Ordo_MPINccl.hpp); which one each rank takes.

#include <Ordo_MPISortTypes.hpp>
#include <impl/Ordo_MPICall.hpp>
#include <impl/Ordo_MPITuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Nccl.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
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

// Element counts to and from every rank as the transport takes them, and where each received run
// lies. Each run leaves from a multiple of MPITuning::exchange_alignment elements of the sender's
// sorted keys (up to exchange_alignment - 1 elements of the run before it go along, its head) and
// lands on such a multiple of the receive buffer: both ends of every copy are aligned.

struct ExchangePlan {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;  // heads included
  std::vector<int> send_heads;
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) of each received run
  std::size_t received = 0;                               // keys received, heads left out
  std::size_t extent = 0;                                 // elements of the receive buffer
};

inline ExchangePlan plan_exchange(MPI_Comm comm, const std::vector<std::uint64_t>& cuts) {
  const int ranks = static_cast<int>(cuts.size()) - 1;
  constexpr std::size_t align = MPITuning::exchange_alignment;
  ExchangePlan p;
  std::vector<int> out(2 * ranks), in(2 * ranks);  // (count with head, head) to and from each
  for (int r = 0; r < ranks; ++r) {
    const std::uint64_t begin = cuts[r], end = cuts[r + 1];
    const std::uint64_t from = end > begin ? begin - begin % align : begin;
    p.send_displs.push_back(static_cast<int>(from));
    p.send_counts.push_back(static_cast<int>(end - from));
    p.send_heads.push_back(static_cast<int>(begin - from));
    out[2 * r] = p.send_counts[r];
    out[2 * r + 1] = p.send_heads[r];
  }
  check_mpi(MPI_Alltoall(out.data(), 2, MPI_INT, in.data(), 2, MPI_INT, comm),
            "MPI_Alltoall of the counts");
  std::size_t at = 0;
  for (int r = 0; r < ranks; ++r) {
    const std::size_t count = std::size_t(in[2 * r]), head = std::size_t(in[2 * r + 1]);
    if (at > std::size_t(std::numeric_limits<int>::max()) - count) {
      throw std::runtime_error("Ordo::MPI: a rank would receive more than 2^31 - 1 elements");
    }
    p.recv_counts.push_back(static_cast<int>(count));
    p.recv_displs.push_back(static_cast<int>(at));
    p.runs.emplace_back(at + head, at + count);
    p.received += count - head;
    at = (at + count + align - 1) / align * align;
  }
  p.extent = at;
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
