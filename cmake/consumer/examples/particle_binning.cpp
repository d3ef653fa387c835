// SPDX-License-Identifier: BSD-3-Clause
// Particle binning, the whole pipeline: sort particles by cell id, move their position and
// velocity (View<double*[3]>) and scalar arrays with them in one launch, then build the cell list
// (bin_offsets: cell c's particles are [offsets(c), offsets(c + 1))), and count the particles in
// each occupied cell with run_length_encode. Checks every step.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 100000, cells = 4096;
  Kokkos::View<int*> cell("cell", n), id("id", n);
  Kokkos::View<double*[3]> x("x", n), v("v", n);
  Kokkos::View<double*> mass("mass", n);
  Kokkos::parallel_for(
      "example::init", n, KOKKOS_LAMBDA(int i) {
        // Cells 1000 to 1999 stay empty.
        const int c = int((std::uint32_t(i) * 2654435761u) % (cells - 1000));
        cell(i) = c < 1000 ? c : c + 1000;
        id(i) = i;
        for (int d = 0; d < 3; ++d) x(i, d) = i + 0.25 * d, v(i, d) = -i - 0.5 * d;
        mass(i) = 1.0 + i % 3;
      });

  Kokkos::DefaultExecutionSpace space;
  Kokkos::View<int*> perm("perm", n), offsets("offsets", cells + 1);
  Ordo::sort_permutation(space, cell, perm);
  Ordo::apply_permutation(space, perm, cell, id, x, v, mass);
  Ordo::bin_offsets(space, cell, offsets);  // fences: it reports keys outside [0, cells)

  // The occupied cells and how many particles each holds, and the mass in each.
  Kokkos::View<int*> occupied("occupied", cells), counts("counts", cells);
  Kokkos::View<double*> cell_mass("cell_mass", cells);
  const auto m = Ordo::run_length_encode(space, cell, occupied, counts);
  Ordo::reduce_by_key(space, cell, mass, occupied, cell_mass, Ordo::plus<>{});

  int bad = 0;
  Kokkos::parallel_reduce(
      "example::check_particles", n,
      KOKKOS_LAMBDA(int i, int& b) {
        if (i > 0 && cell(i - 1) > cell(i)) ++b;
        if (x(i, 2) != id(i) + 0.5 || v(i, 1) != -id(i) - 0.5 || mass(i) != 1.0 + id(i) % 3) ++b;
        if (i < offsets(cell(i)) || i >= offsets(cell(i) + 1)) ++b;  // in its cell's range
      },
      bad);
  int bad_cells = 0;
  Kokkos::parallel_reduce(
      "example::check_cells", m,
      KOKKOS_LAMBDA(int r, int& b) {
        const int c = occupied(r);
        if (counts(r) != offsets(c + 1) - offsets(c) || counts(r) == 0) ++b;
        double sum = 0;
        for (int i = offsets(c); i < offsets(c + 1); ++i) sum += mass(i);
        if (sum - cell_mass(r) > 1e-9 || cell_mass(r) - sum > 1e-9) ++b;
      },
      bad_cells);
  const int expected_cells = cells - 1000;
  std::printf("particle_binning: %d particles, %lld of %d cells occupied, %s\n", n,
              static_cast<long long>(m), cells,
              bad || bad_cells || m != expected_cells ? "WRONG" : "ok");
  return bad || bad_cells || m != expected_cells;
}
