#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Nsight Compute profile of one kernel of one ordo-perf run, on a GPU machine: the kernel's
# summary (time, DRAM throughput, instructions, registers, occupancy, stall reasons) and its
# SASS with per-instruction execution counts, the hot spots first.
#   profile_kernel.sh ORDO_PERF OUT NAME KERNEL_REGEX [ordo-perf arguments...]
# KERNEL_REGEX matches the demangled kernel name (Kokkos names a TeamPolicy kernel after its
# functor: MergeTiles, SearchTiles, CompactLookback, ...; CUB kernels by their own names). The
# third launch of a matching kernel is profiled (after ordo-perf's warm-up calls); COUNT=N
# profiles N launches from there (the SASS counts are then the first one's).
# Writes OUT/NAME.txt (summary) and OUT/NAME-sass.txt (instructions by execution count).
set -uo pipefail
perf=${1:?usage: profile_kernel.sh ORDO_PERF OUT NAME KERNEL_REGEX [ordo-perf args...]}
out=${2:?}
name=${3:?}
kernel=${4:?}
shift 4
mkdir -p "$out"
rep=/tmp/$name
ncu --kernel-name-base demangled -k "regex:$kernel" --launch-skip 2 -c "${COUNT:-1}" --set full \
  --import-source no -f -o "$rep" "$perf" "$@" --reps 3 --warmup 1 >"$out/$name-run.log" 2>&1 ||
  { echo "ncu failed: $(tail -3 "$out/$name-run.log")"; exit 1; }
ncu -i "$rep.ncu-rep" --page details \
  --section SpeedOfLight --section LaunchStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section InstructionStats >"$out/$name.txt" 2>&1
# SASS with each instruction's executed warp-level count, heaviest first (the top 80).
ncu -i "$rep.ncu-rep" --page source --csv --print-source sass >"$out/$name-sass.csv" 2>/dev/null
python3 - "$out/$name-sass.csv" >"$out/$name-sass.txt" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next(i for i, r in enumerate(rows) if "Source" in r)
cols = rows[head]
src = cols.index("Source")
cnt = next(i for i, c in enumerate(cols) if c.startswith("Instructions Executed"))
body = [r for r in rows[head + 1:] if len(r) > cnt and r[cnt].replace(",", "").isdigit()]
total = sum(int(r[cnt].replace(",", "")) for r in body)
print(f"instructions executed (warp level): {total}, SASS lines: {len(body)}")
for n, r in enumerate(body):
    r.append(n)
for r in sorted(body, key=lambda r: -int(r[cnt].replace(",", "")))[:80]:
    print(f"{r[-1]:5d} {int(r[cnt].replace(',', '')):12d}  {r[src]}")
print("\n--- in program order ---")
for r in body:
    print(f"{r[-1]:5d} {int(r[cnt].replace(',', '')):12d}  {r[src]}")
EOF
grep -E "Duration|DRAM Throughput|Memory Throughput|Executed Ipc Active|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Size|Grid Size|Executed Instructions  " \
  "$out/$name.txt" | sed "s/^/$name: /"
