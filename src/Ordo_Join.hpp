// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_JOIN_HPP
#define ORDO_JOIN_HPP

// Joins of sorted keys: index pairs (i, j) of equal keys a_keys(i) and b_keys(j) (equal: neither
// orders before the other under comp). Duplicates on both sides give every pair: a key with ca
// copies in a and cb in b gives ca * cb pairs.
//   inner_join       the pairs, in lexicographic order of (i, j)
//   left_join        the same, and (i, -1) for every a_keys(i) without a partner: a's order kept
//   right_join       the pairs in order of (j, i), and (-1, j) for every b_keys(j) without one
//   full_outer_join  key order: for each key its pairs in (i, j) order, or its unpaired (i, -1)
//                    or (-1, j) entries
// Each writes a_out(k), b_out(k) for k in [0, size), returns the size and fences `space`. Outputs
// shorter than the size: std::invalid_argument naming the size needed, before anything is
// written (the size is counted first). Index Views may be 32- or 64-bit; the joins that write -1
// take signed ones. join_size returns the size without writing pairs.

#include <Ordo_Comparators.hpp>
#include <Ordo_SearchTypes.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/device/Ordo_JoinImpl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo {

/// The inner join (see above). Synchronization: fences `space`.
template <class ExecSpace, class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t inner_join(const ExecSpace& space, const AKeys& a_keys, const BKeys& b_keys,
                        const AOut& a_out, const BOut& b_out, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::inner_join";
  const Impl::Region region(fn);
  Impl::check_join_outputs<false, ExecSpace>(fn, a_keys, b_keys, a_out, b_out);
  Impl::check_join_inputs(fn, space, a_keys, b_keys, comp);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::join_bound(std::int64_t(a_keys.extent(0)), std::int64_t(b_keys.extent(0)),
                            std::int64_t(std::min(a_out.extent(0), b_out.extent(0))));
  });
  return Impl::join_dispatch<false, false>(fn, "inner_join", space, a_keys, b_keys, a_out, b_out,
                                           "a_out", "b_out", comp);
}

/// The left join (see above). Synchronization: fences `space`.
template <class ExecSpace, class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t left_join(const ExecSpace& space, const AKeys& a_keys, const BKeys& b_keys,
                       const AOut& a_out, const BOut& b_out, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::left_join";
  const Impl::Region region(fn);
  Impl::check_join_outputs<true, ExecSpace>(fn, a_keys, b_keys, a_out, b_out);
  Impl::check_join_inputs(fn, space, a_keys, b_keys, comp);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::join_bound(std::int64_t(a_keys.extent(0)), std::int64_t(b_keys.extent(0)),
                            std::int64_t(std::min(a_out.extent(0), b_out.extent(0))));
  });
  return Impl::join_dispatch<true, false>(fn, "left_join", space, a_keys, b_keys, a_out, b_out,
                                          "a_out", "b_out", comp);
}

/// The right join (see above): the left join of b and a. Synchronization: fences `space`.
template <class ExecSpace, class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t right_join(const ExecSpace& space, const AKeys& a_keys, const BKeys& b_keys,
                        const AOut& a_out, const BOut& b_out, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::right_join";
  const Impl::Region region(fn);
  Impl::check_join_outputs<true, ExecSpace>(fn, a_keys, b_keys, a_out, b_out);
  Impl::check_join_inputs(fn, space, a_keys, b_keys, comp);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::join_bound(std::int64_t(a_keys.extent(0)), std::int64_t(b_keys.extent(0)),
                            std::int64_t(std::min(a_out.extent(0), b_out.extent(0))));
  });
  return Impl::join_dispatch<true, false>(fn, "right_join", space, b_keys, a_keys, b_out, a_out,
                                          "b_out", "a_out", comp);
}

/// The full outer join (see above). Synchronization: fences `space`.
template <class ExecSpace, class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t full_outer_join(const ExecSpace& space, const AKeys& a_keys, const BKeys& b_keys,
                             const AOut& a_out, const BOut& b_out, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::full_outer_join";
  const Impl::Region region(fn);
  Impl::check_join_outputs<true, ExecSpace>(fn, a_keys, b_keys, a_out, b_out);
  Impl::check_join_inputs(fn, space, a_keys, b_keys, comp);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::join_bound(std::int64_t(a_keys.extent(0)), std::int64_t(b_keys.extent(0)),
                            std::int64_t(std::min(a_out.extent(0), b_out.extent(0))));
  });
  return Impl::join_dispatch<true, true>(fn, "full_outer_join", space, a_keys, b_keys, a_out, b_out,
                                         "a_out", "b_out", comp);
}

