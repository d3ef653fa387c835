// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTVENDORIMPL_HPP
#define ORDO_IMPL_SORTVENDORIMPL_HPP

// Device level of the vendor sorts: the vendor radix sort of the space (Vendor::sort and sort_into:
// on CUDA cub::DeviceRadixSort, device/cuda/Ordo_Cuda_Cub.hpp; on HIP with Ordo_ENABLE_ROCPRIM
// rocPRIM's, device/hip/Ordo_Hip_Rocprim.hpp; both order keys alike, written "CUB" below) and, at
// middle sizes, the vendor merge sort (Vendor::sort_merge: cub::DeviceMergeSort on CUDA), with
// Ordo's contract around them. The merge sort sorts the caller's contiguous Views in place with
// Ordo's order as its comparator (vendor_merge_sort). Three ways into the radix sort:
//   direct  the caller's contiguous Views, in place: CUB sorts between them and workspace buffers;
//           when it ends in the workspace, the records are copied back
//   into    the caller's contiguous input Views to its output Views (sort_into): CUB reads the
//           input and writes the output
//   staged  anything else (strided Views, input positions as values, discarded keys, and floats
//           holding -0.0 or a NaN, which CUB orders otherwise: -0.0 equal to +0.0, NaNs by their
//           sign): Ordo::sort::vendor::stage encodes the records into a workspace buffer
//           (Ordo_SortKeys.hpp), CUB sorts the encoded records, Ordo::sort::vendor::store decodes
//           them into the sink
// The bits that vary: from VendorSortTuning's bits_from on (floating-point keys:
// float_bits_from), CUB sorts only the bits where the keys differ (u64 cell ids below 2^20
// take three digit passes of eight, all-equal keys none), found on the device and read back (the
// call waits for it): by Ordo::sort::vendor::bits (one read of the keys that stops as soon as no
// pass can be saved; for floats it also finds -0.0 and NaNs, and only with it do floats take the
// direct way), or in the staged way's stage. Every way is stable; keys and values are those of
// Ordo's other paths bit for bit.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Tuning.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_SortVendorBits.hpp>
#include <impl/device/Ordo_VendorCalls.hpp>
#include <impl/lane/Ordo_LookbackWord.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Ordo::Impl {

// Whether this build has a vendor sort for ExecSpace.
template <class ExecSpace>
inline constexpr bool vendor_sort_available_v = Vendor<ExecSpace>::radix_sort;

// An end of the records that CUB can read or write as it is: a contiguous View of the caller's
// keys or values, or no values.
template <class End>
struct RawEnd : std::false_type {};
template <class C, class View>
struct RawEnd<CodecKeys<C, View>> : std::bool_constant<is_contiguous_1d_v<View>> {
  using type = typename View::non_const_value_type;
};
template <class View>
struct RawEnd<PlainEnd<View>> : std::bool_constant<is_contiguous_1d_v<View>> {
  using type = typename View::non_const_value_type;
};
template <>
struct RawEnd<NoEnd> : std::true_type {
  using type = void;
};

template <class End>
auto raw_data(const End& end) {
  if constexpr (std::is_same_v<End, NoEnd>) {
    (void)end;
    return static_cast<void*>(nullptr);
  } else {
    return end.view.data();
  }
}

// Whether CUB can sort from source to sink without staging: raw ends of the same key and value
// types.
template <class SK, class SV, class DK, class DV,
          bool Raw = RawEnd<SK>::value&& RawEnd<SV>::value&& RawEnd<DK>::value&& RawEnd<DV>::value>
struct RawEnds : std::false_type {};
template <class SK, class SV, class DK, class DV>
struct RawEnds<SK, SV, DK, DV, true>
    : std::bool_constant<std::is_same_v<typename RawEnd<SK>::type, typename RawEnd<DK>::type> &&
                         std::is_same_v<typename RawEnd<SV>::type, typename RawEnd<DV>::type>> {};
template <class Source, class Sink>
inline constexpr bool raw_ends_v = RawEnds<decltype(Source::keys), decltype(Source::values),
                                           decltype(Sink::keys), decltype(Sink::values)>::value;

// Staged path: record i of the source, encoded, to buffers 0; its bits that differ from the first
// record's into the reduction (when the bits are wanted).
template <bool WithValues, class Bits, class SV, class Source>
struct VendorStage {
  Source source;
  Bits* keys;
  SV* values;
  KOKKOS_INLINE_FUNCTION Bits load(std::int64_t i) const {
    const Bits k = source.keys.load(i);
    keys[i] = k;
    if constexpr (WithValues) values[i] = source.values.load(i);
    return k;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { load(i); }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::uint64_t& varying) const {
    varying |= std::uint64_t(load(i) ^ source.keys.load(0));
  }
};

