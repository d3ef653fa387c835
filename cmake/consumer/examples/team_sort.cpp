// SPDX-License-Identifier: BSD-3-Clause
// Sorting inside a user's kernel: one team per row of a CRS matrix sorts the row's column ids
// and moves the values with them (Ordo::sort_by_key_team allocates nothing). Checked against
// std::sort of every row.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int rows = 2000;
  std::vector<int> offsets(rows + 1, 0);
  for (int r = 0; r < rows; ++r) offsets[r + 1] = offsets[r] + 1 + (r * 37) % 300;
  const int nnz = offsets[rows];
  std::vector<int> cols(nnz);
  for (int k = 0; k < nnz; ++k) cols[k] = (k * 7919) % 100000;

  Kokkos::View<int*> row_map("row_map", rows + 1), col("col", nnz);
  Kokkos::View<double*> val("val", nnz);
  Kokkos::deep_copy(row_map, Kokkos::View<const int*, Kokkos::HostSpace>(offsets.data(), rows + 1));
  Kokkos::deep_copy(col, Kokkos::View<const int*, Kokkos::HostSpace>(cols.data(), nnz));
  Kokkos::parallel_for(
      "example::values", nnz, KOKKOS_LAMBDA(int k) { val(k) = 0.5 * col(k); });

  using Policy = Kokkos::TeamPolicy<>;
  Kokkos::parallel_for(
      "example::sort_rows", Policy(rows, Kokkos::AUTO),
      KOKKOS_LAMBDA(const Policy::member_type& team) {
        const int r = team.league_rank();
        const auto range = Kokkos::make_pair(row_map(r), row_map(r + 1));
        Ordo::sort_by_key_team(team, Kokkos::subview(col, range), Kokkos::subview(val, range));
      });

  auto hcol = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col);
  auto hval = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), val);
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    std::sort(cols.begin() + offsets[r], cols.begin() + offsets[r + 1]);
    for (int k = offsets[r]; k < offsets[r + 1]; ++k) {
      bad += hcol(k) != cols[k] || hval(k) != 0.5 * cols[k];
    }
  }
  std::printf("team_sort: sorted %d rows (%d entries), %s\n", rows, nnz, bad ? "WRONG" : "ok");
  return bad != 0;
}
