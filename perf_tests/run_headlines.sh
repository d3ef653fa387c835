#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The points README.md's headline tables quote, in one run of one ordo-perf binary:
#   run_headlines.sh ORDO_PERF OUT.jsonl
# Name OUT after the GPU and the commit the binary was built from (headlines-h200-<commit>.jsonl);
# scripts/check-records.py recomputes the READMEs' figures from it.
set -euo pipefail
perf=${1:?usage: run_headlines.sh ORDO_PERF OUT.jsonl}
out=${2:?usage: run_headlines.sh ORDO_PERF OUT.jsonl}
run() {
  local start=$SECONDS
  "$perf" "$@" --output "$out" --reps 20 --warmup 3 --format csv >/dev/null
  echo "ordo-perf $* ($((SECONDS - start)) s)"
}
run sort --log2n 16:28:4
run sort --key u64 --dist bits20 --log2n 24:28:2
run sort --values --log2n 20:28:4
run sort --mode team --log2n 24
run sort --keys 2 --dist uniform --log2n 24:26:2
run segmented_sort --segments powerlaw --log2n 24
run segmented_sort --segments uniform:1024 --log2n 24
run merge --log2n 12:28:4
run merge --values --log2n 20:28:4
run sorted_search --mode lower --log2n 20:28:4
run sorted_search --mode unsorted --log2n 24
run copy_if --log2n 16:28:4
run retrieve_all --log2n 22:26:4
run reduce_by_key --log2n 20:28:4
run run_length_encode --log2n 20:28:4
run scan_by_key --log2n 20:26:2
run set_ops --mode intersection --dist match:50 --log2n 16:24:4
run set_ops --mode union --dist match:50 --log2n 16:24:4
run join --mode inner --dist match:50 --log2n 20:24:4
run load_balancing_search --log2n 24:28:4
run particle_binning --dist uniform --log2n 20:24:4
run particle_binning --dist moved:1 --log2n 20:24:4
run coo2crs --dist uniform --log2n 22:26:2
run coo2crs --dist fem:4 --log2n 22:26:2
