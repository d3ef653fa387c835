// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_TEST_ROBUSTNESS_HPP
#define ORDO_TEST_ROBUSTNESS_HPP

// What the robustness tests and the fuzz driver share: outputs inside a larger allocation whose
// guard elements are checked afterwards, comparators that are not strict weak orders, and the
// calls that take input Ordo cannot check cheaply, each asserting only that nothing was written
// outside its outputs, the inputs are unchanged and every output element comes from the inputs.

#include "Ordo_TestOracle.hpp"

#include <Ordo.hpp>

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace OrdoTest {

inline constexpr bool debug_checks = Ordo::Impl::debug_checks;
inline constexpr std::size_t guard = 64;

// n elements of T (from `init`, else the poison) `offset` elements into guards of poison.
template <class T>
struct Guarded {
  std::size_t n, offset;
  DeviceView<T> all, view;

  Guarded(std::size_t n_, std::size_t offset_ = 0, const std::vector<T>& init = {})
      : n(n_), offset(offset_) {
    std::vector<T> h(n + 2 * guard + offset, poison_value<T>());
    std::copy(init.begin(), init.end(), h.begin() + guard + offset);
    all = to_device(h, "guarded");
    view = Kokkos::subview(all, std::make_pair(guard + offset, guard + offset + n));
  }
  // The n elements; the guards must hold the poison still.
  std::vector<T> elements() const {
    const auto h = to_host(all);
    const T p = poison_value<T>();
    for (std::size_t k = 0; k < h.size(); ++k) {
      if (k >= guard + offset && k < guard + offset + n) continue;
      if (std::memcmp(&h[k], &p, sizeof(T)) != 0) {
        ADD_FAILURE() << "guard element " << k << " (of a View of " << n << ") was written";
        break;
      }
    }
    return std::vector<T>(h.begin() + guard + offset, h.begin() + guard + offset + n);
  }
};

// Comparators on u32 keys, chosen at run time so that each call instantiates once:
// 0 Ordo::less, 1 `<=`, 2 contradictory (both directions may hold), 3 cyclic (not transitive).
struct AnyOrder {
  int kind = 0;
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint32_t a, std::uint32_t b) const {
    switch (kind) {
      case 1: return a <= b;
      case 2: return ((a * 2654435761u) ^ (b * 40503u)) & 4u;
      case 3: return (a % 3 + 1) % 3 == b % 3;
      default: return a < b;
    }
  }
};
inline const char* order_name(int kind) {
  static const char* names[] = {"less", "<=", "contradictory", "cyclic"};
  return names[kind];
}

// Every element is one of `from` (or the poison: an output left unwritten).
template <class T>
void expect_from(const std::vector<T>& out, const std::vector<T>& from, const char* what) {
  std::set<T> allowed(from.begin(), from.end());
  allowed.insert(poison_value<T>());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!allowed.count(out[i])) {
      ADD_FAILURE() << what << "(" << i << ") = " << out[i] << " is not an input element";
      return;
    }
  }
}

// Every index lies in [lo, hi] (or is the poison).
template <class T>
void expect_indices(const std::vector<T>& out, std::int64_t lo, std::int64_t hi, const char* what) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t v = std::int64_t(out[i]);
    if (out[i] != poison_value<T>() && (v < lo || v > hi)) {
      ADD_FAILURE() << what << "(" << i << ") = " << v << " is outside [" << lo << ", " << hi
                    << "]";
      return;
    }
  }
}

// Runs a call on input it cannot check: it may throw std::invalid_argument where debug checks
// are on (unsorted input), never without them, except where `sized` (a join's output, whose size
// on such input may differ from what join_size counted: the documented error for outputs too
// short, thrown before anything is written).
template <class F>
void run_unchecked(F&& f, bool sized = false) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    const bool too_short = sized && std::string(e.what()).find(", needs ") != std::string::npos;
    if (!debug_checks && !too_short) ADD_FAILURE() << "threw without debug checks: " << e.what();
  }
  ExecSpace().fence();
}

using Keys = std::vector<std::uint32_t>;

