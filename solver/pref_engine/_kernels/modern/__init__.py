"""The engine compiled for x86-64-v3 (Haswell and later: BMI2, POPCNT, AVX2)."""
