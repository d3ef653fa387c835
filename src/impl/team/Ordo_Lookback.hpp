// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TEAM_LOOKBACK_HPP
#define ORDO_IMPL_TEAM_LOOKBACK_HPP

// Team level of the decoupled look-back: the object that gives a tile the prefix of the tiles
// before it (the scan, the set operations, the joins' scan, compaction), over the words of
// lane/Ordo_LookbackWord.hpp. The radix passes walk their digit chains with the same word walk
// (LookbackWord::tagged_prefix); on CUDA, compaction's warps walk with the seam's ballots
// (team/cuda/Ordo_Cuda_Compact.hpp, LookbackBase). The runs of equal keys (reduce_by_key) add a
// carried value to each word (carry_prefix).

#include <impl/lane/Ordo_LookbackWord.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace Ordo::Impl {

// The values a segmented look-back carries beside its words (carry_prefix): tile t's own value
// (aggregate) and its inclusive one, each ceil(sizeof(V) / 8) 64-bit words of `storage` (2 of
// them a tile), written and read as the words are (relaxed, so that a reader sees no stale cached
// copy) and ordered with the words by fences.
template <class V, class Storage>
struct LookbackCarries {
  static constexpr int size = int((sizeof(V) + 7) / 8);
  static constexpr int aggregate = 0, inclusive = 1;
  Storage storage;

  static constexpr std::size_t words_for(std::int64_t tiles) {
    return std::size_t(tiles) * 2 * size;
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t t, int which, const V& v) const {
    std::uint64_t w[size] = {};
    std::memcpy(w, &v, sizeof(V));
    for (int k = 0; k < size; ++k) Seam::store_relaxed(storage((2 * t + which) * size + k), w[k]);
  }
  KOKKOS_INLINE_FUNCTION V load(std::int64_t t, int which) const {
    std::uint64_t w[size];
    for (int k = 0; k < size; ++k) w[k] = Seam::load_relaxed(storage((2 * t + which) * size + k));
    V v;
    std::memcpy(&v, w, sizeof(V));
    return v;
  }
};

// words(t): tile t's word, zero before the launch; words(tiles): the ticket counter.
template <class Words>
struct TileLookback {
  Words words;