// Staged path: the sorted encoded records to the sink, decoded.
template <bool WithValues, class Bits, class SV, class Sink>
struct VendorStore {
  Sink sink;
  const Bits* keys;
  const SV* values;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    sink.keys.store(i, keys[i]);
    if constexpr (WithValues) sink.values.store(i, values[i]);
  }
};

// The direct and into ways: CUB on the caller's Views as they are. Returns false, having changed
// nothing, where the staged way must run instead (float keys that may hold -0.0 or NaNs).
template <class Codec, class V, class ExecSpace, class Source, class Sink>
bool vendor_sort_raw(const char* fn, const ExecSpace& space, std::int64_t n, const Source& source,
                     const Sink& sink, bool bits, int key_bits) {
  using Key = typename RawEnd<decltype(Source::keys)>::type;
  using CubValue = typename RawEnd<decltype(Source::values)>::type;
  constexpr bool with_values = !std::is_void_v<CubValue>;
  using SV = std::conditional_t<with_values, CubValue, char>;
  // Without the bits, floats cannot be shown free of -0.0 and NaNs.
  if (std::is_floating_point_v<Key> && (!bits || key_bits >= 0)) return false;
  const auto in_keys = source.keys.view;
  Key* const out_keys = raw_data(sink.keys);
  CubValue* const out_values = raw_data(sink.values);
  const CubValue* const in_values = raw_data(source.values);
  const bool in_place = raw_data(source.keys) == out_keys;
  const std::int64_t alt = in_place ? n : 0;
  // The workspace first: an allocation that fails leaves the inputs as they were, before any
  // kernel has read them.
  const auto alt_keys = workspace<Key>(space, alt, WorkspaceSlot::sort_keys1);
  const auto alt_values = workspace<SV>(space, with_values ? alt : 0, WorkspaceSlot::sort_values1);
  Key* const keys[2] = {out_keys, alt_keys.data()};
  CubValue* values[2] = {out_values, nullptr};
  if constexpr (with_values) values[1] = alt_values.data();
  BitRange range{0, key_bits >= 0 ? key_bits : int(8 * sizeof(Key))};
  int current = 0;
  // The vendor's two ways in: between keys (values) and the workspace buffers, or into the output.
  const auto sort = [&](void* temp, std::size_t& bytes) {
    Vendor<ExecSpace>::sort(fn, temp, bytes, keys, values, current, n, range.begin, range.end,
                            Codec::descending, space);
  };
  const auto sort_into = [&](void* temp, std::size_t& bytes) {
    Vendor<ExecSpace>::sort_into(fn, temp, bytes, in_keys.data(), out_keys, in_values, out_values,
                                 n, range.begin, range.end, Codec::descending, space);
  };
  const auto temp_for = [&] {
    const VendorShape shape{n, 0, range.begin, range.end};
    return in_place ? vendor_temp(space, shape, sort) : vendor_temp(space, shape, sort_into);
  };
  temp_for();
  const auto words = workspace<std::int64_t>(space, 2, WorkspaceSlot::vendor_bits);
  if (bits) {
    bool special = false;
    std::tie(range, special) = vendor_bits(space, in_keys, n, words);
    if (special) return false;
  }
  if (range.end == 0) {  // every key equal: the input order is the sorted order
    if (!in_place) {
      Kokkos::deep_copy(space, sink.keys.view, in_keys);
      if constexpr (with_values) Kokkos::deep_copy(space, sink.values.view, source.values.view);
    }
    return true;
  }
  const auto temp = temp_for();
  std::size_t bytes = temp.extent(0);
  if (!in_place) {
    sort_into(temp.data(), bytes);
    return true;
  }
  sort(temp.data(), bytes);
  if (current == 1) {
    using Pair = Kokkos::pair<std::int64_t, std::int64_t>;
    Kokkos::deep_copy(space, sink.keys.view, Kokkos::subview(alt_keys, Pair(0, n)));
    if constexpr (with_values) {
      Kokkos::deep_copy(space, sink.values.view, Kokkos::subview(alt_values, Pair(0, n)));
    }
  }
  return true;
}

