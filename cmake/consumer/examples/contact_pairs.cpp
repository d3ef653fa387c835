// SPDX-License-Identifier: BSD-3-Clause
// Joins and set operations of sorted keys: candidate contact pairs between two particle species
// binned into cells (every pair sharing a cell, by Ordo::inner_join of the sorted cell lists),
// and the cells both species occupy (Ordo::set_intersection). Checked against std::equal_range
// and std::set_intersection.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int na = 30000, nb = 20000;
  std::vector<std::int32_t> cell_a(na), cell_b(nb);
  for (int i = 0; i < na; ++i) cell_a[i] = (i * 7919) % 50000;
  for (int j = 0; j < nb; ++j) cell_b[j] = (j * 104729) % 40000;
  std::sort(cell_a.begin(), cell_a.end());
  std::sort(cell_b.begin(), cell_b.end());

  Kokkos::View<std::int32_t*> a("cell_a", na), b("cell_b", nb);
  Kokkos::deep_copy(a, Kokkos::View<const std::int32_t*, Kokkos::HostSpace>(cell_a.data(), na));
  Kokkos::deep_copy(b, Kokkos::View<const std::int32_t*, Kokkos::HostSpace>(cell_b.data(), nb));
  const Kokkos::DefaultExecutionSpace space;

  // Size the outputs first (join_size), then write the pairs (i, j) with a(i) == b(j).
  const std::int64_t pairs = Ordo::join_size(space, Ordo::JoinKind::inner, a, b);
  Kokkos::View<std::int32_t*> pa("pair_a", pairs), pb("pair_b", pairs);
  Ordo::inner_join(space, a, b, pa, pb);

  // The cells holding particles of both species (duplicates kept as std::set_intersection does).
  Kokkos::View<std::int32_t*> shared("shared", std::min(na, nb));
  const std::int64_t n_shared = Ordo::set_intersection(space, a, b, shared);

  std::int64_t expected_pairs = 0;
  for (int i = 0; i < na; ++i) {
    const auto range = std::equal_range(cell_b.begin(), cell_b.end(), cell_a[i]);
    expected_pairs += range.second - range.first;
  }
  std::vector<std::int32_t> expected_shared;
  std::set_intersection(cell_a.begin(), cell_a.end(), cell_b.begin(), cell_b.end(),
                        std::back_inserter(expected_shared));
  auto hpa = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pa);
  auto hpb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pb);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), shared);
  int bad = pairs != expected_pairs || n_shared != std::int64_t(expected_shared.size());
  for (std::int64_t k = 0; !bad && k < pairs; ++k) {
    bad += cell_a[hpa(k)] != cell_b[hpb(k)] || (k > 0 && hpa(k) < hpa(k - 1));
  }
  for (std::int64_t k = 0; !bad && k < n_shared; ++k) bad += hs(k) != expected_shared[k];
  std::printf("contact_pairs: %lld pairs, %lld shared cells, %s\n", (long long)pairs,
              (long long)n_shared, bad ? "WRONG" : "ok");
  return bad != 0;
}
