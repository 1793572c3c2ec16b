"""The engine compiled for the machine that built it (``PREF_NATIVE=1``: a developer build)."""
