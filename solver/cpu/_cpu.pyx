"""Which engine kernels this CPU can run (``pref_engine/__init__.py`` picks the fastest).

CPUID and the OS's AVX state are read in ``cpu_features.h``; this module is compiled for the
baseline, like the Python that imports it, so it runs on every CPU.
"""

cdef extern from "cpu_features.h":
    int pref_cpu_runs_x86_64_v3() nogil


def supported_kernels():
    """The kernels this CPU can run, fastest first ("native": built for this machine, if built)."""
    if pref_cpu_runs_x86_64_v3():
        return ("native", "modern", "baseline")
    return ("native", "baseline")
