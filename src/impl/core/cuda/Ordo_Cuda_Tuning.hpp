// SPDX-License-Identifier: BSD-3-Clause
#ifndef ORDO_IMPL_CUDA_TUNING_HPP
#define ORDO_IMPL_CUDA_TUNING_HPP

// The CUDA backend's tuning constants, keyed by compute capability (Cuda<Name>Tuning<Arch, ...>,
// the table at the end of the file), and its specializations of the structs of core/Ordo_Tuning.hpp
// for the build's architecture (core/Ordo_Tuning.hpp includes this file after declaring them; it
// is not included on its own). What each value trades off is said here; its measurements are in
// perf_tests/README.md, "Tuning values", with the results files. HIP builds take the sm_90 rows
// too (core/hip/Ordo_Hip_Tuning.hpp), so the rows are declared for both GPU backends.

#if !defined(ORDO_IMPL_TUNING_HPP)
#error "impl/core/cuda/Ordo_Cuda_Tuning.hpp is included by impl/core/Ordo_Tuning.hpp only"
#endif

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)

namespace Ordo::Impl {

// The CUDA slab network (team/cuda/Ordo_Cuda_Slab.hpp): slabs of up to unrolled_regs registers per
// lane (the block kernels') run their merge levels as straight-line code; taller slabs and the
// team-level sorts keep the level loops rolled, trading instructions for instruction-cache room
// and the registers of the user kernels that call sort_team (perf_tests/README.md, "Tuning
// values").
struct CudaSlabTuning {
  static constexpr int unrolled_regs = 16;
};

// The sorts' rows (core/Ordo_Tuning.hpp: SortTuning, RadixTuning, VendorSortTuning,
// SegmentedSortTuning, TeamSortTuning), each over the portable base row.
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaSortTuning;
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaSortTuning<90, KeyBytes, ValueBytes> : SortTuning<void, KeyBytes, ValueBytes> {
  // Slabs per block: 4-byte records take 16 (32 KiB of scratch), so that one merge pass fewer
  // follows the block kernel; larger records 8 (the block's scratch stays within
  // ScratchTuning::team_max).
  static constexpr int slabs = KeyBytes + ValueBytes <= 4 ? 16 : 8;
  static constexpr int lanes = 32;
  // Registers per lane: the block's records in scratch stay within ScratchTuning::team_max.
  static constexpr int regs = KeyBytes + ValueBytes <= 8 ? 16 : 8;
  // Launch bounds for merge_min_teams resident merge tiles an SM, from bounded_merge_from on:
  // DRAM-bound passes gain, L2-resident ones and records with values lose.
  static constexpr std::int64_t bounded_merge_from =
      KeyBytes == 4 && ValueBytes == 0 ? std::int64_t(1) << 23 : never;
  static constexpr int merge_min_teams = 8;
  // Streaming merge levels (a flip and a half kernel each) replace merge passes while the data
  // sit in L2: 4 levels for 4-byte keys up to 2^20 (with 4-byte values up to 2^19), none beyond
  // or for larger records (ordo-perf sort --stream-levels).
  static constexpr int stream_max_group = 16;
  static constexpr int stream_levels(std::int64_t n) {
    constexpr std::int64_t last = std::int64_t(1) << (ValueBytes == 0 ? 20 : 19);
    return KeyBytes == 4 && ValueBytes <= 4 && n <= last ? 4 : 0;
  }
  static constexpr int partition_sample = 32;
  // Vector lanes per merge-pass partition search: 32 (a 33-ary search, fewer dependent steps)
  // while the runs sit in L2 and records are 8 bytes; one thread's binary search beyond, where
  // the lanes' probes cost DRAM sectors (ordo-perf sort --partition-lanes).
  static constexpr int partition_lanes(std::int64_t n) {
    return KeyBytes + ValueBytes == 8 && n <= (std::int64_t(1) << 22) ? 32 : 1;
  }
};

// The radix sort: launch bounds for min_teams teams an SM (keys three, pairs two: the registers of
// a pass against the tiles resident to hide its look-back), `items` keys a thread, a look-back
// window of four words. from: where it overtakes the slab sort (ordo-perf sort --algorithm
// slab|radix).
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaRadixTuning;
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaRadixTuning<90, KeyBytes, ValueBytes> : RadixTuning<void, KeyBytes, ValueBytes> {
  static constexpr std::int64_t from = std::int64_t(1) << (KeyBytes == 4 ? 19 : 22);
  static constexpr int min_teams = ValueBytes == 0 ? 3 : 2;
  static constexpr int team_size = 256;
  static constexpr int items = KeyBytes + ValueBytes <= 8 ? 16 : 8;
  static constexpr int histogram_items = 16;
};

// The vendor sort (cub::DeviceRadixSort). from: where it overtakes the slab sort and Ordo's radix
// sort (ordo-perf sort --algorithm slab|radix|vendor). bits_from: the search for the bits that
// vary (a launch and a read-back) pays where a saved digit pass is worth more; 4-byte keys save
// passes only where they span 16 bits or fewer. float_bits_from: floats need the search for the
// direct way (it finds -0.0 and NaNs, which CUB orders otherwise); without it they take the staged
// way, two more passes over the records, so the search from where one read of the keys costs less
// than those passes. merge_from (floats: merge_float_from): from there up to `from`,
// cub::DeviceMergeSort runs instead of the slab sort and Ordo's radix sort (ordo-perf sort
// --algorithm slab|merge|radix); 4-byte floats never (CUB's merge sort of them was slower than the
// slab sort at every size).
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaVendorSortTuning;
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaVendorSortTuning<90, KeyBytes, ValueBytes>
    : VendorSortTuning<void, KeyBytes, ValueBytes> {
  static constexpr std::int64_t from = std::int64_t(1) << (KeyBytes == 4 ? (ValueBytes == 0   ? 20
                                                                            : ValueBytes == 4 ? 17
                                                                                              : 19)
                                                                         : 21);
  static constexpr std::int64_t merge_from = std::int64_t(1)
                                             << (KeyBytes == 4 ? (ValueBytes == 0 ? 13 : 12) : 11);
  static constexpr std::int64_t merge_float_from = KeyBytes == 4 ? never : std::int64_t(1) << 13;
  static constexpr std::int64_t bits_from = std::int64_t(1) << (KeyBytes == 4 ? 28 : 25);
  static constexpr std::int64_t float_bits_from = std::int64_t(1) << 22;
  static constexpr int bits_team = 256;
  static constexpr int bits_items = 16;
};

// Segmented sort: up to lane_max records in one thread's registers; up to 32 *
// CudaTeamSortTuning's seam_regs records one group of a warp's lanes (group_regs registers a
// lane), teams of group_team threads; up to team_max (the slab sort's block) one team each. The
// lane bound trades registers against the warps that short segments would leave idle.
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaSegmentedSortTuning;
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaSegmentedSortTuning<90, KeyBytes, ValueBytes>
    : SegmentedSortTuning<void, KeyBytes, ValueBytes> {
  using Block = CudaSortTuning<90, KeyBytes, ValueBytes>;
  static constexpr std::int64_t team_max = std::int64_t(Block::slabs) * Block::lanes * Block::regs;
  static constexpr int group_team = 128;
  static constexpr int list_team = 256;
};

// Team-level sorts: runs of up to 32 * seam_regs records sort in one warp's slab; taller slabs
// would raise the registers of every user kernel that calls sort_team. Longer segments sort in
// runs of 32 * run_regs records, merged by the portable network (the same trade-off: run length
// against the user kernel's registers).
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaTeamSortTuning;
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaTeamSortTuning<90, KeyBytes, ValueBytes> : TeamSortTuning<void, KeyBytes, ValueBytes> {
  static constexpr int seam_regs = KeyBytes + ValueBytes <= 4 ? 32 : 16;
  static constexpr int run_regs = 16;
};

template <int Arch>
struct CudaCompactTuning;
template <>
struct CudaCompactTuning<90> : CompactTuning<void> {
  static constexpr bool single_pass = true;
  static constexpr int team_size = 256;
  static constexpr int items_per_thread = 16;
  static constexpr int lookback_team_size = 256;
  static constexpr int lookback_items_per_thread = 16;
  // The single pass waits on its look-back, so its speed follows the tiles resident an SM:
  // launch bounds for 6 teams (8-byte elements 5) against the registers that hoist a tile's
  // loads; Kokkos refuses 8 teams with a stage (its scratch). The warp seam without a stage
  // (compact_stages false: retrieve_all, copy_flagged) needs few registers: 8 teams.
  static constexpr int lookback_min_teams(std::size_t value_bytes, bool staged) {
    return !staged ? 8 : value_bytes <= 4 ? 6 : 5;
  }
  // The warp seam keeps a tile's kept elements in team scratch (4096 of them in both passes), and
  // a team holds ScratchTuning::team_max: elements of up to 8 bytes fit (32 KiB); larger ones
  // (retrieve_all of 64-bit keys and values: 64 KiB) take the portable path.
  static constexpr bool warp_compacts(std::size_t value_bytes) { return value_bytes <= 8; }
  // cub::DeviceSelect::If from 2^23 elements: the single pass waits on its look-back and trails it
  // from there (perf_tests/README.md, copy_if); below, the single pass is faster.
  static constexpr std::int64_t vendor_from = std::int64_t(1) << 23;
  static_assert(team_size * items_per_thread * 8 <= 48 * 1024 &&
                    lookback_team_size * lookback_items_per_thread * 8 <= 48 * 1024,
                "the warp seam's stage of 8-byte elements fits a CUDA team's scratch");
  // The warp seam (Ordo_Cuda_Compact.hpp) takes whole warps, at most 32 of them.
  static_assert(team_size % 32 == 0 && team_size <= 1024, "whole warps");
  static_assert(lookback_team_size % 32 == 0 && lookback_team_size <= 1024, "whole warps");
};

// 8 probes a thread: a round of a 128-thread merge tile splits a range in 1025 gaps, one of a
// 256-thread search tile in 2049, so the fused sizes take one or two rounds; more probes a round
// cost more loads than the rounds they save.
template <int Arch>
struct CudaMergePathTuning;
template <>
struct CudaMergePathTuning<90> : MergePathTuning<void> {
  static constexpr int team_probes = 8;
};

template <int Arch, std::size_t KeyBytes>
struct CudaMergeTuning;
template <std::size_t KeyBytes>
struct CudaMergeTuning<90, KeyBytes> : MergeTuning<void, KeyBytes> {
  static constexpr int team_size = 128;
  // vt trades registers (resident tiles) against the partitions a pass needs.
  static constexpr int vt = KeyBytes <= 4 ? 15 : 9;
  static constexpr std::int64_t fused_max_tiles = 64;
  // Launch bounds of pipelined tiles of 4-byte keys: 10 teams an SM for keys, 5 for pairs with
  // their values staged (38 KiB of scratch a team); u64 keys are left unbounded.
  static constexpr int pipeline_min_teams(bool values) {
    return KeyBytes <= 4 ? (values ? 5 : 10) : 0;
  }
  // cub::DeviceMerge for the keys it can take (integers under Ordo::less or greater, no values)
  // from 2^13 elements on: the first size where its temporary storage (511 bytes up to 2^17)
  // always fits the merge's workspace bound (584 bytes at 2^13); from there the call runs 1.05x
  // to 1.17x faster than with the single-launch tiles, and below the tiles are as fast or faster
  // (perf_tests/README.md, merge).
  static constexpr std::int64_t vendor_from = std::int64_t(1) << 13;
};

template <int Arch, std::size_t KeyBytes>
struct CudaSearchTuning;
template <std::size_t KeyBytes>
struct CudaSearchTuning<90, KeyBytes> : SearchTuning<void, KeyBytes> {
  static constexpr int team_size = 256;
  static constexpr int vt = KeyBytes <= 4 ? 15 : 11;
  static constexpr std::int64_t fused_max_tiles = 64;
  static constexpr int pipeline_min_teams = 0;
  static constexpr std::int64_t binary_max_total = std::int64_t(1) << 19;
};

template <int Arch, std::size_t KeyBytes>
struct CudaSetOpsTuning;
template <std::size_t KeyBytes>
struct CudaSetOpsTuning<90, KeyBytes> : SetOpsTuning<void, KeyBytes> {
  static constexpr int team_size = 256;
  // vt + 1 register slots a thread (a cut may add one element); 15 for 4-byte keys, as search.
  // A tile's keys and output slots sit in scratch, (vt * 256 + 2) * (KeyBytes + 4) bytes: larger
  // keys take smaller tiles to stay within ScratchTuning::team_max. (Smaller teams and a smaller vt
  // measured slower: perf_tests/README.md, tuning values.)
  static constexpr int vt = KeyBytes <= 4 ? 15 : KeyBytes <= 8 ? 11 : KeyBytes <= 16 ? 5 : 2;
  static constexpr int lookback_window = 4;
  // Launch bounds for 4 teams an SM (unbounded, the tiles take registers for only 2).
  static constexpr int min_teams = 4;
};

template <int Arch>
struct CudaScanTuning;
template <>
struct CudaScanTuning<90> : ScanTuning<void> {
  static constexpr int team_size = 256;
  static constexpr int vt = 15;  // odd: ScanTiles' reads of VT consecutive counts in scratch
  static constexpr int lookback_window = 4;
  // Launch bounds for 4 teams an SM (unbounded, 2 teams an SM; a smaller vt measured slower:
  // perf_tests/README.md, tuning values).
  static constexpr int min_teams = 4;
};

// 256 threads of up to 11 elements: a tile's keys and values and the team's scan (a count and a
// value a thread) in at most 46 KiB of scratch (within ScratchTuning::team_max): 4-byte
// keys with 4- or 8-byte values 11 a thread, 16-byte values 7.
template <int Arch>
struct CudaRunsTuning;
template <>
struct CudaRunsTuning<90> : RunsTuning<void> {
  static constexpr int team_size = 256;
  static constexpr int lookback_window = 16;  // the portable walk's; the warp seam reads 32
  // 4 teams an SM: 64 registers for f64 values (48 bytes spilled), where the warp seam's scan and
  // look-back leave 96 unbounded (2 teams an SM); 1.08x the speed of 3 teams from 2^24
  static constexpr int min_teams = 4;
  // CUB's reduce-by-key (ReduceByKey, Encode) from 2^11 elements, its unique from 2^22, where it
  // takes the call (perf_tests/README.md, the runs): measured faster from there on the H100.
  static constexpr std::int64_t vendor_from = std::int64_t(1) << 11;
  static constexpr std::int64_t unique_vendor_from = std::int64_t(1) << 22;
  static constexpr int vt(std::size_t key_bytes, std::size_t value_bytes) {
    const int room = int(46 * 1024 / team_size) - 4 - int(value_bytes);
    const int fit = room / int(key_bytes + value_bytes);
    return fit < 1 ? 1 : fit > 11 ? 11 : fit;
  }
};

template <int Arch, std::size_t KeyBytes>
struct CudaBinarySearchTuning;
template <std::size_t KeyBytes>
struct CudaBinarySearchTuning<90, KeyBytes> : BinarySearchTuning<void, KeyBytes> {
  static constexpr int team_size = 256;
  static constexpr int needles_per_thread = 8;
  // A quarter of the threads the device holds before a thread takes more than one needle: small
  // inputs spread over many teams, large ones load each team's samples for more needles.
  static constexpr int thread_share = 4;
  static constexpr int samples = KeyBytes <= 4 ? 2048 : 1024;
};

// ---- the table by architecture ---------------------------------------------------------------

// The rows above are sm_90's (Hopper: measured on the H100 and H200). Every other architecture
// (sm_80: Ampere and Ada, and older GPUs; sm_100: Blackwell) takes sm_90's row until measured
// there: the primary templates below inherit it. Every value above is a ratio of work to resident
// teams or a size where one path overtakes another, and none assumes more than sm_80's 164 KiB of
// shared memory an SM for the teams it asks to keep resident except the merge's pipelined pairs
// (5 teams of 38 KiB: 4 fit on sm_80, and the launch bound then only caps registers). A measured
// row specializes Cuda<Name>Tuning<80 or 100, ...> over its base row, as the sm_90 rows do, and
// overrides only what it measured.
#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr int cuda_tuning_arch =
#if defined(KOKKOS_ARCH_BLACKWELL)
    100;
#elif defined(KOKKOS_ARCH_HOPPER)
    90;
#else
    80;
#endif

template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaSortTuning : CudaSortTuning<90, KeyBytes, ValueBytes> {};
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaRadixTuning : CudaRadixTuning<90, KeyBytes, ValueBytes> {};
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaVendorSortTuning : CudaVendorSortTuning<90, KeyBytes, ValueBytes> {};
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaSegmentedSortTuning : CudaSegmentedSortTuning<90, KeyBytes, ValueBytes> {};
template <int Arch, std::size_t KeyBytes, std::size_t ValueBytes>
struct CudaTeamSortTuning : CudaTeamSortTuning<90, KeyBytes, ValueBytes> {};
template <int Arch>
struct CudaCompactTuning : CudaCompactTuning<90> {};
template <int Arch>
struct CudaMergePathTuning : CudaMergePathTuning<90> {};
template <int Arch, std::size_t KeyBytes>
struct CudaMergeTuning : CudaMergeTuning<90, KeyBytes> {};
template <int Arch, std::size_t KeyBytes>
struct CudaSearchTuning : CudaSearchTuning<90, KeyBytes> {};
template <int Arch, std::size_t KeyBytes>
struct CudaSetOpsTuning : CudaSetOpsTuning<90, KeyBytes> {};
template <int Arch>
struct CudaScanTuning : CudaScanTuning<90> {};
template <int Arch>
struct CudaRunsTuning : CudaRunsTuning<90> {};
template <int Arch, std::size_t KeyBytes>
struct CudaBinarySearchTuning : CudaBinarySearchTuning<90, KeyBytes> {};

// The build's rows.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct SortTuning<Kokkos::Cuda, KeyBytes, ValueBytes>
    : CudaSortTuning<cuda_tuning_arch, KeyBytes, ValueBytes> {};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct RadixTuning<Kokkos::Cuda, KeyBytes, ValueBytes>
    : CudaRadixTuning<cuda_tuning_arch, KeyBytes, ValueBytes> {};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct VendorSortTuning<Kokkos::Cuda, KeyBytes, ValueBytes>
    : CudaVendorSortTuning<cuda_tuning_arch, KeyBytes, ValueBytes> {};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct SegmentedSortTuning<Kokkos::Cuda, KeyBytes, ValueBytes>
    : CudaSegmentedSortTuning<cuda_tuning_arch, KeyBytes, ValueBytes> {};
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct TeamSortTuning<Kokkos::Cuda, KeyBytes, ValueBytes>
    : CudaTeamSortTuning<cuda_tuning_arch, KeyBytes, ValueBytes> {};
template <>
struct CompactTuning<Kokkos::Cuda> : CudaCompactTuning<cuda_tuning_arch> {};
template <>
struct MergePathTuning<Kokkos::Cuda> : CudaMergePathTuning<cuda_tuning_arch> {};
template <std::size_t KeyBytes>
struct MergeTuning<Kokkos::Cuda, KeyBytes> : CudaMergeTuning<cuda_tuning_arch, KeyBytes> {};
template <std::size_t KeyBytes>
struct SearchTuning<Kokkos::Cuda, KeyBytes> : CudaSearchTuning<cuda_tuning_arch, KeyBytes> {};
template <std::size_t KeyBytes>
struct SetOpsTuning<Kokkos::Cuda, KeyBytes> : CudaSetOpsTuning<cuda_tuning_arch, KeyBytes> {};
template <>
struct ScanTuning<Kokkos::Cuda> : CudaScanTuning<cuda_tuning_arch> {};
template <>
struct RunsTuning<Kokkos::Cuda> : CudaRunsTuning<cuda_tuning_arch> {};
template <std::size_t KeyBytes>
struct BinarySearchTuning<Kokkos::Cuda, KeyBytes>
    : CudaBinarySearchTuning<cuda_tuning_arch, KeyBytes> {};
#endif

}  // namespace Ordo::Impl

#endif
#endif
