"""Build the Cython engine in solver/; everything else is declared in pyproject.toml."""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent

# One extension per .pyx file: the folder listing of solver/ is the engine's outline.
extensions = [
    Extension(
        f"solver.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        extra_compile_args=["-O3"],
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
