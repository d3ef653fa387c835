// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTRADIXIMPL_HPP
#define ORDO_IMPL_SORTRADIXIMPL_HPP

// Device level of the radix sort (onesweep, Adinets and Merrill 2022): a stable LSD sort of
// encoded keys (Ordo_SortKeys.hpp) by 8-bit digits.
//   Ordo::sort::radix::histogram  every digit's histogram, for all passes in one read of the keys
//   Ordo::sort::radix::scan       the histograms' exclusive scans (each digit's first output
//                                 position in a pass), and which passes are trivial: a pass whose
//                                 digit every key shares is skipped
//   Ordo::sort::radix::pass       one launch per digit; a pass that is skipped returns at once.
//                                 Each team takes the next tile (a ticket), ranks its keys by
//                                 digit (Ordo_TileRadix.hpp; on CUDA the warp seam), publishes its
//                                 digit counts, finds each digit's output offset by a decoupled
//                                 look-back over the tiles before it (one chain per digit,
//                                 Ordo_LookbackWord.hpp), and writes each digit's keys as one run
//   Ordo::sort::radix::copy       when a single pass runs, its output (a buffer: the caller's
//                                 keys are its input) to the caller's Views; otherwise returns
// The passes that run are decided on the device (no host round trip): the first reads the
// source, the last writes the sink, the others alternate between two workspace buffers.

#include <impl/Ordo_LookbackWord.hpp>
#include <impl/Ordo_SortRecords.hpp>
#include <impl/Ordo_TileRadix.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Radix.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

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

template <bool Warp, class ExecSpace, class K, class V, class Source, class Sink, class Counts>
struct RadixPass {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  using SV = StoredValue<V>;
  static constexpr bool with_values = !std::is_same_v<V, NoValue>;
  static constexpr int team = Warp ? Tuning::radix_team_size : Tuning::radix_portable_team_size;
  static constexpr int items = Tuning::radix_items;
  static constexpr int tile = team * items;
  static constexpr int columns = Warp ? team / 32 : team;
  static_assert(tile < 65536, "tile positions fit the 16-bit counters");
  template <class T>
  using Tile = Kokkos::View<T*, Scratch, Kokkos::MemoryUnmanaged>;
  // The counters and the exchanged keys share scratch: the keys are written after the ranking.
  static constexpr std::size_t shared_bytes =
      (sizeof(K) * tile > 2 * radix_digits * columns ? sizeof(K) * tile
                                                     : 2 * radix_digits * columns) +
      8;

  Source source;
  Sink sink;
  K* key_buffer[2];
  SV* value_buffer[2];
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged> words;
  Counts offsets, trivial;
  std::int64_t n, tiles;
  int pass, passes;

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

    // Load: the seam's warp-striped positions, or each thread's run of positions.
    K key[items];
    SV value[items];
    int rank[items];
    const K* key_in = key_buffer[plan.in_buffer()] + first;
    const SV* value_in = value_buffer[plan.in_buffer()] + first;
    const bool from_source = plan.from_source();
    for (int k = 0; k < items; ++k) {
      int position = t * items + k;
#if defined(ORDO_CUDA_WARP_RADIX)
      if constexpr (Warp) position = CudaSeam::warp_tile_position<items>(t, k);
#endif
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
#if defined(ORDO_CUDA_WARP_RADIX)
    if constexpr (Warp) {
      CudaSeam::warp_rank<items>(member, key, pass, rank, counters);
      place_ranked<items>(member, key, pass, t / 32, columns, rank, counters, start);
    }
#endif
    if constexpr (!Warp) {
      rank_in_threads<items>(member, key, pass, rank, counters);
      place_ranked<items>(member, key, pass, t, columns, rank, counters, start);
    }
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
        before = LookbackWord::tagged_prefix<Tuning::radix_lookback_window>(word_of, id, tag);
        LookbackWord::publish(word_of(id), LookbackWord::inclusive | tag | (before + count_of(d)));
      }
      base(d) = offsets(pass * radix_digits + d) + std::int64_t(before) - start(d);
    });
    member.team_barrier();

    // Store each digit's run: position j of the tile goes to base(digit) + j.
    K* key_out = key_buffer[plan.out_buffer()];
    SV* value_out = value_buffer[plan.out_buffer()];
    for (int k = 0; k < items; ++k) {
      const int j = k * team + t;
      if (j < valid) {
        const K x = keys(j);
        const std::int64_t o = base(radix_digit(x, pass)) + j;
        if (plan.to_sink()) {
          sink.keys.store(o, x);
          if constexpr (with_values) sink.values.store(o, values(j));
        } else {
          key_out[o] = x;
          if constexpr (with_values) value_out[o] = values(j);
        }
      }
    }
  }
};

