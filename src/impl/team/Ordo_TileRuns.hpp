// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TEAM_TILERUNS_HPP
#define ORDO_IMPL_TEAM_TILERUNS_HPP

// Team level of the runs of equal keys (launched by device/Ordo_RunsImpl.hpp):
//   SelectRunHead  the first element of each run, a compaction's selection (unique,
//                  unique_by_key: the compaction's tiles of team/Ordo_TileCompact.hpp)
//   EmitKeyValue   what unique_by_key writes for a kept element: its key and its value
//   RunTile        what both agents below share, a team a tile of team_size * vt elements:
//                  staged in scratch with coalesced loads, each thread reducing vt consecutive
//                  ones, a segmented scan of the threads' (heads, open run) pairs and the tile's
//                  prefix from the segmented look-back (the seam's scan_partials and
//                  carry_prefix, team/Ordo_WarpSeam.hpp: on CUDA shuffles and a walk by one warp)
//   RunTiles       reduce_by_key and run_length_encode in one pass: a RunTile, then each run head
//                  writes its key and the value of the run it closes (staging them for coalesced
//                  stores kept every element in registers across the look-back:
//                  perf_tests/README.md, the runs)
//   ScanByKeyTiles inclusive_scan_by_key and exclusive_scan_by_key in one pass: a RunTile, then
//                  each element's scan staged back for coalesced stores

#include <impl/core/Ordo_Traits.hpp>
#include <impl/team/Ordo_Lookback.hpp>
#include <impl/team/Ordo_TileIO.hpp>
#include <impl/team/Ordo_WarpSeam.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Not equal under comp: one orders before the other (both asked, without a branch).
template <class Comp, class T>
KOKKOS_INLINE_FUNCTION bool differs(const Comp& comp, const T& a, const T& b) {
  return bool(comp(a, b)) | bool(comp(b, a));
}

// Equal under comp: neither orders before the other.
template <class Comp, class T>
KOKKOS_INLINE_FUNCTION bool equivalent(const Comp& comp, const T& a, const T& b) {
  return !differs(comp, a, b);
}

