// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELS_HPP
#define ORDO_KOKKOSKERNELS_HPP

// Ordo::KokkosKernels: Kokkos Kernels' CRS sorts (KokkosSparse_SortCrs.hpp) on Ordo's segmented
// sort, and its coo2crs and crs2coo on Ordo's sort by two keys and runs, with the same names, forms
// and results, so that a call of KokkosSparse::sort_crs_matrix, sort_crs_graph,
// sort_and_merge_matrix, sort_and_merge_graph, coo2crs or crs2coo becomes Ordo's by its namespace
// (coo2crs and crs2coo: see their comments below). The CRS sorts:
//   sort_crs_matrix(A), sort_crs_matrix(space, A)
//   sort_crs_matrix(rowmap, entries, values[, num_cols]), (space, rowmap, ...), and
//     sort_crs_matrix<ExecSpace[, RowMap, Entries, Values]>(rowmap, entries, values[, num_cols])
//   sort_crs_graph: the same forms without values (and a graph G for A, with num_cols)
//   sort_and_merge_matrix(A) and (space, A) return the merged matrix;
//     sort_and_merge_matrix([space, ]rowmap_in, entries_in, values_in, rowmap_out, entries_out,
//     values_out[, num_cols]) and sort_and_merge_matrix<ExecSpace>(...) set the outputs
//   sort_and_merge_graph: the same forms without values
//
// Contract (Kokkos Kernels'): each row [rowmap(r), rowmap(r + 1)) is sorted by column id in place,
// each value moving with its column id; entries of one row that repeat a column id keep an
// unspecified order among themselves. sort_and_merge also sorts its input in place, then sums the
// values of each row's repeated column ids (in their sorted order, so floating-point sums of more
// than two repeats may round differently from Kokkos Kernels'): when nothing repeats, the outputs
// are the inputs (rowmap_out a copy of rowmap_in, or rowmap_in itself when its value type is
// const), otherwise new Views of exactly the merged size; a row map of no elements gives a zeroed
// row map of as many and empty outputs. Entries outside [rowmap(0), rowmap(rows)) are not part of
// the matrix: the sorts leave them, merged outputs drop them. num_cols is accepted for Kokkos
// Kernels' signatures; Ordo does not need it. Any ordinal, offset and scalar type, managed or
// unmanaged Views (sort_and_merge's outputs allocate, so their types must be managed).
//
// Errors: row offsets that decrease, are negative or run past entries throw std::invalid_argument
// before anything moves; so does a sort_and_merge of 2^32 entries or 2^32 - 1 rows or more (its
// workspace numbers them in 32 bits). Synchronization: the forms taking a space run on it and fence
// it only to read back the check of the row offsets (and, for sort_and_merge, the merged size); the
// forms without one run on the execution space of the matrix, graph or entries and fence it.

#include <Ordo_SegmentedSort.hpp>
#include <impl/Ordo_Crs2CooImpl.hpp>
#include <impl/Ordo_KokkosKernelsImpl.hpp>
#include <impl/device/Ordo_AssemblyImpl.hpp>

#include <KokkosSparse_CooMatrix.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <limits>
#include <string>
#include <type_traits>

