// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_TUNING_HPP
#define ORDO_IMPL_TUNING_HPP

// The one place per backend for Ordo's tuning constants. Device kernels read them from here;
// nothing else in Ordo hard-codes a team size, a VT or a switch point.

#include <Kokkos_Core.hpp>

#include <impl/core/Ordo_Traits.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace Ordo::Impl {

// The most scratch a tiled kernel's team asks for, the one statement of the limit every tile's
// shape is sized against (Kokkos gives a CUDA team at most 48 KiB of level-0 scratch): pipelined
// tiles, which hold two tiles, fall back to one tile a team above it.
template <class ExecSpace>
struct ScratchTuning {
  static constexpr std::size_t team_max = 48 * 1024;
};

// Host backends (merge, sorted search): the smallest merge-path chunk worth a thread of its own;
// the walks a thread interleaves (merge_chunk_interleaved, search_chunk_interleaved).
struct HostTuning {
  static constexpr std::int64_t merge_path_grain = std::int64_t(1) << 14;
  static constexpr int merge_ways = 4;
};

// The co-ranks a team finds itself in single-launch (fused) tiled kernels (team_merge_path_ends):
// team_probes probes a thread, a round, on each of the tile's two ends. Host backends run fused
// kernels only in tests: two probes exercise the many-probe rounds there.
template <class ExecSpace>
struct MergePathTuning {
  static constexpr int team_probes = 2;
};

// The host backends' radix sort of arithmetic keys (Ordo_SortHostRadixImpl.hpp) from `from` records
// on (fewer, or a comparator: the merge sort of chunks): its passes over every thread cut the
// records into one chunk a thread, at most max_chunks, none smaller than grain (a chunk's count,
// scan and scatter must outweigh its row of counts); its top digit has as many bits, 8 to
// max_top_bits, as make a bucket of uniform keys fit cache_bytes (half a core's cache: a bucket
// and its spare buffer); each thread's scatter writes to one stream a bucket, and more streams
// than max_top_bits gives outrun the cache and the TLB. A bucket of more than split_bytes with
// more than split_digits digits to go takes its most significant digit first on its thread (one
// more read and scatter), so that the digits after it pass over parts 256 times smaller: at 2^28
// keys the top digit's buckets of 2 MiB outgrew a core's cache (perf_tests/README.md, the sort).
template <class ExecSpace>
struct HostRadixTuning {
  static constexpr std::int64_t from = std::int64_t(1) << 12;
  static constexpr std::int64_t grain = std::int64_t(1) << 14;
  static constexpr std::int64_t max_chunks = 256;
  static constexpr std::int64_t cache_bytes = std::int64_t(1) << 19;
  static constexpr int max_top_bits = 10;
  static constexpr std::int64_t split_bytes = std::int64_t(1) << 18;
  static constexpr int split_digits = 2;
};

// bin_permutation's counting sort on host backends: one chunk of the ids a thread, none smaller
// than host_grain (a chunk's count and scatter must outweigh its row of counts), taken while
// the chunks' rows of nbins counts hold at most counts_per_id * n + counts_floor counts (more
// cells than that: the stable sort of the ids, whose cost does not grow with the cells).
template <class ExecSpace>
struct BinningTuning {
  static constexpr std::int64_t host_grain = std::int64_t(1) << 14;
  static constexpr std::int64_t counts_per_id = 2;
  static constexpr std::int64_t counts_floor = std::int64_t(1) << 16;
  // Ids a thread in the device passes over the ids (strided by the threads): enough loads in
  // flight to fill a GPU's memory, where one 4-byte id a thread does not.
  static constexpr int items = is_host_space_v<ExecSpace> ? 1 : 8;
  // bin_permutation with the arrays, on device backends: from records_from ids on, the radix sort
  // carries the arrays when more than n / records_scattered ids lie more than near_cells cells
  // below the id before them (rows far apart: a gather would read a sector a row); otherwise the
  // rows of a cell stay close and one gather streams. The records way leads the gather on random
  // cells from records_from on and trails it below and where few ids are far (perf_tests/README.md,
  // particle binning).
  // record_element_max: the widest element the sort carries (a tile of one column is staged in
  // team scratch); wider ones are gathered.
  static constexpr std::int64_t records_from = std::int64_t(1) << 22;
  static constexpr std::int64_t records_scattered = 4;
  static constexpr std::int64_t near_cells = 64;
  static constexpr std::size_t record_element_max = 8;
};

