// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILEMERGEPASS_HPP
#define ORDO_IMPL_TILEMERGEPASS_HPP

// Team level of the sort's merge passes (device/Ordo_SortMergePassImpl.hpp): a pass merges pairs
// of sorted runs of one buffer, a tile of a pair's outputs a team, with merge's tile
// (Ordo_TileMerge.hpp) and the samples that let the next pass find its tiles' co-ranks.

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileMerge.hpp>
#include <impl/team/Ordo_TileRange.hpp>

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

}  // namespace Ordo::Impl

#endif