/// The number of pairs the join of `kind` writes. Synchronization: fences `space`.
template <class ExecSpace, class AKeys, class BKeys, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
std::int64_t join_size(const ExecSpace& space, JoinKind kind, const AKeys& a_keys,
                       const BKeys& b_keys, const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::join_size";
  const Impl::Region region(fn);
  if (kind != JoinKind::inner && kind != JoinKind::left && kind != JoinKind::right &&
      kind != JoinKind::full) {
    Impl::fail(fn, "kind is " + std::to_string(int(kind)) +
                       ", not one of JoinKind::inner, left, right and full");
  }
  Impl::check_join_inputs(fn, space, a_keys, b_keys, comp);
  const Impl::WorkspaceReservation reservation(fn, space, [&] {
    return Impl::join_bound(std::int64_t(a_keys.extent(0)), std::int64_t(b_keys.extent(0)), 0);
  });
  Impl::JoinCounts<ExecSpace> w;
  std::array<std::int64_t, 2> sizes{};
  switch (kind) {
    case JoinKind::inner:
      sizes = Impl::join_count<false, false>("join_size", space, a_keys, b_keys, comp, w);
      break;
    case JoinKind::left:
      sizes = Impl::join_count<true, false>("join_size", space, a_keys, b_keys, comp, w);
      break;
    case JoinKind::right:
      sizes = Impl::join_count<true, false>("join_size", space, b_keys, a_keys, comp, w);
      break;
    case JoinKind::full:
      sizes = Impl::join_count<true, true>("join_size", space, a_keys, b_keys, comp, w);
      break;
  }
  return sizes[0] + sizes[1];
}

/// The joins on a_out's execution space. Synchronization: fence that space.
template <class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AKeys>, int> = 0>
std::int64_t inner_join(const AKeys& a_keys, const BKeys& b_keys, const AOut& a_out,
                        const BOut& b_out, const Comp& comp = Comp{}) {
  return inner_join(typename AOut::execution_space(), a_keys, b_keys, a_out, b_out, comp);
}

/// The same on a_out's execution space (returns the size: a fence).
template <class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AKeys>, int> = 0>
std::int64_t left_join(const AKeys& a_keys, const BKeys& b_keys, const AOut& a_out,
                       const BOut& b_out, const Comp& comp = Comp{}) {
  return left_join(typename AOut::execution_space(), a_keys, b_keys, a_out, b_out, comp);
}

/// The same on a_out's execution space (returns the size: a fence).
template <class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AKeys>, int> = 0>
std::int64_t right_join(const AKeys& a_keys, const BKeys& b_keys, const AOut& a_out,
                        const BOut& b_out, const Comp& comp = Comp{}) {
  return right_join(typename AOut::execution_space(), a_keys, b_keys, a_out, b_out, comp);
}

/// The same on a_out's execution space (returns the size: a fence).
template <class AKeys, class BKeys, class AOut, class BOut, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<AKeys>, int> = 0>
std::int64_t full_outer_join(const AKeys& a_keys, const BKeys& b_keys, const AOut& a_out,
                             const BOut& b_out, const Comp& comp = Comp{}) {
  return full_outer_join(typename AOut::execution_space(), a_keys, b_keys, a_out, b_out, comp);
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) of a join of n_a and n_b keys
/// into outputs of n_out pairs (the shorter output's extent; join_size: 0): 24 bytes per key of
/// a and 16 per key of b (the bound of every join; only those that keep b's unmatched keys take
/// b's) and a few bytes per tile. The call reserves this much before anything runs
/// (Ordo::set_workspace_limit).
template <class ExecSpace>
std::size_t join_workspace_bytes(std::size_t n_a, std::size_t n_b, std::size_t n_out) {
  return Impl::reserved_bytes<ExecSpace>(
      Impl::join_bound(std::int64_t(n_a), std::int64_t(n_b), std::int64_t(n_out)));
}

}  // namespace Ordo

#endif
