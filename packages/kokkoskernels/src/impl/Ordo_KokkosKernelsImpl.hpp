// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELS_IMPL_HPP
#define ORDO_KOKKOSKERNELS_IMPL_HPP

// The CRS sorts of Ordo_KokkosKernels.hpp on the core's device level:
//   sort_rows       the rows sorted in place: Ordo::segmented_sort(_by_key), the row map as
//                   the segments' offsets
//   sort_and_merge  the rows sorted, then the runs of equal column ids in each row merged (their
//                   values summed), with no launch per row:
//                     Ordo::sort_and_merge::row_starts  starts(rowmap(r)) = r + 1 for each row
//                                                       with entries
//                     Ordo::sort_and_merge::count       the number of run heads (a row's start
//                                                       or a new column id): the merged size
//                     the core's stable compaction of the heads (Ordo::copy_if's kernels), each
//                     writing its column id, its run's sum (one thread a run) and, at a row's
//                     start, that row's first position in the row map
//                     Ordo::sort_and_merge::empty_rows  the row map at empty rows and at the end

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>
#include <impl/device/Ordo_SegmentedSortImpl.hpp>
#include <impl/team/Ordo_TileRuns.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace Ordo::KokkosKernels::Impl {

enum class KokkosKernelsSlot : int { row_starts, bounds };

// Sorts each row [rowmap(r), rowmap(r + 1)) of entries, moving values with them when given. A row
// map of no elements (a matrix of no rows) sorts nothing. Bad row offsets throw before anything
// moves (the segmented sort's census).
template <class ExecSpace, class RowMap, class Entries, class... Values>
void sort_rows(const char* fn, const ExecSpace& space, const RowMap& rowmap, const Entries& entries,
               const Values&... values) {
  static_assert(sizeof...(Values) <= 1);
  if (rowmap.extent(0) == 0) return;
  if constexpr (sizeof...(Values) == 0) {
    Ordo::Impl::check_segmented<ExecSpace>(fn, entries, rowmap);
    Ordo::Impl::segmented_sort(fn, space, entries, rowmap, Ordo::less<>{},
                               Ordo::Impl::SortOptions{});
  } else {
    Ordo::Impl::check_segmented_by_key<ExecSpace>(fn, entries, values..., rowmap);
    Ordo::Impl::segmented_sort_by_key(fn, space, entries, values..., rowmap, Ordo::less<>{},
                                      Ordo::Impl::SortOptions{});
  }
}

// The values of a graph: none.
struct NoValues {};

// starts(rowmap(r)) = r + 1 for each row r with entries (starts zeroed before).
template <class RowMap, class Starts>
struct MarkRowStarts {
  RowMap rowmap;
  Starts starts;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    const std::int64_t lo = std::int64_t(rowmap(r)), hi = std::int64_t(rowmap(r + 1));
    if (lo < hi && lo >= 0 && hi <= n) starts(lo) = typename Starts::value_type(r + 1);
  }
};

// Runs break at a row's start as well as at a new column id. Element i of the keys the tiles see
// is element lo + i of the row map's numbering.
template <class Starts>
struct RowBreaks {
  Starts starts;
  std::int64_t lo;
  template <class Key>
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i, const Key& before, const Key& key) const {
    return starts(lo + i) != 0 || before != key;
  }
};

// The number of merged entries: the run heads (a row's start, or a new column id) of the sorted
// entries [rowmap(0), rowmap(rows)), to bounds(2) by the reduction; element 0 writes bounds(0) =
// rowmap(0) and bounds(1) = rowmap(rows).
template <class RowMap, class Entries, class Starts, class Bounds>
struct CountHeads {
  RowMap rowmap;
  Entries entries;
  Starts starts;
  Bounds bounds;
  std::int64_t rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const {
    const std::int64_t lo = std::int64_t(rowmap(0)), hi = std::int64_t(rowmap(rows));
    if (i == 0) bounds(0) = lo, bounds(1) = hi;
    // At i = lo a row starts (starts(i) != 0), so entries(i - 1) is read only inside a row.
    if (i >= lo && i < hi && (starts(i) != 0 || entries(i - 1) != entries(i))) ++count;
  }
};

