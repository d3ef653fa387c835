// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_BUCKETS_HPP
#define ORDO_MPI_BUCKETS_HPP

// The split before sorting, which lets the exchange run while the ranks sort (the balanced forms):
//
// 1. Candidates: every rank takes keys of its unsorted input at regular positions, one
//    MPI_Allgatherv gives every rank every sample, and each sorts them on its device and keeps F -
//    1 of them at regular intervals (F fine buckets; MPITuning).
// 2. One pass over the keys counts them in the F fine buckets (a key lies in the bucket after the
//    last candidate that does not order after it), and one MPI_Allreduce sums the counts: every
//    rank knows every fine bucket's global count, exactly.
// 3. Each rank after the first starts at the fine-bucket boundary nearest its target position. A
//    boundary further than the tolerance from its target (few keys, many equal keys, a sample that
//    missed the keys' spread) ends the attempt on every rank alike (all hold the same counts), and
//    the sort splits after sorting (Ordo_MPISplitters.hpp).
//
// Keys that compare equal lie in one fine bucket, so they go to one rank, in rank order and, within
// a rank, in input order: the stable partition and stable sorts keep the global order (key, rank,
// index) of the split after sorting.

#include <impl/Ordo_MPICall.hpp>
#include <impl/Ordo_MPISplitters.hpp>
#include <impl/Ordo_MPITuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>

#include <Ordo_Binning.hpp>
#include <Ordo_CopyIf.hpp>
#include <Ordo_Sort.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace Ordo::MPI::Impl {

// The workspace slots of the split before sorting, kept between calls.
enum class BucketSlot : int { samples, candidates, counts, selected, indices };

// Counts the keys in each fine bucket: each team counts its share of the keys in team scratch,
// then adds its counts to counts(b).
template <class ExecSpace, class Keys, class Candidates, class Counts, class Comp>
struct FineHistogram {
  using Team = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Local = Kokkos::View<std::uint32_t*, typename ExecSpace::scratch_memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Keys keys;
  Candidates candidates;  // F - 1 keys in order
  Counts counts;          // F
  int buckets;
  std::int64_t per_team;
  Comp comp;

  KOKKOS_FUNCTION void operator()(const Team& team) const {
    const Local local(team.team_scratch(0), buckets);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, buckets), [&](int b) { local(b) = 0; });
    team.team_barrier();
    const std::int64_t n = keys.extent(0);
    const std::int64_t begin = team.league_rank() * per_team;
    const std::int64_t end = begin + per_team < n ? begin + per_team : n;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end),
                         [&](std::int64_t i) { Kokkos::atomic_inc(&local(fine_bucket(keys(i)))); });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, buckets), [&](int b) {
      if (local(b) > 0) Kokkos::atomic_add(&counts(b), std::uint64_t(local(b)));
    });
  }

  template <class Key>
  KOKKOS_INLINE_FUNCTION int fine_bucket(const Key& k) const {
    int lo = 0, hi = buckets - 1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (comp(k, candidates(mid))) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
};

// Whether a key lies in fine buckets [first, last) of F: at or after candidate first - 1 and
// before candidate last - 1.
template <class Candidates, class Comp>
struct InBuckets {
  Candidates candidates;
  int first, last, buckets;
  Comp comp;

  template <class Key>
  KOKKOS_FUNCTION bool at(const Key& k) const {
    return (first == 0 || !comp(k, candidates(first - 1))) &&
           (last == buckets || comp(k, candidates(last - 1)));
  }
  template <class Key>
  KOKKOS_FUNCTION bool operator()(const Key& k) const {
    return at(k);
  }
};

// The same test for the index of a key (the pairs' partition selects indices, then gathers).
template <class Keys, class Candidates, class Comp>
struct IndexInBuckets {
  Keys keys;
  InBuckets<Candidates, Comp> in;
  KOKKOS_FUNCTION bool operator()(std::uint32_t i) const { return in.at(keys(i)); }
};

template <class Indices>
struct Iota {
  Indices out;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const { out(i) = std::uint32_t(i); }
};

// A split before sorting: rank q's keys are fine buckets [bounds[q], bounds[q + 1]) of the
// candidates; this rank holds cuts[q + 1] - cuts[q] of them.
template <class Candidates>
struct BucketSplit {
  Candidates candidates;
  std::vector<int> bounds;
  std::vector<std::uint64_t> cuts;
};

