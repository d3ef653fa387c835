#ifndef ORDO_IMPL_SORTIMPL_HPP
#define ORDO_IMPL_SORTIMPL_HPP

// Device level of sort (seed 003 and its hybrid with merge path):
//   Ordo::sort::blocks         one team per block of SortTuning's slabs: load (transposed for
//                              full blocks), the slab network (CUDA seam from registers, or the
//                              portable team network in scratch), store in order
//   Ordo::sort::stream::flip   streaming merge levels (smaller sorts, SortTuning's
//   Ordo::sort::stream::half   stream_levels): the flip merge of groups of 2, 4, ... blocks over
//                              global memory, each thread merging a column of the group in
//                              registers (flip and half merges down to one block apart), then
//                              the half merges inside every block (the block kernel's shape)
//   Ordo::sort::merge::*       merge passes, each doubling the sorted run length, with the
//                              merge-path tiles of merge (partition + tiles, or fused for few
//                              tiles); the last pass writes the caller's Views
//   Ordo::sort::host::*        host backends: the standard library sorts one chunk per thread,
//                              then merge-path merges of chunk pairs use every thread
// Records flow from a source (the caller's keys, encoded, with their values, input positions or
// nothing) through workspace buffers to a sink (the caller's Views, decoded).

#include <impl/Ordo_MergePath.hpp>
#include <impl/Ordo_Slab.hpp>
#include <impl/Ordo_SlabTeam.hpp>
#include <impl/Ordo_SortKeys.hpp>
#include <impl/Ordo_TileMerge.hpp>
#include <impl/Ordo_Traits.hpp>
#include <impl/Ordo_Tuning.hpp>
#include <impl/Ordo_Workspace.hpp>
#include <impl/cuda/Ordo_Cuda_Slab.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// ---- record ends -----------------------------------------------------------------------------

// Keys: the caller's View through the codec, a workspace buffer of encoded keys, or discarded
// (sort_permutation leaves the caller's keys as they are).
template <class Codec, class View>
struct CodecKeys {
  View view;
  KOKKOS_INLINE_FUNCTION typename Codec::Bits load(std::int64_t i) const {
    return Codec::encode(view(i));
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, const typename Codec::Bits& k) const {
    view(i) = Codec::decode(k);
  }
};

template <class View>
struct PlainEnd {
  View view;
  KOKKOS_INLINE_FUNCTION typename View::non_const_value_type load(std::int64_t i) const {
    return view(i);
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, const T& x) const {
    view(i) = x;
  }
};

struct NoEnd {
  KOKKOS_INLINE_FUNCTION NoValue load(std::int64_t) const { return {}; }
  template <class T>
  KOKKOS_INLINE_FUNCTION void store(std::int64_t, const T&) const {}
};

// Values that are the input positions (stable sorts, sort_permutation); stored to an index View.
template <class View>
struct PositionValues {
  View view;
  KOKKOS_INLINE_FUNCTION std::uint32_t load(std::int64_t i) const { return std::uint32_t(i); }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, std::uint32_t p) const {
    view(i) = typename View::non_const_value_type(p);
  }
};

template <class Keys, class Values>
struct Ends {
  Keys keys;
  Values values;
};

// The padding value of a register slot: the largest value of integral types (stable sorts order
// by position after the key, so padding sorts after every element), anything otherwise.
template <class V>
KOKKOS_INLINE_FUNCTION V padding_value() {
  if constexpr (std::is_integral_v<V>) {
    using U = std::make_unsigned_t<V>;
    return V(U(~U(0)) >> (std::is_signed_v<V> ? 1 : 0));
  } else {
    return V{};
  }
}

// The element type of a value buffer (char where no values move: such buffers stay empty).
template <class V>
using StoredValue = std::conditional_t<std::is_same_v<V, NoValue>, char, V>;

// ---- block kernels ---------------------------------------------------------------------------

template <class ExecSpace, class K, class V>
struct SortTypes {
  using Tuning = SortTuning<ExecSpace, sizeof(K), std::is_same_v<V, NoValue> ? 0 : sizeof(V)>;
  static constexpr std::int64_t block = std::int64_t(Tuning::slabs) * Tuning::lanes * Tuning::regs;
};