// merge and merge_by_key (values: the keys' positions, A's from 0, B's from 1 << 20) on `path`;
// returns merge's output.
inline Keys robust_merge(const Keys& a, const Keys& b, AnyOrder comp, Path path,
                         std::size_t offset) {
  const ExecSpace space;
  Guarded<std::uint32_t> ga(a.size(), offset, a), gb(b.size(), 0, b);
  Guarded<std::uint32_t> out(a.size() + b.size(), offset);
  run_unchecked([&] {
    if (path == Path::dispatch) {
      Ordo::merge(space, ga.view, gb.view, out.view, comp);
    } else {
      Ordo::Impl::merge_tiled(space, ga.view, gb.view, out.view, Ordo::Impl::NoValues{}, comp,
                              path == Path::fused);
    }
  });
  Keys both = a;
  both.insert(both.end(), b.begin(), b.end());
  const Keys merged = out.elements();
  expect_from(merged, both, "merge out");
  EXPECT_EQ(ga.elements(), a);
  EXPECT_EQ(gb.elements(), b);

  Keys av(a.size()), bv(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) av[i] = std::uint32_t(i);
  for (std::size_t i = 0; i < b.size(); ++i) bv[i] = std::uint32_t(i) + (1u << 20);
  Guarded<std::uint32_t> gav(a.size(), 0, av), gbv(b.size(), offset, bv);
  Guarded<std::uint32_t> ok(a.size() + b.size()), ov(a.size() + b.size(), offset);
  run_unchecked([&] {
    Ordo::merge_by_key(space, ga.view, gav.view, gb.view, gbv.view, ok.view, ov.view, comp);
  });
  expect_from(ok.elements(), both, "merge_by_key out_keys");
  Keys values = av;
  values.insert(values.end(), bv.begin(), bv.end());
  expect_from(ov.elements(), values, "merge_by_key out_values");
  return merged;
}

inline Ordo::Impl::SearchPath search_path_of(Path path) {
  return path == Path::tiled   ? Ordo::Impl::SearchPath::tiled
         : path == Path::fused ? Ordo::Impl::SearchPath::fused
                               : Ordo::Impl::SearchPath::automatic;
}

// sorted_search (both bounds), the complete search with match flags and counts, lower_bound.
inline void robust_search(const Keys& a, const Keys& b, AnyOrder comp, Path path) {
  const ExecSpace space;
  const auto p = search_path_of(path);
  Guarded<std::uint32_t> ga(a.size(), 1, a), gb(b.size(), 0, b);
  for (Ordo::Bounds bounds : {Ordo::Bounds::lower, Ordo::Bounds::upper}) {
    Guarded<std::int64_t> index(a.size(), 3);
    run_unchecked([&] {
      Ordo::Impl::check_search_inputs("Ordo::sorted_search", space, ga.view, gb.view, comp);
      Ordo::Impl::index_search(space, ga.view, gb.view, index.view, bounds, comp, p);
    });
    expect_indices(index.elements(), 0, std::int64_t(b.size()), "a_index");
  }
  Guarded<std::int64_t> ai(a.size()), bi(b.size(), 5), counts(2);
  Guarded<std::uint8_t> am(a.size(), 7), bm(b.size());
  run_unchecked([&] {
    Ordo::Impl::check_search_inputs("Ordo::sorted_search", space, ga.view, gb.view, comp);
    Ordo::Impl::complete_search(space, ga.view, gb.view,
                                Ordo::SearchOutputs{ai.view, am.view, bi.view, bm.view},
                                Ordo::Bounds::lower, counts.view, comp, p);
  });
  // The binary search of (unsorted) needles a into the haystack b.
  Guarded<std::int64_t> bound(a.size(), 1);
  run_unchecked([&] { Ordo::lower_bound(space, gb.view, ga.view, bound.view, comp); });
  expect_indices(bound.elements(), 0, std::int64_t(b.size()), "lower_bound out");
  expect_indices(ai.elements(), 0, std::int64_t(b.size()), "a_index");
  expect_indices(bi.elements(), 0, std::int64_t(a.size()), "b_index");
  expect_indices(am.elements(), 0, 1, "a_match");
  expect_indices(bm.elements(), 0, 1, "b_match");
  counts.elements();
  EXPECT_EQ(ga.elements(), a);
  EXPECT_EQ(gb.elements(), b);
}

// The four set operations on the tiled path (tiled) or the dispatch (else), and
// set_union_by_key.
inline void robust_set_ops(const Keys& a, const Keys& b, AnyOrder comp, Path path) {
  using Ordo::Impl::SetOp;
  const ExecSpace space;
  const auto p =
      path == Path::dispatch ? Ordo::Impl::SetPath::automatic : Ordo::Impl::SetPath::tiled;
  Guarded<std::uint32_t> ga(a.size(), 2, a), gb(b.size(), 0, b);
  Keys both = a;
  both.insert(both.end(), b.begin(), b.end());
  auto run = [&](auto op) {
    Guarded<std::uint32_t> out(a.size() + b.size(), 1);
    Guarded<std::int64_t> count(1);
    run_unchecked([&] {
      Ordo::Impl::check_set_operation("Ordo::set_op", space, ga.view, gb.view, out.view, comp);
      Ordo::Impl::set_op_dispatch<decltype(op)::value>(
          "set_op", space, ga.view, gb.view,
          Ordo::Impl::SetKeysEmit<DeviceView<std::uint32_t>>{out.view}, count.view, comp, p);
    });
    expect_from(out.elements(), both, "set operation out");
    count.elements();
  };
  run(std::integral_constant<SetOp, SetOp::intersection>{});
  run(std::integral_constant<SetOp, SetOp::set_union>{});
  run(std::integral_constant<SetOp, SetOp::difference>{});
  run(std::integral_constant<SetOp, SetOp::symmetric_difference>{});
  EXPECT_EQ(ga.elements(), a);
  EXPECT_EQ(gb.elements(), b);
}