/// Kokkos Kernels' CRS sorts (packages/kokkoskernels), by KokkosSparse's names and forms.
namespace Ordo::KokkosKernels {

/// num_cols' default: no bound given.
template <class Entries>
inline constexpr auto no_num_cols =
    std::numeric_limits<typename Entries::non_const_value_type>::max();

/// Whether a form's first two template arguments are an execution space and a View.
template <class ExecSpace, class RowMap>
inline constexpr bool space_and_view_v =
    Kokkos::is_execution_space_v<ExecSpace>&& Kokkos::is_view_v<RowMap>;

// ---- sort_crs_matrix ---------------------------------------------------------------------------

/// Sorts every row of the CRS arrays (rowmap, entries, values) by column id on `space`.
template <class ExecSpace, class RowMap, class Entries, class Values,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_crs_matrix(const ExecSpace& space, const RowMap& rowmap, const Entries& entries,
                     const Values& values,
                     typename Entries::non_const_value_type num_cols = no_num_cols<Entries>) {
  constexpr const char* fn = "Ordo::KokkosKernels::sort_crs_matrix";
  const Ordo::Impl::Region region(fn);
  (void)num_cols;
  Impl::sort_rows(fn, space, rowmap, entries, values);
}

/// The same on a default instance of ExecSpace, named as a template argument. Fences it.
template <class ExecSpace, class RowMap, class Entries, class Values,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_crs_matrix(const RowMap& rowmap, const Entries& entries, const Values& values,
                     typename Entries::non_const_value_type num_cols = no_num_cols<Entries>) {
  const ExecSpace space;
  Ordo::KokkosKernels::sort_crs_matrix(space, rowmap, entries, values, num_cols);
  space.fence("Ordo::KokkosKernels::sort_crs_matrix: fence");
}

/// The same on the entries' execution space. Fences it.
template <class RowMap, class Entries, class Values,
          std::enable_if_t<Kokkos::is_view_v<RowMap>, int> = 0>
void sort_crs_matrix(const RowMap& rowmap, const Entries& entries, const Values& values,
                     typename Entries::non_const_value_type num_cols = no_num_cols<Entries>) {
  Ordo::KokkosKernels::sort_crs_matrix<typename Entries::execution_space>(rowmap, entries, values,
                                                                          num_cols);
}

/// Sorts every row of A (a KokkosSparse::CrsMatrix) by column id on `space`.
template <class ExecSpace, class Matrix,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_crs_matrix(const ExecSpace& space, const Matrix& A) {
  Ordo::KokkosKernels::sort_crs_matrix(space, A.graph.row_map, A.graph.entries, A.values);
}

/// sort_crs_matrix on the matrix's execution space. Fences it.
template <class Matrix>
void sort_crs_matrix(const Matrix& A) {
  Ordo::KokkosKernels::sort_crs_matrix<typename Matrix::execution_space>(
      A.graph.row_map, A.graph.entries, A.values);  // qualified: no ADL into KokkosSparse
}

// ---- sort_crs_graph ----------------------------------------------------------------------------

/// Sorts every row of the CRS arrays (rowmap, entries) by column id on `space`.
template <class ExecSpace, class RowMap, class Entries,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_crs_graph(const ExecSpace& space, const RowMap& rowmap, const Entries& entries,
                    typename Entries::non_const_value_type num_cols = no_num_cols<Entries>) {
  constexpr const char* fn = "Ordo::KokkosKernels::sort_crs_graph";
  const Ordo::Impl::Region region(fn);
  (void)num_cols;
  Impl::sort_rows(fn, space, rowmap, entries);
}

/// The same on a default instance of ExecSpace, named as a template argument. Fences it.
template <class ExecSpace, class RowMap, class Entries,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_crs_graph(const RowMap& rowmap, const Entries& entries,
                    typename Entries::non_const_value_type num_cols = no_num_cols<Entries>) {
  const ExecSpace space;
  Ordo::KokkosKernels::sort_crs_graph(space, rowmap, entries, num_cols);
  space.fence("Ordo::KokkosKernels::sort_crs_graph: fence");
}

/// The same on the entries' execution space. Fences it.
template <class RowMap, class Entries, std::enable_if_t<Kokkos::is_view_v<RowMap>, int> = 0>
void sort_crs_graph(const RowMap& rowmap, const Entries& entries,
                    typename Entries::non_const_value_type num_cols = no_num_cols<Entries>) {
  Ordo::KokkosKernels::sort_crs_graph<typename Entries::execution_space>(rowmap, entries, num_cols);
}

/// Sorts every row of G (a StaticCrsGraph: row_map and entries) by column id on `space`.
template <
    class ExecSpace, class Graph,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Graph>, int> = 0>
void sort_crs_graph(const ExecSpace& space, const Graph& G,
                    typename Graph::entries_type::non_const_value_type num_cols =
                        no_num_cols<typename Graph::entries_type>) {
  Ordo::KokkosKernels::sort_crs_graph(space, G.row_map, G.entries, num_cols);
}

/// sort_crs_graph on the graph's execution space. Fences it.
template <
    class Graph,
    std::enable_if_t<!Kokkos::is_view_v<Graph> && !Kokkos::is_execution_space_v<Graph>, int> = 0>
void sort_crs_graph(const Graph& G, typename Graph::entries_type::non_const_value_type num_cols =
                                        no_num_cols<typename Graph::entries_type>) {
  Ordo::KokkosKernels::sort_crs_graph<typename Graph::execution_space>(G.row_map, G.entries,
                                                                       num_cols);
}

// ---- sort_and_merge_matrix ---------------------------------------------------------------------

/// Sorts the rows of (rowmap_in, entries_in, values_in) in place on `space` and sets the
/// outputs to the matrix with each row's repeated column ids merged, their values summed.
template <class ExecSpace, class RowMap, class Entries, class Values,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_and_merge_matrix(const ExecSpace& space, const typename RowMap::const_type& rowmap_in,
                           const Entries& entries_in, const Values& values_in, RowMap& rowmap_out,
                           Entries& entries_out, Values& values_out,
                           typename Entries::const_value_type& num_cols = no_num_cols<Entries>) {
  constexpr const char* fn = "Ordo::KokkosKernels::sort_and_merge_matrix";
  const Ordo::Impl::Region region(fn);
  (void)num_cols;
  Impl::sort_and_merge(fn, space, rowmap_in, entries_in, values_in, rowmap_out, entries_out,
                       values_out);
}

/// The same on a default instance of ExecSpace, named as a template argument. Fences it.
template <class ExecSpace, class RowMap, class Entries, class Values,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_and_merge_matrix(const typename RowMap::const_type& rowmap_in, const Entries& entries_in,
                           const Values& values_in, RowMap& rowmap_out, Entries& entries_out,
                           Values& values_out,
                           typename Entries::const_value_type& num_cols = no_num_cols<Entries>) {
  const ExecSpace space;
  Ordo::KokkosKernels::sort_and_merge_matrix(space, rowmap_in, entries_in, values_in, rowmap_out,
                                             entries_out, values_out, num_cols);
  space.fence("Ordo::KokkosKernels::sort_and_merge_matrix: fence");
}

/// The same on the entries' execution space. Fences it.
template <class RowMap, class Entries, class Values,
          std::enable_if_t<Kokkos::is_view_v<RowMap>, int> = 0>
void sort_and_merge_matrix(const typename RowMap::const_type& rowmap_in, const Entries& entries_in,
                           const Values& values_in, RowMap& rowmap_out, Entries& entries_out,
                           Values& values_out,
                           typename Entries::const_value_type& num_cols = no_num_cols<Entries>) {
  Ordo::KokkosKernels::sort_and_merge_matrix<typename Entries::execution_space>(
      rowmap_in, entries_in, values_in, rowmap_out, entries_out, values_out, num_cols);
}

/// A sorts in place on `space`; returns the matrix with each row's repeated column ids merged
/// (A itself, sorted, when nothing repeats).
template <class ExecSpace, class Matrix,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
Matrix sort_and_merge_matrix(const ExecSpace& space, const Matrix& A) {
  typename Matrix::row_map_type rowmap_out;
  typename Matrix::index_type entries_out;
  typename Matrix::values_type values_out;
  Ordo::KokkosKernels::sort_and_merge_matrix(space, A.graph.row_map, A.graph.entries, A.values,
                                             rowmap_out, entries_out, values_out);
  return Matrix("SortedMerged", A.numRows(), A.numCols(), values_out.extent(0), values_out,
                rowmap_out, entries_out);
}

/// sort_and_merge_matrix on the matrix's execution space. Fences it.
template <class Matrix>
Matrix sort_and_merge_matrix(const Matrix& A) {
  using ExecSpace = typename Matrix::execution_space;
  const ExecSpace space;
  Matrix merged = Ordo::KokkosKernels::sort_and_merge_matrix(space, A);
  space.fence("Ordo::KokkosKernels::sort_and_merge_matrix: fence");
  return merged;
}

// ---- sort_and_merge_graph ----------------------------------------------------------------------

/// sort_and_merge_matrix without values: each row's repeated column ids kept once.
template <class ExecSpace, class RowMap, class Entries,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_and_merge_graph(const ExecSpace& space, const typename RowMap::const_type& rowmap_in,
                          const Entries& entries_in, RowMap& rowmap_out, Entries& entries_out,
                          typename Entries::const_value_type& num_cols = no_num_cols<Entries>) {
  constexpr const char* fn = "Ordo::KokkosKernels::sort_and_merge_graph";
  const Ordo::Impl::Region region(fn);
  (void)num_cols;
  Impl::NoValues none, none_out;
  Impl::sort_and_merge(fn, space, rowmap_in, entries_in, none, rowmap_out, entries_out, none_out);
}

/// The same on a default instance of ExecSpace, named as a template argument. Fences it.
template <class ExecSpace, class RowMap, class Entries,
          std::enable_if_t<space_and_view_v<ExecSpace, RowMap>, int> = 0>
void sort_and_merge_graph(const typename RowMap::const_type& rowmap_in, const Entries& entries_in,
                          RowMap& rowmap_out, Entries& entries_out,
                          typename Entries::const_value_type& num_cols = no_num_cols<Entries>) {
  const ExecSpace space;
  Ordo::KokkosKernels::sort_and_merge_graph(space, rowmap_in, entries_in, rowmap_out, entries_out,
                                            num_cols);
  space.fence("Ordo::KokkosKernels::sort_and_merge_graph: fence");
}

/// The same on the entries' execution space. Fences it.
template <class RowMap, class Entries, std::enable_if_t<Kokkos::is_view_v<RowMap>, int> = 0>
void sort_and_merge_graph(const typename RowMap::const_type& rowmap_in, const Entries& entries_in,
                          RowMap& rowmap_out, Entries& entries_out,
                          typename Entries::const_value_type& num_cols = no_num_cols<Entries>) {
  Ordo::KokkosKernels::sort_and_merge_graph<typename Entries::execution_space>(
      rowmap_in, entries_in, rowmap_out, entries_out, num_cols);
}

/// G sorts in place on `space`; returns the graph with each row's repeated column ids kept once.
template <
    class ExecSpace, class Graph,
    std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Graph>, int> = 0>
Graph sort_and_merge_graph(const ExecSpace& space, const Graph& G,
                           typename Graph::entries_type::const_value_type& num_cols =
                               no_num_cols<typename Graph::entries_type>) {
  typename Graph::row_map_type::non_const_type rowmap_out;
  typename Graph::entries_type entries_out;
  Ordo::KokkosKernels::sort_and_merge_graph(space, G.row_map, G.entries, rowmap_out, entries_out,
                                            num_cols);
  return Graph(entries_out, rowmap_out);
}

/// sort_and_merge_graph on the graph's execution space. Fences it.
template <
    class Graph,
    std::enable_if_t<!Kokkos::is_view_v<Graph> && !Kokkos::is_execution_space_v<Graph>, int> = 0>
Graph sort_and_merge_graph(const Graph& G,
                           typename Graph::entries_type::const_value_type& num_cols =
                               no_num_cols<typename Graph::entries_type>) {
  using ExecSpace = typename Graph::execution_space;
  const ExecSpace space;
  Graph merged = Ordo::KokkosKernels::sort_and_merge_graph(space, G, num_cols);
  space.fence("Ordo::KokkosKernels::sort_and_merge_graph: fence");
  return merged;
}

// ---- coo2crs and crs2coo ---------------------------------------------------------------------

/// The matrix coo2crs returns: Kokkos Kernels' type (values of data's type, ordinals of row's,
/// offsets of col's, on the space).
template <class ExecSpace, class RowView, class ColView, class DataView>
using Coo2CrsMatrix = KokkosSparse::CrsMatrix<typename DataView::non_const_value_type,
                                              typename RowView::non_const_value_type, ExecSpace,
                                              void, typename ColView::non_const_value_type>;

/// The m x n CRS matrix of the triplets (row(i), col(i), data(i)) on `space`, as
/// KokkosSparse::coo2crs builds it: repeated (row, column) pairs summed into one entry, column ids
/// ascending in each row, triplets with a negative row or column dropped. The sums run in the
/// triplets' input order for each entry, so a floating-point matrix has the same bits on every
/// run (Kokkos Kernels' atomic sums do not). Errors (std::invalid_argument, before the matrix is
/// allocated, found by the first pass over the triplets; Kokkos Kernels aborts): Views of
/// different lengths, m or n negative, a triplet with a row of m or more or a column of n or more
/// (the message names the first). The inputs are left as they are. One sort of the (row, column)
/// pairs packed into one word (perf_tests/README.md). Synchronization: fences `space` to read back
/// the census and the number of entries.
template <class ExecSpace, class DimType, class RowView, class ColView, class DataView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<RowView>,
                           int> = 0>
Coo2CrsMatrix<ExecSpace, RowView, ColView, DataView> coo2crs(const ExecSpace& space, DimType m,
                                                             DimType n, const RowView& row,
                                                             const ColView& col,
                                                             const DataView& data) {
  constexpr const char* fn = "Ordo::KokkosKernels::coo2crs";
  const Ordo::Impl::Region region(fn);
  Ordo::Impl::static_check_views<ExecSpace, RowView, ColView, DataView>();
  static_assert(std::is_integral_v<typename RowView::value_type> &&
                    std::is_integral_v<typename ColView::value_type>,
                "Ordo::KokkosKernels::coo2crs: row and col hold integer indices");
  static_assert(std::is_integral_v<DimType>, "Ordo::KokkosKernels::coo2crs: m and n are integers");
  Ordo::Impl::check_size_equal(fn, "col", col, row.extent(0), "one column per row index");
  Ordo::Impl::check_size_equal(fn, "data", data, row.extent(0), "one value per row index");
  if (Ordo::Impl::negative_index(m) || Ordo::Impl::negative_index(n)) {
    Ordo::Impl::fail(
        fn, "m = " + std::to_string(m) + " and n = " + std::to_string(n) + " must not be negative");
  }
  Ordo::Impl::check_all_reachable<ExecSpace>(fn, "row", row, "col", col, "data", data);
  using Row = typename RowView::non_const_value_type;
  using Col = typename ColView::non_const_value_type;
  using V = typename DataView::non_const_value_type;
  const Ordo::Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Ordo::Impl::assemble_crs_bound<ExecSpace, Row, Col, V>(std::int64_t(row.extent(0)));
  });
  using Matrix = Coo2CrsMatrix<ExecSpace, RowView, ColView, DataView>;
  using Arrays = Ordo::Impl::CrsArrays<typename Matrix::row_map_type::non_const_type,
                                       typename Matrix::index_type::non_const_type,
                                       typename Matrix::values_type::non_const_type>;
  const auto crs =
      Ordo::Impl::assemble_crs<Arrays>(fn, space, std::int64_t(m), std::int64_t(n), row, col, data);
  using Ordinal = typename Matrix::ordinal_type;
  return Matrix("Ordo::coo2crs", Ordinal(m), Ordinal(n),
                typename Matrix::size_type(crs.entries.extent(0)), crs.values, crs.row_map,
                crs.entries);
}