// What sort_and_merge writes for a run head i of the sorted entries (Keys, Values: the entries
// [lo, lo + n) as elements [0, n)): its column id, the sum of its run's values (NoValues: none) in
// order by one thread, and, where a row starts, that row's first output position. A head loads
// the `window` elements from it without waiting on a comparison (most runs are that short), and
// walks on only when its run is longer.
template <class Key, class V>
struct MergedRun {
  Key key;
  std::uint32_t row;  // r + 1 where row r starts here, else 0
  V value;
};
template <class Key>
struct MergedRun<Key, NoValues> {  // a graph's: 8 bytes for 32-bit column ids
  Key key;
  std::uint32_t row;
};

template <class Keys, class Values, class Starts, class EntriesOut, class ValuesOut,
          class RowMapOut>
struct EmitMergedRun {
  static constexpr bool with_values = !std::is_same_v<Values, NoValues>;
  static constexpr int window = 4;
  using Key = typename Keys::non_const_value_type;
  using V = typename std::conditional_t<with_values, Values, Keys>::non_const_value_type;
  using value_type = MergedRun<Key, std::conditional_t<with_values, V, NoValues>>;
  static constexpr int group = 1;
  Keys keys;
  Values values;
  Starts starts;
  std::int64_t lo, n;
  EntriesOut entries_out;
  ValuesOut values_out;
  RowMapOut rowmap_out;

  bool aligned() const { return false; }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return entries_out.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const {
    value_type r;
    r.key = keys(i);
    r.row = starts(lo + i);
    if constexpr (with_values) {
      Key k[window];
      std::uint32_t s[window];
      V v[window];
      for (int w = 0; w < window; ++w) {
        const std::int64_t j = i + w < n ? i + w : n - 1;
        k[w] = keys(j), s[w] = starts(lo + j), v[w] = values(j);
      }
      r.value = v[0];
      bool open = true;  // the run goes on through element i + w
      for (int w = 1; w < window; ++w) {
        open = open && i + w < n && s[w] == 0 && k[w] == r.key;
        if (open) r.value += v[w];
      }
      for (std::int64_t j = i + window; open && j < n; ++j) {
        open = starts(lo + j) == 0 && keys(j) == r.key;
        if (open) r.value += values(j);
      }
    }
    return r;
  }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    for (int g = 0; g < G; ++g) v[g] = load(i + g);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const {
    entries_out(pos) = v.key;
    if constexpr (with_values) values_out(pos) = v.value;
    if (v.row != 0) rowmap_out(v.row - 1) = typename RowMapOut::non_const_value_type(pos);
  }
};

// The row map's entries the merge did not write: an empty row starts where the next row with
// entries starts (or at the end), and rowmap_out(rows) is the number of outputs.
template <class RowMap, class Starts, class RowMapOut, class Bounds>
struct FillEmptyRows {
  RowMap rowmap;
  Starts starts;
  RowMapOut rowmap_out;
  Bounds bounds;
  std::int64_t rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    const std::int64_t at = std::int64_t(rowmap(r));
    if (r < rows && std::int64_t(rowmap(r + 1)) > at) return;
    const auto next = at >= bounds(0) && at < bounds(1) ? starts(at) : 0;
    rowmap_out(r) =
        next != 0 ? rowmap_out(next - 1) : typename RowMapOut::non_const_value_type(bounds(2));
  }
};

