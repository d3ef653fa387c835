// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTIMPL_HPP
#define ORDO_IMPL_SORTIMPL_HPP

// Device level of sort (the slab sort, its hybrid with merge path, the radix and vendor sorts):
// dispatch and the order of the kernels (the argument checks: Ordo_SortChecks.hpp).
//   device_sort   the block kernel, streaming merge levels (Ordo_SortBlocksImpl.hpp), then
//                 merge passes (Ordo_SortMergePassImpl.hpp) between two workspace buffers; the
//                 last kernel writes the caller's Views
//   host_sort     host backends: the merge sort of chunks (Ordo_SortHostImpl.hpp), or from
//                 HostRadixTuning's from on for encoded keys the radix sort
//                 (Ordo_SortHostRadixImpl.hpp): host_sort_records chooses
//   radix_sort    arithmetic keys from RadixTuning's `from` on: the onesweep radix sort
//                 (Ordo_SortRadixImpl.hpp)
//   vendor_sort   arithmetic keys from VendorSortTuning's `from` on, where the build has a vendor
//                 sort for the space (CUDA: CUB, Ordo_SortVendorImpl.hpp)
//   sort_records  the choice between them, and the entry points of Ordo_Sort.hpp's calls
// Records flow from a source (the caller's keys, encoded, with their values, input positions or
// nothing) through workspace buffers to a sink (the caller's Views, decoded): Ordo_SortRecords.hpp.

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_PermutationImpl.hpp>
#include <impl/device/Ordo_SortBlocksImpl.hpp>
#include <impl/device/Ordo_SortChecks.hpp>
#include <impl/device/Ordo_SortHostImpl.hpp>
#include <impl/device/Ordo_SortHostRadixImpl.hpp>
#include <impl/device/Ordo_SortMergePassImpl.hpp>
#include <impl/device/Ordo_SortRadixImpl.hpp>
#include <impl/device/Ordo_SortVendorImpl.hpp>
#include <impl/lane/Ordo_MergePath.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace Ordo::Impl {

// ---- device backends -------------------------------------------------------------------------

template <class ExecSpace, class T>
using SortBuffer = WorkspaceView<T, ExecSpace>;

// Sorts n records from `source` into `sink` under `order` (on keys K, values V): the block
// kernel, then streaming merge levels (in place, in buffer 0), then merge passes between buffers
// 0 and 1; the last kernel writes the sink.
template <class ExecSpace, class K, class V, class Source, class Sink, class Order>
void device_sort(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                 const Order& order, bool seam, const SortOptions& options) {
  constexpr std::int64_t block = SortTypes<ExecSpace, K, V>::block;
  const int stream = stream_levels<typename SortTypes<ExecSpace, K, V>::Tuning>(n, options);
  int levels = 0;
  std::int64_t passes = 0;
  for (std::int64_t run = block; run < n; run *= 2) {
    if (levels < stream) {
      ++levels;
    } else {
      ++passes;
    }
  }
  if (levels + passes == 0) {
    sort_blocks<false, ExecSpace, K, V>(space, n, source, sink, order, seam);
    return;
  }
  constexpr bool with_values = !std::is_same_v<V, NoValue>;
  using KeyBuf = SortBuffer<ExecSpace, K>;
  using ValueBuf = SortBuffer<ExecSpace, StoredValue<V>>;
  using ValueEnd = std::conditional_t<with_values, PlainEnd<ValueBuf>, NoEnd>;
  using BufferEnds = Ends<PlainEnd<KeyBuf>, ValueEnd>;
  const std::int64_t vn = with_values ? n : 0;
  const KeyBuf k0 = workspace<K>(space, n, WorkspaceSlot::sort_keys0);
  const KeyBuf k1 = passes > 1 ? workspace<K>(space, n, WorkspaceSlot::sort_keys1) : KeyBuf();
  const ValueBuf v0 = workspace<StoredValue<V>>(space, vn, WorkspaceSlot::sort_values0);
  const ValueBuf v1 =
      passes > 1 ? workspace<StoredValue<V>>(space, vn, WorkspaceSlot::sort_values1) : ValueBuf();
  auto buffer_ends = [&](const KeyBuf& k, const ValueBuf& v) {
    if constexpr (with_values) {
      return BufferEnds{PlainEnd<KeyBuf>{k}, ValueEnd{v}};
    } else {
      (void)v;
      return BufferEnds{PlainEnd<KeyBuf>{k}, ValueEnd{}};
    }
  };
  const BufferEnds b0 = buffer_ends(k0, v0);
  sort_blocks<false, ExecSpace, K, V>(space, n, source, b0, order, seam);
  for (int level = 1; level <= levels; ++level) {
    stream_flip<2, ExecSpace, K, V>(space, n, block, 1 << level, b0, order);
    if (level == levels && passes == 0) {
      sort_blocks<true, ExecSpace, K, V>(space, n, b0, sink, order, seam);
    } else {
      sort_blocks<true, ExecSpace, K, V>(space, n, b0, b0, order, seam);
    }
  }
  // Each pass but the last writes samples of its runs for the next pass's partition (the first
  // pass partitions without: the runs it merges come from the block or streaming kernels).
  constexpr std::int64_t sample = SortTypes<ExecSpace, K, V>::Tuning::partition_sample;
  static_assert(block % sample == 0, "runs start at sampled positions");
  const KeyBuf samples =
      passes > 1 ? workspace<K>(space, (n + sample - 1) / sample, WorkspaceSlot::sort_samples)
                 : KeyBuf();
  const auto less = order.less;
  std::int64_t run = block << levels;
  for (std::int64_t pass = 1; pass <= passes; ++pass) {
    const KeyBuf& in_k = pass % 2 ? k0 : k1;
    const ValueBuf& in_v = pass % 2 ? v0 : v1;
    const KeyBuf samples_in = pass > 1 ? samples : KeyBuf();
    // The pass into the next buffer, or the last into the sink.
    if (pass == passes) {
      sort_merge_pass<ExecSpace, K, V>(space, n, run, in_k, in_v, sink, samples_in, KeyBuf(), less,
                                       options);
    } else {
      sort_merge_pass<ExecSpace, K, V>(space, n, run, in_k, in_v,
                                       buffer_ends(pass % 2 ? k1 : k0, pass % 2 ? v1 : v0),
                                       samples_in, samples, less, options);
    }
    run *= 2;
  }
}

