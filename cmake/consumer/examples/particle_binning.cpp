// SPDX-License-Identifier: BSD-3-Clause
// Particle binning as a code runs it: a double-buffered particle set is binned by cell
// (bin_permutation: the stable order by cell and the cell list, cell c's particles are
// [offsets(c), offsets(c + 1)), empty cells included), its arrays gathered into the second
// buffer in one launch (gather, View<double*[3]> rows included) and the buffers swapped; then the
// particles in each occupied cell are counted (run_length_encode) and their mass summed
// (reduce_by_key). Checks every step.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <utility>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 100000, cells = 4096;
  // The particle set and its second buffer.
  Kokkos::View<int*> cell("cell", n), id("id", n), cell2("cell2", n), id2("id2", n);
  Kokkos::View<double*[3]> x("x", n), v("v", n), x2("x2", n), v2("v2", n);
  Kokkos::View<double*> mass("mass", n), mass2("mass2", n);
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
  // Fences: a cell id outside [0, cells) is reported before anything is written.
  Ordo::bin_permutation(space, cell, cells, perm, offsets);
  Ordo::gather(space, perm, Ordo::views(cell, id, x, v, mass),
               Ordo::views(cell2, id2, x2, v2, mass2));
  std::swap(cell, cell2), std::swap(id, id2), std::swap(x, x2), std::swap(v, v2);
  std::swap(mass, mass2);

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
