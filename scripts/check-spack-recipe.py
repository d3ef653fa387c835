#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that Spack/packages/ordo/package.py parses and that its class body runs, against a
stand-in for spack.package (this machine has no Spack). Catches syntax errors, misspelled
directives and wrong directive arguments' structure; a real Spack checks the rest."""
import pathlib
import re
import sys
import types

recipe = pathlib.Path(__file__).resolve().parent.parent / "Spack/packages/ordo/package.py"
calls = []


def directive(name):
    def record(*args, **kwargs):
        calls.append((name, args, kwargs))
    return record


package = types.ModuleType("spack.package")
for name in ["version", "variant", "depends_on", "requires", "conflicts", "maintainers",
             "license", "patch", "resource", "provides"]:
    setattr(package, name, directive(name))
for name in ["join_path", "which", "cache_extra_test_sources"]:
    setattr(package, name, lambda *a, **k: None)
for name in ["run_after", "run_before"]:
    setattr(package, name, lambda *a, **k: (lambda f: f))
package.CMakePackage = type("CMakePackage", (), {})
package.__all__ = [n for n in dir(package) if not n.startswith("_")]
spack = types.ModuleType("spack")
spack.package = package
sys.modules["spack"] = spack
sys.modules["spack.package"] = package

namespace = {}
exec(compile(recipe.read_text(), str(recipe), "exec"), namespace)
cls = namespace.get("Ordo")
assert cls is not None and issubclass(cls, package.CMakePackage), "no class Ordo(CMakePackage)"
deps = [c[1][0] for c in calls if c[0] == "depends_on"]
assert any(d.startswith("kokkos@4.5:") for d in deps), "Ordo must depend on kokkos@4.5:"
variants = {c[1][0] for c in calls if c[0] == "variant"}
assert {"tests", "perf"} <= variants, f"variants tests and perf missing: {variants}"
assert hasattr(cls, "cmake_args") and hasattr(cls, "test_consumer")
# The release the CMake project declares is a version of the recipe, pinned to a commit.
cmake = (recipe.parents[3] / "CMakeLists.txt").read_text()
release = re.search(r"project\(Ordo VERSION ([0-9.]+)", cmake).group(1)
versions = {c[1][0]: c[2] for c in calls if c[0] == "version"}
assert release in versions, f"the recipe has no version {release} (CMakeLists.txt's project version)"
assert re.fullmatch(r"[0-9a-f]{40}", versions[release].get("commit", "")), \
    f"version {release} must name its release commit (commit=<40 hex digits>)"
print(f"check-spack-recipe: {recipe.name} parses; {len(calls)} directives, variants "
      f"{sorted(variants)}, versions {sorted(versions)}")
