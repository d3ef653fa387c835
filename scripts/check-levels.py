#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include order of Ordo's levels (docs/ARCHITECTURE.md), checked from the sources.

Every header has a level: src/impl/core/ 0, lane/ 1, team/ 2, device/ 3, the public entry points
src/Ordo_*.hpp 4, a subpackage's impl/ 5 and its entry points 6. The vocabulary headers (types and
configuration only: Ordo_BuildOptions, Ordo_Version, Ordo_Comparators, Ordo_SearchTypes and the
subpackages' *Types.hpp) are level 0. A portable header includes headers of its level or lower.
A backend seam's files sit in a folder under the level they specialize (src/impl/<level>/cuda/,
src/impl/<level>/hip/; a subpackage's impl/cuda/ at its level), at the bottom of that level: they
include portable headers of lower levels only, and seam files of their level or lower. A header's
level is its folder's (a seam folder's is its level folder's), so the check is also the folders'
order: no folder of src/impl/ (or of a subpackage's impl/) includes a file of a folder above it.
Prints every include that breaks the order; exit status 1 if there is one.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LEVELS = {"core": 0, "lane": 1, "team": 2, "device": 3, "package": 5}
VOCABULARY = {"Ordo_BuildOptions.hpp", "Ordo_Version.hpp", "Ordo_Comparators.hpp", "Ordo_SearchTypes.hpp"}
INCLUDE = re.compile(r'^#include <((?:impl/)?[A-Za-z/_]*Ordo_[A-Za-z_]+\.hpp)>', re.M)
BACKENDS = ("cuda", "hip")


def headers():
    """Maps include names (as written after '#include <') to (path, level, seam)."""
    found = {}
    roots = [ROOT / "src"] + sorted((ROOT / "packages").glob("*/src"))
    for root in roots:
        package = root != ROOT / "src"
        for path in sorted(root.rglob("*.hpp")):
            name = path.relative_to(root).as_posix()
            parts = name.split("/")
            seam = len(parts) >= 3 and parts[-2] in BACKENDS
            if name in VOCABULARY or (package and len(parts) == 1 and name.endswith("Types.hpp")):
                level = 0
            elif len(parts) == 1:
                level = 6 if package else 4
            elif package:
                level = 5
            elif parts[1] in LEVELS and (len(parts) == 3 or (len(parts) == 4 and seam)):
                level = LEVELS[parts[1]]
            else:
                print(f"check-levels: {path.relative_to(ROOT)} lies outside the level folders")
                level = None
            found[name] = (path, level, seam)
    return found


def main():
    found = headers()
    status = 1 if any(level is None for _, level, _ in found.values()) else 0
    for name, (path, level, seam) in sorted(found.items()):
        if level is None:
            continue
        for target in INCLUDE.findall(path.read_text()):
            if target not in found:
                if target not in VOCABULARY:
                    print(f"check-levels: {path.relative_to(ROOT)} includes {target}, which is not in src/")
                    status = 1
                continue
            _, tlevel, tseam = found[target]
            if tlevel is None:
                continue
            ok = tlevel <= level
            if seam and not tseam:
                ok = tlevel < level or target in VOCABULARY
            if not ok:
                kind = "seam file" if seam else "header"
                print(f"check-levels: {path.relative_to(ROOT)} ({kind}, level {level}) includes "
                      f"{target} (level {tlevel}): a level includes only what lies below it")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
