"""The ``pref`` program: runs the click group with one rule for errors and interruptions.

* Option and usage errors (click's): one line ``pref: error: ...``, exit status 2.
* Ctrl-C or SIGTERM, at any moment once the handlers are in place (the commands' imports
  included): no traceback; a command that has a partial result prints it marked partial;
  then one line ``pref: interrupted: ...`` on standard error and exit status 130.
  A signal whose handler runs inside a finaliser (where its KeyboardInterrupt cannot
  propagate) is not lost: the next parallel run starts interrupted.
* A signal that comes once the outcome is decided (the result written, the status known)
  changes nothing: the process ends with that status. (The interpreter's shutdown restores
  the signals' default action: untouched, a SIGTERM in its last milliseconds would kill the
  process, status 143, after a whole result.)
* Standard output closed early by its reader (``pref ... | head``): no traceback, status 1.

Only ``os``, ``sys`` and ``signal`` are imported before the handlers are in place: before
that, in the interpreter's own start-up (some tens of milliseconds), a signal ends the
process by its default action, before anything is done.
"""

from __future__ import annotations

import os
import signal
import sys

INPUT_ERROR = 2
INTERRUPTED = 130
#: Standard output closed by its reader before the end (Python's advice for a broken pipe).
OUTPUT_CLOSED = 1


#: Set by :func:`console_main` once the outcome is decided: a stop signal then raises nothing.
_outcome_decided = False


def _raise_keyboard_interrupt(signum, frame) -> None:
    if not _outcome_decided:
        raise KeyboardInterrupt


#: (pyanalyzer.engines.executor takes the signals whose handlers say so.)
_raise_keyboard_interrupt.raises_keyboard_interrupt = True


def install_sigterm_handler() -> None:
    """SIGTERM is handled like Ctrl-C: KeyboardInterrupt in the main thread (and the engine,
    which chains this handler, stops a search under way). Ctrl-C's own handler (Python's) is
    replaced by the same one, which raises nothing once the outcome is decided. A signal
    ignored (SIGINT in a shell's background job) or given its own handler is left alone."""
    if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _raise_keyboard_interrupt)


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


def _flush_stdout(status: int) -> int:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return status or OUTPUT_CLOSED
    except (OSError, ValueError):
        pass
    return status


def _threads_hold_the_exit() -> bool:
    """Whether a thread that the interpreter's shutdown waits for (not a daemon) still runs."""
    threading = sys.modules.get("threading")
    if threading is None:
        return False
    main = threading.main_thread()
    return any(thread is not main and not thread.daemon and thread.is_alive() for thread in threading.enumerate())


def ignore_stop_signals() -> bool:
    """Ctrl-C and SIGTERM ignored to the process's end (its outcome decided). Blocked first in
    this thread, so that none is noted between the two steps. Left alone (False) while a
    thread the shutdown waits for still runs: a signal must still be able to end that wait."""
    if _threads_hold_the_exit():
        return False
    stop = [getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)]
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, stop)
    for signum in stop:
        signal.signal(signum, signal.SIG_IGN)   # (runs a handler already due first: it raises nothing now)
    return True


def _keep_dropped_stops(previous_hook):
    """An unraisable-exception hook. A stop signal's handler that runs inside a finaliser or
    a weakref callback raises its KeyboardInterrupt where it cannot propagate: Python prints a
    traceback and goes on, the stop lost. Here it is kept for the next parallel run instead,
    which then starts interrupted (the enumerations, tables, puzzles; a second signal stops
    any command as usual). Anything else goes to ``previous_hook``."""

    def hook(unraisable) -> None:
        if issubclass(unraisable.exc_type, KeyboardInterrupt):
            if not _outcome_decided:
                from pyanalyzer.engines.executor import stop_next_run

                stop_next_run()
            return
        previous_hook(unraisable)

    return hook


def console_main() -> None:
    """The ``pref`` console script."""
    global _outcome_decided
    sys.unraisablehook = _keep_dropped_stops(sys.unraisablehook)
    status = None
    try:
        status = run()
        _outcome_decided = True
        status = _flush_stdout(status)
    except KeyboardInterrupt:   # (before run() took over, or Python's own SIGINT handler)
        if status is None:
            _note("pref: interrupted: stopped before any result was complete")
            status = INTERRUPTED
    _outcome_decided = True
    if not ignore_stop_signals():   # a thread holds the exit: a signal may still end the wait
        _outcome_decided = False
    sys.exit(status)
