"""The engine compiled for any x86-64 (or the platform's default, e.g. ARM64): portable bit tricks."""
