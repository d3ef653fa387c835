// SPDX-License-Identifier: BSD-3-Clause
// GoogleTest under MPI: every rank runs every test (each test is collective). Rank 0 prints the
// usual report; the other ranks print only their failures, prefixed with their rank.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <cstdio>

namespace {

class RankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed()) {
      std::printf("[rank %d] %s:%d: %s\n", rank_, result.file_name() ? result.file_name() : "?",
                  result.line_number(), result.summary());
      std::fflush(stdout);
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int failed = 0;
  {
    Kokkos::ScopeGuard guard(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailures(rank));
    }
    failed = RUN_ALL_TESTS();
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
