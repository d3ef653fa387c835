// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TEAM_LOOKBACK_HPP
#define ORDO_IMPL_TEAM_LOOKBACK_HPP

// Team level of the decoupled look-back: the prefix of a tile from the tiles before it, over the
// words of lane/Ordo_LookbackWord.hpp.
//   team_ticket           a tile number in the order teams start
//   team_look_back        one thread publishes the tile's sum and walks back Window words at a time
//                         (the scan, the set operations, the joins; the radix passes walk their
//                         digit chains with LookbackWord::tagged_prefix the same way)
//   team_window_look_back the team's threads read a window of team_size words at once (compaction;
//                         on CUDA the seam's warp walk, cuda/Ordo_Cuda_Compact.hpp)

#include <impl/lane/Ordo_LookbackWord.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace Ordo::Impl {

// Team level of a single-pass scan over tiles (the set operations, the joins' scan). A team takes
// its tile's number from the ticket counter words(tiles), in the order teams start, so that every
// tile it waits for is running.
template <class Member, class Words>
KOKKOS_INLINE_FUNCTION std::int64_t team_ticket(const Member& member, const Words& words,
                                                std::int64_t tiles) {
  std::int64_t id = 0;
  Kokkos::single(
      Kokkos::PerTeam(member),
      [&](std::int64_t& v) {
        v = std::int64_t(Kokkos::atomic_fetch_add(&words(tiles), std::uint64_t(1)));
      },
      id);
  return id;
}

// Tile id's exclusive prefix, given its own sum: one thread publishes the sum, looks back over
// the words of the tiles before it (Window at a time) and publishes the inclusive prefix. Every
// thread of the team gets the prefix. The words start at 0 (untagged: use 0).
template <int Window, class Member, class Words>
KOKKOS_INLINE_FUNCTION std::int64_t team_look_back(const Member& member, const Words& words,
                                                   std::int64_t id, std::int64_t sum) {
  std::int64_t prefix = 0;
  Kokkos::single(
      Kokkos::PerTeam(member),
      [&](std::int64_t& p) {
        if (id == 0) {
          LookbackWord::publish(words(0), LookbackWord::inclusive | std::uint64_t(sum));
          p = 0;
          return;
        }
        LookbackWord::publish(words(id), LookbackWord::aggregate | std::uint64_t(sum));
        p = std::int64_t(LookbackWord::tagged_prefix<Window>(
            [&](std::int64_t w) -> const std::uint64_t& { return words(w); }, id, 0));
        LookbackWord::publish(words(id), LookbackWord::inclusive | std::uint64_t(p + sum));
      },
      prefix);
  return prefix;
}

// How many elements the tiles before tile `id` keep (state(t): tile t's word, window: Team words
// of team scratch, Team: the team's size). The team reads the words of a window of up to `team`
// preceding tiles at once (waiting for each to publish), then adds them from the nearest back to
// the first inclusive prefix; without one, it moves the window further back.
template <int Team, class Member, class State, class Window>
KOKKOS_INLINE_FUNCTION std::int64_t team_window_look_back(const Member& member, const State& state,
                                                          const Window& window, std::int64_t id) {
  constexpr int team = Team;
  std::int64_t prefix = 0;
  for (std::int64_t nearest = id - 1;; nearest -= team) {
    const int width = int(nearest + 1 < team ? nearest + 1 : team);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, width), [&](int w) {
      std::uint64_t word;
      do {
        word = LookbackWord::read(state(nearest - w));
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

}  // namespace Ordo::Impl

#endif