// ---- dispatch --------------------------------------------------------------------------------

// Which sort n records (keys by Codec, values V) take: options.algorithm, or by the tuning's
// bounds (where the build has vendor sorts: the vendor radix sort from VendorSortTuning's from, its
// merge sort from merge_from, Ordo's radix sort from RadixTuning's from, else the slab sort); the
// vendor radix sort only where the build has one for the space (else the radix sort), its merge
// sort likewise (else the slab sort), the radix and vendor sorts only for encoded keys (else the
// slab sort).
template <class ExecSpace, class Codec, class V>
SortAlgorithm sort_algorithm(std::int64_t n, const SortOptions& options) {
  if constexpr (Codec::encoded) {
    using Types = SortTypes<ExecSpace, typename Codec::Bits, V>;
    using VendorTuning = typename Types::VendorSort;
    constexpr bool vendor = vendor_sort_available_v<ExecSpace>;
    constexpr std::int64_t merge_from =
        Codec::floating ? VendorTuning::merge_float_from : VendorTuning::merge_from;
    SortAlgorithm a = options.algorithm;
    if (a == SortAlgorithm::automatic) {
      a = !vendor ? (n >= Types::Radix::from ? SortAlgorithm::radix : SortAlgorithm::slab)
          : n >= VendorTuning::from ? SortAlgorithm::vendor
          : n >= merge_from         ? SortAlgorithm::vendor_merge
          : n >= Types::Radix::from ? SortAlgorithm::radix
                                    : SortAlgorithm::slab;
    }
    if (a == SortAlgorithm::vendor && !vendor) a = SortAlgorithm::radix;
    if (a == SortAlgorithm::vendor_merge && !vendor) a = SortAlgorithm::slab;
    return a;
  } else {
    (void)n;
    (void)options;
    return SortAlgorithm::slab;
  }
}

// Whether a sort takes one of the radix sorts or the vendor merge sort, which are stable whatever
// the values are.
template <class ExecSpace, class Codec, class V>
bool radix_chosen(std::int64_t n, const SortOptions& options) {
  return sort_algorithm<ExecSpace, Codec, V>(n, options) != SortAlgorithm::slab;
}