// The staged way: encoded records (Ordo's order, descending already complemented), sorted
// ascending by CUB between two workspace buffers.
template <class Codec, class V, class ExecSpace, class Source, class Sink>
void vendor_sort_staged(const char* fn, const ExecSpace& space, std::int64_t n,
                        const Source& source, const Sink& sink, bool bits, int key_bits) {
  using Bits = typename Codec::Bits;
  using SV = StoredValue<V>;
  constexpr bool with_values = !std::is_same_v<V, NoValue>;
  using CubValue = std::conditional_t<with_values, V, void>;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Memory = typename ExecSpace::memory_space;
  const std::int64_t vn = with_values ? n : 0;
  const auto k0 = workspace<Bits>(space, n, WorkspaceSlot::sort_keys0);
  const auto k1 = workspace<Bits>(space, n, WorkspaceSlot::sort_keys1);
  const auto v0 = workspace<SV>(space, vn, WorkspaceSlot::sort_values0);
  const auto v1 = workspace<SV>(space, vn, WorkspaceSlot::sort_values1);
  Bits* const keys[2] = {k0.data(), k1.data()};
  CubValue* values[2] = {nullptr, nullptr};
  if constexpr (with_values) {
    values[0] = v0.data();
    values[1] = v1.data();
  }
  int current = 0;
  BitRange range{0, key_bits >= 0 ? key_bits : int(8 * sizeof(Bits))};
  const auto sort = [&](void* temp, std::size_t& bytes) {
    Vendor<ExecSpace>::sort(fn, temp, bytes, keys, values, current, n, range.begin, range.end,
                            false, space);
  };
  vendor_temp(space, VendorShape{n, 0, range.begin, range.end}, sort);
  const auto words = workspace<std::int64_t>(space, 1, WorkspaceSlot::vendor_bits);
  const VendorStage<with_values, Bits, SV, Source> stage{source, k0.data(), v0.data()};
  if (bits) {
    const Kokkos::View<std::uint64_t, Memory, Kokkos::MemoryUnmanaged> varying(
        reinterpret_cast<std::uint64_t*>(words.data()));
    Kokkos::parallel_reduce("Ordo::sort::vendor::stage", Range(space, 0, n), stage,
                            Kokkos::BOr<std::uint64_t, Memory>(varying));
    range = BitRange::of(
        std::uint64_t(read_back<1>(space, words, "Ordo::sort: the bits that vary")[0]));
  } else {
    Kokkos::parallel_for("Ordo::sort::vendor::stage", Range(space, 0, n), stage);
  }
  if (range.end > 0) {
    const auto temp = vendor_temp(space, VendorShape{n, 0, range.begin, range.end}, sort);
    std::size_t bytes = temp.extent(0);
    sort(temp.data(), bytes);
  }
  Kokkos::parallel_for("Ordo::sort::vendor::store", Range(space, 0, n),
                       VendorStore<with_values, Bits, SV, Sink>{sink, keys[current],
                                                                current ? v1.data() : v0.data()});
}

// Ordo's order of two keys, for CUB's merge sort: by their encoded bits (floats: -0.0 before +0.0,
// NaNs after +inf; Ordo::greater complemented).
template <class Codec, class Key>
struct EncodedLess {
  KOKKOS_INLINE_FUNCTION bool operator()(const Key& a, const Key& b) const {
    return Codec::encode(a) < Codec::encode(b);
  }
};

// The vendor merge sort (Vendor::merge_sort: cub::DeviceMergeSort on CUDA), where it beats the slab
// sort (VendorSortTuning's merge_from up to from): the caller's contiguous Views in place
// (from a source that is not the sink, copied first), Ordo's order as the comparator. Returns
// false, having changed nothing, where the ends are not raw or n does not fit an int (then the
// vendor radix sort runs).
template <class Codec, class V, class ExecSpace, class Source, class Sink>
bool vendor_merge_sort(const char* fn, const ExecSpace& space, std::int64_t n, const Source& source,
                       const Sink& sink) {
  if constexpr (!raw_ends_v<Source, Sink> || !Vendor<ExecSpace>::merge_sort) {
    return false;
  } else {
    if (!Vendor<ExecSpace>::takes_size(n, 0)) return false;  // the vendor's int count
    using Key = typename RawEnd<decltype(Sink::keys)>::type;
    using CubValue = typename RawEnd<decltype(Sink::values)>::type;
    Key* const keys = raw_data(sink.keys);
    CubValue* const values = raw_data(sink.values);
    const auto sort = [&](void* temp, std::size_t& bytes) {
      Vendor<ExecSpace>::sort_merge(fn, temp, bytes, keys, values, n, EncodedLess<Codec, Key>{},
                                    space);
    };
    const auto temp = vendor_temp(space, VendorShape{n}, sort);
    std::size_t bytes = temp.extent(0);
    if (raw_data(source.keys) != keys) {
      Kokkos::deep_copy(space, sink.keys.view, source.keys.view);
      if constexpr (!std::is_void_v<CubValue>) {
        Kokkos::deep_copy(space, sink.values.view, source.values.view);
      }
    }
    sort(temp.data(), bytes);
    return true;
  }
}

