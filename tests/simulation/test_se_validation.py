"""The standard-error check: independent seeds, their spread against the claimed errors."""

import dataclasses
import json
import math
import re
import warnings

import numpy as np
import pytest

from cenmcc.simulation import Simulation, run
from cenmcc.simulation.validation import band, validate, verdict


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
    within_k = {f"pairs.cen.mcc.within_k.{name}" for name in ("consistency", "kendall_tau_b")}
    assert within_k <= set(stats)  # the pooled within-K statistics are checked too
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
    from cenmcc.commands import simulate as command

    monkeypatch.setattr(Simulation, "chunks", lambda self: pytest.fail("a chunk was planned"))
    with pytest.raises(SystemExit) as exit_info:
        command.main(["validate", *argv, "--out", str(tmp_path), "--quiet"])
    assert exit_info.value.code == 2
    assert re.search(message, capsys.readouterr().err.strip().splitlines()[-1])
    assert list(tmp_path.iterdir()) == []


def test_validation_needs_two_whole_chunks():
    with pytest.raises(ValueError, match="two whole chunks: 2,000 matrices in chunks of 1,500"):
        validate(dataclasses.replace(SIM, chunk_size=1500), 3)


def _u_statistic_se(f, g):
    """The SE of the consistency of f and g from each matrix's concordant and discordant
    counts (the U-statistic's delta-method variance, 4 Var(psi) / n; Hoeffding 1948)."""
    n = f.size
    c, d = np.zeros(n), np.zeros(n)
    for i in range(0, n, 500):
        s = np.sign(f[i : i + 500, None] - f) * np.sign(g[i : i + 500, None] - g)
        c[i : i + 500], d[i : i + 500] = (s > 0).sum(axis=1), (s < 0).sum(axis=1)
    uc, ud = c.mean(), d.mean()
    psi = (ud * c - uc * d) / (uc + ud) ** 2
    return 2 * psi.std(ddof=1) / np.sqrt(n)


def test_a_run_of_two_chunks_gets_standard_errors_as_honest_as_one_of_many():
    # Two chunks gave two replicates and two jackknife groups: SEs that were a coin toss.
    sim = dataclasses.replace(SIM, n_matrices=8000, chunk_size=4000, keep_table=True)
    result = run(sim, jobs=1, quiet=True)
    errors = result.summary["standard_errors"]
    assert errors["replicates"] == 40  # strided parts of the 2 chunks, 20 each
    assert errors["replicate_size"] == 200
    assert errors["moment_jackknife_groups"] == 40
    assert errors["not_honest"] == {}
    t = result.table
    exact = _u_statistic_se(-t["cen"], t["mcc"])
    assert 0.75 < result.pair("cen", "mcc")["consistency_se"] / exact < 1.33
    sd = t["mcc"].std(ddof=1) / np.sqrt(t["mcc"].size)
    assert 0.75 < result.summary["measures"]["mcc"]["mean_se"] / sd < 1.33


def test_a_run_without_honest_standard_errors_says_so_once():
    sim = dataclasses.replace(SIM, n_matrices=400, chunk_size=200)
    with pytest.warns(UserWarning, match="not honest") as caught:
        summary = run(sim, jobs=1, quiet=True).summary
    assert len([w for w in caught if "not honest" in str(w.message)]) == 1
    assert "2 replicates of the pair statistics" in str(caught[0].message)
    assert set(summary["standard_errors"]["not_honest"]) == {"pairs"}


def test_a_validation_says_its_band_and_verdict():
    assert band(60) == pytest.approx(
        (0.75 * math.exp(-2 / math.sqrt(118)), 1.33 * math.exp(2 / math.sqrt(118)))
    )
    inside = {"ratio": 1.2, "band": band(20)}
    assert verdict(inside) == "honest"
    assert verdict({**inside, "ratio": 100.0}) == "SE too small"
    assert verdict({**inside, "ratio": 0.2}) == "SE too large"


SHARED = '''
import numpy as np

def shared(rng, size):
    """One random level a call, shared by all its matrices: not independent draws."""
    level = rng.integers(1, 30)
    return rng.integers(0, 30, size=(size, 3, 3)) + level * np.eye(3, dtype=np.int64)

def independent(rng, size):
    return rng.integers(0, 30, size=(size, 3, 3))
'''


@pytest.mark.parametrize(("generator", "status"), [("shared", 1), ("independent", 0)])
def test_validate_exits_with_a_failure_when_a_spread_is_outside_its_band(
    tmp_path, monkeypatch, capsys, generator, status
):
    # issue 45 item 10: it exited 0 at ratios of 100
    from cenmcc.commands import simulate as command

    (tmp_path / "gens.py").write_text(SHARED)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(tmp_path)
    argv = ["validate", "--generator", f"gens:{generator}", "--n", "1000", "--chunk-size", "500"]
    argv += ["--seeds", "8", "--jobs", "1", "--quiet", "--out", str(tmp_path)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert command.main(argv) == status
    out, err = capsys.readouterr()
    lines = [line for line in out.splitlines() if line.startswith(("measures.", "pairs."))]
    assert "measures.mcc.mean: " + ("SE too small" if status else "honest") in out
    assert all(re.search(r": (honest|SE too small|SE too large|not compared): ", x) for x in lines)
    report = json.loads((tmp_path / f"gens-{generator}-validation" / "validation.json").read_text())
    assert bool(report["failed"]) == bool(status)
    assert ("not honest" in err) == bool(status)
