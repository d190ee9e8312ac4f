"""Running one task, for every backend: its errors, and a guard against an orphaned worker.

:mod:`.parallel` dispatches the tasks (joblib's loky or threading backends) and :mod:`.cluster`
sends them to a dask cluster; both run each one with :func:`run_task`, which tags whatever it
raises with the task's index (:class:`TaskError`), and both check first that the tasks can be
pickled (:func:`check_picklable`). Any failure reaches the caller as :class:`ParallelError`.
"""

from __future__ import annotations

import os
import threading
import time
import traceback
from collections.abc import Callable, Sequence


class ParallelError(RuntimeError):
    """A task failed, its worker died, or the cluster cannot run it; the message says which."""


def check_picklable(func: Callable, tasks: Sequence) -> None:
    """Raise ParallelError, naming what fails, if ``func`` or a task cannot be pickled.

    Measured needed: without it, loky reports a worker lost to a ``PicklingError`` that names
    nothing, and ``test_an_unpicklable_generator_is_named_at_once`` fails.
    """
    import cloudpickle

    for what, obj in (("the task function", func), *(("a task", t) for t in tasks)):
        try:
            cloudpickle.dumps(obj)
        except Exception as err:
            raise ParallelError(
                f"{what} cannot be pickled to be sent to the workers ({type(err).__name__}: "
                f"{err}); everything a task carries (a generator, measure or study, and what "
                "they hold) must be picklable: no open files, locks or connections"
            ) from err


class TaskError(Exception):
    """A task raised; carries its index (results arrive as they finish) and the traceback."""

    def __init__(self, index: int, message: str, trace: str = ""):
        super().__init__(index, message, trace)  # rebuilt from them when dask unpickles it
        self.index, self.trace = index, trace

    def __str__(self) -> str:
        return self.args[1]


def run_task(func: Callable, index: int, task, parent: int | None = None):
    """Run one task where it was sent, returning ``(index, result, CPU seconds it took)``.

    Any error, ``SystemExit`` and ``KeyboardInterrupt`` raised by the task included, is
    tagged with the task's index, its notes (the context that the engine adds to a user's
    error: which measure failed on which chunk) leading its message. In a worker process
    whose parent is ``parent`` (this run's main process), a watchdog makes the worker exit if
    the parent dies.
    """
    if parent is not None and os.getpid() != parent and os.getppid() == parent:
        _watch_parent(parent)
    start = time.thread_time()
    try:
        return index, func(task), time.thread_time() - start
    except (Exception, SystemExit, KeyboardInterrupt) as err:
        kind = type(err).__name__
        detail = f"{kind}: {err}" if str(err) else kind
        if not isinstance(err, Exception):
            detail += " raised inside the task (a task must return or raise an error)"
        detail = ": ".join([*reversed(getattr(err, "__notes__", [])), detail])
        raise TaskError(index, detail, traceback.format_exc()) from None


#: Seconds between two checks that a worker's parent is alive.
WATCH_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """Once per process: exit at once when ``parent`` dies (this worker is then re-parented).

    Measured needed: loky's workers notice a lost parent only when their running task ends,
    so without it ``test_loky_workers_exit_within_seconds_of_losing_their_parent`` fails (its
    workers, in a task of 30 s, outlive a killed parent by more than 5 s).
    """
    global _watching
    if _watching:
        return
    _watching = True

    def watch():
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)  # nobody is left to take the results

    threading.Thread(target=watch, name="cenmcc-parent-watch", daemon=True).start()


_watching = False