// Portable: the team network of Ordo_SlabTeam.hpp in padded scratch. HalfMerge: the end of a
// streaming merge level (records in position order, half merges only) instead of a block sort.
template <bool HalfMerge, class ExecSpace, class K, class V, class Source, class Sink, class Order>
struct SortBlocks {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  Source source;
  Sink sink;
  Order order;
  std::int64_t n, block;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t base = member.league_rank() * block;
    const std::int64_t count = n - base < block ? n - base : block;
    const auto tile = ScratchTile<K, V>::allocate(member, block);
    Kokkos::parallel_for(Kokkos::TeamVectorRange(member, block), [&](std::int64_t e) {
      const std::int64_t g =
          load_offset<Tuning::lanes, Tuning::regs>(e, !HalfMerge && count == block);
      if (g < count) tile.set(e, source.keys.load(base + g), source.values.load(base + g));
    });
    member.team_barrier();
    if constexpr (HalfMerge) {
      team_block_half_merge<Tuning::lanes, Tuning::regs, K, V>(member, tile, block, count, order);
    } else {
      team_block_sort<Tuning::lanes, Tuning::regs, true, K, V>(member, tile, block, count, order);
    }
    store_tile<K, V>(member, tile, sink, base, count);
  }
};

#if defined(ORDO_CUDA_SLAB)
// CUDA seam: each warp loads its slab into registers, block_sort, coalesced store from scratch.
// HalfMerge: the block goes to scratch in position order (padding: the all-ones word) for
// block_half_merge.
template <bool HalfMerge, class K, class V, class Source, class Sink, class Order>
struct SortBlocksSeam {
  using Member = Kokkos::TeamPolicy<Kokkos::Cuda>::member_type;
  using Tuning = typename SortTypes<Kokkos::Cuda, K, V>::Tuning;
  static constexpr int R = Tuning::regs;
  Source source;
  Sink sink;
  Order order;
  std::int64_t n, block;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
#if defined(__CUDA_ARCH__)
    const std::int64_t base = member.league_rank() * block;
    const std::int64_t count = n - base < block ? n - base : block;
    const auto tile = ScratchTile<K, V>::allocate(member, block);
    const int thread = CudaSeam::team_thread();
    K k[R];
    V v[R];
    // Record g of the block into registers; padding: the all-ones word.
    auto load = [&](int r, std::int64_t g) {
      if (g < count) {
        k[r] = source.keys.load(base + g);
        v[r] = source.values.load(base + g);
      } else {
        k[r] = ~K(0);
        v[r] = padding_value<V>();
      }
    };
    if constexpr (HalfMerge) {
      // Coalesced rows through registers (all R loads in flight before the scratch stores).
      const int threads = member.team_size();
#pragma unroll
      for (int r = 0; r < R; ++r) load(r, r * threads + thread);
#pragma unroll
      for (int r = 0; r < R; ++r) tile.set(r * threads + thread, k[r], v[r]);
      member.team_barrier();
      CudaSeam::block_half_merge<Tuning::slabs, R, K, V>(tile, block / (32 * R), order);
    } else {
      const int first = CudaSeam::slab_first<R>(thread);
#pragma unroll
      for (int r = 0; r < R; ++r) load(r, load_offset<32, R>(first + r, count == block));
      CudaSeam::block_sort<Tuning::slabs>(k, v, tile, block / (32 * R), order);
    }
    store_tile<K, V>(member, tile, sink, base, count);
#else
    (void)member;
#endif
  }
};
#endif

// Slabs per block: SortTuning's, or as few as hold all n records when one block does (a small
// sort's one team then runs a shorter network with fewer warps).
template <class Tuning>
std::int64_t block_slabs(std::int64_t n) {
  constexpr std::int64_t slab = std::int64_t(Tuning::lanes) * Tuning::regs;
  const std::int64_t fit = network_size(n, slab) / slab;
  return fit < Tuning::slabs ? fit : Tuning::slabs;
}

// The block kernel (HalfMerge: the end of a streaming merge level) over n records.
template <bool HalfMerge, class ExecSpace, class K, class V, class Source, class Sink, class Order>
void sort_blocks(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                 const Order& order, bool seam) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  const std::int64_t slabs = block_slabs<Tuning>(n);
  const std::int64_t block = slabs * Tuning::lanes * Tuning::regs;
  const std::int64_t blocks = (n + block - 1) / block;
  const std::size_t bytes = ScratchTile<K, V>::bytes(block);
  const char* label = HalfMerge ? "Ordo::sort::stream::half" : "Ordo::sort::blocks";
  with_warp_seam<ExecSpace>(seam, [&](auto use_seam) {
    if constexpr (decltype(use_seam)::value && std::is_unsigned_v<K>) {
#if defined(ORDO_CUDA_SLAB)
      Kokkos::parallel_for(
          label,
          Kokkos::TeamPolicy<ExecSpace>(space, blocks, int(slabs) * 32)
              .set_scratch_size(0, Kokkos::PerTeam(bytes)),
          SortBlocksSeam<HalfMerge, K, V, Source, Sink, Order>{source, sink, order, n, block});
#endif
    } else {
      Kokkos::parallel_for(label,
                           Kokkos::TeamPolicy<ExecSpace>(space, blocks, int(slabs), Tuning::lanes)
                               .set_scratch_size(0, Kokkos::PerTeam(bytes)),
                           SortBlocks<HalfMerge, ExecSpace, K, V, Source, Sink, Order>{
                               source, sink, order, n, block});
    }
  });
}

