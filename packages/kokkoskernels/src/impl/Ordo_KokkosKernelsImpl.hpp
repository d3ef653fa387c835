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
//                     the core's stable compaction (Ordo::copy_if's kernels) of the run heads (a
//                     row's start or a new column id): their positions, and the row map at the
//                     rows' starts; their number is the merged size
//                     Ordo::sort_and_merge::empty_rows  the row map at empty rows and at the end
//                     Ordo::sort_and_merge::gather      each merged entry's column id and the
//                                                       sum of its run's values (a thread a run)

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>
#include <impl/device/Ordo_SegmentedSortImpl.hpp>
#include <impl/device/Ordo_SortBounds.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace Ordo::KokkosKernels::Impl {

enum class KokkosKernelsSlot : int { row_starts, heads, total };

// The value type of sort_rows' values: void without.
template <class... Values>
struct ValueOf {
  using type = void;
};
template <class Values>
struct ValueOf<Values> {
  using type = typename Values::non_const_value_type;
};

// The workspace bound of sort_rows: the segmented sort's.
template <class ExecSpace, class Entries, class... Values, class RowMap>
std::size_t sort_rows_bound(const RowMap& rowmap, const Entries& entries) {
  using Value = typename ValueOf<Values...>::type;
  return Ordo::Impl::segmented_sort_bound<ExecSpace, typename Entries::non_const_value_type, Value,
                                          Ordo::less<>>(std::int64_t(entries.extent(0)),
                                                        std::int64_t(rowmap.extent(0)) - 1, false);
}

