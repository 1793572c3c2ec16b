"""The ``pref`` program: runs the click group with one rule for errors and interruptions.

* Option and usage errors (click's): one line ``pref: error: ...``, exit status 2.
* Ctrl-C or SIGTERM, at any moment (start-up included): no traceback; a command
  that has a partial result prints it marked partial; then one line
  ``pref: interrupted: ...`` on standard error and exit status 130.

* Standard output closed early by its reader (``pref ... | head``): no traceback, status 1.

Only ``os``, ``sys`` and ``signal`` are imported before the handlers are in place.
"""

from __future__ import annotations

import os
import signal
import sys

INPUT_ERROR = 2
INTERRUPTED = 130
#: Standard output closed by its reader before the end (Python's advice for a broken pipe).
OUTPUT_CLOSED = 1


def _raise_keyboard_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


#: (pyanalyzer.engines.executor takes the signals whose handlers say so.)
_raise_keyboard_interrupt.raises_keyboard_interrupt = True


def install_sigterm_handler() -> None:
    """SIGTERM is handled like Ctrl-C: KeyboardInterrupt in the main thread (and the engine,
    which chains this handler, stops a search under way)."""
    if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)


def _note(message: str) -> None:
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # standard error closed: nothing more to say
        pass


def run(argv: list[str] | None = None) -> int:
    """Run ``pref`` with ``argv`` (default: the command line); returns the exit status."""
    try:
        install_sigterm_handler()
        if os.environ.get("PREF_KERNEL"):   # a kernel forced but unknown, absent or unsupported: one line
            try:
                import pref_engine  # noqa: F401
            except ImportError as error:
                _note(f"pref: error: {error}")
                return INPUT_ERROR
        import click

        from pyanalyzer.cli.main import main

        args = sys.argv[1:] if argv is None else list(argv)
        try:
            with main.make_context("pref", args) as context:
                main.invoke(context)
        except click.exceptions.Exit as done:  # --help, --version
            return done.exit_code
        except click.ClickException as error:
            no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)
            if no_args is not None and isinstance(error, no_args):  # plain ``pref``: its help
                print(error.ctx.get_help())
                return 0
            message = " ".join(error.format_message().split())
            hint = ""
            if isinstance(error, click.UsageError) and error.ctx is not None:
                hint = f" (see '{error.ctx.command_path} --help')"
            _note(f"pref: error: {message}{hint}")
            return INPUT_ERROR
        except click.exceptions.Abort:  # click's own prompts (none today) on Ctrl-C or end of input
            _note("pref: interrupted: aborted")
            return INTERRUPTED
        return 0
    except KeyboardInterrupt:
        _note("pref: interrupted: stopped before any result was complete")
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away (``pref ... | head``): stop quietly
        _silence_stdout()
        return OUTPUT_CLOSED
    except SystemExit as done:
        code = done.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        _note(str(code))
        return 1


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that the interpreter's final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def console_main() -> None:
    """The ``pref`` console script."""
    status = run()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        status = status or OUTPUT_CLOSED
    except (OSError, ValueError):
        pass
    sys.exit(status)
