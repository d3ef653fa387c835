#ifndef ORDO_SORT_HPP
#define ORDO_SORT_HPP

// sort, sort_by_key, stable_sort_by_key, sort_permutation, apply_permutation, and the team-level
// sorts for users' kernels (seed 003, HotSort, with merge-path merges for long runs).

#include <Ordo_Comparators.hpp>
#include <impl/Ordo_Checks.hpp>
#include <impl/Ordo_SortImpl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace Ordo {

namespace Impl {

// Sorts carry 32-bit input positions (stable forms, sort_permutation).
template <class KeyView>
void check_sort_size(const char* fn, const KeyView& keys) {
  if (keys.extent(0) >= (std::size_t(1) << 32) - 1) {
    fail(fn, "keys has " + std::to_string(keys.extent(0)) +
                 " elements, at most 2^32 - 2 are supported");
  }
}

template <class ExecSpace, class KeyView>
void check_sort_keys(const char* fn, const KeyView& keys) {
  static_check_views<ExecSpace, KeyView>();
  static_assert(!std::is_const_v<typename KeyView::value_type>, "Ordo: keys are sorted in place");
  check_all_reachable<ExecSpace>(fn, "keys", keys);
  check_sort_size(fn, keys);
}

template <class ExecSpace, class KeyView, class ValueView>
void check_sort_values(const char* fn, const KeyView& keys, const ValueView& values) {
  static_check_views<ExecSpace, ValueView>();
  static_assert(!std::is_const_v<typename ValueView::value_type>, "Ordo: values move in place");
  static_assert(std::is_trivially_copyable_v<typename ValueView::value_type>,
                "Ordo: values are trivially copyable");
  check_size_equal(fn, "values", values, keys.extent(0), "one value per key");
  check_no_alias(fn, "values", values, "keys", keys);
  check_all_reachable<ExecSpace>(fn, "values", values);
}

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

// sort with the slab path chosen (tests run both on CUDA).
template <class ExecSpace, class KeyView, class Comp>
void sort(const ExecSpace& space, const KeyView& keys, const Comp&, SortPath path) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  const Ends<CodecKeys<C, KeyView>, NoEnd> ends{{keys}, {}};
  sort_records<C, false, NoValue>(space, std::int64_t(keys.extent(0)), ends, ends, path);
}

template <class ExecSpace, class KeyView, class ValueView, class Comp>
void sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values, const Comp&,
                 SortPath path) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  using V = typename ValueView::non_const_value_type;
  const Ends<CodecKeys<C, KeyView>, PlainEnd<ValueView>> ends{{keys}, {values}};
  sort_records<C, false, V>(space, std::int64_t(keys.extent(0)), ends, ends, path);
}

// The stable order's permutation into perm; sorted keys into sorted_keys unless that is NoEnd.
template <class ExecSpace, class KeyView, class PermView, class KeysOut, class Comp>
void stable_permutation(const ExecSpace& space, const KeyView& keys, const PermView& perm,
                        const KeysOut& sorted_keys, const Comp&, SortPath path) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  const Ends<CodecKeys<C, KeyView>, PositionValues<PermView>> source{{keys}, {perm}};
  const Ends<KeysOut, PositionValues<PermView>> sink{sorted_keys, {perm}};
  sort_records<C, true, std::uint32_t>(space, std::int64_t(keys.extent(0)), source, sink, path);
}

template <class ExecSpace, class KeyView, class ValueView, class Comp>
void stable_sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                        const Comp& comp, SortPath path) {
  using Key = typename KeyView::non_const_value_type;
  using C = Codec<Key, Comp>;
  const std::int64_t n = keys.extent(0);
  if constexpr (is_host_space_v<ExecSpace>) {
    // The host sort is stable on records that carry the values themselves.
    using V = typename ValueView::non_const_value_type;
    const Ends<CodecKeys<C, KeyView>, PlainEnd<ValueView>> ends{{keys}, {values}};
    sort_records<C, true, V>(space, n, ends, ends, path);
  } else {
    const auto perm = workspace<std::uint32_t>(space, n, WorkspaceSlot::sort_permutation);
    stable_permutation(space, keys, perm, CodecKeys<C, KeyView>{keys}, comp, path);
    apply_permutation_impl(space, perm, values);
  }
}

}  // namespace Impl

/// Sorts keys in place under comp (not stable). Keys: 32/64-bit integers, float, double (bit
/// transforms: -0.0 before +0.0, NaNs after +inf under Ordo::less), any type with a comparator.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort(const ExecSpace& space, const KeyView& keys, const Comp& comp = Comp{}) {
  Impl::check_sort_keys<ExecSpace>("Ordo::sort", keys);
  Impl::sort(space, keys, comp, Impl::SortPath::automatic);
}

/// sort on keys' execution space. Synchronization: fences that space before returning.
template <class KeyView, class Comp = less<>, std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort(const KeyView& keys, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  sort(space, keys, comp);
  space.fence("Ordo::sort: fence");
}

