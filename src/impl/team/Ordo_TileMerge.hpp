// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILEMERGE_HPP
#define ORDO_IMPL_TILEMERGE_HPP

// Team level of merge (the tiled merge-path kernel, with a register-blocked serial
// merge): a tile of outputs whose A and B ranges sit back to back in team scratch, each thread
// co-ranks its own vt outputs inside the tile and merges them in registers.

#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_TileRange.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Sequential stable merge of a[a_begin, a_end) and b[b_begin, b_end) into out starting at
// out_begin (taking A on ties). emit(k, from_a, index) is told where
// each output came from, for algorithms that carry values.
template <class AView, class BView, class OutView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void serial_merge(const AView& a, std::int64_t a_begin, std::int64_t a_end,
                                         const BView& b, std::int64_t b_begin, std::int64_t b_end,
                                         const OutView& out, std::int64_t out_begin,
                                         const Comp& comp, const Emit& emit) {
  std::int64_t k = out_begin;
  while (a_begin < a_end && b_begin < b_end) {
    if (comp(b(b_begin), a(a_begin))) {
      emit(k, false, b_begin);
      out(k++) = b(b_begin++);
    } else {
      emit(k, true, a_begin);
      out(k++) = a(a_begin++);
    }
  }
  for (; a_begin < a_end; ++a_begin) {
    emit(k, true, a_begin);
    out(k++) = a(a_begin);
  }
  for (; b_begin < b_end; ++b_begin) {
    emit(k, false, b_begin);
    out(k++) = b(b_begin);
  }
}

struct NoEmit {
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t, bool, std::int64_t) const {}
  void select(std::int64_t, std::int64_t, std::int64_t, bool) const {}
};

// Where chunk c of `chunks` equal pieces of the merged output lies: outputs [d0, d1), A's
// [i0, i1) (i1 held against i0: inputs that are not sorted) and B's [d0 - i0, d1 - i1).
struct MergeChunk {
  std::int64_t d0, d1, i0, i1;
};

template <class AView, class BView, class Comp>
KOKKOS_INLINE_FUNCTION MergeChunk merge_chunk_ranks(const AView& a, const BView& b, std::int64_t c,
                                                    std::int64_t chunks, const Comp& comp) {
  const std::int64_t m = a.extent(0), n = b.extent(0), total = m + n;
  const std::int64_t d0 = chunk_begin(total, chunks, c), d1 = chunk_begin(total, chunks, c + 1);
  const std::int64_t i0 = merge_path<std::int64_t>(a, 0, m, b, 0, n, d0, comp);
  const std::int64_t i1 =
      piece_end(merge_path<std::int64_t>(a, 0, m, b, 0, n, d1, comp), i0, d1 - d0);
  return {d0, d1, i0, i1};
}

// Chunk c of `chunks` equal pieces of the merged output: co-rank both ends, merge sequentially.
// merge_team runs one per team thread; host backends interleave several (below).
template <class AView, class BView, class OutView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void merge_chunk(const AView& a, const BView& b, const OutView& out,
                                        std::int64_t c, std::int64_t chunks, const Comp& comp,
                                        const Emit& emit) {
  const MergeChunk r = merge_chunk_ranks(a, b, c, chunks, comp);
  serial_merge(a, r.i0, r.i1, b, r.d0 - r.i0, r.d1 - r.i1, out, r.d0, comp, emit);
}

// The pieces of the host's interleaved walks (merge_chunk_interleaved, search_chunk_interleaved,
// set_chunk_interleaved): chunk c of `chunks` cut into Ways equal pieces, each co-ranked as
// merge_chunk co-ranks one (the set operations cut theirs on the balanced path and fill them in);
// piece w stands at (i[w], j[w]) of A's [.., i_end[w]) and B's [.., j_end[w]). The walks take
// their pieces' steps in lockstep, `lockstep()` steps at a time: as many as every piece has
// elements left on both inputs (so no step reads past a piece's ends), 0 once that is below
// `tail`; the rest of each piece then walks one step at a time.
template <int Ways>
struct InterleavedPieces {
  static constexpr std::int64_t tail = 16;
  std::int64_t i[Ways], i_end[Ways], j[Ways], j_end[Ways];

