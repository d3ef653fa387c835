// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_RUNS_HPP
#define ORDO_RUNS_HPP

// Runs of equal keys, the shape of sorted data: unique, unique_by_key, run_length_encode,
// reduce_by_key, inclusive_scan_by_key, exclusive_scan_by_key, and bin_offsets (the CRS row map of
// sorted bin ids, a particle code's cell list).
//
// A run is a maximal stretch of consecutive elements equal under comp (neither orders before the
// other); the input need not be sorted (as std::unique), though sorting first makes each run hold
// every copy of its key. Under Ordo::less<>, -0.0 and +0.0 are equal and so are all NaNs.
//
// Each call with a count View (count(0): the number of runs) is asynchronous on `space`; the
// calls that return the count fence it. An output shorter than the runs holds their first
// elements and nothing is written past its end: the fencing forms then throw
// std::invalid_argument, the asynchronous ones leave the larger count in count(0).

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>
#include <impl/device/Ordo_RunsImpl.hpp>
#include <impl/device/Ordo_ScanByKeyImpl.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace Ordo {

// ---- unique ----------------------------------------------------------------------------------

/// The first element of each run of in, in order, to out; count(0) = the number of runs.
/// Synchronization: asynchronous on `space`.
template <class ExecSpace, class InView, class OutView, class CountView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<CountView>,
                           int> = 0>
void unique(const ExecSpace& space, const InView& in, const OutView& out, const CountView& count,
            const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::unique";
  const Impl::Region region(fn);
  Impl::check_runs_count<ExecSpace>(fn, count, in.extent(0), "in", in, "out", out);
  Impl::check_compaction<ExecSpace>(fn, in, out, "count", count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  Impl::unique_dispatch(fn, space, in, out, comp, count);
}

/// unique returning the number of runs. Synchronization: fences `space`.
template <
    class ExecSpace, class InView, class OutView, class Comp = less<>,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t unique(const ExecSpace& space, const InView& in, const OutView& out,
                    const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::unique";
  const Impl::Region region(fn);
  Impl::check_compaction<ExecSpace>(fn, in, out);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  const auto count = Impl::workspace<std::int64_t>(space, 1, Impl::WorkspaceSlot::counts);
  Impl::unique_dispatch(fn, space, in, out, comp, count);
  return Impl::size_checked(fn, space, count, out.extent(0), "out");
}

/// unique on out's execution space. Synchronization: fences that space.
template <class InView, class OutView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<InView> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t unique(const InView& in, const OutView& out, const Comp& comp = Comp{}) {
  return unique(typename OutView::execution_space(), in, out, comp);
}

/// The first key of each run of keys and its value, to keys_out and values_out; count(0) = the
/// number of runs. Synchronization: asynchronous on `space`.
template <class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut,
          class CountView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<CountView>,
                           int> = 0>
void unique_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                   const KeyOut& keys_out, const ValueOut& values_out, const CountView& count,
                   const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::unique_by_key";
  const Impl::Region region(fn);
  Impl::check_runs_count<ExecSpace>(fn, count, keys.extent(0), "keys", keys, "values", values,
                                    "keys_out", keys_out, "values_out", values_out);
  Impl::check_by_key<ExecSpace>(fn, keys, values, keys_out, values_out, "values_out", "count",
                                count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(keys.extent(0)));
  });
  Impl::compact_dispatch(
      space, keys.extent(0), Impl::SelectRunHead<KeyView, Comp>{keys, comp},
      Impl::EmitKeyValue<KeyView, ValueView, KeyOut, ValueOut>{keys, values, keys_out, values_out},
      count);
}

