# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for Ordo: sorted-data primitives for Kokkos.
#
#   spack repo add Spack
#   spack install ordo+openmp                          # Kokkos with its OpenMP backend
#   spack install ordo+cuda cuda_arch=90 ^kokkos+wrapper   # Kokkos' CUDA backend for the H100
#   spack install ordo+mpi+openmp ^openmpi             # with Ordo::MPI
#   spack install ordo@0.3.0+mpi+nccl+cuda cuda_arch=90 ^kokkos+wrapper   # and its NCCL exchange
#   spack install ordo@0.3.0+rocm amdgpu_target=gfx90a     # Kokkos' HIP backend (compiled, not run)
#   spack test run ordo                                # cmake/consumer against the prefix

from spack.package import *

try:  # Spack 1.0 and later keep the build systems in the builtin repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
    from spack_repo.builtin.build_systems.rocm import ROCmPackage
except ImportError:  # earlier Spack exports them from spack.package
    pass


class Ordo(CMakePackage, CudaPackage, ROCmPackage):
    """Ordo: sort, segmented sort, merge, vectorized sorted search, compaction, set operations,
    joins and the load-balancing search for Kokkos, a distributed sort over MPI (+mpi) and CRS
    sorts for Kokkos Kernels (+kokkoskernels)."""

    homepage = "https://github.com/ordo-hpc/ordo"
    git = "https://github.com/ordo-hpc/ordo.git"

    maintainers("ordo-developers")
    license("BSD-3-Clause")

    test_requires_compiler = True

    version("main", branch="main")
    version("0.3.0", commit="7e2ce550d7919269c67c699302d73e2a03c84243")
    version("0.2.0", commit="10904a8689af8ed019eee89091d664a32fa055d6")
    version("0.1.0", commit="58cf3f0a43dd6a7d15e0300d1d2a5092b4b0024c")

    variant("tests", default=False, description="Build the unit tests (GoogleTest)")
    variant("perf", default=False, description="Build ordo-perf (CLI11)")
    variant(
        "debug_checks",
        default=False,
        description="Check preconditions such as sorted inputs in every build, not only in a consumer's Debug builds",
    )
    variant("mpi", default=False, description="Build packages/mpi: the distributed sort, Ordo::MPI")
    variant(
        "kokkoskernels",
        default=False,
        when="@0.2.0:",
        description="Build packages/kokkoskernels: CRS sorts, Ordo::KokkosKernels",
    )
    variant(
        "cub",
        default=True,
        when="@0.2.0: +cuda",
        description="Large sorts of arithmetic keys and merges of integer keys may take CUB",
    )

    variant(
        "nccl",
        default=False,
        when="@0.3.0: +mpi +cuda",
        description="Ordo::MPI moves keys between GPUs with NCCL",
    )

    variant(
        "rocprim",
        default=False,
        when="@0.3.0: +rocm",
        description="Large sorts of arithmetic keys may take rocPRIM's radix sort (not run on an "
        "AMD GPU yet)",
    )

    # Ordo runs on the backends of the Kokkos it is built with. These variants ask for one (the
    # way ArborX's recipe does); without any, Kokkos' own variants decide.
    kokkos_backends = {
        "serial": "Require Kokkos' Serial backend",
        "openmp": "Require Kokkos' OpenMP backend",
        "threads": "Require Kokkos' C++ threads backend",
    }
    for backend, description in kokkos_backends.items():
        variant(backend, default=False, description=description)
        depends_on(f"kokkos+{backend}", when=f"+{backend}")

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    depends_on("kokkos@4.5:")
    # +cuda (from CudaPackage) builds Kokkos' CUDA backend for the one cuda_arch given.
    depends_on("kokkos+cuda", when="+cuda")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    conflicts("+cuda", when="cuda_arch=none", msg="name the GPU: cuda_arch=90 for the H100")
    # +rocm (from ROCmPackage) builds Kokkos' HIP backend for the amdgpu_target given, as Kokkos'
    # own recipe takes it. Ordo compiles for HIP in CI; it has not run on an AMD GPU.
    depends_on("kokkos+rocm", when="+rocm")
    depends_on("hip", when="+rocm")
    for target in ROCmPackage.amdgpu_targets:
        depends_on(f"kokkos+rocm amdgpu_target={target}", when=f"+rocm amdgpu_target={target}")
    conflicts("+rocm", when="amdgpu_target=none", msg="name the GPU: amdgpu_target=gfx90a (MI250X)")
    conflicts("+cuda", when="+rocm", msg="one GPU backend")
    depends_on("rocprim", when="+rocprim")
    # Ordo's CUDA kernels are Kokkos lambdas: Kokkos 4 has them only with +cuda_lambda (Kokkos 5
    # always has them and no longer has the variant).
    requires("^kokkos+cuda_lambda", when="^kokkos@:4+cuda")
    depends_on("googletest", when="+tests")
    depends_on("cli11", when="+perf")
    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+nccl")
    depends_on("kokkos-kernels@4.5:", when="+kokkoskernels")

    def cxx_compiler(self):
        """Ordo's and its consumers' compiler: hipcc for Kokkos' HIP builds (as ArborX's recipe
        takes it), else the one Kokkos names (nvcc_wrapper for CUDA)."""
        if self.spec.satisfies("+rocm"):
            return self.spec["hip"].hipcc
        return self.spec["kokkos"].kokkos_cxx

    def cmake_args(self):
        args = [
            self.define("CMAKE_CXX_COMPILER", self.cxx_compiler()),
            self.define("Kokkos_ROOT", self.spec["kokkos"].prefix),
            self.define_from_variant("Ordo_ENABLE_TESTS", "tests"),
            self.define_from_variant("Ordo_ENABLE_PERF_TESTS", "perf"),
            self.define_from_variant("Ordo_ENABLE_DEBUG_CHECKS", "debug_checks"),
            self.define_from_variant("Ordo_ENABLE_MPI", "mpi"),
        ]
        if self.spec.satisfies("@0.2.0:"):
            args.append(self.define_from_variant("Ordo_ENABLE_KOKKOSKERNELS", "kokkoskernels"))
            args.append(self.define("Ordo_ENABLE_CUB", self.spec.satisfies("+cuda+cub")))
        if self.spec.satisfies("@0.3.0:"):
            args.append(self.define("Ordo_ENABLE_NCCL", self.spec.satisfies("+nccl")))
            args.append(self.define("Ordo_ENABLE_ROCPRIM", self.spec.satisfies("+rocprim")))
        if self.spec.satisfies("+nccl"):
            args.append(self.define("NCCL_ROOT", self.spec["nccl"].prefix))
        if self.spec.satisfies("+kokkoskernels"):
            args.append(self.define("KokkosKernels_ROOT", self.spec["kokkos-kernels"].prefix))
        return args

    @run_after("install")
    def copy_consumer_test(self):
        cache_extra_test_sources(self, [join_path("cmake", "consumer")])

    def consumer_cmake_args(self):
        """The configure arguments of the stand-alone test: the consumer asks for every component
        this build installed."""
        prefixes = [self.prefix, self.spec["kokkos"].prefix]
        if self.spec.satisfies("+kokkoskernels"):
            prefixes.append(self.spec["kokkos-kernels"].prefix)
        return [
            f"-DCMAKE_CXX_COMPILER={self.cxx_compiler()}",
            f"-DCMAKE_PREFIX_PATH={';'.join(str(p) for p in prefixes)}",
            f"-DORDO_CONSUMER_MPI={'ON' if self.spec.satisfies('+mpi') else 'OFF'}",
            "-DORDO_CONSUMER_KOKKOSKERNELS="
            + ("ON" if self.spec.satisfies("+kokkoskernels") else "OFF"),
        ]

    def test_consumer(self):
        """build and run an out-of-tree project against the installed Ordo"""
        source = join_path(self.test_suite.current_test_cache_dir, "cmake", "consumer")
        build = "consumer-build"
        cmake = which(self.spec["cmake"].prefix.bin.cmake)
        cmake("-S", source, "-B", build, *self.consumer_cmake_args())
        cmake("--build", build)
        ctest = which(self.spec["cmake"].prefix.bin.ctest)
        ctest("--test-dir", build, "--output-on-failure")
