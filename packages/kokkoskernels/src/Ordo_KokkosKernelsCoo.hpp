// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELSCOO_HPP
#define ORDO_KOKKOSKERNELSCOO_HPP

// Ordo::KokkosKernels' calls on triplets (Ordo_KokkosKernels.hpp includes this header): coo2crs and
// crs2coo by KokkosSparse's names, forms and results, and the assembly in two phases
// (coo2crs_pattern once, coo2crs_refill each step).

#include <impl/Ordo_CooImpl.hpp>

#include <KokkosSparse_CooMatrix.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::KokkosKernels {

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
/// run (Kokkos Kernels' atomic sums do not; an entry of more than 1024 triplets is summed on GPUs
/// in 256 contiguous pieces, then the pieces in order). Errors (std::invalid_argument, before the
/// matrix is allocated, found by the first pass over the triplets; Kokkos Kernels aborts): Views of
/// different lengths, m or n negative, 2^32 - 1 triplets or more, a triplet with a row of m or more
/// or a column of n or more (the message names the first). The inputs are left as they are. One
/// sort of the (row, column) pairs packed into one word with the triplets' positions, then the
/// values summed through the positions (coo2crs_pattern and coo2crs_refill in one call: the same
/// bits; perf_tests/README.md). Synchronization: fences `space` to read back the census and the
/// number of entries.
template <class ExecSpace, class DimType, class RowView, class ColView, class DataView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<RowView>,
                           int> = 0>
