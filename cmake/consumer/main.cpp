// SPDX-License-Identifier: BSD-3-Clause
// Merges two sorted Views with Ordo and searches one in the other, checking the results against
// std::merge and std::lower_bound.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int m = 1000, n = 1500;
  std::vector<int> a(m), b(n), expected(m + n);
  for (int i = 0; i < m; ++i) a[i] = 3 * i;
  for (int j = 0; j < n; ++j) b[j] = 2 * j;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());

  Kokkos::View<int*> da("a", m), db("b", n), out("out", m + n);
  auto ha = Kokkos::create_mirror_view(da);
  auto hb = Kokkos::create_mirror_view(db);
  for (int i = 0; i < m; ++i) ha(i) = a[i];
  for (int j = 0; j < n; ++j) hb(j) = b[j];
  Kokkos::deep_copy(da, ha);
  Kokkos::deep_copy(db, hb);

  Ordo::merge(da, db, out);  // fences

  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int k = 0; k < m + n; ++k) {
    if (hout(k) != expected[k]) {
      std::printf("ordo-consumer: out(%d) = %d, expected %d\n", k, hout(k), expected[k]);
      return 1;
    }
  }

  Kokkos::View<long*> index("index", m);
  Ordo::sorted_search(da, db, index, Ordo::Bounds::lower);  // fences
  auto hindex = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), index);
  for (int i = 0; i < m; ++i) {
    const long e = std::lower_bound(b.begin(), b.end(), a[i]) - b.begin();
    if (hindex(i) != e) {
      std::printf("ordo-consumer: index(%d) = %ld, expected %ld\n", i, hindex(i), e);
      return 1;
    }
  }
  std::printf("ordo-consumer: Ordo %s (%s) merged and searched %d + %d keys correctly\n",
              ORDO_VERSION_STRING, ORDO_GIT_HASH, m, n);
  return 0;
}