// sort, stable_sort_by_key (values: positions), sort_permutation and segmented_sort under comp
// (options: the path), each output from the input; returns sort's output.
inline Keys robust_sorts(const Keys& keys, AnyOrder comp, const Ordo::Impl::SortOptions& options) {
  const ExecSpace space;
  const std::size_t n = keys.size();
  Keys positions(n);
  for (std::size_t i = 0; i < n; ++i) positions[i] = std::uint32_t(i);
  Guarded<std::uint32_t> sorted(n, 1, keys);
  run_unchecked([&] { Ordo::Impl::sort(space, sorted.view, comp, options); });
  const Keys result = sorted.elements();
  expect_from(result, keys, "sort keys");
  {
    Guarded<std::uint32_t> k(n, 0, keys), v(n, 3, positions);
    run_unchecked([&] { Ordo::Impl::stable_sort_by_key(space, k.view, v.view, comp, options); });
    expect_from(k.elements(), keys, "stable_sort_by_key keys");
    expect_from(v.elements(), positions, "stable_sort_by_key values");
  }
  {
    Guarded<std::uint32_t> k(n, 0, keys);
    Guarded<std::int64_t> perm(n, 2);
    run_unchecked([&] {
      Ordo::Impl::stable_permutation(space, k.view, perm.view, Ordo::Impl::NoEnd{}, comp, options);
    });
    expect_indices(perm.elements(), 0, std::int64_t(n) - 1, "perm");
    EXPECT_EQ(k.elements(), keys);
  }
  {
    // Segments of 0 to 3000 records.
    std::vector<std::int64_t> offsets{0};
    for (std::size_t s = 1; offsets.back() < std::int64_t(n); ++s) {
      offsets.push_back(
          std::min<std::int64_t>(std::int64_t(n), offsets.back() + std::int64_t(s * s * 7 % 3001)));
    }
    Guarded<std::uint32_t> k(n, 1, keys), v(n, 0, positions);
    const auto o = to_device(offsets);
    run_unchecked([&] {
      Ordo::Impl::segmented_sort_by_key("Ordo::segmented_sort_by_key", space, k.view, v.view, o,
                                        comp, options);
    });
    expect_from(k.elements(), keys, "segmented_sort_by_key keys");
    expect_from(v.elements(), positions, "segmented_sort_by_key values");
  }
  return result;
}

// load_balancing_search, interval_expand and interval_gather of a scan that may not start at 0,
// may decrease or run past the outputs, and starts that may leave values.
inline void robust_load_balance(const std::vector<std::int64_t>& scan,
                                const std::vector<std::int64_t>& starts, std::size_t outputs,
                                Path path) {
  const ExecSpace space;
  const std::size_t m = scan.size();
  Guarded<std::int64_t> s(m, 1, scan), st(m, 0, starts);
  Keys values(m);
  for (std::size_t i = 0; i < m; ++i) values[i] = std::uint32_t(i * 7 + 1);
  Guarded<std::uint32_t> v(m, 2, values);
  {
    Guarded<std::int64_t> item(outputs, 1), rank(outputs);
    run_unchecked([&] {
      if (path == Path::dispatch) {
        Ordo::load_balancing_search(space, s.view, item.view, rank.view);
      } else {
        Ordo::Impl::check_counts_scan("Ordo::load_balancing_search", space, s.view,
                                      std::int64_t(outputs));
        Ordo::Impl::load_balance(
            "load_balancing_search", space, s.view, std::int64_t(outputs),
            Ordo::Impl::ItemStore<DeviceView<std::int64_t>, DeviceView<std::int64_t>>{item.view,
                                                                                      rank.view},
            search_path_of(path));
      }
    });
    expect_indices(item.elements(), 0, std::int64_t(m) - 1, "out_item");
    rank.elements();
  }
  {
    Guarded<std::uint32_t> out(outputs, 3);
    run_unchecked([&] { Ordo::interval_expand(space, s.view, v.view, out.view); });
    expect_from(out.elements(), values, "interval_expand out");
  }
  {
    Guarded<std::uint32_t> out(outputs);
    run_unchecked([&] { Ordo::interval_gather(space, s.view, st.view, v.view, out.view); });
    expect_from(out.elements(), values, "interval_gather out");
  }
  EXPECT_EQ(s.elements(), scan);
  EXPECT_EQ(st.elements(), starts);
  EXPECT_EQ(v.elements(), values);
}

