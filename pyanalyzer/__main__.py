"""``python -m pyanalyzer`` runs the ``pref`` tool."""

from .cli import main

main()
