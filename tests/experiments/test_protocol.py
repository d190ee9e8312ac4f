"""The protocol-sensitivity experiment: each reading's generator, the distances, the command."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import cenmcc
from experiments import random_matrices
from experiments.__main__ import main
from experiments.protocol import command, compute, findings, settings
from paper_checks import protocol_checks
from paper_checks.record import evaluate

N, SEED = 3_000, 7


def draw(reading, size=400, seed=0):
    """One chunk of the reading's generator: its stacks, one per K."""
    generator = reading.config(n_matrices=size, chunk_size=size).generator
    return generator(np.random.default_rng(seed), size)


def reading(name):
    return settings.READINGS_BY_NAME[name]


def off_diagonal(stack):
    K = stack.shape[-1]
    return stack[:, ~np.eye(K, dtype=bool)]


def test_printed_reading_matches_random_matrices():
    printed = reading("printed")
    summary = compute.simulate(
        printed, N, SEED, n_resamples=99, chunk_size=1_000, jobs=1, quiet=True
    )
    config = random_matrices.Config(n_matrices=N, seed=SEED, n_resamples=99, chunk_size=1_000)
    reference, _ = random_matrices.run(config, jobs=1, quiet=True)
    for key in (
        "pearson_tmcc_kcen",
        "consistency_tmcc_kcen",
        "mean_ratio_tmcc_kcen",
        "sd_ratio_tmcc_kcen",
        "ci95_student",
        "pearson_cen_mcc",
    ):
        assert summary[key] == reference.summary[key], key
    # the standard errors of the printed reading are the experiment's own
    se = findings.standard_errors(printed, summary)
    engine = reference.summary["standard_errors"]
    for name in ("pearson_tmcc_kcen", "consistency_tmcc_kcen", "pearson_cen_mcc"):
        assert se[name] == engine[name]
    assert se["mean_ratio"] == engine["mean_ratio_tmcc_kcen"]


def test_printed_generator_ranges():
    for stack in draw(reading("printed")):
        K = stack.shape[-1]
        assert 3 <= K <= 30
        diag = np.diagonal(stack, axis1=1, axis2=2)
        assert diag.min() >= 1
        assert diag.max() <= 1000
        assert off_diagonal(stack).min() >= 1


def test_n_balanced_gives_equal_counts_per_n():
    sizes = [len(s) for s in draw(reading("n-balanced"), size=28 * 10)]
    assert sizes == [10] * 28


def test_n_3_to_29_never_draws_30():
    dims = {s.shape[-1] for s in draw(reading("n-3-to-29"), size=2_000)}
    assert max(dims) == 29
    assert min(dims) == 3


def test_rho_scopes():
    """Per matrix, all off-diagonal entries share one bound; per row, rows differ."""

    def spread_within(name):
        ratios = []
        for stack in draw(reading(name), size=2_000):
            K = stack.shape[-1]
            if K < 10:
                continue
            off = np.where(np.eye(K, dtype=bool), np.nan, stack.astype(float))
            row_max = np.nanmax(off, axis=2)  # (m, K)
            ratios.append(np.nanmax(row_max, axis=1) / np.nanmin(row_max, axis=1))
        return np.median(np.concatenate(ratios))

    assert spread_within("printed") < 1.5  # rows share the matrix's bound
    assert spread_within("rho-per-row") > 3

    def mean_over_max(name):
        """Off-diagonal mean / max per matrix: 1/2 for one uniform bound, 1/4 for one per entry."""
        return np.median(
            np.concatenate(
                [
                    off_diagonal(s).mean(axis=1) / off_diagonal(s).max(axis=1)
                    for s in draw(reading(name), size=2_000)
                    if s.shape[-1] >= 10
                ]
            )
        )

    assert mean_over_max("printed") == pytest.approx(0.5, abs=0.05)
    assert mean_over_max("rho-per-entry") == pytest.approx(0.25, abs=0.05)