Coo2CrsMatrix<ExecSpace, RowView, ColView, DataView> coo2crs(const ExecSpace& space, DimType m,
                                                             DimType n, const RowView& row,
                                                             const ColView& col,
                                                             const DataView& data) {
  constexpr const char* fn = "Ordo::KokkosKernels::coo2crs";
  const Ordo::Impl::Region region(fn);
  Ordo::Impl::static_check_views<ExecSpace, DataView>();
  Ordo::Impl::check_size_equal(fn, "data", data, row.extent(0), "one value per row index");
  Impl::check_coo_indices<ExecSpace>(fn, m, n, row, col);
  Ordo::Impl::check_all_reachable<ExecSpace>(fn, "data", data);
  using Row = typename RowView::non_const_value_type;
  using Col = typename ColView::non_const_value_type;
  const Ordo::Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Ordo::Impl::assemble_pattern_bound<ExecSpace, Row, Col,
                                              typename DataView::non_const_value_type>(
        std::int64_t(row.extent(0)));
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

// ---- the assembly in two phases: the pattern once, the values every step --------------------

/// The sparsity pattern of a set of triplets, computed once from their indices (coo2crs_pattern)
/// and refilled with new values as often as wanted (coo2crs_refill): the matrix's row map and
/// column ids (row_map, entries: the graph of every matrix it fills, shared by reference) and the
/// map from the triplets to the entries (Ordo's own: 32-bit positions, about 4 bytes a triplet and
/// 4 an entry). Ordinal and Offset are the matrix's types, as coo2crs gives them (row's and col's
/// value types).
template <class ExecSpace, class Ordinal, class Offset>
struct Coo2CrsPattern {
  /// The space the pattern's Views live in and its refills run on by default.
  using execution_space = ExecSpace;
  /// A matrix of the pattern's ordinal and offset types, whose graph types the pattern takes.
  using graph_matrix = KokkosSparse::CrsMatrix<double, Ordinal, ExecSpace, void, Offset>;
  /// The row map's type (the matrix's).
  using row_map_type = typename graph_matrix::row_map_type::non_const_type;
  /// The column ids' type (the matrix's).
  using entries_type = typename graph_matrix::index_type::non_const_type;
  /// The matrix's rows.
  Ordinal m = 0;
  /// The matrix's columns.
  Ordinal n = 0;
  /// The row map: m + 1 offsets.
  row_map_type row_map;
  /// The column ids: nnz() of them, ascending in each row.
  entries_type entries;
  /// Which triplets sum into each entry (Ordo's own).
  Ordo::Impl::AssemblyMapViews<typename ExecSpace::memory_space> map;
  /// The length of every value array the pattern takes.
  std::int64_t triplets() const { return std::int64_t(map.perm.extent(0)); }
  /// The matrix's entries.
  std::int64_t nnz() const { return std::int64_t(entries.extent(0)); }
};

/// The pattern coo2crs_pattern returns for these index Views.
template <class ExecSpace, class RowView, class ColView>
using Coo2CrsPatternOf = Coo2CrsPattern<ExecSpace, typename RowView::non_const_value_type,
                                        typename ColView::non_const_value_type>;

/// The pattern of the triplets' indices (row(i), col(i)) in an m x n matrix: what coo2crs builds
/// from the same indices, without the values (PETSc's MatSetPreallocationCOO). Errors: coo2crs's
/// on the indices, before anything is allocated. Synchronization: fences `space` to read back
/// the census, the number of entries and of long ones.
template <class ExecSpace, class DimType, class RowView, class ColView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
Coo2CrsPatternOf<ExecSpace, RowView, ColView> coo2crs_pattern(const ExecSpace& space, DimType m,
                                                              DimType n, const RowView& row,
                                                              const ColView& col) {
  constexpr const char* fn = "Ordo::KokkosKernels::coo2crs_pattern";
  const Ordo::Impl::Region region(fn);
  Impl::check_coo_indices<ExecSpace>(fn, m, n, row, col);
  using Row = typename RowView::non_const_value_type;
  using Col = typename ColView::non_const_value_type;
  const Ordo::Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Ordo::Impl::assemble_pattern_bound<ExecSpace, Row, Col>(std::int64_t(row.extent(0)));
  });
  using Pattern = Coo2CrsPatternOf<ExecSpace, RowView, ColView>;
  Pattern p;
  p.m = Row(m);
  p.n = Row(n);
  const auto graph = [&](std::int64_t nnz) {
    auto alloc = [&](const char* label) {
      return Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string(label));
    };
    p.row_map =
        typename Pattern::row_map_type(alloc("Ordo::coo2crs::row_map"), std::int64_t(m) + 1);
    p.entries = typename Pattern::entries_type(alloc("Ordo::coo2crs::entries"), nnz);
    return p;
  };
  Ordo::Impl::assemble_pattern(fn, space, std::int64_t(m), std::int64_t(n), row, col, graph, p.map);
  return p;
}

/// coo2crs_pattern on row's execution space. Fences it.
template <class DimType, class RowView, class ColView,
          std::enable_if_t<std::is_integral_v<DimType> && Kokkos::is_view_v<RowView>, int> = 0>
auto coo2crs_pattern(DimType m, DimType n, const RowView& row, const ColView& col) {
  using ExecSpace = typename RowView::execution_space;
  const ExecSpace space;
  auto p = Ordo::KokkosKernels::coo2crs_pattern(space, m, n, row, col);
  space.fence("Ordo::KokkosKernels::coo2crs_pattern: fence");
  return p;
}

/// How coo2crs_refill writes an entry: the sum of its triplets' values (insert, PETSc's
/// INSERT_VALUES), or the entry's value plus that sum (add, ADD_VALUES).
enum class Refill { insert, add };

