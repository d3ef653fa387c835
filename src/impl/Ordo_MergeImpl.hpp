// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_MERGEIMPL_HPP
#define ORDO_IMPL_MERGEIMPL_HPP

// Device level of merge and merge_by_key: dispatch by execution space and size.
//   device backends: Ordo::merge::partition (merge path of every tile boundary) then
//                    Ordo::merge::tiles (as many teams as the device holds, each running tiles
//                    one after another, the next one's loads in flight); small inputs: one
//                    launch, Ordo::merge::fused, one team per tile, co-ranking its own tile
//   host backends:   Ordo::merge::host, one merge-path chunk per thread, merged sequentially

#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_TileMerge.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// Values of merge_by_key, gathered once by source index after the keys are merged.
template <class AValues, class BValues, class OutValues>
struct MergeValues {
  using value_type = typename AValues::non_const_value_type;
  AValues a;
  BValues b;
  OutValues out;
  static constexpr bool enabled = true;

  KOKKOS_INLINE_FUNCTION void gather(std::int64_t k, bool from_a, std::int64_t i) const {
    out(k) = from_a ? a(i) : b(i);
  }
};

// The value type of no values (a stand-in).
template <class T>
struct ValuesOf {
  using value_type = T;
};

struct NoValues {
  static constexpr bool enabled = false;
  KOKKOS_INLINE_FUNCTION void gather(std::int64_t, bool, std::int64_t) const {}
};

// Whether pipelined merge tiles stage the values of their A and B ranges in scratch with the keys
// (tile_load_async), so that the stores read them there instead of gathering from global memory.
template <class ExecSpace, class Values>
inline constexpr bool stages_values = false;
template <class ExecSpace, class AValues, class BValues, class OutValues>
inline constexpr bool stages_values<ExecSpace, MergeValues<AValues, BValues, OutValues>> =
    async_tile_loads<ExecSpace, AValues, BValues>;

template <class Values>
struct GatherEmit {
  Values values;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, bool from_a, std::int64_t i) const {
    values.gather(k, from_a, i);
  }
};

// Tiles of team_size * VT outputs. Fused: one team per tile, which co-ranks its tile's ends
// itself. Otherwise the ends come from `part`, written by the partition kernel, and where two
// tiles fit a team's scratch (pipelined) each team runs tiles one after another, loading the next
// while it merges the current one (team_pipeline; part's last word is the tiles' ticket counter),
// else one team a tile.
template <int VT, bool Fused, class ExecSpace, class AView, class BView, class OutView,
          class PartView, class Values, class Comp>
struct MergeTiles {
  using Key = typename OutView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  using KeyTile = Kokkos::View<Key*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using IndexTile = Kokkos::View<int*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Slot = Kokkos::View<std::int64_t*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Tuning = MergeTuning<ExecSpace, sizeof(Key)>;
  using Value = typename std::conditional_t<Values::enabled, Values, ValuesOf<Key>>::value_type;
  static constexpr int team_size = Tuning::team_size;
  static constexpr int tile = team_size * VT;
  // The scratch a team takes for tiles of `count` outputs: `buffers` tiles of keys (16-byte
  // aligned), of values where staged, the sources where values move, and the pipeline's slot.
  static constexpr std::size_t scratch_of(int count, int buffers, bool staged) {
    return buffers * sizeof(Key) * tile_slots<Key>(count) + 16 +
           (staged ? buffers * sizeof(Value) * tile_slots<Value>(count) + 16 : 0) +
           (Values::enabled ? sizeof(int) * count + 16 : 0) +
           (buffers > 1 ? sizeof(std::int64_t) + 16 : 0);
  }
  static constexpr std::size_t scratch_max = ScratchTuning<ExecSpace>::team_max;
  // Pipelined where two tiles fit a team's scratch; values staged where they fit too.
  static constexpr bool pipelined = !Fused && scratch_of(tile, 2, false) <= scratch_max;
  static constexpr bool staged_values =
      pipelined && stages_values<ExecSpace, Values> && scratch_of(tile, 2, true) <= scratch_max;
  static constexpr int min_teams = Tuning::pipeline_min_teams(Values::enabled);
  static constexpr int buffers = pipelined ? 2 : 1;
  using ValueTile = Kokkos::View<Value*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  AView a;
  BView b;
  OutView out;
  PartView part;
  Values values;
  Comp comp;

