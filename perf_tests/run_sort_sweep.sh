#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The sort sweeps of one device-machine call (ordo-perf built beforehand, carried in):
#   dispatch  each sort forced (ordo-perf sort --algorithm slab|radix|vendor) for 4- and 8-byte
#             keys with and without values, where RadixTuning's and VendorSortTuning's `from` come
#             from; and the vendor sort with and without the search for the bits that vary
#             (--vendor-bits 0|1) on uniform and bits20 keys, where VendorSortTuning's bits_from comes from
#   targets   Ordo's dispatch against every baseline (CUB's radix and merge sorts, Kokkos::sort,
#             the copy) for each key type of the targets, pairs, and bits20 keys
# Results go to OUT/sort-<sweep>.jsonl (rows keyed by key type, values, distribution, size and the
# impl's settings, e.g. ordo[vendor_bits=1,algorithm=vendor]).
#   run_sort_sweep.sh PERF OUT dispatch|targets
set -uo pipefail
perf=${1:?usage: run_sort_sweep.sh PERF OUT dispatch|targets}
out=${2:?}
sweep=${3:?}
mkdir -p "$out"
json=$out/sort-$sweep.jsonl
run() {
  echo "+ ordo-perf sort $*"
  "$perf" sort "$@" --output "$json" >/dev/null 2>>"$out/sort-$sweep.err" || echo "FAILED: $*"
}
case $sweep in
dispatch)
  for key in "--key u32" "--key u64" "--key u32 --values" "--key u64 --values" "--key f32"; do
    for algorithm in slab radix vendor; do
      # shellcheck disable=SC2086
      run $key --algorithm $algorithm --log2n 12:22:1 --baseline copy --reps 15 --warmup 2
    done
  done
  for key in "--key u32" "--key u64" "--key u32 --values"; do
    for dist in uniform bits20; do
      for bits in 0 1; do
        # shellcheck disable=SC2086
        run $key --dist $dist --algorithm vendor --vendor-bits $bits --log2n 16:28:2 \
          --baseline copy --reps 15 --warmup 2
      done
    done
  done
  ;;
targets)
  for key in u32 i32 f32 u64 f64; do
    run --key $key --log2n 10:28:2 --reps 20 --warmup 3
  done
  run --key u32 --values --log2n 10:28:2 --reps 20 --warmup 3
  run --key u32 --dist bits20 --log2n 16:28:2 --reps 20 --warmup 3
  run --key u64 --dist bits20 --log2n 16:28:2 --reps 20 --warmup 3
  ;;
*)
  echo "run_sort_sweep.sh: unknown sweep '$sweep' (dispatch or targets)" >&2
  exit 2
  ;;
esac
