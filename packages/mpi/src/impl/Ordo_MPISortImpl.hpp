// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_SORT_IMPL_HPP
#define ORDO_MPI_SORT_IMPL_HPP

// The distributed sort: agree on the call, sort locally with Ordo, choose splitters
// (Ordo_MPISplitters.hpp), exchange once (Ordo_MPIExchange.hpp), merge the received sorted runs
// with Ordo's merge into the form's output.

#include <Ordo_MPISortTypes.hpp>
#include <impl/Ordo_MPICall.hpp>
#include <impl/Ordo_MPIExchange.hpp>
#include <impl/Ordo_MPINccl.hpp>
#include <impl/Ordo_MPISplitters.hpp>
#include <impl/core/Ordo_Workspace.hpp>

#include <Ordo_Merge.hpp>
#include <Ordo_Sort.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace Ordo::MPI::Impl {

struct NoValues {};

template <class ExecSpace, class Comp, class KeyView, class... ValueViews>
constexpr void check_types() {
  Ordo::Impl::static_check_views<ExecSpace, KeyView, ValueViews...>();
  static_assert(std::is_trivially_copyable_v<typename KeyView::value_type> &&
                    (std::is_trivially_copyable_v<typename ValueViews::value_type> && ...),
                "Ordo::MPI: keys and values must be trivially copyable (they cross MPI as bytes)");
  using Key = typename KeyView::non_const_value_type;
  static_assert(std::is_invocable_r_v<bool, const Comp&, const Key&, const Key&>,
                "Ordo::MPI: the comparator must order two keys of the key View's type");
}

// An output View of the into forms: written, of the input's element type.
template <class InView, class OutView>
constexpr void check_output_type() {
  static_assert(std::is_same_v<typename OutView::value_type, typename InView::non_const_value_type>,
                "Ordo::MPI: an output View holds its input's type, not const");
}