  static std::size_t scratch_bytes(int threads) {
    return scratch_of(threads * VT, buffers, staged_values);
  }
  std::size_t team_shmem_size(int threads) const { return scratch_bytes(threads); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t tile_size = std::int64_t(member.team_size()) * VT;
    // The tiles start on a 16-byte boundary (tile_store).
    const int slots = tile_slots<Key>(int(tile_size));
    Key* const tiles_scratch = static_cast<Key*>(
        member.team_scratch(0).get_shmem_aligned(buffers * slots * sizeof(Key), 16));
    const int value_slots = tile_slots<Value>(int(tile_size));
    Value* const values_scratch =
        staged_values ? static_cast<Value*>(member.team_scratch(0).get_shmem_aligned(
                            buffers * value_slots * sizeof(Value), 16))
                      : nullptr;
    IndexTile from;
    if constexpr (Values::enabled) from = IndexTile(member.team_scratch(0), tile_size);
    auto tile_of = [&](int buffer) { return KeyTile(tiles_scratch + buffer * slots, slots); };
    auto values_of = [&](int buffer) {
      return ValueTile(values_scratch + buffer * value_slots, value_slots);
    };
    auto merge = [&](std::int64_t id, int buffer, bool staged) {
      const KeyTile tile = tile_of(buffer);
      // (Not a structured binding: C++17 lambdas cannot capture those.)
      const TileRange range = tile_range<Fused>(member, id, tile_size, a, b, part, comp);
      const std::int64_t begin = range.begin, a0 = range.a0;
      const int na = int(range.a1 - a0), nb = range.count - na;
      const std::int64_t b0 = begin - a0;
      // Where the values sit in their tile, where staged (once a tile, not once an output).
      ValueTile value_tile;
      TileLayout vat{0, na};
      if constexpr (staged_values) {
        value_tile = values_of(buffer);
        vat = tile_layout<ExecSpace>(values.a, a0, na, values.b, b0, value_tile);
      }
      auto store = [&](int i, const Key& key, bool from_a, std::int64_t src) {
        out(begin + i) = key;
        if constexpr (staged_values) {
          values.out(begin + i) =
              value_tile(from_a ? vat.a_at + int(src - a0) : vat.b_at + int(src - b0));
        } else {
          values.gather(begin + i, from_a, src);
        }
      };
      if (staged) {
        const TileLayout at = tile_layout<ExecSpace>(a, a0, na, b, b0, tile);
        Key* const keys_out =
            Values::enabled || !is_contiguous_1d_v<OutView> ? nullptr : out.data() + begin;
        team_merge_staged<VT, Values::enabled>(member, a0, na, b0, nb, at, tile, from, comp, store,
                                               keys_out);
      } else {
        team_merge_tile<VT, Values::enabled>(member, a, a0, na, b, b0, nb, tile, from, comp, store);
      }
    };
    if constexpr (!pipelined) {
      merge(member.league_rank(), 0, false);
    } else {
      const std::int64_t tiles = std::int64_t(part.extent(0)) - 2;
      team_pipeline(
          member, &part(tiles + 1), Slot(member.team_scratch(0), 1), tiles,
          [&](std::int64_t id, int buffer) {
            const TileRange range = tile_range<false>(member, id, tile_size, a, b, part, comp);
            const int na = int(range.a1 - range.a0);
            tile_load_async<VT>(member, a, range.a0, na, b, range.begin - range.a0,
                                range.count - na, tile_of(buffer));
            if constexpr (staged_values) {
              tile_load_async<VT>(member, values.a, range.a0, na, values.b, range.begin - range.a0,
                                  range.count - na, values_of(buffer));
            }
          },
          [&](std::int64_t id, int buffer) { merge(id, buffer, true); });
    }
  }
};

template <class AView, class BView, class OutView, class Values, class Comp>
struct MergeHost {
  AView a;
  BView b;
  OutView out;
  Values values;
  std::int64_t chunks;
  Comp comp;

  void operator()(std::int64_t c) const {
    merge_chunk(a, b, out, c, chunks, comp, GatherEmit<Values>{values});
  }
};

// The tiled path, on any backend (host backends run it with their own team size, which tests
// use to check it on CPU). fused selects the single-launch variant.
template <class ExecSpace, class AView, class BView, class OutView, class Values, class Comp>
void merge_tiled(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                 const Values& values, const Comp& comp, bool fused) {
  using Tuning = MergeTuning<ExecSpace, sizeof(typename OutView::non_const_value_type)>;
  constexpr int vt = Tuning::vt;
  using Part = PartitionView<ExecSpace>;
  launch_merge_path_tiles(
      "Ordo::merge", space, a, b, comp, Tuning::team_size, std::int64_t(Tuning::team_size) * vt,
      fused, [&](auto fused_tag, const Part& part) {
        return MergeTiles<vt, decltype(fused_tag)::value, ExecSpace, AView, BView, OutView, Part,
                          Values, Comp>{a, b, out, part, values, comp};
      });
}

template <class ExecSpace, class AView, class BView, class OutView, class Values, class Comp>
void merge_dispatch(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                    const Values& values, const Comp& comp) {
  const std::int64_t total = std::int64_t(a.extent(0)) + std::int64_t(b.extent(0));
  if (total == 0) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    const std::int64_t chunks = host_chunk_count(space, total);
    Kokkos::parallel_for(
        "Ordo::merge::host",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
        MergeHost<AView, BView, OutView, Values, Comp>{a, b, out, values, chunks, comp});
  } else {
    using Tuning = MergeTuning<ExecSpace, sizeof(typename OutView::non_const_value_type)>;
    const std::int64_t tile = std::int64_t(Tuning::team_size) * Tuning::vt;
    merge_tiled(space, a, b, out, values, comp,
                (total + tile - 1) / tile <= Tuning::fused_max_tiles);
  }
}

}  // namespace Ordo::Impl

#endif
