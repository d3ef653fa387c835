#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The CPU node's record, in one run of one OpenMP ordo-perf binary (built with the host baselines
# it finds: IPS4o, libstdc++'s parallel mode, TBB):
#   run_host_suite.sh ORDO_PERF OUT.jsonl [sorts|streams|all] [THREADS]
# Name OUT after the host and the commit the binary was built from
# (host-<host><threads>-<commit>.jsonl). THREADS (default: every core) runs the sizes; the sort
# of 2^24 u32 keys runs again at 1, 2, 4, ... THREADS threads (the scaling). The two parts take
# about ten minutes each on 16 cores. OpenMP threads are
# bound (OMP_PROC_BIND=spread, OMP_PLACES=cores), except for the rows of the C++17 parallel
# algorithms, whose TBB threads take the affinity mask OpenMP's binding would have narrowed to
# one core: those run in calls of their own, unbound, with Ordo's row beside them.
set -euo pipefail
usage="usage: run_host_suite.sh ORDO_PERF OUT.jsonl [sorts|streams|all] [THREADS]"
perf=${1:?$usage}
out=${2:?$usage}
part=${3:-all}
threads=${4:-$(nproc)}
run() {  # run THREADS BIND ordo-perf arguments...
  local t=$1 bind=$2 start=$SECONDS
  shift 2
  if [ "$bind" = bound ]; then
    OMP_NUM_THREADS=$t OMP_PROC_BIND=spread OMP_PLACES=cores \
      "$perf" "$@" --output "$out" --format csv >/dev/null
  else
    OMP_NUM_THREADS=$t OMP_PROC_BIND=false "$perf" "$@" --output "$out" --format csv >/dev/null
  fi
  echo "$t threads, $bind: ordo-perf $* ($((SECONDS - start)) s)"
}
sorts=(--baseline copy ips4o::parallel::sort __gnu_parallel::sort)
if [ "$part" = sorts ] || [ "$part" = all ]; then
# Sorts: the sizes, the key types, pairs; Kokkos::sort (sequential on host spaces) up to 2^24.
run "$threads" bound sort --log2n 20:28:2 --reps 5 --warmup 1 "${sorts[@]}"
run "$threads" bound sort --key u64 --log2n 20:28:2 --reps 5 --warmup 1 "${sorts[@]}"
run "$threads" bound sort --key f32 --log2n 20:28:2 --reps 5 --warmup 1 "${sorts[@]}"
run "$threads" bound sort --values --log2n 20:26:2 --reps 5 --warmup 1 "${sorts[@]}"
run "$threads" bound sort --log2n 20:24:4 --reps 3 --warmup 1 --baseline Kokkos::sort
run "$threads" unbound sort --log2n 20:26:2 --reps 5 --warmup 1 --baseline 'std::sort(par)'
# Scaling: 2^24 u32 keys from one thread to all.
for ((t = 1; t < threads; t *= 2)); do
  run "$t" bound sort --log2n 24 --reps 5 --warmup 1 "${sorts[@]}"
done
fi
# The streaming primitives against the host's copy bandwidth and the parallel libraries.
[ "$part" = streams ] || [ "$part" = all ] || exit 0
run "$threads" bound merge --log2n 20:26:2 --reps 10 --warmup 2 \
  --baseline copy std::merge __gnu_parallel::merge
run "$threads" unbound merge --log2n 20:26:2 --reps 10 --warmup 2 --baseline 'std::merge(par)'
for primitive in copy_if unique reduce_by_key run_length_encode scan_by_key load_balancing_search; do
  run "$threads" bound "$primitive" --log2n 22:26:2 --reps 10 --warmup 2
done
run "$threads" bound sorted_search --mode lower --log2n 20:26:2 --reps 10 --warmup 2 --baseline copy
run "$threads" bound set_ops --mode intersection --dist match:50 --log2n 20:25:1 --reps 10 --warmup 2
run "$threads" bound join --mode inner --dist match:50 --log2n 20:24:2 --reps 5 --warmup 1
run "$threads" bound particle_binning --dist random --log2n 20:24:2 --reps 5 --warmup 1
run "$threads" bound particle_binning --dist moved:1 --log2n 20:24:2 --reps 5 --warmup 1
run "$threads" bound coo2crs --dist uniform --log2n 20:24:2 --reps 5 --warmup 1
