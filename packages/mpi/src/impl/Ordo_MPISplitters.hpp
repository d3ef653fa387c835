// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_SPLITTERS_HPP
#define ORDO_MPI_SPLITTERS_HPP

// Splitters of the distributed sort, in one round of regular samples where the samples alone
// place every cut within the tolerance (the balanced forms), else by refinement (the exact
// splits: the keep-counts forms and imbalance 0, and too few keys for the samples to bound).
//
// The global order is (key, rank, index in the rank's sorted keys): a strict total order, so
// every key has one global position, and ties between ranks go to the lower rank. A candidate
// splitter is a key sampled from rank r's sorted keys at index j; rank q holds
//   j keys before it                      when q == r,
//   upper_bound(key) keys before it      when q <  r (its keys equal to the candidate come first),
//   lower_bound(key) keys before it      when q >  r.
//
// One round: every rank takes s keys of its sorted keys at regular intervals (all of them if it
// holds fewer), and one MPI_Allgatherv gives every rank every sample. Rank q's samples that order
// before a candidate bound its keys before it between two of q's sample positions, so the samples
// alone bound each candidate's global position within about N / s; every rank computes the same
// bounds and takes, for each target, the candidate whose bounds lie nearest it. With
// s = sample_margin * N / tolerance (128 P for the default imbalance) a candidate lies within the
// tolerance of every target once N passes about 128 P^2; where none does, the refinement runs.
//
// Refinement: histogram sort with sampling (Solomonik and Kale, "Highly Scalable Parallel
// Sorting", IPDPS 2010), with exact global positions: each rank counts every candidate in its
// keys and one MPI_Allreduce sums them. Each splitter keeps a bracket of two known cuts around its
// target position; every round, each rank samples its keys inside each open bracket at regular
// intervals, every rank counts every candidate, and the brackets close on the nearest candidates.
// A splitter is settled when a cut lies within the tolerance of its target. A bracket whose keys
// were all sampled settles exactly, so the rounds end.

#include <impl/Ordo_MPICall.hpp>
#include <impl/Ordo_MPITuning.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
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

// How many of `sorted`[first, first + count), rank q's keys in order, order before candidate c
// of rank `from`: ties_before (q < from) counts q's keys equal to c as before it.
template <class Sorted, class Key, class Comp>
KOKKOS_INLINE_FUNCTION std::uint64_t count_before(const Sorted& sorted, std::uint64_t first,
                                                  std::uint64_t count, const Key& c,
                                                  bool ties_before, const Comp& comp) {
  std::uint64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const auto& x = sorted(first + mid);
    if (ties_before ? !comp(c, x) : comp(x, c)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

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
    out(i) = from == rank ? index(i)
                          : count_before(keys, 0, keys.extent(0), candidate(i), rank < from, comp);
  }
};

// ---- one round of regular samples ----------------------------------------------------------

// The workspace slots of the sample round (Ordo::Impl::workspace), kept between calls.
enum class SampleSlot : int { samples, table, bounds };

// Where rank q's k-th sample lies in its n sorted keys: every key when it holds at most s keys,
// else s keys at regular intervals.
KOKKOS_INLINE_FUNCTION std::uint64_t sample_position(std::uint64_t n, std::uint64_t s,
                                                     std::uint64_t k) {
  return n <= s ? k : (k + 1) * n / (s + 1);
}

template <class Keys, class Samples>
struct TakeSamples {
  Keys keys;
  Samples out;
  std::uint64_t s;
  KOKKOS_FUNCTION void operator()(std::int64_t k) const {
    out(k) = keys(sample_position(keys.extent(0), s, k));
  }
};

// For every rank's sample (a candidate): bounds on its global position from the samples alone,
// and this rank's keys before it, as out(3i), out(3i + 1), out(3i + 2). table: where each rank's
// samples start in `samples` (P + 1 entries), then each rank's key count (P).
template <class Keys, class Samples, class Table, class Out, class Comp>
struct SampleBounds {
  Keys keys;
  Samples samples;
  Table table;
  Out out;
  std::uint64_t s;
  int ranks, rank;
  Comp comp;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    int r = 0;
    while (r + 1 < ranks && table(r + 1) <= std::uint64_t(i)) ++r;
    const auto c = samples(i);
    const std::uint64_t j = sample_position(table(ranks + 1 + r), s, i - table(r));
    std::uint64_t lo = j, hi = j;
    for (int q = 0; q < ranks; ++q) {
      if (q == r) continue;
      const std::uint64_t first = table(q), count = table(q + 1) - first;
      const std::uint64_t n = table(ranks + 1 + q);
      // q's samples before c: its keys before c lie between their positions.
      const std::uint64_t a = count_before(samples, first, count, c, q < r, comp);
      lo += a > 0 ? sample_position(n, s, a - 1) + 1 : 0;
      hi += a < count ? sample_position(n, s, a) : n;
    }
    out(3 * i) = lo;
    out(3 * i + 1) = hi;
    out(3 * i + 2) = r == rank ? j : count_before(keys, 0, keys.extent(0), c, rank < r, comp);
  }
};

