// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_SPLITTERS_HPP
#define ORDO_MPI_SPLITTERS_HPP

// Splitter refinement of the distributed sort: histogram sort with sampling (Solomonik and Kale,
// "Highly Scalable Parallel Sorting", IPDPS 2010), with exact global positions.
//
// The global order is (key, rank, index in the rank's sorted keys): a strict total order, so
// every key has one global position, and ties between ranks go to the lower rank. A candidate
// splitter is a key sampled from rank r's sorted keys at index j; rank q holds
//   j keys before it                      when q == r,
//   upper_bound(key) keys before it      when q <  r (its keys equal to the candidate come first),
//   lower_bound(key) keys before it      when q >  r,
// and the sum over ranks (one MPI_Allreduce) is the candidate's global position. Each splitter
// keeps a bracket of two known cuts around its target position; every round, each rank samples
// its keys inside each open bracket at regular intervals, every rank counts every candidate, and
// the brackets close on the nearest candidates. A splitter is settled when a cut lies within the
// tolerance of its target. A bracket whose keys were all sampled settles exactly, so the rounds
// end; with 64 P samples a rank the first round already brackets every target within N / (64 P)
// keys, which meets the default imbalance of 1/16 in one round.

#include <impl/Ordo_MPICall.hpp>
#include <impl/Ordo_MPITuning.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace Ordo::MPI::Impl {

template <class Keys, class Indices, class Samples>
struct GatherSamples {
  Keys keys;
  Indices index;
  Samples out;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const { out(i) = keys(index(i)); }
};

// For every candidate: how many of this rank's sorted keys order before it.
template <class Keys, class Candidates, class Origins, class Indices, class Out, class Comp>
struct CandidateRanks {
  Keys keys;
  Candidates candidate;
  Origins origin;
  Indices index;
  Out out;
  int rank;
  Comp comp;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    const int from = origin(i);
    if (from == rank) {
      out(i) = index(i);
      return;
    }
    const bool ties_before = rank < from;
    const auto c = candidate(i);
    std::uint64_t lo = 0, hi = keys.extent(0);
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      const bool before = ties_before ? !comp(c, keys(mid)) : comp(keys(mid), c);
      if (before) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out(i) = lo;
  }
};

// What is known of one splitter: two cuts around its target, as global positions and as this
// rank's keys before them.
struct Bracket {
  std::uint64_t target;
  std::uint64_t lo_global, hi_global;
  std::uint64_t lo_local, hi_local;
  bool settled = false;
  std::uint64_t local = 0;  // this rank's keys before the chosen cut
};

// Samples a rank takes in each open bracket (MPITuning: 64 P, one round for the default
// imbalance; at most 2^20 candidates a round over all ranks and brackets; at least 16).
inline std::uint64_t samples_per_bracket(int ranks, std::size_t brackets) {
  using T = MPITuning;
  const std::uint64_t cap = T::max_candidates / (std::uint64_t(ranks) * brackets);
  return std::max<std::uint64_t>(T::min_samples,
                                 std::min<std::uint64_t>(T::samples_per_rank * ranks, cap));
}

