// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_PERMUTATIONIMPL_HPP
#define ORDO_IMPL_PERMUTATIONIMPL_HPP

// Device level of gather and apply_permutation: one kernel moves the rows of every View by one
// read of the permutation (Ordo::gather::rows, Ordo::apply_permutation::gather). gather writes
// destination Views from source Views; apply_permutation first saves every View's old contents
// in the workspace (Ordo::apply_permutation::save), then gathers from the saved copies with the
// same kernel. sort_permutation is a sort (Ordo_SortImpl.hpp).

#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>

namespace Ordo::Impl {

// The positions a permutation may hold where its sources have `bound` rows (the smallest source).
template <class PermView>
struct PositionsInRange {
  PermView perm;
  std::int64_t bound;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& bad) const {
    const std::int64_t j = std::int64_t(perm(i));
    if (j < 0 || j >= bound) ++bad;
  }
};

// Debug check: every position perm holds lies in [0, bound).
template <class ExecSpace, class PermView>
void check_permutation_range(const char* fn, const ExecSpace& space, const PermView& perm,
                             std::int64_t bound) {
  const std::int64_t n = perm.extent(0);
  std::int64_t bad = 0;
  Kokkos::parallel_reduce(
      std::string(fn) + "::check",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      PositionsInRange<PermView>{perm, bound}, bad);
  if (bad) fail(fn, "perm holds positions outside [0, " + std::to_string(bound) + ")");
}

// ---- gather's argument checks --------------------------------------------------------------

template <class ExecSpace, class Src, class Dst>
constexpr void static_check_gather_pair() {
  static_check_view<ExecSpace, Src, 2>();
  static_check_view<ExecSpace, Dst, 2>();
  static_assert(Src::rank() == Dst::rank(),
                "Ordo::gather: a source and its destination differ in rank");
  static_assert(std::is_same_v<typename Src::non_const_value_type, typename Dst::value_type>,
                "Ordo::gather: a destination holds its source's value type and is not const");
}

template <class ExecSpace, class PermView, class Src, class Dst>
void check_gather_pair(const char* fn, const PermView& perm, const Src& src, const Dst& dst) {
  check_all_reachable<ExecSpace>(fn, "a source", src, "a destination", dst);
  check_size_equal(fn, "a destination", dst, perm.extent(0), "one row per position of perm");
  if (Dst::rank() == 2 && src.extent(1) != dst.extent(1)) {
    fail(fn, "a destination has rows of " + std::to_string(dst.extent(1)) +
                 " elements, its source of " + std::to_string(src.extent(1)));
  }
  check_no_alias(fn, "a destination", dst, "perm", perm);
}

template <class ExecSpace, class PermView, class Srcs, class Dsts, std::size_t... I>
void check_gather(const char* fn, const PermView& perm, const Srcs& srcs, const Dsts& dsts,
                  std::index_sequence<I...>) {
  (static_check_gather_pair<ExecSpace, std::tuple_element_t<I, Srcs>,
                            std::tuple_element_t<I, Dsts>>(),
   ...);
  (check_gather_pair<ExecSpace>(fn, perm, std::get<I>(srcs), std::get<I>(dsts)), ...);
  // No destination overlaps a source (its own or another's) or another destination.
  auto against_sources = [&](const auto& dst) {
    (check_no_alias(fn, "a destination", dst, "a source", std::get<I>(srcs)), ...);
  };
  (against_sources(std::get<I>(dsts)), ...);
  check_no_alias_among(fn, "destinations", std::get<I>(dsts)...);
}

template <class Srcs, std::size_t... I>
std::int64_t fewest_rows(const Srcs& srcs, std::index_sequence<I...>) {
  std::int64_t rows = std::numeric_limits<std::int64_t>::max();
  ((rows = std::min<std::int64_t>(rows, std::get<I>(srcs).extent(0))), ...);
  return rows;
}

// The end of a chain of row copies.
struct CopyEnd {
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t, std::int64_t) const {}
};

// One link of a chain of row copies: dst's row i = src's row j, where j is a row of src (else row
// i keeps its contents), then the rest of the chain. Rank-2 Views move whole rows (their extents
// in the second dimension are equal).
template <class Src, class Dst, class Next>
struct CopyLink {
  Src src;
  Dst dst;
  Next next;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j) const {
    if (std::uint64_t(j) < std::uint64_t(src.extent(0))) {
      if constexpr (Dst::rank() == 2) {
        const std::int64_t m = dst.extent(1);
        for (std::int64_t c = 0; c < m; ++c) dst(i, c) = src(j, c);
      } else {
        dst(i) = src(j);
      }
    }
    next(i, j);
  }
};

