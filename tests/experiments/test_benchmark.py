"""The benchmark's machinery computes the right things (timings themselves are never tested)."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import cenmcc
from experiments import baselines, process_usage
from experiments.benchmark import compute, settings


def test_straightforward_baseline_computes_the_same_metrics(zoo):
    for C in zoo.values():
        C = C[(C.sum(axis=-1) + C.sum(axis=-2) > 0).all(axis=-1)]  # PyCM-like: no empty class
        cen, mcc, acc = baselines.straightforward_numpy(C)
        np.testing.assert_allclose(cen, cenmcc.cen(C), atol=1e-12)
        with pytest.warns(cenmcc.UndefinedMetricWarning):
            np.testing.assert_allclose(mcc, cenmcc.mcc(C), atol=1e-12)
        np.testing.assert_allclose(acc, cenmcc.accuracy(C), atol=1e-15)


def test_peers_compute_the_same_metrics():
    C = compute.random_counts(5, 4, seed=1)
    expected = list(zip(cenmcc.cen(C), cenmcc.mcc(C), strict=True))
    for pair, (cen, mcc) in zip(baselines.pycm_public(C), expected, strict=True):
        assert pair == pytest.approx((cen, mcc), abs=1e-12)
    for pair, (cen, mcc) in zip(baselines.pycm_functions(C), expected, strict=True):
        assert pair == pytest.approx((cen, mcc), abs=1e-12)
    assert baselines.sklearn_mcc(C) == pytest.approx(cenmcc.mcc(C), abs=1e-12)


@pytest.mark.slow
def test_kernel_table_has_every_implementation_and_the_floor_ratio():
    table = compute.measure_kernels([3, 4], cells=2000, repeats=1)
    assert set(table["K"]) == {3, 4}
    floor = table[table["implementation"] == settings.FLOOR]
    assert (floor["ratio_to_floor"] == 1.0).all()
    assert table["implementation"].str.startswith("PyCM").any()
    assert (table["matrices_per_second"] > 0).all()


def test_peak_memory_of_a_process_tree_sees_a_child_allocation():
    # The child allocates ~200 MiB in a grandchild process; the probe must see it.
    code = (
        "import subprocess, sys;"
        "subprocess.run([sys.executable, '-c',"
        " 'import numpy as np, time; a = np.ones(25_000_000); time.sleep(0.5)'], check=True)"
    )
    usage = process_usage.measure(["-c", code])
    assert usage.returncode == 0
    assert usage.peak_mib > 190
    assert usage.wall_seconds >= 0.5
    assert process_usage.measure(["-c", "import sys; sys.exit(3)"]).returncode == 3


def test_a_process_tree_reads_each_processs_parent_once(monkeypatch):
    """A scan reads the parents of the processes new since the last one only (reading every
    process's at every scan took 14% of a core), and keeps a process whose parent ended."""
    reads = []
    parent = process_usage._parent
    monkeypatch.setattr(process_usage, "_parent", lambda pid: reads.append(pid) or parent(pid))
    grandchild = "import numpy as np, time; a = np.ones(25_000_000); time.sleep(60)"
    child_code = (
        "import subprocess, sys;"
        f"subprocess.Popen([sys.executable, '-c', {grandchild!r}]);"
        "sys.stdin.read()"  # until the test closes its input
    )
    child = subprocess.Popen([sys.executable, "-c", child_code], stdin=subprocess.PIPE)
    tree = process_usage.ProcessTree(child.pid)
    big = 190 * 2**20  # the grandchild's 200 MB, once allocated
    try:
        deadline = time.monotonic() + 30
        # Until the grandchild alone holds its array: it may still be filling it when the two
        # together first pass the mark, and be under it once its parent has ended.
        while tree.rss_bytes() - process_usage.resident_bytes(child.pid) < big:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        first = len(reads)
        reads.clear()
        assert tree.rss_bytes() >= big
        assert len(reads) < first / 2  # only the processes started since the last scan
        child.communicate(b"")  # the child ends: its child is handed to another parent
        assert tree.rss_bytes() >= big  # and is still counted
    finally:
        child.kill()
        child.wait()
        for pid, inside in tree.member.items():
            if inside and pid != child.pid:
                os.kill(pid, signal.SIGKILL)


def test_jobs_series_doubles_up_to_the_cores():
    assert compute.jobs_series(1) == [1]
    assert compute.jobs_series(2) == [1, 2]
    assert compute.jobs_series(12) == [1, 2, 4, 8, 12]


@pytest.mark.slow
def test_scale_table_runs_each_size_and_each_jobs_count_in_a_fresh_process():
    table = compute.measure_scale([300], [400], [1, 2], extra=("--resamples", "40"))
    assert table[["series", "n", "jobs"]].to_dict("records") == [
        {"series": "size", "n": 300, "jobs": os.cpu_count()},
        {"series": "jobs", "n": 400, "jobs": 1},
        {"series": "jobs", "n": 400, "jobs": 2},
    ]
    # The same seed gives the same statistics for any number of workers, another n others.
    digests = table["statistics_sha256"].tolist()
    assert digests[1] == digests[2] != digests[0]
    assert all(len(d) == 12 and int(d, 16) >= 0 for d in digests)
    # Computation is part of the command; a process tree holds at least an interpreter.
    assert (table["computation_seconds"] > 0).all()
    assert (table["computation_seconds"] < table["wall_seconds"]).all()
    assert (table["peak_memory_mib"] > 20).all()
    np.testing.assert_allclose(
        table["matrices_per_second"], table["n"] / table["computation_seconds"]
    )
    assert ((table["serial_fraction"] > 0) & (table["serial_fraction"] < 1)).all()
    s = table["serial_fraction"]
    np.testing.assert_allclose(table["amdahl_speedup_16"], 1 / (s + (1 - s) / 16))


def test_an_interrupted_measurement_stops_its_command(tmp_path):
    marker = tmp_path / "stopped"
    code = (
        "import signal, sys, time, pathlib;"
        f"signal.signal(signal.SIGTERM, lambda *a: (pathlib.Path({str(marker)!r}).touch(),"
        " sys.exit(143)));"
        "time.sleep(60)"
    )

    def interrupt(*args):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(KeyboardInterrupt):
            process_usage.measure(["-c", code])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert marker.exists()  # the command got SIGTERM and ran its handler before we went on


def test_a_failing_experiment_run_is_an_error_naming_the_command(tmp_path):
    with pytest.raises(RuntimeError, match=r"`python -m experiments binary --s-max 0` failed"):
        compute.run_measured(["binary", "--s-max", "0"], tmp_path)


def test_chunk_table_times_the_chunk_and_its_floors():
    table = compute.measure_chunks(n_chunks=2, repeats=1)
    assert table["part"].iloc[0].startswith("chunk")
    assert any(p.startswith("floor: np.log") for p in table["part"])
    assert (table["ms_per_chunk"] > 0).all()
    assert "draw (papers' generator)" in set(table["part"])
    # Each part is given against the whole chunk, and as matrices (10,000 a chunk) per second.
    chunk = table["ms_per_chunk"].iloc[0]
    np.testing.assert_allclose(table["ratio_to_chunk"], table["ms_per_chunk"] / chunk)
    np.testing.assert_allclose(table["matrices_per_second"], 10_000 / table["ms_per_chunk"] * 1e3)


@pytest.mark.slow
def test_measures_table_compares_eight_measures_with_two(tmp_path):
    table = compute.measure_measures(3000)
    assert table["pairs"].tolist() == [1, 28]
    assert table["ratio_to_cen_mcc"].iloc[0] == 1.0
    assert (table["wall_seconds"] > 0).all()