// Tiled merge (merge, merge_by_key): team_size threads, vt outputs per thread, so one tile is
// team_size * vt outputs. Inputs of at most fused_max_tiles tiles are merged in a single launch
// whose teams find their own tile boundaries (team_merge_path_ends); larger ones run the
// partition kernel first, then pipelined tiles (team_pipeline) launched with bounds for
// pipeline_min_teams(with values) teams an SM (0: none); those stage the values of merge_by_key
// with the keys where the two fit ScratchTuning::team_max. From vendor_from elements on, the
// backend's vendor merge takes the keys it can (Ordo_MergeImpl.hpp, vendor_merge).
template <class ExecSpace, std::size_t KeyBytes>
struct MergeTuning {
  static constexpr int team_size = 1;
  static constexpr int vt = 16;
  static constexpr std::int64_t fused_max_tiles = 1;
  static constexpr int pipeline_min_teams(bool) { return 0; }
  static constexpr std::int64_t vendor_from = std::numeric_limits<std::int64_t>::max();
};

// Tiled sorted search (sorted_search, sorted_equality_count): the same shape as merge, vt steps
// of the walk per thread (each step consumes one element of A or B).
template <class ExecSpace, std::size_t KeyBytes>
struct SearchTuning {
  static constexpr int team_size = 1;
  static constexpr int vt = 16;
  static constexpr std::int64_t fused_max_tiles = 1;
  static constexpr int pipeline_min_teams = 0;
  // Bounds alone of at most this many elements of a and b together: one binary search a needle
  // (Ordo_SortedSearchImpl.hpp); 0: always the walk.
  static constexpr std::int64_t binary_max_total = 0;
};

// Set operations on device backends (set_intersection, set_union, ...): team_size threads a tile
// of team_size * vt elements of A and B (each thread walks vt steps of std::set_<op> in
// registers), lookback_window look-back words read at once. Host backends run one piece a thread
// (HostTuning) and use this only when tests ask for the tiled path.
template <class ExecSpace, std::size_t KeyBytes>
struct SetOpsTuning {
  static constexpr int team_size = 1;
  static constexpr int vt = 16;
  static constexpr int lookback_window = 1;
  static constexpr int min_teams = 0;  // Kokkos::LaunchBounds<team_size, min_teams> (0: none)
};

// Runs of equal keys (reduce_by_key, run_length_encode): team_size threads a tile of
// team_size * vt elements, each thread reducing vt consecutive ones; the tiles chain their run
// counts and open runs' partial reductions through the look-back. vt(key_bytes, value_bytes): for
// keys and values of those sizes. Host backends run one thread a tile of 24 KiB of records
// (Kokkos gives a host team 32 KiB of scratch).
template <class ExecSpace>
struct RunsTuning {
  static constexpr int team_size = 1;
  static constexpr int lookback_window = 1;  // look-back words (and carried values) read at once
  static constexpr int min_teams = 0;        // Kokkos::LaunchBounds<team_size, min_teams> (0: none)
  // The vendor seam (where built; Ordo_RunsImpl.hpp says which runs it can take) from these sizes:
  // run_length_encode and reduce_by_key, and unique.
  static constexpr std::int64_t vendor_from = std::numeric_limits<std::int64_t>::max();
  static constexpr std::int64_t unique_vendor_from = std::numeric_limits<std::int64_t>::max();
  static constexpr int vt(std::size_t key_bytes, std::size_t value_bytes) {
    const std::size_t record = key_bytes + value_bytes;
    return record > 24 * 1024 ? 1 : int(24 * 1024 / record);
  }
  // Host backends reduce the runs in pieces of host_piece elements, a thread walking
  // HostTuning::merge_ways consecutive pieces interleaved (the pieces, not the threads, fix the
  // order of the reduction: the same bits on any number of threads).
  static constexpr std::int64_t host_piece = std::int64_t(1) << 14;
};

// The assembly of CRS arrays from triplets (Ordo_AssemblyImpl.hpp): a thread sums each entry of
// at most walk_limit triplets (a serial walk); a team of long_team threads each longer one (one
// thread on host backends: the sequential order there). Random triplets with repeats of earlier
// ones hold entries of a few hundred triplets at 2^24 (the pairs repeated early gather copies).
template <class ExecSpace>
struct AssemblyTuning {
  static constexpr std::int64_t walk_limit = 1024;
  static constexpr int long_team = is_host_space_v<ExecSpace> ? 1 : 256;
  // coo2crs sorts the values with the words (not the positions) unless half the triplets lie
  // within near_rows of the row before them (an input in row or element order) or the values
  // take at most gather_cached bytes (a random gather then hits the L2; perf_tests/README.md).
  static constexpr std::int64_t near_rows = 64;
  static constexpr std::size_t gather_cached = std::size_t(32) << 20;
};

