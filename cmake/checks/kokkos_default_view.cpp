// SPDX-License-Identifier: BSD-3-Clause
// Configure-time check (cmake/OrdoKokkosChecks.cmake): a default-constructed Kokkos::View must be
// destructible. g++ 12 miscompiles the default constructor of the mdspan-based View of Kokkos
// 4.6.99-4.7.0 (its reference count's "no allocation" flag is left zero), and destroying such a
// View dereferences a null record (Kokkos issue 7464). Needs no Kokkos::initialize.
#include <Kokkos_Core.hpp>

#include <cstdio>

int main() {
  std::fputs("ordo-kokkos-check: started\n", stderr);
  {
    Kokkos::View<int*, Kokkos::HostSpace> empty;
    if (empty.data() != nullptr) return 2;
  }
  std::fputs("ordo-kokkos-check: passed\n", stderr);
  return 0;
}
