// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_ASSEMBLYIMPL_HPP
#define ORDO_IMPL_ASSEMBLYIMPL_HPP

// Device level of the assembly of a CRS matrix from (row, column, value) triplets
// (Ordo::KokkosKernels::coo2crs; packages/kokkoskernels wraps the arrays in its CrsMatrix):
//   packed  where the row and column widths of m and n and one bit more (the word above the
//           matrix's, for the dropped triplets: they sort last) fit one word of 32 or 64 bits:
//           Ordo::coo2crs::pack    each triplet's (row, column) as one word, and the census of the
//                                  indices in the same pass: the first triplet outside
//                                  [0, m) x [0, n) (an error, raised before anything but the
//                                  workspace is written) and how many have a negative index
//                                  (dropped, as Kokkos Kernels drops them)
//           the stable sort of the words with the values, out of place (the radix or vendor
//           sort of the words' bits, SortOptions::key_bits), the runs' first positions (a
//           compaction of the heads of the sorted words) and their number read back, the arrays
//           allocated, then
//           Ordo::coo2crs::write   the column ids, values and row map in one pass: a thread a
//                                  run sums its values left to right (the input's order: the
//                                  same bits every run, those of a sequential assembly), writes
//                                  its column id and value, and fills the row map as bin_offsets
//                                  does; where a run is longer than AssemblyTuning's walk_limit,
//                                  reduce_by_key sums the runs (deterministic too) and the write
//                                  runs again
//   chained otherwise: the triplets copied with the same census (a flag for the dropped ones, the
//           row, the column: Ordo::coo2crs::copy), sorted by the three keys
//           (Ordo_SortMultiKeyImpl.hpp), each run numbered (Ordo::coo2crs::number), then the same
//           sum and write

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>
#include <impl/device/Ordo_RunsImpl.hpp>
#include <impl/device/Ordo_SortBounds.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/device/Ordo_SortMultiKeyImpl.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// The three arrays of a CRS matrix, as assemble_crs allocates and returns them.
template <class RowMapView, class EntriesView, class ValuesView>
struct CrsArrays {
  using RowMap = RowMapView;
  using Entries = EntriesView;
  using Values = ValuesView;
  RowMap row_map;
  Entries entries;
  Values values;
};

// The assembly's buffers (slots of its own).
enum class AssemblySlot : int {
  keys,
  sorted_keys,
  sorted_values,
  starts,
  run_keys,
  run_values,
  count
};

// Whether index x lies below bound (x may be of any integer type, bound >= 0), and whether it is
// negative.
template <class I>
KOKKOS_INLINE_FUNCTION bool negative_index(I x) {
  if constexpr (std::is_signed_v<I>) return x < 0;
  return false;
}
template <class I>
KOKKOS_INLINE_FUNCTION bool index_below(I x, std::int64_t bound) {
  return !negative_index(x) && std::uint64_t(x) < std::uint64_t(bound);
}

struct TripletCensus {
  std::int64_t first_bad, dropped;
};

