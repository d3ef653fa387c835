// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_TUNING_HPP
#define ORDO_IMPL_CUDA_TUNING_HPP

// Seam level: core. The CUDA backend's tuning constants: its specializations of the structs of
// core/Ordo_Tuning.hpp, which includes this file after declaring them (it is not included on its
// own). What each value trades off and where its measurement lives: perf_tests/README.md.

#if !defined(ORDO_IMPL_TUNING_HPP)
#error "impl/cuda/Ordo_Cuda_Tuning.hpp is included by impl/core/Ordo_Tuning.hpp only"
#endif

#if defined(KOKKOS_ENABLE_CUDA)

namespace Ordo::Impl {

// The CUDA slab network (Ordo_Cuda_Slab.hpp): the block kernels' slabs of up to unrolled_regs
// registers per lane run their merge levels as straight-line code (no register moves between
// stages); taller slabs and the team-level sorts keep the level loops rolled (the team kernel's
// slab of 32 unrolled, at ab65633 on the H100: 5.7% fewer instructions but 14% slower, its code
// no longer fitting the instruction cache as well; unrolled slabs of up to 16 in sort_team's
// paths raise a user kernel on u32 keys from 78 to 82 registers, ptxas sm_90).
struct CudaSlabTuning {
  static constexpr int unrolled_regs = 16;
};

template <std::size_t KeyBytes, std::size_t ValueBytes>
struct SortTuning<Kokkos::Cuda, KeyBytes, ValueBytes> {
  // Slabs per block: 4-byte records take 16 (32 KiB of scratch), so that one merge pass fewer
  // follows the block kernel; larger records 8 (Kokkos caps a team's scratch near 40 KiB).
  static constexpr int slabs = KeyBytes + ValueBytes <= 4 ? 16 : 8;
  static constexpr int lanes = 32;
  // Registers per lane: the block's records in scratch stay under 40 KiB.
  static constexpr int regs = KeyBytes + ValueBytes <= 8 ? 16 : 8;
  // Team-level sorts: runs of up to 32 * seam_team_regs records sort in one warp's slab (ptxas
  // sm_90, user kernels sorting segments at ab65633: u32 keys 78 registers, u64 keys 87 and u32
  // pairs 96; 32 registers per lane for 8-byte records would take them to 151 and 168).
  static constexpr int seam_team_regs = KeyBytes + ValueBytes <= 4 ? 32 : 16;
  // Longer segments sort in runs of 32 * team_run_regs records, merged by the portable network
  // (ptxas sm_90 at 3d5272f, user kernels on 4-, 8- and 12-byte records: 78, 85 and 108
  // registers; 8 for records over 4 bytes: 78, 80 and 126).
  static constexpr int team_run_regs = 16;
  // Measured at fae3896+ on the H100 (u32 keys): 8 resident 128-thread tiles per SM make the
  // DRAM-bound passes of 2^24 keys 12% faster, but the L2-resident passes up to 2^20 4-7% slower,
  // and 32-bit records with values slower (u64 keys not measured: left unbounded).
  static constexpr std::int64_t bounded_merge_from =
      KeyBytes == 4 && ValueBytes == 0 ? std::int64_t(1) << 23 : never;
  static constexpr int merge_min_teams = 8;
  // Measured on the H100 (ordo-perf sort --stream-levels 0..4 at 2^12..2^22, run_device_suite.sh:
  // perf_tests/results/sort-stream-levels-h100-*.jsonl): a streaming level (a flip kernel of 3 to
  // 6 us and a half kernel of 5.5 us at 2^16) beats a merge pass (10 to 13 us) while the data sit
  // in L2. 4-byte keys with or without 4-byte values: 4 levels up to 2^20 (at 81cd7ae, 2^16 u32
  // keys 0.046 ms against 0.057 with none; u32 + u32 0.060 against 0.071); from 2^21 on none
  // pays, and for u64 keys none is more than noise (1 to 2%). With 8192-key blocks for 4-byte keys
  // (1f9bd7c, sort-stream-levels-h100-1f9bd7c.jsonl) levels still beat none up to 2^20 (2^18: 0.071
  // ms with 3, 0.078 with 4, 0.081 with none; one run, so 4 stays); u32 pairs at 2^20 were 0.154
  // ms with none against 0.158 with 4. The second sweep (20b92aa, partitions of pairs with 32
  // lanes) has u32 keys at 2^18 equal with 3 and 4 (0.073, 0.074) and u32 pairs at 2^20 0.148 ms
  // with none against 0.157 with 4 (at 2^19 4 levels still win, 0.106 against 0.110): pairs stop
  // streaming above 2^19.
  static constexpr int stream_max_group = 16;
  static constexpr int stream_levels(std::int64_t n) {
    constexpr std::int64_t last = std::int64_t(1) << (ValueBytes == 0 ? 20 : 19);
    return KeyBytes == 4 && ValueBytes <= 4 && n <= last ? 4 : 0;
  }
  static constexpr int partition_sample = 32;
  // Measured on the H100 (ordo-perf sort --partition-lanes 1..32, 2^16..2^26, two runs each:
  // perf_tests/results/sort-partition-lanes-h100-55e2c00.jsonl): while the runs sit in L2, 32
  // lanes (a 33-ary search, 6 rounds instead of 23 steps) make 8-byte records faster, u64 keys
  // at 2^18 0.093 ms against 0.099 and u32 pairs 0.085 against 0.091, 2 to 3% at 2^22; 4-byte keys
  // gain nothing. From 2^24 on one thread's binary search wins at every width (2^24 u32 keys:
  // 0.93 ms, 0.93 with 8 lanes, 1.00 with 32; Nsight Compute: the 32-lane partitions take 15 to 22
  // us instead of 9.5 to 13, bound by the sectors their probes fetch from DRAM).
  static constexpr int partition_lanes(std::int64_t n) {
    return KeyBytes + ValueBytes == 8 && n <= (std::int64_t(1) << 22) ? 32 : 1;
  }
  // The radix sort, measured on the H100 with probes at 2^16..2^28 (Nsight Compute on the 2^24
  // u32 pass: README.md, sort): each digit pass is issue-bound (about 2000 instructions a
  // warp per 4096-key tile) and waits on its look-back (a pass without it took 110 us less of
  // 270 at 2^24). Launch bounds for two teams per SM (124 to 128 registers, no spills) took a
  // pass from 372 to 272 us at 2^24; three (80 registers) made keys faster again (u32 1.01 ms
  // against 1.12, u64 2.09 against 2.49) and pairs slower (1.51 against 1.24); 8, 12 or
  // 16 keys a thread within 8%; a look-back window of 4 words beat 1 (0.89 against 0.96 ms) and
  // 8 (0.91). radix_from: where the radix sort overtakes the slab sort in the sweep at eeab741
  // (ordo-perf sort --algorithm slab|radix, 2^16..2^28: sort-algorithm-h100-eeab741.jsonl): u32
  // keys (slab against radix) 2^18 0.077 ms against 0.080, 2^19 0.092 against 0.083; u32 pairs 2^19
  // 0.106 against 0.093; u64 keys 2^21 0.264 against 0.297, 2^22 0.537 against 0.497. u64 keys with
  // values were not swept: they take the u64 keys' bound.
  static constexpr std::int64_t radix_from = std::int64_t(1) << (KeyBytes == 4 ? 19 : 22);
  static constexpr int radix_min_teams = ValueBytes == 0 ? 3 : 2;
  static constexpr int radix_team_size = 256;
  static constexpr int radix_portable_team_size = 32;
  static constexpr int radix_items = KeyBytes + ValueBytes <= 8 ? 16 : 8;
  static constexpr int radix_histogram_items = 16;
  static constexpr int radix_histogram_teams = 1 << 10;
  static constexpr std::int64_t radix_copy_threads = std::int64_t(1) << 18;
  static constexpr int radix_lookback_window = 4;
  // The vendor sort (cub::DeviceRadixSort), from the sweep at 9fc52e0 on the H100 (ordo-perf sort
  // --algorithm slab|radix|vendor and --vendor-bits 0|1: sort-dispatch-h100-9fc52e0.jsonl).
  // vendor_from: where it overtakes the slab sort and Ordo's radix sort. u32 keys 2^19 slab / radix
  // / vendor 0.085 / 0.084 / 0.085 ms, 2^20 0.109 / 0.100 / 0.091; u64 keys 2^20 0.156 (slab) /
  // 0.170, 2^21 0.262 / 0.257; u32 pairs 2^16 0.062 / 0.071, 2^17 0.078 / 0.073; u64 keys with u32
  // values 2^20 0.198 / 0.202, 2^21 0.382 / 0.332 (other value sizes were not swept: 4-byte keys
  // take 2^19, 8-byte keys 2^21).
  // vendor_bits_from: the search for the bits that vary costs a launch and a read-back, 25 to 37
  // us, and pays only where a saved digit pass is worth more. u64 keys: uniform 1.201 / 1.238 ms
  // without / with at 2^24 (3% lost), 4.364 / 4.372 at 2^26, 16.93 / 16.96 at 2^28; keys below
  // 2^20 1.113 / 0.671 at 2^24, 15.75 / 9.00 at 2^28 (five passes of eight saved). 4-byte keys
  // save passes only where they span 16 bits or fewer (three passes of four would end in the
  // workspace and cost a copy back, and the search must read every key to find them): uniform u32
  // 1.442 / 1.494 at 2^26, 5.502 / 5.560 at 2^28, so from 2^28 on. (The sweep's u32 bits20 rows
  // with the search, 4.90 ms at 2^28, sorted by the bits seen before the search stopped, a defect
  // fixed since: such keys now sort every bit.) Floats need the search for the direct way (it
  // finds -0.0 and NaNs, which CUB orders otherwise); without it they take the staged way, whose
  // stage and store move every record twice more: the search from vendor_float_bits_from on,
  // where one read of the keys and the read-back cost less than those two passes (at 2^22 4-byte
  // floats: 16 MiB read against 64 MiB moved).
  static constexpr std::int64_t vendor_from = std::int64_t(1)
                                              << (KeyBytes == 4 ? (ValueBytes == 0   ? 20
                                                                   : ValueBytes == 4 ? 17
                                                                                     : 19)
                                                                : 21);
  static constexpr std::int64_t vendor_bits_from = std::int64_t(1) << (KeyBytes == 4 ? 28 : 25);
  static constexpr std::int64_t vendor_float_bits_from = std::int64_t(1) << 22;
  static constexpr int vendor_bits_team = 256;
  static constexpr int vendor_bits_items = 16;
  // Segmented sort: up to segment_lane_max records in one thread's registers; up to
  // 32 * seam_team_regs records one group of a warp's lanes (segment_group_regs registers a lane,
  // more where 32 lanes do not hold the bin), teams of segment_group_team threads; up to
  // segment_team_max (the block) one team each. Measured at 2^24 u32 keys on the H100 (cells:
  // Poisson lengths, mean 32): with a warp a segment from 17 records on, the bins of 32 and 64
  // took 306 of 490 us; with one thread up to 64 records (64 registers) the lane kernel took 232
  // us, and for tiny segments (mean 4) 199 us against 107 with a bound of 16.
  static constexpr int segment_lane_max = 16;
  static constexpr std::int64_t segment_team_max = std::int64_t(slabs) * lanes * regs;
  static constexpr int segment_group_regs = 8;
  static constexpr int segment_group_team = 128;
  static constexpr int segment_list_team = 256;
  // Four-way merge passes (half as many passes over memory) were measured at dfdb26f and removed:
  // u32 keys 2^24 1.07 ms against 0.93 with two-way passes, 2^28 20.0 against 16.0 (their
  // partitions issue-bound at 66-85 us a pass; sort-merge-ways-h100-dfdb26f.jsonl in git history).
};

template <>
struct CompactTuning<Kokkos::Cuda> {
  static constexpr bool single_pass = true;
  static constexpr int team_size = 256;
  static constexpr int items_per_thread = 16;
  static constexpr int lookback_team_size = 256;
  static constexpr int lookback_items_per_thread = 16;
  // Measured on the H100 with probes (copy_if of u32 and u64 keys, 2^20 to 2^28, against
  // cub::DeviceSelect::If in the same run): the single pass waits on its look-back, so its speed
  // follows the tiles resident per SM. Unbounded, ptxas hoists every load of a tile (60 to 72
  // registers: 4 teams an SM) and the pass ran at 0.70x cub (u32, 2^28); bounds for 6 teams
  // (40 registers, no spills) 0.81x; for 8, Kokkos refuses the launch (its scratch, 16 KiB a
  // team). u64 keys: 6 teams 0.85x, 5 teams 0.94x to 0.97x, unbounded 0.81x.
  // The warp seam without a stage (compact_stages false: retrieve_all, copy_flagged) needs little
  // scratch and 31 registers: bounds for 8 teams (staged is false only there).
  static constexpr int lookback_min_teams(std::size_t value_bytes, bool staged) {
    return !staged ? 8 : value_bytes <= 4 ? 6 : 5;
  }
  // The warp seam keeps a tile's kept elements in team scratch (4096 of them in both passes), and
  // Kokkos gives a CUDA team at most 48 KiB: elements of up to 8 bytes fit (32 KiB); larger ones
  // (retrieve_all of 64-bit keys and values: 64 KiB) take the portable path.
  static constexpr bool warp_compacts(std::size_t value_bytes) { return value_bytes <= 8; }
  static_assert(team_size * items_per_thread * 8 <= 48 * 1024 &&
                    lookback_team_size * lookback_items_per_thread * 8 <= 48 * 1024,
                "the warp seam's stage of 8-byte elements fits a CUDA team's scratch");
  // The warp seam (Ordo_Cuda_Compact.hpp) takes whole warps, at most 32 of them.
  static_assert(team_size % 32 == 0 && team_size <= 1024, "whole warps");
  static_assert(lookback_team_size % 32 == 0 && lookback_team_size <= 1024, "whole warps");
};

// 8 probes a thread: a round of a 128-thread merge tile splits a range in 1025 gaps, one of a
// 256-thread search tile in 2049, so the fused sizes take one or two rounds (with one probe a
// thread and one end after the other: up to six). Timed back to back on the H100 (the fused
// kernels alone, 2^12 to 2^16 elements): 16 probes were slower (merge 2^14 8.9 us against 7.6,
// search 2^16 10.4 against 9.4; faster only at merge 2^12, one round instead of two), and probes
// placed by a multiply and a shift instead of a division (4 or 8 a thread, each load guarded)
// slower still (merge 2^14 8.4 and 10.3 us).
template <>
struct MergePathTuning<Kokkos::Cuda> {
  static constexpr int team_probes = 8;
};

template <std::size_t KeyBytes>
struct MergeTuning<Kokkos::Cuda, KeyBytes> {
  static constexpr int team_size = 128;
  // ORDO_TUNE_MERGE_VT overrides vt of 4-byte keys for tuning experiments. 19 (64 registers, no
  // spills, ptxas sm_90) made sort's u32 keys slower on the H100 at 20b92aa from 2^22 to 2^26
  // (2^22 0.260 ms against 0.250, 2^24 0.955 against 0.920) and 0.8% faster only at 2^28 (15.78
  // against 15.90; perf_tests/results/sort-merge-vt19-ab-h100-20b92aa.jsonl).
#if defined(ORDO_TUNE_MERGE_VT)
  static constexpr int vt = KeyBytes <= 4 ? ORDO_TUNE_MERGE_VT : 9;
#else
  static constexpr int vt = KeyBytes <= 4 ? 15 : 9;
#endif
  static constexpr std::int64_t fused_max_tiles = 64;
  // Pipelined tiles of 4-byte keys (H100, probes against the one-tile-a-team kernel at 0986d4b,
  // 2^20 to 2^28): unbounded, ptxas gave keys 56 registers; bounds for 10 teams an SM, 40 (no
  // spills): 2^28 0.84x MergeKeys (0.79x before). Pairs with their values staged take 38 KiB of
  // scratch a team, so at most 5 teams an SM (bounds for 8 failed to launch); with 5 (92
  // registers) u32 pairs ran 1.07x to 1.09x MergePairs from 2^24 (0.76x to 0.78x before; 0.87x
  // with the values gathered from global memory at 8 teams). u64 keys are left unbounded.
  static constexpr int pipeline_min_teams(bool values) {
    return KeyBytes <= 4 ? (values ? 5 : 10) : 0;
  }
};

// ORDO_TUNE_SEARCH_TEAM / ORDO_TUNE_SEARCH_VT override the values for tuning experiments.
template <std::size_t KeyBytes>
struct SearchTuning<Kokkos::Cuda, KeyBytes> {
#if defined(ORDO_TUNE_SEARCH_TEAM)
  static constexpr int team_size = ORDO_TUNE_SEARCH_TEAM;
#else
  static constexpr int team_size = 256;
#endif
#if defined(ORDO_TUNE_SEARCH_VT)
  static constexpr int vt = ORDO_TUNE_SEARCH_VT;
#else
  static constexpr int vt = KeyBytes <= 4 ? 15 : 11;
#endif
  static constexpr std::int64_t fused_max_tiles = 64;
  static constexpr int pipeline_min_teams = 0;
};

template <std::size_t KeyBytes>
struct SetOpsTuning<Kokkos::Cuda, KeyBytes> {
  static constexpr int team_size = 256;
  // vt + 1 register slots a thread (a cut may add one element); 15 for 4-byte keys, as search.
  // A tile's keys and output slots sit in scratch, (vt * 256 + 2) * (KeyBytes + 4) bytes: larger
  // keys take smaller tiles to stay within a CUDA team's 48 KiB.
  static constexpr int vt = KeyBytes <= 4 ? 15 : KeyBytes <= 8 ? 11 : KeyBytes <= 16 ? 5 : 2;
  static constexpr int lookback_window = 4;
  // Unbounded, ptxas gave the tiles 112 registers (2 teams an SM, 455 us for 2^24 u32 keys a
  // side at 7d65e01); bounds for 4 teams (64 registers).
  static constexpr int min_teams = 4;
};

template <>
struct ScanTuning<Kokkos::Cuda> {
  static constexpr int team_size = 256;
  static constexpr int vt = 15;  // odd: ScanTiles' reads of VT consecutive counts in scratch
  static constexpr int lookback_window = 4;
};

template <std::size_t KeyBytes>
struct BinarySearchTuning<Kokkos::Cuda, KeyBytes> {
  static constexpr int team_size = 256;
  static constexpr int needles_per_thread = 8;
  // A quarter of the threads the device holds (the H100: two teams an SM) before a thread takes
  // more than one needle. Always 8 a thread left 2^12 to 2^18 needles to 1 to 64 teams (0.6x
  // thrust); always one a team's thread until every thread held one made 2^20 slower (each team
  // loads its samples for fewer needles).
  static constexpr int thread_share = 4;
  static constexpr int samples = KeyBytes <= 4 ? 2048 : 1024;
};

}  // namespace Ordo::Impl

#endif
#endif
