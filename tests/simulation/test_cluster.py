"""Runs on dask clusters: the work runs on the cluster, user code travels, nothing hangs.

Each test proves where the chunks ran (the process ids the results record), runs at least two
worker threads unless it tests a single one, and ends every process it started. Every wait
has a guard: a test that hangs fails instead.
"""

import http.server
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from contextlib import contextmanager

import pytest

from cenmcc.simulation import ParallelError, Simulation, run

pytestmark = [pytest.mark.cluster, pytest.mark.slow]  # starts dask clusters

#: Seconds a cluster has to start, or a failing run to fail: a guard, not a timing.
GUARD = 60


def counts(rng, size):
    return rng.integers(1, 30, size=(size, 4, 4))


SIM = Simulation(counts, 1200, measures=("cen", "mcc"), chunk_size=150, seed=3)


@pytest.fixture(scope="module")
def reference():
    return run(SIM, jobs=1, quiet=True)


def test_a_local_cluster_runs_every_chunk_in_its_workers(reference):
    result = run(SIM, jobs=2, backend="dask", quiet=True)
    assert json.dumps(result.summary) == json.dumps(reference.summary)
    pids = {pid for _, pid in result.processes}
    assert len(pids) == 2
    assert os.getpid() not in pids
    _assert_ended(pids)


@contextmanager
def cluster(tmp_path, *, workers: int, threads: int = 1, env=None):
    """A ``dask scheduler`` and ``workers`` ``dask worker`` processes started in ``tmp_path``:
    the scheduler's address."""
    address_file = tmp_path / "scheduler.json"
    env = {**os.environ, **(env or {})}
    env.pop("PYTHONPATH", None)
    started = []

    def start(*args):
        process = subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        started.append(process)

    try:
        start(
            "distributed.cli.dask_scheduler",
            "--scheduler-file",
            str(address_file),
            "--port",
            "0",
            "--dashboard-address",
            ":0",
        )
        deadline = time.monotonic() + GUARD
        while not address_file.exists():
            assert time.monotonic() < deadline, "the scheduler never started"
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole before the scheduler listens
        if workers:
            start(
                "distributed.cli.dask_worker",
                "--scheduler-file",
                str(address_file),
                "--nworkers",
                str(workers),
                "--nthreads",
                str(threads),
                "--no-dashboard",
            )
        yield json.loads(address_file.read_text())["address"]
    finally:
        for process in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=GUARD)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _assert_ended(pids) -> None:
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids), "worker processes outlived the run"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[1].split()[0] != "Z"


