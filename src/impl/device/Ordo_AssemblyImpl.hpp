// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_ASSEMBLYIMPL_HPP
#define ORDO_IMPL_ASSEMBLYIMPL_HPP

// Device level of the assembly of a CRS matrix from (row, column, value) triplets, in two phases
// (Ordo::KokkosKernels::coo2crs_pattern, then coo2crs_refill for each new value array; coo2crs
// runs both; packages/kokkoskernels wraps the arrays in its CrsMatrix):
//   the pattern, from the indices alone:
//     packed   where the row and column widths of m and n and one bit more (the word above the
//              matrix's, for the dropped triplets: they sort last) fit one word of 32 or 64 bits:
//              Ordo::coo2crs::pack   each triplet's (row, column) as one word and its position,
//                                    and the census of the indices in the same pass: the first
//                                    triplet outside [0, m) x [0, n) (an error, raised before
//                                    anything but the workspace is written) and how many have a
//                                    negative index (dropped, as Kokkos Kernels drops them)
//              the stable sort of the words with the positions, out of place (the radix or vendor
//              sort of the words' bits, SortOptions::key_bits): perm, the triplets in the
//              matrix's order
//     chained  otherwise: the flag of the dropped triplets, the rows and the columns copied with
//              the same census (Ordo::coo2crs::copy), perm the permutation of those three keys
//              (Ordo_SortMultiKeyImpl.hpp)
//     then     the entries' first positions in perm (a compaction of the heads of the sorted
//              pairs) and their number read back, the row map and column ids allocated, and
//              Ordo::coo2crs::write   the row map (as bin_offsets), the column ids and each
//                                     entry's start, counting the entries of more than
//                                     AssemblyTuning's walk_limit triplets (long: their ids by a
//                                     compaction where there are any)
//   the values, from a new value array: Ordo_AssemblyRefillImpl.hpp (one pass, no allocation)

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_AssemblyRefillImpl.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>
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

// The assembly's buffers (slots of its own). perm, starts and long_entries are the pattern's
// map where assemble_crs keeps it in the workspace.
enum class AssemblySlot : int {
  keys,
  positions,
  sorted_keys,
  heads,
  perm,
  sorted_values,
  long_entries,
  count
};

// The map in Views of its own, for a pattern kept across calls (assemble_pattern's store).
template <class Memory>
struct AssemblyMapViews {
  using Index = Kokkos::View<std::uint32_t*, Memory>;
  Index perm, starts, long_entries;
  AssemblyIndex<Memory> operator()(AssemblySlot slot, std::int64_t size) {
    Index& kept = slot == AssemblySlot::perm    ? perm
                  : slot == AssemblySlot::heads ? starts
                                                : long_entries;
    kept = Index(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Ordo::coo2crs::map"), size);
    return kept;
  }
  AssemblyMap<Memory> map() const { return {perm, starts, long_entries}; }
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

// near: the triplets whose row lies within AssemblyTuning's near_rows of the row before them
// (an input in row order, or element by element: a gather through perm reads neighbours).
struct TripletCensus {
  std::int64_t first_bad, dropped, near;
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
  std::int64_t near_rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& v) const {
    write(i);
    if (i > 0) {
      const std::int64_t d = std::int64_t(row(i)) - std::int64_t(row(i - 1));
      if (d <= near_rows && d >= -near_rows) ++v.near;
    }
    if (past(i)) {
      v.first_bad = i < v.first_bad ? i : v.first_bad;
    } else if (dropped(i)) {
      ++v.dropped;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.first_bad = INT64_MAX;  // a constant: std::numeric_limits is host code to nvcc
    v.dropped = 0;
    v.near = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    d.first_bad = s.first_bad < d.first_bad ? s.first_bad : d.first_bad;
    d.dropped += s.dropped;
    d.near += s.near;
  }
};

// write(i) for every triplet (into the workspace only), then the census; throws naming the first
// triplet out of range (the caller's Views unchanged, nothing allocated).
template <class ExecSpace, class RowView, class ColView, class Write>
TripletCensus check_triplets(const std::string& label, const char* fn, const ExecSpace& space,
                             std::int64_t m, std::int64_t n, const RowView& row, const ColView& col,
                             const Write& write) {
  TripletCensus census{};
  const CheckTriplets<RowView, ColView, Write> check{
      row, col, m, n, write, AssemblyTuning<ExecSpace>::near_rows};
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
  return census;
}

// Each triplet's (row, column) as one word, the row above the column's col_bits; `dropped` (the
// word above every other) for a dropped triplet; and its position, the sort's value.
template <class RowView, class ColView, class Keys, class Positions>
struct PackTriplets {
  RowView row;
  ColView col;
  Keys keys;
  Positions positions;
  int col_bits;
  typename Keys::non_const_value_type dropped;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    using Bits = typename Keys::non_const_value_type;
    const auto r = row(i);
    const auto c = col(i);
    // (A column of every bit of the word leaves the row 0: m is 1.)
    const Bits high = col_bits >= int(8 * sizeof(Bits)) ? Bits(0) : Bits(Bits(r) << col_bits);
    keys(i) = negative_index(r) || negative_index(c) ? dropped : Bits(high | Bits(c));
    positions(i) = std::uint32_t(i);
  }
};

// The chained way's copies: the dropped flag, the row and the column of each triplet.
template <class RowView, class ColView, class Flags, class Rows, class Cols>
struct CopyTriplets {
  RowView row;
  ColView col;
  Flags flags;
  Rows rows;
  Cols cols;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const bool drop = negative_index(row(i)) || negative_index(col(i));
    flags(i) = drop ? 1u : 0u;
    rows(i) = drop ? 0 : row(i);
    cols(i) = drop ? 0 : col(i);
  }
};

