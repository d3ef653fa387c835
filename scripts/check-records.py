#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The records the READMEs cite: every perf_tests/results file named in README.md,
perf_tests/README.md and docs/*.md exists, and every context line of a cited JSON-lines record
names a commit, one of those its file name gives (records are named after the commits their
binaries were built from: sort-h100-b39c78d.jsonl; A/B records after both)."""
import json
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent.parent
results = here / "perf_tests" / "results"
documents = [here / "README.md", here / "perf_tests" / "README.md", *sorted((here / "docs").glob("*.md"))]
errors = []
cited = set()
for doc in documents:
    for name in re.findall(r"results/([A-Za-z0-9_.{},-]+\.(?:jsonl|txt|log|png))", doc.read_text()):
        # results/{merge,sorted_search}-h100-3866ad6.jsonl names two records
        m = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", name)
        for expanded in ([m.group(1) + part + m.group(3) for part in m.group(2).split(",")]
                         if m else [name]):
            cited.add((doc.relative_to(here), expanded))

for doc, name in sorted(cited):
    path = results / name
    if not path.exists():
        errors.append(f"{doc} cites results/{name}, which is not there")
        continue
    if path.suffix != ".jsonl":
        continue
    hashes = re.findall(r"(?<![0-9a-f])[0-9a-f]{7}(?![0-9a-f])", path.stem)
    for number, line in enumerate(path.read_text().splitlines(), 1):
        record = json.loads(line)
        if record.get("record") != "context":
            continue
        commit = record.get("ordo_commit", "unknown")
        if not re.match(r"[0-9a-f]{7}", commit):
            errors.append(f"results/{name}:{number}: the context names no commit ({commit})")
        elif hashes and commit[:7] not in hashes:
            errors.append(f"results/{name}:{number}: the context names {commit[:7]}, "
                          f"the file name {', '.join(hashes)}")

if errors:
    print("check-records:", *errors, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"check-records: {len(cited)} cited results, every one there, every record's context "
      f"names the commit its name gives")
