// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels: sort the rows of a KokkosSparse::CrsMatrix by column id with
// Ordo::KokkosKernels::sort_crs_matrix (find_package(Ordo COMPONENTS KokkosKernels)).
// Checks that every row is in order and that each value stayed with its column id.
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
  return bad != 0;
}
