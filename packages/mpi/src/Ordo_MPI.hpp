// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_HPP
#define ORDO_MPI_HPP

// Ordo::MPI (packages/mpi, target Ordo::MPI): one global order of keys spread over the ranks of
// an MPI communicator. Every rank sorts its keys with Ordo, the ranks choose splitters from one
// round of regular samples of their sorted keys (or refine them round by round where the split
// must be exact), each key (and value) crosses the network once (one MPI_Alltoallv, or, in builds
// with Ordo_ENABLE_NCCL, NCCL's send and receive between the GPUs), and every rank merges the
// sorted runs it received with Ordo's merge into its result.
//
// The global order is a total one: keys by comp, equal keys by the rank they came from, then by
// their position on that rank. So every form is stable and its result does not depend on timing.
// All are collective over comm: every rank calls the same form with the same key, value and
// comparator types and the same options.imbalance, or every rank throws std::invalid_argument
// saying who disagreed; bad input on any rank (values of the wrong size, memory the space cannot
// reach, an imbalance outside [0, 1], an output smaller than sort_capacity) makes every rank
// throw, naming the rank, before any key moves. Synchronization: blocking; each call fences
// `space` before returning. Memory: a rank holds its input, its result (allocated by sort and
// sort_by_key while the local sort runs, for the most keys the split may give the rank; the
// caller's Views with the into forms; the keys themselves with the keep-counts forms), a sorted
// copy of its keys and the runs it receives. The last two, the samples and the staged exchange's
// pinned host buffers stay in Ordo's workspaces between calls, so that repeated sorts neither
// allocate them nor make MPI register them again (Ordo::release_workspaces<MemorySpace>() frees
// them, as Kokkos::finalize does).

#include <Ordo_Comparators.hpp>
#include <Ordo_MPISortTypes.hpp>
#include <impl/Ordo_MPISortImpl.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

/// The distributed sort over MPI (packages/mpi): Ordo::MPI::sort and its forms.
namespace Ordo::MPI {

/// Whether the MPI library says, at run time, that it takes CUDA device memory (Open MPI's
/// MPIX_Query_cuda_support; false where the library does not say). Exchange::automatic passes
/// device Views to MPI directly only when this is true.
inline bool mpi_takes_device_memory() { return Impl::mpi_cuda_support() == Impl::CudaSupport::yes; }

/// Whether this build exchanges keys between GPUs through NCCL (Ordo_ENABLE_NCCL).
inline constexpr bool nccl_built =
#if defined(ORDO_ENABLE_NCCL)
    true;
#else
    false;
#endif

#if defined(ORDO_ENABLE_NCCL)
/// Destroys the NCCL communicator Ordo made for comm, if any; the next NCCL exchange on comm makes
/// a new one. Freeing comm, or Kokkos::finalize, does the same.
inline void release_nccl_communicator(MPI_Comm comm) {
  Impl::NcclCommunicators::instance().release(comm);
}
#endif

/// The View type that holds a rank's share of the sorted keys of KeyView.
template <class View>
using ResultView = Kokkos::View<typename View::non_const_value_type*, typename View::memory_space>;

/// Returns this rank's share of the global order of every rank's keys: rank r's keys all order
/// before rank r+1's, and no rank holds more than (1 + options.imbalance) * N / P + 1 of the N
/// keys. keys is left as it was; zero keys on a rank are allowed.
template <class ExecSpace, class KeyView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
ResultView<KeyView> sort(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                         const Comp& comp = Comp{}, const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView>();
  auto out = Impl::allocated_output<ResultView<KeyView>, Impl::NoValues>();
  const std::size_t count = Impl::distributed_sort<Impl::Form::sort>(
      space, comm, keys, Impl::NoValues{}, out, comp, options);
  return Impl::part(out.keys, 0, count);
}

/// sort on keys' execution space.
template <class KeyView, class Comp = less<>, std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
ResultView<KeyView> sort(MPI_Comm comm, const KeyView& keys, const Comp& comp = Comp{},
                         const SortOptions& options = {}) {
  return sort(typename KeyView::execution_space{}, comm, keys, comp, options);
}

/// sort with a value moving with each key: returns this rank's keys and values.
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
SortedPairs<ResultView<KeyView>, ResultView<ValueView>> sort_by_key(
    const ExecSpace& space, MPI_Comm comm, const KeyView& keys, const ValueView& values,
    const Comp& comp = Comp{}, const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView, ValueView>();
  auto out = Impl::allocated_output<ResultView<KeyView>, ResultView<ValueView>>();
  const std::size_t count = Impl::distributed_sort<Impl::Form::sort_by_key>(
      space, comm, keys, values, out, comp, options);
  return {Impl::part(out.keys, 0, count), Impl::part(out.values, 0, count)};
}

/// sort_by_key; named for codes that ask for stability (every form is stable).
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
SortedPairs<ResultView<KeyView>, ResultView<ValueView>> stable_sort_by_key(
    const ExecSpace& space, MPI_Comm comm, const KeyView& keys, const ValueView& values,
    const Comp& comp = Comp{}, const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView, ValueView>();
  auto out = Impl::allocated_output<ResultView<KeyView>, ResultView<ValueView>>();
  const std::size_t count = Impl::distributed_sort<Impl::Form::stable_sort_by_key>(
      space, comm, keys, values, out, comp, options);
  return {Impl::part(out.keys, 0, count), Impl::part(out.values, 0, count)};
}

/// sort_by_key and stable_sort_by_key on keys' execution space.
template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
SortedPairs<ResultView<KeyView>, ResultView<ValueView>> sort_by_key(
    MPI_Comm comm, const KeyView& keys, const ValueView& values, const Comp& comp = Comp{},
    const SortOptions& options = {}) {
  return sort_by_key(typename KeyView::execution_space{}, comm, keys, values, comp, options);
}

/// The same on the keys' execution space.
template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
SortedPairs<ResultView<KeyView>, ResultView<ValueView>> stable_sort_by_key(
    MPI_Comm comm, const KeyView& keys, const ValueView& values, const Comp& comp = Comp{},
    const SortOptions& options = {}) {
  return stable_sort_by_key(typename KeyView::execution_space{}, comm, keys, values, comp, options);
}

/// The fewest elements the outputs of sort_into and sort_by_key_into must hold on every rank when
/// this rank holds `count` keys: the most keys the balanced split may give a rank,
/// (1 + options.imbalance) * N / P + 2 of the N keys of P ranks (N on one rank). Collective over
/// comm (one MPI_Allreduce); every rank that passes the same options.imbalance gets the same
/// number.
inline std::size_t sort_capacity(MPI_Comm comm, std::size_t count,
                                 const SortOptions& options = {}) {
  std::uint64_t mine = count, total = 0;
  int ranks = 1;
  Impl::check_mpi(MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, comm),
                  "MPI_Allreduce of the key counts");
  Impl::check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  Impl::check_imbalance("Ordo::MPI::sort_capacity", options);
  return static_cast<std::size_t>(Impl::balanced_capacity(total, ranks, options.imbalance));
}

