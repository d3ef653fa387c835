// SPDX-License-Identifier: BSD-3-Clause
// Merge two sorted Views, then find where each of a set of sorted probes falls in the result
// (one pass over both, not a binary search per probe). Checked against std::merge and
// std::upper_bound.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int m = 30000, n = 50000, p = 1000;
  std::vector<float> a(m), b(n), probes(p), merged(m + n);
  for (int i = 0; i < m; ++i) a[i] = 3.0f * i;
  for (int i = 0; i < n; ++i) b[i] = 2.0f * i;
  for (int i = 0; i < p; ++i) probes[i] = 90.5f * i;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());

  Kokkos::View<float*> da("a", m), db("b", n), dprobes("probes", p), out("out", m + n);
  Kokkos::deep_copy(da, Kokkos::View<const float*, Kokkos::HostSpace>(a.data(), m));
  Kokkos::deep_copy(db, Kokkos::View<const float*, Kokkos::HostSpace>(b.data(), n));
  Kokkos::deep_copy(dprobes, Kokkos::View<const float*, Kokkos::HostSpace>(probes.data(), p));

  Kokkos::DefaultExecutionSpace space;
  Ordo::merge(space, da, db, out);  // stable: on ties a's elements come first
  Kokkos::View<int*> bin("bin", p);
  Ordo::sorted_search(space, dprobes, out, bin, Ordo::Bounds::upper);
  space.fence();

  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  auto hbin = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin);
  int bad = 0;
  for (int k = 0; k < m + n; ++k) bad += hout(k) != merged[k];
  for (int i = 0; i < p; ++i) {
    bad += hbin(i) != std::upper_bound(merged.begin(), merged.end(), probes[i]) - merged.begin();
  }
  std::printf("merge_search (Ordo %s, %s): merged %d + %d keys, placed %d probes, %s\n",
              ORDO_VERSION_STRING, ORDO_GIT_HASH, m, n, p, bad ? "WRONG" : "ok");
  return bad != 0;
}
