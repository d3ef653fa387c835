// SPDX-License-Identifier: BSD-3-Clause
// ordo-perf-mpi: Ordo::MPI's distributed sort under mpiexec, weak or strong scaling, with its
// phase times, the bytes each rank sent, and two baselines measured in the same run: each rank's
// local sort alone (Ordo::sort, or Ordo::stable_sort_by_key with --values), and an all-to-all of
// the same bytes by the exchange's engine (MPI_Alltoallv, or NCCL's grouped send and receive when
// the exchange took NCCL). Run it on every rank:
//
//   mpiexec -n 2 ordo-perf-mpi sort --log2n 23 --scaling weak --format jsonl
#include "Ordo_PerfHarness.hpp"
#include "Ordo_PerfInputs.hpp"

#include <Ordo_MPI.hpp>

#include <CLI/CLI.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>
#if defined(ORDO_ENABLE_NCCL)
#include <nccl.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using OrdoPerf::ExecSpace;
using OrdoPerf::MemorySpace;

struct Options {
  std::string log2n = "20:23";
  std::string scaling = "weak";
  std::string key = "u32";
  bool values = false;
  std::string dist = "uniform";
  std::string exchange = "automatic";
  std::string form = "returned";
  int reps = 5;
  int warmup = 1;
  bool check = false;
};

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int ranks_of(MPI_Comm comm) {
  int p = 0;
  MPI_Comm_size(comm, &p);
  return p;
}

double max_over_ranks(double x) {
  double m = 0;
  MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

double sum_over_ranks(double x) {
  double s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

// This rank's keys: uniform over the type, Zipf(1.1) over [1, 2^20] (a few keys very common),
// or all equal.
template <class Key>
std::vector<Key> make_keys(const std::string& dist, std::size_t n, std::uint64_t seed) {
  std::vector<Key> v(n);
  std::uint64_t state = seed;
  if (dist == "zipf") {
    const int K = 1 << 20;
    std::vector<double> cdf(K);
    double sum = 0;
    for (int k = 1; k <= K; ++k) cdf[k - 1] = (sum += std::pow(double(k), -1.1));
    for (auto& x : v) {
      const double u = double(OrdoPerf::splitmix64(state) >> 11) / double(1ull << 53) * sum;
      x = Key(1 + (std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin()));
    }
  } else if (dist == "equal") {
    std::fill(v.begin(), v.end(), Key(7));
  } else {
    for (auto& x : v) x = Key(OrdoPerf::splitmix64(state));
  }
  return v;
}

// NCCL's grouped send and receive of the byte counts an MPI_Alltoallv would take, between device
// buffers, on space's stream; returns when the bytes have arrived. The communicator is the
// harness's own, made on first use over MPI_COMM_WORLD (never where the exchange took MPI).
void nccl_alltoall(const ExecSpace& space, const char* send, const std::vector<int>& counts,
                   const std::vector<int>& displs, char* recv, const std::vector<int>& rcounts,
                   const std::vector<int>& rdispls) {
#if defined(ORDO_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  static ncclComm_t nccl = [] {
    ncclUniqueId id{};
    if (rank_of(MPI_COMM_WORLD) == 0) ncclGetUniqueId(&id);
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
    ncclComm_t c = nullptr;
    if (ncclCommInitRank(&c, ranks_of(MPI_COMM_WORLD), id, rank_of(MPI_COMM_WORLD)) != ncclSuccess)
      throw std::runtime_error("ordo-perf-mpi: ncclCommInitRank of the baseline failed");
    Kokkos::push_finalize_hook([c] { ncclCommDestroy(c); });
    return c;
  }();
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    const int me = rank_of(MPI_COMM_WORLD);
    ncclGroupStart();
    for (int q = 0; q < int(counts.size()); ++q) {
      if (q == me) continue;
      ncclSend(send + displs[q], counts[q], ncclUint8, q, nccl, space.cuda_stream());
      ncclRecv(recv + rdispls[q], rcounts[q], ncclUint8, q, nccl, space.cuda_stream());
    }
    ncclGroupEnd();
    cudaMemcpyAsync(recv + rdispls[me], send + displs[me], counts[me], cudaMemcpyDeviceToDevice,
                    space.cuda_stream());
    space.fence("ordo-perf-mpi: NCCL baseline");
  }
#else
  (void)space, (void)send, (void)counts, (void)displs, (void)recv, (void)rcounts, (void)rdispls;
  throw std::logic_error("ordo-perf-mpi: the exchange took NCCL in a build without it");
#endif
}