  // The team's tile number, in the order teams start (a ticket), so that every tile it waits for
  // is running. Every thread gets it.
  template <class Member>
  KOKKOS_INLINE_FUNCTION std::int64_t ticket(const Member& member, std::int64_t tiles) const {
    std::int64_t id = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](std::int64_t& v) {
          v = std::int64_t(Kokkos::atomic_fetch_add(&words(tiles), std::uint64_t(1)));
        },
        id);
    return id;
  }

  // Tile id's exclusive prefix, given its own sum: one thread publishes the sum, walks back over
  // the words of the tiles before it (Window at a time) and publishes the inclusive prefix. Every
  // thread of the team gets the prefix.
  template <int Window, class Member>
  KOKKOS_INLINE_FUNCTION std::int64_t prefix(const Member& member, std::int64_t id,
                                             std::int64_t sum) const {
    std::int64_t p = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](std::int64_t& q) {
          if (id == 0) {
            LookbackWord::publish(words(0), LookbackWord::inclusive | std::uint64_t(sum));
            q = 0;
            return;
          }
          LookbackWord::publish(words(id), LookbackWord::aggregate | std::uint64_t(sum));
          q = std::int64_t(LookbackWord::tagged_prefix<Window>(
              [&](std::int64_t w) -> const std::uint64_t& { return words(w); }, id, 0));
          LookbackWord::publish(words(id), LookbackWord::inclusive | std::uint64_t(q + sum));
        },
        p);
    return p;
  }

  // The segmented form, for runs of equal keys, called by one thread of the team: tile id counts
  // `sum` run heads and ends in an open run whose partial value is `own` (the reduction after its
  // last head, or of the whole tile if it has none). Returns the heads before the tile and sets
  // `carry` to the open run's value at the tile's start (unset for tile 0). The walk reads Window
  // words at once back to the nearest inclusive word, summing the heads, and notes the nearest
  // tile with a head of its own; the carried values are then folded from that tile (its aggregate
  // value) or, if the inclusive tile is nearer, from the inclusive value, left to right, Window
  // loads in flight. Whichever inclusive value the walk stops at is that same left fold, so a
  // reduction in floating point gives the same bits on every run.
  template <int Window, class Carries, class V, class Op>
  KOKKOS_INLINE_FUNCTION std::int64_t carry_prefix(std::int64_t id, std::int64_t sum, const V& own,
                                                   const Carries& carries, const Op& op,
                                                   V& carry) const {
    carries.store(id, id == 0 ? Carries::inclusive : Carries::aggregate, own);
    Kokkos::memory_fence();
    LookbackWord::publish(words(id), (id == 0 ? LookbackWord::inclusive : LookbackWord::aggregate) |
                                         std::uint64_t(sum));
    if (id == 0) return 0;
    std::int64_t count = 0, from = -1, t = id - 1;
    bool from_inclusive = false, done = false;
    while (!done) {
      std::uint64_t word[Window];
      for (int i = 0; i < Window; ++i) word[i] = t - i >= 0 ? LookbackWord::read(words(t - i)) : 0;
      int i = 0;
      for (; i < Window && word[i] != 0; ++i) {
        const auto c = std::int64_t(word[i] & LookbackWord::value_mask);
        count += c;
        if (word[i] & LookbackWord::inclusive) {
          if (from < 0) from = t - i, from_inclusive = true;
          done = true;
          break;
        }
        if (from < 0 && c > 0) from = t - i;
      }
      t -= i;  // on from the first word not published yet, or the next window
    }
    Kokkos::memory_fence();
    V c = carries.load(from, from_inclusive ? Carries::inclusive : Carries::aggregate);
    for (std::int64_t first = from + 1; first < id; first += Window) {
      V a[Window];
      for (int i = 0; i < Window; ++i) {
        if (first + i < id) a[i] = carries.load(first + i, Carries::aggregate);
      }
      for (int i = 0; i < Window; ++i) {
        if (first + i < id) c = op(c, a[i]);
      }
    }
    carry = c;
    carries.store(id, Carries::inclusive, sum > 0 ? own : op(c, own));
    Kokkos::memory_fence();
    LookbackWord::publish(words(id), LookbackWord::inclusive | std::uint64_t(count + sum));
    return count;
  }

  // What the tiles before tile id sum to, walked by the whole team (compaction: the caller has
  // published its tile's aggregate and publishes its inclusive prefix): the team reads the words
  // of up to Team preceding tiles at once into `window` (Team words of team scratch; Team: the
  // team's size), waiting for each to publish, then adds them from the nearest back to the first
  // inclusive prefix; without one, it moves the window further back.
  template <int Team, class Member, class Window>
  KOKKOS_INLINE_FUNCTION std::int64_t window_prefix(const Member& member, const Window& window,
                                                    std::int64_t id) const {
    std::int64_t prefix = 0;
    for (std::int64_t nearest = id - 1;; nearest -= Team) {
      const int width = int(nearest + 1 < Team ? nearest + 1 : Team);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, width), [&](int w) {
        std::uint64_t word;
        do {
          word = LookbackWord::read(words(nearest - w));
        } while (word == 0);
        window(w) = word;
      });
      member.team_barrier();
      int stop = width;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(member, width),
          [&](int w, int& s) {
            if ((window(w) & LookbackWord::inclusive) && w < s) s = w;
          },
          Kokkos::Min<int>(stop));
      std::int64_t sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(member, width),
          [&](int w, std::int64_t& s) {
            if (w <= stop) s += std::int64_t(window(w) & LookbackWord::value_mask);
          },
          sum);
      prefix += sum;
      if (stop < width) return prefix;
      member.team_barrier();  // the window is read again
    }
  }
};

template <class Words>
KOKKOS_INLINE_FUNCTION TileLookback<Words> tile_lookback(const Words& words) {
  return TileLookback<Words>{words};
}

}  // namespace Ordo::Impl

#endif