// ---- streaming merge levels ---------------------------------------------------------------

// The flip merge of groups of G sorted-by-half blocks over global memory (in place), with the
// level's half merges down to one block apart: column q of a group holds position q of each block
// of its first half and position block - 1 - q of each block of its second half (the multi-slab
// column of the CUDA seam, with blocks for slabs), so every pair of those stages lies in one
// column, which one thread merges in registers. Consecutive threads take consecutive columns:
// coalesced loads and stores (descending in the second half). Pairs whose upper position is at or
// after n are skipped (padding never moves).
template <int G, class ExecSpace, class K, class V, class Records, class Order>
struct SortStreamFlip {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Records records;
  Order order;
  std::int64_t n, block, columns;  // columns: per team

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const std::int64_t first = member.league_rank() * columns;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(member, columns), [&](std::int64_t i) {
      const std::int64_t c = first + i, q = c % block, base = c / block * (G * block);
      auto pos = [&](int t) { return column_position<true>(base, t, G, block, q); };
      K k[G];
      V v[G];
      ORDO_UNROLL
      for (int t = 0; t < G; ++t) {
        if (pos(t) < n) {
          k[t] = records.keys.load(pos(t));
          v[t] = records.values.load(pos(t));
        }
      }
      column_merge<G, true>(k, v, order, [&](int t) { return pos(t) < n; });
      ORDO_UNROLL
      for (int t = 0; t < G; ++t) {
        if (pos(t) < n) {
          records.keys.store(pos(t), k[t]);
          records.values.store(pos(t), v[t]);
        }
      }
    });
  }
};

// Streaming merge levels that sorts of n records run (SortTuning's stream_levels, or the tuning
// experiment's override), at most log2(stream_max_group).
template <class Tuning>
int stream_levels(std::int64_t n) {
  constexpr int most = [] {
    int log2 = 0;
    while ((2 << log2) <= Tuning::stream_max_group) ++log2;
    return log2;
  }();
  const int levels =
      sort_stream_levels_experiment >= 0 ? sort_stream_levels_experiment : Tuning::stream_levels(n);
  return levels < most ? levels : most;
}

// The flip kernel of a streaming level of `group` blocks (instantiated for G = 2, 4, ...,
// SortTuning::stream_max_group).
template <int G, class ExecSpace, class K, class V, class Records, class Order>
void stream_flip(const ExecSpace& space, std::int64_t n, std::int64_t block, int group,
                 const Records& records, const Order& order) {
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  if constexpr (G <= Tuning::stream_max_group) {
    if (group != G) {
      stream_flip<2 * G, ExecSpace, K, V>(space, n, block, group, records, order);
      return;
    }
    constexpr std::int64_t threads = std::int64_t(Tuning::slabs) * Tuning::lanes;
    const std::int64_t columns = (n + G * block - 1) / (G * block) * block;
    Kokkos::parallel_for(
        "Ordo::sort::stream::flip",
        Kokkos::TeamPolicy<ExecSpace>(space, (columns + threads - 1) / threads, int(threads)),
        SortStreamFlip<G, ExecSpace, K, V, Records, Order>{records, order, n, block, threads});
  }
}

// ---- merge passes ----------------------------------------------------------------------------

// View-like access to a[offset, ...).
template <class View>
struct Shifted {
  View view;
  std::int64_t offset;
  KOKKOS_INLINE_FUNCTION decltype(auto) operator()(std::int64_t i) const {
    return view(offset + i);
  }
};

// A merge pass over n records merges groups of Ways runs of `run` records (run r of a group at
// a0 + r * run, the last runs short or empty), and cuts each group's output into per_group tiles
// of `tile` records (tiles never straddle groups). Tile indices and per_group fit 32 bits (sorts
// hold fewer than 2^32 records), so that every tile finds its group with a 32-bit division
// instead of 64-bit ones.
struct PassShape {
  std::int64_t n, run;
  int ways, tile, per_group;
  PassShape(std::int64_t n_, std::int64_t run_, int ways_, int tile_)
      : n(n_),
        run(run_),
        ways(ways_),
        tile(tile_),
        per_group(int((ways_ * run_ + tile_ - 1) / tile_)) {}
  std::int64_t tiles() const { return (n + ways * run - 1) / (ways * run) * per_group; }
};

