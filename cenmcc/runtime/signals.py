"""SIGINT and SIGTERM: raised as one exception, or held back over steps that must not be cut.

Every command stops the same way. :func:`interrupts_raise` turns SIGINT (Ctrl-C) and SIGTERM
into :class:`Interrupted` in the main thread; the command prints one line (:func:`report`) and
exits with :attr:`Interrupted.status`, 128 + the signal's number (130 for SIGINT, 143 for
SIGTERM), as a shell reports a process that a signal stopped. :func:`signals_deferred` holds
both back over a step that must not be cut in two (the renames of a swap, the start of a dask
cluster). No library does this: joblib and dask stop their workers on KeyboardInterrupt, but
Python raises it for SIGINT alone (SIGTERM ends the process without any cleanup, its staged
outputs left behind), and nothing defers a signal over a block.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

#: The signals that stop a command cleanly.
INTERRUPTS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived.

    Parameters
    ----------
    signum : int
        The signal's number.
    unchanged : pathlib.Path, optional
        The output that the interrupted step left as it was, for the message.
    """

    def __init__(self, signum: int, unchanged: Path | None = None):
        super().__init__(signum)
        self.signum = signum
        self.unchanged = unchanged

    @property
    def name(self) -> str:
        """The signal's name, ``"SIGINT"`` or ``"SIGTERM"``."""
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        """The exit status of a command it stopped: 128 + the signal's number."""
        return 128 + self.signum


def _raise_interrupted(signum: int, frame) -> None:
    for sig in INTERRUPTS:  # a second Ctrl-C while the first is handled changes nothing
        signal.signal(sig, signal.SIG_IGN)
    raise Interrupted(signum)


@contextmanager
def interrupts_raise() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` in the main thread while the block runs.

    The first signal raises; later ones are ignored from then on, so neither the cleanup it
    starts nor the process's exit is itself interrupted (a third quick Ctrl-C prints no
    traceback). Installed explicitly, since a process started in the background by a shell
    inherits SIGINT ignored, and Python then never raises KeyboardInterrupt.
    """
    previous = {sig: signal.signal(sig, _raise_interrupted) for sig in INTERRUPTS}
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is _raise_interrupted:  # no signal came
            for sig, handler in previous.items():
                signal.signal(sig, handler)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends, then deliver them (main thread only).

    Python runs signal handlers in the main thread whichever thread the kernel picked, so
    recording them here (rather than masking, which covers one thread only) defers them
    reliably. Each signal that arrived meanwhile is raised once again when the block ends, to
    the handler in place before it. Outside the main thread, where handlers cannot be set, it
    defers nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = {
        sig: signal.signal(sig, lambda signum, frame: received.append(signum)) for sig in INTERRUPTS
    }
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(received):
            signal.raise_signal(sig)


def report(err: Interrupted, what: str, start: float) -> int:
    """Say in one line on stderr what a signal interrupted; the exit status 128 + its number.

    Parameters
    ----------
    err : Interrupted
        The interruption, with the output it left unchanged, if any.
    what : str
        What it interrupted (the command line, say).
    start : float
        ``time.perf_counter()`` when that began.
    """
    kept = f"; {err.unchanged} unchanged (no partial outputs)" if err.unchanged else ""
    print(
        f"{err.name}: interrupted {what} after {time.perf_counter() - start:.1f} s{kept}",
        file=sys.stderr,
        flush=True,
    )
    return err.status


def run_command_line(
    prog: str, run: Callable[[list[str]], int], argv: list[str] | None = None
) -> int:
    """``run(argv)`` with SIGINT and SIGTERM raising :class:`Interrupted`; its exit status.

    ``argv`` defaults to ``sys.argv[1:]``. An interruption is said in one line naming the
    command line, ``prog`` and ``argv`` (:func:`report`), and its status returned.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    start = time.perf_counter()
    with interrupts_raise():
        try:
            return run(argv)
        except Interrupted as err:
            return report(err, f"`{prog} {' '.join(argv)}`", start)
