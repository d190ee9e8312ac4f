"""A user's measure on a dask cluster: given on the command line (``--measure module:object``)
to a cluster that cannot import it, or leaving its undefined values out, it gives the bits of a
run on loky.

The cluster and the checks that its processes end are those of ``test_cluster.py``.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from test_cluster import GUARD, _alive, _assert_ended, cluster

import cenmcc
from cenmcc.simulation import Simulation, run

pytestmark = [pytest.mark.cluster, pytest.mark.slow]  # starts dask clusters and subprocesses

MEASURE = '''
import os
from pathlib import Path

import numpy as np

import cenmcc


def gwet_ac1(C):
    """Gwet's AC1; each process that computes it leaves its process id in {pids!r}."""
    (Path({pids!r}) / str(os.getpid())).touch()
    n = C.sum(axis=(-2, -1))
    observed = np.trace(C, axis1=-2, axis2=-1) / n
    pi = (C.sum(axis=-1) + C.sum(axis=-2)) / (2 * n[..., None])
    chance = (pi * (1 - pi)).sum(axis=-1) / (C.shape[-1] - 1)
    return (observed - chance) / (1 - chance)


AC1 = cenmcc.Measure("gwet_ac1", gwet_ac1, True, "Gwet's AC1", bounds=(-1.0, 1.0))
'''


def simulate(home: Path, name: str, *parallel: str) -> subprocess.CompletedProcess:
    """``python -m cenmcc.simulation simulate --measure mymeasure:AC1`` run in ``home``."""
    argv = ["simulate", "--measures", "cen,mcc", "--measure", "mymeasure:AC1", "--n", "1200"]
    argv += ["--chunk-size", "150", "--seed", "3", "--no-figures", "--quiet", "--name", name]
    root = str(Path(__file__).resolve().parents[2])  # this checkout's cenmcc
    return subprocess.run(
        [sys.executable, "-m", "cenmcc.simulation", *argv, "--out", "runs", *parallel],
        cwd=home,
        env={**os.environ, "PYTHONPATH": root},
        capture_output=True,
        text=True,
        timeout=10 * GUARD,
        check=True,
    )


def test_a_users_measure_on_the_command_line_runs_on_the_dask_workers(tmp_path):
    home, pids = tmp_path / "client", tmp_path / "pids"
    home.mkdir()
    pids.mkdir()
    (home / "mymeasure.py").write_text(textwrap.dedent(MEASURE.format(pids=str(pids))))
    simulate(home, "loky", "--jobs", "2", "--backend", "loky")
    for pid in pids.iterdir():
        pid.unlink()
    cluster_dir = tmp_path / "cluster"  # the workers' directory: no mymeasure.py there
    cluster_dir.mkdir()
    with cluster(cluster_dir, workers=2) as address:
        simulate(home, "dask", "--backend", "dask", "--scheduler", address)
        ran = {int(p.name) for p in pids.iterdir()}
        assert all(map(_alive, ran))  # not the command's process, which has ended
    assert len(ran) == 2  # both workers computed the measure
    assert os.getpid() not in ran
    _assert_ended(ran)  # they were the cluster's processes, ended with it
    loky, dask = (home / "runs" / name / "summary.json" for name in ("loky", "dask"))
    assert '"gwet_ac1"' in loky.read_text()
    assert dask.read_bytes() == loky.read_bytes()


def sparse(rng, size):
    return rng.integers(0, 3, size=(size, 4, 4))


def precision_0(C):
    return C[:, 0, 0] / C[:, :, 0].sum(axis=-1)


def test_a_measure_that_omits_its_undefined_values_gives_the_same_bits_on_dask():
    omits = cenmcc.Measure("precision_0", precision_0, True, bounds=(0, 1), undefined="omit")
    sim = Simulation(sparse, 1200, measures=("cen", "mcc", omits), chunk_size=150, seed=3)
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="precision_0 .* left out"):
        reference = run(sim, jobs=1, quiet=True)
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="precision_0 .* left out"):
        result = run(sim, jobs=2, backend="dask", quiet=True)
    assert reference.summary["pairs"]["mcc"]["precision_0"]["left_out"] > 0
    assert np.isfinite(reference.summary["measures"]["precision_0"]["mean"])
    assert json.dumps(result.summary) == json.dumps(reference.summary)
    pids = {pid for _, pid in result.processes}
    assert len(pids) == 2
    assert os.getpid() not in pids
    _assert_ended(pids)
