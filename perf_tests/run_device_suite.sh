#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What one device-machine call runs for Ordo's CUDA build (binaries built beforehand on the
# development machine, carried in BUILD): unit tests on every backend, the kernels' resource
# usage, then ordo-perf checked at small sizes and timed over the full range, for each primitive
# named (default: every one). Results go to OUT/<primitive>.jsonl.
#   run_device_suite.sh BUILD OUT [merge] [sorted_search] [copy_if] [retrieve_all] [sort]
#                       [set_ops] [join] [load_balancing_search] [--no-unit-tests]
set -uo pipefail
BUILD=${1:?usage: run_device_suite.sh BUILD_DIR OUT_DIR [primitive...]}
OUT=${2:?usage: run_device_suite.sh BUILD_DIR OUT_DIR [primitive...]}
shift 2
unit_tests=1
primitives=()
for arg in "$@"; do
  case $arg in
  --no-unit-tests) unit_tests=0 ;;
  *) primitives+=("$arg") ;;
  esac
done
[ ${#primitives[@]} -gt 0 ] || primitives=(merge sorted_search copy_if retrieve_all sort set_ops join load_balancing_search)
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
if [ $unit_tests = 1 ]; then
  for exe in "$BUILD"/unit_tests/ordo-unit-tests-*; do
    "$exe" --gtest_brief=1 2>&1 | tail -25 | tee -a "$OUT/unit-tests.log"
  done
fi
if command -v cuobjdump >/dev/null; then
  # Demangled, each kernel named by its functor (the first 160 characters of its type) or CUB
  # kernel, then its registers, stack, shared and local memory.
  cuobjdump --dump-resource-usage "$BUILD/perf_tests/ordo-perf" 2>&1 |
    sed -E 's/^[[:space:]]*Function ([^:]*):.*/\1/' | c++filt |
    grep -A1 -E "(MergeTiles|SearchTiles|MergePathPartition|BinarySearch|Compact|SortBlocks|SortMerge|SortStream|cub::)" |
    grep -oE "ParallelFor<Ordo::Impl::.{0,160}|void cub::[^<]*|REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+ LOCAL:[0-9]+" |
    sed -E 's/^(ParallelFor<|void )//' >"$OUT/resource-usage.txt"
fi
perf=$BUILD/perf_tests/ordo-perf
run() { echo "+ ordo-perf $*"; $perf "$@"; }
for p in "${primitives[@]}"; do
  run "$p" --log2n 10:24:2 --check --reps 3 --warmup 1 >"$OUT/check-$p.log" 2>&1 &&
    echo "ordo-perf $p --check: passed" || { echo "ordo-perf $p --check: FAILED"; tail "$OUT/check-$p.log"; }
  json=$OUT/$p.jsonl
  case $p in
  merge)
    run merge --log2n 10:28:2 --output "$json" --reps 50 --warmup 5
    run merge --values --log2n 10:28:2 --output "$json" --reps 50 --warmup 5
    run merge --key u64 --log2n 12:28:4 --output "$json" --reps 30 --warmup 3
    run merge --log2n 30:32 --output "$json" --reps 10 --warmup 2
    ;;
  sorted_search)
    run sorted_search --mode lower --log2n 10:28:2 --output "$json" --reps 50 --warmup 5
    run sorted_search --mode unsorted --log2n 10:28:2 --output "$json" --reps 30 --warmup 3
    run sorted_search --mode complete --log2n 10:26:4 --output "$json" --reps 50 --warmup 5
    run sorted_search --mode equality_count --log2n 10:26:4 --output "$json" --reps 50 --warmup 5
    run sorted_search --mode lower --key u64 --log2n 12:28:4 --output "$json" --reps 30 --warmup 3
    # Above 2^31 elements: 64-bit indices (16 GB of them at 2^32).
    run sorted_search --mode lower --index u64 --log2n 28:32:2 --output "$json" --reps 10 --warmup 2
    ;;
  copy_if)
    run copy_if --log2n 10:28:2 --output "$json" --reps 50 --warmup 5
    run copy_if --key u64 --log2n 12:28:4 --output "$json" --reps 30 --warmup 3
    run copy_if --fraction 0.05 --log2n 16:28:4 --output "$json" --reps 30 --warmup 3
    ;;
  retrieve_all)
    run retrieve_all --log2n 10:26:2 --output "$json" --reps 30 --warmup 3
    ;;
  sort)
    run sort --log2n 10:28:2 --output "$json" --reps 30 --warmup 3
    run sort --key u64 --log2n 10:28:2 --output "$json" --reps 20 --warmup 2
    run sort --values --log2n 10:28:2 --output "$json" --reps 20 --warmup 2
    run sort --mode team --log2n 20:24:4 --output "$json" --reps 30 --warmup 3
    # The sweep SortTuning::stream_levels is chosen from (rows named ordo[stream_levels=L]).
    for key in "--key u32" "--key u64" "--key u32 --values"; do
      for levels in 0 1 2 3 4; do
        run sort $key --stream-levels $levels --log2n 12:22 --baseline copy --check \
          --output "$OUT/sort-stream-levels.jsonl" --reps 20 --warmup 2 >/dev/null
      done
    done
    ;;
  set_ops)
    run set_ops --log2n 16:24:2 --output "$json" --reps 20 --warmup 2
    ;;
  join)
    run join --log2n 16:24:2 --output "$json" --reps 20 --warmup 2
    run join --mode full --log2n 20:24:4 --output "$json" --reps 20 --warmup 2
    ;;
  load_balancing_search)
    run load_balancing_search --log2n 16:28:2 --output "$json" --reps 30 --warmup 3
    ;;
  esac
done
