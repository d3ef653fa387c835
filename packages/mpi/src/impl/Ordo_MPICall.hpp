// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_MPI_CALL_HPP
#define ORDO_MPI_CALL_HPP

// The first collective of every distributed sort: each rank says which form it called, with which
// key and value sizes, how many keys it holds, and whether its own arguments were bad. Every rank
// sees every record and throws the same error when any rank's input was bad or the ranks
// disagree, so that no rank is left waiting in a later collective.

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

namespace Ordo::MPI::Impl {

inline void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string("Ordo::MPI: ") + what +
                             " failed: " + std::string(text, length));
  }
}

enum class Form : std::uint32_t {
  sort = 1,
  sort_by_key,
  stable_sort_by_key,
  sort_keep_counts,
  sort_by_key_keep_counts,
  sort_into,
  sort_by_key_into,
};

constexpr const char* form_name(Form form) {
  switch (form) {
    case Form::sort: return "Ordo::MPI::sort";
    case Form::sort_by_key: return "Ordo::MPI::sort_by_key";
    case Form::stable_sort_by_key: return "Ordo::MPI::stable_sort_by_key";
    case Form::sort_keep_counts: return "Ordo::MPI::sort_keep_counts";
    case Form::sort_by_key_keep_counts: return "Ordo::MPI::sort_by_key_keep_counts";
    case Form::sort_into: return "Ordo::MPI::sort_into";
    case Form::sort_by_key_into: return "Ordo::MPI::sort_by_key_into";
  }
  return "Ordo::MPI (unknown form)";
}

constexpr bool keeps_counts(Form form) {
  return form == Form::sort_keep_counts || form == Form::sort_by_key_keep_counts;
}

constexpr bool writes_caller_output(Form form) {
  return form == Form::sort_into || form == Form::sort_by_key_into;
}

// The most keys a balanced split gives one of `ranks` ranks holding `total` keys: each cut lies
// within imbalance N / 2P of its target, so a rank holds at most (1 + imbalance) N / P + 1 keys
// (plus one for rounding); one rank holds them all.
inline std::uint64_t balanced_capacity(std::uint64_t total, int ranks, double imbalance) {
  if (ranks == 1) return total;
  return static_cast<std::uint64_t>((1 + imbalance) * double(total) / double(ranks)) + 2;
}

// A fingerprint of a type that is the same on every rank of one program: FNV-1a of its name.
template <class T>
std::uint64_t type_fingerprint() {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char* c = typeid(T).name(); *c; ++c) h = (h ^ std::uint8_t(*c)) * 0x100000001b3ull;
  return h;
}

// One rank's account of its call; exchanged as bytes.
struct CallRecord {
  std::uint32_t magic = 0x4f52444f;  // "ORDO"
  Form form = Form::sort;
  std::uint32_t key_size = 0;
  std::uint32_t value_size = 0;  // 0: keys only
  std::uint64_t types = 0;       // fingerprints of the key, value and comparator types
  double imbalance = 0;
  std::uint64_t count = 0;
  std::uint64_t capacity = 0;     // the caller's output elements (the forms that write one)
  std::uint32_t nccl = 0;         // 1: this rank's keys travel through NCCL
  std::uint32_t nccl_cached = 0;  // 1: this rank holds Ordo's NCCL communicator of comm
  std::uint32_t bad = 0;
  char message[232] = {};

  void reject(const std::string& what) {
    bad = 1;
    std::strncpy(message, what.c_str(), sizeof(message) - 1);
  }
};

// What every rank knows once the records agree.
struct Agreement {
  int rank = 0;
  int ranks = 1;
  std::vector<std::uint64_t> counts;  // keys on each rank before the sort
  std::uint64_t total = 0;
  bool nccl_cached = true;  // every rank holds Ordo's NCCL communicator of comm
};

inline std::string describe(const CallRecord& r) {
  std::string s =
      std::string(form_name(r.form)) + " with " + std::to_string(r.key_size) + "-byte keys";
  if (r.value_size) s += " and " + std::to_string(r.value_size) + "-byte values";
  return s;
}