  InterleavedPieces() = default;
  template <class AView, class BView, class Comp>
  InterleavedPieces(const AView& a, const BView& b, std::int64_t c, std::int64_t chunks,
                    const Comp& comp) {
    for (int w = 0; w < Ways; ++w) {
      const MergeChunk r = merge_chunk_ranks(a, b, c * Ways + w, chunks * Ways, comp);
      i[w] = r.i0;
      i_end[w] = r.i1;
      j[w] = r.d0 - r.i0;
      j_end[w] = r.d1 - r.i1;
    }
  }

  std::int64_t lockstep() const {
    std::int64_t steps = i_end[0] - i[0];
    for (int w = 0; w < Ways; ++w) {
      steps = Kokkos::min(steps, Kokkos::min(i_end[w] - i[w], j_end[w] - j[w]));
    }
    return steps < tail ? 0 : steps;
  }
};

// Chunk c of `chunks` as Ways walks interleaved (host backends, InterleavedPieces): the pieces'
// steps in lockstep with no branch on the comparison (the values too: emit.select reads both
// candidates and stores one), so that a core overlaps the pieces' loads where a single walk waits
// on each comparison before its next load; the rest of each piece runs through serial_merge.
template <int Ways, class AView, class BView, class OutView, class Comp, class Emit>
inline void merge_chunk_interleaved(const AView& a, const BView& b, const OutView& out,
                                    std::int64_t c, std::int64_t chunks, const Comp& comp,
                                    const Emit& emit) {
  InterleavedPieces<Ways> p(a, b, c, chunks, comp);
  auto &i = p.i, &j = p.j;
  std::int64_t k[Ways];
  for (int w = 0; w < Ways; ++w) k[w] = i[w] + j[w];
  while (const std::int64_t steps = p.lockstep()) {
    for (std::int64_t s = 0; s < steps; ++s) {
      for (int w = 0; w < Ways; ++w) {
        const auto x = a(i[w]);
        const auto y = b(j[w]);
        const bool take_b = comp(y, x);
        emit.select(k[w], i[w], j[w], take_b);
        out(k[w]++) = take_b ? y : x;
        i[w] += !take_b;
        j[w] += take_b;
      }
    }
  }
  for (int w = 0; w < Ways; ++w) {
    serial_merge(a, i[w], p.i_end[w], b, j[w], p.j_end[w], out, k[w], comp, emit);
  }
}

// Register-blocked serial merge: from tile positions ai (in A = tile[0, a_end)) and bi (in
// B = tile[a_end, b_end)) take `count` <= VT outputs into keys[], and where each came from
// (its tile position) into src[]. A ends at or before B's start; reads stay inside tile[0, b_end],
// which holds b_end + 1 slots.
template <int VT, class TileView, class Key, class Comp>
KOKKOS_INLINE_FUNCTION void tile_serial_merge(const TileView& tile, int ai, int a_end, int bi,
                                              int b_end, int count, const Comp& comp,
                                              Key (&keys)[VT], int (&src)[VT]) {
  Key ak = tile(ai), bk = tile(bi);
  ORDO_UNROLL
  for (int k = 0; k < VT; ++k) {
    if (k < count) {
      const bool take_a = ai < a_end && (bi >= b_end || !comp(bk, ak));
      keys[k] = take_a ? ak : bk;
      src[k] = take_a ? ai : bi;
      if (take_a) {
        ak = tile(++ai);
      } else {
        bk = tile(++bi);
      }
    }
  }
}

