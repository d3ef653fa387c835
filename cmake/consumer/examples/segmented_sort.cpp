// SPDX-License-Identifier: BSD-3-Clause
// Sparse matrix rows: sort each CRS row's column ids, moving the row's values with them.
// Checks that every row is in order and that each value stayed with its column id.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int rows = 20000;
  // Row r holds 1 + r % 37 entries (row_map: the CRS offsets, rows + 1 of them).
  Kokkos::View<std::int64_t*> row_map("row_map", rows + 1);
  Kokkos::parallel_scan(
      "example::row_map", rows, KOKKOS_LAMBDA(int r, std::int64_t& before, bool final) {
        if (final) row_map(r) = before;
        before += 1 + r % 37;
        if (final && r + 1 == rows) row_map(rows) = before;
      });
  std::int64_t nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(row_map, rows));
  Kokkos::View<int*> cols("cols", nnz);
  Kokkos::View<double*> vals("vals", nnz);
  Kokkos::parallel_for(
      "example::entries", nnz, KOKKOS_LAMBDA(std::int64_t i) {
        cols(i) = int((std::uint64_t(i) * 2654435761u) % 100003);  // unsorted column ids
        vals(i) = 0.25 * cols(i);
      });

  Kokkos::DefaultExecutionSpace space;
  Ordo::segmented_sort_by_key(space, cols, vals, row_map);
  space.fence();

  int bad = 0;
  Kokkos::parallel_reduce(
      "example::check", rows,
      KOKKOS_LAMBDA(int r, int& b) {
        for (std::int64_t i = row_map(r); i < row_map(r + 1); ++i) {
          if (i > row_map(r) && cols(i - 1) > cols(i)) ++b;  // the row is sorted
          if (vals(i) != 0.25 * cols(i)) ++b;                // its value moved with it
        }
      },
      bad);
  std::printf("segmented_sort: %d rows, %lld entries, %s\n", rows, (long long)nnz,
              bad ? "WRONG" : "ok");
  return bad != 0;
}