// Adds the time since the last lap to a SortStats field; fences only when stats are wanted.
class PhaseClock {
 public:
  explicit PhaseClock(SortStats* stats) : stats_(stats) {}
  template <class ExecSpace>
  void lap(const ExecSpace& space, double SortStats::*field) {
    if (!stats_) return;
    space.fence("Ordo::MPI::sort: phase timer");
    const auto now = std::chrono::steady_clock::now();
    stats_->*field += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  SortStats* stats_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

template <class View>
View part(const View& v, std::size_t begin, std::size_t end) {
  return Kokkos::subview(v, Kokkos::make_pair(begin, end));
}

template <class View>
View uninitialized(const char* label, std::size_t n) {
  return View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
}

// Merges the sorted runs of `in` (ranges [begin, end), one from each rank, in rank order) into
// out(0, m), m the runs' keys. A stable merge of neighbours keeps the lower rank's keys first on
// ties. While more than two runs remain, a pass merges neighbours into the other of `in` and
// `scratch` (each pass writes its runs one after the other from the start; `in` is free once
// read); the last pass merges the last two runs, or copies the last one, into `out`, so `out` is
// written once. `in` and `scratch` hold at least m elements; `out` may be the caller's View.
template <class ExecSpace, class Work, class WorkValues, class Out, class OutValues, class Comp>
void merge_runs(const ExecSpace& space, const Work& in, const WorkValues& in_values,
                const Work& scratch, const WorkValues& scratch_values, const Out& out,
                const OutValues& out_values,
                const std::vector<std::pair<std::size_t, std::size_t>>& received,
                const Comp& comp) {
  constexpr bool with_values = !std::is_same_v<WorkValues, NoValues>;
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (const auto& run : received) {
    if (run.second > run.first) runs.push_back(run);
  }
  // Merges runs[i] and runs[i + 1] of src (or copies runs[i], the last) to dst from `at`.
  auto merge_pair = [&](const auto& src, const auto& src_values, const auto& dst,
                        const auto& dst_values, std::size_t i, std::size_t at) {
    const auto [a0, a1] = runs[i];
    if (i + 1 == runs.size()) {
      Kokkos::deep_copy(space, part(dst, at, at + a1 - a0), part(src, a0, a1));
      if constexpr (with_values) {
        Kokkos::deep_copy(space, part(dst_values, at, at + a1 - a0), part(src_values, a0, a1));
      }
      return at + a1 - a0;
    }
    const auto [b0, b1] = runs[i + 1];
    const std::size_t end = at + (a1 - a0) + (b1 - b0);
    if constexpr (with_values) {
      Ordo::merge_by_key(space, part(src, a0, a1), part(src_values, a0, a1), part(src, b0, b1),
                         part(src_values, b0, b1), part(dst, at, end), part(dst_values, at, end),
                         comp);
    } else {
      Ordo::merge(space, part(src, a0, a1), part(src, b0, b1), part(dst, at, end), comp);
    }
    return end;
  };
  Work src = in, dst = scratch;
  WorkValues src_values = in_values, dst_values = scratch_values;
  while (runs.size() > 2) {
    std::vector<std::pair<std::size_t, std::size_t>> next;
    std::size_t at = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      const std::size_t end = merge_pair(src, src_values, dst, dst_values, i, at);
      next.emplace_back(at, end);
      at = end;
    }
    std::swap(src, dst);
    std::swap(src_values, dst_values);
    runs = std::move(next);
  }
  if (!runs.empty()) merge_pair(src, src_values, out, out_values, 0, 0);
}

// Where each rank after the first starts in the global order, and how far from it a cut may lie.
inline std::pair<std::vector<std::uint64_t>, std::uint64_t> split_targets(const Agreement& a,
                                                                          bool keep_counts,
                                                                          double imbalance) {
  std::vector<std::uint64_t> targets;
  if (keep_counts) {
    std::uint64_t start = 0;
    for (int r = 1; r < a.ranks; ++r) targets.push_back(start += a.counts[r - 1]);
    return {targets, 0};
  }
  const std::uint64_t N = a.total, P = a.ranks;
  for (std::uint64_t r = 1; r < P; ++r) targets.push_back(r * (N / P) + r * (N % P) / P);
  return {targets, static_cast<std::uint64_t>(imbalance * double(N) / double(2 * P))};
}

template <class ValueView, class Mem>
struct ValuesOf {
  using type = Kokkos::View<typename ValueView::non_const_value_type*, Mem>;
  using work = Kokkos::View<typename ValueView::non_const_value_type*, Mem,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
};

template <class Mem>
struct ValuesOf<NoValues, Mem> {
  using type = NoValues;
  using work = NoValues;
};

// n elements of slot `slot` of the workspace of `space` (nothing without values).
template <class Work, class ExecSpace>
Work work_view(const ExecSpace& space, std::size_t n, MPISlot slot) {
  if constexpr (std::is_same_v<Work, NoValues>) {
    return {};
  } else {
    using T = typename Work::value_type;
    return Work(
        Ordo::Impl::workspace<T, ExecSpace, typename Work::memory_space>(space, n, slot).data(), n);
  }
}

// Where a form writes its result: Views allocated here (sort, sort_by_key: Allocate), or the
// caller's (the into forms: their outputs; the keep-counts forms: the keys and values themselves).
template <class Keys, class Values, bool Allocate>
struct Output {
  Keys keys;
  Values values;