// Sorts each row [rowmap(r), rowmap(r + 1)) of entries, moving values with them when given. A row
// map of no elements (a matrix of no rows) sorts nothing. Bad row offsets throw before anything
// moves (the segmented sort's census).
template <class ExecSpace, class RowMap, class Entries, class... Values>
void sort_rows(const char* fn, const ExecSpace& space, const RowMap& rowmap, const Entries& entries,
               const Values&... values) {
  static_assert(sizeof...(Values) <= 1);
  if (rowmap.extent(0) == 0) return;
  const Ordo::Impl::WorkspaceReservation reservation(
      fn, space, [&] { return sort_rows_bound<ExecSpace, Entries, Values...>(rowmap, entries); });
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

// Element i of the sorted entries starts a merged run: it lies in [rowmap(0), rowmap(rows)) and a
// row starts there or its column id differs from the one before it. (At i = rowmap(0) a row
// starts, so entries(i - 1) is read only inside a row.)
template <class RowMap, class Entries, class Starts>
struct SelectMergedRun {
  static constexpr bool by_value = false;
  RowMap rowmap;
  Entries entries;
  Starts starts;
  std::int64_t rows;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    return i >= std::int64_t(rowmap(0)) && i < std::int64_t(rowmap(rows)) &&
           (starts(i) != 0 || entries(i - 1) != entries(i));
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// A merged run's head: its position in the entries, and r + 1 where row r starts there (else 0).
struct RunHead {
  std::uint32_t at, row;
};

// What the compaction writes for head i at merged position pos: heads(pos) = i, and the row map
// of the row that starts at i.
template <class Starts, class Heads, class RowMapOut>
struct EmitRunHead {
  using value_type = RunHead;
  static constexpr int group = 1;
  Starts starts;
  Heads heads;
  RowMapOut rowmap_out;
  bool aligned() const { return false; }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return heads.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const {
    return {std::uint32_t(i), starts(i)};
  }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    for (int g = 0; g < G; ++g) v[g] = load(i + g);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const {
    heads(pos) = v.at;
    if (v.row != 0) rowmap_out(v.row - 1) = typename RowMapOut::non_const_value_type(pos);
  }
};

// Merged entry p: the column id of head heads(p) and the sum, in order, of the values of its run,
// which ends at the next head or at rowmap(rows).
template <class RowMap, class Entries, class Values, class Heads, class EntriesOut, class ValuesOut>
struct GatherMergedRuns {
  RowMap rowmap;
  Entries entries;
  Values values;
  Heads heads;
  EntriesOut entries_out;
  ValuesOut values_out;
  std::int64_t rows, m;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t i = heads(p);
    entries_out(p) = entries(i);
    if constexpr (!std::is_same_v<Values, NoValues>) {
      const std::int64_t end = p + 1 < m ? std::int64_t(heads(p + 1)) : std::int64_t(rowmap(rows));
      auto sum = values(i);
      for (std::int64_t j = i + 1; j < end; ++j) sum += values(j);
      values_out(p) = sum;
    }
  }
};

// The row map's entries the compaction did not write: an empty row starts where the next row
// with entries starts (or at the end), and rowmap_out(rows) is the merged size, total(0).
template <class RowMap, class Starts, class RowMapOut, class Total>
struct FillEmptyRows {
  RowMap rowmap;
  Starts starts;
  RowMapOut rowmap_out;
  Total total;
  std::int64_t rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    const std::int64_t at = std::int64_t(rowmap(r));
    if (r < rows && std::int64_t(rowmap(r + 1)) > at) return;
    const auto next =
        at >= std::int64_t(rowmap(0)) && at < std::int64_t(rowmap(rows)) ? starts(at) : 0;
    rowmap_out(r) =
        next != 0 ? rowmap_out(next - 1) : typename RowMapOut::non_const_value_type(total(0));
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
  // Rows and positions are 32-bit in the merge's workspace.
  if (rows >= std::int64_t(std::numeric_limits<std::uint32_t>::max()) ||
      n > std::int64_t(std::numeric_limits<std::uint32_t>::max())) {
    Ordo::Impl::fail(fn, "rowmap has " + std::to_string(rows + 1) + " offsets and entries " +
                             std::to_string(n) +
                             " elements; Ordo merges fewer than 2^32 - 1 rows and 2^32 entries");
  }
  // The sort's workspace and the merge's (row starts, heads, the count, the compaction).
  std::size_t sort_bytes = 0;
  if constexpr (with_values) {
    sort_bytes = sort_rows_bound<ExecSpace, Entries, Values>(rowmap_in, entries_in);
  } else {
    sort_bytes = sort_rows_bound<ExecSpace, Entries>(rowmap_in, entries_in);
  }
  const Ordo::Impl::WorkspaceReservation reservation(fn, space, [&] {
    return sort_bytes + 2 * Ordo::Impl::slot_bytes<std::uint32_t>(n) +
           Ordo::Impl::slot_bytes<std::int64_t>(1) +
           Ordo::Impl::compaction_bound<ExecSpace, void>(n);
  });
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
  const RowMapNC merged_rowmap(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "SortedMerged rowmap"),
      rowmap.extent(0));
  using Work = Ordo::Impl::WorkspaceView<std::uint32_t, ExecSpace>;
  const Work starts = Ordo::Impl::workspace<std::uint32_t>(space, n, KokkosKernelsSlot::row_starts);
  const Work heads = Ordo::Impl::workspace<std::uint32_t>(space, n, KokkosKernelsSlot::heads);
  const auto total = Ordo::Impl::workspace<std::int64_t>(space, 1, KokkosKernelsSlot::total);
  std::int64_t m = 0;
  if (n > 0) {
    Kokkos::deep_copy(space, starts, 0);
    Kokkos::parallel_for("Ordo::sort_and_merge::row_starts", Range(space, 0, rows),
                         MarkRowStarts<decltype(rowmap), Work>{rowmap, starts, n});
    Ordo::Impl::compact_dispatch(
        space, n, SelectMergedRun<decltype(rowmap), Entries, Work>{rowmap, entries, starts, rows},
        EmitRunHead<Work, Work, RowMapNC>{starts, heads, merged_rowmap}, total);
    m = Ordo::Impl::read_back<1>(space, total, std::string(fn) + ": fence")[0];
  }
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
  Kokkos::parallel_for("Ordo::sort_and_merge::empty_rows", Range(space, 0, rows + 1),
                       FillEmptyRows<decltype(rowmap), Work, RowMapNC, decltype(total)>{
                           rowmap, starts, merged_rowmap, total, rows});
  Kokkos::parallel_for("Ordo::sort_and_merge::gather", Range(space, 0, m),
                       GatherMergedRuns<decltype(rowmap), Entries, Values, Work, Entries, Values>{
                           rowmap, entries, values, heads, merged, merged_values, rows, m});
  rowmap_out = merged_rowmap;
  entries_out = merged;
  values_out = merged_values;
}

}  // namespace Ordo::KokkosKernels::Impl

#endif
