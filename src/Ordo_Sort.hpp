// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_SORT_HPP
#define ORDO_SORT_HPP

// sort, sort_by_key, stable_sort_by_key, sort_permutation (by one key, or by several: keys(...)),
// apply_permutation, and the team-level
// sorts for users' kernels (HotSort's slab network, with merge-path merges for long runs).

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_PermutationImpl.hpp>
#include <impl/device/Ordo_SortBounds.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/device/Ordo_SortMultiKeyImpl.hpp>
#include <impl/team/Ordo_TileSort.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

namespace Ordo {

/// Sorts keys in place under comp (not stable). Keys: 32/64-bit integers, float, double (bit
/// transforms: -0.0 before +0.0, NaNs after +inf under Ordo::less, NaNs among themselves by their
/// bits; stable forms keep the order of keys with identical bits), any type with a comparator.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort(const ExecSpace& space, const KeyView& keys, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort";
  const Impl::Region region(fn);
  Impl::check_sort_keys<ExecSpace>(fn, keys);
  using Key = typename KeyView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::sort_bound<ExecSpace, Key, void, Comp>(keys.extent(0), false);
  });
  Impl::sort(space, keys, comp, Impl::SortOptions{});
}

/// sort on keys' execution space. Synchronization: fences that space before returning.
template <class KeyView, class Comp = less<>, std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort(const KeyView& keys, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  sort(space, keys, comp);
  space.fence("Ordo::sort: fence");
}

/// Sorts keys[begin, end) in place under comp, the rest of keys untouched (Kokkos::sort's range
/// form). Throws std::invalid_argument unless begin <= end <= keys.extent(0).
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class Begin, class End, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && std::is_integral_v<Begin> &&
                               std::is_integral_v<End>,
                           int> = 0>
void sort(const ExecSpace& space, const KeyView& keys, Begin begin, End end,
          const Comp& comp = Comp{}) {
  Impl::check_sort_range("Ordo::sort", keys, begin, end);
  sort(space, Kokkos::subview(keys, Kokkos::make_pair(std::size_t(begin), std::size_t(end))), comp);
}

/// The range form on keys' execution space. Synchronization: fences that space.
template <class KeyView, class Begin, class End, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView> && std::is_integral_v<Begin> &&
                               std::is_integral_v<End>,
                           int> = 0>
void sort(const KeyView& keys, Begin begin, End end, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  sort(space, keys, begin, end, comp);
  space.fence("Ordo::sort: fence");
}

/// Sorts keys in place and moves each value with its key (not stable).
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                 const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort_by_key";
  const Impl::Region region(fn);
  Impl::check_sort_keys<ExecSpace>(fn, keys);
  Impl::check_sort_values<ExecSpace>(fn, keys, values);
  using Key = typename KeyView::non_const_value_type;
  using Value = typename ValueView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::sort_bound<ExecSpace, Key, Value, Comp>(keys.extent(0), false);
  });
  Impl::sort_by_key(space, keys, values, comp, Impl::SortOptions{});
}

/// The same on the keys' execution space; fences it.
template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort_by_key(const KeyView& keys, const ValueView& values, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  sort_by_key(space, keys, values, comp);
  space.fence("Ordo::sort_by_key: fence");
}

/// sort_by_key in which equal keys keep their input order.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void stable_sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                        const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::stable_sort_by_key";
  const Impl::Region region(fn);
  Impl::check_sort_keys<ExecSpace>(fn, keys);
  Impl::check_sort_values<ExecSpace>(fn, keys, values);
  using Key = typename KeyView::non_const_value_type;
  using Value = typename ValueView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::sort_bound<ExecSpace, Key, Value, Comp>(keys.extent(0), true);
  });
  Impl::stable_sort_by_key(space, keys, values, comp, Impl::SortOptions{});
}

/// The same on the keys' execution space; fences it.
template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void stable_sort_by_key(const KeyView& keys, const ValueView& values, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  stable_sort_by_key(space, keys, values, comp);
  space.fence("Ordo::stable_sort_by_key: fence");
}

/// perm[i] = the input position of the i-th key in stable sorted order; keys are left as they
/// are. Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class PermView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_permutation(const ExecSpace& space, const KeyView& keys, const PermView& perm,
                      const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort_permutation";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, KeyView>();
  Impl::check_all_reachable<ExecSpace>(fn, "keys", keys, "perm", perm);
  Impl::check_index_output<ExecSpace>(fn, "perm", perm, keys.extent(0),
                                      keys.extent(0) ? keys.extent(0) - 1 : 0);
  Impl::check_no_alias(fn, "perm", perm, "keys", keys);
  Impl::check_sort_size(fn, keys);
  using Key = typename KeyView::non_const_value_type;
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::sort_bound<ExecSpace, Key, void, Comp>(keys.extent(0), true);
  });
  Impl::stable_permutation(space, keys, perm, Impl::NoEnd{}, comp, Impl::SortOptions{});
}

