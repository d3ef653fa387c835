// SPDX-License-Identifier: BSD-3-Clause
// Sorts keys spread over the ranks with the installed Ordo::MPI component and checks, on rank 0,
// the gathered result against std::sort of the gathered input.
#include <Ordo_MPI.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  {
    Kokkos::ScopeGuard guard(argc, argv);
    const int n = 1000 + 100 * rank;
    std::vector<std::uint32_t> mine(n);
    for (int i = 0; i < n; ++i) mine[i] = std::uint32_t(i * 2654435761u + rank);
    Kokkos::View<std::uint32_t*> keys("keys", n);
    auto h = Kokkos::create_mirror_view(keys);
    std::copy(mine.begin(), mine.end(), h.data());
    Kokkos::deep_copy(keys, h);

    const auto sorted = Ordo::MPI::sort(MPI_COMM_WORLD, keys);  // fences
    auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sorted);

    std::vector<int> counts(ranks), got_counts(ranks), displs(ranks, 0), got_displs(ranks, 0);
    const int got = int(hs.extent(0));
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gather(&got, 1, MPI_INT, got_counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 1; r < ranks; ++r) {
      displs[r] = displs[r - 1] + counts[r - 1];
      got_displs[r] = got_displs[r - 1] + got_counts[r - 1];
    }
    std::vector<std::uint32_t> all(rank == 0 ? displs[ranks - 1] + counts[ranks - 1] : 0);
    std::vector<std::uint32_t> result(all.size());
    MPI_Gatherv(mine.data(), n, MPI_UINT32_T, all.data(), counts.data(), displs.data(),
                MPI_UINT32_T, 0, MPI_COMM_WORLD);
    MPI_Gatherv(hs.data(), got, MPI_UINT32_T, result.data(), got_counts.data(), got_displs.data(),
                MPI_UINT32_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::sort(all.begin(), all.end());
      failed = all != result;
      std::printf("distributed_sort: %d ranks sorted %zu keys %s\n", ranks, all.size(),
                  failed ? "WRONGLY" : "correctly");
    }
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}
