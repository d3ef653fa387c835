#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints a Markdown table of ordo-perf JSON lines for the README: per primitive, key type,
values flag and size, Ordo's time and bandwidth next to each baseline's ratio."""
import collections
import json
import sys

rows = collections.OrderedDict()
impls = []
for path in sys.argv[1:]:
    for line in open(path):
        rec = json.loads(line)
        if rec["record"] != "point":
            continue
        key = (rec["primitive"], rec["key"], rec["values"], rec["n"])
        rows.setdefault(key, {})[rec["impl"]] = rec
        if rec["impl"] != "ordo" and rec["impl"] not in impls:
            impls.append(rec["impl"])

print("| primitive | keys | values | log2 n | Ordo ms | Ordo GB/s | "
      + " | ".join(f"vs {i}" for i in impls) + " |")
print("|" + " --- |" * (6 + len(impls)))
for (primitive, key, values, n), recs in rows.items():
    o = recs.get("ordo")
    if not o:
        continue
    ratios = [f"{recs[i]['ordo_speedup']:.2f}x" if i in recs else "" for i in impls]
    print(f"| {primitive} | {key} | {'u32' if values else '-'} | {n.bit_length() - 1} | "
          f"{o['median_ms']:.4f} | {o['gb_per_s']:.0f} | " + " | ".join(ratios) + " |")
