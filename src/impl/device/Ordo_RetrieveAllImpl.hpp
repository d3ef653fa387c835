// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_RETRIEVEALLIMPL_HPP
#define ORDO_IMPL_RETRIEVEALLIMPL_HPP

// Device level of the hash-map export: the map's slots are the compaction's index range
// (Ordo_CopyIfImpl.hpp), a slot is kept when it holds an entry, and its key (and value) are what
// the compaction writes.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_CopyIfImpl.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

template <class Map>
struct SelectMapSlot {
  Map map;
  static constexpr bool by_value = false;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const {
    return map.valid_at(typename Map::size_type(i));
  }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// Writes the entry in slot i: its key to keys(pos) and, for maps whose values are wanted, its
// value to values(pos).
template <class Map, class KeyView, class ValueView>
struct EmitMapEntry {
  using Value = std::conditional_t<Map::is_set, int, typename Map::value_type>;
  using value_type = Kokkos::pair<typename Map::key_type, Value>;
  static constexpr int group = 1;
  static constexpr bool stores_in_place = true;
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
  bool aligned() const { return false; }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t, value_type*) const {}
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

}  // namespace Ordo::Impl

#endif
