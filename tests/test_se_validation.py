"""The standard-error check: independent seeds, their spread against the claimed errors."""

import dataclasses
import re

import numpy as np
import pytest

from cenmcc.simulation import Simulation
from cenmcc.simulation.validation import validate


def draw(rng, size):
    return rng.integers(0, 30, size=(size, 3, 3))


SIM = Simulation(draw, 2000, measures=("cen", "mcc"), chunk_size=200, seed=5)


def test_validation_compares_the_spread_over_seeds_with_the_claimed_errors():
    report = validate(SIM, 4, jobs=1, quiet=True)
    assert report["seeds"] == [6, 7, 8, 9]
    assert report["simulation"]["measures"] == ["cen", "mcc"]
    assert report["simulation"]["generator"].endswith("draw")
    stats = report["statistics"]
    assert {"measures.cen.mean", "pairs.cen.mcc.consistency"} <= set(stats)
    assert not any("by_k" in name for name in stats)
    for s in stats.values():
        assert s["seeds"] == 4
        assert s["seed_sd"] >= 0
        assert s["claimed_se"] > 0
        assert s["ratio"] == pytest.approx(s["seed_sd"] / s["claimed_se"])
    # A mean's claimed error is about its spread: the ratio is far from 0 and from 10.
    assert 0.1 < stats["measures.cen.mean"]["ratio"] < 10


def test_validation_by_k_adds_each_dimension():
    stats = validate(SIM, 2, by_k=True, jobs=1, quiet=True)["statistics"]
    assert any(name.startswith("measures.cen.by_k.3.") for name in stats)


def test_validation_needs_two_seeds():
    with pytest.raises(ValueError, match="n_seeds must be at least 2"):
        validate(SIM, 1)


def test_the_seeds_are_independent_runs():
    report = validate(SIM, 3, jobs=1, quiet=True)
    means = report["statistics"]["measures.mcc.mean"]
    assert means["seed_sd"] > 0  # different seeds, different draws
    assert np.isfinite(means["mean"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n", "5000", "--seeds", "3"], "argument --n: .*at least two whole chunks.* 20,000"),
        (["--seeds", "1"], "argument --seeds: n_seeds must be at least 2"),
    ],
)
def test_validate_refuses_what_it_cannot_compare_before_any_work(
    tmp_path, monkeypatch, capsys, argv, message
):
    from cenmcc.simulation import command

    monkeypatch.setattr(Simulation, "chunks", lambda self: pytest.fail("a chunk was planned"))
    with pytest.raises(SystemExit) as exit_info:
        command.main(["validate", *argv, "--out", str(tmp_path), "--quiet"])
    assert exit_info.value.code == 2
    assert re.search(message, capsys.readouterr().err.strip().splitlines()[-1])
    assert list(tmp_path.iterdir()) == []


def test_validation_needs_two_whole_chunks():
    with pytest.raises(ValueError, match="two whole chunks: 2,000 matrices in chunks of 1,500"):
        validate(dataclasses.replace(SIM, chunk_size=1500), 3)
