// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTMERGEPASSIMPL_HPP
#define ORDO_IMPL_SORTMERGEPASSIMPL_HPP

// Device level of sort: the merge passes after the block kernel and the streaming levels, each
// doubling the sorted run length with the merge-path tiles of merge:
//   Ordo::sort::merge::partition  the co-rank of every tile's first output (the shared partition
//                                 kernel of Ordo_MergePath.hpp; from the samples of the runs that
//                                 the pass before wrote, after the first pass)
//   Ordo::sort::merge::tiles      one team per tile: team_merge_tile, outputs to the next buffer
//                                 or the caller's Views, every partition_sample-th key sampled
//   Ordo::sort::merge::fused      passes of few tiles: the teams co-rank their own tiles

#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_SortRecords.hpp>
#include <impl/Ordo_TileMerge.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// View-like access to a[offset, ...).
template <class View>
struct Shifted {
  View view;
  std::int64_t offset;
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(std::int64_t i) const {
    return view(offset + i);
  }
};

// A merge pass over n records merges pairs of runs of `run` records (a pair at a0, its second
// run at a0 + run, the last runs short or empty), and cuts each pair's output into per_pair tiles
// of `tile` records (tiles never straddle pairs). Tile indices and per_pair fit 32 bits (sorts
// hold fewer than 2^32 records), so that every tile finds its pair with a 32-bit division instead
// of 64-bit ones.
struct PassShape {
  std::int64_t n, run;
  int tile, per_pair;
  PassShape(std::int64_t n_, std::int64_t run_, int tile_)
      : n(n_), run(run_), tile(tile_), per_pair(int((2 * run_ + tile_ - 1) / tile_)) {}
  std::int64_t tiles() const { return (n + 2 * run - 1) / (2 * run) * per_pair; }
};

// Tile t of a merge pass: its pair's runs hold len[0] and len[1] records from a0 and a0 + run,
// the tile's outputs are [a0 + diag, a0 + diag + count) (count <= 0: nothing to do).
struct PassTile {
  std::int64_t a0, len[2], diag, count;
  bool last;  // the pair's last tile
  KOKKOS_INLINE_FUNCTION PassTile(int t, const PassShape& s) {
    const int pair = t / s.per_pair;
    a0 = std::int64_t(pair) * (2 * s.run);
    std::int64_t total = 0;
    ORDO_UNROLL
    for (int r = 0; r < 2; ++r) {
      const std::int64_t rest = s.n - (a0 + r * s.run);
      len[r] = rest <= 0 ? 0 : (rest < s.run ? rest : s.run);
      total += len[r];
    }
    diag = std::int64_t(t - pair * s.per_pair) * s.tile;
    count = total - diag < s.tile ? total - diag : s.tile;
    last = diag + count >= total;
  }
};

// Co-rank (in its pair) of tile t's first output; from the samples of the runs (SortTuning's
// partition_sample: samples(u) = keys(u * S)) when the previous pass wrote them.
template <int S, class KeyView, class SampleView, class Less, class Probes>
KOKKOS_INLINE_FUNCTION std::int64_t pass_co_rank(const KeyView& keys, const SampleView& samples,
                                                 const PassTile& p, std::int64_t run,
                                                 std::int64_t diag, const Less& less,
                                                 const Probes& probes) {
  const std::int64_t b0 = p.a0 + run;
  if (samples.extent(0) > 0) {
    return sampled_merge_path<S, std::int64_t>(keys, p.a0, p.len[0], keys, b0, p.len[1], samples,
                                               p.a0 / S, b0 / S, diag, less, probes);
  }
  return merge_path<std::int64_t>(keys, p.a0, p.len[0], keys, b0, p.len[1], diag, less, probes);
}

