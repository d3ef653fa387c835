// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_RETRIEVEALL_HPP
#define ORDO_RETRIEVEALL_HPP

// Hash-map export (seed 002's retrieve_all): every entry of a Kokkos::UnorderedMap copied densely
// into Views, by compaction of the map's slots (Ordo_CopyIf.hpp).

#include <Ordo_CopyIf.hpp>
#include <impl/Ordo_Checks.hpp>
#include <impl/Ordo_CopyIfImpl.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo {

namespace Impl {

template <class Map>
struct SelectMapSlot {
  Map map;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    return map.valid_at(typename Map::size_type(i));
  }
};

// Writes the entry in slot i: its key to keys(pos) and, for maps whose values are wanted, its
// value to values(pos).
template <class Map, class KeyView, class ValueView>
struct EmitMapEntry {
  using Value = std::conditional_t<Map::is_set, int, typename Map::value_type>;
  using value_type = Kokkos::pair<typename Map::key_type, Value>;
  Map map;
  KeyView keys;
  ValueView values;
  bool with_values;
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return keys.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const {
    const auto slot = typename Map::size_type(i);
    value_type entry{map.key_at(slot), Value()};
    if constexpr (!Map::is_set) {
      if (with_values) entry.second = map.value_at(slot);
    }
    return entry;
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& entry) const {
    keys(pos) = entry.first;
    if constexpr (!Map::is_set) {
      if (with_values) values(pos) = entry.second;
    }
  }
};

template <class Map>
struct is_unordered_map : std::false_type {};
template <class Key, class Value, class Device, class Hasher, class EqualTo>
struct is_unordered_map<Kokkos::UnorderedMap<Key, Value, Device, Hasher, EqualTo>>
    : std::true_type {};

template <class Map>
inline constexpr bool is_unordered_set_v = is_unordered_map<Map>::value&& Map::is_set;
template <class Map>
inline constexpr bool is_unordered_map_v = is_unordered_map<Map>::value && !Map::is_set;

// Compile-time and argument checks of a retrieve_all call; values may be a View of extent 0 (keys
// only). Returns the emitter.
template <class ExecSpace, class Map, class KeyView, class ValueView, class... Others>
EmitMapEntry<Map, KeyView, ValueView> map_export(const char* fn, const Map& map,
                                                 const KeyView& keys, const ValueView& values,
                                                 const Others&... named_others) {
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename Map::device_type::memory_space>::accessible,
      "Ordo::retrieve_all: the map's memory space is not accessible from the execution space");
  static_check_views<ExecSpace, KeyView, ValueView>();
  static_assert(std::is_assignable_v<typename KeyView::reference_type, typename Map::key_type>,
                "Ordo::retrieve_all: keys_out's elements must be assignable from the map's keys");
  bool with_values = false;
  if constexpr (!Map::is_set) {
    static_assert(
        std::is_assignable_v<typename ValueView::reference_type, typename Map::value_type>,
        "Ordo::retrieve_all: values_out's elements must be assignable from the map's values");
    with_values = values.extent(0) > 0;
    if (with_values) {
      check_size_equal(fn, "values_out", values, keys.extent(0),
                       "as many as keys_out, or 0 for keys only");
    }
    check_no_alias(fn, "values_out", values, "keys_out", keys, named_others...);
  }
  check_no_alias(fn, "keys_out", keys, named_others...);
  check_all_reachable<ExecSpace>(fn, "keys_out", keys, "values_out", values, named_others...);
  return {map, keys, values, with_values};
}

// The fencing form: the map's entry count is checked against keys_out before anything runs.
template <bool Ordered, class ExecSpace, class Map, class KeyView, class ValueView>
std::int64_t retrieve_and_count(const char* fn, const ExecSpace& space, const Map& map,
                                const KeyView& keys, const ValueView& values) {
  const auto emit = map_export<ExecSpace>(fn, map, keys, values);
  const std::int64_t entries = map.size();
  if (entries > std::int64_t(keys.extent(0))) {
    fail(fn, "keys_out has " + std::to_string(keys.extent(0)) + " elements, the map holds " +
                 std::to_string(entries) + " entries");
  }
  return compact_and_count<Ordered>(fn, space, map.capacity(), SelectMapSlot<Map>{map}, emit);
}