/// unique_by_key returning the number of runs. Synchronization: fences `space`.
template <
    class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut,
    class Comp = less<>,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t unique_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                           const KeyOut& keys_out, const ValueOut& values_out,
                           const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::unique_by_key";
  const Impl::Region region(fn);
  Impl::check_by_key<ExecSpace>(fn, keys, values, keys_out, values_out, "values_out");
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(keys.extent(0)));
  });
  const auto count = Impl::workspace<std::int64_t>(space, 1, Impl::WorkspaceSlot::counts);
  Impl::compact_dispatch(
      space, keys.extent(0), Impl::SelectRunHead<KeyView, Comp>{keys, comp},
      Impl::EmitKeyValue<KeyView, ValueView, KeyOut, ValueOut>{keys, values, keys_out, values_out},
      count);
  return Impl::size_checked(fn, space, count, std::min(keys_out.extent(0), values_out.extent(0)),
                            "keys_out or values_out");
}

/// unique_by_key on keys_out's execution space. Synchronization: fences that space.
template <class KeyView, class ValueView, class KeyOut, class ValueOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t unique_by_key(const KeyView& keys, const ValueView& values, const KeyOut& keys_out,
                           const ValueOut& values_out, const Comp& comp = Comp{}) {
  return unique_by_key(typename KeyOut::execution_space(), keys, values, keys_out, values_out,
                       comp);
}

// ---- reduce_by_key and run_length_encode -----------------------------------------------------

/// Each run of keys reduced: keys_out(r) = run r's first key, values_out(r) = op over its values
/// in order (op(a, b): a binary function object such as Ordo::plus<>, or a Kokkos reducer; it
/// must be associative, need not be commutative). The order of the reduction is fixed by n and
/// the backend, so floating-point results are the same on every run. count(0) = the number of
/// runs. Synchronization: asynchronous on `space`.
template <class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut, class Op,
          class CountView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<CountView>,
                           int> = 0>
void reduce_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                   const KeyOut& keys_out, const ValueOut& values_out, const Op& op,
                   const CountView& count, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::reduce_by_key";
  const Impl::Region region(fn);
  static_assert(std::is_assignable_v<typename ValueOut::reference_type,
                                     typename ValueView::non_const_value_type>,
                "Ordo::reduce_by_key: values_out's elements must be assignable from values'");
  Impl::check_runs_count<ExecSpace>(fn, count, keys.extent(0), "keys", keys, "values", values,
                                    "keys_out", keys_out, "values_out", values_out);
  Impl::check_by_key<ExecSpace>(fn, keys, values, keys_out, values_out, "values_out", "count",
                                count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, typename ValueView::non_const_value_type>(
        std::int64_t(keys.extent(0)));
  });
  Impl::reduce_by_key_dispatch(fn, space, keys, values, keys_out, values_out, op, comp, count);
}

/// reduce_by_key returning the number of runs. Synchronization: fences `space`.
template <
    class ExecSpace, class KeyView, class ValueView, class KeyOut, class ValueOut, class Op,
    class Comp = less<>,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t reduce_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                           const KeyOut& keys_out, const ValueOut& values_out, const Op& op,
                           const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::reduce_by_key";
  const Impl::Region region(fn);
  static_assert(std::is_assignable_v<typename ValueOut::reference_type,
                                     typename ValueView::non_const_value_type>,
                "Ordo::reduce_by_key: values_out's elements must be assignable from values'");
  Impl::check_by_key<ExecSpace>(fn, keys, values, keys_out, values_out, "values_out");
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, typename ValueView::non_const_value_type>(
        std::int64_t(keys.extent(0)));
  });
  const auto count = Impl::workspace<std::int64_t>(space, 1, Impl::WorkspaceSlot::counts);
  Impl::reduce_by_key_dispatch(fn, space, keys, values, keys_out, values_out, op, comp, count);
  return Impl::size_checked(fn, space, count, std::min(keys_out.extent(0), values_out.extent(0)),
                            "keys_out or values_out");
}

/// reduce_by_key on keys_out's execution space. Synchronization: fences that space.
template <class KeyView, class ValueView, class KeyOut, class ValueOut, class Op,
          class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t reduce_by_key(const KeyView& keys, const ValueView& values, const KeyOut& keys_out,
                           const ValueOut& values_out, const Op& op, const Comp& comp = Comp{}) {
  return reduce_by_key(typename KeyOut::execution_space(), keys, values, keys_out, values_out, op,
                       comp);
}