// The sorted triplets as the pattern reads them: position k's row and column, and whether k
// starts an entry (the first position, or a pair other than k - 1's; the dropped triplets, last,
// make one run).
//   SortedWords   the packed way: the sorted words
//   SortedCopies  the chained way: the copies, through perm
template <class Words>
struct SortedWords {
  Words words;
  int col_bits;
  KOKKOS_INLINE_FUNCTION std::uint64_t row(std::int64_t k) const {
    return col_bits >= 64 ? 0 : std::uint64_t(words(k)) >> col_bits;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t col(std::int64_t k) const {
    const std::uint64_t mask =
        col_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << col_bits) - 1;
    return std::uint64_t(words(k)) & mask;
  }
  KOKKOS_INLINE_FUNCTION bool head(std::int64_t k) const {
    return k == 0 || words(k) != words(k - 1);
  }
};

template <class Flags, class Rows, class Cols, class Perm>
struct SortedCopies {
  Flags flags;
  Rows rows;
  Cols cols;
  Perm perm;
  KOKKOS_INLINE_FUNCTION std::uint64_t row(std::int64_t k) const {
    return std::uint64_t(rows(perm(k)));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t col(std::int64_t k) const {
    return std::uint64_t(cols(perm(k)));
  }
  KOKKOS_INLINE_FUNCTION bool head(std::int64_t k) const {
    if (k == 0) return true;
    const std::int64_t a = perm(k - 1), b = perm(k);
    return flags(a) != flags(b) || rows(a) != rows(b) || cols(a) != cols(b);
  }
};

// A compaction's selection of the positions that start an entry.
template <class Sorted>
struct SelectEntryHead {
  Sorted sorted;
  static constexpr bool by_value = false;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t k) const { return sorted.head(k); }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// A compaction's selection of the long entries (more than `limit` triplets).
template <class Memory>
struct SelectLongEntry {
  AssemblyIndex<Memory> starts;
  std::int64_t limit;
  static constexpr bool by_value = false;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t e) const {
    return std::int64_t(starts(e + 1)) - std::int64_t(starts(e)) > limit;
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// A compaction's emitter of the positions it keeps: out(pos) = i. (Emitting each run's word
// beside its position made the compaction three times slower: 16-byte elements staged for every
// input.)
template <class Out>
struct EmitPosition {
  using value_type = std::int64_t;
  static constexpr int group = 1;
  static constexpr bool stores_in_place = true;
  Out out;
  bool aligned() const { return false; }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return out.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const { return i; }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    for (int g = 0; g < G; ++g) v[g] = i + g;
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const {
    out(pos) = typename Out::non_const_value_type(v);
  }
};

// Position i in [0, nnz] writes the row map's entries for the rows in (row of entry i - 1, row of
// entry i] (all rows through m at i = nnz; the entries' rows ascend) and starts(i) (heads(i): the
// compaction's first positions; kept, the triplets not dropped, at i = nnz); i < nnz also writes
// entry i's column id. starts may be heads itself (then only starts(nnz) is written). Counts the
// long entries.
template <class Sorted, class RowMap, class Entries, class Memory>
struct WritePattern {
  Sorted sorted;
  RowMap row_map;
  Entries entries;
  AssemblyIndex<Memory> heads, starts;
  std::int64_t nnz, m, kept, limit;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& longs) const {
    const std::int64_t first = i < nnz ? std::int64_t(heads(i)) : kept;
    const std::int64_t lo = i == 0 ? 0 : std::int64_t(sorted.row(heads(i - 1))) + 1;
    const std::int64_t hi = i == nnz ? m : std::int64_t(sorted.row(first));
    using Offset = typename RowMap::non_const_value_type;
    for (std::int64_t b = lo; b <= hi && b <= m; ++b) row_map(b) = Offset(i);
    if (i == nnz || starts.data() != heads.data()) starts(i) = std::uint32_t(first);
    if (i < nnz) {
      entries(i) = typename Entries::non_const_value_type(sorted.col(first));
      const std::int64_t next = i + 1 < nnz ? std::int64_t(heads(i + 1)) : kept;
      if (next - first > limit) ++longs;
    }
  }
};

// The bits of x (>= 0).
inline int width_of(std::int64_t x) { return int(Kokkos::bit_width(std::uint64_t(x))); }

// What assemble_pattern sorts with the words: the triplets' positions (the map's perm), or, given
// CarriedValues (coo2crs), an input out of row order (the census: fewer than half the triplets
// near the row before them) and more values than a cache holds, the values themselves into
// `sorted` (map.values_sorted):
// a gather through perm of values in random order reads a 32-byte sector a value, which costs
// more than the values' bytes through the sort's passes.
struct NoCarriedValues {};
template <class DataView, class Sorted>
struct CarriedValues {
  DataView data;
  Sorted sorted;
  std::size_t cached;  // AssemblyTuning's gather_cached (the tests pass 0 as well)
};

// The pattern of the triplets (row(i), col(i)) in an m x n matrix: graph(nnz) allocates the row
// map and column ids and returns them (an object with row_map and entries), store(slot, size) the
// map's arrays (AssemblyIndex: in the workspace, or AssemblyMapViews); returns the map.
// Throws naming the first triplet out of range (the caller's Views unchanged, nothing allocated
// but the workspace).
template <class ExecSpace, class RowView, class ColView, class Graph, class Store,
          class Carry = NoCarriedValues>
AssemblyMap<typename ExecSpace::memory_space> assemble_pattern(
    const char* fn, const ExecSpace& space, std::int64_t m, std::int64_t n, const RowView& row,
    const ColView& col, const Graph& graph, Store& store, const Carry& carry = {}) {
  using Memory = typename ExecSpace::memory_space;
  const std::int64_t count = row.extent(0);
  const auto total = workspace<std::int64_t>(space, 1, AssemblySlot::count);
  const auto heads = workspace<std::uint32_t>(space, count + 1, AssemblySlot::heads);
  AssemblyMap<Memory> map;
  map.perm = store(AssemblySlot::perm, count);
  // The heads of the sorted pairs, the arrays allocated, and the pattern written from the sorted
  // triplets.
  auto write = [&](const auto& sorted, std::int64_t dropped) {
    compact_dispatch(space, count, SelectEntryHead<std::decay_t<decltype(sorted)>>{sorted},
                     EmitPosition<decltype(heads)>{heads}, total);
    const std::int64_t runs = read_back<1>(space, total, std::string(fn) + ": fence")[0];
    const std::int64_t nnz = runs - (dropped > 0 ? 1 : 0);
    const auto arrays = graph(nnz);
    map.starts = store(AssemblySlot::heads, nnz + 1);
    const std::int64_t limit = AssemblyTuning<ExecSpace>::walk_limit;
    std::int64_t longs = 0;
    Kokkos::parallel_reduce(
        "Ordo::coo2crs::write",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, nnz + 1),
        WritePattern<std::decay_t<decltype(sorted)>, decltype(arrays.row_map),
                     decltype(arrays.entries), Memory>{sorted, arrays.row_map, arrays.entries,
                                                       heads, map.starts, nnz, m, count - dropped,
                                                       limit},
        longs);
    map.long_entries = store(AssemblySlot::long_entries, longs);
    if (longs > 0) {
      compact_dispatch(space, nnz, SelectLongEntry<Memory>{map.starts, limit},
                       EmitPosition<AssemblyIndex<Memory>>{map.long_entries}, total);
    }
  };
  const int row_bits = width_of(m > 0 ? m - 1 : 0), col_bits = width_of(n > 0 ? n - 1 : 0);
  // The dropped triplets take the word 2^(row_bits + col_bits), above the matrix's: one bit more.
  const int word_bits = row_bits + col_bits + 1;
  if (word_bits <= 64) {
    with_packed_bits(word_bits, [&](auto word) {
      using Bits = decltype(word);
      const auto keys = workspace<Bits>(space, count, AssemblySlot::keys);
      const auto positions = workspace<std::uint32_t>(space, count, AssemblySlot::positions);
      const auto sorted_keys = workspace<Bits>(space, count, AssemblySlot::sorted_keys);
      const TripletCensus census = check_triplets(
          "Ordo::coo2crs::pack", fn, space, m, n, row, col,
          PackTriplets<RowView, ColView, decltype(keys), decltype(positions)>{
              row, col, keys, positions, col_bits, Bits(Bits(1) << (row_bits + col_bits))});
      SortOptions known;  // the vendor sort sorts the words' bits only
      known.key_bits = row_bits + col_bits + (census.dropped > 0 ? 1 : 0);
      if constexpr (!std::is_same_v<Carry, NoCarriedValues>) {
        using V = typename decltype(carry.data)::non_const_value_type;
        map.values_sorted =
            2 * census.near < count && std::size_t(count) * sizeof(V) > carry.cached;
        if (map.values_sorted) {
          stable_sort_by_key_into(space, keys, carry.data, sorted_keys, carry.sorted,
                                  Ordo::less<>{}, known);
        }
      }
      if (!map.values_sorted) {
        stable_sort_by_key_into(space, keys, positions, sorted_keys, map.perm, Ordo::less<>{},
                                known);
      }
      write(SortedWords<decltype(sorted_keys)>{sorted_keys, col_bits}, census.dropped);
    });
    return map;
  }
  using Row = typename RowView::non_const_value_type;
  using Col = typename ColView::non_const_value_type;
  const auto flags = workspace<std::uint32_t>(space, count, AssemblySlot::keys);
  const auto rows = workspace<Row>(space, count, AssemblySlot::positions);
  const auto cols = workspace<Col>(space, count, AssemblySlot::sorted_keys);
  const std::int64_t dropped =
      check_triplets(
          "Ordo::coo2crs::copy", fn, space, m, n, row, col,
          CopyTriplets<RowView, ColView, decltype(flags), decltype(rows), decltype(cols)>{
              row, col, flags, rows, cols})
          .dropped;
  multi_key_permutation<Ordo::less<>>(space, map.perm, SortOptions{}, flags, rows, cols);
  write(
      SortedCopies<decltype(flags), decltype(rows), decltype(cols), AssemblyIndex<Memory>>{
          flags, rows, cols, map.perm},
      dropped);
  return map;
}