// The census of the triplets, taken as write(i) stores each one (the packed way's words, the
// chained way's copies): Kokkos Kernels' order of tests (a row past m or a column past n is an
// error even where the other index is negative; otherwise a negative index drops the triplet).
template <class RowView, class ColView, class Write>
struct CheckTriplets {
  using value_type = TripletCensus;
  RowView row;
  ColView col;
  std::int64_t m, n;
  Write write;
  KOKKOS_INLINE_FUNCTION bool past(std::int64_t i) const {
    return (!negative_index(row(i)) && !index_below(row(i), m)) ||
           (!negative_index(col(i)) && !index_below(col(i), n));
  }
  KOKKOS_INLINE_FUNCTION bool dropped(std::int64_t i) const {
    return negative_index(row(i)) || negative_index(col(i));
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& v) const {
    write(i);
    if (past(i)) {
      v.first_bad = i < v.first_bad ? i : v.first_bad;
    } else if (dropped(i)) {
      ++v.dropped;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.first_bad = INT64_MAX;  // a constant: std::numeric_limits is host code to nvcc
    v.dropped = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    d.first_bad = s.first_bad < d.first_bad ? s.first_bad : d.first_bad;
    d.dropped += s.dropped;
  }
};

// write(i) for every triplet (into the workspace only), then the number of dropped triplets;
// throws naming the first triplet out of range (the caller's Views unchanged, nothing allocated).
template <class ExecSpace, class RowView, class ColView, class Write>
std::int64_t check_triplets(const std::string& label, const char* fn, const ExecSpace& space,
                            std::int64_t m, std::int64_t n, const RowView& row, const ColView& col,
                            const Write& write) {
  TripletCensus census{};
  const CheckTriplets<RowView, ColView, Write> check{row, col, m, n, write};
  Kokkos::parallel_reduce(
      label,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, row.extent(0)),
      check, census);
  if (census.first_bad != std::numeric_limits<std::int64_t>::max()) {
    const std::int64_t i = census.first_bad;
    auto at = [&](const auto& v) {
      const auto h = Kokkos::create_mirror_view_and_copy(
          Kokkos::HostSpace(), Kokkos::subview(v, Kokkos::make_pair(i, i + 1)));
      return std::to_string(h(0));
    };
    fail(fn, "triplet " + std::to_string(i) + " (row " + at(row) + ", column " + at(col) +
                 ") lies outside the " + std::to_string(m) + " x " + std::to_string(n) + " matrix");
  }
  return census.dropped;
}

// Each triplet's (row, column) as one word, the row above the column's col_bits; `dropped` (the
// word above every other) for a dropped triplet.
template <class RowView, class ColView, class Keys>
struct PackTriplets {
  RowView row;
  ColView col;
  Keys keys;
  int col_bits;
  typename Keys::non_const_value_type dropped;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    using Bits = typename Keys::non_const_value_type;
    const auto r = row(i);
    const auto c = col(i);
    // (A column of every bit of the word leaves the row 0: m is 1.)
    const Bits high = col_bits >= int(8 * sizeof(Bits)) ? Bits(0) : Bits(Bits(r) << col_bits);
    keys(i) = negative_index(r) || negative_index(c) ? dropped : Bits(high | Bits(c));
  }
};

// The runs of sorted (row, column) pairs as the write pass reads them: run r's row, column and
// summed value. value(r, too_long) may refuse (too_long set) where it would walk a long run.
//   ReducedWords   the packed way after reduce_by_key: each run's word and sum
//   WalkedWords    the packed way after the compaction of the runs' first positions: a thread
//                  sums its run's values left to right (the triplets' input order), up to `limit`
//   ReducedCopies  the chained way after reduce_by_key: each run's row, column and sum
template <class Words>
struct WordFields {
  Words words;
  int col_bits;
  KOKKOS_INLINE_FUNCTION std::uint64_t row_of(std::uint64_t w) const {
    return col_bits >= 64 ? 0 : w >> col_bits;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t col_of(std::uint64_t w) const {
    return w & (col_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << col_bits) - 1);
  }
};