// The boundaries of a merge pass for the partition kernel (Ordo_MergePath.hpp): boundary t is the
// co-rank of tile t's first output in its pair.
template <int S, class KeyView, class SampleView, class Less>
struct PassBoundaries {
  KeyView keys;
  SampleView samples;
  PassShape shape;
  Less less;
  template <class Probes>
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t t, const Probes& probes) const {
    const PassTile p(int(t), shape);
    if (p.count <= 0) return 0;  // past the last pair's outputs: never read
    return pass_co_rank<S>(keys, samples, p, shape.run, p.diag, less, probes);
  }
};

// After a merge tile: its merged keys are still in the tile, the outputs [begin, begin + count)
// of the pass; those at multiples of S are the samples of the next pass (none: samples empty).
template <int S, class Member, class TileView, class SampleView>
KOKKOS_INLINE_FUNCTION void write_samples(const Member& member, const TileView& tile,
                                          const SampleView& samples, std::int64_t begin,
                                          int count) {
  if (samples.extent(0) == 0) return;
  const int first = int((S - begin % S) % S);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, (count - first + S - 1) / S),
                       [&](int u) { samples((begin + first) / S + u) = tile(first + u * S); });
}

template <int VT, bool Fused, class ExecSpace, class K, class V, class KeyView, class ValueView,
          class Sink, class PartView, class SampleView, class Less>
struct SortMergeTiles {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using KeyTile = Kokkos::View<K*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using IndexTile = Kokkos::View<int*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using ValueTile = Kokkos::View<StoredValue<V>*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr bool with_values = !std::is_same_v<V, NoValue>;
  static constexpr int S = SortTypes<ExecSpace, K, V>::Tuning::partition_sample;

  KeyView keys;
  ValueView values;
  Sink sink;
  PartView part;
  SampleView samples;  // written where not empty: every S-th output, for the next partition
  PassShape shape;
  Less less;

  static std::size_t scratch_bytes(int team_size) {
    const std::size_t tile = std::size_t(team_size) * VT;
    return KeyTile::shmem_size(tile + 1) +
           (with_values ? IndexTile::shmem_size(tile) + ValueTile::shmem_size(tile) : 0);
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const PassTile p(member.league_rank(), shape);
    const std::int64_t run = shape.run;
    if (p.count <= 0) return;
    const int count = int(p.count);
    const std::int64_t diag = p.diag, begin = p.a0 + diag;
    std::int64_t a_lo, a_hi;
    if constexpr (Fused) {
      const Shifted<KeyView> a{keys, p.a0}, b{keys, p.a0 + run};
      constexpr int probes = MergePathTuning<ExecSpace>::team_probes;
      const auto ends =
          team_merge_path_ends<probes>(member, a, p.len[0], b, p.len[1], diag, diag + count, less);
      a_lo = ends.first;
      a_hi = ends.second;
    } else {
      a_lo = part(member.league_rank());
      a_hi = p.last ? p.len[0] : part(member.league_rank() + 1);
    }
    a_hi = piece_end<std::int64_t>(a_hi, a_lo, count);
    const int na = int(a_hi - a_lo), nb = count - na;
    const std::int64_t a_first = p.a0 + a_lo, b_first = p.a0 + run + (diag - a_lo);
    KeyTile tile(member.team_scratch(0), shape.tile + 1);
    IndexTile from;
    ValueTile staged;
    if constexpr (with_values) {
      // The tile's values are staged in scratch with the same coalesced loads as its keys, so
      // that the stores below gather from scratch rather than chain global loads.
      from = IndexTile(member.team_scratch(0), shape.tile);
      staged = ValueTile(member.team_scratch(0), shape.tile);
      tile_load<VT>(member, values, a_first, na, values, b_first, nb, staged);
    }
    team_merge_tile<VT, with_values>(
        member, keys, a_first, na, keys, b_first, nb, tile, from, less,
        [&](int i, const K& key, bool from_a, std::int64_t src) {
          sink.keys.store(begin + i, key);
          if constexpr (with_values) {
            sink.values.store(begin + i,
                              staged(from_a ? int(src - a_first) : na + int(src - b_first)));
          }
        });
    write_samples<S>(member, tile, samples, begin, count);
  }
};

