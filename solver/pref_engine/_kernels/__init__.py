"""The engine's kernels: the modules of ``pref_engine`` compiled once per CPU level, one
package each (setup.py builds them from copies of ``solver/pref_engine``'s sources;
``pref_engine`` imports the one it picks)."""
