// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_SORTMULTIKEYIMPL_HPP
#define ORDO_IMPL_SORTMULTIKEYIMPL_HPP

// Device level of the sorts by several keys (Ordo::keys(k0, k1, ...): k0 first, ties broken by k1,
// and so on). Two ways:
//   packed  one reduction finds the range of each key's encoded bits (Ordo::<algo>::spans, read
//           back); where the ranges' widths sum to at most 64 bits, every key becomes a field of
//           one unsigned word (k0 the highest), 32 bits where they fit. The sorts read the words
//           straight from the key Views and write the sorted keys back field by field (the
//           PackedKeys end: no packed buffer), so the radix and vendor sorts see one key that
//           holds only the bits that vary.
//   chained otherwise: the stable order of the last key, then for each key before it (last to
//           first) its bits gathered in that order (Ordo::<algo>::gather) and stably sorted with
//           the order; the order then moves the keys and values (apply_permutation).
// Both are stable.

#include <impl/core/Ordo_SortKeys.hpp>
#include <impl/core/Ordo_Traits.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_PermutationImpl.hpp>
#include <impl/device/Ordo_SortBounds.hpp>
#include <impl/device/Ordo_SortImpl.hpp>
#include <impl/lane/Ordo_SortRecords.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace Ordo::Impl {

// The range of each key's encoded bits, [lo[k], hi[k]].
template <int K>
struct KeySpans {
  std::uint64_t lo[K], hi[K];
};

// The key Views as fields of one word: view k's encoded key, less lo, shifted up by shift (its
// width: mask's). The fields form a chain (k0 first) so that device code holds no tuple.
template <class Comp, class... Views>
struct KeyFields {
  static constexpr int size = 0;
  template <class Bits>
  KOKKOS_INLINE_FUNCTION Bits pack(std::int64_t) const {
    return 0;
  }
  template <class Bits>
  KOKKOS_INLINE_FUNCTION void unpack(std::int64_t, Bits) const {}
  template <int K>
  KOKKOS_INLINE_FUNCTION void extend(std::int64_t, KeySpans<K>&, int) const {}
};

template <class Comp, class View, class... Rest>
struct KeyFields<Comp, View, Rest...> {
  using C = Codec<typename View::non_const_value_type, Comp>;
  static constexpr int size = 1 + sizeof...(Rest);
  View view;
  KeyFields<Comp, Rest...> rest;
  std::uint64_t lo = 0, mask = 0;
  int shift = 0;

  template <class Bits>
  KOKKOS_INLINE_FUNCTION Bits pack(std::int64_t i) const {
    const Bits field = mask ? Bits((std::uint64_t(C::encode(view(i))) - lo) << shift) : Bits(0);
    return field | rest.template pack<Bits>(i);
  }
  template <class Bits>
  KOKKOS_INLINE_FUNCTION void unpack(std::int64_t i, Bits b) const {
    const std::uint64_t field = mask ? (std::uint64_t(b) >> shift) & mask : 0;
    view(i) = C::decode(typename C::Bits(field + lo));
    rest.unpack(i, b);
  }
  // The spans of this element's keys, from field k on.
  template <int K>
  KOKKOS_INLINE_FUNCTION void extend(std::int64_t i, KeySpans<K>& s, int k) const {
    const std::uint64_t b = std::uint64_t(C::encode(view(i)));
    s.lo[k] = b < s.lo[k] ? b : s.lo[k];
    s.hi[k] = b > s.hi[k] ? b : s.hi[k];
    rest.extend(i, s, k + 1);
  }
};

template <class Comp>
KeyFields<Comp> key_fields() {
  return {};
}

template <class Comp, class View, class... Rest>
KeyFields<Comp, View, Rest...> key_fields(const View& view, const Rest&... rest) {
  KeyFields<Comp, View, Rest...> f;
  f.view = view;
  f.rest = key_fields<Comp>(rest...);
  return f;
}

template <class Fields>
struct FindKeySpans {
  using value_type = KeySpans<Fields::size>;
  Fields fields;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, value_type& s) const {
    fields.extend(i, s, 0);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const {
    for (int k = 0; k < Fields::size; ++k) s.lo[k] = ~std::uint64_t(0), s.hi[k] = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const {
    for (int k = 0; k < Fields::size; ++k) {
      d.lo[k] = s.lo[k] < d.lo[k] ? s.lo[k] : d.lo[k];
      d.hi[k] = s.hi[k] > d.hi[k] ? s.hi[k] : d.hi[k];
    }
  }
};

// Sets each field's lo, mask and shift from the spans; returns the bits the fields take.
template <class Fields, int K>
int place_fields(Fields& f, const KeySpans<K>& s, int k = 0) {
  if constexpr (Fields::size == 0) {
    (void)f, (void)s, (void)k;
    return 0;
  } else {
    const int below = place_fields(f.rest, s, k + 1);
    const int width = int(Kokkos::bit_width(s.hi[k] - s.lo[k]));
    f.lo = s.lo[k];
    f.mask = width == 0 ? 0 : (~std::uint64_t(0) >> (64 - width));
    f.shift = below;
    return below + width;
  }
}

// A sort's end of records that reads and writes the keys as the fields of one word of Bits.
template <class Bits, class Fields>
struct PackedKeys {
  Fields fields;
  KOKKOS_INLINE_FUNCTION Bits load(std::int64_t i) const { return fields.template pack<Bits>(i); }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, const Bits& b) const { fields.unpack(i, b); }
};