// The split before sorting, or nothing where a cut would lie further than `tolerance` (> 0) from
// its target (every rank alike). Reads keys; writes only Ordo's workspaces.
template <class ExecSpace, class Keys, class Comp>
std::optional<BucketSplit<Kokkos::View<typename Keys::non_const_value_type*,
                                       typename Keys::memory_space, Kokkos::MemoryUnmanaged>>>
bucket_split(const ExecSpace& space, MPI_Comm comm, const Agreement& a, const Keys& keys,
             const Comp& comp, const std::vector<std::uint64_t>& targets, std::uint64_t tolerance) {
  using Key = typename Keys::non_const_value_type;
  using Mem = typename Keys::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using U64 = Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using Candidates = Kokkos::View<Key*, Mem, Kokkos::MemoryUnmanaged>;
  using T = MPITuning;
  const int ranks = a.ranks;
  const std::nullopt_t none = std::nullopt;

  // Fine buckets of about a quarter of the tolerance, drawn from samples_per_bucket samples each.
  const std::uint64_t want = T::buckets_per_tolerance * a.total / tolerance + 1;
  const int F = int(std::min<std::uint64_t>(want, T::max_buckets));
  const std::uint64_t s = T::samples_per_bucket * std::uint64_t(F) / std::uint64_t(ranks) + 1;
  std::vector<int> counts(ranks), displs(ranks);
  std::uint64_t m = 0;
  for (int q = 0; q < ranks; ++q) {
    counts[q] = int(std::min(a.counts[q], s) * sizeof(Key));
    displs[q] = int(m * sizeof(Key));
    m += std::min(a.counts[q], s);
  }
  if (m < std::uint64_t(T::samples_per_bucket) * F) return none;

  // Every rank's samples, sorted on the device; F - 1 of them at regular intervals.
  const auto samples = Ordo::Impl::workspace<Key, ExecSpace, Mem>(space, m, BucketSlot::samples);
  const std::uint64_t mine = std::min(a.counts[a.rank], s);
  const std::uint64_t first = displs[a.rank] / sizeof(Key);
  const auto taken = Kokkos::subview(samples, Kokkos::make_pair(first, first + mine));
  Kokkos::parallel_for("Ordo::MPI::sort::bucket_samples", Policy(space, 0, std::int64_t(mine)),
                       TakeSamples<Keys, decltype(taken)>{keys, taken, s});
  std::vector<Key> host_samples(m);
  Kokkos::View<Key*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_view(host_samples.data(), m);
  Kokkos::deep_copy(space, host_view, samples);
  space.fence("Ordo::MPI::sort: bucket samples");
  check_mpi(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, host_samples.data(), counts.data(),
                           displs.data(), MPI_BYTE, comm),
            "MPI_Allgatherv of the bucket samples");
  Kokkos::deep_copy(space, samples, host_view);
  Ordo::Impl::sort(space, samples, comp, Ordo::Impl::SortOptions{});
  const Candidates candidates(
      Ordo::Impl::workspace<Key, ExecSpace, Mem>(space, F - 1, BucketSlot::candidates).data(),
      F - 1);
  Kokkos::parallel_for(
      "Ordo::MPI::sort::candidates", Policy(space, 0, F - 1),
      TakeSamples<decltype(samples), Candidates>{samples, candidates, std::uint64_t(F - 1)});

  // This rank's count in every fine bucket, then every rank's.
  const auto fine =
      Ordo::Impl::workspace<std::uint64_t, ExecSpace, Mem>(space, F, BucketSlot::counts);
  Kokkos::deep_copy(space, fine, std::uint64_t(0));
  const std::int64_t n = keys.extent(0);
  const std::int64_t per_team = std::max<std::int64_t>(T::histogram_keys_per_team, 1);
  const std::int64_t league = std::max<std::int64_t>((n + per_team - 1) / per_team, 1);
  using Histogram = FineHistogram<ExecSpace, Keys, Candidates, decltype(fine), Comp>;
  Kokkos::TeamPolicy<ExecSpace> policy(space, league, Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(Histogram::Local::shmem_size(F)));
  Kokkos::parallel_for("Ordo::MPI::sort::histogram", policy,
                       Histogram{keys, candidates, fine, F, per_team, comp});
  std::vector<std::uint64_t> local(F), global(F);
  Kokkos::deep_copy(space, U64(local.data(), F), fine);
  space.fence("Ordo::MPI::sort: histogram");
  check_mpi(MPI_Allreduce(local.data(), global.data(), F, MPI_UINT64_T, MPI_SUM, comm),
            "MPI_Allreduce of the bucket counts");

  // Each rank after the first starts at the boundary nearest its target.
  BucketSplit<Candidates> split{candidates, std::vector<int>(ranks + 1, 0),
                                std::vector<std::uint64_t>(ranks + 1, 0)};
  split.bounds[ranks] = F;
  std::uint64_t before = 0;  // keys in fine buckets [0, b)
  int b = 0;
  for (int k = 1; k < ranks; ++k) {
    const std::uint64_t t = targets[k - 1];
    while (b < F && before + global[b] <= t) before += global[b++];
    // before <= t < before + global[b]: the boundary at b or at b + 1.
    std::uint64_t at = b, at_keys = before;
    if (b < F && before + global[b] - t < t - before) {
      at = b + 1;
      at_keys = before + global[b];
    }
    const std::uint64_t off = at_keys > t ? at_keys - t : t - at_keys;
    if (off > tolerance) return none;
    split.bounds[k] = std::max(int(at), split.bounds[k - 1]);
  }
  for (int q = 0; q < ranks; ++q) {
    std::uint64_t c = 0;
    for (int f = split.bounds[q]; f < split.bounds[q + 1]; ++f) c += local[f];
    split.cuts[q + 1] = split.cuts[q] + c;
  }
  return split;
}

