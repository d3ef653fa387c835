// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILERADIX_HPP
#define ORDO_IMPL_TILERADIX_HPP

// Team level of the radix sort: one digit pass over a tile of keys held in registers, Items per
// thread. Ranking finds each key's position in the tile's stable order by digit:
//   1. count   every key is counted in a column of counters (the team seam's radix_rank,
//              team/Ordo_WarpSeam.hpp): a column per thread up to 32 columns (threads beyond
//              share a column, counting their runs of keys in turns), or on CUDA's warp seam one
//              per warp (match sets of equal digits); a key's rank is how many keys of its digit
//              its column counted before it
//   2. scan    one exclusive scan of the counters in digit-major order (digit, column): each
//              counter becomes the tile position of its column's first key of that digit
//   3. place   position = scanned counter + rank
// The keys (and values) are then exchanged through scratch into that order, so that a digit's
// keys leave the tile as one contiguous run (coalesced stores).

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_WarpSeam.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// Steps 2 and 3: the digit-major scan of radix_digits * columns counters, then the tile position
// of each key from its column; start(d) = the tile position of digit d's first key (start of
// radix_digits: the tile's key count). Ends with a team barrier.
template <int Items, class Member, class K, class Counters, class Start>
KOKKOS_INLINE_FUNCTION void place_ranked(const Member& member, const K (&key)[Items], int pass,
                                         int column, int columns, int (&rank)[Items],
                                         const Counters& counters, const Start& start) {
  const int total = radix_digits * columns, threads = member.team_size();
  const int per = (total + threads - 1) / threads, r = member.team_rank();
  const int lo = r * per < total ? r * per : total, hi = lo + per < total ? lo + per : total;
  int sum = 0;
  for (int j = lo; j < hi; ++j) sum += counters(j);
  int before = member.team_scan(sum);
  for (int j = lo; j < hi; ++j) {
    const int c = counters(j);
    counters(j) = before;
    before += c;
  }
  member.team_barrier();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits + 1), [&](int d) {
    start(d) = d < radix_digits ? int(counters(d * columns)) : Items * threads;
  });
  for (int k = 0; k < Items; ++k) {
    rank[k] += counters(radix_digit(key[k], pass) * columns + column);
  }
  member.team_barrier();
}

// Where pass `pass` stands among the passes that run (those whose trivial(p) is 0; when all are
// trivial, the last pass runs alone, as a stable copy).
struct RadixPlan {
  int index = -1;  // among the passes that run; -1: this pass is skipped
  int runs = 0;    // how many passes run
  KOKKOS_INLINE_FUNCTION bool active() const { return index >= 0; }
  KOKKOS_INLINE_FUNCTION bool from_source() const { return index == 0; }
  KOKKOS_INLINE_FUNCTION bool to_sink() const { return index == runs - 1 && runs > 1; }
  KOKKOS_INLINE_FUNCTION int in_buffer() const { return (index - 1) & 1; }
  KOKKOS_INLINE_FUNCTION int out_buffer() const { return index & 1; }
};

template <class Trivial>
KOKKOS_INLINE_FUNCTION RadixPlan radix_plan(const Trivial& trivial, int passes, int pass) {
  RadixPlan plan;
  for (int q = 0; q < passes; ++q) {
    if (trivial(q) == 0) {
      if (q == pass) plan.index = plan.runs;
      ++plan.runs;
    }
  }
  if (plan.runs == 0) {
    plan.runs = 1;
    if (pass == passes - 1) plan.index = 0;
  }
  return plan;
}

// Columns a radix sort carries beside its records: none. A carrier (RecordColumns,
// Ordo_BinRecordsImpl.hpp) has carries = true, element_bytes (its largest element) and
// for_each_column(f), which calls f(source_at, sink_at, buffer_at) for each column: the column's
// element i in the caller's source (a value), its sink and its workspace buffer (references).
struct NoCarried {
  static constexpr bool carries = false;
  static constexpr std::size_t element_bytes = 0;
};

// The value type a pass is tuned as: a pass that carries columns keeps every key's output
// position in registers, as many as a pair's value.
template <class V, class Carried>
using RadixTunedValue =
    std::conditional_t<Carried::carries && std::is_same_v<V, NoValue>, std::uint32_t, V>;

// One pass of a radix sort on the team seam Seam, a team a tile.
template <class Seam, class ExecSpace, class K, class V, class Source, class Sink, class Counts,
          class Carried = NoCarried>