inline Agreement agree_on_call(MPI_Comm comm, const CallRecord& mine) {
  const char* fn = form_name(mine.form);
  Agreement a;
  check_mpi(MPI_Comm_rank(comm, &a.rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &a.ranks), "MPI_Comm_size");
  std::vector<CallRecord> all(a.ranks);
  check_mpi(MPI_Allgather(&mine, sizeof(CallRecord), MPI_BYTE, all.data(), sizeof(CallRecord),
                          MPI_BYTE, comm),
            "MPI_Allgather of the call records");
  for (int r = 0; r < a.ranks; ++r) {
    if (all[r].magic != mine.magic) {
      throw std::invalid_argument(std::string(fn) + ": rank " + std::to_string(r) +
                                  " is not in an Ordo::MPI sort (ranks disagree on the call)");
    }
  }
  for (int r = 0; r < a.ranks; ++r) {
    if (all[r].bad) {
      throw std::invalid_argument(std::string(fn) + ": bad input on rank " + std::to_string(r) +
                                  ": " + all[r].message);
    }
  }
  for (int r = 0; r < a.ranks; ++r) {
    const CallRecord& o = all[r];
    if (o.form != all[0].form || o.key_size != all[0].key_size ||
        o.value_size != all[0].value_size) {
      throw std::invalid_argument(std::string(fn) + ": ranks disagree on the call: rank 0 called " +
                                  describe(all[0]) + ", rank " + std::to_string(r) + " called " +
                                  describe(o));
    }
    if (o.types != all[0].types) {
      throw std::invalid_argument(
          std::string(fn) + ": ranks disagree on the call: rank 0 and rank " + std::to_string(r) +
          " called " + describe(o) + " with different key, value or comparator types");
    }
    if (o.nccl != all[0].nccl) {
      auto way = [](const CallRecord& x) { return x.nccl ? "NCCL" : "MPI"; };
      throw std::invalid_argument(std::string(fn) + ": ranks disagree on the exchange: rank 0 " +
                                  "takes " + way(all[0]) + ", rank " + std::to_string(r) +
                                  " takes " + way(o) +
                                  " (options.exchange, or keys in "
                                  "different memory spaces)");
    }
    if (!keeps_counts(o.form) && o.imbalance != all[0].imbalance) {
      throw std::invalid_argument(std::string(fn) +
                                  ": ranks disagree on options.imbalance: rank 0 " + "passed " +
                                  std::to_string(all[0].imbalance) + ", rank " + std::to_string(r) +
                                  " passed " + std::to_string(o.imbalance));
    }
  }
  for (const CallRecord& r : all) {
    a.counts.push_back(r.count);
    a.total += r.count;
    a.nccl_cached = a.nccl_cached && r.nccl_cached;
  }
  if (writes_caller_output(mine.form)) {
    const std::uint64_t need = balanced_capacity(a.total, a.ranks, mine.imbalance);
    for (int r = 0; r < a.ranks; ++r) {
      if (all[r].capacity < need) {
        throw std::invalid_argument(std::string(fn) + ": the output on rank " + std::to_string(r) +
                                    " holds " + std::to_string(all[r].capacity) +
                                    " elements; the split may give a rank " + std::to_string(need) +
                                    " of the " + std::to_string(a.total) +
                                    " keys (Ordo::MPI::sort_capacity)");
      }
    }
  }
  // MPI's counts and displacements are int: no rank may send or receive more than INT_MAX keys.
  constexpr auto int_max = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  std::uint64_t most = *std::max_element(a.counts.begin(), a.counts.end());
  if (!keeps_counts(mine.form)) {
    const double balanced = (1 + mine.imbalance) * double(a.total) / a.ranks;
    most = std::max(most, static_cast<std::uint64_t>(balanced) + 1);
  }
  if (most > int_max) {
    throw std::invalid_argument(std::string(fn) + ": a rank would hold " + std::to_string(most) +
                                " keys; at most " + std::to_string(int_max) +
                                " a rank (MPI's int counts)");
  }
  return a;
}

}  // namespace Ordo::MPI::Impl

#endif