/// The same on perm's execution space; fences it.
template <class KeyView, class PermView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort_permutation(const KeyView& keys, const PermView& perm, const Comp& comp = Comp{}) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  sort_permutation(space, keys, perm, comp);
  space.fence("Ordo::sort_permutation: fence");
}

/// views[k](i) = old views[k](perm(i)) for every View, all gathered by one launch (after one
/// launch that saves their old contents; Ordo::gather, in Ordo_Binning.hpp, moves them out of
/// place without the save). Rank-2 Views (View<double*[3]>, LayoutLeft or
/// LayoutRight: positions, velocities) move whole rows: views[k](i, c) = old views[k](perm(i), c).
/// perm must be a permutation of [0, perm.extent(0)) (checked with ORDO_ENABLE_DEBUG_CHECKS;
/// without, a position whose entry lies outside that range keeps its element, and repeated entries
/// copy an element twice); the Views may not overlap perm or each other. The saved contents live in
/// Ordo's workspace: repeated calls do not allocate. Synchronization: asynchronous on `space` (no
/// fence).
template <class ExecSpace, class PermView, class... Views,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void apply_permutation(const ExecSpace& space, const PermView& perm, const Views&... views) {
  constexpr const char* fn = "Ordo::apply_permutation";
  const Impl::Region region(fn);
  Impl::static_check_views<ExecSpace, PermView>();
  (Impl::static_check_view<ExecSpace, Views, 2>(), ...);
  static_assert(std::is_integral_v<typename PermView::value_type>, "Ordo: perm holds integers");
  static_assert(sizeof...(Views) > 0, "Ordo::apply_permutation: no View to permute");
  Impl::check_all_reachable<ExecSpace>(fn, "perm", perm);
  (Impl::check_size_equal(fn, "a permuted View", views, perm.extent(0), "one element per position"),
   ...);
  (Impl::check_no_alias(fn, "a permuted View", views, "perm", perm), ...);
  Impl::check_no_alias_among(fn, "permuted Views", views...);
  const Impl::WorkspaceReservation reservation(fn, space,
                                               [&] { return Impl::permutation_bound(views...); });
  if constexpr (Impl::debug_checks) {
    Impl::check_permutation_range(fn, space, perm, std::int64_t(perm.extent(0)));
  }
  Impl::apply_permutation_impl(space, perm, views...);
}

/// The same on perm's execution space; fences it.
template <class PermView, class... Views, std::enable_if_t<Kokkos::is_view_v<PermView>, int> = 0>
void apply_permutation(const PermView& perm, const Views&... views) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  apply_permutation(space, perm, views...);
  space.fence("Ordo::apply_permutation: fence");
}

/// The workspace bytes (in ExecSpace's memory) apply_permutation(space, perm, views...) takes: a
/// copy of every View (and a few bytes of alignment a View). The call reserves this much before
/// anything runs (Ordo::set_workspace_limit).
template <class ExecSpace, class... Views>
std::size_t apply_permutation_workspace_bytes(const Views&... views) {
  static_assert((Kokkos::is_view_v<Views> && ...), "Ordo: the Views apply_permutation permutes");
  return Impl::reserved_bytes<ExecSpace>(Impl::permutation_bound(views...));
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) that one sort of n keys of type
/// Key takes: Value void, sort; otherwise sort_by_key with values of type Value; stable:
/// stable_sort_by_key, or sort_permutation where Value is void. The call reserves this much
/// before anything runs (Ordo::set_workspace_limit). Queries the vendor library's storage
/// size where the sort takes it (no kernel runs).
template <class ExecSpace, class Key, class Value = void, class Comp = less<>>
std::size_t sort_workspace_bytes(std::size_t n, bool stable = false) {
  return Impl::reserved_bytes<ExecSpace>(
      Impl::sort_bound<ExecSpace, Key, Value, Comp>(std::int64_t(n), stable));
}

// ---- sorts by several keys -------------------------------------------------------------------

/// A list of key Views for the sorts by several keys: Ordo::keys(row, col).
template <class... Views>
struct KeyList {
  std::tuple<Views...> views;  ///< the key Views, the first the most significant
};

/// The list of the key Views given, most significant first (each copied: a View is a handle).
template <class... Views>
KeyList<Views...> keys(const Views&... v) {
  static_assert(sizeof...(Views) > 0, "Ordo::keys: no key View");
  static_assert((Kokkos::is_view_v<Views> && ...), "Ordo::keys takes Kokkos::Views");
  return KeyList<Views...>{std::tuple<Views...>(v...)};
}

