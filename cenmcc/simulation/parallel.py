"""Deterministic parallel execution of independent tasks with joblib (loky, threading or dask).

Randomness never depends on the schedule: a run's seed is split with
``numpy.random.SeedSequence(seed).spawn(n)`` into one independent stream per task (chunk), and
results come back in task order, so the output is bit-identical for any number of workers and any
backend, including a dask.distributed cluster.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress

import joblib
import numpy as np

from .signals import signals_deferred

BACKENDS = ("loky", "threading", "dask")


def spawn_seeds(seed: int, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent seed sequences derived from ``seed`` (one per task)."""
    return np.random.SeedSequence(seed).spawn(n)


def chunk_sizes(n: int, chunk: int) -> list[int]:
    """Split ``n`` items into chunks of ``chunk`` items (the last one may be smaller)."""
    if n < 0 or chunk < 1:
        raise ValueError(f"need n >= 0 and chunk >= 1, got n={n}, chunk={chunk}")
    return [min(chunk, n - start) for start in range(0, n, chunk)]


#: Code each local dask worker runs once started: a Ctrl-C, which the terminal sends to the whole
#: process group, is this process's to handle, not the workers' (each would print a traceback).
IGNORE_SIGINT = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)"


@contextmanager
def _dask_client(scheduler: str | None, jobs: int, module: str):
    """A dask.distributed client: to ``scheduler`` if given, else to a new local cluster.

    The scheduler and workers of an existing cluster must import ``module`` (the tasks'), or
    a ``RuntimeError`` says so at once; otherwise the scheduler fails to read the tasks and the
    run would wait for ever.
    """
    try:
        import psutil
        from dask.distributed import Client, LocalCluster
    except ImportError as err:  # pragma: no cover - depends on the optional extra
        raise RuntimeError(
            "backend 'dask' needs the optional extra: pip install -e '.[dask]'"
        ) from err
    if scheduler is not None:
        with Client(scheduler) as client:
            check_cluster_imports(client, module)
            yield client
        return
    n_workers = joblib.cpu_count() if jobs < 0 else jobs
    me = psutil.Process()  # psutil comes with dask.distributed
    before = set(me.children(recursive=True))
    cluster = client = None
    workers = []
    try:
        # Interrupted halfway, a cluster or client is left neither running nor closed: a signal
        # that comes while they start is delivered once both run (a few seconds at most).
        with signals_deferred():
            cluster = LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                dashboard_address=":0",  # a free port: None still serves /metrics on 8787
                preload=[IGNORE_SIGINT],  # this process stops them
            )
            client = Client(cluster)
            # The worker processes, each started by a nanny (a child of this process).
            workers = [
                p for p in me.children(recursive=True) if p not in before and p.ppid() != me.pid
            ]
        yield client
    except KeyboardInterrupt:
        # A graceful close waits up to 4 s for a busy worker, and nothing it computes is wanted
        # any more: kill the workers, and their nannies close at once.
        for process in workers:
            with suppress(psutil.Error):
                process.kill()
        raise
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def check_cluster_imports(client, module: str) -> None:
    """Raise ``RuntimeError`` unless the scheduler and every worker of ``client`` import ``module``.

    ``exec`` is a builtin, so the check itself needs nothing on the cluster.
    """
    statement = f"import {module}"
    for where, run in (("scheduler", client.run_on_scheduler), ("workers", client.run)):
        try:
            run(exec, statement)
        except Exception as err:
            raise RuntimeError(
                f"the dask {where} at {client.scheduler.address} cannot import {module} "
                f"({type(err).__name__}: {err}); install this package in the scheduler's and "
                "every worker's environment (pip install -e '.[dask]' in a clone)"
            ) from err


