"""Tasks on a dask.distributed cluster that never hang: checked, sent as bytes, run where sent.

A cluster needs only ``pip install "cenmcc[dask]"`` on the scheduler and every worker:

- each task travels as bytes pickled with cloudpickle, so the scheduler never reads a task's
  content (it needs cenmcc alone, to name the function that unpickles it);
- the modules of a user's code that the workers cannot import (a generator defined in
  ``mygen.py`` next to the user's script) are pickled by value
  (``cloudpickle.register_pickle_by_value``);
- before any task is sent, the scheduler and every worker are checked: that they import
  cenmcc, and that each worker unpickles the tasks; an unpicklable task, an address that is not
  a dask scheduler, a cluster without workers, or a task that a worker cannot read ends the
  run with an error that names the problem, within :data:`TIMEOUT` seconds;
- the tasks are submitted to the cluster whatever its size, a few per worker thread at a
  time, so the results waiting in the client stay few; a worker lost mid-run has its tasks
  retried elsewhere by dask, with the same bits. Measured needed: joblib's dask backend runs
  every task in the client's process when the cluster has a single worker thread, which
  ``test_a_single_worker_thread_still_runs_the_chunks_on_the_cluster`` refuses.

A local cluster (no ``scheduler``) is started with ``jobs`` single-threaded worker processes
that ignore SIGINT once started, so that Ctrl-C reaches this process alone, which stops them;
a Ctrl-C during their start is held until they run, and what they print goes to a log file,
not the terminal. Measured needed: without the workers' SIGINT disposition and the held Ctrl-C,
the dask cases of ``tests/runtime/test_interrupt.py`` fail (dask's own shutdown at exit,
``close_clusters``, prints a traceback of the interrupted workers), and without the held Ctrl-C
and the log file, workers interrupted while they start print theirs. Closing the cluster
(dask's own shutdown) is enough to stop its workers.
"""

from __future__ import annotations

import importlib.util
import itertools
import logging
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager

from cenmcc.runtime.signals import signals_deferred

from .tasks import ParallelError, TaskError, check_picklable, run_task

#: Seconds to wait for the scheduler to answer, for workers to appear, or for a check to end.
TIMEOUT = 20.0
#: Tasks in flight per worker thread.
IN_FLIGHT_PER_THREAD = 2

#: Code each local dask worker runs once started: a Ctrl-C, which the terminal sends to the whole
#: process group, is this process's to handle, not the workers' (each would print a traceback).
IGNORE_SIGINT = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)"


def dask_results(func, tasks: Sequence, jobs: int, scheduler, by_value: list, stack: ExitStack):
    """``(index, result)`` of every task, run on the cluster (see the module docstring)."""
    try:
        import cloudpickle
        from distributed import as_completed
    except ImportError as err:  # pragma: no cover - depends on the optional extra
        raise ParallelError(
            "backend 'dask' needs the optional extra: pip install 'cenmcc[dask]'"
        ) from err
    client = stack.enter_context(_client(scheduler, jobs))
    check_cluster(client)
    modules = _modules_to_send(client, [func, *by_value])
    for module in modules:
        cloudpickle.register_pickle_by_value(module)
        stack.callback(cloudpickle.unregister_pickle_by_value, module)
    check_picklable(func, tasks[:1])
    function = cloudpickle.dumps(func)
    _check_workers_read(client, (function, cloudpickle.dumps(tasks[0])), modules)
    return _submitted(client, function, tasks, cloudpickle, as_completed)


