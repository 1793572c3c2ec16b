"""``python -m pyanalyzer`` runs the ``pref`` tool."""

from pyanalyzer.cli.runner import console_main

if __name__ == "__main__":
    console_main()