/// A's values from the new values data (one per triplet of the pattern, in the order of the
/// indices the pattern was made from): each entry's triplets summed in their input order, as
/// coo2crs sums them (the same bits as coo2crs of the same triplets), written (Refill::insert) or
/// added to the entry's value (Refill::add). A is a matrix of the pattern (coo2crs(space, pattern,
/// data) makes one; only its values are written). One pass, no allocation, no fence (PETSc's
/// MatSetValuesCOO). Errors (std::invalid_argument, A unchanged): data of another length than the
/// pattern's triplets; A of another shape or number of entries than the pattern's.
template <class ExecSpace, class Ordinal, class Offset, class DataView, class Matrix,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void coo2crs_refill(const ExecSpace& space,
                    const Coo2CrsPattern<ExecSpace, Ordinal, Offset>& pattern, const DataView& data,
                    const Matrix& A, Refill mode = Refill::insert) {
  constexpr const char* fn = "Ordo::KokkosKernels::coo2crs_refill";
  const Ordo::Impl::Region region(fn);
  Ordo::Impl::static_check_views<ExecSpace, DataView, typename Matrix::values_type>();
  Ordo::Impl::check_size_equal(fn, "data", data, std::size_t(pattern.triplets()),
                               "one value per triplet of the pattern");
  if (std::int64_t(A.numRows()) != std::int64_t(pattern.m) ||
      std::int64_t(A.numCols()) != std::int64_t(pattern.n) ||
      std::int64_t(A.values.extent(0)) != pattern.nnz()) {
    Ordo::Impl::fail(fn, "A is " + std::to_string(A.numRows()) + " x " +
                             std::to_string(A.numCols()) + " with " +
                             std::to_string(A.values.extent(0)) + " entries, the pattern " +
                             std::to_string(pattern.m) + " x " + std::to_string(pattern.n) +
                             " with " + std::to_string(pattern.nnz()));
  }
  Ordo::Impl::check_all_reachable<ExecSpace>(fn, "data", data, "A.values", A.values);
  Ordo::Impl::check_no_alias(fn, "A.values", A.values, "data", data);
  Ordo::Impl::refill_values(space, pattern.map.map(), data, A.values, mode == Refill::add);
}

/// coo2crs_refill on data's execution space. Fences it.
template <class ExecSpace, class Ordinal, class Offset, class DataView, class Matrix>
void coo2crs_refill(const Coo2CrsPattern<ExecSpace, Ordinal, Offset>& pattern, const DataView& data,
                    const Matrix& A, Refill mode = Refill::insert) {
  const ExecSpace space;
  Ordo::KokkosKernels::coo2crs_refill(space, pattern, data, A, mode);
  space.fence("Ordo::KokkosKernels::coo2crs_refill: fence");
}

/// The matrix of the pattern with the values data (coo2crs of the pattern's triplets): A's row
/// map and column ids are the pattern's (shared), its values new. Errors: coo2crs_refill's on
/// data. Asynchronous on `space`.
template <class ExecSpace, class Ordinal, class Offset, class DataView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
auto coo2crs(const ExecSpace& space, const Coo2CrsPattern<ExecSpace, Ordinal, Offset>& pattern,
             const DataView& data) {
  constexpr const char* fn = "Ordo::KokkosKernels::coo2crs";
  using Matrix = KokkosSparse::CrsMatrix<typename DataView::non_const_value_type, Ordinal,
                                         ExecSpace, void, Offset>;
  Ordo::Impl::check_size_equal(fn, "data", data, std::size_t(pattern.triplets()),
                               "one value per triplet of the pattern");
  const typename Matrix::values_type::non_const_type values(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("Ordo::coo2crs::values")),
      pattern.nnz());
  const Matrix A("Ordo::coo2crs", pattern.m, pattern.n, typename Matrix::size_type(pattern.nnz()),
                 values, pattern.row_map, pattern.entries);
  Ordo::KokkosKernels::coo2crs_refill(space, pattern, data, A);
  return A;
}

/// The matrix of the pattern with the values data on data's execution space. Fences it.
template <class ExecSpace, class Ordinal, class Offset, class DataView>
auto coo2crs(const Coo2CrsPattern<ExecSpace, Ordinal, Offset>& pattern, const DataView& data) {
  const ExecSpace space;
  auto A = Ordo::KokkosKernels::coo2crs(space, pattern, data);
  space.fence("Ordo::KokkosKernels::coo2crs: fence");
  return A;
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
