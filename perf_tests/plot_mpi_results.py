#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots ordo-perf-mpi JSON lines: for each point, the distributed sort's phases (the slowest
rank's local sort, splitters, exchange, merge) as stacked bars beside the run's two baselines
added up (local sort alone + an all-to-all of the same bytes by the exchange's engine, MPI or
NCCL, each point labelled with it; one rank sends nothing, so its
floor is the local sort alone); and, where the points include one rank, a second panel of the
speedup over one rank's Ordo::sort of the same keys (strong scaling) and of P times the keys
(weak scaling: P x that sort's time / the distributed sort's time). Uses matplotlib from
Debian's packages (python3-matplotlib).

    perf_tests/plot_mpi_results.py perf_tests/results/mpi_sort-cpu-<commit>.jsonl -o mpi_sort.png
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PHASES = [("local_sort_ms", "local sort"), ("splitters_ms", "splitters"),
          ("exchange_ms", "exchange"), ("merge_ms", "merge")]


def label(p, exchange=True):
    what = f"{p['ranks']}r {p['scaling'][0]} 2^{p['log2n']}"
    if p["key"] != "u32":
        what += f" {p['key']}"
    if p["values"]:
        what += " pairs"
    if p["dist"] != "uniform":
        what += f" {p['dist']}"
    if exchange and p["exchange"] in ("staged", "direct", "nccl") and p["ranks"] > 1:
        what += " " + {"staged": "staged", "direct": "MPI", "nccl": "NCCL"}[p["exchange"]]
    return what


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jsonl", nargs="+")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    parser.add_argument("--min-log2n", type=int, default=0, help="leave out smaller points")
    args = parser.parse_args()
    points, context = [], None
    for path in args.jsonl:
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                if rec["record"] == "context":
                    context = context or rec
                elif rec["log2n"] >= args.min_log2n:
                    points.append(rec)
    one_rank = {(p["scaling"], p["log2n"], p["key"], p["values"], p["dist"]): p
                for p in points if p["ranks"] == 1}
    fig, (ax, sx) = plt.subplots(1, 2, figsize=(max(8, 0.6 * len(points)) + 5, 5),
                                 gridspec_kw={"width_ratios": [max(8, 0.6 * len(points)), 5]})
    x = range(len(points))
    bottom = [0.0] * len(points)
    for key, name in PHASES:
        values = [p[key] for p in points]
        ax.bar([i - 0.2 for i in x], values, 0.4, bottom=bottom, label=name)
        bottom = [b + v for b, v in zip(bottom, values)]
    floor = [p["baseline_local_sort_ms"] + (p["baseline_alltoallv_ms"] if p["ranks"] > 1 else 0)
             for p in points]
    ax.bar([i + 0.2 for i in x], floor, 0.4, color="0.7", label="local sort + alltoallv alone")
    for i, p in enumerate(points):
        ax.annotate(f"{p['median_ms'] / floor[i]:.2f}x", (i - 0.2, bottom[i]), ha="center",
                    va="bottom", fontsize=7)
    ax.set_xticks(list(x))
    ax.set_xticklabels([label(p) for p in points], rotation=60, ha="right", fontsize=7)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.5 * min(min(bottom), min(floor), min(p["local_sort_ms"] for p in points)))
    ax.set_ylabel("ms (slowest rank)")
    title = "Ordo::MPI::sort, " + (
        "u32 keys" if all(p["key"] == "u32" for p in points) else "u32 keys unless labelled")
    if context:
        title += f" ({context['ordo_commit'][:7]}, {context['mpi']}, " \
                 f"{context['execution_space']} x{context['concurrency']} a rank)"
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    lines = {}
    for p in points:
        base = one_rank.get((p["scaling"], p["log2n"], p["key"], p["values"], p["dist"]))
        if base is None:
            continue
        speedup = base["baseline_local_sort_ms"] / p["median_ms"]
        if p["scaling"] == "weak":
            speedup *= p["ranks"]
        lines.setdefault(label(p, exchange=False).split(" ", 1)[1], []).append((p["ranks"], speedup))
    for name, xy in sorted(lines.items()):
        xy.sort()
        sx.plot([r for r, _ in xy], [v for _, v in xy], marker="o", label=name)
    sx.plot([1, 4], [1, 4], color="0.6", linestyle=":", label="ideal")
    sx.set_xlabel("ranks (one GPU each)")
    sx.set_ylabel("speedup over one rank's Ordo::sort")
    sx.set_xticks([1, 2, 4])
    sx.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
