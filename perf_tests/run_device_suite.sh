#!/usr/bin/env bash
# What one device-machine call runs for Ordo's CUDA build (binaries built beforehand on the
# development machine, carried in BUILD): unit tests on every backend, the kernels' resource
# usage, then ordo-perf checked at small sizes and timed over the full range. Results go to OUT.
set -uo pipefail
BUILD=${1:?usage: run_device_suite.sh BUILD_DIR OUT_DIR}
OUT=${2:?usage: run_device_suite.sh BUILD_DIR OUT_DIR}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
for exe in "$BUILD"/unit_tests/ordo-unit-tests-*; do
  "$exe" --gtest_brief=1 2>&1 | tail -25 | tee -a "$OUT/unit-tests.log"
done
if command -v cuobjdump >/dev/null; then
  cuobjdump --dump-resource-usage "$BUILD/perf_tests/ordo-perf" 2>&1 |
    grep -A1 -E "Merge(Tiles|PathPartition)" | grep -oE "REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+ LOCAL:[0-9]+" |
    sort | uniq -c >"$OUT/resource-usage.txt"
fi
perf=$BUILD/perf_tests/ordo-perf
$perf merge --log2n 10:24:2 --check --reps 3 --warmup 1 >"$OUT/check.log" 2>&1 &&
  echo "ordo-perf --check: passed" || { echo "ordo-perf --check: FAILED"; tail "$OUT/check.log"; }
json=$OUT/merge.jsonl
$perf merge --log2n 10:28:2 --output "$json" --reps 50 --warmup 5
$perf merge --values --log2n 10:28:2 --output "$json" --reps 50 --warmup 5
$perf merge --key u64 --log2n 12:28:4 --output "$json" --reps 30 --warmup 3