def test_integer_range_readings():
    zeros = np.concatenate(
        [off_diagonal(s).ravel() for s in draw(reading("offdiag-from-0"), size=2_000)]
    )
    assert zeros.min() == 0
    diag0 = np.concatenate(
        [np.diagonal(s, axis1=1, axis2=2).ravel() for s in draw(reading("diag-from-0"), 3_000)]
    )
    assert diag0.min() == 0
    assert diag0.max() == 1000
    excl = np.concatenate(
        [np.diagonal(s, axis1=1, axis2=2).ravel() for s in draw(reading("upper-exclusive"), 3_000)]
    )
    assert excl.min() == 1
    assert excl.max() == 999


def test_k_log_readings():
    K = np.arange(3, 31)
    a, b, c = cenmcc.K_PAPER
    for name, base in (("k-log2", 2.0), ("k-log10", 10.0)):
        log = np.log(K) / math.log(base)
        expected = a * (1 + b / log + c / log**2)
        np.testing.assert_allclose(reading(name).k(K), expected, rtol=1e-12)
    assert reading("printed").k is cenmcc.k_factor


def test_measure_readings():
    C = np.array([[[50, 3, 4], [2, 60, 1], [5, 5, 40]]])
    K, total = 3, C.sum()

    def measure(name, which):
        (found,) = [x for x in reading(name).measures if getattr(x, "name", x) == which]
        return found.function(C) if isinstance(found, cenmcc.Measure) else None

    mcc = cenmcc.mcc(C)
    expected = (1 - mcc) * (1 + np.log(total / K) / np.log(2 * K - 2)) * (1 - 1 / K)
    np.testing.assert_allclose(measure("eq3-preprint", "tmcc"), expected, rtol=1e-12)
    for name, base in (("cen-base-2N", 2 * K), ("cen-base-N", K)):
        np.testing.assert_allclose(
            measure(name, "cen"), cenmcc.cen(C) * np.log(2 * K - 2) / np.log(base), rtol=1e-12
        )
        assert measure(name, "tmcc") is None  # the printed tMCC, by name
    assert reading("printed").measures == ("cen", "mcc", "tmcc")


def test_consistency_tie_rules():
    pairs = {"concordant": 6, "discordant": 2, "f_only": 1, "g_only": 0, "both_tied": 1}
    assert findings.consistency(pairs, "excluded") == 6 / 8
    assert findings.consistency(pairs, "half") == 7 / 10


def test_distances_on_a_made_up_summary():
    stats = {name: t.value for name, t in settings.TARGETS.items()} | {"pearson_cen_mcc": -0.97}
    stats["mean_ratio"] = settings.TARGETS["mean_ratio"].value + 0.001
    stats["pearson_tmcc_kcen"] = 0.995
    se = dict.fromkeys(settings.STATISTICS, 1e-4)
    rows = {r["statistic"]: r for r in findings.distances(stats, se, n=200_000)}
    # the mean ratio's published SE comes from the printed interval
    expected = 0.001 / math.hypot(1e-4, settings.SE_MEAN_PRINTED)
    assert rows["mean_ratio"]["distance"] == pytest.approx(expected)
    assert not rows["mean_ratio"]["reproduced"]
    # an unstated published SE is the run's own at 200,000: sqrt(2) se
    gap = 0.995 - settings.TARGETS["pearson_tmcc_kcen"].value
    assert rows["pearson_tmcc_kcen"]["distance"] == pytest.approx(gap / (math.sqrt(2) * 1e-4))
    assert rows["sd_ratio"]["distance"] == 0
    assert rows["sd_ratio"]["reproduced"]
    assert math.isnan(rows["pearson_cen_mcc"]["distance"])


def test_verdict_names_the_closest():
    overview = pd.DataFrame(
        {"reading": ["a", "b"], "reproduced": [2, 6], "max_abs_distance": [40.0, 2.5]}
    )
    closest, sentence = findings.verdict(overview)
    assert closest["reading"] == "b"
    assert "b reproduce" in sentence
    closest, sentence = findings.verdict(overview.iloc[:1])
    assert closest["reading"] == "a"
    assert sentence.startswith("No reading")


