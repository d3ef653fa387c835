// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_IMPL_MPITUNING_HPP
#define ORDO_MPI_IMPL_MPITUNING_HPP

// Ordo::MPI's tuning constants, the one place for them (the core's are in
// src/impl/core/Ordo_Tuning.hpp); their measurements are in perf_tests/README.md, the distributed
// sort.

#include <cstddef>
#include <cstdint>

namespace Ordo::MPI::Impl {

struct MPITuning {
  // Each run leaves from and lands on a multiple of exchange_alignment elements: NCCL's copies from
  // and to unaligned addresses run at about half speed.
  static constexpr std::size_t exchange_alignment = 16;
  // The one sample round takes sample_margin * N / tolerance keys a rank (128 P for the default
  // imbalance), twice the 2 N / tolerance at which the samples alone bound every cut within the
  // tolerance, so that it settles from about 128 P^2 keys; at most max_candidates over all ranks.
  static constexpr std::uint64_t sample_margin = 4;
  // Samples a rank takes in each open bracket of the refinement: samples_per_rank times the ranks,
  // at most max_candidates over all ranks and brackets a round, at least min_samples; at most
  // max_rounds rounds.
  static constexpr std::uint64_t samples_per_rank = 64;
  static constexpr std::uint64_t max_candidates = std::uint64_t(1) << 20;
  static constexpr std::uint64_t min_samples = 16;
  static constexpr int max_rounds = 64;
};

}  // namespace Ordo::MPI::Impl

#endif