// This rank's keys that go to each rank: cuts[q] .. cuts[q + 1] of its sorted keys go to rank q.
// targets: the global position where each rank after the first starts; a cut within `tolerance`
// of its target is taken.
template <class ExecSpace, class Keys, class Comp>
std::vector<std::uint64_t> split_points(const ExecSpace& space, MPI_Comm comm, const Agreement& a,
                                        const Keys& keys, const Comp& comp,
                                        const std::vector<std::uint64_t>& targets,
                                        std::uint64_t tolerance, int& rounds) {
  using Key = typename Keys::non_const_value_type;
  using Mem = typename Keys::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = keys.extent(0);
  const int ranks = a.ranks;

  std::vector<Bracket> brackets;
  for (std::uint64_t t : targets) brackets.push_back({t, 0, a.total, 0, n});
  auto settle = [tolerance](Bracket& b) {
    if (b.target - b.lo_global <= tolerance) {
      b.settled = true;
      b.local = b.lo_local;
    } else if (b.hi_global - b.target <= tolerance) {
      b.settled = true;
      b.local = b.hi_local;
    }
  };
  for (Bracket& b : brackets) settle(b);

  rounds = 0;
  constexpr int max_rounds = MPITuning::max_rounds;
  while (
      std::any_of(brackets.begin(), brackets.end(), [](const Bracket& b) { return !b.settled; })) {
    if (++rounds > max_rounds) {
      throw std::runtime_error("Ordo::MPI: splitter refinement did not settle in " +
                               std::to_string(max_rounds) + " rounds");
    }
    // Splitters with the same bracket share its samples (every rank agrees on the brackets).
    std::vector<const Bracket*> open;
    for (const Bracket& b : brackets) {
      if (!b.settled) open.push_back(&b);
    }
    auto same = [](const Bracket* x, const Bracket* y) {
      return x->lo_global == y->lo_global && x->hi_global == y->hi_global;
    };
    open.erase(std::unique(open.begin(), open.end(), same), open.end());
    const std::uint64_t s = samples_per_bracket(ranks, open.size());
    std::vector<std::uint64_t> picks;
    for (const Bracket* b : open) {
      const std::uint64_t first = b->lo_local, count = b->hi_local - b->lo_local;
      if (count <= s) {
        for (std::uint64_t i = first; i < first + count; ++i) picks.push_back(i);
      } else {
        for (std::uint64_t k = 0; k < s; ++k) picks.push_back(first + (k + 1) * count / (s + 1));
      }
    }

    // This rank's samples, then everyone's.
    const int mine = static_cast<int>(picks.size());
    Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_picks(
        picks.data(), picks.size());
    Kokkos::View<std::uint64_t*, Mem> pick_index("Ordo::MPI::sort::pick_index", picks.size());
    Kokkos::View<Key*, Mem> samples("Ordo::MPI::sort::samples", picks.size());
    Kokkos::deep_copy(space, pick_index, host_picks);
    Kokkos::parallel_for(
        "Ordo::MPI::sort::samples", Policy(space, 0, mine),
        GatherSamples<Keys, decltype(pick_index), decltype(samples)>{keys, pick_index, samples});
    auto host_samples = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, samples);
    space.fence("Ordo::MPI::sort: samples");

    std::vector<int> per_rank(ranks);
    check_mpi(MPI_Allgather(&mine, 1, MPI_INT, per_rank.data(), 1, MPI_INT, comm),
              "MPI_Allgather of the sample counts");
    std::vector<int> displs(ranks, 0), byte_counts(ranks), byte_displs(ranks);
    std::exclusive_scan(per_rank.begin(), per_rank.end(), displs.begin(), 0);
    for (int r = 0; r < ranks; ++r) {
      byte_counts[r] = per_rank[r] * int(sizeof(Key));
      byte_displs[r] = displs[r] * int(sizeof(Key));
    }
    const std::size_t m = std::size_t(displs[ranks - 1]) + per_rank[ranks - 1];
    Kokkos::View<Key*, Kokkos::HostSpace> host_candidates("Ordo::MPI::sort::candidates", m);
    Kokkos::View<int*, Kokkos::HostSpace> host_origin("Ordo::MPI::sort::origin", m);
    Kokkos::View<std::uint64_t*, Kokkos::HostSpace> host_index("Ordo::MPI::sort::index", m);
    check_mpi(MPI_Allgatherv(host_samples.data(), mine * int(sizeof(Key)), MPI_BYTE,
                             host_candidates.data(), byte_counts.data(), byte_displs.data(),
                             MPI_BYTE, comm),
              "MPI_Allgatherv of the samples");
    check_mpi(MPI_Allgatherv(picks.data(), mine, MPI_UINT64_T, host_index.data(), per_rank.data(),
                             displs.data(), MPI_UINT64_T, comm),
              "MPI_Allgatherv of the sample indices");
    for (int r = 0; r < ranks; ++r) {
      for (int i = 0; i < per_rank[r]; ++i) host_origin(displs[r] + i) = r;
    }

    // Every candidate's keys before it on this rank, then over all ranks.
    auto candidates = Kokkos::create_mirror_view_and_copy(Mem{}, host_candidates);
    auto origin = Kokkos::create_mirror_view_and_copy(Mem{}, host_origin);
    auto index = Kokkos::create_mirror_view_and_copy(Mem{}, host_index);
    Kokkos::View<std::uint64_t*, Mem> before("Ordo::MPI::sort::before", m);
    Kokkos::parallel_for("Ordo::MPI::sort::ranks", Policy(space, 0, std::int64_t(m)),
                         CandidateRanks<Keys, decltype(candidates), decltype(origin),
                                        decltype(index), decltype(before), Comp>{
                             keys, candidates, origin, index, before, a.rank, comp});
    auto local = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, before);
    space.fence("Ordo::MPI::sort: candidate ranks");
    std::vector<std::uint64_t> global(m);
    check_mpi(MPI_Allreduce(local.data(), global.data(), int(m), MPI_UINT64_T, MPI_SUM, comm),
              "MPI_Allreduce of the candidate ranks");

    // Each open bracket closes on the nearest candidates around its target.
    std::vector<std::uint32_t> order(m);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return global[x] < global[y]; });
    for (Bracket& b : brackets) {
      if (b.settled) continue;
      auto at = std::lower_bound(order.begin(), order.end(), b.target,
                                 [&](std::uint32_t c, std::uint64_t t) { return global[c] < t; });
      if (at != order.end() && global[*at] < b.hi_global) {
        b.hi_global = global[*at];
        b.hi_local = local(*at);
      }
      if (at != order.begin() && global[*(at - 1)] > b.lo_global) {
        b.lo_global = global[*(at - 1)];
        b.lo_local = local(*(at - 1));
      }
      settle(b);
    }
  }

  std::vector<std::uint64_t> cuts(ranks + 1);
  cuts[0] = 0;
  cuts[ranks] = n;
  for (int r = 1; r < ranks; ++r) cuts[r] = brackets[r - 1].local;
  return cuts;
}

}  // namespace Ordo::MPI::Impl

#endif
