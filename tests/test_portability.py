"""What the wheels for other systems rely on, checked from this machine where it can be.

* The engine's C headers (``bits.h``: popcount, bit scans, PEXT/PDEP; ``huge_pages.h``: the
  tables' memory) by ``tests/c/portable_check.c``, compiled for each target a compiler here
  builds for: the baseline and modern x86-64 levels, ARM64 (run under qemu-aarch64), and
  Windows (MinGW: compiled only, nothing here runs it). Each target skips, saying why, when its
  compiler is absent (Debian: gcc-aarch64-linux-gnu, gcc-mingw-w64-x86-64, qemu-user).
* The Linux table allocator asks for huge pages (``madvise`` in the built module).
* Worker processes fall back to threads where there is no fork (Windows).
"""

from __future__ import annotations

import platform
import shutil
import subprocess
from pathlib import Path

import pref_engine
import pytest

from pyanalyzer.engines import executor

CHECKOUT = Path(__file__).resolve().parent.parent
HEADERS = CHECKOUT / "solver" / "pref_engine"
CHECK = CHECKOUT / "tests" / "c" / "portable_check.c"
X86_64 = platform.machine() in ("x86_64", "AMD64")


def compile_check(compiler: str, flags: list[str], output: Path) -> None:
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not installed")
    result = subprocess.run([compiler, "-O2", "-std=c99", "-Wall", "-Werror", *flags, f"-I{HEADERS}", str(CHECK),
                             "-o", str(output)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("level", ["x86-64", "x86-64-v3"])
def test_the_bit_helpers_and_the_allocator_on_this_machine(tmp_path, level):
    if not X86_64:
        pytest.skip("x86-64 levels: this machine is not x86-64")
    if level == "x86-64-v3" and "modern" not in pref_engine.supported_kernels():
        pytest.skip("this CPU cannot run x86-64-v3 code")
    compile_check("cc", [f"-march={level}"], tmp_path / "check")
    result = subprocess.run([str(tmp_path / "check")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.startswith("ok "), result.stdout


def test_the_bit_helpers_and_the_allocator_on_arm64(tmp_path):
    """ARM64 has no PEXT/PDEP: bits.h's portable loops, compiled for ARM64 and run emulated."""
    if shutil.which("qemu-aarch64") is None:
        pytest.skip("qemu-aarch64 not installed (qemu-user)")
    compile_check("aarch64-linux-gnu-gcc", ["-static"], tmp_path / "check")
    result = subprocess.run(["qemu-aarch64", str(tmp_path / "check")], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0 and result.stdout.startswith("ok "), result.stdout


def test_the_headers_compile_for_windows(tmp_path):
    """The Windows branch of huge_pages.h (VirtualAlloc) compiles (MinGW's headers and GCC)."""
    compile_check("x86_64-w64-mingw32-gcc", [], tmp_path / "check.exe")
    assert (tmp_path / "check.exe").stat().st_size > 0


def test_the_linux_table_asks_for_huge_pages():
    if platform.system() != "Linux" or shutil.which("nm") is None:
        pytest.skip("Linux with binutils' nm only")
    kernel_folder = Path(pref_engine.__file__).parent / "_kernels" / pref_engine.KERNEL
    module = next(kernel_folder.glob("transtable*.so"))
    symbols = subprocess.run(["nm", "-D", "--undefined-only", str(module)], capture_output=True, text=True,
                             check=True).stdout
    assert "madvise" in symbols and "mmap" in symbols


def test_worker_processes_become_threads_without_fork(monkeypatch):
    import multiprocessing

    assert executor.Executor(2, factory=object, processes=True).processes == ("fork" in
                                                                               multiprocessing.get_all_start_methods())
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    pool = executor.Executor(2, factory=object, processes=True)
    assert pool.processes is False
    with pool.map(lambda state, unit: unit * unit, range(5)) as run:
        assert list(run) == [0, 1, 4, 9, 16]