def _submitted(client, function: bytes, tasks, cloudpickle, as_completed) -> Iterator:
    """Submit the tasks a few per worker thread at a time; yield results as they complete."""
    threads = sum(client.nthreads().values())
    window = max(1, IN_FLIGHT_PER_THREAD * threads)
    token = os.urandom(4).hex()
    pending = iter(enumerate(tasks))

    def submit(index, task):
        return client.submit(
            _run_bytes, function, index, cloudpickle.dumps(task), key=f"cenmcc-{token}-{index}"
        )

    futures = [submit(i, t) for i, t in itertools.islice(pending, window)]
    queue = as_completed(futures)
    try:
        for future in queue:
            if future.status == "error":
                error = future.exception()
                if isinstance(error, TaskError):
                    raise error
                raise ParallelError(
                    f"task {future.key.rsplit('-', 1)[1]} of {len(tasks)} failed on the cluster "
                    f"({type(error).__name__}: {error})"
                ) from error
            yield future.result()
            future.release()
            for i, t in itertools.islice(pending, 1):
                queue.add(submit(i, t))
    finally:
        if client.status == "running":  # not when an interrupt already closed the client
            client.cancel(futures + list(queue.futures))


def _run_bytes(function: bytes, index: int, task: bytes):
    """Run a task sent as bytes (on a worker): unpickle the function and the task, run it."""
    import cloudpickle

    try:
        func, task = cloudpickle.loads(function), cloudpickle.loads(task)
    except Exception as err:
        raise TaskError(
            index, f"the worker cannot read the task ({type(err).__name__}: {err})"
        ) from None
    return run_task(func, index, task)


def _read(payloads: tuple) -> None:
    """Unpickle a task's function and content (on a worker), raising what stops it."""
    import cloudpickle

    for payload in payloads:
        cloudpickle.loads(payload)


def check_cluster(client) -> None:
    """Raise ParallelError unless the scheduler and every worker import cenmcc's engine.

    ``exec`` is a builtin, so the check itself needs nothing on the cluster.
    """
    statement = "import cenmcc.simulation.cluster"
    for where, call in (("scheduler", client.run_on_scheduler), ("workers", client.run)):
        try:
            _within(TIMEOUT, call, exec, statement)
        except Exception as err:
            raise ParallelError(
                f"the dask {where} at {client.scheduler.address} cannot import cenmcc "
                f"({type(err).__name__}: {err}); install it there: pip install 'cenmcc[dask]'"
            ) from err


def _modules_to_send(client, objects: list) -> list:
    """The modules of ``objects`` that the workers cannot import (to be pickled by value).

    ``__main__`` is always pickled by value by cloudpickle; every other module is looked up on
    each worker. Measured needed: sending none,
    ``test_a_users_generator_runs_on_a_cluster_that_only_has_cenmcc`` fails (``No module named
    'mygen'`` on the workers).
    """
    names = sorted(
        {
            getattr(obj, "__module__", None) or type(obj).__module__
            for obj in objects
            if obj is not None
        }
        - {"__main__", "builtins"}
    )
    found = _within(TIMEOUT, client.run, _importable, names)
    missing = [n for n in names if not all(dict(v)[n] for v in found.values())]
    return [sys.modules[n] for n in missing if n in sys.modules]


def _importable(names: list[str]) -> list[tuple[str, bool]]:
    """Which of the module ``names`` this process can import (run on each worker)."""
    out = []
    for name in names:
        try:
            out.append((name, importlib.util.find_spec(name) is not None))
        except (ImportError, ValueError):
            out.append((name, False))
    return out


def _check_workers_read(client, payloads: tuple, sent: list) -> None:
    """Raise ParallelError, naming the module, if a worker cannot unpickle the first task.

    Measured needed: without it, the run still fails, but as a task that failed, without the
    modules sent by value or what to do, and
    ``test_code_the_workers_cannot_read_is_named_within_seconds`` fails.
    """
    try:
        _within(TIMEOUT, client.run, _read, payloads)
    except Exception as err:
        by_value = ", ".join(m.__name__ for m in sent) or "none"
        raise ParallelError(
            f"a dask worker cannot read the tasks ({type(err).__name__}: {err}); sent by value: "
            f"{by_value}. Install what it names on every worker, or define it in a module of "
            "your own (which is sent by value)"
        ) from err


