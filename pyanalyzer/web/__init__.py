"""The local web analyzer (``pref serve``): a Starlette application over the analyzers, the
engine in a bounded pool of worker threads, the diagrams drawn by :mod:`pyanalyzer.render.svg`."""