// The cuts from one round of samples when the samples alone place a splitter within `tolerance`
// (> 0) of every target; nothing when they do not (or when the round would take more than
// max_candidates samples), and the refinement decides.
template <class ExecSpace, class Keys, class Comp>
std::optional<std::vector<std::uint64_t>> sample_split(const ExecSpace& space, MPI_Comm comm,
                                                       const Agreement& a, const Keys& keys,
                                                       const Comp& comp,
                                                       const std::vector<std::uint64_t>& targets,
                                                       std::uint64_t tolerance) {
  using Key = typename Keys::non_const_value_type;
  using Mem = typename Keys::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using U64 = Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  const int ranks = a.ranks;  // tolerance > 0: the exact splits refine
  const std::uint64_t s = MPITuning::sample_margin * a.total / tolerance + 1;
  std::vector<std::uint64_t> table(2 * ranks + 1, 0);
  for (int q = 0; q < ranks; ++q) {
    table[q + 1] = table[q] + std::min(a.counts[q], s);
    table[ranks + 1 + q] = a.counts[q];
  }
  const std::uint64_t m = table[ranks];
  if (m > MPITuning::max_candidates) return std::nullopt;

  // This rank's samples, then everyone's (the counts are known from the agreement).
  const auto samples = Ordo::Impl::workspace<Key, ExecSpace, Mem>(space, m, SampleSlot::samples);
  const std::uint64_t mine = table[a.rank + 1] - table[a.rank];
  Kokkos::parallel_for("Ordo::MPI::sort::samples", Policy(space, 0, std::int64_t(mine)),
                       TakeSamples<Keys, decltype(samples)>{keys, samples, s});
  std::vector<Key> host_samples(m);
  Kokkos::View<Key*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_view(host_samples.data(), m);
  Kokkos::deep_copy(
      space, Kokkos::subview(host_view, Kokkos::make_pair(table[a.rank], table[a.rank] + mine)),
      Kokkos::subview(samples, Kokkos::make_pair(std::uint64_t(0), mine)));
  space.fence("Ordo::MPI::sort: samples");
  std::vector<int> byte_counts(ranks), byte_displs(ranks);
  for (int q = 0; q < ranks; ++q) {
    byte_counts[q] = int((table[q + 1] - table[q]) * sizeof(Key));
    byte_displs[q] = int(table[q] * sizeof(Key));
  }
  check_mpi(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, host_samples.data(),
                           byte_counts.data(), byte_displs.data(), MPI_BYTE, comm),
            "MPI_Allgatherv of the samples");

  // Every candidate's bounds, and this rank's keys before it.
  const auto table_d =
      Ordo::Impl::workspace<std::uint64_t, ExecSpace, Mem>(space, table.size(), SampleSlot::table);
  const auto bounds_d =
      Ordo::Impl::workspace<std::uint64_t, ExecSpace, Mem>(space, 3 * m, SampleSlot::bounds);
  Kokkos::deep_copy(space, samples, host_view);
  Kokkos::deep_copy(space, table_d, U64(table.data(), table.size()));
  Kokkos::parallel_for(
      "Ordo::MPI::sort::sample_bounds", Policy(space, 0, std::int64_t(m)),
      SampleBounds<Keys, decltype(samples), decltype(table_d), decltype(bounds_d), Comp>{
          keys, samples, table_d, bounds_d, s, ranks, a.rank, comp});
  std::vector<std::uint64_t> bounds(3 * m);
  Kokkos::deep_copy(space, U64(bounds.data(), bounds.size()), bounds_d);
  space.fence("Ordo::MPI::sort: sample bounds");

  // For each target, the candidate whose bounds lie nearest it: in each rank's samples the bounds
  // grow with the index, so the best lies where lo + hi crosses twice the target.
  std::vector<std::uint64_t> cuts(ranks + 1, 0);
  cuts[ranks] = keys.extent(0);
  auto distance = [](std::uint64_t x, std::uint64_t t) { return x > t ? x - t : t - x; };
  for (int k = 1; k < ranks; ++k) {
    const std::uint64_t t = targets[k - 1];
    std::uint64_t best = ~std::uint64_t(0), best_local = 0;
    for (int q = 0; q < ranks; ++q) {
      std::uint64_t lo = table[q], hi = table[q + 1];
      const std::uint64_t first = lo, last = hi;
      while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (bounds[3 * mid] + bounds[3 * mid + 1] < 2 * t) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      for (std::uint64_t i = lo > first ? lo - 1 : lo; i < std::min(lo + 1, last); ++i) {
        const std::uint64_t d =
            std::max(distance(bounds[3 * i], t), distance(bounds[3 * i + 1], t));
        if (d < best) {
          best = d;
          best_local = bounds[3 * i + 2];
        }
      }
    }
    if (best > tolerance) return std::nullopt;
    // Splitters chosen out of order (both within the tolerance) share the later cut on every rank.
    cuts[k] = std::max(best_local, cuts[k - 1]);
  }
  return cuts;
}

// ---- refinement ------------------------------------------------------------------------------

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

  rounds = 0;
  if (tolerance > 0) {
    ++rounds;
    if (auto cuts = sample_split(space, comm, a, keys, comp, targets, tolerance)) return *cuts;
  }

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