def _within(seconds: float, call, *args):
    """``call(*args)`` in a helper thread; ParallelError if it has not returned in ``seconds``."""
    import concurrent.futures

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="cenmcc-check")
    try:
        return pool.submit(call, *args).result(timeout=seconds)
    except concurrent.futures.TimeoutError:
        what = getattr(call, "__name__", call)
        raise ParallelError(
            f"the dask cluster did not answer within {seconds:g} s ({what})"
        ) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


@contextmanager
def _client(scheduler: str | None, jobs: int):
    """A client of the cluster at ``scheduler``, or of a new local cluster of ``jobs`` workers."""
    from distributed import Client

    if scheduler is not None:
        try:
            _handshake(scheduler)
            client = Client(scheduler, timeout=TIMEOUT)
        except (OSError, TimeoutError) as err:
            raise ParallelError(
                f"no dask scheduler answers at {scheduler} within {TIMEOUT:g} s "
                f"({type(err).__name__}: {err})"
            ) from err
        with client:
            _wait_for_workers(client, scheduler)
            yield client
        return
    with _local_cluster(jobs) as cluster, Client(cluster) as client:
        yield client


def _handshake(address: str) -> None:
    """Connect to ``address`` and exchange dask's handshake, all within :data:`TIMEOUT`.

    ``Client`` bounds the connection by its timeout but not the handshake that follows, and a
    server that is not dask (a web server, say) never answers it: ``Client`` would wait forever.
    Measured needed: without it,
    ``test_an_address_that_is_not_a_dask_scheduler_fails_within_seconds`` still waits after 2
    minutes (it allows 10 s).
    """
    import asyncio

    from distributed.comm import connect

    async def exchange():
        comm = await asyncio.wait_for(connect(address, timeout=TIMEOUT), TIMEOUT)
        await comm.close()

    try:
        asyncio.run(exchange())
    except TimeoutError:
        raise TimeoutError(f"no handshake within {TIMEOUT:g} s") from None


def _wait_for_workers(client, address: str) -> None:
    """Raise ParallelError unless a worker joins the scheduler within :data:`TIMEOUT`.

    Measured needed: without it, ``test_a_scheduler_without_workers_fails_within_seconds``
    still waits after a minute (dask holds the tasks until a worker comes).
    """
    try:
        client.wait_for_workers(1, timeout=TIMEOUT)
    except TimeoutError:
        raise ParallelError(
            f"the dask scheduler at {address} has no worker (none joined within {TIMEOUT:g} s); "
            f"start some: dask worker {address}"
        ) from None


@contextmanager
def _local_cluster(jobs: int):
    """A local cluster of single-threaded workers, quiet and deaf to Ctrl-C (see module doc)."""
    import joblib
    from distributed import LocalCluster

    n_workers = joblib.cpu_count() if jobs < 0 else jobs
    with ExitStack() as stack:
        stack.enter_context(_quiet_logger("distributed"))  # its client's too, until it closes
        log = stack.enter_context(tempfile.TemporaryFile(prefix="cenmcc-dask-workers-"))
        with _stderr_to(log.fileno()), signals_deferred():
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=n_workers,
                    threads_per_worker=1,
                    dashboard_address=":0",  # a free port: None still serves /metrics on 8787
                    preload=[IGNORE_SIGINT],
                    silence_logs=logging.CRITICAL,  # the workers' logs (see _quiet_logger)
                )
            )
        yield cluster


@contextmanager
def _quiet_logger(name: str):
    """The logger ``name`` and its children log nothing below CRITICAL while the block runs.

    The run reports what goes wrong itself, in one line; dask would also log the shutdown that
    follows an interrupt (closed comms, lost workers).
    """
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


@contextmanager
def _stderr_to(fd: int):
    """Processes started in the block write their stderr to ``fd``; this one keeps its own."""
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(fd, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
