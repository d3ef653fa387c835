#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks Spack/packages/ordo/package.py without Spack (this machine has none), against a
stand-in for spack.package:

- the recipe parses and its class body runs;
- every variant it names on kokkos, kokkos-kernels or ordo exists in that package's recipe (the
  tables below, from Spack's own kokkos and kokkos_kernels recipes), and variants that exist only
  for some versions (Kokkos' cuda_lambda: 4.x only) are named only under such a version;
- Ordo's own variants that not every release has are gated by the version that has them, so that
  an older version with them fails to concretize instead of building without them;
- cmake_args and the stand-alone test's configure arguments, evaluated for every combination of
  mpi, kokkoskernels and cuda (nccl with mpi and cuda), pass each enabled component and nothing
  else;
- the CMake project version is a recipe version pinned to its commit, and every pinned commit
  (where the checkout has it) declares its version.

Usage: check-spack-recipe.py [RECIPE]   (default: the repository's recipe)"""
import pathlib
import re
import subprocess
import sys
import types

here = pathlib.Path(__file__).resolve().parent.parent
recipe = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "Spack/packages/ordo/package.py"

# Variants of Spack's kokkos and kokkos-kernels recipes (spack-packages, builtin repository), with
# the versions of the package that have them where not all do.
KOKKOS = {
    "cuda": None, "openmp": None, "threads": None, "serial": None, "rocm": None, "sycl": None,
    "openmptarget": None, "hpx": None, "hwloc": None, "numactl": ":4", "memkind": ":4",
    "aggressive_vectorization": None, "atomics_bypass": "4.6:", "compiler_warnings": ":4",
    "complex_align": None, "cuda_constexpr": None, "cuda_lambda": ":4", "cuda_ldg_intrinsic": ":4",
    "cuda_relocatable_device_code": None, "hip_relocatable_device_code": None,
    "sycl_relocatable_device_code": "4.5:", "cuda_uvm": ":4", "debug": None,
    "debug_bounds_check": None, "debug_dualview_modify_check": ":4", "deprecated_code": ":4",
    "examples": ":4", "hpx_async_dispatch": ":4", "tuning": None, "tests": None,
    "cuda_arch": None, "amdgpu_target": None, "intel_gpu_arch": None, "apu": "4.5:",
    "wrapper": None, "cmake_lang": None, "cxxstd": None, "pic": None, "alloc_async": "4.2:",
    "shared": None,
}
KOKKOS_KERNELS = {
    name: None
    for name in (
        "shared execspace_cuda execspace_openmp execspace_threads execspace_serial "
        "memspace_cudauvmspace memspace_cudaspace serial openmp threads ordinals offsets layouts "
        "scalars cuda cuda_arch blas lapack mkl cublas cusparse superlu cblas lapacke rocblas "
        "rocsparse cusolver rocsolver"
    ).split()
}
# Ordo's variants that appeared after its first release.
ORDO_SINCE = {"kokkoskernels": "0.2.0", "cub": "0.2.0", "nccl": "0.3.0", "rocprim": "0.3.0"}
CUDA_ARCHS = ("70", "75", "80", "86", "89", "90", "100", "120")
AMDGPU_TARGETS = ("gfx90a", "gfx942")

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
package.CudaPackage = type("CudaPackage", (), {"cuda_arch_values": CUDA_ARCHS})
package.ROCmPackage = type("ROCmPackage", (), {"amdgpu_targets": AMDGPU_TARGETS})
package.__all__ = [n for n in dir(package) if not n.startswith("_")]
spack = types.ModuleType("spack")
spack.package = package
sys.modules["spack"] = spack
sys.modules["spack.package"] = package

namespace = {}
exec(compile(recipe.read_text(), str(recipe), "exec"), namespace)
cls = namespace.get("Ordo")
errors = []
if cls is None or not issubclass(cls, package.CMakePackage):
    sys.exit(f"check-spack-recipe: {recipe}: no class Ordo(CMakePackage)")


def nodes(spec):
    """A spec string's nodes: [(name or '' for the package itself, version range or None,
    {variant: value})]."""
    out = []
    for i, part in enumerate(spec.split("^")):
        part = part.strip()
        if i == 0 and not part:
            continue
        m = re.match(r"([a-z][a-z0-9-]*)?\s*", part)
        name, rest = m.group(1) or "", part[m.end():]
        version, variants = None, {}
        for tok in re.findall(r"@[^\s+~^]*|[+~][a-z0-9_]+|[a-z0-9_]+=[^\s+~^]+", rest):
            if tok[0] == "@":
                version = tok[1:]
            elif tok[0] in "+~":
                variants[tok[1:]] = tok[0] == "+"
            else:
                key, value = tok.split("=", 1)
                variants[key] = value
        out.append((name, version, variants))
    return out


def major(v):
    return int(re.match(r"[0-9]+", v).group(0)) if v and re.match(r"[0-9]", v) else None


def within(version, allowed):
    """Whether every version in `version` (a range such as ':4', '4.5:4.7', '4') lies in the
    allowed range (':4' or '4.5:', compared by major version for upper bounds)."""
    if version is None:
        return False
    lo, _, hi = version.partition(":") if ":" in version else (version, "", version)
    alo, _, ahi = allowed.partition(":")
    if ahi and (major(hi) is None or major(hi) > major(ahi)):
        return False
    if alo:
        key = lambda v: tuple(int(x) for x in re.findall(r"[0-9]+", v))
        if not lo or key(lo) < key(alo):
            return False
    return True


ordo_variants = {c[1][0]: c[2] for c in calls if c[0] == "variant"}
ordo_variants.update({"cuda": {}, "cuda_arch": {}, "rocm": {}, "amdgpu_target": {}})
known = {"kokkos": KOKKOS, "kokkos-kernels": KOKKOS_KERNELS, "": dict.fromkeys(ordo_variants),
         "ordo": dict.fromkeys(ordo_variants)}


def check_variants(where, found):
    """Every variant named in the nodes `found` (of one spec and its condition) exists in its
    package, and one that exists only for some versions is named under such a version."""
    for name, _, variants in found:
        table = known.get(name)
        if table is None:
            continue
        versions = [v for n, v, _ in found if n == name and v]
        for variant in variants:
            if variant not in table:
                errors.append(f"{where}: {name or 'ordo'} has no variant {variant!r}")
            elif table[variant] and not any(within(v, table[variant]) for v in versions):
                errors.append(f"{where}: {name}'s {variant!r} exists only @{table[variant]}: "
                              f"say so in the condition (^{name}@{table[variant]})")


for kind, args, kwargs in calls:
    if kind in ("depends_on", "requires", "conflicts"):
        specs = [args[0]] + ([kwargs["when"]] if "when" in kwargs else [])
        check_variants(f"{kind}({args[0]!r}, when={kwargs.get('when')!r})",
                       [n for s in specs for n in nodes(s)])

for variant, since in ORDO_SINCE.items():
    if variant not in ordo_variants:
        errors.append(f"no variant {variant!r}")
        continue
    when = ordo_variants[variant].get("when", "")
    if not any(n == "" and v and within(v, since + ":") for n, v, _ in nodes(when)):
        errors.append(f"variant {variant!r} must exist only @{since}: (when='@{since}: ...'): "
                      f"earlier versions do not have it")

# The environments' specs name real variants too (Kokkos 4's cuda_lambda under a 4.x version).
for env in sorted((here / "Spack/environments").glob("*.yaml")):
    for spec in re.findall(r"^\s*-\s*(ordo\S*.*)$", env.read_text(), re.M):
        check_variants(f"{env.name}: {spec!r}", nodes(spec))

deps = [c[1][0] for c in calls if c[0] == "depends_on"]
if not any(d.startswith("kokkos@4.5:") for d in deps):
    errors.append("Ordo must depend on kokkos@4.5:")


class FakeSpec:
    """Just enough of a concrete spec for cmake_args and the consumer's arguments."""

    def __init__(self, version, variants):
        self.version, self.variants = version, variants

    def satisfies(self, constraint):
        for name, version, variants in nodes(constraint):
            if name not in ("", "ordo"):
                return False
            if version is not None:
                lo = version.split(":")[0]
                if self.version != "main" and lo and \
                        tuple(map(int, self.version.split("."))) < tuple(map(int, lo.split("."))):
                    return False
            for key, value in variants.items():
                if self.variants.get(key, False) != value:
                    return False
        return True

    def __getitem__(self, name):
        return types.SimpleNamespace(prefix=f"/prefix/{name}", kokkos_cxx="/bin/c++",
                                     hipcc=f"/prefix/{name}/bin/hipcc")


def define(name, value):
    return f"-D{name}={'ON' if value is True else 'OFF' if value is False else value}"


has_consumer = hasattr(cls, "consumer_cmake_args")
if not has_consumer:
    errors.append("no consumer_cmake_args: the stand-alone test's configure arguments must be "
                  "checkable")
for mpi in (False, True):
    for kk in (False, True):
        for backend in ("host", "cuda", "rocm"):
            cuda, rocm = backend == "cuda", backend == "rocm"
            nccl = mpi and cuda
            on = {"mpi": mpi, "kokkoskernels": kk, "cuda": cuda, "cub": cuda, "nccl": nccl,
                  "rocm": rocm, "rocprim": rocm, "tests": True, "perf": True,
                  "debug_checks": False}
            pkg = cls.__new__(cls)
            pkg.spec = FakeSpec("main", on)
            pkg.prefix = "/prefix/ordo"
            pkg.define = define
            pkg.define_from_variant = lambda name, variant, s=on: define(name, s[variant])
            label = f"ordo@main {'+' if mpi else '~'}mpi {'+' if kk else '~'}kokkoskernels " \
                    f"{backend}"
            try:
                args = [a for a in cls.cmake_args(pkg) if a]
                consumer = cls.consumer_cmake_args(pkg) if has_consumer else []
            except Exception as e:  # noqa: BLE001 (any failure of the recipe's code is reported)
                errors.append(f"{label}: {type(e).__name__}: {e}")
                continue
            # Kokkos' HIP builds take hipcc as the compiler; the others Kokkos' own (kokkos_cxx:
            # nvcc_wrapper for CUDA).
            compiler = "/prefix/hip/bin/hipcc" if rocm else "/bin/c++"
            want = {"Ordo_ENABLE_MPI": mpi, "Ordo_ENABLE_KOKKOSKERNELS": kk,
                    "Ordo_ENABLE_CUB": cuda, "Ordo_ENABLE_NCCL": nccl, "Ordo_ENABLE_ROCPRIM": rocm,
                    "CMAKE_CXX_COMPILER": compiler}
            for option, value in want.items():
                if define(option, value) not in args:
                    errors.append(f"{label}: cmake_args lacks {define(option, value)}: {args}")
            for option, value in (("ORDO_CONSUMER_MPI", mpi), ("ORDO_CONSUMER_KOKKOSKERNELS", kk),
                                  ("CMAKE_CXX_COMPILER", compiler)):
                if has_consumer and define(option, value) not in consumer:
                    errors.append(f"{label}: the stand-alone test does not pass "
                                  f"{define(option, value)}: {consumer}")

# The release the CMake project declares is a version of the recipe, pinned to a commit.
cmake = (here / "CMakeLists.txt").read_text()
release = re.search(r"project\(Ordo VERSION ([0-9.]+)", cmake).group(1)
versions = {c[1][0]: c[2] for c in calls if c[0] == "version"}
if release not in versions:
    errors.append(f"the recipe has no version {release} (CMakeLists.txt's project version)")
elif not re.fullmatch(r"[0-9a-f]{40}", versions[release].get("commit", "")):
    errors.append(f"version {release} must name its release commit (commit=<40 hex digits>)")
# Every numbered version's commit, where this checkout has it, declares that version.
for version, keywords in versions.items():
    commit = keywords.get("commit", "")
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        continue
    shown = subprocess.run(["git", "-C", str(here), "show", f"{commit}:CMakeLists.txt"],
                           capture_output=True, text=True)
    if shown.returncode != 0:
        continue  # a shallow clone or a tarball: nothing to compare
    declared = re.search(r"project\(Ordo VERSION ([0-9.]+)", shown.stdout)
    if not declared or declared.group(1) != version:
        errors.append(f"version {version} pins {commit[:7]}, whose CMakeLists.txt declares "
                      f"{declared.group(1) if declared else 'no version'}")

if errors:
    print(f"check-spack-recipe: {recipe}:", *errors, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"check-spack-recipe: {recipe.name} parses; {len(calls)} directives, variants "
      f"{sorted(ordo_variants)}, versions {sorted(versions)}; kokkos and kokkos-kernels variants "
      f"exist where named; components passed for all 12 combinations")
