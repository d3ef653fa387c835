// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_ASSEMBLYREFILLIMPL_HPP
#define ORDO_IMPL_ASSEMBLYREFILLIMPL_HPP

// Device level of the assembly's second phase (Ordo_AssemblyImpl.hpp has the first, and the map
// both share): the values of a pattern's entries from a new value array, one pass, no allocation:
//   Ordo::coo2crs::refill       a thread an entry sums its triplets' values in perm's order (the
//                               input's order: the same bits every run, those of a sequential
//                               assembly), or adds the sum to the entry's value
//   Ordo::coo2crs::refill_long  a team an entry of more than AssemblyTuning's walk_limit triplets:
//                               its threads sum contiguous pieces left to right, one thread sums
//                               the pieces in order (the same bits every run of one build; on host
//                               backends the team is one thread: the sequential order)

#include <impl/core/Ordo_Tuning.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// The map of an assembly's pattern from the triplets to the entries (32-bit positions: the
// triplets are sorted, at most 2^32 - 2 of them): entry e sums the values of triplets
// perm(starts(e)), ..., perm(starts(e + 1) - 1), in that order (the input's); long_entries lists
// the entries of more than AssemblyTuning's walk_limit triplets.
template <class Memory>
using AssemblyIndex = Kokkos::View<std::uint32_t*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class Memory>
struct AssemblyMap {
  AssemblyIndex<Memory> perm, starts, long_entries;
  // coo2crs' way for inputs out of row order: the values were sorted with the triplets (the k-th
  // sorted value is that of the k-th triplet in the matrix's order), perm was not written.
  bool values_sorted = false;
  std::int64_t count() const { return perm.extent(0); }  // the triplets
  std::int64_t nnz() const { return starts.extent(0) > 0 ? std::int64_t(starts.extent(0)) - 1 : 0; }
};

// The value of the triplet at sorted position k: data(perm(k)).
template <class Memory, class DataView>
struct ThroughPerm {
  AssemblyIndex<Memory> perm;
  DataView data;
  KOKKOS_INLINE_FUNCTION auto operator()(std::int64_t k) const { return data(perm(k)); }
};

// Entry e's value from the values of its triplets, read(k) at sorted position k: their sum
// (insert), or the entry's value plus their sum (add). Entries of more than `limit` triplets are
// refill_long's.
template <class Memory, class Read, class Values>
struct RefillEntries {
  AssemblyIndex<Memory> starts;
  Read read;
  Values values;
  std::int64_t limit;
  bool add;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const std::int64_t first = starts(e), last = starts(e + 1);
    if (last - first > limit) return;
    typename Values::non_const_value_type v = read(first);
    for (std::int64_t k = first + 1; k < last; ++k) v += read(k);
    values(e) = add ? values(e) + v : v;
  }
};

// The long entries: a team each, thread t summing piece t of the entry's triplets left to right,
// then one thread the pieces in order.
template <class ExecSpace, class Read, class Values>
struct RefillLongEntries {
  using Memory = typename ExecSpace::memory_space;
  using V = typename Values::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = Kokkos::View<V*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  AssemblyIndex<Memory> starts, long_entries;
  Read read;
  Values values;
  int team;
  bool add;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const std::int64_t e = long_entries(member.league_rank());
    const std::int64_t first = starts(e), last = starts(e + 1);
    const std::int64_t piece = (last - first + team - 1) / team;
    const Scratch partial(member.team_scratch(0), team);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, team), [&](int t) {
      const std::int64_t b = first + t * piece, end = Kokkos::min(b + piece, last);
      if (b >= end) return;
      V v = read(b);
      for (std::int64_t k = b + 1; k < end; ++k) v += read(k);
      partial(t) = v;
    });
    member.team_barrier();
    Kokkos::single(Kokkos::PerTeam(member), [&] {
      V v = partial(0);
      for (std::int64_t t = 1; t * piece < last - first; ++t) v += partial(t);
      values(e) = add ? values(e) + v : v;
    });
  }
};

// values(e) for every entry of the map from its triplets' values read(k) in sorted order: their
// sum, or (add) the entry's value plus their sum. Asynchronous; allocates nothing.
template <class ExecSpace, class Read, class Values>
void refill_entries(const ExecSpace& space,
                    const AssemblyMap<typename ExecSpace::memory_space>& map, const Read& read,
                    const Values& values, bool add) {
  using Memory = typename ExecSpace::memory_space;
  using Tuning = AssemblyTuning<ExecSpace>;
  Kokkos::parallel_for(
      "Ordo::coo2crs::refill",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, map.nnz()),
      RefillEntries<Memory, Read, Values>{map.starts, read, values, Tuning::walk_limit, add});
  const std::int64_t longs = map.long_entries.extent(0);
  if (longs == 0) return;
  using Functor = RefillLongEntries<ExecSpace, Read, Values>;
  const int team = Tuning::long_team;
  Kokkos::parallel_for(
      "Ordo::coo2crs::refill_long",
      Kokkos::TeamPolicy<ExecSpace>(space, longs, team)
          .set_scratch_size(0, Kokkos::PerTeam(Functor::Scratch::shmem_size(team))),
      Functor{map.starts, map.long_entries, read, values, team, add});
}

// The same from the triplets' values data (map.count() of them, in the input's order).
template <class ExecSpace, class DataView, class Values>
void refill_values(const ExecSpace& space, const AssemblyMap<typename ExecSpace::memory_space>& map,
                   const DataView& data, const Values& values, bool add) {
  refill_entries(space, map,
                 ThroughPerm<typename ExecSpace::memory_space, DataView>{map.perm, data}, values,
                 add);
}

}  // namespace Ordo::Impl

#endif
