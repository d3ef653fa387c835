#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The README's figure: Ordo's speed against the call a user would make instead, per job, on one
H200 and on a 16-core CPU node, at one large size each, read from the records the README and
perf_tests/README.md cite (each bar is a point's ordo_speedup: the other call's median time over
Ordo's in the same run; above 1, Ordo is faster). Plain Python, no plotting library.

    perf_tests/plot_speedups.py            write docs/speedups.svg
    perf_tests/plot_speedups.py --check    fail if docs/speedups.svg is not what the records give
"""
import json
import math
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent
results = here / "results"
figure = here.parent / "docs" / "speedups.svg"

# (section, record), then rows: (label, the point's fields, log2 n, [(impl, kind)...]); kind is
# "vendor" (a vendor or parallel library: CUB, Thrust, IPS4o, libstdc++'s parallel mode) or
# "kokkos" (what Kokkos or Kokkos Kernels has).
H200 = "headlines-h200-3156aec.jsonl"
HOST_SORTS = "host-sorts-h100host16-762f6e4.jsonl"
HOST_STREAMS = "host-streams-h100host16-762f6e4.jsonl"
HOST_BASELINES = "host-baselines-h100host16-762f6e4.jsonl"
HOST_COMPACTION = "host-compaction-h100host16-801e816.jsonl"
SECTIONS = [
    ("CUDA, one H200 (2^24 to 2^28 elements)", [
        ("sort, u32", H200, dict(primitive="sort", key="u32", values=False, dist="uniform"), 28,
         [("cub::DeviceRadixSort::SortKeys", "vendor"), ("Kokkos::sort", "kokkos")]),
        ("sort, u64 cell ids (20 bits)", H200, dict(primitive="sort", key="u64", dist="bits20"), 28,
         [("cub::DeviceRadixSort::SortKeys", "vendor"), ("Kokkos::sort", "kokkos")]),
        ("sort by (row, column)", H200, dict(primitive="sort_by_key:keys2"), 26,
         [("cub pipeline", "vendor")]),
        ("segmented sort, CRS rows", H200, dict(primitive="segmented_sort", dist="powerlaw"), 24,
         [("cub::DeviceSegmentedSort::SortKeys", "vendor")]),
        ("sort_team", H200, dict(primitive="sort_team"), 24,
         [("cub::DeviceSegmentedSort::SortKeys", "vendor"),
          ("Kokkos::Experimental::sort_team", "kokkos")]),
        ("cell lists, random cells", H200, dict(primitive="particle_binning", dist="random"), 24,
         [("cub pipeline", "vendor"), ("Kokkos::BinSort", "kokkos")]),
        ("cell lists, 1% moved", H200, dict(primitive="particle_binning", dist="moved:1"), 24,
         [("cub pipeline", "vendor"), ("Kokkos::BinSort", "kokkos")]),
        ("coo2crs assembly", H200, dict(primitive="coo2crs", dist="uniform"), 26,
         [("cub pipeline", "vendor")]),
        ("merge", H200, dict(primitive="merge", values=False), 28,
         [("cub::DeviceMerge::MergeKeys", "vendor")]),
        ("sorted search", H200, dict(primitive="sorted_search:lower"), 28,
         [("thrust::lower_bound (sorted needles)", "vendor")]),
        ("copy_if", "copy_if-h200-212e52b.jsonl", dict(primitive="copy_if", key="u32"), 28,
         [("cub::DeviceSelect::If", "vendor")]),
        ("reduce_by_key, u32", H200, dict(primitive="reduce_by_key:u32"), 28,
         [("cub::DeviceReduce::ReduceByKey", "vendor")]),
        ("reduce_by_key, f64", "runs-h200-4403c3d.jsonl", dict(primitive="reduce_by_key:f64"), 28,
         [("cub::DeviceReduce::ReduceByKey", "vendor")]),
        ("inclusive_scan_by_key", H200, dict(primitive="inclusive_scan_by_key:u32"), 26,
         [("cub::DeviceScan::InclusiveScanByKey", "vendor")]),
        ("set_intersection", "set-ops-warp-ab-h200-066782b-f5ca872.jsonl",
         dict(primitive="set_ops:intersection", ab_build="f5ca872", ab_round=2), 26,
         [("thrust::set_intersection", "vendor")]),
        ("retrieve_all", H200, dict(primitive="retrieve_all"), 26,
         [("parallel_scan export", "kokkos")]),
        ("inner_join", H200, dict(primitive="join:inner"), 25,
         [("Kokkos::UnorderedMap hash join", "kokkos")]),
    ]),
    ("OpenMP, 16 cores of the GPU machine's host (2^24 to 2^26)", [
        ("sort, u32", HOST_SORTS, dict(primitive="sort", key="u32", values=False), 26,
         [("ips4o::parallel::sort", "vendor"), ("__gnu_parallel::sort", "vendor")]),
        ("sort, u32", HOST_BASELINES, dict(primitive="sort", key="u32"), 24,
         [("Kokkos::sort", "kokkos")]),
        ("sort, u64", HOST_SORTS, dict(primitive="sort", key="u64", values=False), 26,
         [("ips4o::parallel::sort", "vendor"), ("__gnu_parallel::sort", "vendor")]),
        ("sort_by_key, u32 pairs", HOST_SORTS, dict(primitive="sort", key="u32", values=True), 26,
         [("ips4o::parallel::sort", "vendor"), ("__gnu_parallel::sort", "vendor")]),
        ("merge", HOST_STREAMS, dict(primitive="merge"), 26,
         [("__gnu_parallel::merge", "vendor")]),
        ("copy_if", HOST_COMPACTION, dict(primitive="copy_if"), 26,
         [("Kokkos::Experimental::copy_if", "kokkos")]),
        ("retrieve_all", HOST_COMPACTION, dict(primitive="retrieve_all"), 26,
         [("parallel_scan export", "kokkos")]),
        ("cell lists, random cells", HOST_STREAMS, dict(primitive="particle_binning",
                                                         dist="random"), 24,
         [("Kokkos::BinSort", "kokkos")]),
        ("inner_join", HOST_STREAMS, dict(primitive="join:inner"), 25,
         [("Kokkos::UnorderedMap hash join", "kokkos")]),
    ]),
]
COLORS = {"vendor": "#4c72b0", "kokkos": "#dd8452"}
# The names the bars carry where the record's are long.
SHORT = {"cub::DeviceRadixSort::SortKeys": "CUB radix sort",
         "cub::DeviceSegmentedSort::SortKeys": "CUB segmented sort",
         "cub::DeviceMerge::MergeKeys": "CUB merge", "cub::DeviceSelect::If": "CUB select",
         "cub::DeviceReduce::ReduceByKey": "CUB reduce by key",
         "cub::DeviceScan::InclusiveScanByKey": "CUB scan by key",
         "thrust::lower_bound (sorted needles)": "thrust::lower_bound",
         "Kokkos::Experimental::sort_team": "Kokkos sort_team",
         "Kokkos::Experimental::copy_if": "Kokkos copy_if",
         "Kokkos::UnorderedMap hash join": "UnorderedMap hash join",
         "parallel_scan export": "Kokkos parallel_scan export",
         "ips4o::parallel::sort": "IPS4o", "__gnu_parallel::sort": "GNU parallel sort",
         "__gnu_parallel::merge": "GNU parallel merge"}
LEGEND = {"vendor": "the vendor's or a parallel library's call (CUB, Thrust, IPS4o, GNU parallel)",
          "kokkos": "the Kokkos / Kokkos Kernels call"}


def speedup(record, fields, log2n, impl):
    hits = []
    for line in (results / record).read_text().splitlines():
        point = json.loads(line)
        if point.get("record") != "point" or point["impl"] != impl:
            continue
        if point["n"] != 1 << log2n:
            continue
        if all(point.get(k) == v for k, v in fields.items()):
            hits.append(point["ordo_speedup"])
    if len(hits) != 1:
        sys.exit(f"plot_speedups: {len(hits)} points of {impl} at 2^{log2n} in {record} "
                 f"for {fields}, wants one")
    return hits[0]


def draw():
    left, width, bar, gap = 230, 420, 12, 8
    lo, hi = -2, 7  # log2 of the axis' ends: 1/4x to 128x
    x = lambda r: left + (math.log2(r) - lo) / (hi - lo) * width
    out, y = [], 54
    for title, rows in SECTIONS:
        out.append(f'<text x="8" y="{y + 12}" font-weight="bold">{title}</text>')
        y += 22
        for label, record, fields, log2n, impls in rows:
            top = y
            for impl, kind in impls:
                r = speedup(record, fields, log2n, impl)
                x0, x1 = sorted((x(1), x(min(max(r, 2.0**lo), 2.0**hi))))
                out.append(f'<rect x="{x0:.1f}" y="{y}" width="{x1 - x0:.1f}" height="{bar}" '
                           f'fill="{COLORS[kind]}"><title>{impl}: {r:.2f}x</title></rect>')
                # The figure right of the bar, or right of the 1x line where the bar is left of it.
                out.append(f'<text x="{x1 + 4:.1f}" y="{y + 10}" font-size="10">'
                           f'{r:.2f}x {SHORT.get(impl, impl)}</text>')
                y += bar + 2
            out.append(f'<text x="{left - 8}" y="{(top + y) / 2 + 3:.1f}" text-anchor="end">'
                       f'{label} (2^{log2n})</text>')
            y += gap
        y += 6
    axis = []
    for e in range(lo, hi + 1):
        gx = x(2.0**e)
        name = f"{2**e}x" if e >= 0 else f"1/{2**-e}x"
        axis.append(f'<line x1="{gx:.1f}" y1="40" x2="{gx:.1f}" y2="{y}" stroke="#ccc"/>')
        axis.append(f'<text x="{gx:.1f}" y="34" font-size="10" text-anchor="middle">{name}</text>')
    axis.append(f'<line x1="{x(1):.1f}" y1="40" x2="{x(1):.1f}" y2="{y}" stroke="#000"/>')
    legend = []
    for i, (kind, text) in enumerate(LEGEND.items()):
        ly = y + 10 + 16 * i
        legend.append(f'<rect x="{left}" y="{ly}" width="12" height="12" fill="{COLORS[kind]}"/>')
        legend.append(f'<text x="{left + 18}" y="{ly + 10}">{text}</text>')
    height = y + 46
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 190}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        "<!-- SPDX-License-Identifier: BSD-3-Clause -->",
        "<!-- Drawn by perf_tests/plot_speedups.py from perf_tests/results/; do not edit. -->",
        f'<rect width="100%" height="100%" fill="#fff"/>',
        f'<text x="8" y="16" font-weight="bold">How much faster Ordo is than the call you would '
        f'make instead (above 1: Ordo is faster)</text>',
    ]
    return "\n".join(head + axis + out + legend + ["</svg>"]) + "\n"


if __name__ == "__main__":
    svg = draw()
    if sys.argv[1:] == ["--check"]:
        if not figure.exists() or figure.read_text() != svg:
            sys.exit("plot_speedups: docs/speedups.svg is not what the records give: "
                     "run perf_tests/plot_speedups.py")
        print("plot_speedups: docs/speedups.svg is what the records give")
    elif sys.argv[1:]:
        sys.exit(__doc__)
    else:
        figure.write_text(svg)
        print(f"plot_speedups: wrote {figure}")