/// Sorts keys in place and moves each value with its key (not stable).
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                 const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort_by_key";
  Impl::check_sort_keys<ExecSpace>(fn, keys);
  Impl::check_sort_values<ExecSpace>(fn, keys, values);
  Impl::sort_by_key(space, keys, values, comp, Impl::SortPath::automatic);
}

template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort_by_key(const KeyView& keys, const ValueView& values, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  sort_by_key(space, keys, values, comp);
  space.fence("Ordo::sort_by_key: fence");
}

/// sort_by_key in which equal keys keep their input order.
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void stable_sort_by_key(const ExecSpace& space, const KeyView& keys, const ValueView& values,
                        const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::stable_sort_by_key";
  Impl::check_sort_keys<ExecSpace>(fn, keys);
  Impl::check_sort_values<ExecSpace>(fn, keys, values);
  Impl::stable_sort_by_key(space, keys, values, comp, Impl::SortPath::automatic);
}

template <class KeyView, class ValueView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void stable_sort_by_key(const KeyView& keys, const ValueView& values, const Comp& comp = Comp{}) {
  using ExecSpace = typename KeyView::execution_space;
  const ExecSpace space;
  stable_sort_by_key(space, keys, values, comp);
  space.fence("Ordo::stable_sort_by_key: fence");
}

/// perm[i] = the input position of the i-th key in stable sorted order; keys are left as they
/// are. Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class KeyView, class PermView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void sort_permutation(const ExecSpace& space, const KeyView& keys, const PermView& perm,
                      const Comp& comp = Comp{}) {
  constexpr const char* fn = "Ordo::sort_permutation";
  Impl::static_check_views<ExecSpace, KeyView>();
  Impl::check_all_reachable<ExecSpace>(fn, "keys", keys, "perm", perm);
  Impl::check_index_output<ExecSpace>(fn, "perm", perm, keys.extent(0),
                                      keys.extent(0) ? keys.extent(0) - 1 : 0);
  Impl::check_no_alias(fn, "perm", perm, "keys", keys);
  Impl::check_sort_size(fn, keys);
  Impl::stable_permutation(space, keys, perm, Impl::NoEnd{}, comp, Impl::SortPath::automatic);
}

template <class KeyView, class PermView, class Comp = less<>,
          std::enable_if_t<Kokkos::is_view_v<KeyView>, int> = 0>
void sort_permutation(const KeyView& keys, const PermView& perm, const Comp& comp = Comp{}) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  sort_permutation(space, keys, perm, comp);
  space.fence("Ordo::sort_permutation: fence");
}

/// views[k](i) = old views[k](perm(i)) for every View, all gathered by one launch (after one
/// launch that saves their old contents). perm must be a permutation of [0, perm.extent(0)).
/// Synchronization: asynchronous on `space` (no fence).
template <class ExecSpace, class PermView, class... Views,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
void apply_permutation(const ExecSpace& space, const PermView& perm, const Views&... views) {
  constexpr const char* fn = "Ordo::apply_permutation";
  Impl::static_check_views<ExecSpace, PermView, Views...>();
  static_assert(std::is_integral_v<typename PermView::value_type>, "Ordo: perm holds integers");
  static_assert(sizeof...(Views) > 0, "Ordo::apply_permutation: no View to permute");
  Impl::check_all_reachable<ExecSpace>(fn, "perm", perm);
  (Impl::check_size_equal(fn, "a permuted View", views, perm.extent(0), "one element per position"),
   ...);
  (Impl::check_no_alias(fn, "a permuted View", views, "perm", perm), ...);
  if constexpr (Impl::debug_checks) Impl::check_permutation_range(fn, space, perm);
  Impl::apply_permutation_impl(space, perm, views...);
}

template <class PermView, class... Views, std::enable_if_t<Kokkos::is_view_v<PermView>, int> = 0>
void apply_permutation(const PermView& perm, const Views&... views) {
  using ExecSpace = typename PermView::execution_space;
  const ExecSpace space;
  apply_permutation(space, perm, views...);
  space.fence("Ordo::apply_permutation: fence");
}

// ---- team level ----------------------------------------------------------------------------

