#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The records the READMEs cite, and the figures they quote from them.

1. Every perf_tests/results file named in README.md, perf_tests/README.md, docs/*.md or
   packages/*/README.md exists, and every file in perf_tests/results/ is named there.
2. Every context line of a cited JSON-lines record names a commit, one of those its file name
   gives (records are named after the commits their binaries were built from:
   headlines-h200-3156aec.jsonl; A/B records after both).
3. Every table row that carries a check comment has its figures recomputed from the record:

   | `Ordo::sort` | u32 keys | 2^20 / 2^24 | 0.090 / 0.434 ms | 1.08x / 2.01x `cub::DeviceRadixSort::SortKeys` | <!-- check results/X.jsonl primitive=sort key=u32 values=false dist=uniform n=20,24 -->

   The comment selects the record's points (field=value, n as log2 sizes); each "A / B ms" group
   of the row is Ordo's median time at those sizes, and each "A / B x `impl`" group the ratio of
   that impl's median to Ordo's (the record's ordo_speedup), checked to the digits shown.
   With fields=a,b,... instead of n (records of other shapes, such as ordo-perf-mpi's), the
   selection is one point and the first number of each non-empty cell from the third on is that
   point's field a, b, ... in turn.
"""
import json
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent.parent
results = here / "perf_tests" / "results"
documents = [here / "README.md", here / "perf_tests" / "README.md",
             *sorted((here / "docs").glob("*.md")), *sorted((here / "packages").glob("*/README.md"))]
errors = []
cited = set()


def expand(name):
    # results/{merge,sorted_search}-h100-3866ad6.jsonl names two records
    m = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", name)
    return [m.group(1) + part + m.group(3) for part in m.group(2).split(",")] if m else [name]


records = {}


def points(name):
    if name not in records:
        records[name] = [json.loads(line) for line in (results / name).read_text().splitlines()]
    return records[name]


def close(shown, value):
    """shown (a string of digits) is value to the digits shown, within one in the last digit."""
    digits = len(shown.split(".")[1]) if "." in shown else 0
    return abs(float(shown) - value) <= 1.01 * 10**-digits


NUMBERS = r"(\d+(?:\.\d+)?(?: / \d+(?:\.\d+)?)*)"


def check_fields(where, name, chosen, fields, text):
    if len(chosen) != 1:
        errors.append(f"{where}: {len(chosen)} points selected in results/{name}, wants one")
        return
    cells = [c.strip() for c in text.split("|")[1:]]
    if cells and not cells[-1]:
        cells.pop()  # the row's closing bar
    cells = cells[2:]
    shown = [m.group(0) for m in (re.search(r"\d+(?:\.\d+)?", c) for c in cells if c) if m]
    if len(shown) != len(fields):
        errors.append(f"{where}: {len(shown)} figures for {len(fields)} fields")
        return
    for value, field in zip(shown, fields):
        if not close(value, float(chosen[0][field])):
            errors.append(f"{where}: {field} shows {value}, results/{name} says "
                          f"{chosen[0][field]:.4g}")


def check_row(doc, line, comment):
    words = comment.split()
    name = words[0][len("results/"):]
    select = dict(word.split("=", 1) for word in words[1:])
    fields = select.pop("fields").split(",") if "fields" in select else None
    sizes = [int(s) for s in select.pop("n").split(",")] if fields is None else []
    where = f"{doc}: row '{line[:60]}...'"
    if not (results / name).exists():
        return  # reported as a missing citation
    chosen = [p for p in points(name) if p.get("record") == "point" and
              all(str(p.get(k)).lower() == v.lower() for k, v in select.items())]
    text = line.split("<!--")[0]
    if fields is not None:
        check_fields(where, name, chosen, fields, text)
        return

    def figure(log2n, impl, field):
        found = [p[field] for p in chosen if p["n"] == 2**log2n and p["impl"] == impl]
        if len(found) != 1:
            errors.append(f"{where}: {len(found)} points of {impl} at 2^{log2n} in results/{name}")
            return None
        return found[0]

    groups = [(m.group(1), "ordo", "median_ms") for m in re.finditer(NUMBERS + r" ms\b", text)]
    groups += [(m.group(1).replace("x", ""), m.group(2), "ordo_speedup")
               for m in re.finditer(r"(\d+\.\d+x(?: / \d+\.\d+x)*) `([^`]+)`", text)]
    if not groups:
        errors.append(f"{where}: a check comment but no figure to check")
    for shown, impl, field in groups:
        values = [v.strip() for v in shown.split("/")]
        if len(values) != len(sizes):
            errors.append(f"{where}: {len(values)} figures for {len(sizes)} sizes ({impl})")
            continue
        for value, log2n in zip(values, sizes):
            actual = figure(log2n, impl, field)
            if actual is not None and not close(value, actual):
                errors.append(f"{where}: {impl} at 2^{log2n} shows {value}, "
                              f"results/{name} says {actual:.4g}")


checked = 0
for doc in documents:
    text = doc.read_text()
    relative = doc.relative_to(here)
    for name in re.findall(r"results/([A-Za-z0-9_.{},-]+\.(?:jsonl|txt|log|png))", text):
        for expanded in expand(name):
            cited.add((relative, expanded))
    for line in text.splitlines():
        m = re.search(r"<!-- check (results/\S+\.jsonl[^>]*?) -->", line)
        if m:
            check_row(relative, line, m.group(1))
            checked += 1

for doc, name in sorted(cited):
    path = results / name
    if not path.exists():
        errors.append(f"{doc} cites results/{name}, which is not there")
        continue
    if path.suffix != ".jsonl":
        continue
    hashes = re.findall(r"(?<![0-9a-f])[0-9a-f]{7}(?![0-9a-f])", path.stem)
    for number, record in enumerate(points(name), 1):
        if record.get("record") != "context":
            continue
        commit = record.get("ordo_commit", "unknown")
        if not re.match(r"[0-9a-f]{7}", commit):
            errors.append(f"results/{name}:{number}: the context names no commit ({commit})")
        elif hashes and commit[:7] not in hashes:
            errors.append(f"results/{name}:{number}: the context names {commit[:7]}, "
                          f"the file name {', '.join(hashes)}")

named = {name for _, name in cited}
for path in sorted(results.iterdir()):
    if path.name not in named:
        errors.append(f"results/{path.name} is cited by no README or doc: cite it or remove it")

if errors:
    print("check-records:", *errors, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"check-records: {len(named)} cited results, every one there and every result cited; "
      f"{checked} table rows recomputed from their records")