struct Row {
  std::vector<double> total, local_sort, splitters, exchange, merge;
  int rounds = 0;
  double bytes_sent_max = 0, bytes_sent_mean = 0, keys_max = 0;
  bool direct = false, nccl = false;
};

// One point: its JSON line and its table line (on rank 0; empty elsewhere).
struct Lines {
  std::string jsonl, table;
};

template <class Key>
Lines run_point(const Options& o, int log2n) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int me = rank_of(comm), P = ranks_of(comm);
  const std::uint64_t total_n =
      o.scaling == "weak" ? (std::uint64_t(1) << log2n) * P : (std::uint64_t(1) << log2n);
  const std::size_t n = total_n / P + (std::uint64_t(me) < total_n % P ? 1 : 0);
  const ExecSpace space;
  const auto host_keys = make_keys<Key>(o.dist, n, 0x5eed + 7919 * std::uint64_t(me) + log2n);
  const auto input = OrdoPerf::to_device(host_keys, "input");
  Kokkos::View<Key*, MemorySpace> work("work", n);
  Kokkos::View<std::uint32_t*, MemorySpace> values("values", o.values ? n : 0);
  Kokkos::deep_copy(values, 1u);

  Ordo::MPI::SortOptions options;
  options.exchange = o.exchange == "direct"   ? Ordo::MPI::Exchange::direct
                     : o.exchange == "staged" ? Ordo::MPI::Exchange::staged
                     : o.exchange == "nccl"   ? Ordo::MPI::Exchange::nccl
                                              : Ordo::MPI::Exchange::automatic;
  Ordo::MPI::SortStats stats;
  options.stats = &stats;
  Row row;
  // The form's output: a new View (returned), the caller's View of sort_capacity keys (into), or
  // the keys themselves (keep_counts, on a copy of the input made outside the timed call).
  Kokkos::View<Key*, MemorySpace> result;
  const std::size_t capacity = Ordo::MPI::sort_capacity(comm, n, options);
  Kokkos::View<Key*, MemorySpace> keys_out("keys_out", o.form == "into" ? capacity : 0);
  Kokkos::View<std::uint32_t*, MemorySpace> values_out("values_out",
                                                       o.form == "into" && o.values ? capacity : 0);
  Kokkos::View<std::uint32_t*, MemorySpace> values_copy(
      "values_copy", o.form == "keep_counts" ? values.extent(0) : 0);
  for (int r = 0; r < o.warmup + o.reps; ++r) {
    result = {};  // the last call's result is freed outside the timed call
    if (o.form == "keep_counts") {
      Kokkos::deep_copy(space, work, input);
      if (o.values) Kokkos::deep_copy(space, values_copy, values);
      space.fence();
    }
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    if (o.form == "into") {
      const std::size_t count =
          o.values ? Ordo::MPI::sort_by_key_into(space, comm, input, values, keys_out, values_out,
                                                 Ordo::less<>{}, options)
                   : Ordo::MPI::sort_into(space, comm, input, keys_out, Ordo::less<>{}, options);
      result = Kokkos::subview(keys_out, Kokkos::make_pair(std::size_t(0), count));
    } else if (o.form == "keep_counts") {
      if (o.values) {
        Ordo::MPI::sort_by_key_keep_counts(space, comm, work, values_copy, Ordo::less<>{}, options);
      } else {
        Ordo::MPI::sort_keep_counts(space, comm, work, Ordo::less<>{}, options);
      }
      result = work;
    } else if (o.values) {
      result = Ordo::MPI::sort_by_key(space, comm, input, values, Ordo::less<>{}, options).keys;
    } else {
      result = Ordo::MPI::sort(space, comm, input, Ordo::less<>{}, options);
    }
    const double t = max_over_ranks(MPI_Wtime() - t0);
    if (r < o.warmup) continue;
    row.total.push_back(t * 1e3);
    row.local_sort.push_back(max_over_ranks(stats.local_sort_seconds) * 1e3);
    row.splitters.push_back(max_over_ranks(stats.splitter_seconds) * 1e3);
    row.exchange.push_back(max_over_ranks(stats.exchange_seconds) * 1e3);
    row.merge.push_back(max_over_ranks(stats.merge_seconds) * 1e3);
  }
  row.rounds = int(max_over_ranks(stats.splitter_rounds));
  row.bytes_sent_max = max_over_ranks(double(stats.bytes_sent));
  row.bytes_sent_mean = sum_over_ranks(double(stats.bytes_sent)) / P;
  row.keys_max = max_over_ranks(double(stats.keys_after));
  row.direct = stats.direct;
  row.nccl = stats.nccl;

  if (o.check) {
    // Rank 0 compares the gathered result with std::sort of the gathered input.
    auto gather = [&](const std::vector<Key>& mine) {
      const int count = int(mine.size());
      std::vector<int> counts(P), displs(P, 0);
      MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
      for (int q = 1; q < P; ++q) displs[q] = displs[q - 1] + counts[q - 1];
      std::vector<Key> all(me == 0 ? std::size_t(displs[P - 1]) + counts[P - 1] : 0);
      const Ordo::MPI::Impl::ElementType type(sizeof(Key));
      MPI_Gatherv(mine.data(), count, type.get(), all.data(), counts.data(), displs.data(),
                  type.get(), 0, comm);
      return all;
    };
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, result);
    auto expected = gather(host_keys);
    const auto got = gather(std::vector<Key>(h.data(), h.data() + h.extent(0)));
    std::sort(expected.begin(), expected.end());
    int bad = me == 0 && got != expected;
    MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
    if (bad)
      throw std::runtime_error("ordo-perf-mpi: --check failed at log2n " + std::to_string(log2n));
  }

  // Baselines: the local sort the distributed one starts with (Ordo::sort of the rank's keys, or
  // Ordo::stable_sort_by_key of its pairs); an all-to-all of the same bytes split evenly by the
  // exchange's engine: NCCL's grouped send and receive between the devices where the exchange took
  // NCCL, else an MPI_Alltoallv in the memory the exchange hands to MPI: between the devices where
  // MPI takes device memory (the direct exchange), between host buffers where it does not (what
  // the staged exchange sends); none on one rank.
  Kokkos::View<std::uint32_t*, MemorySpace> work_values("work_values", o.values ? n : 0);
  std::vector<double> local, alltoall;
  const std::size_t bytes_per_key = sizeof(Key) + (o.values ? 4 : 0);
  std::vector<int> counts(P), displs(P), rcounts(P), rdispls(P);
  for (int q = 0; q < P; ++q) {
    counts[q] = int((n / P + (std::size_t(q) < n % P ? 1 : 0)) * bytes_per_key);
    displs[q] = q ? displs[q - 1] + counts[q - 1] : 0;
  }
  MPI_Alltoall(counts.data(), 1, MPI_INT, rcounts.data(), 1, MPI_INT, comm);
  for (int q = 0; q < P; ++q) rdispls[q] = q ? rdispls[q - 1] + rcounts[q - 1] : 0;
  const bool a2a_on_device =
      (row.direct || row.nccl) && !std::is_same_v<MemorySpace, Kokkos::HostSpace>;
  using Bytes = Kokkos::View<char*, MemorySpace>;
  using HostBytes = Kokkos::View<char*, Kokkos::HostSpace>;
  const std::size_t send_bytes = n * bytes_per_key,
                    recv_bytes = std::size_t(rdispls[P - 1]) + rcounts[P - 1];
  const bool a2a = P > 1;
  Bytes send_d("alltoallv_send", a2a && a2a_on_device ? send_bytes : 0),
      recv_d("alltoallv_recv", a2a && a2a_on_device ? recv_bytes : 0);
  HostBytes send_h("alltoallv_send", a2a && !a2a_on_device ? send_bytes : 0),
      recv_h("alltoallv_recv", a2a && !a2a_on_device ? recv_bytes : 0);
  char* const send = a2a_on_device ? send_d.data() : send_h.data();
  char* const recv = a2a_on_device ? recv_d.data() : recv_h.data();
  for (int r = 0; r < o.warmup + o.reps; ++r) {
    Kokkos::deep_copy(space, work, input);
    if (o.values) Kokkos::deep_copy(space, work_values, values);
    space.fence();
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    if (o.values) {
      Ordo::stable_sort_by_key(space, work, work_values, Ordo::less<>{});
    } else {
      Ordo::sort(space, work, Ordo::less<>{});
    }
    space.fence();
    const double t_local = max_over_ranks(MPI_Wtime() - t0);
    // One rank sends nothing: no alltoallv to time.
    double t_all = 0;
    if (a2a && row.nccl) {
      MPI_Barrier(comm);
      t0 = MPI_Wtime();
      nccl_alltoall(space, send, counts, displs, recv, rcounts, rdispls);
      t_all = max_over_ranks(MPI_Wtime() - t0);
    } else if (a2a) {
      MPI_Barrier(comm);
      t0 = MPI_Wtime();
      MPI_Alltoallv(send, counts.data(), displs.data(), MPI_BYTE, recv, rcounts.data(),
                    rdispls.data(), MPI_BYTE, comm);
      t_all = max_over_ranks(MPI_Wtime() - t0);
    }
    if (r < o.warmup) continue;
    local.push_back(t_local * 1e3);
    alltoall.push_back(t_all * 1e3);
  }
  // The bytes the baseline sends off each rank (its own share stays home, as in the sort).
  const double a2a_bytes_off_rank = max_over_ranks(double(send_bytes - counts[me]));

  if (me != 0) return {};
  const auto med = [](const std::vector<double>& v) { return OrdoPerf::summarize(v).median_ms; };
  const auto t = OrdoPerf::summarize(row.total);
  const double floor_ms = med(local) + med(alltoall);
  const double balance = row.keys_max / (double(total_n) / P);
  // A rank's off-rank bytes over a phase's median time (the slowest rank's), in GB/s.
  const auto gbps = [&](double bytes, const std::vector<double>& ms) {
    return P == 1 ? 0.0 : bytes / (med(ms) * 1e6);
  };
  const double exchange_gbps = gbps(row.bytes_sent_max, row.exchange),
               alltoallv_gbps = gbps(a2a_bytes_off_rank, alltoall);
  const char* a2a_memory = !a2a ? "none" : row.nccl ? "nccl" : a2a_on_device ? "device" : "host";
  const int threads = ExecSpace().concurrency();
  const char* exchange = P == 1 ? "none" : row.nccl ? "nccl" : row.direct ? "direct" : "staged";
  char json[1024], table[384];
  std::snprintf(
      json, sizeof json,
      "{\"record\":\"point\",\"primitive\":\"mpi_sort\",\"form\":\"%s\",\"scaling\":\"%s\","
      "\"ranks\":%d,"
      "\"concurrency\":%d,\"key\":\"%s\",\"values\":%s,\"dist\":\"%s\",\"log2n\":%d,"
      "\"n_total\":%llu,\"exchange\":\"%s\",\"median_ms\":%.4f,\"min_ms\":%.4f,\"max_ms\":%.4f,"
      "\"local_sort_ms\":%.4f,\"splitters_ms\":%.4f,\"exchange_ms\":%.4f,\"merge_ms\":%.4f,"
      "\"splitter_rounds\":%d,\"bytes_sent_max\":%.0f,\"bytes_sent_mean\":%.0f,"
      "\"balance\":%.4f,\"baseline_local_sort_ms\":%.4f,\"baseline_alltoallv_ms\":%.4f,"
      "\"vs_local_plus_alltoallv\":%.3f,\"alltoallv_memory\":\"%s\",\"exchange_GBps\":%.2f,"
      "\"alltoallv_GBps\":%.2f}\n",
      o.form.c_str(), o.scaling.c_str(), P, threads, o.key.c_str(), o.values ? "true" : "false",
      o.dist.c_str(), log2n, (unsigned long long)total_n, exchange, t.median_ms, t.min_ms, t.max_ms,
      med(row.local_sort), med(row.splitters), med(row.exchange), med(row.merge), row.rounds,
      row.bytes_sent_max, row.bytes_sent_mean, balance, med(local), med(alltoall),
      t.median_ms / floor_ms, a2a_memory, exchange_gbps, alltoallv_gbps);
  std::snprintf(table, sizeof table,
                "%-6s %5d %-4s %-6s %-8s %5d %9.3f %9.3f %9.3f %9.3f %9.3f %6d %12.0f %7.4f "
                "%9.3f %9.3f %6.2fx %8.1f %8.1f %s\n",
                o.scaling.c_str(), P, o.key.c_str(), o.values ? "yes" : "no", o.dist.c_str(), log2n,
                t.median_ms, med(row.local_sort), med(row.splitters), med(row.exchange),
                med(row.merge), row.rounds, row.bytes_sent_max, balance, med(local), med(alltoall),
                t.median_ms / floor_ms, exchange_gbps, alltoallv_gbps, a2a_memory);
  return {json, table};
}