// Sorts n records of `source` (keys encoded by Codec, values V) into `sink`, stably, by the vendor
// merge sort (merge) or radix sort; bits: find the bits that vary first; key_bits >= 0: the encoded
// keys lie below 2^key_bits (SortOptions), the radix sort sorts those bits only.
template <class Codec, class V, class ExecSpace, class Source, class Sink>
void vendor_sort(const char* fn, const ExecSpace& space, std::int64_t n, const Source& source,
                 const Sink& sink, [[maybe_unused]] bool bits, [[maybe_unused]] bool merge = false,
                 [[maybe_unused]] int key_bits = -1) {
  static_assert(vendor_sort_available_v<ExecSpace>, "no vendor sort for this space in this build");
  if (merge && vendor_merge_sort<Codec, V>(fn, space, n, source, sink)) return;
  if constexpr (raw_ends_v<Source, Sink>) {
    if (vendor_sort_raw<Codec, V>(fn, space, n, source, sink, bits, key_bits)) return;
  }
  vendor_sort_staged<Codec, V>(fn, space, n, source, sink, bits, key_bits);
}

// vendor_sort's workspace on n records: the most of its three ways (the staged way's four buffers
// and the direct way's two with the vendor's storage for its double buffer; the into way's
// storage, in which the vendor keeps its own second buffer), the vendor asked for the storage of
// all the keys' bits.
template <class ExecSpace, class K, class V>
std::size_t vendor_sort_bound([[maybe_unused]] std::int64_t n) {
  if constexpr (!vendor_sort_available_v<ExecSpace>) {
    return 0;
  } else {
    constexpr bool with_values = !std::is_same_v<V, NoValue>;
    using CubValue = std::conditional_t<with_values, V, void>;
    const std::int64_t vn = with_values ? n : 0;
    K* const keys[2] = {nullptr, nullptr};
    CubValue* const values[2] = {nullptr, nullptr};
    const ExecSpace space;
    int current = 0;
    const int bits = int(8 * sizeof(K));
    const VendorShape shape{n, 0, 0, bits};
    const std::size_t both = vendor_temp_bytes(shape, [&](void* temp, std::size_t& bytes) {
      Vendor<ExecSpace>::sort("Ordo::sort", temp, bytes, keys, values, current, n, 0, bits, false,
                              space);
    });
    const std::size_t into = vendor_temp_bytes(shape, [&](void* temp, std::size_t& bytes) {
      Vendor<ExecSpace>::sort_into("Ordo::sort", temp, bytes, keys[0], keys[1], values[0],
                                   values[1], n, 0, bits, false, space);
    });
    const std::size_t words = slot_bytes<std::int64_t>(2);
    const std::size_t staged = 2 * slot_bytes<K>(n) + 2 * slot_bytes<StoredValue<V>>(vn);
    return words + std::max(staged + slot_bytes<std::byte>(std::int64_t(both)),
                            slot_bytes<std::byte>(std::int64_t(into)));
  }
}

// The vendor merge sort's workspace on n records (keys by Codec, values V): CUB's storage.
template <class ExecSpace, class Codec, class V>
std::size_t vendor_merge_sort_bound([[maybe_unused]] std::int64_t n) {
  if constexpr (!Vendor<ExecSpace>::merge_sort) {
    return 0;
  } else {
    using Key = typename Codec::Original;
    using CubValue = std::conditional_t<std::is_same_v<V, NoValue>, void, V>;
    const std::size_t bytes = vendor_temp_bytes(VendorShape{n}, [&](void* temp, std::size_t& size) {
      Vendor<ExecSpace>::sort_merge("Ordo::sort", temp, size, static_cast<Key*>(nullptr),
                                    static_cast<CubValue*>(nullptr), n, EncodedLess<Codec, Key>{},
                                    ExecSpace{});
    });
    return slot_bytes<std::byte>(std::int64_t(bytes));
  }
}

}  // namespace Ordo::Impl

#endif
