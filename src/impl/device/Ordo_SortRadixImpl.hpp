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

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_TileLaunch.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileRadix.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

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

// Sorts n records of `source` (encoded keys K, values V) into `sink`, stably, and moves the
// columns of `carried` the same way (Ordo_TileRadix.hpp). warp: the CUDA ranking seam where there
// is one. Its workspace is taken before anything runs: two buffers of n keys (and values), one
// look-back word per tile and digit, the histograms (the carrier brings its own buffers).
template <class ExecSpace, class K, class V, class Source, class Sink, class Carried = NoCarried>
void radix_sort(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                bool warp, const Carried& carried = {}) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Radix;
  using SV = StoredValue<V>;
  constexpr bool with_values = !std::is_same_v<V, NoValue>;
  constexpr int passes = int(8 * sizeof(K)) / radix_bits;
  using Counts = WorkspaceView<std::int64_t, ExecSpace>;
  with_warp_seam<ExecSpace>(warp, [&](auto seam) {
    using Pass = RadixPass<decltype(seam), ExecSpace, K, V, Source, Sink, Counts, Carried>;
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
    const std::int64_t chunk = std::int64_t(Tuning::team_size) * Tuning::histogram_items;
    const std::int64_t chunks = (n + chunk - 1) / chunk;
    const int teams = int(chunks < Tuning::histogram_teams ? chunks : Tuning::histogram_teams);
    launch_tiles("Ordo::sort::radix::histogram", space,
                 TilePlan{teams, Tuning::team_size, Histogram::scratch_bytes(passes)},
                 Histogram{source, counts, n, chunk, passes});
    Kokkos::parallel_for("Ordo::sort::radix::scan",
                         Kokkos::TeamPolicy<ExecSpace>(space, passes, Kokkos::AUTO),
                         RadixScan<Counts>{counts, offsets, trivial, n});
    for (int p = 0; p < passes; ++p) {
      launch_tiles<Pass::team, Pass::min_teams>("Ordo::sort::radix::pass", space,
                                                TilePlan{tiles, Pass::team, Pass::scratch_bytes()},
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
                                                     passes,
                                                     carried});
    }
    const std::int64_t threads = n < Tuning::copy_threads ? n : Tuning::copy_threads;
    Kokkos::parallel_for(
        "Ordo::sort::radix::copy",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, threads),
        RadixCopy<K, SV, Sink, Counts>{sink, k0.data(), v0.data(), trivial, n, threads, passes,
                                       with_values});
  });
}

// radix_sort's workspace on n records (the bytes it asks, by the tiles of its ranking; Carried:
// its carrier's type, whose buffers are not counted).
template <class ExecSpace, class K, class V, class Carried = NoCarried>
std::size_t radix_sort_bound(std::int64_t n) {
  using Tuning = typename SortTypes<ExecSpace, K, RadixTunedValue<V, Carried>>::Radix;
  constexpr std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::items;
  constexpr int passes = int(8 * sizeof(K)) / radix_bits;
  const std::int64_t tiles = (n + tile - 1) / tile, vn = std::is_same_v<V, NoValue> ? 0 : n;
  return 2 * slot_bytes<K>(n) + 2 * slot_bytes<StoredValue<V>>(vn) +
         slot_bytes<std::uint64_t>(tiles * radix_digits + passes) +
         slot_bytes<std::int64_t>(2 * passes * radix_digits + passes);
}

}  // namespace Ordo::Impl

#endif