/// coo2crs on data's execution space (KokkosSparse::coo2crs's form). Fences it.
template <class DimType, class RowView, class ColView, class DataView,
          std::enable_if_t<std::is_integral_v<DimType> && Kokkos::is_view_v<RowView>, int> = 0>
auto coo2crs(DimType m, DimType n, const RowView& row, const ColView& col, const DataView& data) {
  using ExecSpace = typename DataView::execution_space;
  const ExecSpace space;
  auto A = Ordo::KokkosKernels::coo2crs(space, m, n, row, col, data);
  space.fence("Ordo::KokkosKernels::coo2crs: fence");
  return A;
}

/// coo2crs of a KokkosSparse::CooMatrix.
template <class ScalarType, class OrdinalType, class Device, class MemoryTraits, class SizeType>
auto coo2crs(
    const KokkosSparse::CooMatrix<ScalarType, OrdinalType, Device, MemoryTraits, SizeType>& coo) {
  return Ordo::KokkosKernels::coo2crs(coo.numRows(), coo.numCols(), coo.row(), coo.col(),
                                      coo.data());
}

/// The triplets of a CRS matrix (KokkosSparse::crs2coo): entry k's row (the row that holds it),
/// column id and value, in the matrix's order. Errors (std::invalid_argument): a row map that does
/// not start at 0, decreases, or ends elsewhere than nnz; col_ids or vals shorter than nnz. Fences
/// values' execution space.
template <class OrdinalType, class SizeType, class ValView, class RowMapView, class ColIdView>
auto crs2coo(OrdinalType nrows, OrdinalType ncols, SizeType nnz, const ValView& vals,
             const RowMapView& row_map, const ColIdView& col_ids) {
  constexpr const char* fn = "Ordo::KokkosKernels::crs2coo";
  const Ordo::Impl::Region region(fn);
  using ExecSpace = typename ValView::execution_space;
  using Coo = KokkosSparse::CooMatrix<typename ValView::value_type, OrdinalType, ExecSpace>;
  const ExecSpace space;
  Ordo::Impl::check_size_equal(fn, "row_map", row_map, std::size_t(nrows) + 1,
                               "one offset per row and one more");
  Ordo::Impl::check_size_at_least(fn, "col_ids", col_ids, std::size_t(nnz));
  Ordo::Impl::check_size_at_least(fn, "vals", vals, std::size_t(nnz));
  const typename Coo::row_view rows(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::crs2coo::row"), nnz);
  const typename Coo::column_view cols(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::crs2coo::col"), nnz);
  const Kokkos::View<typename ValView::non_const_value_type*, Kokkos::LayoutRight, ExecSpace> data(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Ordo::crs2coo::data"), nnz);
  Impl::rows_of_entries(fn, space, row_map, rows);
  const auto first = Kokkos::make_pair(std::size_t(0), std::size_t(nnz));
  Kokkos::deep_copy(space, cols, Kokkos::subview(col_ids, first));
  Kokkos::deep_copy(space, data, Kokkos::subview(vals, first));
  space.fence("Ordo::KokkosKernels::crs2coo: fence");
  return Coo(nrows, ncols, rows, cols, data);
}

/// crs2coo of a KokkosSparse::CrsMatrix.
template <class ScalarType, class OrdinalType, class Device, class MemoryTraits, class SizeType>
auto crs2coo(
    const KokkosSparse::CrsMatrix<ScalarType, OrdinalType, Device, MemoryTraits, SizeType>& A) {
  return Ordo::KokkosKernels::crs2coo(A.numRows(), A.numCols(), A.nnz(), A.values, A.graph.row_map,
                                      A.graph.entries);
}

}  // namespace Ordo::KokkosKernels

#endif
