#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares the rounds of a run_ab.sh run: for each point (primitive, key, values, size, and the
option a forced path names: `ordo[algorithm=slab]`) Ordo's median time before and after (the
fastest round of each), the after/before ratio, and the spread between rounds of the same binary
(the noise a ratio must exceed to mean anything). A point that two lines of the points file time
alike (segmented sort's segment shapes) is told apart by its place in the round (#2).
Baselines (CUB, thrust, copy) are shown as the geometric mean of their own after/before ratios:
a drift of the machine, not of Ordo.
   compare_ab.py DIR|FILE [--impl ordo]   (FILE: results/*-ab-*.jsonl, the rounds in one file)"""
import collections
import glob
import json
import math
import os
import sys

folder = sys.argv[1]
impl = sys.argv[sys.argv.index("--impl") + 1] if "--impl" in sys.argv else "ordo"
times = collections.defaultdict(lambda: collections.defaultdict(list))
baseline = collections.defaultdict(
    lambda: collections.defaultdict(lambda: collections.defaultdict(list)))


def records():
    """(label, round, record) of each point: from run_ab.sh's folder (label and round from the file
    name) or from one committed file whose records carry ab_build and ab_round (the first build is
    before)."""
    if os.path.isfile(folder):
        builds = []
        for line in open(folder):
            rec = json.loads(line)
            if rec["ab_build"] not in builds:
                builds.append(rec["ab_build"])
            yield ("before" if rec["ab_build"] == builds[0] else "after"), rec["ab_round"], rec
        return
    for path in sorted(glob.glob(os.path.join(folder, "*-*.jsonl"))):
        label, rnd = os.path.basename(path)[:-len(".jsonl")].split("-")[:2]
        for line in open(path):
            yield label, rnd, json.loads(line)


seen = collections.Counter()
for label, rnd, rec in records():
    if rec["record"] != "point":
        continue
    name, variant = rec["impl"], ""
    if name.startswith(impl + "["):
        name, variant = impl, rec["impl"][len(impl):]
    point = (rec["primitive"] + variant, rec["key"], rec["values"], rec["n"])
    seen[(label, rnd, point, name)] += 1
    key = point + (seen[(label, rnd, point, name)],)
    if name == impl:
        times[key][label].append(rec["median_ms"])
    elif name not in ("ordo unordered", "ordo count returned"):
        baseline[key][name][label].append(rec["median_ms"])

print(f"| primitive | keys | values | log2 n | before ms | after ms | after/before | "
      f"round spread | baselines after/before |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for key, by in times.items():
    if "before" not in by or "after" not in by:
        continue
    b, a = min(by["before"]), min(by["after"])
    spread = max(max(v) / min(v) - 1 for v in by.values())
    # A forced path's point shares its baselines with the plain point (sort[algorithm=slab]: sort).
    plain = (key[0].split("[")[0],) + key[1:]
    ratios = [min(t["after"]) / min(t["before"]) for t in baseline.get(key, baseline[plain]).values()
              if t.get("after") and t.get("before")]
    drift = math.prod(ratios) ** (1 / len(ratios)) if ratios else float("nan")
    primitive, k, values, n, occurrence = key
    if occurrence > 1:
        primitive += f" #{occurrence}"
    print(f"| {primitive} | {k} | {'yes' if values else '-'} | {n.bit_length() - 1} | {b:.4f} | "
          f"{a:.4f} | {a / b:.3f} | {spread * 100:.1f}% | {drift:.3f} |")