// The joins' exclusive scan of counts on device backends: team_size threads a tile of
// team_size * vt counts, a decoupled look-back reading lookback_window words at once.
template <class ExecSpace>
struct ScanTuning {
  static constexpr int team_size = 1;
  static constexpr int vt = 15;
  static constexpr int lookback_window = 1;
  static constexpr int min_teams = 0;  // Kokkos::LaunchBounds<team_size, min_teams> (0: none)
};

// Binary search of unsorted needles on device backends (lower_bound, upper_bound): a team of
// team_size threads searches up to team_size * needles_per_thread needles, after loading
// `samples` evenly spaced haystack elements into scratch for the top levels of the searches.
// Needles go one a thread to concurrency / thread_share threads before a thread takes more.
template <class ExecSpace, std::size_t KeyBytes>
struct BinarySearchTuning {
  static constexpr int team_size = 1;
  static constexpr int needles_per_thread = 64;
  static constexpr int thread_share = 1;
  static constexpr int samples = 64;
};

// Compaction (copy_if, copy_flagged, copy_if_unordered, retrieve_all). single_pass: stable
// compaction runs as one launch with a decoupled look-back, lookback_team_size threads per tile of
// lookback_team_size * lookback_items_per_thread elements (at most 2^16); otherwise as reduce then
// scan. Reduce then scan and unordered compaction take team_size threads per tile of
// team_size * items_per_thread elements.
template <class ExecSpace>
struct CompactTuning {
  static constexpr bool single_pass = false;
  static constexpr int team_size = 1;
  static constexpr int items_per_thread = 1 << 14;
  static constexpr int lookback_team_size = 1;
  static constexpr int lookback_items_per_thread = 1 << 12;
  // The single pass launches with Kokkos::LaunchBounds<lookback_team_size, this> (0: unbounded)
  // for elements of value_bytes bytes.
  static constexpr int lookback_min_teams(std::size_t, bool) { return 0; }
  // Whether the warp seam (where built) compacts elements of value_bytes bytes.
  static constexpr bool warp_compacts(std::size_t) { return true; }
  // copy_if from vendor_from elements on takes the vendor's selection where the build has one and
  // it can (Ordo_CopyIfImpl.hpp, copy_if_dispatch).
  static constexpr std::int64_t vendor_from = std::numeric_limits<std::int64_t>::max();
};

// A size switch point that is never reached.
inline constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();

// The sorts' tuning, one struct a job, each keyed by the record (a key of KeyBytes and a value of
// ValueBytes, 0 for keys only). The <void, ...> rows are the portable base that a backend's row
// inherits from, overriding only what it measured.

// The slab sort (Ordo_SortBlocksImpl.hpp, Ordo_SortMergePassImpl.hpp): the block kernel sorts
// blocks of slabs * lanes * regs records with the slab network, one team per block: slabs
// vector-lane groups of `lanes` lanes, `regs` registers per lane. Longer runs are merged by merge
// passes (MergeTuning's tiles). Host backends sort one chunk per thread with the standard library,
// no smaller than host_grain, then merge (their block shape serves the tests of the portable
// network).
template <class ExecSpace, std::size_t KeyBytes, std::size_t ValueBytes>
struct SortTuning {
  static constexpr int slabs = 1;
  static constexpr int lanes = 1;
  static constexpr int regs = 16;
  static constexpr std::int64_t host_grain = std::int64_t(1) << 15;
  // Merge passes of sorts of at least bounded_merge_from records launch their tiles with
  // Kokkos::LaunchBounds<team_size, merge_min_teams> (never: not at all).
  static constexpr std::int64_t bounded_merge_from = never;
  static constexpr int merge_min_teams = 0;
  // Streaming merge levels (Ordo_SortBlocksImpl.hpp): sorts of n records run the first
  // stream_levels(n) merge levels after the block kernel as streaming flip merges of groups of
  // 2, 4, ... blocks, at most stream_max_group (the flip kernels are instantiated up to it), the
  // rest as merge passes. Host backends run them only on the portable path the tests take.
  static constexpr int stream_max_group = 4;
  static constexpr int stream_levels(std::int64_t) { return 2; }
  // Merge passes after the first partition from samples of their runs, every partition_sample-th
  // key, written by the pass before (a power of two dividing the block).
  static constexpr int partition_sample = 8;
  // The partition kernels of sorts of n records search each tile boundary with
  // partition_lanes(n) vector lanes (1: one thread, a binary search; 4, 8, 16 or 32).
  static constexpr int partition_lanes(std::int64_t) { return 1; }
};

