// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTVENDORBITS_HPP
#define ORDO_IMPL_SORTVENDORBITS_HPP

// The vendor radix sort's search for the bits that vary (Ordo_SortVendorImpl.hpp):
// Ordo::sort::vendor::bits reads the keys once, as the vendor orders them, and finds every bit in
// which some key differs from the first (and, for floats, whether a key is -0.0 or a NaN, which
// the vendor orders otherwise than Ordo), so that the vendor sorts only those bits.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace Ordo::Impl {

// Keys as CUB orders their bits (Codec::ordered, the codec's image before the float rotation),
// and whether x is a float -0.0 or NaN, which CUB orders otherwise than Ordo.
template <class Key>
struct VendorKeyBits {
  using Order = Codec<Key, less<Key>>;
  using Bits = typename Order::Bits;
  static constexpr Bits sign = Order::sign;
  KOKKOS_INLINE_FUNCTION static Bits of(const Key x) { return Order::ordered(x); }
  KOKKOS_INLINE_FUNCTION static bool special(const Key x) {
    if constexpr (std::is_floating_point_v<Key>) {
      const Bits b = Kokkos::bit_cast<Bits>(x);
      const Bits inf = sizeof(Key) == 4 ? Bits(0x7F800000u) : Bits(0x7FF0000000000000ull);
      return b == sign || Bits(b & ~sign) > inf;
    } else {
      (void)x;
      return false;
    }
  }
};

// Bits [first set, last set] of a mask, as CUB's begin_bit and end_bit (0, 0 when none is set).
struct BitRange {
  int begin = 0, end = 0;
  KOKKOS_INLINE_FUNCTION static BitRange of(std::uint64_t mask) {
    if (mask == 0) return {};
    return {Kokkos::countr_zero(mask), 64 - Kokkos::countl_zero(mask)};
  }
};

// words(0): every bit in which some key differs from the first (CUB's order); words(1): bit 0 set
// when a float key is -0.0 or a NaN, bit 1 when a team stopped before reading all its tiles (then
// words(0) may lack bits, and every bit is sorted). Teams of VendorSortTuning's bits_team
// threads take tiles of bits_items keys each, as many teams as run at once; with
// stop_span > 0 a team stops once the varying bits seen so far span more than stop_span bits
// (no digit pass can be saved).
template <class ExecSpace, class KeyView, class Words>
struct VendorBits {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Key = typename KeyView::non_const_value_type;
  using KB = VendorKeyBits<Key>;
  KeyView keys;
  Words words;
  std::int64_t n, tile;
  int stop_span;

  KOKKOS_FUNCTION void operator()(const Member& member) const {
    const typename KB::Bits first = KB::of(keys(0));
    for (std::int64_t t = member.league_rank(); t * tile < n; t += member.league_size()) {
      if (stop_span > 0) {
        std::uint64_t seen = 0;
        Kokkos::single(
            Kokkos::PerTeam(member),
            [&](std::uint64_t& s) {
              s = LookbackWord::read(reinterpret_cast<const std::uint64_t&>(words(0)));
            },
            seen);
        const BitRange r = BitRange::of(seen);
        if (r.end - r.begin > stop_span) {
          Kokkos::single(Kokkos::PerTeam(member), [&] { Kokkos::atomic_or(&words(1), 2); });
          return;
        }
      }
      const std::int64_t begin = t * tile, end = n - begin < tile ? n : begin + tile;
      std::uint64_t local = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(member, begin, end),
          [&](std::int64_t i, std::uint64_t& acc) {
            const Key k = keys(i);
            acc |= std::uint64_t(KB::of(k) ^ first);
            if (KB::special(k)) Kokkos::atomic_or(&words(1), 1);
          },
          Kokkos::BOr<std::uint64_t>(local));
      Kokkos::single(Kokkos::PerTeam(member), [&] {
        if (local) Kokkos::atomic_or(&words(0), std::int64_t(local));
      });
    }
  }
};

// The bits of the keys to sort by, and whether a float key is -0.0 or a NaN
// (Ordo::sort::vendor::bits, then a read-back).
template <class ExecSpace, class KeyView, class Words>
std::pair<BitRange, bool> vendor_bits(const ExecSpace& space, const KeyView& keys, std::int64_t n,
                                      const Words& words) {
  using Key = typename KeyView::non_const_value_type;
  using Tuning = VendorSortTuning<ExecSpace, sizeof(Key), 0>;
  Kokkos::deep_copy(space, words, std::int64_t(0));
  const std::int64_t tile = std::int64_t(Tuning::bits_team) * Tuning::bits_items;
  const std::int64_t tiles = (n + tile - 1) / tile;
  const std::int64_t resident = space.concurrency() / Tuning::bits_team;
  // Floats read every key (a -0.0 or a NaN anywhere changes the path). Otherwise a team stops once
  // the bits span more than two digits short of the key: one pass of an even count saved costs the
  // read of the keys and the copy back that an odd count makes (CUB ends in the other buffer).
  const int stop_span = std::is_floating_point_v<Key> ? 0 : 8 * (int(sizeof(Key)) - 2);
  Kokkos::parallel_for("Ordo::sort::vendor::bits",
                       by_argument(Kokkos::TeamPolicy<ExecSpace>(
                           space, int(tiles < resident ? tiles : resident), Tuning::bits_team)),
                       VendorBits<ExecSpace, KeyView, Words>{keys, words, n, tile, stop_span});
  const auto seen = read_back<2>(space, words, "Ordo::sort: the bits that vary");
  const BitRange all{0, int(8 * sizeof(Key))};
  return {seen[1] & 2 ? all : BitRange::of(std::uint64_t(seen[0])), (seen[1] & 1) != 0};
}

}  // namespace Ordo::Impl

#endif