/// Each run of in: unique_out(r) = its first element, counts_out(r) = its length (an integer
/// View); count(0) = the number of runs. Synchronization: asynchronous on `space`.
template <class ExecSpace, class InView, class UniqueOut, class CountsOut, class CountView,
          class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<CountView>,
                           int> = 0>
void run_length_encode(const ExecSpace& space, const InView& in, const UniqueOut& unique_out,
                       const CountsOut& counts_out, const CountView& count,
                       const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::run_length_encode";
  const Impl::Region region(fn);
  Impl::check_runs_count<ExecSpace>(fn, count, in.extent(0), "in", in, "unique_out", unique_out,
                                    "counts_out", counts_out);
  Impl::check_run_length_encode<ExecSpace>(fn, in, unique_out, counts_out, "count", count);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  Impl::run_length_encode_dispatch(fn, space, in, unique_out, counts_out, comp, count);
}

/// run_length_encode returning the number of runs. Synchronization: fences `space`.
template <
    class ExecSpace, class InView, class UniqueOut, class CountsOut, class Comp = less<>,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t run_length_encode(const ExecSpace& space, const InView& in,
                               const UniqueOut& unique_out, const CountsOut& counts_out,
                               const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::run_length_encode";
  const Impl::Region region(fn);
  Impl::check_run_length_encode<ExecSpace>(fn, in, unique_out, counts_out);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(in.extent(0)));
  });
  const auto count = Impl::workspace<std::int64_t>(space, 1, Impl::WorkspaceSlot::counts);
  Impl::run_length_encode_dispatch(fn, space, in, unique_out, counts_out, comp, count);
  return Impl::size_checked(fn, space, count, std::min(unique_out.extent(0), counts_out.extent(0)),
                            "unique_out or counts_out");
}

/// run_length_encode on unique_out's execution space. Synchronization: fences that space.
template <class InView, class UniqueOut, class CountsOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<InView> && !Kokkos::is_view_v<Comp>, int> = 0>
std::int64_t run_length_encode(const InView& in, const UniqueOut& unique_out,
                               const CountsOut& counts_out, const Comp& comp = Comp{}) {
  return run_length_encode(typename UniqueOut::execution_space(), in, unique_out, counts_out, comp);
}

// ---- scans by key ---------------------------------------------------------------------------

/// Inclusive scan by key (Thrust's inclusive_scan_by_key): out(i) = op over values(j) for j from
/// the first element of the run of equal keys (under comp) that holds i, through i, left to right.
/// op: any associative binary function object or Kokkos reducer (need not commute); the order of
/// every reduction is fixed by the input's length and the backend, so a floating-point scan
/// gives the same bits on every run. values, out: one per key; out may be values itself (in
/// place), no other overlap. Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class ValueView, class OutView, class Op = plus<>,
          class Comp = less<>, std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void inclusive_scan_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                           const OutView& out, const Op& op = Op{}, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::inclusive_scan_by_key";
  const Impl::Region region(fn);
  Impl::check_scan_by_key<ExecSpace>(fn, keys, values, out);
  using V = typename ValueView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, V>(std::int64_t(keys.extent(0)));
  });
  Impl::scan_by_key_dispatch("inclusive_scan_by_key", space, keys, values, out, V(), false, op,
                             comp);
}

/// The same on out's execution space; fences it.
template <class KeyView, class ValueView, class OutView, class Op = plus<>, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void inclusive_scan_by_key(const KeyView& keys, const ValueView& values, const OutView& out,
                           const Op& op = Op{}, const Comp& comp = Comp{}) {
  const typename OutView::execution_space space;
  inclusive_scan_by_key(space, keys, values, out, op, comp);
  space.fence("Ordo::inclusive_scan_by_key: fence");
}

