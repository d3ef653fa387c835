// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_HPP
#define ORDO_MPI_HPP

// Ordo::MPI (packages/mpi, target Ordo::MPI): one global order of keys spread over the ranks of
// an MPI communicator. Every rank sorts its keys with Ordo, the ranks refine splitters from
// samples of their sorted keys until every split lies within the requested balance, each key (and
// value) crosses the network once (one MPI_Alltoallv, or, in builds with Ordo_ENABLE_NCCL, NCCL's
// send and receive between the GPUs), and every rank merges the sorted runs it received with
// Ordo's merge.
//
// The global order is a total one: keys by comp, equal keys by the rank they came from, then by
// their position on that rank. So every form is stable and its result does not depend on timing.
// All are collective over comm: every rank calls the same form with the same key, value and
// comparator types and the same options.imbalance, or every rank throws std::invalid_argument
// saying who disagreed; bad input on any rank (values of the wrong size, memory the space cannot
// reach, an imbalance outside [0, 1]) makes every rank throw, naming the rank, before any key
// moves. Synchronization: blocking; each call fences `space` before returning. Memory: a rank holds
// its input, its result (allocated while the local sort runs, for the most keys the split may give
// the rank: (1 + imbalance) N / P + 2), a sorted copy of its keys and the runs it receives. The
// last two, and the staged exchange's pinned host buffers, stay in Ordo's workspaces between calls,
// so that repeated sorts neither allocate them nor make MPI register them again
// (Ordo::release_workspaces<MemorySpace>() frees them, as Kokkos::finalize does).

#include <Ordo_Comparators.hpp>
#include <Ordo_MPISortTypes.hpp>
#include <impl/Ordo_MPISortImpl.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

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
  return Impl::distributed_sort<Impl::Form::sort>(space, comm, keys, Impl::NoValues{}, comp,
                                                  options)
      .first;
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
  auto [k, v] =
      Impl::distributed_sort<Impl::Form::sort_by_key>(space, comm, keys, values, comp, options);
  return {k, v};
}

/// sort_by_key; named for codes that ask for stability (every form is stable).
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
SortedPairs<ResultView<KeyView>, ResultView<ValueView>> stable_sort_by_key(
    const ExecSpace& space, MPI_Comm comm, const KeyView& keys, const ValueView& values,
    const Comp& comp = Comp{}, const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView, ValueView>();
  auto [k, v] = Impl::distributed_sort<Impl::Form::stable_sort_by_key>(space, comm, keys, values,
                                                                       comp, options);
  return {k, v};
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

/// Sorts in place across ranks, each rank keeping its number of keys: rank r's keys become
/// positions [n_0 + ... + n_(r-1), n_0 + ... + n_r) of the global order (an exact split).
template <class ExecSpace, class KeyView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_keep_counts(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                      const Comp& comp = Comp{}, const SortOptions& options = {}) {
  Impl::check_types<ExecSpace, Comp, KeyView>();
  static_assert(!std::is_const_v<typename KeyView::value_type>, "Ordo::MPI: keys are written");
  Impl::distributed_sort<Impl::Form::sort_keep_counts>(space, comm, keys, Impl::NoValues{}, comp,
                                                       options);
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
  Impl::distributed_sort<Impl::Form::sort_by_key_keep_counts>(space, comm, keys, values, comp,
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