/// Sorts by several keys: the key Views (rank 1, one length, 4- or 8-byte integers or
/// floating-point numbers, any mix) are reordered together so that (k0(i), k1(i), ...) ascends
/// lexicographically under comp (Ordo::less<> or Ordo::greater<>, applied to every key):
/// Ordo::sort(space, Ordo::keys(row, col)) sorts the pairs by row, then column. Where the keys'
/// ranges fit 64 bits together (two 32-bit indices always do), the sort runs once on one packed
/// word that holds only the bits that vary; otherwise it runs once per key (perf_tests/README.md).
/// Synchronization: asynchronous on `space` (no fence) except for one read-back of the keys'
/// ranges.
template <class ExecSpace, class... Keys, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort(const ExecSpace& space, const KeyList<Keys...>& keys, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort";
  const Impl::Region region(fn);
  (void)comp;
  std::apply([&](const auto&... k) { Impl::check_key_list<ExecSpace, Comp, true>(fn, k...); },
             keys.views);
  const std::int64_t n = std::get<0>(keys.views).extent(0);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::multi_key_sort_bound<ExecSpace, void, false,
                                      typename Keys::non_const_value_type...>(n);
  });
  std::apply(
      [&](const auto&... k) {
        Impl::multi_key_sort<Comp>(space, Impl::NoEnd{}, Impl::SortOptions{}, k...);
      },
      keys.views);
}

/// Sorts by several keys (as above) and moves each value with its keys, stably: equal keys keep
/// their input order (so the same input gives the same output on every run and backend).
/// values: rank 1, one per key, trivially copyable. Synchronization: as above.
template <class ExecSpace, class... Keys, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_by_key(const ExecSpace& space, const KeyList<Keys...>& keys, const ValueView& values,
                 const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort_by_key";
  const Impl::Region region(fn);
  (void)comp;
  const auto& first = std::get<0>(keys.views);
  std::apply([&](const auto&... k) { Impl::check_key_list<ExecSpace, Comp, true>(fn, k...); },
             keys.views);
  Impl::check_sort_values<ExecSpace>(fn, first, values);
  std::apply(
      [&](const auto&... k) { (Impl::check_no_alias(fn, "values", values, "keys", k), ...); },
      keys.views);
  using Value = typename ValueView::non_const_value_type;
  const std::int64_t n = first.extent(0);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::multi_key_sort_bound<ExecSpace, Value, false,
                                      typename Keys::non_const_value_type...>(n);
  });
  std::apply(
      [&](const auto&... k) {
        Impl::multi_key_sort<Comp>(space, Impl::PlainEnd<ValueView>{values}, Impl::SortOptions{},
                                   k...);
      },
      keys.views);
}

/// The same as sort_by_key (a sort by several keys with values is always stable).
template <class ExecSpace, class... Keys, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void stable_sort_by_key(const ExecSpace& space, const KeyList<Keys...>& keys,
                        const ValueView& values, const Comp& comp = Comp{}) {
  sort_by_key(space, keys, values, comp);
}

/// perm[i] = the input position of the i-th element in the stable lexicographic order of the
/// keys (as sort above); the keys are left as they are (they may be const).
/// Synchronization: as above.
template <class ExecSpace, class... Keys, class PermView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_permutation(const ExecSpace& space, const KeyList<Keys...>& keys, const PermView& perm,
                      const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort_permutation";
  const Impl::Region region(fn);
  (void)comp;
  const auto& first = std::get<0>(keys.views);
  std::apply([&](const auto&... k) { Impl::check_key_list<ExecSpace, Comp, false>(fn, k...); },
             keys.views);
  const std::size_t n = first.extent(0);
  Impl::check_all_reachable<ExecSpace>(fn, "perm", perm);
  Impl::check_index_output<ExecSpace>(fn, "perm", perm, n, n ? n - 1 : 0);
  std::apply([&](const auto&... k) { (Impl::check_no_alias(fn, "perm", perm, "keys", k), ...); },
             keys.views);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::multi_key_sort_bound<ExecSpace, void, true,
                                      typename Keys::non_const_value_type...>(std::int64_t(n));
  });
  const auto perm_n = Kokkos::subview(perm, Kokkos::make_pair(std::size_t(0), n));
  std::apply(
      [&](const auto&... k) {
        Impl::multi_key_permutation<Comp>(space, perm_n, Impl::SortOptions{}, k...);
      },
      keys.views);
}

