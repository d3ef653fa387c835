// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELS_IMPL_COOIMPL_HPP
#define ORDO_KOKKOSKERNELS_IMPL_COOIMPL_HPP

// The triplet calls of Ordo_KokkosKernelsCoo.hpp. coo2crs and coo2crs_pattern: the checks of the
// indices (the core's assembly does the rest, src/impl/device/Ordo_AssemblyImpl.hpp). crs2coo: the
// row map checked (Ordo::crs2coo::check), each entry's row by a binary search of the row map
// (Ordo::crs2coo::rows); the caller copies the column ids and values.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_AssemblyImpl.hpp>
#include <impl/lane/Ordo_MergePath.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace Ordo::KokkosKernels::Impl {

// The checks of coo2crs and coo2crs_pattern on the indices (before anything is allocated).
template <class ExecSpace, class DimType, class RowView, class ColView>
void check_coo_indices(const char* fn, DimType m, DimType n, const RowView& row,
                       const ColView& col) {
  Ordo::Impl::static_check_views<ExecSpace, RowView, ColView>();
  static_assert(std::is_integral_v<typename RowView::value_type> &&
                    std::is_integral_v<typename ColView::value_type>,
                "Ordo::KokkosKernels::coo2crs: row and col hold integer indices");
  static_assert(std::is_integral_v<DimType>, "Ordo::KokkosKernels::coo2crs: m and n are integers");
  Ordo::Impl::check_size_equal(fn, "col", col, row.extent(0), "one column per row index");
  if (row.extent(0) >= (std::size_t(1) << 32) - 1) {
    Ordo::Impl::fail(fn, "row has " + std::to_string(row.extent(0)) +
                             " triplets, at most 2^32 - 2 are supported (they are sorted)");
  }
  if (Ordo::Impl::negative_index(m) || Ordo::Impl::negative_index(n)) {
    Ordo::Impl::fail(
        fn, "m = " + std::to_string(m) + " and n = " + std::to_string(n) + " must not be negative");
  }
  Ordo::Impl::check_all_reachable<ExecSpace>(fn, "row", row, "col", col);
}

// Position r in [0, nrows] of a row map that does not start at 0, decreases at r, or ends (r =
// nrows) elsewhere than nnz.
template <class RowMap>
struct RowMapErrors {
  RowMap row_map;
  std::int64_t nrows, nnz;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, int& bad) const {
    const auto at = std::int64_t(row_map(r));
    if ((r == 0 && at != 0) || (r > 0 && at < std::int64_t(row_map(r - 1))) ||
        (r == nrows && at != nnz)) {
      bad = 1;
    }
  }
};

// Entry k's row: the last row r with row_map(r) <= k (a binary search of the valid row map).
template <class RowMap, class Rows>
struct RowOfEntry {
  RowMap row_map;
  Rows rows;
  std::int64_t nrows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const {
    // The first r in [1, nrows) with row_map(r) > k (nrows where none), less one.
    const std::int64_t after =
        Ordo::Impl::binary_search<true>(row_map, 1, nrows - 1, k, Ordo::less<std::int64_t>{});
    rows(k) = typename Rows::non_const_value_type(after - 1);
  }
};

template <class ExecSpace, class RowMap, class Rows>
void rows_of_entries(const char* fn, const ExecSpace& space, const RowMap& row_map,
                     const Rows& rows) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t nrows = std::int64_t(row_map.extent(0)) - 1, nnz = rows.extent(0);
  int bad = 0;
  Kokkos::parallel_reduce("Ordo::crs2coo::check", Range(space, 0, nrows + 1),
                          RowMapErrors<RowMap>{row_map, nrows, nnz}, Kokkos::BOr<int>(bad));
  if (bad) {
    Ordo::Impl::fail(fn, "the row map does not rise from 0 to nnz = " + std::to_string(nnz));
  }
  Kokkos::parallel_for("Ordo::crs2coo::rows", Range(space, 0, nnz),
                       RowOfEntry<RowMap, Rows>{row_map, rows, nrows});
}

}  // namespace Ordo::KokkosKernels::Impl

#endif