// The width the fields of these keys take (read back; the call waits for it), and the fields
// placed. 0 keys: 0 bits.
template <class Comp, class ExecSpace, class... Views>
std::pair<KeyFields<Comp, Views...>, int> packed_fields(const std::string& algo,
                                                        const ExecSpace& space, std::int64_t n,
                                                        const Views&... views) {
  auto fields = key_fields<Comp>(views...);
  KeySpans<sizeof...(Views)> spans;
  Kokkos::parallel_reduce(
      "Ordo::" + algo + "::spans",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      FindKeySpans<decltype(fields)>{fields}, spans);
  const int bits = place_fields(fields, spans);
  return {fields, bits};
}

// ---- the chained way -------------------------------------------------------------------------

template <class Comp, class KeyView, class OrderView, class BitsView>
struct GatherEncoded {
  using C = Codec<typename KeyView::non_const_value_type, Comp>;
  KeyView keys;
  OrderView order;
  BitsView bits;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t j = order(i);
    // The order holds positions of keys (the sort wrote them); checked all the same.
    bits(i) = j >= 0 && j < std::int64_t(keys.extent(0)) ? C::encode(keys(j)) : typename C::Bits(0);
  }
};

// refine(key) for the keys before the last, from the last but one to the first.
template <class Tuple, class F, std::size_t... I>
void refine_each(const Tuple& keys, const F& refine, std::index_sequence<I...>) {
  constexpr std::size_t K = std::tuple_size_v<Tuple>;
  (refine(std::get<K - 2 - I>(keys)), ...);
}

// order (n positions): the stable lexicographic order of the keys under comp.
template <class Comp, class ExecSpace, class OrderView, class... Views>
void chained_order(const std::string& algo, const ExecSpace& space, const OrderView& order,
                   const SortOptions& options, const Views&... views) {
  const std::tuple<Views...> keys(views...);
  constexpr std::size_t K = sizeof...(Views);
  const auto& last = std::get<K - 1>(keys);
  const std::int64_t n = last.extent(0);
  stable_permutation(space, last, order, NoEnd{}, Comp{}, options);
  // Each key before the last, from the last but one to the first.
  auto refine = [&](const auto& key) {
    using C = Codec<typename std::decay_t<decltype(key)>::non_const_value_type, Comp>;
    using Bits = typename C::Bits;
    const auto bits = workspace<Bits>(space, n, WorkspaceSlot::multikey_bits);
    Kokkos::parallel_for(
        "Ordo::" + algo + "::gather",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
        GatherEncoded<Comp, std::decay_t<decltype(key)>, OrderView, decltype(bits)>{key, order,
                                                                                    bits});
    stable_sort_by_key(space, bits, order, less<>{}, options);
  };
  refine_each(keys, refine, std::make_index_sequence<K - 1>{});
}

// ---- the entry points (Ordo_Sort.hpp checks their arguments) -------------------------------

// The packed sorts run on words of Bits: 32 bits where the fields fit, else 64.
template <class F>
void with_packed_bits(int bits, const F& f) {
  if (bits <= 32) {
    f(std::uint32_t{});
  } else {
    f(std::uint64_t{});
  }
}

// The keys sorted in place, values (a View, or none: NoEnd) moved with them, stably.
template <class Comp, class ExecSpace, class ValueEnd, class... Views>
void multi_key_sort(const ExecSpace& space, const ValueEnd& values, const SortOptions& options,
                    const Views&... views) {
  constexpr const char* algo = "sort_by_keys";
  const std::int64_t n = std::get<0>(std::tie(views...)).extent(0);
  if (n == 0) return;
  const auto packed = packed_fields<Comp>(algo, space, n, views...);
  if (packed.second <= 64) {
    SortOptions known = options;  // the vendor sort sorts the fields' bits only
    if (known.key_bits < 0) known.key_bits = packed.second;
    with_packed_bits(packed.second, [&](auto word) {
      using Bits = decltype(word);
      using C = Codec<Bits, less<>>;
      const PackedKeys<Bits, std::decay_t<decltype(packed.first)>> keys{packed.first};
      const auto key_less = C::less_of(less<>{});
      if constexpr (std::is_same_v<ValueEnd, NoEnd>) {
        // Equal words are equal keys: without values any sort is stable.
        const Ends<decltype(keys), NoEnd> ends{keys, {}};
        sort_records<C, false, NoValue>(space, n, ends, ends, key_less, known);
      } else {
        stable_sort_end_by_key<C>(space, n, keys, values.view, key_less, known);
      }
    });
    return;
  }
  const auto order = workspace<std::uint32_t>(space, n, WorkspaceSlot::multikey_order);
  chained_order<Comp>(algo, space, order, options, views...);
  if constexpr (std::is_same_v<ValueEnd, NoEnd>) {
    apply_permutation_impl(space, order, views...);
  } else {
    apply_permutation_impl(space, order, views..., values.view);
  }
}

