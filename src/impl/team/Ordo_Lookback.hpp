// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TEAM_LOOKBACK_HPP
#define ORDO_IMPL_TEAM_LOOKBACK_HPP

// Team level of the decoupled look-back: the object that gives a tile the prefix of the tiles
// before it (the scan, the set operations, the joins' scan, compaction), over the words of
// lane/Ordo_LookbackWord.hpp. The radix passes walk their digit chains with the same word walk
// (LookbackWord::tagged_prefix); on CUDA, compaction's warps walk with the seam's ballots
// (cuda/Ordo_Cuda_Compact.hpp, LookbackBase).

#include <impl/lane/Ordo_LookbackWord.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

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
