// SPDX-License-Identifier: BSD-3-Clause
// Which build turns Ordo's debug checks on: the consumer's. Run as `debug_checks on` or
// `debug_checks off` (CMake passes `on` in a Debug build of this project, whatever Ordo's own
// build type was at install time); merges an unsorted View and checks that Ordo refuses it
// (std::invalid_argument before any kernel runs, inputs unchanged) exactly when the checks are on.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  if (argc != 2 || (std::strcmp(argv[1], "on") != 0 && std::strcmp(argv[1], "off") != 0)) {
    std::fprintf(stderr, "usage: debug_checks on|off\n");
    return 2;
  }
  const bool expect_on = std::strcmp(argv[1], "on") == 0;
  const int n = 1000;
  Kokkos::View<int*> a("a", n), b("b", n), out("out", 2 * n);
  // a descends: unsorted under Ordo::less<>; b ascends.
  Kokkos::parallel_for(
      "debug_checks::fill", n, KOKKOS_LAMBDA(int i) {
        a(i) = n - i;
        b(i) = i;
      });
  bool refused = false;
  try {
    Ordo::merge(Kokkos::DefaultExecutionSpace(), a, b, out);
    Kokkos::fence();
  } catch (const std::invalid_argument& e) {
    refused = true;
    std::printf("debug_checks: Ordo refused the unsorted input: %s\n", e.what());
  }
  int changed = 0;
  Kokkos::parallel_reduce(
      "debug_checks::compare", n,
      KOKKOS_LAMBDA(int i, int& bad) { bad += (a(i) != n - i) + (b(i) != i); }, changed);
  const bool ok = refused == expect_on && changed == 0;
  std::printf("debug_checks (expected %s): %s\n", argv[1], ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
