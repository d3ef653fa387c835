#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A before/after comparison inside one device-machine call: the same ordo-perf points timed with
# two binaries (BEFORE, AFTER: ordo-perf built at two commits), alternating ROUNDS times so that
# drift within the session shows as the spread between rounds. Each line of POINTS is one
# ordo-perf command line (without the binary); results go to OUT/<label>-<round>.jsonl, where the
# label is before or after. Compare them with perf_tests/compare_ab.py.
#   run_ab.sh BEFORE AFTER OUT POINTS_FILE [ROUNDS (default 2)]
set -uo pipefail
before=${1:?usage: run_ab.sh BEFORE AFTER OUT POINTS_FILE [ROUNDS]}
after=${2:?}
out=${3:?}
points=${4:?}
rounds=${5:-2}
mkdir -p "$out"
for round in $(seq "$rounds"); do
  for label in before after; do
    if [ $label = before ]; then perf=$before; else perf=$after; fi
    while read -r line; do
      [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
      # shellcheck disable=SC2086
      "$perf" $line --format jsonl --output "$out/$label-$round.jsonl" >/dev/null 2>"$out/err.log" ||
        { echo "FAILED: $label $line"; tail -3 "$out/err.log"; }
    done <"$points"
  done
done