namespace Impl {

template <class Member, class Codec, class KeyView, class ValueView, class Comp>
KOKKOS_INLINE_FUNCTION void team_sort(const Member& member, const KeyView& keys,
                                      const ValueView& values, const Comp&) {
  using K = typename Codec::Bits;
  using V = typename ValueView::non_const_value_type;
  using Order = RecordOrder<typename Codec::Less, false>;
  const std::int64_t n = keys.extent(0);
  member.team_barrier();  // the team's last writes to keys are in
  if (n < 2) return;
  const ViewTile<Codec, KeyView, ValueView> tile{keys, values, n};
  std::int64_t sorted = 0;  // runs of `sorted` positions sorted already
#if defined(__CUDA_ARCH__) && defined(ORDO_CUDA_SLAB)
  using Tuning = typename SortTypes<Kokkos::Cuda, K, V>::Tuning;
  if constexpr (Codec::encoded) {
    // A segment that fits one warp's slab sorts there (R: the fewest registers per lane that
    // hold it, up to seam_team_regs; every stage in registers and shuffles). A longer one sorts
    // in runs of 32 * team_run_regs records, warp w taking runs w, w + warps, ..., which the
    // portable network then merges. The user's kernel takes the registers of sort_team's
    // heaviest path (ptxas sm_90, u32 keys in 128-thread teams: 77; 84 with the longer runs at
    // 32 registers per lane; 112 with a slab per warp merged in the View at f582cb9).
    const int threads = blockDim.x * blockDim.y;
    auto one_run = [&](auto regs) -> bool {
      constexpr int R = decltype(regs)::value;
      if constexpr (R > Tuning::seam_team_regs) {
        return false;
      } else {
        if (n > 32 * R) return false;
        if (CudaSeam::team_thread() < 32) CudaSeam::warp_sort<R, K, V>(tile, n, Order{});
        __syncthreads();
        return true;
      }
    };
    // Warp w sorts runs w, w + warps, ... of 32 * R records each in its slab.
    auto warp_runs = [&](auto regs) {
      constexpr int R = decltype(regs)::value;
      constexpr std::int64_t run = 32 * R;
      for (std::int64_t r = CudaSeam::team_thread() / 32; r * run < n; r += threads / 32) {
        const TileAt<ViewTile<Codec, KeyView, ValueView>> at{tile, r * run};
        CudaSeam::warp_sort<R, K, V>(at, n - r * run < run ? n - r * run : run, Order{});
      }
      __syncthreads();
      sorted = run;
    };
    using R4 = std::integral_constant<int, 4>;
    using R8 = std::integral_constant<int, 8>;
    using R16 = std::integral_constant<int, 16>;
    using R32 = std::integral_constant<int, 32>;
    if (threads % 32 == 0) {
      if (one_run(R4{}) || one_run(R8{}) || one_run(R16{}) || one_run(R32{})) return;
      warp_runs(std::integral_constant<int, Tuning::team_run_regs>{});  // then the network
    }
  }
#endif
  constexpr int R = TeamSortTuning::regs;
  team_block_sort<TeamSortTuning::lanes, R, true, K, V>(member, tile, network_size(n, R), n,
                                                        Order{}, sorted);
}

}  // namespace Impl

/// Team-level sort for use inside a user's TeamPolicy kernel: every thread of the team calls it
/// with the same arguments; keys may be a global or a scratch View. Allocates nothing and needs
/// no scratch of its own (sort_team_scratch_size is 0). Not stable. On CUDA, in teams of whole
/// warps, segments of up to 1024 records of 4 bytes (512 otherwise) sort in one warp's registers;
/// longer ones sort in runs of 512 records, one run per warp at a time, which the portable network
/// then merges through the View.
/// Synchronization: ends with a team barrier, after which keys are sorted.
template <class Member, class KeyView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_team(const Member& member, const KeyView& keys,
                                      const Comp& comp = Comp{}) {
  using Key = typename KeyView::non_const_value_type;
  Impl::team_sort<Member, Impl::Codec<Key, Comp>>(member, keys, Impl::NoValueView{}, comp);
}

/// sort_team that moves values[i] with keys[i].
template <class Member, class KeyView, class ValueView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_by_key_team(const Member& member, const KeyView& keys,
                                             const ValueView& values, const Comp& comp = Comp{}) {
  using Key = typename KeyView::non_const_value_type;
  Impl::team_sort<Member, Impl::Codec<Key, Comp>>(member, keys, values, comp);
}

/// Sort by the vector lanes of the calling team thread only (one vector-lane group), e.g. one
/// small segment per team thread. Allocates nothing. Synchronization: the lanes are synchronized
/// when it returns.
template <class Member, class KeyView, class Comp = less<>>
KOKKOS_INLINE_FUNCTION void sort_thread(const Member& member, const KeyView& keys,
                                        const Comp& = Comp{}) {
  using Key = typename KeyView::non_const_value_type;
  using C = Impl::Codec<Key, Comp>;
  using Order = Impl::RecordOrder<typename C::Less, false>;
  const std::int64_t n = keys.extent(0);
  if (n < 2) return;
  constexpr int R = Impl::TeamSortTuning::regs;
  const Impl::ViewTile<C, KeyView, Impl::NoValueView> tile{keys, {}, n};
  Impl::team_block_sort<1, R, false, typename C::Bits, Impl::NoValue>(
      member, tile, Impl::network_size(n, R), n, Order{});
}

/// Scratch bytes sort_team, sort_by_key_team and sort_thread need from the caller: none. (To
/// sort a segment in scratch, allocate segment_scratch_size<Key>(n) for its keys.)
constexpr std::size_t sort_team_scratch_size(std::size_t /*n*/) { return 0; }

/// Team scratch for a View of n elements of T (Kokkos aligns scratch allocations to 8 bytes).
template <class T>
constexpr std::size_t segment_scratch_size(std::size_t n) {
  return (n * sizeof(T) + 7) / 8 * 8 + 8;
}

}  // namespace Ordo

#endif
