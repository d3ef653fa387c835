// SPDX-License-Identifier: BSD-3-Clause
// Kokkos Kernels: assemble a finite-element stiffness matrix from element blocks with
// Ordo::KokkosKernels::coo2crs (find_package(Ordo COMPONENTS KokkosKernels)). Each element of a
// 1-D bar of `elements` linear elements adds its 2 x 2 block [1 -1; -1 1] to the rows and columns
// of its two nodes: the triplets repeat every interior diagonal entry twice, and coo2crs sums them
// into the tridiagonal matrix (2 on the interior diagonal, 1 at both ends, -1 beside it). Checks
// every row; then crs2coo gives the assembled triplets back. Last, the way a time-stepping code
// assembles: the pattern once from the indices (coo2crs_pattern), then each step's element values
// refilled into the same matrix in one pass (coo2crs_refill; here the values doubled each step).
#include <Ordo_KokkosKernels.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int elements = 100000, nodes = elements + 1;
  Kokkos::View<int*> row("row", 4 * elements), col("col", 4 * elements);
  Kokkos::View<double*> value("value", 4 * elements);
  Kokkos::parallel_for(
      "example::element_blocks", elements, KOKKOS_LAMBDA(int e) {
        for (int a = 0; a < 2; ++a) {
          for (int b = 0; b < 2; ++b) {
            row(4 * e + 2 * a + b) = e + a;
            col(4 * e + 2 * a + b) = e + b;
            value(4 * e + 2 * a + b) = a == b ? 1.0 : -1.0;
          }
        }
      });

  const auto A = Ordo::KokkosKernels::coo2crs(nodes, nodes, row, col, value);

  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto values = A.values;
  int bad = 0;
  Kokkos::parallel_reduce(
      "example::check", nodes,
      KOKKOS_LAMBDA(int r, int& b) {
        const int first = r == 0 ? 0 : r - 1, last = r == nodes - 1 ? r : r + 1;
        if (int(row_map(r + 1) - row_map(r)) != last - first + 1) ++b;
        for (int k = int(row_map(r)); k < int(row_map(r + 1)); ++k) {
          const int c = entries(k);
          const double expected = c != r ? -1.0 : (r == 0 || r == nodes - 1 ? 1.0 : 2.0);
          if (c != first + (k - int(row_map(r))) || values(k) != expected) ++b;
        }
      },
      bad);
  const auto triplets = Ordo::KokkosKernels::crs2coo(A);
  if (triplets.data().extent(0) != std::size_t(A.nnz())) ++bad;

  const auto pattern = Ordo::KokkosKernels::coo2crs_pattern(nodes, nodes, row, col);
  const auto B = Ordo::KokkosKernels::coo2crs(pattern, value);
  for (int step = 1; step <= 3; ++step) {
    Kokkos::parallel_for(
        "example::new_values", 4 * elements, KOKKOS_LAMBDA(int i) { value(i) *= 2; });
    Ordo::KokkosKernels::coo2crs_refill(pattern, value, B);
    const auto b = B.values;
    const double scale = double(1 << step);
    int wrong = 0;
    Kokkos::parallel_reduce(
        "example::check_refill", A.nnz(),
        KOKKOS_LAMBDA(int k, int& w) {
          if (b(k) != scale * values(k)) ++w;
        },
        wrong);
    bad += wrong;
  }
  std::printf("coo2crs: %d elements, %d x %d matrix of %d entries, refilled 3 times: %s\n",
              elements, nodes, nodes, int(A.nnz()), bad ? "WRONG" : "ok");
  return bad != 0;
}
