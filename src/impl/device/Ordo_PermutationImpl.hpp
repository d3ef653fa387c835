// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_PERMUTATIONIMPL_HPP
#define ORDO_IMPL_PERMUTATIONIMPL_HPP

// Device level of apply_permutation: one launch saves every View's old contents
// (Ordo::apply_permutation::save), one gathers them all by the permutation
// (Ordo::apply_permutation::gather). sort_permutation is a sort (Ordo_SortImpl.hpp).

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

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

// apply_permutation's copies of the old contents: one workspace slot per View it permutes.
enum class PermutationSlot : int {};

// The Views apply_permutation gathers, each with a copy of its old contents in the workspace
// (slot I of PermutationSlot, in the View's memory space).
template <int I, class... Views>
struct PermutedViews {
  template <class ExecSpace>
  PermutedViews(const ExecSpace&, std::int64_t) {}
  KOKKOS_INLINE_FUNCTION void save(std::int64_t) const {}
  KOKKOS_INLINE_FUNCTION void gather(std::int64_t, std::int64_t) const {}
};

// A rank-2 View moves whole rows: its copy holds row i at [i * m, (i + 1) * m).
template <int I, class View, class... Rest>
struct PermutedViews<I, View, Rest...> {
  using T = typename View::non_const_value_type;
  using Memory = typename View::memory_space;
  View view;
  std::int64_t m;  // elements a row
  Kokkos::View<T*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>> copy;
  PermutedViews<I + 1, Rest...> rest;

  template <class ExecSpace>
  PermutedViews(const ExecSpace& space, std::int64_t n, const View& v, const Rest&... r)
      : view(v),
        m(View::rank() == 2 ? std::int64_t(v.extent(1)) : 1),
        copy(workspace<T, ExecSpace, Memory>(space, std::size_t(n * m), PermutationSlot(I))),
        rest(space, n, r...) {}
  KOKKOS_INLINE_FUNCTION void save(std::int64_t i) const {
    if constexpr (View::rank() == 2) {
      for (std::int64_t c = 0; c < m; ++c) copy(i * m + c) = view(i, c);
    } else {
      copy(i) = view(i);
    }
    rest.save(i);
  }
  KOKKOS_INLINE_FUNCTION void gather(std::int64_t i, std::int64_t j) const {
    if constexpr (View::rank() == 2) {
      for (std::int64_t c = 0; c < m; ++c) view(i, c) = copy(j * m + c);
    } else {
      view(i) = copy(j);
    }
    rest.gather(i, j);
  }
};

template <class Pack>
struct SavePermuted {
  Pack pack;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { pack.save(i); }
};

template <class Pack, class PermView>
struct GatherPermuted {
  Pack pack;
  PermView perm;
  // An entry outside [0, n) (an error under ORDO_ENABLE_DEBUG_CHECKS) leaves position i as it was.
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t j = std::int64_t(perm(i));
    if (j >= 0 && j < std::int64_t(perm.extent(0))) pack.gather(i, j);
  }
};

template <class ExecSpace, class PermView, class... Views>
void apply_permutation_impl(const ExecSpace& space, const PermView& perm, const Views&... views) {
  const std::int64_t n = perm.extent(0);
  if (n == 0) return;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Pack = PermutedViews<0, Views...>;
  const Pack pack(space, n, views...);
  Kokkos::parallel_for("Ordo::apply_permutation::save", Range(space, 0, n),
                       SavePermuted<Pack>{pack});
  Kokkos::parallel_for("Ordo::apply_permutation::gather", Range(space, 0, n),
                       GatherPermuted<Pack, PermView>{pack, perm});
}

}  // namespace Ordo::Impl

#endif
