# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for Ordo: sorted-data primitives for Kokkos.
#
#   spack repo add Spack
#   spack install ordo ^kokkos+openmp
#   spack install ordo ^kokkos+cuda+cuda_lambda cuda_arch=90
#   spack install ordo+mpi ^kokkos+openmp ^openmpi

from spack.package import *


class Ordo(CMakePackage):
    """Ordo: sort, merge, vectorized sorted search and stream compaction for Kokkos, and a
    distributed sort over MPI (+mpi)."""

    homepage = "https://github.com/ordo-hpc/ordo"
    git = "https://github.com/ordo-hpc/ordo.git"

    maintainers("ordo-developers")
    license("BSD-3-Clause")

    version("main", branch="main")
    version("0.1.0", commit="58cf3f0a43dd6a7d15e0300d1d2a5092b4b0024c")

    variant("tests", default=False, description="Build the unit tests (GoogleTest)")
    variant("perf", default=False, description="Build ordo-perf (CLI11)")
    variant("debug_checks", default=False, description="Check preconditions such as sorted inputs")
    variant("mpi", default=False, description="Build packages/mpi: the distributed sort, Ordo::MPI")
    variant(
        "cub",
        default=True,
        description="Large sorts of arithmetic keys may take cub::DeviceRadixSort (CUDA builds)",
    )
    variant(
        "kokkoskernels",
        default=False,
        description="Build packages/kokkoskernels: CRS sorts, Ordo::KokkosKernels",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    depends_on("kokkos@4.5:")
    # Ordo's CUDA kernels are Kokkos lambdas and functors: Kokkos must allow device lambdas.
    requires("^kokkos+cuda_lambda", when="^kokkos+cuda")
    depends_on("googletest", when="+tests")
    depends_on("cli11", when="+perf")
    depends_on("mpi", when="+mpi")
    depends_on("kokkos-kernels@4.5:", when="+kokkoskernels")

    def cmake_args(self):
        return [
            self.define("CMAKE_CXX_COMPILER", self.spec["kokkos"].kokkos_cxx),
            self.define("Kokkos_ROOT", self.spec["kokkos"].prefix),
            self.define_from_variant("Ordo_ENABLE_TESTS", "tests"),
            self.define_from_variant("Ordo_ENABLE_PERF_TESTS", "perf"),
            self.define_from_variant("Ordo_ENABLE_DEBUG_CHECKS", "debug_checks"),
            self.define_from_variant("Ordo_ENABLE_MPI", "mpi"),
            self.define_from_variant("Ordo_ENABLE_KOKKOSKERNELS", "kokkoskernels"),
            self.define_from_variant("Ordo_ENABLE_CUB", "cub"),
        ]

    @run_after("install")
    def copy_consumer_test(self):
        cache_extra_test_sources(self, [join_path("cmake", "consumer")])

    def test_consumer(self):
        """build and run an out-of-tree project against the installed Ordo"""
        source = join_path(self.test_suite.current_test_cache_dir, "cmake", "consumer")
        build = "consumer-build"
        cmake = which(self.spec["cmake"].prefix.bin.cmake)
        cmake(
            "-S",
            source,
            "-B",
            build,
            f"-DCMAKE_CXX_COMPILER={self.spec['kokkos'].kokkos_cxx}",
            f"-DCMAKE_PREFIX_PATH={self.prefix};{self.spec['kokkos'].prefix}",
            f"-DORDO_CONSUMER_MPI={'ON' if self.spec.satisfies('+mpi') else 'OFF'}",
        )
        cmake("--build", build)
        ctest = which(self.spec["cmake"].prefix.bin.ctest)
        ctest("--test-dir", build, "--output-on-failure")
