// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TILEMERGE_HPP
#define ORDO_IMPL_TILEMERGE_HPP

// Team level of merge (seed 001's tiled merge kernel, with moderngpu's register-blocked serial
// merge): a tile of outputs whose A and B ranges sit back to back in team scratch, each thread
// co-ranks its own vt outputs inside the tile and merges them in registers.

#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_TileIO.hpp>
#include <impl/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Sequential stable merge of a[a_begin, a_end) and b[b_begin, b_end) into out starting at
// out_begin (seed 001's merge_sequential, taking A on ties). emit(k, from_a, index) is told where
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
};

// Chunk c of `chunks` equal pieces of the merged output: co-rank both ends, merge sequentially.
// Host backends run one chunk per thread; merge_team runs one per team thread.
template <class AView, class BView, class OutView, class Comp, class Emit>
KOKKOS_INLINE_FUNCTION void merge_chunk(const AView& a, const BView& b, const OutView& out,
                                        std::int64_t c, std::int64_t chunks, const Comp& comp,
                                        const Emit& emit) {
  const std::int64_t m = a.extent(0), n = b.extent(0), total = m + n;
  const std::int64_t d0 = chunk_begin(total, chunks, c), d1 = chunk_begin(total, chunks, c + 1);
  const std::int64_t i0 = merge_path<std::int64_t>(a, 0, m, b, 0, n, d0, comp);
  const std::int64_t i1 =
      piece_end(merge_path<std::int64_t>(a, 0, m, b, 0, n, d1, comp), i0, d1 - d0);
  serial_merge(a, i0, i1, b, d0 - i0, d1 - i1, out, d0, comp, emit);
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

}  // namespace Ordo::Impl

#endif