/// Exclusive scan by key (Thrust's exclusive_scan_by_key): out(i) = init at the first element of
/// each run of equal keys, else op(out(i - 1), values(i - 1)): init, then op over the run's values
/// before i, left to right. Otherwise as inclusive_scan_by_key. Synchronization: asynchronous on
/// `space` (no fence).
template <class ExecSpace, class KeyView, class ValueView, class OutView, class Op = plus<>,
          class Comp = less<>, std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void exclusive_scan_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                           const OutView& out, const typename ValueView::non_const_value_type& init,
                           const Op& op = Op{}, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::exclusive_scan_by_key";
  const Impl::Region region(fn);
  Impl::check_scan_by_key<ExecSpace>(fn, keys, values, out);
  using V = typename ValueView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::compaction_bound<ExecSpace, V>(std::int64_t(keys.extent(0)));
  });
  Impl::scan_by_key_dispatch("exclusive_scan_by_key", space, keys, values, out, init, true, op,
                             comp);
}

/// The same on out's execution space; fences it.
template <class KeyView, class ValueView, class OutView, class Op = plus<>, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void exclusive_scan_by_key(const KeyView& keys, const ValueView& values, const OutView& out,
                           const typename ValueView::non_const_value_type& init,
                           const Op& op = Op{}, const Comp& comp = Comp{}) {
  const typename OutView::execution_space space;
  exclusive_scan_by_key(space, keys, values, out, init, op, comp);
  space.fence("Ordo::exclusive_scan_by_key: fence");
}

// ---- bin_offsets -----------------------------------------------------------------------------

/// The CRS row map of sorted bin ids: for keys in [0, nbins) with nbins = offsets.extent(0) - 1,
/// offsets(b) = the position of the first key >= b and offsets(nbins) = n, empty bins included
/// (a particle code's cell list: bin b's elements are [offsets(b), offsets(b + 1))). Integer keys
/// and offsets. A key outside [0, nbins), or keys out of order, throw std::invalid_argument
/// naming the first such element (found as the offsets are written; offsets then holds partial
/// results). Synchronization: fences `space` (the check is read back).
template <class ExecSpace, class KeyView, class OffsetView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void bin_offsets(const ExecSpace& space, const KeyView& sorted_keys, const OffsetView& offsets) {
  constexpr const char* fn = "Ordo::bin_offsets";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, KeyView, OffsetView>();
  static_assert(std::is_integral_v<typename KeyView::value_type>,
                "Ordo::bin_offsets: the keys are integer bin ids");
  Impl::check_index_output<ExecSpace>(fn, "offsets", offsets, 1, sorted_keys.extent(0));
  Impl::check_no_alias(fn, "offsets", offsets, "sorted_keys", sorted_keys);
  Impl::check_all_reachable<ExecSpace>(fn, "sorted_keys", sorted_keys, "offsets", offsets);
  Impl::bin_offsets_impl(fn, space, sorted_keys, offsets);
}

/// bin_offsets on offsets' execution space. Synchronization: fences that space.
template <class KeyView, class OffsetView, std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void bin_offsets(const KeyView& sorted_keys, const OffsetView& offsets) {
  bin_offsets(typename OffsetView::execution_space(), sorted_keys, offsets);
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) of the compactions over n
/// elements: copy_if, copy_if_unordered, copy_flagged, retrieve_all (n: the map's capacity),
/// unique, unique_by_key, run_length_encode, and reduce_by_key with values of type Value (void:
/// the others). A few bytes per tile, and on CUDA the vendor library's storage; the call reserves
/// this much before anything runs (Ordo::set_workspace_limit).
template <class ExecSpace, class Value = void>
std::size_t compaction_workspace_bytes(std::size_t n) {
  return Impl::reserved_bytes<ExecSpace>(Impl::compaction_bound<ExecSpace, Value>(std::int64_t(n)));
}

}  // namespace Ordo

#endif