struct RadixPass {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Tuning = typename SortTypes<ExecSpace, K, RadixTunedValue<V, Carried>>::Radix;
  using SV = StoredValue<V>;
  static constexpr bool with_values = !std::is_same_v<V, NoValue>;
  static constexpr int team = Tuning::team_size;
  static constexpr int items = Tuning::items;
  static constexpr int tile = team * items;
  static constexpr int min_teams = Tuning::min_teams;
  static constexpr int columns = Seam::radix_columns(team);
  static_assert(tile < 65536, "tile positions fit the 16-bit counters");
  static_assert(team % columns == 0, "the threads share the counter columns evenly");
  template <class T>
  using Tile = Kokkos::View<T*, Scratch, Kokkos::MemoryUnmanaged>;
  // The counters, the exchanged keys and the carried columns' stage share scratch: the keys are
  // written after the ranking, the columns staged after the keys are stored.
  static constexpr std::size_t max3(std::size_t a, std::size_t b, std::size_t c) {
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
  }
  static constexpr std::size_t shared_bytes =
      max3(sizeof(K) * tile, 2 * radix_digits * columns, Carried::element_bytes* tile) + 8;

  Source source;
  Sink sink;
  K* key_buffer[2];
  SV* value_buffer[2];
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged> words;
  Counts offsets, trivial;
  std::int64_t n, tiles;
  int pass, passes;
  Carried carried = {};

  static std::size_t scratch_bytes() {
    return Tile<char>::shmem_size(shared_bytes) + (with_values ? Tile<SV>::shmem_size(tile) : 0) +
           Tile<int>::shmem_size(radix_digits + 1) + Tile<std::int64_t>::shmem_size(radix_digits);
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const RadixPlan plan = radix_plan(trivial, passes, pass);
    if (!plan.active()) return;
    const Tile<char> shared(member.team_scratch(0), shared_bytes);
    const Tile<K> keys(reinterpret_cast<K*>(shared.data()), tile);
    const Tile<std::uint16_t> counters(reinterpret_cast<std::uint16_t*>(shared.data()),
                                       radix_digits * columns);
    Tile<SV> values;
    if constexpr (with_values) values = Tile<SV>(member.team_scratch(0), tile);
    const Tile<int> start(member.team_scratch(0), radix_digits + 1);
    const Tile<std::int64_t> base(member.team_scratch(0), radix_digits);

    std::int64_t id = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](std::int64_t& t) {
          t = std::int64_t(
              Kokkos::atomic_fetch_add(&words(tiles * radix_digits + pass), std::uint64_t(1)));
        },
        id);
    const std::int64_t first = id * tile;
    const int valid = int(n - first < tile ? n - first : tile);
    const int t = member.team_rank();

    // Load: the seam's positions (each thread's run of them, or on CUDA warp-striped).
    K key[items];
    SV value[items];
    int rank[items];
    const K* key_in = key_buffer[plan.in_buffer()] + first;
    const SV* value_in = value_buffer[plan.in_buffer()] + first;
    const bool from_source = plan.from_source();
    for (int k = 0; k < items; ++k) {
      const int position = Seam::template radix_position<items>(t, k);
      key[k] = ~K(0);  // padding: the last digit, after every key of the tile
      if (position < valid) {
        if (from_source) {
          key[k] = source.keys.load(first + position);
          if constexpr (with_values) value[k] = source.values.load(first + position);
        } else {
          key[k] = key_in[position];
          if constexpr (with_values) value[k] = value_in[position];
        }
      }
    }

    // Rank, then exchange into the tile's order by digit.
    Seam::template radix_rank<items>(member, key, pass, rank, counters);
    place_ranked<items>(member, key, pass, Seam::radix_column(t, team), columns, rank, counters,
                        start);
    // Each digit's output offset: its first position in the pass, plus its keys in the tiles
    // before this one (the look-back), less its first position in this tile. The tile's counts
    // are published first and the keys exchanged before the look-back, so that the tiles before
    // this one have time to publish theirs.
    const std::uint64_t tag = LookbackWord::tag(std::uint64_t(pass) + 1);
    auto count_of = [&](int d) {
      return std::uint64_t((start(d + 1) < valid ? start(d + 1) : valid) - start(d));
    };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits), [&](int d) {
      LookbackWord::publish(
          words(id * radix_digits + d),
          (id == 0 ? LookbackWord::inclusive : LookbackWord::aggregate) | tag | count_of(d));
    });
    for (int k = 0; k < items; ++k) {
      if (rank[k] < valid) {
        keys(rank[k]) = key[k];
        if constexpr (with_values) values(rank[k]) = value[k];
      }
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, radix_digits), [&](int d) {
      auto word_of = [&](std::int64_t tile_id) -> std::uint64_t& {
        return words(tile_id * radix_digits + d);
      };
      std::uint64_t before = 0;
      if (id > 0) {
        before = LookbackWord::tagged_prefix<Tuning::lookback_window>(word_of, id, tag);
        LookbackWord::publish(word_of(id), LookbackWord::inclusive | tag | (before + count_of(d)));
      }
      base(d) = offsets(pass * radix_digits + d) + std::int64_t(before) - start(d);
    });
    member.team_barrier();

    // Store each digit's run: position j of the tile goes to base(digit) + j.
    K* key_out = key_buffer[plan.out_buffer()];
    SV* value_out = value_buffer[plan.out_buffer()];
    [[maybe_unused]] std::int64_t out[Carried::carries ? items : 1];
    for (int k = 0; k < items; ++k) {
      const int j = k * team + t;
      if (j < valid) {
        const K x = keys(j);
        const std::int64_t o = base(radix_digit(x, pass)) + j;
        if constexpr (Carried::carries) out[k] = o;
        if (plan.to_sink()) {
          sink.keys.store(o, x);
          if constexpr (with_values) sink.values.store(o, values(j));
        } else {
          key_out[o] = x;
          if constexpr (with_values) value_out[o] = values(j);
        }
      }
    }
    if constexpr (Carried::carries) {
      carry(member, plan, shared.data(), first, valid, rank, out);
    }
  }

  // The carried columns, one after the other, the way the keys went: each column's tile is read
  // at the keys' load positions, staged in scratch in the tile's order by digit, and written to
  // the keys' output positions (each digit's run contiguous). A pass reads what the pass before
  // it wrote and alternates between the sink and the workspace buffer, so that the last pass
  // writes the sink: pass `index` of `runs` writes the sink when runs - 1 - index is even.
  KOKKOS_INLINE_FUNCTION void carry(const Member& member, const RadixPlan& plan, char* stage_bytes,
                                    std::int64_t first, int valid, const int (&rank)[items],
                                    const std::int64_t (&out)[items]) const {
    const bool to_sink = ((plan.runs - 1 - plan.index) & 1) == 0;
    const bool from_source = plan.from_source();
    const int t = member.team_rank();
    carried.for_each_column([&](const auto& source_at, const auto& sink_at, const auto& buffer_at) {
      using T = std::remove_reference_t<decltype(sink_at(std::int64_t(0)))>;
      T* const stage = reinterpret_cast<T*>(stage_bytes);
      member.team_barrier();  // the scratch's last readers are done
      for (int k = 0; k < items; ++k) {
        const int position = Seam::template radix_position<items>(t, k);
        if (position < valid) {
          const std::int64_t i = first + position;
          stage[rank[k]] = from_source ? T(source_at(i)) : to_sink ? buffer_at(i) : sink_at(i);
        }
      }
      member.team_barrier();
      for (int k = 0; k < items; ++k) {
        const int j = k * team + t;
        if (j < valid) (to_sink ? sink_at(out[k]) : buffer_at(out[k])) = stage[j];
      }
    });
  }
};