// Tile t of a merge pass of Ways runs a group: the group's runs hold len[r] records from
// a0 + r * run, the tile's outputs are [a0 + diag, a0 + diag + count) (count <= 0: nothing to do).
template <int Ways>
struct PassTile {
  std::int64_t a0, len[Ways], diag, count;
  bool last;  // the group's last tile
  KOKKOS_INLINE_FUNCTION PassTile(int t, const PassShape& s) {
    const int group = t / s.per_group;
    a0 = std::int64_t(group) * (Ways * s.run);
    std::int64_t total = 0;
    ORDO_UNROLL
    for (int r = 0; r < Ways; ++r) {
      const std::int64_t rest = s.n - (a0 + r * s.run);
      len[r] = rest <= 0 ? 0 : (rest < s.run ? rest : s.run);
      total += len[r];
    }
    diag = std::int64_t(t - group * s.per_group) * s.tile;
    count = total - diag < s.tile ? total - diag : s.tile;
    last = diag + count >= total;
  }
};

// Co-rank (in its pair) of tile t's first output; from the samples of the runs (SortTuning's
// partition_sample: samples(u) = keys(u * S)) when the previous pass wrote them.
template <int S, class KeyView, class SampleView, class Less, class Probes>
KOKKOS_INLINE_FUNCTION std::int64_t pass_co_rank(const KeyView& keys, const SampleView& samples,
                                                 const PassTile<2>& p, std::int64_t run,
                                                 std::int64_t diag, const Less& less,
                                                 const Probes& probes) {
  const std::int64_t b0 = p.a0 + run;
  if (samples.extent(0) > 0) {
    return sampled_merge_path<S, std::int64_t>(keys, p.a0, p.len[0], keys, b0, p.len[1], samples,
                                               p.a0 / S, b0 / S, diag, less, probes);
  }
  return merge_path<std::int64_t>(keys, p.a0, p.len[0], keys, b0, p.len[1], diag, less, probes);
}

// The partition kernel of a merge pass: the co-rank of every tile's first output, by one thread
// (RangePolicy) or by the Lanes vector lanes of a team thread (TeamPolicy) per tile.
template <int S, int Lanes, class ExecSpace, class KeyView, class PartView, class SampleView,
          class Less>
struct SortMergePartition {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  KeyView keys;
  PartView part;
  SampleView samples;
  PassShape shape;
  Less less;
  KOKKOS_FUNCTION void operator()(int t) const {
    const PassTile<2> p(t, shape);
    if (p.count <= 0) return;
    part(t) = pass_co_rank<S>(keys, samples, p, shape.run, p.diag, less, ThreadProbes{});
  }
  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int t = member.league_rank() * member.team_size() + member.team_rank();
    if (t >= int(part.extent(0))) return;
    const PassTile<2> p(t, shape);
    if (p.count <= 0) return;
    const std::int64_t r = pass_co_rank<S>(keys, samples, p, shape.run, p.diag, less,
                                           VectorProbes<Lanes, Member>{member});
    Kokkos::single(Kokkos::PerThread(member), [&] { part(t) = r; });
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

// The four-way partition kernel: the cut vector (in its group's four runs) of every tile's first
// output, part(4 * t + r), by a group of threads per tile (multiway_merge_path: one probe a
// thread, groups of 4 * Probes threads where the team has them, else the team's one thread),
// probing the samples where the previous pass wrote them.
template <int S, int Probes, class ExecSpace, class K, class KeyView, class PartView,
          class SampleView, class Less>
struct SortMergeFourPartition {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  // Positions within a group fit 32 bits (sorts hold fewer than 2^32 records): 32-bit probe
  // arithmetic and scratch.
  using Index = std::uint32_t;
  using State = MultiwayProbes<4, Probes, K, Index>;
  using StateTile = Kokkos::View<State*, typename ExecSpace::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  KeyView keys;
  PartView part;
  SampleView samples;
  PassShape shape;
  Less less;
  std::int64_t tiles;