// The CRS arrays of the triplets (row(i), col(i), data(i)) in an m x n matrix (coo2crs): the
// pattern with its map in the workspace, then the values.
template <class Arrays, class ExecSpace, class RowView, class ColView, class DataView>
Arrays assemble_crs(const char* fn, const ExecSpace& space, std::int64_t m, std::int64_t n,
                    const RowView& row, const ColView& col, const DataView& data,
                    std::size_t cached = AssemblyTuning<ExecSpace>::gather_cached) {
  Arrays crs;
  const auto graph = [&](std::int64_t nnz) {
    auto alloc = [&](const char* label) {
      return Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string(label));
    };
    crs = Arrays{typename Arrays::RowMap(alloc("Ordo::coo2crs::row_map"), m + 1),
                 typename Arrays::Entries(alloc("Ordo::coo2crs::entries"), nnz),
                 typename Arrays::Values(alloc("Ordo::coo2crs::values"), nnz)};
    return crs;
  };
  const auto store = [&](AssemblySlot slot, std::int64_t size) {
    return workspace<std::uint32_t>(space, size, slot);
  };
  using V = typename DataView::non_const_value_type;
  const auto sorted = workspace<V>(space, row.extent(0), AssemblySlot::sorted_values);
  const auto map =
      assemble_pattern(fn, space, m, n, row, col, graph, store,
                       CarriedValues<DataView, decltype(sorted)>{data, sorted, cached});
  if (map.values_sorted) {
    refill_entries(space, map, sorted, crs.values, false);
  } else {
    refill_values(space, map, data, crs.values, false);
  }
  return crs;
}

