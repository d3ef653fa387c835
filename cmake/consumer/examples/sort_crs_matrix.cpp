// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels: sort the rows of a KokkosSparse::CrsMatrix by column id with
// Ordo::KokkosKernels::sort_crs_matrix (find_package(Ordo COMPONENTS KokkosKernels)), then merge
// the repeated column ids of a matrix whose rows hold each column twice with
// Ordo::KokkosKernels::sort_and_merge_matrix (as an SpGEMM's unmerged output needs). Checks that
// every row is in order, that each value stayed with its column id, and the merged sums.
#include <Ordo_KokkosKernels.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Matrix = KokkosSparse::CrsMatrix<double, int, Kokkos::DefaultExecutionSpace>;
  using Offset = Matrix::size_type;
  const int rows = 10000, cols = 50000, per_row = 24;
  Kokkos::View<Offset*> row_map("row_map", rows + 1);
  Kokkos::View<int*> entries("entries", rows * per_row);
  Kokkos::View<double*> values("values", rows * per_row);
  Kokkos::parallel_for(
      "example::matrix", rows, KOKKOS_LAMBDA(int r) {
        row_map(r + 1) = Offset(r + 1) * per_row;
        for (int k = 0; k < per_row; ++k) {  // distinct, unsorted column ids
          const int c = int((std::uint64_t(r) * 7919 + std::uint64_t(k) * 2081) % cols);
          entries(r * per_row + k) = c;
          values(r * per_row + k) = 2.0 * c;
        }
      });
  const Matrix A("A", rows, cols, rows * per_row, values, row_map, entries);

  Ordo::KokkosKernels::sort_crs_matrix(A);

  int bad = 0;
  Kokkos::parallel_reduce(
      "example::check", rows,
      KOKKOS_LAMBDA(int r, int& b) {
        for (Offset i = row_map(r) + 1; i < row_map(r + 1); ++i) {
          if (entries(i - 1) >= entries(i)) ++b;
        }
        for (Offset i = row_map(r); i < row_map(r + 1); ++i) {
          if (values(i) != 2.0 * entries(i)) ++b;
        }
      },
      bad);
  std::printf("sort_crs_matrix: %d rows, %s\n", rows, bad ? "WRONG" : "ok");

  // Each row's columns twice (value 2c each, in another order), merged by the View form: one entry
  // per column with value 4c.
  Kokkos::View<Offset*> twice_map("twice_map", rows + 1);
  Kokkos::View<int*> twice("twice", 2 * rows * per_row);
  Kokkos::View<double*> twice_values("twice_values", 2 * rows * per_row);
  Kokkos::parallel_for(
      "example::twice", rows, KOKKOS_LAMBDA(int r) {
        twice_map(r + 1) = Offset(r + 1) * 2 * per_row;
        for (int k = 0; k < 2 * per_row; ++k) {
          const int c = entries(r * per_row + (k * 5) % per_row);
          twice(2 * r * per_row + k) = c;
          twice_values(2 * r * per_row + k) = 2.0 * c;
        }
      });
  Kokkos::View<Offset*> merged_map;
  Kokkos::View<int*> merged;
  Kokkos::View<double*> merged_values;
  Ordo::KokkosKernels::sort_and_merge_matrix(twice_map, twice, twice_values, merged_map, merged,
                                             merged_values);
  int wrong = 0;
  Kokkos::parallel_reduce(
      "example::check_merged", rows,
      KOKKOS_LAMBDA(int r, int& b) {
        if (merged_map(r + 1) != Offset(r + 1) * per_row) ++b;
        for (Offset i = merged_map(r); i < merged_map(r + 1) && i < Offset(merged.extent(0)); ++i) {
          if (merged(i) != entries(i) || merged_values(i) != 4.0 * merged(i)) ++b;
        }
      },
      wrong);
  if (merged.extent(0) != entries.extent(0)) ++wrong;
  std::printf("sort_and_merge_matrix: %d rows of %d repeated columns, %s\n", rows, per_row,
              wrong ? "WRONG" : "ok");
  return bad != 0 || wrong != 0;
}