// apply_permutation with entries that may repeat or leave [0, n).
inline void robust_permutation(const std::vector<std::int64_t>& perm) {
  const ExecSpace space;
  const std::size_t n = perm.size();
  Keys a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = std::uint32_t(3 * i + 1), b[i] = std::uint32_t(i);
  Guarded<std::int64_t> p(n, 0, perm);
  Guarded<std::uint32_t> ga(n, 1, a), gb(n, 0, b);
  run_unchecked([&] { Ordo::apply_permutation(space, p.view, ga.view, gb.view); });
  expect_from(ga.elements(), a, "permuted a");
  expect_from(gb.elements(), b, "permuted b");
  EXPECT_EQ(p.elements(), perm);
}

// The runs of keys under a bad comparator, into outputs of half the input's length (so that they
// may be too short: the asynchronous forms drop what does not fit): every key written is an input
// key, every length and sum of ones lies in [1, n], nothing is written past an output's end.
inline void robust_runs(const Keys& keys, AnyOrder comp) {
  const ExecSpace space;
  const std::size_t n = keys.size(), half = n / 2 + 1;
  Guarded<std::uint32_t> in(n, 1, keys), ones(n, 0, Keys(n, 1u));
  Guarded<std::uint32_t> out(half, 1), counts(half, 0), sums(half, 1);
  Guarded<std::int64_t> count(1);
  run_unchecked([&] { Ordo::unique(space, in.view, out.view, count.view, comp); });
  expect_from(out.elements(), keys, "unique");
  run_unchecked(
      [&] { Ordo::run_length_encode(space, in.view, out.view, counts.view, count.view, comp); });
  expect_from(out.elements(), keys, "run_length_encode");
  expect_indices(counts.elements(), 1, std::int64_t(n), "a run's length");
  run_unchecked([&] {
    Ordo::reduce_by_key(space, in.view, ones.view, out.view, sums.view, Ordo::plus<>{}, count.view,
                        comp);
  });
  expect_indices(sums.elements(), 1, std::int64_t(n), "a run's sum of ones");
  const auto c = count.elements()[0];
  EXPECT_TRUE(c >= 1 && c <= std::int64_t(n)) << "runs: " << c;
  EXPECT_EQ(in.elements(), keys);
}

// bin_offsets of keys out of order or out of range: the error in every build, offsets written in
// their own range only.
inline void robust_bin_offsets(const Keys& keys, std::size_t nbins) {
  Guarded<std::uint32_t> in(keys.size(), 0, keys);
  Guarded<std::int64_t> offsets(nbins + 1, 1);
  bool sorted_in_range = std::is_sorted(keys.begin(), keys.end());
  for (auto k : keys) sorted_in_range = sorted_in_range && k < nbins;
  const std::string error =
      error_of([&] { Ordo::bin_offsets(ExecSpace(), in.view, offsets.view); });
  EXPECT_EQ(sorted_in_range, error == "no exception") << error;
  expect_indices(offsets.elements(), 0, std::int64_t(keys.size()), "an offset");
}

// The joins of unsorted keys or under a bad comparator: indices inside their ranges or -1.
inline void robust_joins(const Keys& a, const Keys& b, AnyOrder comp) {
  const ExecSpace space;
  Guarded<std::uint32_t> ga(a.size(), 0, a), gb(b.size(), 1, b);
  for (Ordo::JoinKind kind :
       {Ordo::JoinKind::inner, Ordo::JoinKind::left, Ordo::JoinKind::right, Ordo::JoinKind::full}) {
    std::int64_t size = 0;
    run_unchecked([&] { size = Ordo::join_size(space, kind, ga.view, gb.view, comp); });
    if (size <= 0 || size > (std::int64_t(1) << 24)) continue;
    Guarded<std::int64_t> ao(std::size_t(size), 1), bo(std::size_t(size), 0);
    run_unchecked(
        [&] {
          switch (kind) {
            case Ordo::JoinKind::inner:
              Ordo::inner_join(space, ga.view, gb.view, ao.view, bo.view, comp);
              break;
            case Ordo::JoinKind::left:
              Ordo::left_join(space, ga.view, gb.view, ao.view, bo.view, comp);
              break;
            case Ordo::JoinKind::right:
              Ordo::right_join(space, ga.view, gb.view, ao.view, bo.view, comp);
              break;
            case Ordo::JoinKind::full:
              Ordo::full_outer_join(space, ga.view, gb.view, ao.view, bo.view, comp);
              break;
          }
        },
        true);
    expect_indices(ao.elements(), -1, std::int64_t(a.size()) - 1, "a_out");
    expect_indices(bo.elements(), -1, std::int64_t(b.size()) - 1, "b_out");
  }
  EXPECT_EQ(ga.elements(), a);
  EXPECT_EQ(gb.elements(), b);
}

}  // namespace OrdoTest

#endif
