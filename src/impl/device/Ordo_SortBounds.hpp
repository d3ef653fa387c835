// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTBOUNDS_HPP
#define ORDO_IMPL_SORTBOUNDS_HPP

// Device level: upper bounds of the workspace the sorts and segmented sorts take, for the
// queries (sort_workspace_bytes, segmented_sort_workspace_bytes) and the calls' reservations
// (Ordo::set_workspace_limit). Each follows the allocations of the path the dispatch takes with
// the default options; the radix and vendor sorts' bounds sit beside their allocations
// (radix_sort_bound, vendor_sort_bound). The tests hold every call to its bound.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_SegmentedSortBins.hpp>
#include <impl/device/Ordo_SegmentedSortImpl.hpp>
#include <impl/device/Ordo_SortHostRadixImpl.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/device/Ordo_SortRadixImpl.hpp>
#include <impl/device/Ordo_SortVendorImpl.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// The host sorts' workspace on n records: two buffers of records (the merge and the radix sort),
// the radix sort's counts.
template <class ExecSpace, class K, class V>
std::size_t host_sort_bound(std::int64_t n) {
  return host_radix_sort_bound<ExecSpace, K, V>(n);
}

// device_sort's workspace on n records: the two buffers, the samples, the partition.
template <class ExecSpace, class K, class V>
std::size_t device_sort_bound(std::int64_t n) {
  constexpr std::int64_t block = SortTypes<ExecSpace, K, V>::block;
  constexpr std::int64_t sample = SortTypes<ExecSpace, K, V>::Tuning::partition_sample;
  if (n <= block) return 0;
  const std::int64_t vn = std::is_same_v<V, NoValue> ? 0 : n;
  return 2 * slot_bytes<K>(n) + 2 * slot_bytes<StoredValue<V>>(vn) +
         slot_bytes<K>((n + sample - 1) / sample) + tile_words_bytes(n);
}

// An upper bound of the workspace sort_records<Codec, Stable, V> takes on n records with the
// default options: that of the sort it dispatches to (the vendor, radix, host or slab sort).
template <class ExecSpace, class Codec, class V>
std::size_t sort_records_bound(std::int64_t n) {
  using K = typename Codec::Bits;
  if (n <= 0) return 0;
  if constexpr (Codec::encoded) {  // only encoded keys take the radix and vendor sorts
    switch (sort_algorithm<ExecSpace, Codec, V>(n, SortOptions{})) {
      case SortAlgorithm::vendor: return vendor_sort_bound<ExecSpace, K, V>(n);
      // Where the ends are not raw (strided Views) the merge sort falls back to the radix sort's
      // staged way.
      case SortAlgorithm::vendor_merge:
        return std::max(vendor_merge_sort_bound<ExecSpace, Codec, V>(n),
                        vendor_sort_bound<ExecSpace, K, V>(n));
      case SortAlgorithm::radix: return radix_sort_bound<ExecSpace, K, V>(n);
      default: break;
    }
  }
  if constexpr (is_host_space_v<ExecSpace>) {
    return host_sort_bound<ExecSpace, K, V>(n);
  } else {
    return device_sort_bound<ExecSpace, K, V>(n);
  }
}

// The workspace of the public sorts of n keys (Value void: sort; else sort_by_key; stable:
// stable_sort_by_key, or sort_permutation where Value is void).
template <class ExecSpace, class Key, class Value, class Comp>
std::size_t sort_bound(std::int64_t n, bool stable) {
  using C = Codec<Key, Comp>;
  constexpr bool with_values = !std::is_void_v<Value>;
  using V = std::conditional_t<with_values, Value, NoValue>;
  if (!stable || (with_values && radix_chosen<ExecSpace, C, V>(n, SortOptions{}))) {
    return sort_records_bound<ExecSpace, C, V>(n);
  }
  if constexpr (!with_values) {
    return sort_records_bound<ExecSpace, C, std::uint32_t>(n);  // sort_permutation
  } else if constexpr (is_host_space_v<ExecSpace>) {
    return host_sort_bound<ExecSpace, typename C::Bits, V>(n);
  } else {
    // The stable permutation, then apply_permutation's copy of the values.
    return slot_bytes<std::uint32_t>(n) + sort_records_bound<ExecSpace, C, std::uint32_t>(n) +
           slot_bytes<V>(n);
  }
}

// The most any of the sorts takes on up to n records (sorts of a number of records known only
// as they run: the segmented sort's long segments).
template <class ExecSpace, class Codec, class V>
std::size_t any_sort_bound(std::int64_t n) {
  using K = typename Codec::Bits;
  std::size_t most = device_sort_bound<ExecSpace, K, V>(n);
  if constexpr (Codec::encoded) {
    most = std::max(most, radix_sort_bound<ExecSpace, K, V>(n));
    if constexpr (vendor_sort_available_v<ExecSpace>) {
      most = std::max({most, vendor_sort_bound<ExecSpace, K, V>(n),
                       vendor_merge_sort_bound<ExecSpace, Codec, V>(n)});
    }
  }
  if constexpr (is_host_space_v<ExecSpace>) {
    most = std::max(most, host_sort_bound<ExecSpace, K, V>(n));
  }
  return most;
}

// An upper bound of the workspace of the public segmented sorts of n records in `segments`
// segments (Value void: keys only; stable: the stable forms): the census; on host backends the
// host sort of a segment as long as all of them; on device backends the bins' lists, the long
// segments' buffers and their two sorts (taken as if every record lay in a long segment), with
// the stable forms' positions and copy of the values.
template <class ExecSpace, class Key, class Value, class Comp>
std::size_t segmented_sort_bound(std::int64_t n, std::int64_t segments, bool stable) {
  using C = Codec<Key, Comp>;
  using K = typename C::Bits;
  constexpr bool with_values = !std::is_void_v<Value>;
  using V = std::conditional_t<with_values, Value, NoValue>;
  using Types = SortTypes<ExecSpace, K, V>;
  using Bins = SegmentBins<typename Types::Segments>;
  if (segments <= 0) return 0;
  const std::size_t census = slot_bytes<std::int64_t>(Bins::count + 2);
  if constexpr (is_host_space_v<ExecSpace>) {
    // Segments up to host_grain sort in buffers of their own, per thread; longer ones by the
    // host sort, one at a time.
    (void)stable;
    return census + (n > Types::Tuning::host_grain ? host_sort_bound<ExecSpace, K, V>(n) : 0);
  } else {
    // The stable forms sort input positions with the keys on device backends.
    const bool positions = stable && with_values;
    const std::size_t value_bytes = positions ? 4 : with_values ? sizeof(StoredValue<V>) : 0;
    const std::int64_t long_segments = std::min(segments, n / (Types::Segments::team_max + 1));
    std::size_t bytes = census + slot_bytes<std::uint32_t>(segments) +
                        slot_bytes<std::int64_t>(long_segments + 1) +
                        3 * slot_bytes<std::uint32_t>(n) + slot_bytes<K>(n) +
                        (value_bytes ? slot_bytes<std::byte>(n * value_bytes) : 0) +
                        any_sort_bound<ExecSpace, C, std::uint32_t>(n) +
                        radix_sort_bound<ExecSpace, std::uint32_t, std::uint32_t>(n);
    if (positions) bytes += slot_bytes<std::uint32_t>(n) + slot_bytes<V>(n);
    return bytes;
  }
}

}  // namespace Ordo::Impl

#endif