// When a single pass runs, its output (buffer 0) goes to the sink; `threads` threads stride over
// the n records, so that the launch costs little when it has nothing to do.
template <class K, class SV, class Sink, class Counts>
struct RadixCopy {
  Sink sink;
  const K* key_buffer;
  const SV* value_buffer;
  Counts trivial;
  std::int64_t n, threads;
  int passes;
  bool with_values;
  KOKKOS_FUNCTION void operator()(std::int64_t t) const {
    if (radix_plan(trivial, passes, 0).runs != 1) return;
    for (std::int64_t i = t; i < n; i += threads) {
      sink.keys.store(i, key_buffer[i]);
      if (with_values) sink.values.store(i, value_buffer[i]);
    }
  }
};

// Sorts n records of `source` (encoded keys K, values V) into `sink`, stably. warp: the CUDA
// ranking seam where there is one. Its workspace is taken before anything runs: two buffers of n
// keys (and values), one look-back word per tile and digit, the histograms.
template <class ExecSpace, class K, class V, class Source, class Sink>
void radix_sort(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                bool warp) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  using SV = StoredValue<V>;
  constexpr bool with_values = !std::is_same_v<V, NoValue>;
  constexpr int passes = int(8 * sizeof(K)) / radix_bits;
  using Counts = WorkspaceView<std::int64_t, ExecSpace>;
  with_warp_seam<ExecSpace>(warp, [&](auto seam) {
    using Pass = RadixPass<decltype(seam)::value, ExecSpace, K, V, Source, Sink, Counts>;
    const std::int64_t tiles = (n + Pass::tile - 1) / Pass::tile;
    const std::int64_t vn = with_values ? n : 0;
    const auto k0 = workspace<K>(space, n, WorkspaceSlot::sort_keys0);
    const auto k1 = workspace<K>(space, n, WorkspaceSlot::sort_keys1);
    const auto v0 = workspace<SV>(space, vn, WorkspaceSlot::sort_values0);
    const auto v1 = workspace<SV>(space, vn, WorkspaceSlot::sort_values1);
    const std::int64_t word_count = tiles * radix_digits + passes;
    const auto words = workspace<std::uint64_t>(space, word_count, WorkspaceSlot::radix_words);
    const auto all = workspace<std::int64_t>(space, 2 * passes * radix_digits + passes,
                                             WorkspaceSlot::radix_counts);
    using Pair = Kokkos::pair<std::int64_t, std::int64_t>;
    const std::int64_t h = passes * radix_digits;
    const Counts counts = Kokkos::subview(all, Pair(0, h));
    const Counts offsets = Kokkos::subview(all, Pair(h, 2 * h));
    const Counts trivial = Kokkos::subview(all, Pair(2 * h, 2 * h + passes));
    Kokkos::deep_copy(space, Kokkos::subview(words, Pair(0, word_count)), 0);
    Kokkos::deep_copy(space, counts, 0);

    using Histogram = RadixHistogram<ExecSpace, K, Source, Counts>;
    const std::int64_t chunk =
        std::int64_t(Tuning::radix_team_size) * Tuning::radix_histogram_items;
    const std::int64_t chunks = (n + chunk - 1) / chunk;
    const int teams =
        int(chunks < Tuning::radix_histogram_teams ? chunks : Tuning::radix_histogram_teams);
    Kokkos::parallel_for(
        "Ordo::sort::radix::histogram",
        by_argument(Kokkos::TeamPolicy<ExecSpace>(space, teams, Tuning::radix_team_size)
                        .set_scratch_size(0, Kokkos::PerTeam(Histogram::scratch_bytes(passes)))),
        Histogram{source, counts, n, chunk, passes});
    Kokkos::parallel_for("Ordo::sort::radix::scan",
                         Kokkos::TeamPolicy<ExecSpace>(space, passes, Kokkos::AUTO),
                         RadixScan<Counts>{counts, offsets, trivial, n});
    using Bounds = Kokkos::LaunchBounds<Pass::team, Tuning::radix_min_teams>;
    for (int p = 0; p < passes; ++p) {
      Kokkos::parallel_for(
          "Ordo::sort::radix::pass",
          by_argument(Kokkos::TeamPolicy<ExecSpace, Bounds>(space, tiles, Pass::team)
                          .set_scratch_size(0, Kokkos::PerTeam(Pass::scratch_bytes()))),
          Pass{source,
               sink,
               {k0.data(), k1.data()},
               {v0.data(), v1.data()},
               words,
               offsets,
               trivial,
               n,
               tiles,
               p,
               passes});
    }
    const std::int64_t threads = n < Tuning::radix_copy_threads ? n : Tuning::radix_copy_threads;
    Kokkos::parallel_for(
        "Ordo::sort::radix::copy",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, threads),
        RadixCopy<K, SV, Sink, Counts>{sink, k0.data(), v0.data(), trivial, n, threads, passes,
                                       with_values});
  });
}

}  // namespace Ordo::Impl

#endif