// The chain that copies std::get<I>(srcs) to std::get<I>(dsts) for every I.
template <std::size_t I = 0, class Srcs, class Dsts>
auto copy_chain(const Srcs& srcs, const Dsts& dsts) {
  if constexpr (I == std::tuple_size_v<Srcs>) {
    return CopyEnd{};
  } else {
    using Next = decltype(copy_chain<I + 1>(srcs, dsts));
    using Src = std::tuple_element_t<I, Srcs>;
    using Dst = std::tuple_element_t<I, Dsts>;
    return CopyLink<Src, Dst, Next>{std::get<I>(srcs), std::get<I>(dsts),
                                    copy_chain<I + 1>(srcs, dsts)};
  }
}

// Row i of every destination from row perm(i) of its source: perm read once.
template <class PermView, class Chain>
struct GatherRows {
  PermView perm;
  Chain chain;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { chain(i, std::int64_t(perm(i))); }
};

// Row i of every destination from row i of its source.
template <class Chain>
struct CopyRows {
  Chain chain;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { chain(i, i); }
};

template <class ExecSpace, class PermView, class Srcs, class Dsts>
void gather_impl(const char* label, const ExecSpace& space, const PermView& perm, const Srcs& srcs,
                 const Dsts& dsts) {
  const std::int64_t n = perm.extent(0);
  if (n == 0) return;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const auto chain = copy_chain(srcs, dsts);
  Kokkos::parallel_for(label, Range(space, 0, n),
                       GatherRows<PermView, decltype(chain)>{perm, chain});
}

// apply_permutation's copies of the old contents: one workspace slot per View it permutes.
enum class PermutationSlot : int {};

// The workspace those copies take (before reserved_bytes).
template <class... Views>
std::size_t permutation_bound(const Views&... views) {
  return (slot_bytes<typename Views::non_const_value_type>(views.extent(0) * views.extent(1)) +
          ...);
}

// A workspace copy of a View, in its memory space: rank 1, or its n x m elements in Layout
// (LayoutRight: each row contiguous; LayoutLeft: each column).
template <class Layout, class View>
using WorkspaceCopy =
    Kokkos::View<std::conditional_t<View::rank() == 2, typename View::non_const_value_type**,
                                    typename View::non_const_value_type*>,
                 Layout, typename View::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class Layout, class ExecSpace, class View, class Slot>
WorkspaceCopy<Layout, View> workspace_copy(const ExecSpace& space, const View& v, Slot slot) {
  using T = typename View::non_const_value_type;
  using Memory = typename View::memory_space;
  const std::size_t n = v.extent(0), m = View::rank() == 2 ? v.extent(1) : 1;
  T* const data = workspace<T, ExecSpace, Memory>(space, n * m, slot).data();
  if constexpr (View::rank() == 2) {
    return WorkspaceCopy<Layout, View>(data, n, m);
  } else {
    return WorkspaceCopy<Layout, View>(data, n);
  }
}

// apply_permutation's saved copy of a View: its rows one after the other, so that the gather
// reads a row from one place.
template <std::size_t I, class ExecSpace, class View>
WorkspaceCopy<Kokkos::LayoutRight, View> saved_copy(const ExecSpace& space, const View& v) {
  return workspace_copy<Kokkos::LayoutRight>(space, v, PermutationSlot(int(I)));
}

template <class ExecSpace, class Views, std::size_t... I>
auto saved_copies(const ExecSpace& space, const Views& views, std::index_sequence<I...>) {
  return std::make_tuple(saved_copy<I>(space, std::get<I>(views))...);
}

// In place: every View's old contents to the workspace, then the gather from them.
template <class ExecSpace, class PermView, class... Views>
void apply_permutation_impl(const ExecSpace& space, const PermView& perm, const Views&... views) {
  const std::int64_t n = perm.extent(0);
  if (n == 0) return;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::tuple<Views...> originals(views...);
  const auto copies = saved_copies(space, originals, std::index_sequence_for<Views...>{});
  const auto save = copy_chain(originals, copies);
  Kokkos::parallel_for("Ordo::apply_permutation::save", Range(space, 0, n),
                       CopyRows<decltype(save)>{save});
  gather_impl("Ordo::apply_permutation::gather", space, perm, copies, originals);
}

}  // namespace Ordo::Impl

#endif