// perm: the stable lexicographic order of the keys (left as they are).
template <class Comp, class ExecSpace, class PermView, class... Views>
void multi_key_permutation(const ExecSpace& space, const PermView& perm, const SortOptions& options,
                           const Views&... views) {
  constexpr const char* algo = "sort_permutation";
  const std::int64_t n = perm.extent(0);
  if (n == 0) return;
  const auto packed = packed_fields<Comp>(algo, space, n, views...);
  if (packed.second <= 64) {
    SortOptions known = options;  // the vendor sort sorts the fields' bits only
    if (known.key_bits < 0) known.key_bits = packed.second;
    with_packed_bits(packed.second, [&](auto word) {
      using Bits = decltype(word);
      using C = Codec<Bits, less<>>;
      const PackedKeys<Bits, std::decay_t<decltype(packed.first)>> keys{packed.first};
      const Ends<decltype(keys), PositionValues<PermView>> source{keys, {perm}};
      const Ends<NoEnd, PositionValues<PermView>> sink{{}, {perm}};
      sort_records<C, true, std::uint32_t>(space, n, source, sink, C::less_of(less<>{}), known);
    });
    return;
  }
  const auto order = workspace<std::uint32_t>(space, n, WorkspaceSlot::multikey_order);
  chained_order<Comp>(algo, space, order, options, views...);
  Kokkos::deep_copy(space, perm, order);
}

// ---- argument checks ------------------------------------------------------------------------

// in_place: the keys are sorted (not the permutation form).
template <class ExecSpace, class Comp, bool in_place, class First, class... Views>
void check_key_list(const char* fn, const First& first, const Views&... views) {
  static_check_views<ExecSpace, First, Views...>();
  static_assert(!in_place || (!std::is_const_v<typename First::value_type> && ... &&
                              !std::is_const_v<typename Views::value_type>),
                "Ordo: keys are sorted in place");
  static_assert(is_less_v<Comp> || is_greater_v<Comp>,
                "Ordo: a sort by several keys orders each key by Ordo::less<> or Ordo::greater<>");
  static_assert((is_transformable_key_v<typename First::non_const_value_type> && ... &&
                 is_transformable_key_v<typename Views::non_const_value_type>),
                "Ordo: the keys of a sort by several keys are 4- or 8-byte integers or "
                "floating-point numbers");
  check_all_reachable<ExecSpace>(fn, "a key View", first);
  (check_all_reachable<ExecSpace>(fn, "a key View", views), ...);
  (check_size_equal(fn, "a key View", views, first.extent(0), "as many keys as the first"), ...);
  check_no_alias_among(fn, "key Views", first, views...);
  check_sort_size(fn, first);
}

// ---- workspace bounds -------------------------------------------------------------------------

// An upper bound of the workspace of a sort by these keys with values V (void: none; stable
// always), or of the permutation form (permutation: true), on n elements.
template <class ExecSpace, class V, bool permutation, class... Keys>
std::size_t multi_key_sort_bound(std::int64_t n) {
  if (n <= 0) return 0;
  using Value = std::conditional_t<permutation, void, V>;
  auto packed = [&](auto word) {
    using Bits = decltype(word);
    std::size_t b = sort_bound<ExecSpace, Bits, Value, less<>>(n, true);
    if constexpr (!std::is_void_v<Value>) {
      b = std::max(b, slot_bytes<std::uint32_t>(n) +
                          sort_records_bound<ExecSpace, Codec<Bits, less<>>, std::uint32_t>(n) +
                          slot_bytes<Value>(n));
    }
    return b;
  };
  const std::size_t packed_bound = std::max(packed(std::uint32_t{}), packed(std::uint64_t{}));
  const std::size_t refine =
      std::max({std::size_t(0),
                (slot_bytes<typename Codec<Keys, less<>>::Bits>(n) +
                 sort_bound<ExecSpace, typename Codec<Keys, less<>>::Bits, std::uint32_t, less<>>(
                     n, true))...});
  std::size_t moved = 0;
  if constexpr (!permutation) {
    moved = (slot_bytes<Keys>(n) + ...);
    if constexpr (!std::is_void_v<V>) moved += slot_bytes<V>(n);
  }
  const std::size_t chained = slot_bytes<std::uint32_t>(n) + std::max(refine, moved);
  return std::max(packed_bound, chained);
}

}  // namespace Ordo::Impl

#endif