// Kokkos Kernels' sort_and_merge_matrix and sort_and_merge_graph (Values = NoValues): sorts the
// rows of the input in place, then sets the outputs. Without duplicates, entries_out and
// values_out are the inputs and rowmap_out a copy of rowmap_in (rowmap_in itself when the row
// map type is const); otherwise new Views of the merged rows. A row map of no elements gives a
// zeroed row map of as many.
template <class ExecSpace, class RowMap, class Entries, class Values>
void sort_and_merge(const char* fn, const ExecSpace& space,
                    const typename RowMap::const_type& rowmap_in, const Entries& entries_in,
                    const Values& values_in, RowMap& rowmap_out, Entries& entries_out,
                    Values& values_out) {
  constexpr bool with_values = !std::is_same_v<Values, NoValues>;
  using RowMapNC = typename RowMap::non_const_type;
  static_assert(!std::is_const_v<typename Entries::value_type>,
                "Ordo::KokkosKernels::sort_and_merge: entries are sorted in place");
  if constexpr (with_values) {
    static_assert(Entries::traits::is_managed && Values::traits::is_managed,
                  "Ordo::KokkosKernels::sort_and_merge: entries_out and values_out may be new "
                  "Views, so their types must be managed");
  } else {
    static_assert(Entries::traits::is_managed,
                  "Ordo::KokkosKernels::sort_and_merge: entries_out may be a new View, so its "
                  "type must be managed");
  }
  const std::int64_t n = entries_in.extent(0);
  const std::int64_t rows = rowmap_in.extent(0) == 0 ? 0 : std::int64_t(rowmap_in.extent(0)) - 1;
  if (rows == 0) {
    rowmap_out = RowMapNC("SortedMerged rowmap", rowmap_in.extent(0));
    entries_out = Entries();
    values_out = Values();
    return;
  }
  if (rows >= std::int64_t(std::numeric_limits<std::uint32_t>::max())) {
    Ordo::Impl::fail(fn, "rowmap has " + std::to_string(rows + 1) +
                             " offsets; Ordo merges at most 2^32 - 2 rows");
  }
  // Shallow copies: the outputs may be the inputs' handles.
  const auto rowmap = rowmap_in;
  const auto entries = entries_in;
  const auto values = values_in;
  if constexpr (with_values) {
    sort_rows(fn, space, rowmap, entries, values);
  } else {
    sort_rows(fn, space, rowmap, entries);
  }

  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::int64_t lo = 0, hi = 0, m = 0;
  using Starts = Ordo::Impl::WorkspaceView<std::uint32_t, ExecSpace>;
  Starts starts;
  const auto bounds = Ordo::Impl::workspace<std::int64_t>(space, 4, KokkosKernelsSlot::bounds);
  if (n > 0) {
    starts = Ordo::Impl::workspace<std::uint32_t>(space, n, KokkosKernelsSlot::row_starts);
    Kokkos::deep_copy(space, starts, 0);
    Kokkos::parallel_for("Ordo::sort_and_merge::row_starts", Range(space, 0, rows),
                         MarkRowStarts<decltype(rowmap), Starts>{rowmap, starts, n});
    Kokkos::parallel_reduce(
        "Ordo::sort_and_merge::count", Range(space, 0, n),
        CountHeads<decltype(rowmap), Entries, Starts, decltype(bounds)>{rowmap, entries, starts,
                                                                        bounds, rows},
        Kokkos::Sum<std::int64_t, typename ExecSpace::memory_space>(Kokkos::subview(bounds, 2)));
    const auto b = Ordo::Impl::read_back<3>(space, bounds, std::string(fn) + ": fence");
    lo = b[0], hi = b[1], m = b[2];
  }
  const RowMapNC merged_rowmap(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "SortedMerged rowmap"),
      rowmap.extent(0));
  if (m == n) {  // nothing to merge: the sorted inputs are the outputs
    if constexpr (std::is_const_v<typename RowMap::value_type>) {
      rowmap_out = rowmap;
    } else {
      Kokkos::deep_copy(space, merged_rowmap, rowmap);
      rowmap_out = merged_rowmap;
    }
    entries_out = entries;
    values_out = values;
    return;
  }
  const Entries merged(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "SortedMerged entries"), m);
  Values merged_values;
  if constexpr (with_values) {
    merged_values =
        Values(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "SortedMerged values"), m);
  }
  // The runs' heads compacted in order (one thread sums a run), then the empty rows.
  const auto range = Kokkos::make_pair(lo, hi);
  const auto keys = Kokkos::subview(entries, range);
  auto values_of = [&] {
    if constexpr (with_values) {
      return Kokkos::subview(values, range);
    } else {
      return NoValues{};
    }
  };
  const auto sub = values_of();
  using Emit = EmitMergedRun<std::remove_const_t<decltype(keys)>,
                             std::remove_const_t<decltype(sub)>, Starts, Entries, Values, RowMapNC>;
  Ordo::Impl::compact_dispatch(
      space, hi - lo,
      Ordo::Impl::SelectRunHead<decltype(keys), RowBreaks<Starts>>{keys, {starts, lo}},
      Emit{keys, sub, starts, lo, hi - lo, merged, merged_values, merged_rowmap},
      Kokkos::subview(bounds, Kokkos::make_pair(3, 4)));
  Kokkos::parallel_for("Ordo::sort_and_merge::empty_rows", Range(space, 0, rows + 1),
                       FillEmptyRows<decltype(rowmap), Starts, RowMapNC, decltype(bounds)>{
                           rowmap, starts, merged_rowmap, bounds, rows});
  rowmap_out = merged_rowmap;
  entries_out = merged;
  values_out = merged_values;
}

}  // namespace Ordo::KokkosKernels::Impl

#endif