@contextmanager
def interrupts_ignored_by_new_workers():
    """Ignore SIGINT while the block starts worker processes (main thread only), which inherit it.

    Only an ignored disposition survives the ``exec`` that starts a worker (a handler or a
    blocked mask does not), so the workers started meanwhile never act on SIGINT: a Ctrl-C, which
    the terminal sends to every process of the group, reaches the main process alone, which then
    stops its workers in order (loky kills them), instead of every worker failing with a
    traceback of its own. The price: a SIGINT that arrives during the block itself (the few
    tens of milliseconds of starting loky's workers) is lost, and Ctrl-C must be pressed again.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Progress:
    """A one-line progress bar on stderr, shown only on a terminal and after ``delay`` seconds."""

    def __init__(self, total: int, desc: str, enabled: bool, delay: float = 2.0):
        self.total, self.desc, self.done = total, desc, 0
        self.enabled = enabled and sys.stderr.isatty()
        self.start, self.delay, self.shown = time.perf_counter(), delay, False

    def update(self) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        if self.enabled and (self.shown or elapsed >= self.delay):
            self.shown = True
            width = 30
            filled = width * self.done // max(self.total, 1)
            sys.stderr.write(
                f"\r{self.desc} [{'#' * filled}{'.' * (width - filled)}] "
                f"{self.done}/{self.total} {elapsed:.1f}s"
            )
            sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def map_tasks(func: Callable, tasks: Iterable, **options) -> list:
    """``[func(task) for task in tasks]``, run in parallel: :func:`iter_tasks` as a list."""
    return list(iter_tasks(func, tasks, **options))


def iter_tasks(
    func: Callable,
    tasks: Iterable,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    desc: str = "tasks",
    quiet: bool = False,
) -> Iterator:
    """Yield ``func(task)`` for each task, in task order, as the workers finish them.

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
        in this process.
    backend : {"loky", "threading", "dask"}
        joblib backend. ``"dask"`` uses a dask.distributed cluster: the one at ``scheduler``, or a
        local one with ``jobs`` single-threaded workers.
    scheduler : str, optional
        Address of an existing dask.distributed scheduler (``"tcp://host:8786"``).
    desc, quiet
        Label of the progress bar, and whether to turn it off. The bar is drawn on stderr only
        when it is a terminal and the run lasts more than two seconds.

    Raises
    ------
    ParallelError
        A RuntimeError: if a task fails, naming its index and its error; if a worker dies,
        naming the first task (chunk) not completed and the cause (a dask worker lost on a
        cluster is retried by dask first). Never hangs.

    Notes
    -----
    The workers are shut down when the generator ends, whatever ends it: exhaustion, an error,
    KeyboardInterrupt, or ``close()`` by a consumer that stops early.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler is only used with backend='dask'")
    if jobs == 0 or jobs < -1:
        raise ValueError(f"jobs must be a positive number of workers or -1, got {jobs}")
    tasks: Sequence = list(tasks)
    progress = _Progress(len(tasks), desc, enabled=not quiet)
    done = 0
    with ExitStack() as stack:
        if backend == "dask":
            stack.enter_context(_dask_client(scheduler, jobs, func.__module__))
            stack.enter_context(joblib.parallel_config(backend="dask"))
            parallel = joblib.Parallel(return_as="generator")
        else:
            parallel = joblib.Parallel(n_jobs=jobs, backend=backend, return_as="generator")
        calls = (joblib.delayed(_call)(func, index, task) for index, task in enumerate(tasks))
        # joblib starts the workers (if none are running) as it dispatches the first tasks.
        with interrupts_ignored_by_new_workers():
            results = parallel(calls)
        # Closing joblib's generator aborts the tasks still queued or running (loky kills its
        # workers), whether this generator ends, fails, is interrupted or is closed early.
        stack.callback(_close, results)
        stack.callback(progress.close)
        try:
            for result in results:
                done += 1
                progress.update()
                yield result
        except _TaskError as err:
            raise ParallelError(f"{desc}: task {err.index} of {len(tasks)} failed ({err})") from err
        except Exception as err:  # the worker itself died (e.g. killed, out of memory)
            raise ParallelError(
                f"{desc}: task {done} of {len(tasks)} was lost, the worker running it "
                f"died ({_cause(err)}); {done} tasks had completed"
            ) from err


def _close(results) -> None:
    """Close joblib's result generator, without its warning about tasks cancelled early.

    Stopping early is this API's purpose (a consumer that has what it needs), not a mistake. The
    filter is set in the consuming thread, around the close only, never inside a task.
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


class ParallelError(RuntimeError):
    """A task failed or its worker died; the message names the task (chunk) and the cause."""


class _TaskError(Exception):
    """A task raised; carries its index, since results arrive in order, not by failure."""

    def __init__(self, index: int, message: str):
        super().__init__(index, message)
        self.index = index

    def __str__(self) -> str:
        return self.args[1]


def _call(func: Callable, index: int, task):
    """Run one task in the worker, tagging any error with the task's index."""
    try:
        return func(task)
    except Exception as err:
        raise _TaskError(index, f"{type(err).__name__}: {err}") from err
