// SPDX-License-Identifier: BSD-3-Clause
// Stream compaction: keep the particles still inside the domain, in their order. Checked against
// std::copy_if.
#include <Ordo.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <vector>

struct Inside {
  KOKKOS_FUNCTION bool operator()(double r) const { return r < 1.0; }
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int n = 200000;
  std::vector<double> r(n), expected;
  for (int i = 0; i < n; ++i) r[i] = (i * 7919 % 1000) / 600.0;
  std::copy_if(r.begin(), r.end(), std::back_inserter(expected), Inside{});

  Kokkos::View<double*> dr("r", n), kept("kept", n);
  Kokkos::deep_copy(dr, Kokkos::View<const double*, Kokkos::HostSpace>(r.data(), n));
  // Returns the count (it fences); Ordo::copy_if(space, in, out, pred, count_view) does not.
  const auto count = Ordo::copy_if(Kokkos::DefaultExecutionSpace(), dr, kept, Inside{});

  auto hkept = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kept);
  int bad = count != std::int64_t(expected.size());
  for (std::size_t i = 0; !bad && i < expected.size(); ++i) bad += hkept(i) != expected[i];
  std::printf("compaction: kept %lld of %d, %s\n", (long long)count, n, bad ? "WRONG" : "ok");
  return bad != 0;
}
