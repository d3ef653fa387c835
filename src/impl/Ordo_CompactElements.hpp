// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_COMPACTELEMENTS_HPP
#define ORDO_IMPL_COMPACTELEMENTS_HPP

// Device level of compaction (Ordo_CopyIfImpl.hpp): which elements copy_if and copy_flagged keep
// (selections) and what they write for a kept one (emitters). retrieve_all's are in
// Ordo_RetrieveAllImpl.hpp.

#include <impl/Ordo_TileIO.hpp>
#include <impl/Ordo_Traits.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo::Impl {

// Which elements a compaction keeps: pred(in(i)) for copy_if, flags(i) for copy_flagged.
// A by-value selection (by_value) decides from the element the emitter loads: of_value(load(i))
// is operator()(i), and kernels that hold the element test it without a second read.
template <class InView, class Pred>
struct SelectByPredicate {
  InView in;
  Pred pred;
  static constexpr bool by_value = true;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return pred(in(i)); }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T& v) const {
    return pred(v);
  }
};

template <class FlagView>
struct SelectByFlag {
  FlagView flags;
  static constexpr bool by_value = false;
  KOKKOS_INLINE_FUNCTION bool operator()(std::int64_t i) const { return bool(flags(i)); }
  template <class T>
  KOKKOS_INLINE_FUNCTION bool of_value(const T&) const {
    return false;
  }
};

// What copy_if writes for a kept element: out(pos) = in(i). Emitters load an element and store
// it separately, so that kernels can issue several loads before their stores. Where in is
// contiguous, `group` consecutive elements load as one vector (vector_group, Ordo_TileIO.hpp) from
// a group-aligned index when aligned() (1: element by element).
template <class InView, class OutView>
struct EmitElement {
  using value_type = typename InView::non_const_value_type;
  static constexpr int group = is_contiguous_1d_v<InView> ? vector_group<value_type> : 1;
  InView in;
  OutView out;
  bool aligned() const { return group > 1 && vector_aligned<group>(in.data()); }
  KOKKOS_INLINE_FUNCTION std::int64_t capacity() const { return out.extent(0); }
  KOKKOS_INLINE_FUNCTION value_type load(std::int64_t i) const { return in(i); }
  template <int G>
  KOKKOS_INLINE_FUNCTION void load_group(std::int64_t i, value_type* v) const {
    load_vector<G>(in.data() + i, v);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t pos, const value_type& v) const { out(pos) = v; }
};

// Runs launch(std::integral_constant<int, G>) with G = Emit::group where the emitter loads
// aligned groups on a device backend's warp seam, else G = 1.
template <class ExecSpace, class Emit, class Launch>
void with_load_group(const Emit& emit, bool warp, const Launch& launch) {
  if constexpr (Emit::group > 1 && !is_host_space_v<ExecSpace>) {
    if (warp && emit.aligned()) {
      launch(std::integral_constant<int, Emit::group>{});
      return;
    }
  }
  (void)emit, (void)warp;
  launch(std::integral_constant<int, 1>{});
}

}  // namespace Ordo::Impl

#endif