// The host backends' sort of n records (stable either way): the radix sort of encoded keys from
// HostRadixTuning's from on, else the merge sort of chunks.
template <class Codec, class V, class ExecSpace, class Source, class Sink>
void host_sort_records(const ExecSpace& space, std::int64_t n, const Source& source,
                       const Sink& sink, const typename Codec::Less& less) {
  using K = typename Codec::Bits;
  if constexpr (Codec::encoded) {
    if (n >= HostRadixTuning<ExecSpace>::from) {
      host_radix_sort<ExecSpace, K, V>(space, n, source, sink);
      return;
    }
  }
  host_sort<ExecSpace, K, V>(space, n, source, sink, less);
}

// Sorts n records of `source` (keys encoded by Codec, values of type V) into `sink`; stable: ties
// keep input order (the slab sorts on device backends: V must then be the input position; the
// radix sorts are stable whatever V is).
template <class Codec, bool Stable, class V, class ExecSpace, class Source, class Sink>
void sort_records(const ExecSpace& space, std::int64_t n, const Source& source, const Sink& sink,
                  const typename Codec::Less& less, const SortOptions& options) {
  using K = typename Codec::Bits;
  using Less = typename Codec::Less;
  if (n == 0) return;
  if constexpr (Codec::encoded) {
    const SortAlgorithm algorithm = sort_algorithm<ExecSpace, Codec, V>(n, options);
    switch (algorithm) {
      case SortAlgorithm::vendor:
      case SortAlgorithm::vendor_merge:
        if constexpr (vendor_sort_available_v<ExecSpace>) {
          using VendorTuning = typename SortTypes<ExecSpace, K, V>::VendorSort;
          const std::int64_t bits_from =
              Codec::floating ? VendorTuning::float_bits_from : VendorTuning::bits_from;
          const bool bits = options.key_bits < 0 &&
                            (options.vendor_bits < 0 ? n >= bits_from : options.vendor_bits > 0);
          vendor_sort<Codec, V>("Ordo::sort", space, n, source, sink, bits,
                                algorithm == SortAlgorithm::vendor_merge, options.key_bits);
          return;
        }
        break;
      case SortAlgorithm::radix:
        radix_sort<ExecSpace, K, V>(space, n, source, sink, options.path == SortPath::automatic);
        return;
      default: break;
    }
  }
  if constexpr (is_host_space_v<ExecSpace>) {
    if (options.path == SortPath::automatic) {
      host_sort_records<Codec, V>(space, n, source, sink, less);
      return;
    }
  }
  if constexpr (Stable && !std::is_integral_v<V>) {
    // The stable slab sort orders ties by the values, which must be input positions: callers
    // send other values stably only where the radix, vendor or host sort takes them.
    throw std::logic_error("Ordo::sort: a stable slab sort of values that are not positions");
  } else {
    const RecordOrder<Less, Stable> order{less};
    device_sort<ExecSpace, K, V>(space, n, source, sink, order,
                                 Codec::encoded && options.path == SortPath::automatic, options);
  }
}

// ---- entry points ----------------------------------------------------------------------------

// The entry points below the public calls (which check their arguments first); the tests and
// ordo-perf call them with SortOptions.
template <class ExecSpace, class KeyView, class Comp>
void sort(const ExecSpace& space, const KeyView& keys, const Comp& comp,
          const SortOptions& options) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  const Ends<CodecKeys<C, KeyView>, NoEnd> ends{{keys}, {}};
  sort_records<C, false, NoValue>(space, std::int64_t(keys.extent(0)), ends, ends, C::less_of(comp),
                                  options);
}

template <class ExecSpace, class KeyView, class ValueView, class Comp>
void sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                 const Comp& comp, const SortOptions& options) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  using V = typename ValueView::non_const_value_type;
  const Ends<CodecKeys<C, KeyView>, PlainEnd<ValueView>> ends{{keys}, {values}};
  sort_records<C, false, V>(space, std::int64_t(keys.extent(0)), ends, ends, C::less_of(comp),
                            options);
}

// The stable order's permutation into perm; sorted keys into sorted_keys unless that is NoEnd.
template <class ExecSpace, class KeyView, class PermView, class KeysOut, class Comp>
void stable_permutation(const ExecSpace& space, const KeyView& keys, const PermView& perm,
                        const KeysOut& sorted_keys, const Comp& comp, const SortOptions& options) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  const Ends<CodecKeys<C, KeyView>, PositionValues<PermView>> source{{keys}, {perm}};
  const Ends<KeysOut, PositionValues<PermView>> sink{sorted_keys, {perm}};
  sort_records<C, true, std::uint32_t>(space, std::int64_t(keys.extent(0)), source, sink,
                                       C::less_of(comp), options);
}

