// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_SEGMENTEDSORT_HPP
#define ORDO_SEGMENTEDSORT_HPP

// segmented_sort, segmented_sort_by_key, stable_segmented_sort_by_key: every CRS segment
// [offsets(s), offsets(s + 1)) sorted in place (sparse matrix rows, particles in cells).

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_SegmentedSortImpl.hpp>
#include <impl/device/Ordo_SortBounds.hpp>
#include <impl/device/Ordo_SortImpl.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace Ordo {

/// Sorts each segment [offsets(s), offsets(s + 1)) of keys in place under comp (not stable);
/// keys outside every segment are untouched. offsets: n_segments + 1 integers of any type,
/// non-decreasing, offsets(0) >= 0 (need not be 0), offsets(n_segments) <= keys.extent(0); empty
/// segments and zero segments (one offset) are valid. Bad offsets throw std::invalid_argument
/// before anything moves (one pass over them on the device, one read back). Keys and comparators:
/// those of Ordo::sort. Synchronization: the offsets' check reads back one result (a fence of
/// `space`); the sort itself is asynchronous on `space`.
template <class ExecSpace, class KeyView, class OffsetView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void segmented_sort(const ExecSpace& space, const KeyView& keys, const OffsetView& offsets,
                    const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::segmented_sort";
  const Impl::Region region(fn);
  Impl::check_segmented<ExecSpace>(fn, keys, offsets);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::segmented_sort_bound<ExecSpace, typename KeyView::non_const_value_type, void,
                                      Comp>(keys.extent(0), std::int64_t(offsets.extent(0)) - 1,
                                            false);
  });
  Impl::segmented_sort(fn, space, keys, offsets, comp, Impl::SortOptions{});
}

/// segmented_sort on keys' execution space. Synchronization: fences that space.
template <class KeyView, class OffsetView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void segmented_sort(const KeyView& keys, const OffsetView& offsets, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  segmented_sort(space, keys, offsets, comp);
  space.fence("Ordo::segmented_sort: fence");
}

/// segmented_sort that moves values[i] with keys[i] (not stable).
template <class ExecSpace, class KeyView, class ValueView, class OffsetView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void segmented_sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                           const OffsetView& offsets, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::segmented_sort_by_key";
  const Impl::Region region(fn);
  Impl::check_segmented_by_key<ExecSpace>(fn, keys, values, offsets);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::segmented_sort_bound<ExecSpace, typename KeyView::non_const_value_type,
                                      typename ValueView::non_const_value_type, Comp>(
        keys.extent(0), std::int64_t(offsets.extent(0)) - 1, false);
  });
  Impl::segmented_sort_by_key(fn, space, keys, values, offsets, comp, Impl::SortOptions{});
}

/// The same on the keys' execution space; fences it.
template <class KeyView, class ValueView, class OffsetView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void segmented_sort_by_key(const KeyView& keys, const ValueView& values, const OffsetView& offsets,
                           const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  segmented_sort_by_key(space, keys, values, offsets, comp);
  space.fence("Ordo::segmented_sort_by_key: fence");
}

/// segmented_sort_by_key in which equal keys of a segment keep their input order.
template <class ExecSpace, class KeyView, class ValueView, class OffsetView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void stable_segmented_sort_by_key(const ExecSpace& space, const KeyView& keys,
                                  const ValueView& values, const OffsetView& offsets,
                                  const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::stable_segmented_sort_by_key";
  const Impl::Region region(fn);
  Impl::check_segmented_by_key<ExecSpace>(fn, keys, values, offsets);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::segmented_sort_bound<ExecSpace, typename KeyView::non_const_value_type,
                                      typename ValueView::non_const_value_type, Comp>(
        keys.extent(0), std::int64_t(offsets.extent(0)) - 1, true);
  });
  Impl::stable_segmented_sort_by_key(fn, space, keys, values, offsets, comp, Impl::SortOptions{});
}

/// The same on the keys' execution space; fences it.
template <class KeyView, class ValueView, class OffsetView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void stable_segmented_sort_by_key(const KeyView& keys, const ValueView& values,
                                  const OffsetView& offsets, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  stable_segmented_sort_by_key(space, keys, values, offsets, comp);
  space.fence("Ordo::stable_segmented_sort_by_key: fence");
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) that one segmented sort of n
/// keys of type Key in `segments` segments takes: Value void, segmented_sort; otherwise
/// segmented_sort_by_key with values of type Value, or with stable,
/// stable_segmented_sort_by_key. The call reserves this much before anything runs
/// (Ordo::set_workspace_limit). Host backends sort segments longer than 16 records in buffers of
/// their own, per thread, outside the workspace.
template <class ExecSpace, class Key, class Value = void, class Comp = less<>>
std::size_t segmented_sort_workspace_bytes(std::size_t n, std::size_t segments,
                                           bool stable = false) {
  return Impl::reserved_bytes<ExecSpace>(Impl::segmented_sort_bound<ExecSpace, Key, Value, Comp>(
      std::int64_t(n), std::int64_t(segments), stable));
}

}  // namespace Ordo

#endif
