"""The ``pref`` command line (click): :mod:`.runner` (the program: errors and interruptions),
:mod:`.main` (the command group), one module per command family, and their shared options,
batch input and progress display."""