// The onesweep radix sort of arithmetic keys (Ordo_SortRadixImpl.hpp) from `from` records on
// (never: the host sort or the slab sort): 8-bit digits, tiles of team_size threads holding
// `items` keys each (on the portable ranking, threads beyond 32 share a column of counters,
// TeamSeam::radix_rank), histograms over tiles of histogram_items keys by at most histogram_teams
// teams. The digit passes launch with Kokkos::LaunchBounds<team, min_teams> (the registers for that
// many resident teams) and look back lookback_window words at a time; the copy that follows a sort
// of one digit pass strides over the keys with copy_threads.
template <class ExecSpace, std::size_t KeyBytes, std::size_t ValueBytes>
struct RadixTuning {
  static constexpr std::int64_t from = never;
  static constexpr int min_teams = 1;
  static constexpr int team_size = 1;
  static constexpr int items = 1024;
  static constexpr int histogram_items = 1 << 14;
  static constexpr int histogram_teams = 1 << 10;
  static constexpr std::int64_t copy_threads = std::int64_t(1) << 18;
  static constexpr int lookback_window = 4;
};

// The vendor radix sort (Ordo_SortVendorImpl.hpp, where the build has one) from `from` records
// on; from bits_from on (floating-point keys: float_bits_from) it first finds the bits that vary
// (one read of the keys and a read-back) and sorts only those, teams of bits_team threads reading
// tiles of bits_items keys a thread. The vendor merge sort (where the build has one) from
// merge_from records (floats: merge_float_from) up to `from`.
template <class ExecSpace, std::size_t KeyBytes, std::size_t ValueBytes>
struct VendorSortTuning {
  static constexpr std::int64_t from = never;
  static constexpr std::int64_t bits_from = never;        // integer keys
  static constexpr std::int64_t float_bits_from = never;  // floating-point keys
  static constexpr std::int64_t merge_from = never;
  static constexpr std::int64_t merge_float_from = never;
  static constexpr int bits_team = 1;
  static constexpr int bits_items = 1 << 12;
};

// The segmented sort (Ordo_SegmentedSortImpl.hpp) bins its segments by length: 2 to lane_max
// records sort in one thread's registers (bins of 2, 4, ..., lane_max registers), up to team_max
// one team each (bins of power-of-two networks), longer ones all together by the device sort.
// Host backends sort the segments above lane_max with the standard library (the team bins serve
// the tests of the portable network), by a radix sort from host_radix_from records of encoded
// keys (a lane bound of 32 measured slower with values than a std::sort loop: 16 stays). Teams of
// list_team threads take the census of the segments and list each bin's, list_items segments a
// thread. A warp seam sorts the bins that fit 32 * TeamSortTuning's seam_regs records in groups of
// a warp's lanes (group_regs registers a lane, more where 32 lanes do not hold the bin), teams of
// group_team threads.
template <class ExecSpace, std::size_t KeyBytes, std::size_t ValueBytes>
struct SegmentedSortTuning {
  static constexpr int lane_max = 16;
  static constexpr std::int64_t team_max = 1024;
  static constexpr std::int64_t host_radix_from = 256;
  static constexpr int list_team = 1;
  static constexpr int list_items = 8;
  static constexpr int group_regs = 8;
  static constexpr int group_team = 1;
};

// The team-level sorts (sort_team and friends), which run inside users' kernels on any backend:
// the portable network's lanes per slab and registers per lane. A warp seam sorts runs of up to
// 32 * seam_regs records in one warp's slab and longer ones in runs of 32 * run_regs records that
// the portable network merges (0: no seam).
template <class ExecSpace, std::size_t KeyBytes, std::size_t ValueBytes>
struct TeamSortTuning {
  static constexpr int lanes = 1;
  static constexpr int regs = 4;
  static constexpr int seam_regs = 0;
  static constexpr int run_regs = 0;
};

}  // namespace Ordo::Impl

// The CUDA and HIP specializations of the structs above.
#include <impl/core/cuda/Ordo_Cuda_Tuning.hpp>
#include <impl/core/hip/Ordo_Hip_Tuning.hpp>

#endif