USER_MODULE = '''
import numpy as np

def generator(rng, size):
    """A user's own generator, in a module the cluster cannot import."""
    return rng.integers(1, 30, size=(size, 4, 4))
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A module ``mygen`` that only this process (the client) can import."""
    home = tmp_path / "client"
    home.mkdir()
    (home / "mygen.py").write_text(textwrap.dedent(USER_MODULE))
    (home / "needs_helper.py").write_text(
        "import myhelper\n\ndef generator(rng, size):\n    return myhelper.draw(rng, size)\n"
    )
    (home / "myhelper.py").write_text(
        "def draw(rng, size):\n    return rng.integers(1, 30, size=(size, 4, 4))\n"
    )
    monkeypatch.syspath_prepend(str(home))
    import mygen
    import needs_helper

    yield mygen, needs_helper
    for name in ("mygen", "needs_helper", "myhelper"):
        sys.modules.pop(name, None)


def test_a_users_generator_runs_on_a_cluster_that_only_has_cenmcc(tmp_path, user_module, reference):
    mygen, _ = user_module
    sim = Simulation(mygen.generator, 1200, measures=("cen", "mcc"), chunk_size=150, seed=3)
    with cluster(tmp_path, workers=2) as address:
        result = run(sim, backend="dask", scheduler=address, quiet=True)
    assert json.dumps(result.summary) == json.dumps(reference.summary)  # the same draws
    pids = {pid for _, pid in result.processes}
    assert len(pids) == 2
    assert os.getpid() not in pids


def test_a_single_worker_thread_still_runs_the_chunks_on_the_cluster(tmp_path, reference):
    with cluster(tmp_path, workers=1, threads=1) as address:
        result = run(SIM, backend="dask", scheduler=address, quiet=True)
    assert json.dumps(result.summary) == json.dumps(reference.summary)
    ((_, pid),) = result.processes
    assert pid != os.getpid()


def test_code_the_workers_cannot_read_is_named_within_seconds(tmp_path, user_module):
    _, needs_helper = user_module
    sim = Simulation(needs_helper.generator, 300, chunk_size=150)
    with cluster(tmp_path, workers=2) as address:
        start = time.monotonic()
        with pytest.raises(ParallelError, match=r"cannot read the tasks .*myhelper"):
            run(sim, backend="dask", scheduler=address, quiet=True)
        assert time.monotonic() - start < 30


def test_an_unpicklable_generator_is_named_at_once():
    lock = threading.Lock()

    def generator(rng, size):
        with lock:
            return counts(rng, size)

    sim = Simulation(generator, 300, chunk_size=150)
    for backend in ("loky", "dask"):
        start = time.monotonic()
        with pytest.raises(ParallelError, match=r"cannot be pickled .*lock"):
            run(sim, jobs=2, backend=backend, quiet=True)
        assert time.monotonic() - start < 30


def test_an_address_that_is_not_a_dask_scheduler_fails_within_seconds(monkeypatch):
    # A web server accepts the connection and never answers dask's handshake.
    monkeypatch.setattr("cenmcc.simulation.cluster.TIMEOUT", 2.0)
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        with pytest.raises(ParallelError, match="no dask scheduler answers"):
            run(SIM, backend="dask", scheduler=f"tcp://127.0.0.1:{server.server_port}", quiet=True)
        assert time.monotonic() - start < 10
    finally:
        server.shutdown()
        server.server_close()


def test_a_scheduler_without_workers_fails_within_seconds(tmp_path, monkeypatch):
    monkeypatch.setattr("cenmcc.simulation.cluster.TIMEOUT", 2.0)
    done = {}

    def background():
        try:
            run(SIM, backend="dask", scheduler=address, quiet=True)
        except ParallelError as err:
            done["error"] = str(err)

    with cluster(tmp_path, workers=0) as address:
        start = time.monotonic()
        thread = threading.Thread(target=background, daemon=True)
        thread.start()
        thread.join(timeout=GUARD)
        assert not thread.is_alive(), "the run still waits for a worker"
        assert time.monotonic() - start < 10
    assert "has no worker" in done["error"]


def slow_counts(rng, size):
    time.sleep(0.3)
    return rng.integers(1, 30, size=(size, 4, 4))


def _wait_for_tasks(address: str) -> None:
    """Until the scheduler has tasks of a run processing on its workers."""
    from distributed import Client

    with Client(address, timeout=GUARD) as watcher:
        deadline = time.monotonic() + GUARD
        while not any(
            key.startswith("cenmcc-") for keys in watcher.processing().values() for key in keys
        ):
            assert time.monotonic() < deadline, "no task of the run reached the workers"
            time.sleep(0.1)


def test_a_worker_lost_mid_run_is_replaced_and_gives_the_same_bits(tmp_path):
    import psutil

    sim = Simulation(slow_counts, 2400, measures=("cen", "mcc"), chunk_size=100, seed=3)
    expected = run(sim, jobs=2, quiet=True)
    with cluster(tmp_path, workers=2) as address:
        done = {}

        def background():
            done["result"] = run(sim, backend="dask", scheduler=address, quiet=True)

        thread = threading.Thread(target=background)
        thread.start()
        _wait_for_tasks(address)  # the run is under way: 24 chunks of 0.3 s on two workers
        me = psutil.Process()
        dask_workers = [
            p
            for p in psutil.process_iter(["cmdline"])
            if p.info["cmdline"]
            and "spawn_main" in " ".join(p.info["cmdline"])
            and p.ppid() != me.pid
        ]
        assert dask_workers, "no dask worker process found"
        dask_workers[0].kill()
        thread.join(timeout=GUARD)
        assert not thread.is_alive(), "the run did not finish after a worker was lost"
    assert json.dumps(done["result"].summary) == json.dumps(expected.summary)
