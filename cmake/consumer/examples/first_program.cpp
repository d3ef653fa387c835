// SPDX-License-Identifier: BSD-3-Clause
// README.md's first program (kept identical to it by scripts/check-layout).
#include <Ordo.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 1 << 20, ncells = 4096;
  Kokkos::View<int*> cell("cell", n);
  Kokkos::View<double*[3]> x("x", n), v("v", n);  // positions and velocities
  Kokkos::parallel_for(
      "init", n, KOKKOS_LAMBDA(int i) {
        cell(i) = (i * 37) % ncells;
        for (int d = 0; d < 3; ++d) x(i, d) = cell(i), v(i, d) = i;
      });

  // The particles' order by cell (stable) and each cell's range [offsets(c), offsets(c + 1)),
  // then every array reordered by it in place (gather into a second set of arrays is faster).
  Kokkos::DefaultExecutionSpace space;
  Kokkos::View<int*> perm("perm", n), offsets("offsets", ncells + 1);
  Ordo::bin_permutation(space, cell, ncells, perm, offsets);
  Ordo::apply_permutation(space, perm, cell, x, v);

  int wrong = 0;
  Kokkos::parallel_reduce(
      "check", n,
      KOKKOS_LAMBDA(int i, int& w) {
        w += (i > 0 && cell(i - 1) > cell(i)) || x(i, 2) != cell(i) || i < offsets(cell(i));
      },
      wrong);
  std::printf("%d particles in %d cells: %s\n", n, ncells, wrong ? "WRONG" : "ok");
  return wrong != 0;
}