// The stable sort of n records whose keys are an end of records (the caller's View through the
// codec, or the fields of several key Views: Ordo_SortMultiKeyImpl.hpp), sorted in place with
// the values moved with them.
template <class C, class ExecSpace, class KeysEnd, class ValueView>
void stable_sort_end_by_key(const ExecSpace& space, std::int64_t n, const KeysEnd& keys,
                            const ValueView& values, const typename C::Less& less,
                            const SortOptions& options) {
  using V = typename ValueView::non_const_value_type;
  const Ends<KeysEnd, PlainEnd<ValueView>> ends{keys, {values}};
  if (radix_chosen<ExecSpace, C, V>(n, options)) {
    // The radix sort is stable: the values move with their keys, no permutation.
    sort_records<C, true, V>(space, n, ends, ends, less, options);
  } else if constexpr (is_host_space_v<ExecSpace>) {
    // The host sort is stable on records that carry the values themselves, whatever the path
    // (the portable network breaks ties by the values, which are positions only on devices).
    if (n > 0) host_sort_records<C, V>(space, n, ends, ends, less);
  } else {
    // The slab sort's stable form: the order and the sorted keys, then the values.
    const auto perm = workspace<std::uint32_t>(space, n, WorkspaceSlot::sort_permutation);
    const Ends<KeysEnd, PositionValues<decltype(perm)>> records{keys, {perm}};
    sort_records<C, true, std::uint32_t>(space, n, records, records, less, options);
    apply_permutation_impl(space, perm, values);
  }
}

template <class ExecSpace, class KeyView, class ValueView, class Comp>
void stable_sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                        const Comp& comp, const SortOptions& options) {
  using C = Codec<typename KeyView::non_const_value_type, Comp>;
  stable_sort_end_by_key<C>(space, std::int64_t(keys.extent(0)), CodecKeys<C, KeyView>{keys},
                            values, C::less_of(comp), options);
}

// Out of place: `out` (the length of `in`, no alias) gets `in` sorted, `in` is left as it was
// (Ordo::MPI's local sort). The radix sort reads `in` in its first pass and writes `out` in its
// last; the other paths copy, then sort `out` in place.
template <class ExecSpace, class InView, class OutView, class Comp>
void sort_into(const ExecSpace& space, const InView& in, const OutView& out, const Comp& comp,
               const SortOptions& options = {}) {
  using Key = typename OutView::non_const_value_type;
  using C = Codec<Key, Comp>;
  const std::int64_t n = in.extent(0);
  if (radix_chosen<ExecSpace, C, NoValue>(n, options)) {
    const Ends<CodecKeys<C, InView>, NoEnd> source{{in}, {}};
    const Ends<CodecKeys<C, OutView>, NoEnd> sink{{out}, {}};
    sort_records<C, false, NoValue>(space, n, source, sink, C::less_of(comp), options);
  } else {
    Kokkos::deep_copy(space, out, in);
    sort(space, out, comp, options);
  }
}

// stable_sort_by_key out of place, as sort_into.
template <class ExecSpace, class InKeys, class InValues, class OutKeys, class OutValues, class Comp>
void stable_sort_by_key_into(const ExecSpace& space, const InKeys& keys, const InValues& values,
                             const OutKeys& out_keys, const OutValues& out_values, const Comp& comp,
                             const SortOptions& options = {}) {
  using Key = typename OutKeys::non_const_value_type;
  using C = Codec<Key, Comp>;
  using V = typename OutValues::non_const_value_type;
  const std::int64_t n = keys.extent(0);
  if (radix_chosen<ExecSpace, C, V>(n, options)) {
    const Ends<CodecKeys<C, InKeys>, PlainEnd<InValues>> source{{keys}, {values}};
    const Ends<CodecKeys<C, OutKeys>, PlainEnd<OutValues>> sink{{out_keys}, {out_values}};
    sort_records<C, true, V>(space, n, source, sink, C::less_of(comp), options);
  } else {
    Kokkos::deep_copy(space, out_keys, keys);
    Kokkos::deep_copy(space, out_values, values);
    stable_sort_by_key(space, out_keys, out_values, comp, options);
  }
}

}  // namespace Ordo::Impl

#endif