template <bool Ordered, class ExecSpace, class Map, class KeyView, class ValueView, class CountView>
void retrieve_to_count(const char* fn, const ExecSpace& space, const Map& map, const KeyView& keys,
                       const ValueView& values, const CountView& count) {
  check_index_output<ExecSpace>(fn, "count", count, 1, map.capacity());
  const auto emit = map_export<ExecSpace>(fn, map, keys, values, "count", count);
  compact<Ordered>(space, map.capacity(), SelectMapSlot<Map>{map}, emit, count);
}

template <class Map>
using NoMapValues = Kokkos::View<int*, typename Map::device_type::memory_space>;

}  // namespace Impl

/// Copies every entry of a Kokkos::UnorderedMap: keys to keys_out, values to values_out, in slot
/// order (the order of map.key_at / value_at), and returns how many. values_out may have extent 0
/// (keys only). Throws std::invalid_argument before anything runs when keys_out has fewer
/// elements than the map holds entries. Synchronization: fences `space` (reads map.size() and the
/// count back to the host).
template <class ExecSpace, class Map, class KeyView, class ValueView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_map_v<Map>,
                           int> = 0>
std::int64_t retrieve_all(const ExecSpace& space, const Map& map, const KeyView& keys_out,
                          const ValueView& values_out) {
  return Impl::retrieve_and_count<true>("Ordo::retrieve_all", space, map, keys_out, values_out);
}

/// The same, writing the entry count to count(0) (if it exceeds keys_out's extent, the entries
/// past the end are dropped). Synchronization: asynchronous on `space`.
template <class ExecSpace, class Map, class KeyView, class ValueView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_map_v<Map>,
                           int> = 0>
void retrieve_all(const ExecSpace& space, const Map& map, const KeyView& keys_out,
                  const ValueView& values_out, const CountView& count) {
  Impl::retrieve_to_count<true>("Ordo::retrieve_all", space, map, keys_out, values_out, count);
}

/// The keys of a set-like Kokkos::UnorderedMap (void values), in slot order. Returns how many;
/// errors as above. Synchronization: fences `space`.
template <class ExecSpace, class Set, class KeyView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
std::int64_t retrieve_all(const ExecSpace& space, const Set& set, const KeyView& keys_out) {
  return Impl::retrieve_and_count<true>("Ordo::retrieve_all", space, set, keys_out,
                                        Impl::NoMapValues<Set>());
}

/// The keys of a set, the count to count(0). Synchronization: asynchronous on `space`.
template <class ExecSpace, class Set, class KeyView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
void retrieve_all(const ExecSpace& space, const Set& set, const KeyView& keys_out,
                  const CountView& count) {
  Impl::retrieve_to_count<true>("Ordo::retrieve_all", space, set, keys_out,
                                Impl::NoMapValues<Set>(), count);
}

/// retrieve_all in any order (it may differ from run to run; keys and values stay paired): one
/// launch, no look-back. Same forms, errors and synchronization as retrieve_all.
template <class ExecSpace, class Map, class KeyView, class ValueView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_map_v<Map>,
                           int> = 0>
std::int64_t retrieve_all_unordered(const ExecSpace& space, const Map& map, const KeyView& keys_out,
                                    const ValueView& values_out) {
  return Impl::retrieve_and_count<false>("Ordo::retrieve_all_unordered", space, map, keys_out,
                                         values_out);
}

template <class ExecSpace, class Map, class KeyView, class ValueView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_map_v<Map>,
                           int> = 0>
void retrieve_all_unordered(const ExecSpace& space, const Map& map, const KeyView& keys_out,
                            const ValueView& values_out, const CountView& count) {
  Impl::retrieve_to_count<false>("Ordo::retrieve_all_unordered", space, map, keys_out, values_out,
                                 count);
}

template <class ExecSpace, class Set, class KeyView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
std::int64_t retrieve_all_unordered(const ExecSpace& space, const Set& set,
                                    const KeyView& keys_out) {
  return Impl::retrieve_and_count<false>("Ordo::retrieve_all_unordered", space, set, keys_out,
                                         Impl::NoMapValues<Set>());
}

template <class ExecSpace, class Set, class KeyView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
void retrieve_all_unordered(const ExecSpace& space, const Set& set, const KeyView& keys_out,
                            const CountView& count) {
  Impl::retrieve_to_count<false>("Ordo::retrieve_all_unordered", space, set, keys_out,
                                 Impl::NoMapValues<Set>(), count);
}

}  // namespace Ordo

#endif