  // Tiles a team of team_size threads partitions.
  KOKKOS_INLINE_FUNCTION static constexpr int groups(int team_size) {
    return team_size / (4 * Probes) > 1 ? team_size / (4 * Probes) : 1;
  }
  static std::size_t scratch_bytes(int team_size) {
    return StateTile::shmem_size(groups(team_size));
  }

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int per_team = groups(member.team_size()), size = member.team_size() / per_team;
    const int g = member.team_rank() / size;
    const StateTile state(member.team_scratch(0), per_team);
    const std::int64_t t = std::int64_t(member.league_rank()) * per_team + g;
    // Past the last tile, or an empty tile: nothing to cut (the group still keeps step).
    const PassTile<4> p(t < tiles ? int(t) : 0, shape);
    const bool cut_here = t < tiles && p.count > 0;
    Index len[4], cut[4];
    ORDO_UNROLL
    for (int r = 0; r < 4; ++r) len[r] = cut_here ? Index(p.len[r]) : 0;
    const bool sampled = samples.extent(0) > 0;
    const std::int64_t a0 = p.a0, run = shape.run;
    // Runs start at multiples of S, so a run's positions at multiples of S are sampled.
    auto key = [&](int r, Index i) -> K {
      const std::int64_t at = a0 + r * run + i;
      return sampled && i % S == 0 ? samples(at / S) : keys(at);
    };
    multiway_merge_path<4, Probes>(TeamProbeGroup<Member>{member, member.team_rank() % size, size},
                                   state(g), key, len, cut_here ? Index(p.diag) : Index(0),
                                   Index(sampled ? S : 1), less, cut);
    if (cut_here && member.team_rank() % size == 0) {
      ORDO_UNROLL
      for (int r = 0; r < 4; ++r) part(4 * t + r) = cut[r];
    }
  }
};

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
    const PassTile<2> p(member.league_rank(), shape);
    const std::int64_t run = shape.run;
    if (p.count <= 0) return;
    const int count = int(p.count);
    const std::int64_t diag = p.diag, begin = p.a0 + diag;
    std::int64_t a_lo, a_hi;
    if constexpr (Fused) {
      const Shifted<KeyView> a{keys, p.a0}, b{keys, p.a0 + run};
      a_lo = team_merge_path(member, a, p.len[0], b, p.len[1], diag, less);
      a_hi = team_merge_path(member, a, p.len[0], b, p.len[1], diag + count, less);
    } else {
      a_lo = part(member.league_rank());
      a_hi = p.last ? p.len[0] : part(member.league_rank() + 1);
    }
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

// The four-way merge pass's tiles: the cut vectors of the tile's first and last outputs from the
// partition (part(4 * t + r)), the four ranges merged in scratch (team_merge_tile_four).
template <int VT, class ExecSpace, class K, class V, class KeyView, class ValueView, class Sink,
          class PartView, class SampleView, class Less>
struct SortMergeFourTiles {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Base = SortMergeTiles<VT, false, ExecSpace, K, V, KeyView, ValueView, Sink, PartView,
                              SampleView, Less>;
  static constexpr bool with_values = Base::with_values;
  static constexpr int S = Base::S;

  KeyView keys;
  ValueView values;
  Sink sink;
  PartView part;
  SampleView samples;
  PassShape shape;
  Less less;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const int t = member.league_rank();
    const PassTile<4> p(t, shape);
    if (p.count <= 0) return;
    const int count = int(p.count);
    const std::int64_t begin = p.a0 + p.diag;
    std::int64_t first[4];
    int offset[5];
    offset[0] = 0;
    ORDO_UNROLL
    for (int r = 0; r < 4; ++r) {
      const std::int64_t lo = part(4 * t + r), hi = p.last ? p.len[r] : part(4 * t + 4 + r);
      first[r] = p.a0 + r * shape.run + lo;
      offset[r + 1] = offset[r] + int(hi - lo);
    }
    typename Base::KeyTile tile(member.team_scratch(0), shape.tile + 1);
    typename Base::IndexTile from;
    typename Base::ValueTile staged;
    if constexpr (with_values) {
      from = typename Base::IndexTile(member.team_scratch(0), shape.tile);
      staged = typename Base::ValueTile(member.team_scratch(0), shape.tile);
      tile_load_four<VT>(member, values, first, offset, staged);
    }
    team_merge_tile_four<VT, with_values>(member, keys, first, offset, tile, from, less,
                                          [&](int i, const K& key, int src) {
                                            sink.keys.store(begin + i, key);
                                            if constexpr (with_values) {
                                              sink.values.store(begin + i, staged(src));
                                            } else {
                                              (void)src;
                                            }
                                          });
    write_samples<S>(member, tile, samples, begin, count);
  }
};

// Calls f(std::integral_constant<int, L>) for L = lanes, one of the searches partitions run
// with: 1 (one thread per boundary), 4, 8, 16 or 32 vector lanes (Kokkos::abort otherwise).
template <class F>
void with_partition_lanes(int lanes, const F& f) {
  switch (lanes) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    case 32: f(std::integral_constant<int, 32>{}); break;
    default: Kokkos::abort("Ordo::sort: partition lanes must be 1, 4, 8, 16 or 32");
  }
}

// A merge pass of Ways (2 or 4) runs a group. samples_in: the samples of keys' runs (empty:
// none), samples_out: where to write those of the pass's output (empty: nowhere); one buffer can
// be both, the partition reading before the tiles write.
template <int Ways, class ExecSpace, class K, class V, class KeyView, class ValueView, class Sink,
          class SampleView, class Less>