// Element i starts a run: it is the first, or not equal to the one before it.
template <class KeyView, class Comp>
struct SelectRunHead {
  KeyView keys;
  Comp comp;
  static constexpr bool by_value = false;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    return i == 0 || differs(comp, keys(i - 1), keys(i));
  }
  // The same for i > 0.
  KOKKOS_INLINE_FUNCTION bool after(std::int64_t i) const {
    return differs(comp, keys(i - 1), keys(i));
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// A key and its value, as one element of a compaction.
template <class K, class V>
struct KeyValue {
  K key;
  V value;
};

// unique_by_key's emitter: keys_out(pos) = keys(i), values_out(pos) = values(i). Elements load
// one at a time (group 1). The capacity is the shorter output's.
template <class KeyView, class ValueView, class KeyOut, class ValueOut>
struct EmitKeyValue {
  using value_type =
      KeyValue<typename KeyView::non_const_value_type, typename ValueView::non_const_value_type>;
  static constexpr int group = 1;
  static constexpr bool stores_in_place = true;
  KeyView keys;
  ValueView values;
  KeyOut keys_out;
  ValueOut values_out;
  bool aligned() const { return false; }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const {
    return keys_out.extent(0) < values_out.extent(0) ? keys_out.extent(0) : values_out.extent(0);
  }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const { return {keys(i), values(i)}; }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    for (int g = 0; g < G; ++g) v[g] = load(i + g);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const {
    keys_out(pos) = v.key;
    values_out(pos) = v.value;
  }
};

// A partial reduction of a thread's elements: how many run heads they hold and the value of their
// open run (after the last head, or of all of them without one).
template <class V>
struct RunPartial {
  int heads;
  V value;
};

// The partials of two adjacent stretches, a then b, as one.
template <class V, class Op>
KOKKOS_INLINE_FUNCTION RunPartial<V> combine(const Op& op, const RunPartial<V>& a,
                                             const RunPartial<V>& b) {
  return {a.heads + b.heads, b.heads > 0 ? b.value : op(a.value, b.value)};
}

// A run tile's elements base + [0, count) staged with coalesced loads: the keys into
// key_tile(1, count + 1) (key_tile(0): the key before the tile, where there is one), the values of
// source into value_tile; then a team barrier.
template <int VT, class Member, class KeyView, class Source, class KeyTile, class ValueTile>
KOKKOS_INLINE_FUNCTION void stage_run_tile(const Member& member, const KeyView& keys,
                                           const Source& source, std::int64_t base, int count,
                                           const KeyTile& key_tile, const ValueTile& value_tile) {
  using Key = typename KeyTile::non_const_value_type;
  using V = typename ValueTile::non_const_value_type;
  auto key_at = [&](int i) -> Key { return keys(base + i); };
  auto value_at = [&](int i) -> V { return source(base + i); };
  tile_stage<VT>(member, count, key_at, KeyTile(key_tile.data() + 1, key_tile.extent(0) - 1));
  tile_stage<VT>(member, count, value_at, value_tile);
  if (member.team_rank() == 0 && base > 0) key_tile(0) = keys(base - 1);
  member.team_barrier();
}

// Whether tile element i starts a run: it is element 0 of the input (first_of_input; -1 where the
// tile does not hold it) or differs from the element before it (key_tile(i + 1): element i's key,
// key_tile(0) the key before the tile).
template <class KeyTile, class Comp>
KOKKOS_INLINE_FUNCTION bool tile_head(const KeyTile& key_tile, const Comp& comp, int i,
                                      int first_of_input) {
  return i == first_of_input || !equivalent(comp, key_tile(i), key_tile(i + 1));
}

// The partial of this thread's VT consecutive elements of the tile, from `first` on, read from
// scratch.
template <int VT, class KeyTile, class ValueTile, class Comp, class Op>
KOKKOS_INLINE_FUNCTION auto thread_partial(int first, int count, int first_of_input,
                                           const KeyTile& key_tile, const ValueTile& value_tile,
                                           const Comp& comp, const Op& op) {
  using V = typename ValueTile::non_const_value_type;
  RunPartial<V> mine{0, V()};
  ORDO_UNROLL
  for (int j = 0; j < VT; ++j) {
    const int i = first + j;
    if (i < count) {
      const V v = value_tile(i);
      const bool head = tile_head(key_tile, comp, i, first_of_input);
      mine.heads += head ? 1 : 0;
      mine.value = head || j == 0 ? v : op(mine.value, v);
    }
  }
  return mine;
}

// What a thread learns from its team's segmented scan (scan_run_partials): the run heads before
// its first element in the tile and in the whole tile, the heads before the tile (the tile's
// prefix), and the value of the run open at its first element (unset at element 0).
template <class V>
struct RunScan {
  int before_heads, tile_heads;
  std::int64_t prefix;
  V running;
};

// The team's segmented scan of its threads' partials, then the tile's prefix from the look-back:
// the seam's scan_partials and carry_prefix (team/Ordo_WarpSeam.hpp). last_thread: the last
// thread that holds an element. scan_heads and scan_values: Team + 1 slots of scratch,
// prefix_slot one.
template <class Seam, int Team, int Window, class Member, class V, class Op, class Heads,
          class Values, class Prefix, class Words, class Carries>
KOKKOS_INLINE_FUNCTION RunScan<V> scan_run_partials(const Member& member, std::int64_t id,
                                                    int last_thread, RunPartial<V> mine,
                                                    const Heads& scan_heads,
                                                    const Values& scan_values,
                                                    const Prefix& prefix_slot, const Words& words,
                                                    const Carries& carries, const Op& op) {
  const int r = member.team_rank();
  RunPartial<V> before{0, V()}, tile{0, V()};
  const auto join = [&](const RunPartial<V>& a, const RunPartial<V>& b) {
    return combine(op, a, b);
  };
  Seam::template scan_partials<Team>(member, last_thread, mine, join, scan_heads, scan_values,
                                     before, tile);
  // The tile's prefix: the heads before it and the open run's value at its start (thread 0's).
  V carry_in{};
  const std::int64_t heads_before = Seam::template carry_prefix<Window>(
      r, id, tile.heads, tile.value, words, carries, op, carry_in);
  if (r == 0) {
    prefix_slot(0) = heads_before;
    scan_values(Team) = carry_in;
  }
  member.team_barrier();
  const V carry = scan_values(Team);
  // The open run's value at this thread's first element (unset at element 0).
  const V running = r == 0                        ? carry
                    : before.heads == 0 && id > 0 ? op(carry, before.value)
                                                  : before.value;
  return {before.heads, tile.heads, prefix_slot(0), running};
}

// What RunTiles and ScanByKeyTiles share, a team a tile of Team * VT elements on the team seam
// Seam: the tile's keys (one more: the key before it) and values staged in scratch, each thread's
// partial of its VT consecutive elements, the team's scan of them and the tile's prefix from the
// segmented look-back. Source: the value of element i (values(i), or 1 for run_length_encode) as
// V; Op: the reduction.
template <class Seam, int Team, int VT, int Window, class ExecSpace, class KeyView, class Source,
          class V, class Op, class Comp, class Words, class Carries>
struct RunTile {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Key = typename KeyView::non_const_value_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  template <class T>
  using Tile = Kokkos::View<T*, Scratch, Kokkos::MemoryUnmanaged>;
  static constexpr int team = Team, vt = VT, tile = Team * VT;

  KeyView keys;
  Source source;
  Op op;
  Comp comp;
  Words words;  // words(t): tile t's look-back word; words(tiles): the ticket counter
  Carries carries;
  std::int64_t n, tiles;

  // A team's tile after the scan: its scratch, where it lies and what the thread learnt.
  struct Scanned {
    Tile<Key> keys;  // keys(i + 1): element i; keys(0): the key before the tile
    Tile<V> values;
    std::int64_t id, base;
    int count, first;    // the tile's elements; the thread's first
    int first_of_input;  // 0 where the tile holds element 0 (a head), else -1
    RunScan<V> scan;
  };

  // The staged keys and values, then the team's scan and the tile's prefix.
  static std::size_t scratch_bytes() {
    return Tile<Key>::shmem_size(tile + 1) + Tile<V>::shmem_size(tile) +
           Tile<int>::shmem_size(Team + 1) + Tile<V>::shmem_size(Team + 1) +
           Tile<std::int64_t>::shmem_size(1);
  }

  KOKKOS_FUNCTION Scanned scan(const Member& member) const {
    Scanned t{Tile<Key>(member.team_scratch(0), tile + 1), Tile<V>(member.team_scratch(0), tile)};
    const Tile<int> scan_heads(member.team_scratch(0), Team + 1);
    const Tile<V> scan_values(member.team_scratch(0), Team + 1);
    const Tile<std::int64_t> prefix_slot(member.team_scratch(0), 1);
    t.id = tiles == 1 ? 0 : tile_lookback(words).ticket(member, tiles);
    t.base = t.id * tile;
    t.count = int(n - t.base < tile ? n - t.base : tile);
    t.first = member.team_rank() * VT;
    t.first_of_input = t.base == 0 ? 0 : -1;
    stage_run_tile<VT>(member, keys, source, t.base, t.count, t.keys, t.values);
    t.scan = scan_run_partials<Seam, Team, Window>(
        member, t.id, (t.count - 1) / VT,
        thread_partial<VT>(t.first, t.count, t.first_of_input, t.keys, t.values, comp, op),
        scan_heads, scan_values, prefix_slot, words, carries, op);
    return t;
  }
};

// reduce_by_key and run_length_encode: a RunTile a team (tiles in ticket order), then each run
// head writes its key and the value of the run it closes; keys_out(r), values_out(r): run r's key
// and value, dropped at r >= their extents; total(0): the number of runs, written by the last
// tile.
template <class Run, class KeyOut, class ValueOut, class TotalView>
struct RunTiles {
  using Member = typename Run::Member;
  Run run;
  KeyOut keys_out;
  ValueOut values_out;
  TotalView total;

  static std::size_t scratch_bytes() { return Run::scratch_bytes(); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const auto t = run.scan(member);
    const int last_of_input = t.id == run.tiles - 1 ? t.count - 1 : -1;  // element n - 1 if here
    // Each head writes its key and the value of the run it closes; the input's last element closes
    // the last run.
    const std::int64_t key_end = keys_out.extent(0), value_end = values_out.extent(0);
    std::int64_t q = t.scan.prefix + t.scan.before_heads;  // the run of this thread's first element
    auto running = t.scan.running;
    ORDO_UNROLL
    for (int j = 0; j < Run::vt; ++j) {
      const int i = t.first + j;
      if (i < t.count) {
        const auto v = t.values(i);
        const bool h = tile_head(t.keys, run.comp, i, t.first_of_input);
        if (h && i != t.first_of_input && q - 1 < value_end) values_out(q - 1) = running;
        if (h && q < key_end) keys_out(q) = t.keys(i + 1);
        q += h ? 1 : 0;
        running = h ? v : run.op(running, v);
        if (i == last_of_input && q - 1 < value_end) values_out(q - 1) = running;
      }
    }
    if (last_of_input >= 0 && member.team_rank() == 0) {
      total(0) = typename TotalView::non_const_value_type(t.scan.prefix + t.scan.tile_heads);
    }
  }
};

// inclusive_scan_by_key and exclusive_scan_by_key in one pass, a RunTile a team: out(base + i) for
// the tile's elements, staged in scratch for coalesced stores. The scan restarts at each head.
// Exclusive: out(i) is init at a head, else the reduction of init and the run's elements before i
// (Source folds init into each head's value, ScanSource).
template <class Run, class OutView, class V>
struct ScanByKeyTiles {
  using Member = typename Run::Member;
  Run run;
  OutView out;
  V init;
  bool exclusive;

  static std::size_t scratch_bytes() { return Run::scratch_bytes(); }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const auto t = run.scan(member);
    // Each element's scan over its own slot (no other thread reads it).
    V running = t.scan.running;
    ORDO_UNROLL
    for (int j = 0; j < Run::vt; ++j) {
      const int i = t.first + j;
      if (i < t.count) {
        const V v = t.values(i), before = running;
        const bool head = tile_head(t.keys, run.comp, i, t.first_of_input);
        running = head ? v : run.op(running, v);
        t.values(i) = !exclusive ? running : head ? init : before;
      }
    }
    member.team_barrier();
    for (int i = member.team_rank(); i < t.count; i += Run::team) out(t.base + i) = t.values(i);
  }
};

}  // namespace Ordo::Impl

#endif
