"""Independent tasks run in parallel: joblib's loky or threading backends, or a dask cluster.

Randomness never depends on the schedule: a run's seed is split with
``numpy.random.SeedSequence(seed).spawn(n)`` into one stream per task, and every result comes
back with its task's index, so whatever consumes them can put them in a fixed order. The
output is then bit-identical for any number of workers and any backend.

- ``loky`` (the default): worker processes on this machine (joblib). A worker that loses this
  process (killed by the out-of-memory killer, say) exits within a second.
- ``threading``: threads of this process; NumPy releases the GIL in its kernels.
- ``dask``: a dask.distributed cluster, the one at ``scheduler`` or a local one. The tasks are
  sent as bytes, and code that the cluster cannot import (a generator in the user's own
  module) is sent by value, so the scheduler and workers need nothing but cenmcc (see
  :mod:`cenmcc.simulation.cluster`).
"""

from __future__ import annotations

import os
import signal
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager

import numpy as np
from tqdm import tqdm

from .tasks import ParallelError, TaskError, check_picklable, run_task

BACKENDS = ("loky", "threading", "dask")


def spawn_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent seed sequences derived from ``seed`` (one per task)."""
    return np.random.SeedSequence(seed).spawn(n)


def chunk_sizes(n: int, chunk: int) -> list[int]:
    """Split ``n`` items into chunks of ``chunk`` items (the last one may be smaller)."""
    if n < 0 or chunk < 1:
        raise ValueError(f"need n >= 0 and chunk >= 1, got n={n}, chunk={chunk}")
    return [min(chunk, n - start) for start in range(0, n, chunk)]


class CpuMeter:
    """The CPU seconds the tasks of a run used, wherever they ran (summed as they come back)."""

    def __init__(self):
        self.seconds = 0.0


def map_tasks(func: Callable, tasks: Iterable, **options) -> list:
    """``[func(task) for task in tasks]``, run in parallel (:func:`iter_tasks`), in task order."""
    tasks = list(tasks)
    out: list = [None] * len(tasks)
    for index, result in iter_tasks(func, tasks, **options):
        out[index] = result
    return out


def iter_tasks(
    func: Callable,
    tasks: Iterable,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    desc: str = "tasks",
    quiet: bool = False,
    unit: str = "tasks",
    sizes: Sequence[int] | None = None,
    by_value: Iterable = (),
    meter: CpuMeter | None = None,
) -> Iterator[tuple[int, object]]:
    """Yield ``(index, func(task))`` for each task, as the workers finish them.

    A consumer that reduces each result as it arrives (and drops it) keeps the memory of a run
    flat in the number of tasks.

    Parameters
    ----------
    func : callable
        A picklable function of one task.
    tasks : iterable
        The tasks, each carrying everything ``func`` needs, including its own seed.
    jobs : int, default -1
        Number of workers; -1 for all cores. With ``jobs=1`` and ``backend="loky"`` the tasks run
        in this process. Ignored on an existing dask cluster (its workers are the workers).
    backend : {"loky", "threading", "dask"}
        ``"dask"`` uses a dask.distributed cluster: the one at ``scheduler``, or a local one with
        ``jobs`` single-threaded workers.
    scheduler : str, optional
        Address of a running dask.distributed scheduler (``"tcp://host:8786"``).
    desc : str
        What the tasks are, for the messages and the progress bar (tqdm's, drawn on a terminal
        only).
    quiet : bool
        Turns the progress bar off.
    unit, sizes : str, sequence of int, optional
        Progress counted in ``unit`` (matrices), ``sizes[i]`` of them in task ``i``.
    by_value : iterable
        Objects the tasks carry whose code a dask cluster may lack (a user's generator): their
        modules are sent by value where the cluster cannot import them.
    meter : CpuMeter, optional
        Adds up the CPU time of the tasks (each measures its own thread's).

    Raises
    ------
    ParallelError
        If a task fails (naming its index and its error), a worker dies (naming the first task
        lost and the cause; dask retries a task whose worker was lost first), or the tasks
        cannot be pickled or read where they run. Never hangs.

    Notes
    -----
    The workers are shut down when the generator ends, whatever ends it: exhaustion, an error,
    KeyboardInterrupt, or ``close()`` by a consumer that stops early.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler is only used with backend='dask'")
    if isinstance(jobs, bool) or not isinstance(jobs, int | np.integer) or jobs == 0 or jobs < -1:
        raise ValueError(f"jobs must be a positive number of workers or -1, got {jobs!r}")
    tasks: Sequence = list(tasks)
    progress = tqdm(
        total=len(tasks) if sizes is None else sum(sizes),
        desc=desc,
        unit=unit,
        unit_scale=sizes is not None,
        disable=True if quiet else None,  # None: drawn only on a terminal
    )
    with ExitStack() as stack:
        stack.callback(progress.close)
        if backend == "dask":
            from .cluster import dask_results

            results = dask_results(func, tasks, jobs, scheduler, list(by_value), stack)
        else:
            results = _joblib_results(func, tasks, jobs, backend, stack)
        done = set()
        try:
            for index, result, cpu in results:
                done.add(index)
                progress.update(1 if sizes is None else sizes[index])
                if meter is not None:
                    meter.seconds += cpu
                yield index, result
        except TaskError as err:
            error = ParallelError(f"{desc}: task {err.index} of {len(tasks)} failed ({err})")
            if err.trace:
                error.add_note(f"where the task failed:\n{err.trace}")
            raise error from None
        except ParallelError:
            raise
        except Exception as err:  # the worker itself died (e.g. killed, out of memory)
            lost = min(set(range(len(tasks))) - done, default=len(tasks))
            raise ParallelError(
                f"{desc}: task {lost} of {len(tasks)} was lost, the worker running it died "
                f"({_cause(err)}); {len(done)} tasks had completed"
            ) from err


def _joblib_results(func, tasks, jobs, backend, stack) -> Iterator[tuple[int, object]]:
    """joblib's results as ``(index, result)``, in the order the workers finish them."""
    import joblib

    if backend == "loky" and jobs != 1:
        check_picklable(func, tasks[:1])
    parallel = joblib.Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered")
    parent = os.getpid()
    calls = (joblib.delayed(run_task)(func, i, task, parent) for i, task in enumerate(tasks))
    # joblib starts the workers (if none are running) as it dispatches the first tasks.
    with interrupts_ignored_by_new_workers():
        results = parallel(calls)
    # Closing joblib's generator aborts the tasks still queued or running (loky kills its
    # workers), whether the run ends, fails, is interrupted or is closed early.
    stack.callback(_close, results)
    return results


@contextmanager
def interrupts_ignored_by_new_workers():
    """Ignore SIGINT while the block starts worker processes (main thread only), which inherit it.

    Only an ignored disposition survives the ``exec`` that starts a worker (a handler does
    not), so the workers started meanwhile never act on SIGINT: a Ctrl-C, which the terminal
    sends to every process of the group, reaches the main process alone, which then stops its
    workers in order. Starting loky's workers takes tens of milliseconds; a SIGINT that arrives
    during them is lost, and Ctrl-C must be pressed again.

    Measured needed: loky's own shutdown stops the workers, but without this block each worker
    also takes the terminal's SIGINT and prints a KeyboardInterrupt traceback, and
    ``test_a_signal_stops_the_run_and_keeps_the_previous_outputs[2-loky]`` fails.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _close(results) -> None:
    """Close joblib's result generator, without its warning about tasks cancelled early.

    Stopping early is this API's purpose (a consumer that has what it needs), not a mistake. The
    filter is set in the consuming thread, around the close only, never inside a task. Measured
    needed: without it, ``test_closing_the_generator_early_stops_the_workers`` fails on joblib's
    ``UserWarning: 4 tasks ... have been cancelled``.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*(not used|cancelled)", category=UserWarning)
        results.close()


def _cause(err: Exception) -> str:
    """What killed a worker, from joblib's, loky's or dask's error."""
    text = f"{type(err).__name__}: {err}"
    if "SIGKILL" in text or "-9" in text:
        text += "; SIGKILL is what the kernel's out-of-memory killer sends"
    return text
