// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELS_HPP
#define ORDO_KOKKOSKERNELS_HPP

// Ordo::KokkosKernels: Kokkos Kernels' CRS sorts (KokkosSparse_SortCrs.hpp) on Ordo's segmented
// sort, and its coo2crs and crs2coo on Ordo's sort by two keys and runs, with the same names, forms
// and results, so that a call of KokkosSparse::sort_crs_matrix, sort_crs_graph,
// sort_and_merge_matrix, sort_and_merge_graph, coo2crs or crs2coo becomes Ordo's by its namespace
// (coo2crs, crs2coo and the assembly in two phases: Ordo_KokkosKernelsCoo.hpp, included here). The
// CRS sorts:
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

#include <Ordo_KokkosKernelsCoo.hpp>
#include <Ordo_SegmentedSort.hpp>
#include <impl/Ordo_KokkosKernelsImpl.hpp>

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

}  // namespace Ordo::KokkosKernels

#endif