template <class RunKeys, class RunValues>
struct ReducedWords : WordFields<RunKeys> {
  RunValues run_values;
  ReducedWords(const RunKeys& k, int col_bits, const RunValues& v)
      : WordFields<RunKeys>{k, col_bits}, run_values(v) {}
  KOKKOS_INLINE_FUNCTION std::uint64_t row(std::int64_t r) const {
    return this->row_of(std::uint64_t(this->words(r)));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t col(std::int64_t r) const {
    return this->col_of(std::uint64_t(this->words(r)));
  }
  KOKKOS_INLINE_FUNCTION auto value(std::int64_t r, int&) const { return run_values(r); }
};

template <class SortedKeys, class SortedValues, class Starts>
struct WalkedWords : WordFields<SortedKeys> {
  SortedValues sorted_values;
  Starts starts;  // starts(r): run r's first position in the sorted triplets
  std::int64_t runs, count, limit;
  WalkedWords(const SortedKeys& k, int col_bits, const SortedValues& v, const Starts& s,
              std::int64_t runs_, std::int64_t count_, std::int64_t limit_)
      : WordFields<SortedKeys>{k, col_bits},
        sorted_values(v),
        starts(s),
        runs(runs_),
        count(count_),
        limit(limit_) {}
  KOKKOS_INLINE_FUNCTION std::uint64_t row(std::int64_t r) const {
    return this->row_of(std::uint64_t(this->words(starts(r))));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t col(std::int64_t r) const {
    return this->col_of(std::uint64_t(this->words(starts(r))));
  }
  KOKKOS_INLINE_FUNCTION auto value(std::int64_t r, int& too_long) const {
    const std::int64_t first = starts(r), last = r + 1 < runs ? starts(r + 1) : count;
    auto v = sorted_values(first);
    if (last - first > limit) {
      too_long = 1;
      return v;
    }
    for (std::int64_t k = first + 1; k < last; ++k) v += sorted_values(k);
    return v;
  }
};

template <class Rows, class Cols, class RunValues>
struct ReducedCopies {
  Rows rows;
  Cols cols;
  RunValues run_values;
  KOKKOS_INLINE_FUNCTION std::uint64_t row(std::int64_t r) const { return std::uint64_t(rows(r)); }
  KOKKOS_INLINE_FUNCTION std::uint64_t col(std::int64_t r) const { return std::uint64_t(cols(r)); }
  KOKKOS_INLINE_FUNCTION auto value(std::int64_t r, int&) const { return run_values(r); }
};

// A compaction's emitter of the positions it keeps: starts(pos) = i. (Emitting each run's word
// beside its position made the compaction three times slower: 16-byte elements staged for every
// input.)
template <class Starts>
struct EmitPosition {
  using value_type = std::int64_t;
  static constexpr int group = 1;
  static constexpr bool stores_in_place = true;
  Starts starts;
  bool aligned() const { return false; }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return starts.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const { return i; }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    for (int g = 0; g < G; ++g) v[g] = i + g;
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const {
    starts(pos) = typename Starts::non_const_value_type(v);
  }
};

// Position i in [0, nnz] writes the row map's entries for the rows in (row(i - 1), row(i)] (all
// rows through m at i = nnz; the runs' rows ascend); i < nnz also writes entry i's column id and
// value. Reduces whether a run was refused (too long to walk).
template <class Runs, class RowMap, class Entries, class Values>
struct WriteCrs {
  Runs runs;
  RowMap row_map;
  Entries entries;
  Values values;
  std::int64_t nnz, m;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, int& too_long) const {
    const std::int64_t lo = i == 0 ? 0 : std::int64_t(runs.row(i - 1)) + 1;
    const std::int64_t hi = i == nnz ? m : std::int64_t(runs.row(i));
    using Offset = typename RowMap::non_const_value_type;
    for (std::int64_t b = lo; b <= hi && b <= m; ++b) row_map(b) = Offset(i);
    if (i < nnz) {
      entries(i) = typename Entries::non_const_value_type(runs.col(i));
      values(i) = runs.value(i, too_long);
    }
  }
};

// The bits of x (>= 0).
inline int width_of(std::int64_t x) { return int(Kokkos::bit_width(std::uint64_t(x))); }

// The chained way's copies: the dropped flag, the row, the column and the value of each triplet.
template <class RowView, class ColView, class DataView, class Flags, class Rows, class Cols,
          class Vals>
struct CopyTriplets {
  RowView row;
  ColView col;
  DataView data;
  Flags flags;
  Rows rows;
  Cols cols;
  Vals vals;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const bool drop = negative_index(row(i)) || negative_index(col(i));
    flags(i) = drop ? 1u : 0u;
    rows(i) = drop ? 0 : row(i);
    cols(i) = drop ? 0 : col(i);
    vals(i) = data(i);
  }
};

// Each sorted triplet's run number: the heads of (flag, row, column) up to it, less one.
template <class Flags, class Rows, class Cols, class Ids>
struct NumberRuns {
  Flags flags;
  Rows rows;
  Cols cols;
  Ids ids;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::uint64_t& heads, bool final) const {
    const bool head =
        i == 0 || flags(i) != flags(i - 1) || rows(i) != rows(i - 1) || cols(i) != cols(i - 1);
    if (head) ++heads;
    if (final) ids(i) = heads - 1;
  }
};

