"""Build the Cython engine in solver/; everything else is declared in pyproject.toml."""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent

# The engine uses BMI2 (PEXT/PDEP) and POPCNT when the CPU has them: build for
# this machine unless PREF_NATIVE=0 (portable build, e.g. for a wheel).
NATIVE = ["-march=native"] if os.environ.get("PREF_NATIVE", "1") != "0" else []

# One extension per .pyx file: the folder listing of solver/pref_engine/ is the engine's
# outline. The package lives one level down (a "src layout"), so running from the checkout
# never imports an unbuilt engine instead of the installed one.
ENGINE = HERE / "solver" / "pref_engine"
extensions = [
    Extension(
        f"pref_engine.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        extra_compile_args=["-O3", *NATIVE],
    )
    for pyx in sorted(ENGINE.glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        include_path=[str(HERE / "solver")],
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