// A thread's `mine` merged outputs (and with WithFrom their sources) back to tile positions
// [diag, diag + mine).
template <int VT, bool WithFrom, class TileView, class FromView, class Key>
KOKKOS_INLINE_FUNCTION void tile_write_back(const TileView& tile, const FromView& from, int diag,
                                            int mine, const Key (&keys)[VT], const int (&src)[VT]) {
  ORDO_UNROLL
  for (int k = 0; k < VT; ++k) {
    if (k < mine) tile(diag + k) = keys[k];
  }
  if constexpr (WithFrom) {
    ORDO_UNROLL
    for (int k = 0; k < VT; ++k) {
      if (k < mine) from(diag + k) = src[k];
    }
  }
}

// The team merges one tile: outputs [0, na + nb) from A = a[a0, a0 + na) and
// B = b[b0, b0 + nb), staged in `tile` (tile_slots(na + nb) slots); with WithFrom (values move),
// `from` (na + nb slots) records each output's tile source. store(i, key, from_a, index) is called
// once per output i with the key and, with WithFrom, where it came from (index into a or b;
// otherwise from_a is true and index a0); consecutive threads take consecutive i. On return
// tile(0, na + nb) holds the merged keys. team_merge_staged: the same once A and B are in `tile`
// where `at` says (tile_load_async, awaited), without the load; given `out` (keys only), it stores
// the merged keys there (tile_store) instead of calling store.
template <int VT, bool WithFrom, class Member, class TileView, class FromView, class Comp,
          class Store>
KOKKOS_INLINE_FUNCTION void team_merge_staged(
    const Member& member, std::int64_t a0, int na, std::int64_t b0, int nb, TileLayout at,
    const TileView& tile, const FromView& from, const Comp& comp, const Store& store,
    typename TileView::non_const_value_type* out = nullptr) {
  using Key = typename TileView::non_const_value_type;
  const int t = opaque(member.team_rank()), count = na + nb;
  // Merge path inside the tile: this thread's outputs are [diag, diag + mine).
  const int diag = t * VT < count ? t * VT : count;
  const int mine = count - diag < VT ? count - diag : VT;
  const int ai = merge_path<int>(tile, at.a_at, na, tile, at.b_at, nb, diag, comp);
  Key keys[VT];
  int src[VT];
  tile_serial_merge<VT>(tile, at.a_at + ai, at.a_at + na, at.b_at + diag - ai, at.b_at + nb, mine,
                        comp, keys, src);
  member.team_barrier();

  // Back through scratch for coalesced stores.
  tile_write_back<VT, WithFrom>(tile, from, diag, mine, keys, src);
  member.team_barrier();
  if (!WithFrom && out != nullptr) {
    tile_store(member, tile, count, out);
    return;
  }
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, count), [&](int i) {
    if constexpr (WithFrom) {
      const int s = from(i);
      store(i, tile(i), s < at.b_at, s < at.b_at ? a0 + (s - at.a_at) : b0 + (s - at.b_at));
    } else {
      store(i, tile(i), true, a0);
    }
  });
}

template <int VT, bool WithFrom, class Member, class AView, class BView, class TileView,
          class FromView, class Comp, class Store>
KOKKOS_INLINE_FUNCTION void team_merge_tile(const Member& member, const AView& a, std::int64_t a0,
                                            int na, const BView& b, std::int64_t b0, int nb,
                                            const TileView& tile, const FromView& from,
                                            const Comp& comp, const Store& store) {
  tile_load<VT>(member, a, a0, na, b, b0, nb, tile);
  member.team_barrier();
  team_merge_staged<VT, WithFrom>(member, a0, na, b0, nb, TileLayout{0, na}, tile, from, comp,
                                  store);
}

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
  // The same without a branch on where it comes from: both candidates a(i) and b(j) are read.
  void select(std::int64_t k, std::int64_t i, std::int64_t j, bool take_b) const {
    const value_type x = a(i), y = b(j);
    out(k) = take_b ? y : x;
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
  void select(std::int64_t, std::int64_t, std::int64_t, bool) const {}
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
  void select(std::int64_t k, std::int64_t i, std::int64_t j, bool take_b) const {
    values.select(k, i, j, take_b);
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

}  // namespace Ordo::Impl

#endif