void sort_merge_pass(const ExecSpace& space, std::int64_t n, std::int64_t run, const KeyView& keys,
                     const ValueView& values, const Sink& sink, const SampleView& samples_in,
                     const SampleView& samples_out, const Less& less) {
  using Tuning = MergeTuning<ExecSpace, sizeof(K)>;
  constexpr int vt = Tuning::vt;
  const PassShape shape(n, run, Ways, Tuning::team_size * vt);
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
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>;
  if constexpr (Ways == 4) {
    const Part part = workspace<std::int64_t>(space, 4 * tiles);
    using Partition = SortMergeFourPartition<S, SortTune::multiway_probes, ExecSpace, K, KeyView,
                                             Part, SampleView, Less>;
    const int per_team = Partition::groups(Tuning::team_size);
    Kokkos::parallel_for(
        "Ordo::sort::merge4::partition",
        Kokkos::TeamPolicy<ExecSpace>(space, int((tiles + per_team - 1) / per_team),
                                      Tuning::team_size)
            .set_scratch_size(0, Kokkos::PerTeam(Partition::scratch_bytes(Tuning::team_size))),
        Partition{keys, part, samples_in, shape, less, tiles});
    launch(
        std::false_type{},
        SortMergeFourTiles<vt, ExecSpace, K, V, KeyView, ValueView, Sink, Part, SampleView, Less>{
            keys, values, sink, part, samples_out, shape, less},
        "Ordo::sort::merge4::tiles");
    return;
  }
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
  const int lanes = sort_partition_lanes_experiment > 0 ? sort_partition_lanes_experiment
                                                        : SortTune::partition_lanes(n);
  with_partition_lanes(lanes, [&](auto lanes_constant) {
    constexpr int L = decltype(lanes_constant)::value;
    using Partition = SortMergePartition<S, L, ExecSpace, KeyView, Part, SampleView, Less>;
    const Partition partition{keys, part, samples_in, shape, less};
    if constexpr (L == 1) {
      Kokkos::parallel_for("Ordo::sort::merge::partition", Range(space, 0, int(tiles)), partition);
    } else {
      // Teams of tile size: each thread's vector lanes search one boundary.
      using Policy = Kokkos::TeamPolicy<ExecSpace>;
      const int vector = L < Policy::vector_length_max() ? L : Policy::vector_length_max();
      const int threads = Tuning::team_size / L > 1 ? Tuning::team_size / L : 1;
      Kokkos::parallel_for("Ordo::sort::merge::partition",
                           Policy(space, int((tiles + threads - 1) / threads), threads, vector),
                           partition);
    }
  });
  launch(std::false_type{}, Tiles{keys, values, sink, part, samples_out, shape, less},
         "Ordo::sort::merge::tiles");
}

// ---- device level ----------------------------------------------------------------------------

template <class ExecSpace, class T>
using SortBuffer = WorkspaceView<T, ExecSpace>;