def test_bad_reading_is_refused():
    with pytest.raises(ValueError, match="k_log"):
        settings.Reading("x", "bad", k_log="3")
    with pytest.raises(ValueError, match="k_scheme"):
        settings.Reading("x", "bad", (("k_scheme", "sorted"),))


@pytest.mark.slow
def test_command_writes_outputs(tmp_path, capsys):
    argv = [
        "protocol",
        "--n",
        "20000",
        "--resamples",
        "99",
        "--jobs",
        "1",
        "--quiet",
        "--readings",
        "printed,k-log2,k-refitted",
        "--validation-seeds",
        "2",
        "--validation-n",
        "2000",
        "--out",
        str(tmp_path),
    ]
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert main(argv) == 0
    # issue 45 item 23: the package's own command does not trip its own warning
    assert not [w for w in said if "not honest" in str(w.message)]
    printed = capsys.readouterr().out
    assert f"protocol: outputs in {tmp_path / 'protocol'}\n" in printed
    assert "staging" not in printed  # only the final destination is named
    out = tmp_path / "protocol"
    for name in ("readings.csv", "readings.md", "protocol.png", "protocol.pdf", "timing.json"):
        assert (out / name).stat().st_size > 0
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["readings"]) == ["printed", "k-log2", "k-refitted"]
    table = pd.read_csv(out / "readings.csv")
    assert len(table) == 3 * len(settings.STATISTICS)
    best = min(summary["readings"].items(), key=lambda kv: kv[1]["max_abs_distance"])
    assert summary["closest"]["reading"] == best[0]
    # k-log2 and the printed reading share matrices: same r(CEN, MCC), different mean ratio
    r = summary["readings"]
    assert (
        r["printed"]["statistics"]["pearson_cen_mcc"]
        == r["k-log2"]["statistics"]["pearson_cen_mcc"]
    )
    assert r["printed"]["statistics"]["mean_ratio"] < r["k-log2"]["statistics"]["mean_ratio"]


@pytest.mark.parametrize("record", protocol_checks.RECORDS, ids=lambda r: r.id)
def test_paper_checks_records_as_recorded(record):
    """The records read figures/protocol/summary.json and give their recorded verdict."""
    outcome = evaluate(record)
    assert outcome.verdict == record.verdict
    assert outcome.as_recorded


@pytest.mark.slow
def test_the_figure_draws_the_stored_values_the_same_on_every_processor(tmp_path):
    from cenmcc.runtime.files import stored_table

    se = dict.fromkeys(settings.STATISTICS, 1e-4)
    stats = {name: t.value for name, t in settings.TARGETS.items()} | {"pearson_cen_mcc": -0.97}
    names = [f"r{i}" for i in range(12)]
    rows = findings.distances(stats, se, n=200_000)
    table = pd.DataFrame([{"reading": name} | row for name in names for row in rows])
    shown = table["statistic"].isin(settings.TARGETS)
    # distances whose 11th and 12th digits are 12: 3e-10 more stores the same 10 digits
    values = [1.23456789012, -2.34567890123, 4.56789012312, -12.3456789012]
    table.loc[shown, "distance"] = np.resize(values, shown.sum())
    changed = table.assign(distance=table["distance"] + 3e-10)  # another processor's bits
    assert stored_table(changed).equals(stored_table(table))
    reading = {"description": "d", "reproduced": 1, "max_abs_distance": 2.0}
    readings = dict.fromkeys(names, reading)
    summary = {"n_matrices": 10, "seed": 0, "verdict": "v", "readings": readings}
    pdfs = []
    for i, run in enumerate((table, changed)):
        (tmp_path / str(i)).mkdir()
        command.write_outputs(run, summary, tmp_path / str(i))
        pdfs.append((tmp_path / str(i) / "protocol.pdf").read_bytes())
    assert pdfs[0] == pdfs[1]