// The CRS arrays of a matrix of m rows and nnz entries.
template <class Arrays, class ExecSpace>
Arrays allocate_crs(const ExecSpace& space, std::int64_t m, std::int64_t nnz) {
  auto alloc = [&](const char* label) {
    return Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string(label));
  };
  return Arrays{typename Arrays::RowMap(alloc("Ordo::coo2crs::row_map"), m + 1),
                typename Arrays::Entries(alloc("Ordo::coo2crs::entries"), nnz),
                typename Arrays::Values(alloc("Ordo::coo2crs::values"), nnz)};
}

// Writes the arrays from the runs; false where a run was refused (nothing is then complete).
template <class ExecSpace, class Arrays, class Runs>
bool write_crs(const ExecSpace& space, std::int64_t m, const Runs& runs, const Arrays& crs) {
  const std::int64_t nnz = crs.entries.extent(0);
  int too_long = 0;
  Kokkos::parallel_reduce(
      "Ordo::coo2crs::write",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, nnz + 1),
      WriteCrs<Runs, typename Arrays::RowMap, typename Arrays::Entries, typename Arrays::Values>{
          runs, crs.row_map, crs.entries, crs.values, nnz, m},
      Kokkos::BOr<int>(too_long));
  return too_long == 0;
}

template <class Arrays, class ExecSpace, class RowView, class ColView, class DataView>
Arrays assemble_crs(const char* fn, const ExecSpace& space, std::int64_t m, std::int64_t n,
                    const RowView& row, const ColView& col, const DataView& data) {
  using V = typename DataView::non_const_value_type;
  const std::int64_t count = row.extent(0);
  const auto total = workspace<std::int64_t>(space, 1, AssemblySlot::count);
  const int row_bits = width_of(m > 0 ? m - 1 : 0), col_bits = width_of(n > 0 ? n - 1 : 0);
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  // The dropped triplets take the word 2^(row_bits + col_bits), above the matrix's: one bit more.
  const int word_bits = row_bits + col_bits + 1;
  if (word_bits <= 64) {
    Arrays result;
    with_packed_bits(word_bits, [&](auto word) {
      using Bits = decltype(word);
      const auto keys = workspace<Bits>(space, count, AssemblySlot::keys);
      const auto sorted_keys = workspace<Bits>(space, count, AssemblySlot::sorted_keys);
      const auto sorted_values = workspace<V>(space, count, AssemblySlot::sorted_values);
      const auto run_words = workspace<Bits>(space, count, AssemblySlot::run_keys);
      const auto starts = workspace<std::int64_t>(space, count, AssemblySlot::starts);
      const std::int64_t dropped =
          check_triplets("Ordo::coo2crs::pack", fn, space, m, n, row, col,
                         PackTriplets<RowView, ColView, decltype(keys)>{
                             row, col, keys, col_bits, Bits(Bits(1) << (row_bits + col_bits))});
      SortOptions known;  // the vendor sort sorts the words' bits only
      known.key_bits = row_bits + col_bits + (dropped > 0 ? 1 : 0);
      stable_sort_by_key_into(space, keys, data, sorted_keys, sorted_values, Ordo::less<>{}, known);
      // The runs' first positions, then each run walked by a thread (deterministic: the input's
      // order); a run longer than the walk's limit sends the sums to reduce_by_key.
      compact_dispatch(space, count, SelectRunHead<decltype(sorted_keys), less<>>{sorted_keys, {}},
                       EmitPosition<decltype(starts)>{starts}, total);
      const std::int64_t runs = read_back<1>(space, total, std::string(fn) + ": fence")[0];
      result = allocate_crs<Arrays>(space, m, runs - (dropped > 0 ? 1 : 0));
      const WalkedWords<decltype(sorted_keys), decltype(sorted_values), decltype(starts)> walked(
          sorted_keys, col_bits, sorted_values, starts, runs, count,
          AssemblyTuning<ExecSpace>::walk_limit);
      if (write_crs(space, m, walked, result)) return;
      const auto run_values = workspace<V>(space, count, AssemblySlot::run_values);
      reduce_by_key_dispatch(fn, space, sorted_keys, sorted_values, run_words, run_values,
                             Ordo::plus<>{}, Ordo::less<>{}, total);
      write_crs(
          space, m,
          ReducedWords<decltype(run_words), decltype(run_values)>(run_words, col_bits, run_values),
          result);
    });
    return result;
  }
  using Row = typename RowView::non_const_value_type;
  using Col = typename ColView::non_const_value_type;
  const auto flags = workspace<std::uint32_t>(space, count, AssemblySlot::keys);
  const auto rows = workspace<Row>(space, count, AssemblySlot::sorted_keys);
  const auto cols = workspace<Col>(space, count, AssemblySlot::run_keys);
  const auto vals = workspace<V>(space, count, AssemblySlot::sorted_values);
  const std::int64_t dropped = check_triplets(
      "Ordo::coo2crs::copy", fn, space, m, n, row, col,
      CopyTriplets<RowView, ColView, DataView, decltype(flags), decltype(rows), decltype(cols),
                   decltype(vals)>{row, col, data, flags, rows, cols, vals});
  multi_key_sort<Ordo::less<>>(space, PlainEnd<decltype(vals)>{vals}, SortOptions{}, flags, rows,
                               cols);
  // The runs numbered, summed, and each run's row and column from its first triplet.
  const Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> ids(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::coo2crs::ids"), count);
  Kokkos::parallel_scan("Ordo::coo2crs::number", Range(space, 0, count),
                        NumberRuns<decltype(flags), decltype(rows), decltype(cols), decltype(ids)>{
                            flags, rows, cols, ids});
  const auto run_values = workspace<V>(space, count, AssemblySlot::run_values);
  const Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> run_ids(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::coo2crs::run_ids"), count);
  reduce_by_key_dispatch(fn, space, ids, vals, run_ids, run_values, Ordo::plus<>{}, Ordo::less<>{},
                         total);
  const std::int64_t runs = read_back<1>(space, total, std::string(fn) + ": fence")[0];
  const Kokkos::View<Row*, typename ExecSpace::memory_space> run_rows(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::coo2crs::run_rows"), runs);
  const Kokkos::View<Col*, typename ExecSpace::memory_space> run_cols(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::coo2crs::run_cols"), runs);
  // Each run's row and column: those of its first triplet (unique_by_key's compaction).
  auto firsts = [&](const auto& from, const auto& to) {
    compact_dispatch(space, count, SelectRunHead<decltype(ids), less<>>{ids, {}},
                     EmitKeyValue<decltype(ids), std::decay_t<decltype(from)>, decltype(run_ids),
                                  std::decay_t<decltype(to)>>{ids, from, run_ids, to},
                     total);
  };
  firsts(rows, run_rows);
  firsts(cols, run_cols);
  const auto crs = allocate_crs<Arrays>(space, m, runs - (dropped > 0 ? 1 : 0));
  write_crs(space, m,
            ReducedCopies<decltype(run_rows), decltype(run_cols), decltype(run_values)>{
                run_rows, run_cols, run_values},
            crs);
  return crs;
}

// The workspace of coo2crs on count triplets of rows Row, columns Col and values V: the larger
// of the two ways' buffers, each with its sort's and its runs'.
template <class ExecSpace, class Row, class Col, class V>
std::size_t assemble_crs_bound(std::int64_t count) {
  const std::size_t common = 2 * slot_bytes<V>(count) + slot_bytes<std::int64_t>(1) +
                             compaction_bound<ExecSpace, V>(count);
  const std::size_t packed = 3 * slot_bytes<std::uint64_t>(count) +
                             sort_bound<ExecSpace, std::uint64_t, V, Ordo::less<>>(count, true);
  const std::size_t chained =
      slot_bytes<std::uint32_t>(count) + slot_bytes<Row>(count) + slot_bytes<Col>(count) +
      multi_key_sort_bound<ExecSpace, V, false, std::uint32_t, Row, Col>(count);
  return common + std::max(packed, chained);
}

}  // namespace Ordo::Impl

#endif