// Sorts n records from `source` into `sink` under `order` (on keys K, values V): the block
// kernel, then streaming merge levels (in place, in buffer 0), then merge passes between buffers
// 0 and 1; the last kernel writes the sink.
template <class ExecSpace, class K, class V, class Source, class Sink, class Order>
void device_sort(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                 const Order& order, bool seam) {
  constexpr std::int64_t block = SortTypes<ExecSpace, K, V>::block;
  const int stream = stream_levels<typename SortTypes<ExecSpace, K, V>::Tuning>(n);
  int levels = 0;
  std::int64_t passes = 0;
  for (std::int64_t run = block; run < n; run *= 2) {
    if (levels < stream) {
      ++levels;
    } else {
      ++passes;
    }
  }
  if (levels + passes == 0) {
    sort_blocks<false, ExecSpace, K, V>(space, n, source, sink, order, seam);
    return;
  }
  constexpr bool with_values = !std::is_same_v<V, NoValue>;
  using KeyBuf = SortBuffer<ExecSpace, K>;
  using ValueBuf = SortBuffer<ExecSpace, StoredValue<V>>;
  using ValueEnd = std::conditional_t<with_values, PlainEnd<ValueBuf>, NoEnd>;
  using BufferEnds = Ends<PlainEnd<KeyBuf>, ValueEnd>;
  const std::int64_t vn = with_values ? n : 0;
  // The merge passes: the last `fours` merge four runs at a time, the others two.
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  const int ways =
      sort_merge_ways_experiment > 0 ? sort_merge_ways_experiment : Tuning::merge_ways(n);
  const std::int64_t fours = ways == 4 ? passes / 2 : 0;
  passes -= fours;
  const KeyBuf k0 = workspace<K>(space, n, WorkspaceSlot::sort_keys0);
  const KeyBuf k1 = passes > 1 ? workspace<K>(space, n, WorkspaceSlot::sort_keys1) : KeyBuf();
  const ValueBuf v0 = workspace<StoredValue<V>>(space, vn, WorkspaceSlot::sort_values0);
  const ValueBuf v1 =
      passes > 1 ? workspace<StoredValue<V>>(space, vn, WorkspaceSlot::sort_values1) : ValueBuf();
  auto buffer_ends = [&](const KeyBuf& k, const ValueBuf& v) {
    if constexpr (with_values) {
      return BufferEnds{PlainEnd<KeyBuf>{k}, ValueEnd{v}};
    } else {
      (void)v;
      return BufferEnds{PlainEnd<KeyBuf>{k}, ValueEnd{}};
    }
  };
  const BufferEnds b0 = buffer_ends(k0, v0);
  sort_blocks<false, ExecSpace, K, V>(space, n, source, b0, order, seam);
  for (int level = 1; level <= levels; ++level) {
    stream_flip<2, ExecSpace, K, V>(space, n, block, 1 << level, b0, order);
    if (level == levels && passes == 0) {
      sort_blocks<true, ExecSpace, K, V>(space, n, b0, sink, order, seam);
    } else {
      sort_blocks<true, ExecSpace, K, V>(space, n, b0, b0, order, seam);
    }
  }
  // Each pass but the last writes samples of its runs for the next pass's partition (the first
  // pass partitions without: the runs it merges come from the block or streaming kernels).
  constexpr std::int64_t sample = SortTypes<ExecSpace, K, V>::Tuning::partition_sample;
  static_assert(block % sample == 0, "runs start at sampled positions");
  const KeyBuf samples =
      passes > 1 ? workspace<K>(space, (n + sample - 1) / sample, WorkspaceSlot::sort_samples)
                 : KeyBuf();
  const auto less = order.less;
  std::int64_t run = block << levels;
  for (std::int64_t pass = 1; pass <= passes; ++pass) {
    const KeyBuf& in_k = pass % 2 ? k0 : k1;
    const ValueBuf& in_v = pass % 2 ? v0 : v1;
    const KeyBuf samples_in = pass > 1 ? samples : KeyBuf();
    // The pass (four-way or not) into the next buffer, or the last into the sink.
    auto pass_to = [&](auto four) {
      constexpr int Ways = decltype(four)::value ? 4 : 2;
      if (pass == passes) {
        sort_merge_pass<Ways, ExecSpace, K, V>(space, n, run, in_k, in_v, sink, samples_in,
                                               KeyBuf(), less);
      } else {
        sort_merge_pass<Ways, ExecSpace, K, V>(space, n, run, in_k, in_v,
                                               buffer_ends(pass % 2 ? k1 : k0, pass % 2 ? v1 : v0),
                                               samples_in, samples, less);
      }
    };
    if (pass > passes - fours) {
      pass_to(std::true_type{});
      run *= 4;
    } else {
      pass_to(std::false_type{});
      run *= 2;
    }
  }
}

// ---- host backends ---------------------------------------------------------------------------

template <class K, class V>
struct HostRecord {
  K key;
  V value;
};

template <class K, class V>
using HostRecordOf = std::conditional_t<std::is_same_v<V, NoValue>, K, HostRecord<K, V>>;

// Host records order by key: plain keys as they are, key-value records by their key.
template <class Less>
struct HostRecordLess {
  Less less;
  template <class K>
  bool operator()(const K& a, const K& b) const {
    return less(a, b);
  }
  template <class K, class V>
  bool operator()(const HostRecord<K, V>& a, const HostRecord<K, V>& b) const {
    return less(a.key, b.key);
  }
};