// The workspace of the pattern of count triplets of rows Row and columns Col, and of coo2crs with
// values V (void: the pattern alone), whose map and values it holds: the larger of the two ways'
// buffers, each with its sort's, the heads and the compactions'.
template <class ExecSpace, class Row, class Col, class V = void>
std::size_t assemble_pattern_bound(std::int64_t count) {
  std::size_t common = slot_bytes<std::int64_t>(1) + slot_bytes<std::uint32_t>(count + 1) +
                       2 * slot_bytes<std::uint32_t>(count) +
                       compaction_bound<ExecSpace, std::int64_t>(count);
  auto sort_of = [&](auto value) {
    using S = decltype(value);
    return std::max(sort_bound<ExecSpace, std::uint32_t, S, Ordo::less<>>(count, true),
                    sort_bound<ExecSpace, std::uint64_t, S, Ordo::less<>>(count, true));
  };
  std::size_t sorts = sort_of(std::uint32_t{});
  if constexpr (!std::is_void_v<V>) {
    common += slot_bytes<V>(count);
    sorts = std::max(sorts, sort_of(V{}));
  }
  const std::size_t packed =
      2 * slot_bytes<std::uint64_t>(count) + slot_bytes<std::uint32_t>(count) + sorts;
  const std::size_t chained =
      slot_bytes<std::uint32_t>(count) + slot_bytes<Row>(count) + slot_bytes<Col>(count) +
      multi_key_sort_bound<ExecSpace, void, true, std::uint32_t, Row, Col>(count);
  return common + std::max(packed, chained);
}

}  // namespace Ordo::Impl

#endif
