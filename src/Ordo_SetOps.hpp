// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_SETOPS_HPP
#define ORDO_SETOPS_HPP

// Set operations on sorted keys with std::set_*'s multiset semantics: the r-th copy of a key in a
// pairs with its r-th copy in b, and the output is exactly what std::set_intersection,
// std::set_union, std::set_difference and std::set_symmetric_difference write, in the same order
// (for equal keys, union writes a's copies before b's extra ones). The _by_key forms move each
// output's value with it (from a where the std:: algorithm takes a's element, else from b).
//
// Every operation is an object with these calls (Op: set_intersection, set_union,
// set_difference, set_symmetric_difference):
//   std::int64_t Op(space, a, b, out[, comp])         returns the output size; fences `space`
//   void Op(space, a, b, out, count[, comp])          the size to count(0); asynchronous
//   std::int64_t Op(a, b, out[, comp])                on out's execution space
//   std::int64_t Op_by_key(space, a_keys, a_values, b_keys, b_values, out_keys, out_values[, comp])
//   std::int64_t Op_by_key(a_keys, a_values, b_keys, b_values, out_keys, out_values[, comp])
// out may be longer than the output (its tail is left as it was). An out too short: the returning
// forms throw std::invalid_argument naming the size needed, after writing the outputs that fit
// and nothing past out's end; the count form writes the full size to count(0) and the outputs
// that fit. a and b must be sorted under comp (checked with ORDO_ENABLE_DEBUG_CHECKS).

#include <Ordo_Comparators.hpp>
#include <impl/core/Ordo_Checks.hpp>
#include <impl/core/Ordo_Workspace.hpp>
#include <impl/device/Ordo_SetOpsImpl.hpp>
#include <impl/team/Ordo_TileSetOps.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace Ordo {

/// One set operation (see the top of this header for its calls).
template <Impl::SetOp Op>
struct SetOperation {
  const char* name;  ///< the call's name (Ordo::set_union, ...): its region, its errors
  const char* algo;  ///< the name in its kernels' labels (set_union, ...)

  /// The operation of sorted a and b into out on `space`; returns how many it wrote (reads the
  /// count back: a fence of `space`). Throws, after writing the first out.extent(0), when out is
  /// shorter than the result.
  template <class ExecSpace, class AView, class BView, class OutView, class Comp = less<>,
            std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace> && !Kokkos::is_view_v<Comp>,
                             int> = 0>
  std::int64_t operator()(const ExecSpace& space, const AView& a, const BView& b,
                          const OutView& out, const Comp& comp = Comp{}) const {
    const Impl::Region region(name);
    Impl::check_set_operation(name, space, a, b, out, comp);
    const Impl::WorkspaceReservation reservation(name, space, [&] {
      return Impl::set_operation_bound(space, std::int64_t(a.extent(0)), std::int64_t(b.extent(0)));
    });
    const auto count = Impl::workspace<std::int64_t>(space, 1, Impl::WorkspaceSlot::counts);
    Impl::set_op_dispatch<Op>(algo, space, a, b, Impl::SetKeysEmit<OutView>{out}, count, comp);
    return Impl::size_checked(name, space, count, out.extent(0), "out");
  }

  /// The same, asynchronous on `space`: the result's length to count(0) (outputs past out's end
  /// are dropped).
  template <class ExecSpace, class AView, class BView, class OutView, class CountView,
            class Comp = less<>,
            std::enable_if_t<
                Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_view_v<CountView>, int> = 0>
  void operator()(const ExecSpace& space, const AView& a, const BView& b, const OutView& out,
                  const CountView& count, const Comp& comp = Comp{}) const {
    const Impl::Region region(name);
    Impl::check_index_output<ExecSpace>(name, "count", count, 1, a.extent(0) + b.extent(0));
    Impl::check_no_alias(name, "count", count, "a", a, "b", b, "out", out);
    Impl::check_set_operation(name, space, a, b, out, comp);
    const Impl::WorkspaceReservation reservation(name, space, [&] {
      return Impl::set_operation_bound(space, std::int64_t(a.extent(0)), std::int64_t(b.extent(0)));
    });
    Impl::set_op_dispatch<Op>(algo, space, a, b, Impl::SetKeysEmit<OutView>{out}, count, comp);
  }

  /// The counting form on out's execution space (fences it).
  template <class AView, class BView, class OutView, class Comp = less<>,
            std::enable_if_t<Kokkos::is_view_v<AView>, int> = 0>
  std::int64_t operator()(const AView& a, const BView& b, const OutView& out,
                          const Comp& comp = Comp{}) const {
    return (*this)(typename OutView::execution_space(), a, b, out, comp);
  }
};

/// One set operation moving values (see the top of this header).
template <Impl::SetOp Op>
struct SetOperationByKey {
  const char* name;  ///< the call's name (Ordo::set_union, ...): its region, its errors
  const char* algo;  ///< the name in its kernels' labels (set_union, ...)