// Copies this rank's keys (and values) into `keys_out` (and `values_out`) grouped by the rank they
// go to, rank q's at [cuts[q], cuts[q + 1]), each group in input order.
template <class ExecSpace, class Keys, class Values, class OutKeys, class OutValues,
          class Candidates, class Comp>
void partition(const ExecSpace& space, const Keys& keys, const Values& values,
               const OutKeys& keys_out, const OutValues& values_out,
               const BucketSplit<Candidates>& split, const Comp& comp) {
  using Mem = typename Keys::memory_space;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  constexpr bool with_values = !std::is_same_v<Values, NoValues>;
  const int ranks = int(split.cuts.size()) - 1;
  const int F = split.bounds[ranks];
  const auto count =
      Ordo::Impl::workspace<std::uint64_t, ExecSpace, Mem>(space, 1, BucketSlot::selected);
  const std::size_t n = keys.extent(0);
  std::conditional_t<with_values, Kokkos::View<std::uint32_t*, Mem, Kokkos::MemoryUnmanaged>,
                     NoValues>
      all, chosen;
  if constexpr (with_values) {
    const auto indices =
        Ordo::Impl::workspace<std::uint32_t, ExecSpace, Mem>(space, 2 * n, BucketSlot::indices);
    all = decltype(all)(indices.data(), n);
    chosen = decltype(chosen)(indices.data() + n, n);
    Kokkos::parallel_for("Ordo::MPI::sort::iota", Policy(space, 0, std::int64_t(n)),
                         Iota<decltype(all)>{all});
  }
  for (int q = 0; q < ranks; ++q) {
    const auto range = Kokkos::make_pair(split.cuts[q], split.cuts[q + 1]);
    if (range.second == range.first) continue;
    const InBuckets<Candidates, Comp> in{split.candidates, split.bounds[q], split.bounds[q + 1], F,
                                         comp};
    if constexpr (with_values) {
      const auto picked = Kokkos::subview(chosen, range);
      Ordo::copy_if(space, all, picked, IndexInBuckets<Keys, Candidates, Comp>{keys, in}, count);
      Ordo::gather(
          space, picked, Ordo::views(keys, values),
          Ordo::views(Kokkos::subview(keys_out, range), Kokkos::subview(values_out, range)));
    } else {
      Ordo::copy_if(space, keys, Kokkos::subview(keys_out, range), in, count);
    }
  }
}

}  // namespace Ordo::MPI::Impl

#endif
