"""Build the Cython engine in solver/; everything else is declared in pyproject.toml.

The engine is compiled more than once from the same sources, one complete copy per CPU level
(a *kernel*: ``pref_engine._kernels.<name>``), and ``pref_engine`` picks the fastest one the
CPU supports when it is imported (``solver/pref_engine/__init__.py``):

* ``modern``: x86-64-v3 (Haswell, 2013, and later: BMI2's PEXT/PDEP, POPCNT, AVX2);
* ``baseline``: any x86-64, or the target's default elsewhere (ARM64), with the portable
  fallbacks of ``bits.h``;
* ``native``: ``PREF_NATIVE=1``, a developer build for this machine alone (``-march=native``),
  built instead of the others.

``PREF_KERNELS=baseline`` (comma-separated names) builds only the kernels named;
``PREF_DEBUG_INFO=0`` compiles without debug information.
"""

import os
import re
import sys
import sysconfig
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
ENGINE = HERE / "solver" / "pref_engine"
# The kernels' sources: copies of solver/pref_engine/*.pyx, *.pxd, *.h written here at build time,
# one package per kernel, so that each copy's modules are named (and cimport each other) in it.
KERNEL_SOURCES = Path("build") / "kernel_sources"

MSVC = sys.platform == "win32"
# The target, not the build machine (cibuildwheel cross-compiles macOS arm64 wheels on x86-64 and
# says so in ARCHFLAGS and _PYTHON_HOST_PLATFORM, which sysconfig reads).
X86_64 = (sysconfig.get_platform().lower().endswith(("x86_64", "amd64"))
          and "arm64" not in os.environ.get("ARCHFLAGS", ""))
OPTIMIZE = ["/O2"] if MSVC else ["-O3"]
# PREF_DEBUG_INFO=0: no debug information (gcc/clang -g0, after Python's own -g): the same machine
# code, about a third less compile time (.ci/wheel_check builds its wheel so).
if not MSVC and os.environ.get("PREF_DEBUG_INFO", "1") == "0":
    OPTIMIZE.append("-g0")
# Compiler flags of each kernel. PREF_USE_BMI2 tells bits.h that the kernel may use PEXT/PDEP and
# POPCNT (MSVC's /arch:AVX2 implies them but defines no __BMI2__).
KERNEL_FLAGS = {
    "modern": ["/arch:AVX2", "/DPREF_USE_BMI2"] if MSVC else ["-march=x86-64-v3", "-mtune=generic"],
    "baseline": [] if MSVC else (["-march=x86-64", "-mtune=generic"] if X86_64 else []),
    "native": ["-march=native"],
}


def kernels_to_build() -> list[str]:
    if os.environ.get("PREF_KERNELS"):
        names = [name.strip() for name in os.environ["PREF_KERNELS"].split(",") if name.strip()]
        unknown = sorted(set(names) - set(KERNEL_FLAGS))
        if unknown:
            sys.exit(f"setup.py: PREF_KERNELS: unknown kernel {unknown[0]!r} (known: {', '.join(KERNEL_FLAGS)})")
        return names
    if os.environ.get("PREF_NATIVE", "0") == "1":
        return ["native"]
    return ["modern", "baseline"] if X86_64 else ["baseline"]


CIMPORT = re.compile(r"^(\s*(?:from|cimport)\s+)pref_engine\.", re.MULTILINE)


def write_kernel_sources(kernel: str) -> Path:
    """Copy the engine's sources into the package of ``kernel`` (absolute cimports of
    ``pref_engine.X`` become ``pref_engine._kernels.<kernel>.X``); returns its folder."""
    package = KERNEL_SOURCES / "pref_engine" / "_kernels" / kernel
    package.mkdir(parents=True, exist_ok=True)
    for folder in (package.parent.parent, package.parent, package):
        init = folder / "__init__.py"
        if not init.exists():
            init.write_text("", encoding="utf-8")
    for source in sorted([*ENGINE.glob("*.pyx"), *ENGINE.glob("*.pxd"), *ENGINE.glob("*.h")]):
        text = source.read_text(encoding="utf-8")
        if source.suffix in (".pyx", ".pxd"):
            text = CIMPORT.sub(rf"\1pref_engine._kernels.{kernel}.", text)
        target = package / source.name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")   # unchanged files keep their time: no rebuild
    return package


def kernel_extensions(kernel: str) -> list[Extension]:
    package = write_kernel_sources(kernel)
    return [
        Extension(
            f"pref_engine._kernels.{kernel}.{pyx.stem}",
            [str(pyx)],
            include_dirs=[str(package)],
            extra_compile_args=[*OPTIMIZE, *KERNEL_FLAGS[kernel]],
        )
        for pyx in sorted(package.glob("*.pyx"))
    ]


# A .pyx file since removed from the engine must not be built from an old copy.
for stale in KERNEL_SOURCES.glob("pref_engine/_kernels/*/*.pyx"):
    if not (ENGINE / stale.name).exists():
        stale.unlink()

extensions = [extension for kernel in kernels_to_build() for extension in kernel_extensions(kernel)]
# The CPU check that picks a kernel (kept apart from the engine, which is compiled per kernel):
# compiled for the baseline, like the Python that imports it.
CPU_CHECK = Path("solver") / "cpu"
extensions.append(Extension("pref_engine._cpu", [str(CPU_CHECK / "_cpu.pyx")],
                            include_dirs=[str(CPU_CHECK)], depends=[str(CPU_CHECK / "cpu_features.h")],
                            extra_compile_args=OPTIMIZE))



class ParallelBuildExt(build_ext):
    """Compile the extensions on every core (each kernel is a full copy of the engine)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(
    cmdclass={"build_ext": ParallelBuildExt},
    ext_modules=cythonize(
        extensions,
        language_level=3,
        nthreads=os.cpu_count() or 1,
        include_path=[str(KERNEL_SOURCES)],
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