void context(std::ostream& out, bool jsonl) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string mpi(version, length);
  mpi = mpi.substr(0, mpi.find_first_of(",\n"));
  const std::string kokkos = std::to_string(KOKKOS_VERSION / 10000) + "." +
                             std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                             std::to_string(KOKKOS_VERSION % 100);
  const int P = ranks_of(MPI_COMM_WORLD);
  if (jsonl) {
    out << "{\"record\":\"context\",\"ordo_version\":\"" << ORDO_VERSION_STRING
        << "\",\"ordo_commit\":\"" << OrdoPerf::build_commit() << "\",\"kokkos_version\":\""
        << kokkos << "\",\"execution_space\":\"" << ExecSpace::name()
        << "\",\"concurrency\":" << ExecSpace().concurrency() << ",\"ranks\":" << P << ",\"mpi\":\""
        << mpi << "\"}\n";
  } else {
    out << "Ordo " << ORDO_VERSION_STRING << " (" << OrdoPerf::build_commit() << "), Kokkos "
        << kokkos << ", " << ExecSpace::name() << " (" << ExecSpace().concurrency()
        << ") per rank, " << P << " ranks, " << mpi << "\n"
        << "times in ms, the slowest rank's; vs = total / (local sort + alltoallv);\n"
        << "GB/s = a rank's bytes to other ranks / phase time\n"
        << "scale  ranks key  values dist     log2n     total     local splitters  exchange"
           "     merge rounds   bytes_sent balance  base_srt  base_a2a     vs  xchg_GB/s a2a_GB/s "
           "a2a_mem\n";
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    CLI::App app{"ordo-perf-mpi: Ordo::MPI's distributed sort, its phases and baselines"};
    app.require_subcommand(1);
    app.fallthrough();
    Options o;
    std::string format = "table", output;
    app.add_option("--format", format, "table or jsonl")->check(CLI::IsMember({"table", "jsonl"}));
    app.add_option("--output", output, "also append JSON lines to this file (rank 0)");
    app.add_option("--reps", o.reps, "timed repetitions per point (median, min, max)");
    app.add_option("--warmup", o.warmup, "untimed calls before timing");
    auto* sort = app.add_subcommand("sort", "time Ordo::MPI::sort (sort_by_key with --values)");
    sort->add_option("--log2n", o.log2n,
                     "log2 of the keys per rank (weak) or in all (strong): first:last[:step]");
    sort->add_option("--scaling", o.scaling, "weak or strong")
        ->check(CLI::IsMember({"weak", "strong"}));
    sort->add_option("--key", o.key, "key type")->check(CLI::IsMember({"u32", "u64"}));
    sort->add_flag("--values", o.values, "carry u32 values with the keys");
    sort->add_option("--dist", o.dist, "uniform, zipf (Zipf 1.1 over [1, 2^20]) or equal")
        ->check(CLI::IsMember({"uniform", "zipf", "equal"}));
    sort->add_option("--exchange", o.exchange, "automatic, direct, staged or nccl")
        ->check(CLI::IsMember({"automatic", "direct", "staged", "nccl"}));
    sort->add_option("--form", o.form,
                     "returned (sort: a new View), into (sort_into: the caller's View) or "
                     "keep_counts (in place)")
        ->check(CLI::IsMember({"returned", "into", "keep_counts"}));
    sort->add_flag("--check", o.check, "check the gathered result against std::sort on rank 0");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      status = rank_of(MPI_COMM_WORLD) == 0 ? app.exit(e) : 1;
      MPI_Finalize();
      return status;
    }
    Kokkos::ScopeGuard guard(argc, argv);
    try {
      const bool jsonl = format == "jsonl";
      std::ofstream file;
      const bool root = rank_of(MPI_COMM_WORLD) == 0;
      if (root) {
        context(std::cout, jsonl);
        if (!output.empty()) {
          file.open(output, std::ios::app);
          context(file, true);
        }
      }
      for (int log2n : OrdoPerf::parse_log2n(o.log2n)) {
        const Lines lines = o.key == "u64" ? run_point<std::uint64_t>(o, log2n)
                                           : run_point<std::uint32_t>(o, log2n);
        if (!root) continue;
        std::cout << (jsonl ? lines.jsonl : lines.table) << std::flush;
        if (file.is_open()) file << lines.jsonl << std::flush;
      }
    } catch (const std::exception& e) {
      std::cerr << "rank " << rank_of(MPI_COMM_WORLD) << ": " << e.what() << "\n";
      status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