// counts(p * radix_digits + d): how many keys have digit d in pass p. Teams loop over chunks.
template <class ExecSpace, class K, class Source, class Counts>
struct RadixHistogram {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Local = Kokkos::View<std::uint32_t*, typename ExecSpace::scratch_memory_space,
                             Kokkos::MemoryUnmanaged>;
  Source source;
  Counts counts;
  std::int64_t n, chunk;
  int passes;

  static std::size_t scratch_bytes(int passes) { return Local::shmem_size(passes * radix_digits); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const Local local(member.team_scratch(0), passes * radix_digits);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, passes * radix_digits),
                         [&](int j) { local(j) = 0; });
    member.team_barrier();
    for (std::int64_t c = member.league_rank(); c * chunk < n; c += member.league_size()) {
      const std::int64_t first = c * chunk, count = n - first < chunk ? n - first : chunk;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, count), [&](std::int64_t i) {
        const K key = source.keys.load(first + i);
        for (int p = 0; p < passes; ++p) {
          Kokkos::atomic_add(&local(p * radix_digits + radix_digit(key, p)), std::uint32_t(1));
        }
      });
    }
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, passes * radix_digits), [&](int j) {
      if (local(j) != 0) Kokkos::atomic_add(&counts(j), std::int64_t(local(j)));
    });
  }
};

// One team per pass: offsets(p * radix_digits + d) = the keys with a smaller digit in pass p;
// trivial(p) = 1 when one digit holds every key.
template <class Counts>
struct RadixScan {
  Counts counts, offsets, trivial;
  std::int64_t n;

  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int p = member.league_rank();
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, radix_digits),
                          [&](int d, std::int64_t& before, bool final) {
                            const std::int64_t c = counts(p * radix_digits + d);
                            if (final) offsets(p * radix_digits + d) = before;
                            before += c;
                          });
    int one = 0;  // digits that hold every key: 0 or 1
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, radix_digits),
        [&](int d, int& f) { f += counts(p * radix_digits + d) == n ? 1 : 0; }, one);
    Kokkos::single(Kokkos::PerTeam(member), [&] { trivial(p) = one; });
  }
};

}  // namespace Ordo::Impl

#endif
