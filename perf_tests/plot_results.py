#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots ordo-perf JSON lines: throughput (keys/s) against size, Ordo against its baselines,
one panel per primitive, key type and values flag. Uses matplotlib from Debian's packages
(python3-matplotlib).

    perf_tests/plot_results.py perf_tests/results/merge-h100-<commit>.jsonl -o merge.png
"""
import argparse
import collections
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jsonl", nargs="+")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    args = parser.parse_args()

    context, series = None, collections.defaultdict(lambda: collections.defaultdict(list))
    for path in args.jsonl:
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                if rec["record"] == "context":
                    context = context or rec
                    continue
                panel = (rec["primitive"], rec["key"], rec["values"], rec["dist"])
                series[panel][rec["impl"]].append((rec["n"], rec["keys_per_s"]))

    panels = sorted(series)
    cols = min(3, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6 * cols, 4.5 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, panel in zip(axes.flat, panels):
        primitive, key, values, dist = panel
        for impl, points in sorted(series[panel].items(), key=lambda kv: kv[0] != "ordo"):
            points.sort()
            ax.plot([p[0] for p in points], [p[1] * 1e-9 for p in points], marker="o",
                    linewidth=2.5 if impl == "ordo" else 1.2, label=impl)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("n (keys)")
        ax.set_ylabel("Gkeys/s")
        ax.set_title(f"{primitive}, {key} keys{' + values' if values else ''}, {dist}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    if context:
        commit = context["ordo_commit"][:10]
        fig.suptitle(f"Ordo {context['ordo_version']} ({commit}), "
                     f"Kokkos {context['kokkos_version']}, {context['device']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"plot_results: wrote {args.output}")


if __name__ == "__main__":
    main()