template <class ExecSpace, class K, class V, class Source, class Sink, class Less>
void host_sort(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
               const Less& key_less, bool stable) {
  using Rec = HostRecordOf<K, V>;
  using Buf = SortBuffer<ExecSpace, Rec>;
  using Tuning = typename SortTypes<ExecSpace, K, V>::Tuning;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const HostRecordLess<Less> less{key_less};
  Buf a = workspace<Rec>(space, n, WorkspaceSlot::sort_keys0);
  Buf b = workspace<Rec>(space, n, WorkspaceSlot::sort_keys1);
  Kokkos::parallel_for("Ordo::sort::host::load", Range(space, 0, n), [=](std::int64_t i) {
    if constexpr (std::is_same_v<V, NoValue>) {
      a(i) = source.keys.load(i);
    } else {
      a(i) = Rec{source.keys.load(i), source.values.load(i)};
    }
  });
  const std::int64_t threads = space.concurrency();
  std::int64_t chunks = 1;
  while (chunks < threads && n / (2 * chunks) >= Tuning::host_grain) chunks *= 2;
  const std::int64_t width = (n + chunks - 1) / chunks;
  Kokkos::parallel_for("Ordo::sort::host::chunks", Range(space, 0, chunks), [=](std::int64_t c) {
    Rec* lo = a.data() + std::min(n, c * width);
    Rec* hi = a.data() + std::min(n, (c + 1) * width);
    if (stable) {
      std::stable_sort(lo, hi, less);
    } else {
      std::sort(lo, hi, less);
    }
  });
  for (std::int64_t run = width; run < n; run *= 2) {
    const std::int64_t pairs = (n + 2 * run - 1) / (2 * run);
    const std::int64_t pieces = std::max<std::int64_t>(1, threads / pairs);
    Kokkos::parallel_for(
        "Ordo::sort::host::merge", Range(space, 0, pairs * pieces), [=](std::int64_t w) {
          const std::int64_t p = w / pieces, q = w % pieces, a0 = p * 2 * run;
          const std::int64_t b0 = std::min(n, a0 + run), end = std::min(n, a0 + 2 * run);
          const auto sa = Kokkos::subview(a, Kokkos::make_pair(a0, b0));
          const auto sb = Kokkos::subview(a, Kokkos::make_pair(b0, end));
          const auto out = Kokkos::subview(b, Kokkos::make_pair(a0, end));
          merge_chunk(sa, sb, out, q, pieces, less, NoEmit{});
        });
    std::swap(a, b);
  }
  Kokkos::parallel_for("Ordo::sort::host::store", Range(space, 0, n), [=](std::int64_t i) {
    if constexpr (std::is_same_v<V, NoValue>) {
      sink.keys.store(i, a(i));
    } else {
      sink.keys.store(i, a(i).key);
      sink.values.store(i, a(i).value);
    }
  });
}

// ---- dispatch --------------------------------------------------------------------------------

// Internal path choice: tests run both slab paths on CUDA, and the portable slab network with the
// merge passes on host backends too (which otherwise sort with the standard library).
enum class SortPath { automatic, portable };

// Sorts n records of `source` (keys encoded by Codec, values of type V) into `sink`; stable: ties
// keep input order (device backends: V must then be the input position).
template <class Codec, bool Stable, class V, class ExecSpace, class Source, class Sink>
void sort_records(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                  SortPath path = SortPath::automatic) {
  using K = typename Codec::Bits;
  using Less = typename Codec::Less;
  if (n == 0) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (path == SortPath::automatic) {
      host_sort<ExecSpace, K, V>(space, n, source, sink, Less{}, Stable);
      return;
    }
  }
  const RecordOrder<Less, Stable> order{Less{}};
  device_sort<ExecSpace, K, V>(space, n, source, sink, order,
                               Codec::encoded && path == SortPath::automatic);
}

// ---- apply_permutation ------------------------------------------------------------------------

// The Views apply_permutation gathers, each with a workspace-free copy of its old contents.
template <class... Views>
struct PermutedViews {
  KOKKOS_INLINE_FUNCTION void save(std::int64_t) const {}
  KOKKOS_INLINE_FUNCTION void gather(std::int64_t, std::int64_t) const {}
};

template <class View, class... Rest>
struct PermutedViews<View, Rest...> {
  using Copy = Kokkos::View<typename View::non_const_value_type*, typename View::memory_space>;
  View view;
  Copy copy;
  PermutedViews<Rest...> rest;

  PermutedViews() = default;
  PermutedViews(const View& v, const Rest&... r)
      : view(v),
        copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Ordo::apply_permutation::copy"),
             v.extent(0)),
        rest(r...) {}
  KOKKOS_INLINE_FUNCTION void save(std::int64_t i) const {
    copy(i) = view(i);
    rest.save(i);
  }
  KOKKOS_INLINE_FUNCTION void gather(std::int64_t i, std::int64_t j) const {
    view(i) = copy(j);
    rest.gather(i, j);
  }
};

template <class Pack>
struct SavePermuted {
  Pack pack;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { pack.save(i); }
};

template <class Pack, class PermView>
struct GatherPermuted {
  Pack pack;
  PermView perm;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    pack.gather(i, std::int64_t(perm(i)));
  }
};

template <class ExecSpace, class PermView, class... Views>
void apply_permutation_impl(const ExecSpace& space, const PermView& perm, const Views&... views) {
  const std::int64_t n = perm.extent(0);
  if (n == 0) return;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Pack = PermutedViews<Views...>;
  const Pack pack(views...);
  Kokkos::parallel_for("Ordo::apply_permutation::save", Range(space, 0, n),
                       SavePermuted<Pack>{pack});
  Kokkos::parallel_for("Ordo::apply_permutation::gather", Range(space, 0, n),
                       GatherPermuted<Pack, PermView>{pack, perm});
}

}  // namespace Ordo::Impl

#endif
