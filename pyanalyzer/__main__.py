"""``python -m pyanalyzer`` runs the ``pref`` tool."""

from .runner import console_main

if __name__ == "__main__":
    console_main()
