"""Workers: what a task raises is named, and no worker outlives the process that started it."""

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cenmcc.simulation.parallel import ParallelError, map_tasks

ROOT = Path(__file__).resolve().parents[2]


def leave(task):
    if task == 2:
        raise SystemExit(3)
    if task == 3:
        raise KeyboardInterrupt
    return task


@pytest.mark.parametrize(("jobs", "backend"), [(1, "loky"), (2, "loky"), (2, "threading")])
@pytest.mark.parametrize(("task", "raised"), [(2, "SystemExit: 3"), (3, "KeyboardInterrupt")])
def test_systemexit_and_keyboardinterrupt_in_a_task_are_named(jobs, backend, task, raised):
    with pytest.raises(ParallelError, match=rf"task 2 of 4 failed \({raised} raised inside"):
        map_tasks(leave, [0, 1, task, 0] if task == 3 else [0, 1, 2, 0], jobs=jobs, backend=backend)


ORPHANS = """
import os, sys, time
from pathlib import Path
from cenmcc.simulation.parallel import map_tasks

def work(task):
    (Path(sys.argv[1]) / str(os.getpid())).touch()  # running its first task
    time.sleep(30)

map_tasks(work, range(4), jobs=2, quiet=True)
"""


@pytest.mark.slow
def test_loky_workers_exit_within_seconds_of_losing_their_parent(tmp_path):
    """SIGKILL of the main process (what the out-of-memory killer does) ends its workers and
    their resource tracker."""
    process = subprocess.Popen(
        [sys.executable, "-c", ORPHANS, str(tmp_path)], cwd=ROOT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.iterdir())) < 2:
            assert time.monotonic() < deadline, "the workers never started their tasks"
            assert process.poll() is None
            time.sleep(0.2)
        workers = [int(p.name) for p in tmp_path.iterdir()]
        process.kill()
        process.wait()
        deadline = time.monotonic() + 5
        while _children_of_group(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(workers), "workers outlived their parent by 5 s"
        survivors = subprocess.run(
            ["ps", "-ww", "-o", "args=", "-g", str(process.pid)], capture_output=True, text=True
        ).stdout
        assert not _children_of_group(process.pid), f"outlived their parent by 5 s:\n{survivors}"
    finally:
        if process.poll() is None:
            process.kill()
        for pid in _children_of_group(process.pid):
            os.kill(pid, signal.SIGKILL)


def _children_of_group(pgid: int) -> list[int]:
    listing = subprocess.run(
        ["ps", "-o", "pid=,stat=", "-g", str(pgid)], capture_output=True, text=True
    ).stdout
    return [int(line.split()[0]) for line in listing.splitlines() if line.split()[1][0] != "Z"]


def _alive(pids) -> bool:
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                alive.append(stat.read().split(")")[1].split()[0] != "Z")
        except FileNotFoundError:
            alive.append(False)
    return any(alive)


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    ("tty", "quiet", "drawn"), [(True, False, True), (True, True, False), (False, False, False)]
)
def test_the_progress_bar_is_drawn_on_a_terminal_unless_quiet(monkeypatch, tty, quiet, drawn):
    stderr = Terminal() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    assert map_tasks(abs, [-1, 2], jobs=1, desc="cases", quiet=quiet) == [1, 2]
    assert ("cases: 100%" in stderr.getvalue()) is drawn
    assert drawn or stderr.getvalue() == ""