/// sort into the caller's View: this rank's share of the global order goes to keys_out(0, count),
/// and the call returns count. keys_out must hold sort_capacity(comm, keys.extent(0), options)
/// elements on every rank, or every rank throws std::invalid_argument before any key moves; it may
/// not overlap keys. With Ordo's workspaces kept from an earlier call of the same sizes, the call
/// allocates nothing; on one rank it is Ordo's sort of keys into keys_out.
template <class ExecSpace, class KeyView, class OutView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::size_t sort_into(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                      const OutView& keys_out, const Comp& comp = Comp{},
                      const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView, OutView>();
  Impl::check_output_type<KeyView, OutView>();
  auto out = Impl::caller_output(keys_out, Impl::NoValues{});
  return Impl::distributed_sort<Impl::Form::sort_into>(space, comm, keys, Impl::NoValues{}, out,
                                                       comp, options);
}

/// sort_into on keys' execution space.
template <class KeyView, class OutView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
std::size_t sort_into(MPI_Comm comm, const KeyView& keys, const OutView& keys_out,
                      const Comp& comp = Comp{}, const SortOptions& options = {}) {
  return sort_into(typename KeyView::execution_space{}, comm, keys, keys_out, comp, options);
}

/// sort_into with a value moving with each key (stable): this rank's keys and values go to
/// keys_out(0, count) and values_out(0, count). Both must hold sort_capacity elements on every
/// rank; no two of the four Views may overlap.
template <class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut,
          class Comp = less<>, std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::size_t sort_by_key_into(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                             const ValueView& values, const KeyOut& keys_out,
                             const ValueOut& values_out, const Comp& comp = Comp{},
                             const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView, ValueView, KeyOut, ValueOut>();
  Impl::check_output_type<KeyView, KeyOut>();
  Impl::check_output_type<ValueView, ValueOut>();
  auto out = Impl::caller_output(keys_out, values_out);
  return Impl::distributed_sort<Impl::Form::sort_by_key_into>(space, comm, keys, values, out, comp,
                                                              options);
}

/// sort_by_key_into on keys' execution space.
template <class KeyView, class ValueView, class KeyOut, class ValueOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
std::size_t sort_by_key_into(MPI_Comm comm, const KeyView& keys, const ValueView& values,
                             const KeyOut& keys_out, const ValueOut& values_out,
                             const Comp& comp = Comp{}, const SortOptions& options = {}) {
  return sort_by_key_into(typename KeyView::execution_space{}, comm, keys, values, keys_out,
                          values_out, comp, options);
}

/// Sorts in place across ranks, each rank keeping its number of keys: rank r's keys become
/// positions [n_0 + ... + n_(r-1), n_0 + ... + n_r) of the global order (an exact split).
template <class ExecSpace, class KeyView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_keep_counts(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                      const Comp& comp = Comp{}, const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView>();
  static_assert(!std::is_const_v<typename KeyView::value_type>, "Ordo::MPI: keys are written");
  auto out = Impl::caller_output(keys, Impl::NoValues{});
  Impl::distributed_sort<Impl::Form::sort_keep_counts>(space, comm, keys, Impl::NoValues{}, out,
                                                       comp, options);
}

/// sort_keep_counts with a value moving with each key.
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_by_key_keep_counts(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                             const ValueView& values, const Comp& comp = Comp{},
                             const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView, ValueView>();
  static_assert(!std::is_const_v<typename KeyView::value_type> &&
                    !std::is_const_v<typename ValueView::value_type>,
                "Ordo::MPI: keys and values are written");
  auto out = Impl::caller_output(keys, values);
  Impl::distributed_sort<Impl::Form::sort_by_key_keep_counts>(space, comm, keys, values, out, comp,
                                                              options);
}

/// sort_keep_counts and sort_by_key_keep_counts on keys' execution space.
template <class KeyView, class Comp = less<>, std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort_keep_counts(MPI_Comm comm, const KeyView& keys, const Comp& comp = Comp{},
                      const SortOptions& options = {}) {
  sort_keep_counts(typename KeyView::execution_space{}, comm, keys, comp, options);
}

/// The same on the keys' execution space.
template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort_by_key_keep_counts(MPI_Comm comm, const KeyView& keys, const ValueView& values,
                             const Comp& comp = Comp{}, const SortOptions& options = {}) {
  sort_by_key_keep_counts(typename KeyView::execution_space{}, comm, keys, values, comp, options);
}

}  // namespace Ordo::MPI

#endif
