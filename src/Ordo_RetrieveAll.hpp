// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_RETRIEVEALL_HPP
#define ORDO_RETRIEVEALL_HPP

// Hash-map export: every entry of a Kokkos::UnorderedMap copied densely
// into Views, by compaction of the map's slots (Ordo_CopyIf.hpp).

#include <impl/device/Ordo_RetrieveAllImpl.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo {

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
  const Impl::Region region("Ordo::retrieve_all");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(map.capacity()));
  });
  return Impl::retrieve_and_count<true>("Ordo::retrieve_all", space, map, keys_out, values_out);
}

/// The same, writing the entry count to count(0) (if it exceeds keys_out's extent, the entries
/// past the end are dropped). Synchronization: asynchronous on `space`.
template <class ExecSpace, class Map, class KeyView, class ValueView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_map_v<Map>,
                           int> = 0>
void retrieve_all(const ExecSpace& space, const Map& map, const KeyView& keys_out,
                  const ValueView& values_out, const CountView& count) {
  const Impl::Region region("Ordo::retrieve_all");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(map.capacity()));
  });
  Impl::retrieve_to_count<true>("Ordo::retrieve_all", space, map, keys_out, values_out, count);
}

/// The keys of a set-like Kokkos::UnorderedMap (void values), in slot order. Returns how many;
/// errors as above. Synchronization: fences `space`.
template <class ExecSpace, class Set, class KeyView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
std::int64_t retrieve_all(const ExecSpace& space, const Set& set, const KeyView& keys_out) {
  const Impl::Region region("Ordo::retrieve_all");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(set.capacity()));
  });
  return Impl::retrieve_and_count<true>("Ordo::retrieve_all", space, set, keys_out,
                                        Impl::NoMapValues<Set>());
}

/// The keys of a set, the count to count(0). Synchronization: asynchronous on `space`.
template <class ExecSpace, class Set, class KeyView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
void retrieve_all(const ExecSpace& space, const Set& set, const KeyView& keys_out,
                  const CountView& count) {
  const Impl::Region region("Ordo::retrieve_all");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(set.capacity()));
  });
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
  const Impl::Region region("Ordo::retrieve_all_unordered");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all_unordered", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(map.capacity()));
  });
  return Impl::retrieve_and_count<false>("Ordo::retrieve_all_unordered", space, map, keys_out,
                                         values_out);
}

/// The same, asynchronous on `space`: the number retrieved to count(0).
template <class ExecSpace, class Map, class KeyView, class ValueView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_map_v<Map>,
                           int> = 0>
void retrieve_all_unordered(const ExecSpace& space, const Map& map, const KeyView& keys_out,
                            const ValueView& values_out, const CountView& count) {
  const Impl::Region region("Ordo::retrieve_all_unordered");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all_unordered", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(map.capacity()));
  });
  Impl::retrieve_to_count<false>("Ordo::retrieve_all_unordered", space, map, keys_out, values_out,
                                 count);
}

/// The keys of an UnorderedSet to keys_out in no order; returns how many (a fence).
template <class ExecSpace, class Set, class KeyView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
std::int64_t retrieve_all_unordered(const ExecSpace& space, const Set& set,
                                    const KeyView& keys_out) {
  const Impl::Region region("Ordo::retrieve_all_unordered");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all_unordered", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(set.capacity()));
  });
  return Impl::retrieve_and_count<false>("Ordo::retrieve_all_unordered", space, set, keys_out,
                                         Impl::NoMapValues<Set>());
}

/// The same, asynchronous on `space`: the number retrieved to count(0).
template <class ExecSpace, class Set, class KeyView, class CountView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && Impl::is_unordered_set_v<Set>,
                           int> = 0>
void retrieve_all_unordered(const ExecSpace& space, const Set& set, const KeyView& keys_out,
                            const CountView& count) {
  const Impl::Region region("Ordo::retrieve_all_unordered");
  const Impl::WorkspaceReservation reservation("Ordo::retrieve_all_unordered", space, [&] {
    return Impl::compaction_bound<ExecSpace, void>(std::int64_t(set.capacity()));
  });
  Impl::retrieve_to_count<false>("Ordo::retrieve_all_unordered", space, set, keys_out,
                                 Impl::NoMapValues<Set>(), count);
}

}  // namespace Ordo

#endif
