// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELS_HPP
#define ORDO_KOKKOSKERNELS_HPP

// Ordo::KokkosKernels: the rows of Kokkos Kernels' CRS matrices and graphs sorted by column id
// with Ordo's segmented sort (the calls of KokkosSparse::sort_crs_matrix and sort_crs_graph).

#include <Ordo_SegmentedSort.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_SegmentedSortImpl.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

namespace Ordo::KokkosKernels {

/// Sorts every row of A (a KokkosSparse::CrsMatrix) by column id, moving each value with its
/// column id, in place. Rows that repeat a column id keep those entries in an unspecified order.
/// Bad row offsets (decreasing, or past the entries) throw std::invalid_argument before anything
/// moves. Synchronization: the row offsets' check reads back one result (a fence of `space`);
/// the sort is asynchronous on `space`.
template <class ExecSpace, class Matrix,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_crs_matrix(const ExecSpace& space, const Matrix& A) {
  constexpr const char* fn = "Ordo::KokkosKernels::sort_crs_matrix";
  const Ordo::Impl::Region region(fn);
  const auto& rows = A.graph.row_map;
  if (rows.extent(0) == 0) return;  // a matrix of no rows may have no row offsets
  Ordo::Impl::check_segmented_by_key<ExecSpace>(fn, A.graph.entries, A.values, rows);
  Ordo::Impl::segmented_sort_by_key(fn, space, A.graph.entries, A.values, rows, Ordo::less<>{},
                                    Ordo::Impl::SortOptions{});
}

/// sort_crs_matrix on the matrix's execution space. Synchronization: fences that space.
template <class Matrix>
void sort_crs_matrix(const Matrix& A) {
  using ExecSpace = typename Matrix::execution_space;
  const ExecSpace space;
  Ordo::KokkosKernels::sort_crs_matrix(space, A);  // qualified: no ADL into KokkosSparse
  space.fence("Ordo::KokkosKernels::sort_crs_matrix: fence");
}

/// Sorts every row of G (a StaticCrsGraph: row_map and entries) by column id, in place.
template <class ExecSpace, class Graph,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_crs_graph(const ExecSpace& space, const Graph& G) {
  constexpr const char* fn = "Ordo::KokkosKernels::sort_crs_graph";
  const Ordo::Impl::Region region(fn);
  if (G.row_map.extent(0) == 0) return;
  Ordo::Impl::check_segmented<ExecSpace>(fn, G.entries, G.row_map);
  Ordo::Impl::segmented_sort(fn, space, G.entries, G.row_map, Ordo::less<>{},
                             Ordo::Impl::SortOptions{});
}

/// sort_crs_graph on the graph's execution space. Synchronization: fences that space.
template <class Graph>
void sort_crs_graph(const Graph& G) {
  using ExecSpace = typename Graph::execution_space;
  const ExecSpace space;
  Ordo::KokkosKernels::sort_crs_graph(space, G);
  space.fence("Ordo::KokkosKernels::sort_crs_graph: fence");
}

}  // namespace Ordo::KokkosKernels

#endif
