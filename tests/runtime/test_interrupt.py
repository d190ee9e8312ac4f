"""A run stopped by a signal or by a killed worker leaves the previous outputs exactly as they were.

Each test starts ``python -m experiments discriminancy`` in its own session (so that a signal can
go to its whole process group, as Ctrl-C in a terminal does), waits until its loky workers run,
and then stops it. The sweep is long (n up to 30) but never runs to its end: the tests take a few
seconds each (the dask one, which starts a local cluster, about ten).
"""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cenmcc.runtime.staging import MARKER, staged_directory
from experiments.paths import REPO_ROOT

#: starts commands in subprocesses and signals them
pytestmark = pytest.mark.slow

PREVIOUS = {"summary.json": b'{"run": "previous"}\n', "discriminancy.png": b"\x89PNG previous"}
COMMAND = ["-m", "experiments", "discriminancy", "--n-max", "30", "--jobs", "2", "--quiet"]
RERUN = [sys.executable, *COMMAND[:3], "--n-max", "9", "--order-check-max-n", "5", "--quiet"]
#: Seconds allowed for a stopped run to end: a guard against hanging, not a timing.
GUARD = 30


@pytest.fixture
def started():
    """The runs a test starts; any still running when it ends is killed with its workers."""
    processes = []
    yield processes
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


def _start(started: list, out: Path, *extra: str) -> subprocess.Popen:
    with staged_directory(out / "discriminancy") as stage:  # a previous run
        for name, data in PREVIOUS.items():
            (stage / name).write_bytes(data)
    return _spawn(started, [sys.executable, *COMMAND, "--out", str(out), *extra], REPO_ROOT)


def _spawn(started: list, argv: list[str], cwd: Path) -> subprocess.Popen:
    """Start ``argv`` in a session of its own (its group can be signalled), output captured."""
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    started.append(process)
    return process


def _group(pgid: int) -> list[str]:
    """The live processes of a process group (zombies, already dead, left aside)."""
    listing = subprocess.run(
        ["ps", "-ww", "-o", "pid=,stat=,args=", "-g", str(pgid)], capture_output=True, text=True
    ).stdout
    return [line for line in listing.splitlines() if line.split()[1][0] != "Z"]


#: How each backend's worker processes show in ``ps``: loky's, and dask's (multiprocessing spawn).
WORKER_MARK = {"loky": "LokyProcess", "dask": "spawn_main"}


def _children(pid: int, backend: str = "loky") -> list[int]:
    listing = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(pid)], capture_output=True, text=True
    ).stdout
    mark = WORKER_MARK[backend]
    return [int(line.split()[0]) for line in listing.splitlines() if mark in line]


def _wait_for_workers(process: subprocess.Popen, backend: str = "loky") -> list[int]:
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        workers = _children(process.pid, backend)
        if len(workers) >= 2:
            time.sleep(0.5)  # let them take tasks
            return workers
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    pytest.fail(f"the {backend} workers never started")


def _wait_for_staging(process: subprocess.Popen, out: Path) -> None:
    """Wait until the run has parsed its arguments and started writing, then a little more."""
    deadline = time.monotonic() + GUARD
    while not list(out.glob(".discriminancy.staging-*")):
        assert time.monotonic() < deadline, "the run never started writing"
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    time.sleep(1.0)  # into the computation: the first tasks of the order check


