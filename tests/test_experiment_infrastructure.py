"""The shared machinery of the experiments: parallel map, atomic outputs."""

import os
import signal
import stat
import time

import numpy as np
import pytest

from cenmcc.simulation import outputs, parallel


def _fail_on_three(task):
    if task == 3:
        raise ValueError("bad task")
    return task * 2


@pytest.mark.parametrize(("backend", "jobs"), [("loky", 1), ("loky", 2), ("threading", 2)])
def test_map_tasks_keeps_order_and_names_the_failing_task(backend, jobs):
    assert parallel.map_tasks(lambda t: t * 2, range(5), backend="threading", jobs=jobs) == [
        0,
        2,
        4,
        6,
        8,
    ]
    failed = r"demo: task 3 of 6 failed \(ValueError: bad task\)"
    with pytest.raises(parallel.ParallelError, match=failed):
        parallel.map_tasks(_fail_on_three, range(6), jobs=jobs, backend=backend, desc="demo")


def test_map_tasks_rejects_bad_arguments():
    with pytest.raises(ValueError, match="backend"):
        parallel.map_tasks(abs, [1], backend="mpi")
    with pytest.raises(ValueError, match="scheduler"):
        parallel.map_tasks(abs, [1], scheduler="tcp://x:1")
    with pytest.raises(ValueError, match="jobs"):
        parallel.map_tasks(abs, [1], jobs=0)


def test_seeds_depend_only_on_the_seed_and_the_task():
    a = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(7, 4)]
    b = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(7, 6)[:4]]
    assert a == b
    assert parallel.chunk_sizes(25, 10) == [10, 10, 5]


def test_atomic_write_leaves_nothing_on_failure_and_a_normal_mode_on_success(tmp_path):
    target = tmp_path / "summary.json"

    def broken(tmp):
        tmp.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        outputs.write_atomic(target, broken)
    assert list(tmp_path.iterdir()) == []
    outputs.write_json(target, {"x": np.float64(1.5), "nan": float("nan"), "a": np.arange(2)})
    assert (
        target.read_text() == '{\n  "x": 1.5,\n  "nan": "nan",\n  "a": [\n    0,\n    1\n  ]\n}\n'
    )
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def _die_on_three(task):
    if task == 3:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
    time.sleep(0.05)
    return task


def test_a_killed_worker_names_the_lost_chunk_and_the_cause():
    with pytest.raises(parallel.ParallelError, match=r"demo: task [0-3] of 8 was lost") as err:
        parallel.map_tasks(_die_on_three, range(8), jobs=2, desc="demo")
    assert "SIGKILL" in str(err.value)
    # The next run gets fresh workers.
    assert parallel.map_tasks(abs, [-1, -2], jobs=2) == [1, 2]


def _worker_pid(task):
    time.sleep(0.2)
    return os.getpid()


def test_closing_the_generator_early_stops_the_workers():
    results = parallel.iter_tasks(_worker_pid, range(50), jobs=2)
    _, pid = next(results)
    results.close()  # no warning about the cancelled tasks: pytest turns warnings into errors
    for _ in range(100):  # loky kills its workers on abort; give the kernel a moment
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"worker {pid} still runs after the generator was closed")
