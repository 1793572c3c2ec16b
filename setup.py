"""Build the Cython engine in solver/; everything else is declared in pyproject.toml."""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent

# The engine uses BMI2 (PEXT/PDEP) and POPCNT when the CPU has them: build for
# this machine unless PREF_NATIVE=0 (portable build, e.g. for a wheel).
NATIVE = ["-march=native"] if os.environ.get("PREF_NATIVE", "1") != "0" else []

# One extension per .pyx file: the folder listing of solver/ is the engine's outline.
extensions = [
    Extension(
        f"solver.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        extra_compile_args=["-O3", *NATIVE],
    )
    for pyx in sorted((HERE / "solver").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