  // Makes room for `count` keys: Views allocated here are allocated (again) for that many; the
  // caller's have room (the call's agreement checked their capacity).
  void reserve(std::size_t count) {
    if constexpr (Allocate) {
      if (keys.is_allocated() && keys.extent(0) >= count) return;
      keys = uninitialized<Keys>("Ordo::MPI::sort::keys", count);
      if constexpr (!std::is_same_v<Values, NoValues>) {
        values = uninitialized<Values>("Ordo::MPI::sort::values", count);
      }
    } else if (count > keys.extent(0)) {
      throw std::logic_error("Ordo::MPI: the split gave this rank " + std::to_string(count) +
                             " keys, more than its output holds");
    }
  }
};

template <class Keys, class Values>
Output<Keys, Values, true> allocated_output() {
  return {};
}

template <class Keys, class Values>
Output<Keys, Values, false> caller_output(const Keys& keys, const Values& values) {
  return {keys, values};
}

template <class KeyView, class ValueView>
struct SortSpaces {
  using Key = typename KeyView::non_const_value_type;
  using Mem = typename KeyView::memory_space;
  using Keys = Kokkos::View<Key*, Mem>;
  static constexpr bool with_values = !std::is_same_v<ValueView, NoValues>;
  using Values = typename ValuesOf<ValueView, Mem>::type;
  // Keys and values in Ordo's workspaces (unmanaged), and the result Views wrapped the same way.
  using WorkKeys = Kokkos::View<Key*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using WorkValues = typename ValuesOf<ValueView, Mem>::work;
};

// options.imbalance lies in [0, 1] (the call's check, and sort_capacity's).
inline void check_imbalance(const char* fn, const SortOptions& options) {
  if (!(options.imbalance >= 0 && options.imbalance <= 1)) {
    Ordo::Impl::fail(
        fn, "options.imbalance is " + std::to_string(options.imbalance) + ", must lie in [0, 1]");
  }
}

// This rank's arguments, checked; a failure is reported to every rank by agree_on_call.
template <class ExecSpace, class KeyView, class ValueView>
void check_local(const char* fn, Form form, MPI_Comm comm, const KeyView& keys,
                 const ValueView& values, const SortOptions& options) {
  Ordo::Impl::check_all_reachable<ExecSpace>(fn, "keys", keys);
  check_imbalance(fn, options);
  if (options.exchange == Exchange::nccl &&
      !nccl_possible<ExecSpace, typename KeyView::memory_space>()) {
#if defined(ORDO_ENABLE_NCCL)
    Ordo::Impl::fail(fn,
                     "options.exchange is nccl, which needs the Cuda execution space and keys in "
                     "memory the GPU can reach");
#else
    Ordo::Impl::fail(fn,
                     "options.exchange is nccl, but Ordo was built without NCCL "
                     "(Ordo_ENABLE_NCCL)");
#endif
  }
#if defined(ORDO_ENABLE_NCCL)
  if (options.nccl_comm) {
    int nccl_ranks = 0, nccl_rank = 0, ranks = 0, rank = 0;
    ncclResult_t r = ncclCommCount(options.nccl_comm, &nccl_ranks);
    if (r == ncclSuccess) r = ncclCommUserRank(options.nccl_comm, &nccl_rank);
    if (r != ncclSuccess) {
      Ordo::Impl::fail(fn, "options.nccl_comm: NCCL does not say its ranks: " +
                               NcclSeam::message(r, options.nccl_comm));
    }
    MPI_Comm_size(comm, &ranks);
    MPI_Comm_rank(comm, &rank);
    if (nccl_ranks != ranks || nccl_rank != rank) {
      Ordo::Impl::fail(fn, "options.nccl_comm holds " + std::to_string(nccl_ranks) +
                               " ranks and is rank " + std::to_string(nccl_rank) +
                               " of them; comm holds " + std::to_string(ranks) +
                               " and this is rank " + std::to_string(rank));
    }
  }
#else
  (void)comm;
#endif
  if (options.exchange == Exchange::direct && !host_memory<typename KeyView::memory_space>() &&
      mpi_cuda_support() == CudaSupport::no) {
    Ordo::Impl::fail(fn,
                     "options.exchange is direct, but this MPI library says it cannot take "
                     "device memory (MPIX_Query_cuda_support); use Exchange::staged or "
                     "automatic");
  }
  if constexpr (!std::is_same_v<ValueView, NoValues>) {
    Ordo::Impl::check_all_reachable<ExecSpace>(fn, "values", values);
    Ordo::Impl::check_size_equal(fn, "values", values, keys.extent(0), "one value per key");
    if (keeps_counts(form)) Ordo::Impl::check_no_alias(fn, "values", values, "keys", keys);
  }
}

// The into forms' outputs, checked: reachable, apart from the inputs and from each other (their
// capacity is checked by the agreement, which knows every rank's count).
template <class ExecSpace, class KeyView, class ValueView, class OutKeys, class OutValues,
          bool Allocate>
void check_output(const char* fn, const KeyView& keys, const ValueView& values,
                  const Output<OutKeys, OutValues, Allocate>& out) {
  Ordo::Impl::check_all_reachable<ExecSpace>(fn, "keys_out", out.keys);
  Ordo::Impl::check_no_alias(fn, "keys_out", out.keys, "keys", keys);
  if constexpr (!std::is_same_v<ValueView, NoValues>) {
    Ordo::Impl::check_all_reachable<ExecSpace>(fn, "values_out", out.values);
    Ordo::Impl::check_no_alias(fn, "keys_out", out.keys, "values", values);
    Ordo::Impl::check_no_alias(fn, "values_out", out.values, "keys", keys, "values", values,
                               "keys_out", out.keys);
  }
}

// The elements the caller's output holds (the fewer of keys_out and values_out).
template <class OutKeys, class OutValues, bool Allocate>
std::size_t output_capacity(const Output<OutKeys, OutValues, Allocate>& out) {
  if constexpr (std::is_same_v<OutValues, NoValues>) {
    return out.keys.extent(0);
  } else {
    return std::min<std::size_t>(out.keys.extent(0), out.values.extent(0));
  }
}

// Every form: sorts keys (and values) over the ranks of comm into out, returns this rank's count
// (its keys are out.keys(0, count)).
template <Form form, class ExecSpace, class KeyView, class ValueView, class Out, class Comp>
std::size_t distributed_sort(const ExecSpace& space, MPI_Comm comm, const KeyView& keys,
                             const ValueView& values, Out& out, const Comp& comp,
                             const SortOptions& options) {
  using S = SortSpaces<KeyView, ValueView>;
  const char* fn = form_name(form);
  const Ordo::Impl::Region region(fn);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw std::invalid_argument(std::string(fn) + ": MPI is not initialized");
  if (comm == MPI_COMM_NULL) throw std::invalid_argument(std::string(fn) + ": comm is null");

  CallRecord record;
  record.form = form;
  record.key_size = sizeof(typename S::Key);
  record.types = type_fingerprint<typename S::Key>() ^ 3 * type_fingerprint<Comp>();
  if constexpr (S::with_values) {
    record.value_size = sizeof(typename ValueView::value_type);
    record.types ^= 7 * type_fingerprint<typename ValueView::non_const_value_type>();
  }
  record.imbalance = options.imbalance;
  record.count = keys.extent(0);
  if constexpr (writes_caller_output(form)) record.capacity = output_capacity(out);
  const Way way = exchange_way<ExecSpace, typename S::Mem>(options.exchange);
  record.nccl = way == Way::nccl;
#if defined(ORDO_ENABLE_NCCL)
  if (record.nccl) record.nccl_cached = NcclCommunicators::instance().find(comm) != nullptr;
#endif
  try {
    check_local<ExecSpace>(fn, form, comm, keys, values, options);
    if constexpr (writes_caller_output(form)) check_output<ExecSpace>(fn, keys, values, out);
  } catch (const std::invalid_argument& e) {
    record.reject(e.what());
  }
  const Agreement agreed = agree_on_call(comm, record);

  if (options.stats) *options.stats = SortStats{};
  PhaseClock clock(options.stats);
  // Sorts `keys` (and `values`) into `k` (and `v`), out of place; returns with the sort in flight.
  auto sort_copy = [&](const auto& k, const auto& v) {
    if constexpr (S::with_values) {
      Ordo::Impl::stable_sort_by_key_into(space, keys, values, k, v, comp);
    } else {
      Ordo::Impl::sort_into(space, keys, k, comp);
    }
  };
  const std::size_t n = keys.extent(0);
  std::size_t m = n;
  if (agreed.ranks == 1) {
    if constexpr (keeps_counts(form)) {
      // In place, as Ordo's own sort.
      if constexpr (S::with_values) {
        Ordo::Impl::stable_sort_by_key(space, keys, values, comp, Ordo::Impl::SortOptions{});
      } else {
        Ordo::Impl::sort(space, keys, comp, Ordo::Impl::SortOptions{});
      }
    } else {
      out.reserve(n);
      if constexpr (S::with_values) {
        sort_copy(part(out.keys, 0, n), part(out.values, 0, n));
      } else {
        sort_copy(part(out.keys, 0, n), out.values);
      }
    }
    clock.lap(space, &SortStats::local_sort_seconds);
  } else {
    // The sorted copy and the received runs live in Ordo's workspaces; a result allocated here is
    // allocated while the local sort runs, at the most keys the split can give this rank.
    using WorkKeys = typename S::WorkKeys;
    using WorkValues = typename S::WorkValues;
    const auto mine = work_view<WorkKeys>(space, n, MPISlot::keys);
    const auto mine_values = work_view<WorkValues>(space, n, MPISlot::values);
    sort_copy(mine, mine_values);
    out.reserve(
        keeps_counts(form) ? n : balanced_capacity(agreed.total, agreed.ranks, options.imbalance));
    clock.lap(space, &SortStats::local_sort_seconds);

    const auto [targets, tolerance] = split_targets(agreed, keeps_counts(form), options.imbalance);
    int rounds = 0;
    const auto cuts = split_points(space, comm, agreed, mine, comp, targets, tolerance, rounds);
    clock.lap(space, &SortStats::splitter_seconds);

    const ExchangePlan plan = plan_exchange(comm, cuts);
    m = plan.received;
    const auto got = work_view<WorkKeys>(space, plan.extent, MPISlot::received_keys);
    const auto got_values = work_view<WorkValues>(space, plan.extent, MPISlot::received_values);
    if (way == Way::nccl) {
#if defined(ORDO_ENABLE_NCCL)
      if constexpr (nccl_possible<ExecSpace, typename S::Mem>()) {
        const ncclComm_t nccl = nccl_communicator(space, comm, agreed, options, fn);
        if constexpr (S::with_values) {
          nccl_exchange(space, comm, nccl, agreed, plan, options, fn, std::pair(mine, got),
                        std::pair(mine_values, got_values));
        } else {
          nccl_exchange(space, comm, nccl, agreed, plan, options, fn, std::pair(mine, got));
        }
      }
#endif
    } else {
      const bool direct = way == Way::direct;
      exchange(space, comm, plan, mine, got, direct);
      if constexpr (S::with_values) exchange(space, comm, plan, mine_values, got_values, direct);
    }
    clock.lap(space, &SortStats::exchange_seconds);

    // The received runs merge into the output; the sorted copy's slots, no longer needed, are the
    // merge's scratch.
    out.reserve(m);
    merge_runs(space, got, got_values, work_view<WorkKeys>(space, m, MPISlot::keys),
               work_view<WorkValues>(space, m, MPISlot::values), out.keys, out.values, plan.runs,
               comp);

    if (options.stats) {
      const std::uint64_t bytes = record.key_size + record.value_size;
      for (int r = 0; r < agreed.ranks; ++r) {
        if (r == agreed.rank) continue;
        options.stats->bytes_sent += bytes * (plan.send_counts[r] - plan.send_heads[r]);
        options.stats->bytes_received += bytes * (plan.runs[r].second - plan.runs[r].first);
      }
      options.stats->splitter_rounds = rounds;
      options.stats->direct = way == Way::direct;
      options.stats->nccl = way == Way::nccl;
    }
  }
  space.fence("Ordo::MPI::sort: done");
  clock.lap(space, &SortStats::merge_seconds);
  if (options.stats) options.stats->keys_after = m;
  return m;
}

}  // namespace Ordo::MPI::Impl

#endif
