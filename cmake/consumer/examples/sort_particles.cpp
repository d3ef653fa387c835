// SPDX-License-Identifier: BSD-3-Clause
// Particle binning: sort particles by cell id and reorder their other arrays the same way.
// Checks that the cells are in order and that every particle kept its own coordinates.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 100000, cells = 512;
  Kokkos::View<int*> cell("cell", n), id("id", n);
  Kokkos::View<double*> x("x", n), y("y", n);
  Kokkos::parallel_for(
      "example::init", n, KOKKOS_LAMBDA(int i) {
        cell(i) = int((std::uint32_t(i) * 2654435761u) % cells);
        id(i) = i;
        x(i) = 0.5 * i;
        y(i) = -1.0 * i;
      });

  // The permutation that sorts the cells (stable), then every array reordered by it in place.
  Kokkos::View<int*> perm("perm", n);
  Kokkos::DefaultExecutionSpace space;
  Ordo::sort_permutation(space, cell, perm);
  Ordo::apply_permutation(space, perm, cell, id, x, y);
  space.fence();

  int bad = 0;
  Kokkos::parallel_reduce(
      "example::check", n,
      KOKKOS_LAMBDA(int i, int& b) {
        if (i > 0 && cell(i - 1) > cell(i)) ++b;                        // cells ascending
        if (i > 0 && cell(i - 1) == cell(i) && id(i - 1) > id(i)) ++b;  // stable
        if (x(i) != 0.5 * id(i) || y(i) != -1.0 * id(i)) ++b;           // coordinates moved along
        if (cell(i) != int((std::uint32_t(id(i)) * 2654435761u) % cells)) ++b;
      },
      bad);
  std::printf("sort_particles: %d particles in %d cells, %s\n", n, cells, bad ? "WRONG" : "ok");
  return bad != 0;
}
