"""Preferans analyzers: all-pass, contracts and the talon's discard, the defenders' whist,
misère (open and with an unknown discard), odds over unknown cards, puzzles."""
