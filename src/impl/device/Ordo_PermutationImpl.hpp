// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_PERMUTATIONIMPL_HPP
#define ORDO_IMPL_PERMUTATIONIMPL_HPP

// Device level of apply_permutation: one launch saves every View's old contents as one record a
// position (Ordo::apply_permutation::save), one gathers them all by the permutation
// (Ordo::apply_permutation::gather). sort_permutation is a sort (Ordo_SortImpl.hpp).

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

namespace Ordo::Impl {

// Debug check: every position perm holds lies in [0, perm.extent(0)).
template <class ExecSpace, class PermView>
void check_permutation_range(const char* fn, const ExecSpace& space, const PermView& perm) {
  const std::int64_t n = perm.extent(0);
  std::int64_t bad = 0;
  Kokkos::parallel_reduce(
      "Ordo::apply_permutation::check",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t & b) {
        if (std::int64_t(perm(i)) < 0 || std::int64_t(perm(i)) >= n) ++b;
      },
      bad);
  if (bad) fail(fn, "perm holds positions outside [0, " + std::to_string(n) + ")");
}

// The Views apply_permutation gathers. Their old contents are saved as one record a position
// (every View's element, or row of a rank-2 View, at its offset in the record), so that the gather
// reads each source position's record from one place: a random read of a few sectors instead of
// one sector per View.
template <class... Views>
struct PermutedViews {
  PermutedViews(std::size_t) {}
  static constexpr std::size_t alignment = 1;
  KOKKOS_INLINE_FUNCTION void save(std::byte*, std::int64_t) const {}
  KOKKOS_INLINE_FUNCTION void gather(const std::byte*, std::int64_t) const {}
};

template <class View, class... Rest>
struct PermutedViews<View, Rest...> {
  using T = typename View::non_const_value_type;
  static constexpr std::size_t alignment = alignof(T) > PermutedViews<Rest...>::alignment
                                               ? alignof(T)
                                               : PermutedViews<Rest...>::alignment;
  View view;
  std::int64_t m;      // elements a row
  std::size_t offset;  // bytes into the record
  PermutedViews<Rest...> rest;

  // offset: the first free byte of the record before this View's element.
  PermutedViews(std::size_t first, const View& v, const Rest&... r)
      : view(v),
        m(View::rank() == 2 ? std::int64_t(v.extent(1)) : 1),
        offset((first + alignof(T) - 1) / alignof(T) * alignof(T)),
        rest(offset + sizeof(T) * std::size_t(m), r...) {}
  // The record's size: past the last View's element, rounded to the largest alignment.
  std::size_t end() const {
    if constexpr (sizeof...(Rest) == 0) {
      return offset + sizeof(T) * std::size_t(m);
    } else {
      return rest.end();
    }
  }
  KOKKOS_INLINE_FUNCTION void save(std::byte* record, std::int64_t i) const {
    T* p = reinterpret_cast<T*>(record + offset);
    if constexpr (View::rank() == 2) {
      for (std::int64_t c = 0; c < m; ++c) p[c] = view(i, c);
    } else {
      *p = view(i);
    }
    rest.save(record, i);
  }
  KOKKOS_INLINE_FUNCTION void gather(const std::byte* record, std::int64_t i) const {
    const T* p = reinterpret_cast<const T*>(record + offset);
    if constexpr (View::rank() == 2) {
      for (std::int64_t c = 0; c < m; ++c) view(i, c) = p[c];
    } else {
      view(i) = *p;
    }
    rest.gather(record, i);
  }
};

template <class Pack, class Records>
struct SavePermuted {
  Pack pack;
  Records records;
  std::size_t size;  // bytes a record
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    pack.save(records.data() + i * size, i);
  }
};

template <class Pack, class Records, class PermView>
struct GatherPermuted {
  Pack pack;
  Records records;
  std::size_t size;
  PermView perm;
  // An entry outside [0, n) (an error under ORDO_ENABLE_DEBUG_CHECKS) leaves position i as it was.
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t j = std::int64_t(perm(i));
    if (j >= 0 && j < std::int64_t(perm.extent(0))) pack.gather(records.data() + j * size, i);
  }
};

template <class ExecSpace, class PermView, class... Views>
void apply_permutation_impl(const ExecSpace& space, const PermView& perm, const Views&... views) {
  const std::int64_t n = perm.extent(0);
  if (n == 0) return;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Pack = PermutedViews<Views...>;
  const Pack pack(0, views...);
  const std::size_t size = (pack.end() + Pack::alignment - 1) / Pack::alignment * Pack::alignment;
  // The Views' memory space (apply_permutation's Views share one: they are all reachable from
  // the space, and the records live where the first one does).
  using Memory = typename std::tuple_element_t<0, std::tuple<Views...>>::memory_space;
  const auto records = workspace<std::byte, ExecSpace, Memory>(space, std::size_t(n) * size,
                                                               WorkspaceSlot::permutation_records);
  using Records = decltype(records);
  Kokkos::parallel_for("Ordo::apply_permutation::save", Range(space, 0, n),
                       SavePermuted<Pack, Records>{pack, records, size});
  Kokkos::parallel_for("Ordo::apply_permutation::gather", Range(space, 0, n),
                       GatherPermuted<Pack, Records, PermView>{pack, records, size, perm});
}

}  // namespace Ordo::Impl

#endif