/// The sorts by several keys on the first key's execution space; each fences it.
template <class... Keys, class Comp = less<>>
void sort(const KeyList<Keys...>& keys, const Comp& comp = Comp{}) {
  using ExecSpace = typename std::tuple_element_t<0, std::tuple<Keys...>>::execution_space;
  const ExecSpace space;
  sort(space, keys, comp);
  space.fence("Ordo::sort: fence");
}

/// See above.
template <class... Keys, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<ValueView>, int> = 0>
void sort_by_key(const KeyList<Keys...>& keys, const ValueView& values, const Comp& comp = Comp{}) {
  using ExecSpace = typename std::tuple_element_t<0, std::tuple<Keys...>>::execution_space;
  const ExecSpace space;
  sort_by_key(space, keys, values, comp);
  space.fence("Ordo::sort_by_key: fence");
}

/// See above.
template <class... Keys, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<ValueView>, int> = 0>
void stable_sort_by_key(const KeyList<Keys...>& keys, const ValueView& values,
                        const Comp& comp = Comp{}) {
  sort_by_key(keys, values, comp);
}

/// See above.
template <class... Keys, class PermView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<PermView>, int> = 0>
void sort_permutation(const KeyList<Keys...>& keys, const PermView& perm,
                      const Comp& comp = Comp{}) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  sort_permutation(space, keys, perm, comp);
  space.fence("Ordo::sort_permutation: fence");
}

// ---- team level ----------------------------------------------------------------------------

/// Team-level sort for use inside a user's TeamPolicy kernel: every thread of the team calls it
/// with the same arguments; keys may be a global or a scratch View. Allocates nothing and needs
/// no scratch of its own (sort_team_scratch_size is 0). Not stable. On CUDA, in teams of whole
/// warps, segments of up to 1024 records of 4 bytes (512 otherwise) sort in one warp's registers;
/// longer ones sort in runs of 512 records, one run per warp at a time, which the portable network
/// then merges through the View.
/// Synchronization: ends with a team barrier, after which keys are sorted.
template <class Member, class KeyView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_team(const Member& member, const KeyView& keys,
                                      const Comp& comp = Comp{}) {
  using Key = typename KeyView::non_const_value_type;
  Impl::team_sort<Member, Impl::Codec<Key, Comp>>(member, keys, Impl::NoValueView{}, comp);
}

/// sort_team that moves values[i] with keys[i]. values must hold keys.extent(0) elements
/// (checked with ORDO_ENABLE_DEBUG_CHECKS: Kokkos::abort).
template <class Member, class KeyView, class ValueView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_by_key_team(const Member& member, const KeyView& keys,
                                             const ValueView& values, const Comp& comp = Comp{}) {
  Impl::kernel_check(values.extent(0) >= keys.extent(0),
                     "Ordo::sort_by_key_team: values is shorter than keys");
  using Key = typename KeyView::non_const_value_type;
  Impl::team_sort<Member, Impl::Codec<Key, Comp>>(member, keys, values, comp);
}

/// Sort by the vector lanes of the calling team thread only (one vector-lane group), e.g. one
/// small segment per team thread. Allocates nothing. Synchronization: the lanes are synchronized
/// when it returns.
template <class Member, class KeyView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_thread(const Member& member, const KeyView& keys,
                                        const Comp& comp = Comp{}) {
  using Key = typename KeyView::non_const_value_type;
  Impl::thread_sort<Member, Impl::Codec<Key, Comp>>(member, keys, Impl::NoValueView{}, comp);
}

/// sort_thread that moves values[i] with keys[i] (Kokkos::Experimental::sort_by_key_thread's
/// form). Not stable. values must hold keys.extent(0) elements (checked with
/// ORDO_ENABLE_DEBUG_CHECKS: Kokkos::abort).
template <class Member, class KeyView, class ValueView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_by_key_thread(const Member& member, const KeyView& keys,
                                               const ValueView& values, const Comp& comp = Comp{}) {
  Impl::kernel_check(values.extent(0) >= keys.extent(0),
                     "Ordo::sort_by_key_thread: values is shorter than keys");
  using Key = typename KeyView::non_const_value_type;
  Impl::thread_sort<Member, Impl::Codec<Key, Comp>>(member, keys, values, comp);
}

/// Scratch bytes sort_team, sort_by_key_team and sort_thread need from the caller: none. (To
/// sort a segment in scratch, allocate segment_scratch_size<Key>(n) for its keys.)
constexpr std::size_t sort_team_scratch_size(std::size_t /*n*/) { return 0; }

/// Team scratch for a View of n elements of T (Kokkos aligns scratch allocations to 8 bytes).
template <class T>
constexpr std::size_t segment_scratch_size(std::size_t n) {
  return (n * sizeof(T) + 7) / 8 * 8 + 8;
}

}  // namespace Ordo

#endif