def _wait_for_no_survivor(pgid: int) -> None:
    deadline = time.monotonic() + 5
    while _group(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group(pgid) == [], "processes of the run survived it"


def _previous_outputs(destination: Path) -> dict:
    return {p.name: p.read_bytes() for p in destination.iterdir() if p.name != MARKER}


def _assert_previous_outputs_intact(out: Path) -> None:
    destination = out / "discriminancy"
    assert _previous_outputs(destination) == PREVIOUS
    assert sorted(p.name for p in out.iterdir()) == ["discriminancy"]  # no staging, no .tmp


@pytest.mark.parametrize(
    ("signum", "backend"),
    [
        (signal.SIGINT, "loky"),
        (signal.SIGTERM, "loky"),
        (signal.SIGINT, "threading"),
        (signal.SIGINT, "dask"),
    ],
)
def test_a_signal_stops_the_run_and_keeps_the_previous_outputs(started, tmp_path, signum, backend):
    process = _start(started, tmp_path, "--backend", backend)
    if backend in WORKER_MARK:
        _wait_for_workers(process, backend)
        time.sleep(1.0)  # dask's workers connect to the scheduler, then take tasks
    else:  # no worker processes to see
        _wait_for_staging(process, tmp_path)
    os.killpg(process.pid, signum)
    _, err = process.communicate(timeout=GUARD)
    assert process.returncode == 128 + signum, err
    ours = [line for line in err.splitlines() if "interrupted" in line]
    assert len(ours) == 1, "\n" + err
    assert ours[0].startswith(f"{signal.Signals(signum).name}: interrupted")
    assert "unchanged" in ours[0]
    assert err.strip().splitlines() == ours, "\n" + err
    _wait_for_no_survivor(process.pid)
    _assert_previous_outputs_intact(tmp_path)


def test_sigkill_keeps_the_previous_outputs_and_the_next_run_cleans_up(started, tmp_path):
    process = _start(started, tmp_path)
    _wait_for_workers(process)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=GUARD)
    _wait_for_no_survivor(process.pid)
    destination = tmp_path / "discriminancy"
    assert _previous_outputs(destination) == PREVIOUS
    (left,) = [p.name for p in tmp_path.iterdir() if p.name != "discriminancy"]
    assert left.startswith(".discriminancy.staging-")  # cleaned by the next run
    rerun = subprocess.run(
        [*RERUN, "--out", str(tmp_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["discriminancy"]
    assert (destination / "run.json").exists()
    assert b"previous" not in (destination / "summary.json").read_bytes()


def test_a_killed_worker_is_reported_and_keeps_the_previous_outputs(started, tmp_path):
    process = _start(started, tmp_path)
    workers = _wait_for_workers(process)
    os.kill(workers[0], signal.SIGKILL)
    _, err = process.communicate(timeout=GUARD)
    assert process.returncode == 1, err
    assert re.search(r"(order check|sweep): task \d+ of \d+ was lost", err), err
    assert "SIGKILL" in err
    assert "Traceback" not in err
    _wait_for_no_survivor(process.pid)
    _assert_previous_outputs_intact(tmp_path)


BENCHMARK = [
    *(sys.executable, "-m", "experiments", "benchmark"),
    *("--sizes", "3", "--cells", "1000", "--repeats", "1"),
]


def test_a_benchmark_stopped_by_sigterm_removes_its_scratch_directory(started, tmp_path):
    scratch_root = tmp_path / "tmp"
    scratch_root.mkdir()
    process = subprocess.Popen(
        [*BENCHMARK, "--out", str(tmp_path / "out")],
        cwd=REPO_ROOT,
        env=os.environ | {"TMPDIR": str(scratch_root)},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    started.append(process)
    deadline = time.monotonic() + GUARD
    while not list(scratch_root.glob("cenmcc-benchmark-*/*")):  # an experiment is writing
        assert time.monotonic() < deadline, "the benchmark never started an experiment"
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    os.kill(process.pid, signal.SIGTERM)  # the benchmark alone, as a batch system would
    _, err = process.communicate(timeout=GUARD)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert list(scratch_root.iterdir()) == []
    _wait_for_no_survivor(process.pid)
    assert list((tmp_path / "out").iterdir()) == []  # no benchmark/ from an unfinished run


SIMULATE = [sys.executable, "-m", "cenmcc.simulation", "simulate", "--n", "20000000", "--jobs", "2"]


@pytest.mark.parametrize(
    ("signum", "backend", "times"),
    [(signal.SIGINT, "loky", 1), (signal.SIGTERM, "loky", 1), (signal.SIGINT, "dask", 3)],
)
def test_a_signal_stops_a_simulation_with_one_line(started, tmp_path, signum, backend, times):
    with staged_directory(tmp_path / "papers") as stage:  # a previous run
        (stage / "summary.json").write_bytes(PREVIOUS["summary.json"])
    process = _spawn(
        started, [*SIMULATE, "--backend", backend, "--quiet", "--out", str(tmp_path)], tmp_path
    )
    _wait_for_workers(process, backend)
    for _ in range(times):  # quick repeated Ctrl-Cs change nothing
        os.killpg(process.pid, signum)
        time.sleep(0.05)
    _, err = process.communicate(timeout=GUARD)
    assert process.returncode == 128 + signum, err
    (line,) = err.strip().splitlines()
    assert line.startswith(f"{signal.Signals(signum).name}: interrupted `python -m cenmcc.simul")
    assert f"{tmp_path / 'papers'} unchanged" in line
    _wait_for_no_survivor(process.pid)
    assert (tmp_path / "papers" / "summary.json").read_bytes() == PREVIOUS["summary.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["papers"]
