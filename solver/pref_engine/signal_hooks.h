/* The engine's hook in front of Python's Ctrl-C and SIGTERM handlers (engine.pyx).
 *
 * POSIX: the disposition is read first and changed only where it is a handler (Python's),
 * never where it is "ignore" or the default action, not even for a moment; the hook takes
 * over the handler's flags and mask. Python installs its handlers without SA_RESTART, so
 * that a blocking call (a read of standard input) returns EINTR and the KeyboardInterrupt
 * comes at once: signal() would install the hook with SA_RESTART (glibc's BSD semantics),
 * and a Ctrl-C while a batch waits for its next line would wait for that line.
 * Windows: signal() alone (no flags, no sigaction); the disposition is set back at once
 * where it was not a handler.
 */
#ifndef PREF_SOLVER_SIGNAL_HOOKS_H
#define PREF_SOLVER_SIGNAL_HOOKS_H

#include <signal.h>
#include <stddef.h>

typedef void (*pref_signal_handler)(int);

/* POSIX reads a disposition without changing it, so every Engine call checks that the hook is
 * still in front; Windows can only swap (the hook would stand for a moment over "ignore" or the
 * default action at every call): there, only when an Engine is made. */
#ifdef _WIN32
#define PREF_SIGNALS_CHECKED_EACH_CALL 0
#else
#define PREF_SIGNALS_CHECKED_EACH_CALL 1
#endif

/* Put ``hook`` in front of the handler of ``signum``, that handler stored in ``*saved`` first
 * (POSIX: before the hook goes in, so a signal in between finds it and reaches Python).
 * Nothing happens where the disposition is not a one-argument handler, or is ``hook``
 * already (POSIX: one read of the disposition, cheap enough for every Engine call). */
static void pref_chain_signal(int signum, pref_signal_handler hook, pref_signal_handler volatile *saved) {
#ifdef _WIN32
    pref_signal_handler previous = signal(signum, hook);
    if (previous == hook)
        return;
    if (previous == SIG_DFL || previous == SIG_IGN || previous == SIG_ERR || previous == NULL) {
        signal(signum, previous);
        return;
    }
    *saved = previous;
#else
    struct sigaction current, mine;
    if (sigaction(signum, NULL, &current) != 0 || (current.sa_flags & SA_SIGINFO))
        return;
    if (current.sa_handler == hook || current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN
            || current.sa_handler == NULL)
        return;
    *saved = current.sa_handler;
    mine = current;
    mine.sa_handler = hook;
    sigaction(signum, &mine, NULL);
#endif
}

#endif
