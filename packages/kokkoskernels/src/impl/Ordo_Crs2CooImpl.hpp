// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_KOKKOSKERNELS_IMPL_CRS2COOIMPL_HPP
#define ORDO_KOKKOSKERNELS_IMPL_CRS2COOIMPL_HPP

// crs2coo (Ordo_KokkosKernels.hpp): the row map checked (Ordo::crs2coo::check), each entry's row
// by a binary search of the row map (Ordo::crs2coo::rows); the caller copies the column ids and
// values. (coo2crs runs the core's assembly, src/impl/device/Ordo_AssemblyImpl.hpp.)

#include <impl/core/Ordo_Checks.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace Ordo::KokkosKernels::Impl {

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
    std::int64_t lo = 0, hi = nrows;  // row_map(lo) <= k < row_map(hi)
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (std::int64_t(row_map(mid)) <= k) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    rows(k) = typename Rows::non_const_value_type(lo);
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