  /// The operation of sorted keys, each result key's value from the element it came from, on
  /// `space`; returns the result's length (a fence). Throws, after writing what fits, when an
  /// output is shorter than the result.
  template <class ExecSpace, class AKeys, class AValues, class BKeys, class BValues, class OutKeys,
            class OutValues, class Comp = less<>,
            std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
  std::int64_t operator()(const ExecSpace& space, const AKeys& a_keys, const AValues& a_values,
                          const BKeys& b_keys, const BValues& b_values, const OutKeys& out_keys,
                          const OutValues& out_values, const Comp& comp = Comp{}) const {
    const Impl::Region region(name);
    Impl::static_check_views<ExecSpace, AValues, BValues, OutValues>();
    Impl::check_size_equal(name, "a_values", a_values, a_keys.extent(0), "one value per key");
    Impl::check_size_equal(name, "b_values", b_values, b_keys.extent(0), "one value per key");
    Impl::check_all_reachable<ExecSpace>(name, "a_values", a_values, "b_values", b_values,
                                         "out_values", out_values);
    Impl::check_no_alias(name, "out_values", out_values, "a_keys", a_keys, "b_keys", b_keys,
                         "a_values", a_values, "b_values", b_values, "out_keys", out_keys);
    Impl::check_no_alias(name, "out_keys", out_keys, "a_values", a_values, "b_values", b_values);
    Impl::check_set_operation(name, space, a_keys, b_keys, out_keys, comp);
    const Impl::WorkspaceReservation reservation(name, space, [&] {
      return Impl::set_operation_bound(space, std::int64_t(a_keys.extent(0)),
                                       std::int64_t(b_keys.extent(0)));
    });
    const auto count = Impl::workspace<std::int64_t>(space, 1, Impl::WorkspaceSlot::counts);
    Impl::set_op_dispatch<Op>(algo, space, a_keys, b_keys,
                              Impl::SetPairsEmit<OutKeys, AValues, BValues, OutValues>{
                                  out_keys, a_values, b_values, out_values},
                              count, comp);
    const bool keys_shorter = out_keys.extent(0) <= out_values.extent(0);
    return Impl::size_checked(name, space, count,
                              keys_shorter ? out_keys.extent(0) : out_values.extent(0),
                              keys_shorter ? "out_keys" : "out_values");
  }

  /// The same on out_keys' execution space.
  template <class AKeys, class AValues, class BKeys, class BValues, class OutKeys, class OutValues,
            class Comp = less<>, std::enable_if_t<Kokkos::is_view_v<AKeys>, int> = 0>
  std::int64_t operator()(const AKeys& a_keys, const AValues& a_values, const BKeys& b_keys,
                          const BValues& b_values, const OutKeys& out_keys,
                          const OutValues& out_values, const Comp& comp = Comp{}) const {
    return (*this)(typename OutKeys::execution_space(), a_keys, a_values, b_keys, b_values,
                   out_keys, out_values, comp);
  }
};

/// Elements of a that b also holds (a key as many times as the fewer of them holds it).
inline constexpr SetOperation<Impl::SetOp::intersection> set_intersection{"Ordo::set_intersection",
                                                                          "set_intersection"};
/// Elements of either (a key as many times as the more of them holds it).
inline constexpr SetOperation<Impl::SetOp::set_union> set_union{"Ordo::set_union", "set_union"};
/// Elements of a that b does not hold (counted with multiplicity).
inline constexpr SetOperation<Impl::SetOp::difference> set_difference{"Ordo::set_difference",
                                                                      "set_difference"};
/// Elements of one that the other does not hold (counted with multiplicity).
inline constexpr SetOperation<Impl::SetOp::symmetric_difference> set_symmetric_difference{
    "Ordo::set_symmetric_difference", "set_symmetric_difference"};
/// set_intersection of keys, with their values (from a).
inline constexpr SetOperationByKey<Impl::SetOp::intersection> set_intersection_by_key{
    "Ordo::set_intersection_by_key", "set_intersection_by_key"};
/// set_union of keys, with their values (from a where std::set_union takes a's element).
inline constexpr SetOperationByKey<Impl::SetOp::set_union> set_union_by_key{
    "Ordo::set_union_by_key", "set_union_by_key"};
/// set_difference of keys, with their values.
inline constexpr SetOperationByKey<Impl::SetOp::difference> set_difference_by_key{
    "Ordo::set_difference_by_key", "set_difference_by_key"};
/// set_symmetric_difference of keys, with their values.
inline constexpr SetOperationByKey<Impl::SetOp::symmetric_difference>
    set_symmetric_difference_by_key{"Ordo::set_symmetric_difference_by_key",
                                    "set_symmetric_difference_by_key"};

/// Team-level std::set_intersection for use inside a user's TeamPolicy kernel (triangle counting
/// intersects two adjacency rows): every thread of the team calls it with the same arguments;
/// a, b and out may be global or scratch Views. Writes the intersection to out (at most
/// out.extent(0) elements: pass an out of extent 0 to count only) and returns its full size to
/// every thread. Allocates nothing and needs no scratch. Synchronization: ends with a team
/// barrier.
template <class Member, class AView, class BView, class OutView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION std::int64_t set_intersection_team(const Member& member, const AView& a,
                                                          const BView& b, const OutView& out,
                                                          const Comp& comp = Comp{}) {
  return Impl::team_set_intersection(member, a, b, out, comp);
}

/// An upper bound of the workspace bytes (in ExecSpace's memory) of a set operation of n_a and n_b
/// keys (any of the six, with or without values): a few bytes per tile on device backends; on
/// host backends 8 bytes per key of both inputs. The call reserves this much before anything runs
/// (Ordo::set_workspace_limit).
template <class ExecSpace>
std::size_t set_operation_workspace_bytes(std::size_t n_a, std::size_t n_b) {
  return Impl::reserved_bytes<ExecSpace>(
      Impl::set_operation_bound(ExecSpace(), std::int64_t(n_a), std::int64_t(n_b)));
}

}  // namespace Ordo

#endif