// A merge pass. samples_in: the samples of keys' runs (empty:
// none), samples_out: where to write those of the pass's output (empty: nowhere); one buffer can
// be both, the partition reading before the tiles write.
template <class ExecSpace, class K, class V, class KeyView, class ValueView, class Sink,
          class SampleView, class Less>
void sort_merge_pass(const ExecSpace& space, std::int64_t n, std::int64_t run, const KeyView& keys,
                     const ValueView& values, const Sink& sink, const SampleView& samples_in,
                     const SampleView& samples_out, const Less& less, const SortOptions& options) {
  using Tuning = MergeTuning<ExecSpace, sizeof(K)>;
  constexpr int vt = Tuning::vt;
  const PassShape shape(n, run, Tuning::team_size * vt);
  const std::int64_t tiles = shape.tiles();
  using Part = PartitionView<ExecSpace>;
  using SortTune = typename SortTypes<ExecSpace, K, V>::Tuning;
  constexpr int S = SortTune::partition_sample;
  // Large keys-only passes (DRAM-bound) run with launch bounds that trade registers for more
  // resident tiles; smaller ones (L2-resident, latency-bound) without. Fused passes are never
  // that large, so only the partitioned tiles are instantiated with bounds.
  static_assert(SortTune::bounded_merge_from / (Tuning::team_size * vt) > Tuning::fused_max_tiles,
                "sorts with bounded merge passes have too many tiles for a fused launch");
  const auto scratch =
      Kokkos::PerTeam(SortMergeTiles<vt, false, ExecSpace, K, V, KeyView, ValueView, Sink, Part,
                                     SampleView, Less>::scratch_bytes(Tuning::team_size));
  auto launch = [&](auto fused, const auto& tiles_functor, const char* label) {
    if constexpr (SortTune::bounded_merge_from < never && !decltype(fused)::value) {
      if (n >= SortTune::bounded_merge_from) {
        using Bounds = Kokkos::LaunchBounds<Tuning::team_size, SortTune::merge_min_teams>;
        Kokkos::parallel_for(label,
                             Kokkos::TeamPolicy<ExecSpace, Bounds>(space, tiles, Tuning::team_size)
                                 .set_scratch_size(0, scratch),
                             tiles_functor);
        return;
      }
    }
    Kokkos::parallel_for(
        label,
        Kokkos::TeamPolicy<ExecSpace>(space, tiles, Tuning::team_size).set_scratch_size(0, scratch),
        tiles_functor);
  };
  using Fused =
      SortMergeTiles<vt, true, ExecSpace, K, V, KeyView, ValueView, Sink, Part, SampleView, Less>;
  using Tiles =
      SortMergeTiles<vt, false, ExecSpace, K, V, KeyView, ValueView, Sink, Part, SampleView, Less>;
  if (tiles <= Tuning::fused_max_tiles) {
    launch(std::true_type{}, Fused{keys, values, sink, Part(), samples_out, shape, less},
           "Ordo::sort::merge::fused");
    return;
  }
  const Part part = workspace<std::int64_t>(space, tiles);
  const int lanes =
      options.partition_lanes > 0 ? options.partition_lanes : SortTune::partition_lanes(n);
  const PassBoundaries<S, KeyView, SampleView, Less> boundaries{keys, samples_in, shape, less};
  with_partition_lanes(lanes, [&](auto lanes_constant) {
    partition_merge_path<decltype(lanes_constant)::value>("Ordo::sort::merge::partition", space,
                                                          boundaries, part, Tuning::team_size);
  });
  launch(std::false_type{}, Tiles{keys, values, sink, part, samples_out, shape, less},
         "Ordo::sort::merge::tiles");
}

}  // namespace Ordo::Impl

#endif
