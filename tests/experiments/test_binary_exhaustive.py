"""The binary enumeration against brute force on small totals."""

import itertools
import json
from math import comb

import numpy as np
import pytest
from exact import cen_compare, cen_exp

from experiments.__main__ import main as cli_main
from experiments.binary_exhaustive import compute


@pytest.fixture(scope="module")
def small():
    return compute.run(1, 14, panels=(5, 10))


def brute_matrices(s_max):
    """Every [[TP, FN], [FP, TN]] with 1 <= total <= s_max, by nested loops."""
    return [
        (a, b, c, d)
        for a, b, c, d in itertools.product(range(s_max + 1), repeat=4)
        if 1 <= a + b + c + d <= s_max
    ]


def test_counts():
    # C(s + 3, 3) matrices per total; hockey stick: sum over 1..100 = C(104, 4) - 1.
    assert compute.count_matrices(1, 100) == comb(104, 4) - 1 == 4_598_125
    assert compute.count_matrices(2, 100) == 4_598_125 - 4
    assert len(brute_matrices(8)) == compute.count_matrices(1, 8)


def test_table_matches_brute_force_enumeration(small):
    table, summary = small
    got = sorted(map(tuple, table[["TP", "FN", "FP", "TN"]].to_numpy().tolist()))
    assert got == sorted(brute_matrices(14))
    assert summary["n_matrices"] == len(table) == compute.count_matrices(1, 14)


def test_mcc_undefined_matches_brute_force(small):
    table, summary = small
    brute = sum(1 for a, b, c, d in brute_matrices(14) if 0 in (a + b, c + d, a + c, b + d))
    assert summary["n_mcc_undefined"] == brute == table["mcc_undefined"].sum()


def test_cen_above_1_is_exact(small):
    table, summary = small
    # K = 2: 2 s ln(2) CEN = ln R, so CEN > 1 exactly when R > 4^s.
    signs = []
    for a, b, c, d in table[["TP", "FN", "FP", "TN"]].to_numpy().tolist():
        ratio, s = cen_exp([[a, b], [c, d]])
        limit = 4**s
        signs.append((ratio > limit) - (ratio < limit))
    signs = np.array(signs)
    assert np.array_equal(table["cen_above_1"].to_numpy(), signs > 0)
    assert summary["n_cen_equal_1"] == np.count_nonzero(signs == 0) > 0


def test_cen_max_is_exact(small):
    table, summary = small
    exact = [
        cen_exp([[a, b], [c, d]])
        for a, b, c, d in table[["TP", "FN", "FP", "TN"]].to_numpy().tolist()
    ]
    best = exact[0]
    for e in exact[1:]:
        if cen_compare(e, best) > 0:
            best = e
    at_max = [i for i, e in enumerate(exact) if cen_compare(e, best) == 0]
    expected = [
        table[["TP", "FN", "FP", "TN"]].to_numpy()[i].reshape(2, 2).tolist() for i in at_max
    ]
    assert [m["matrix"] for m in summary["cen_max_at"]] == expected


def test_pearson_by_group_matches_per_group_corrcoef():
    rng = np.random.default_rng(1)
    group = rng.integers(0, 5, 300)
    x = rng.normal(size=300)
    y = x + rng.normal(size=300)
    got = compute.pearson_by_group(x, y, group, 6)
    for g in range(5):
        assert got[g] == pytest.approx(np.corrcoef(x[group == g], y[group == g])[0, 1], abs=1e-12)
    assert np.isnan(got[5])


def test_pearson_by_s_agrees_with_by_total(small):
    table, summary = small
    per_s = compute.by_total(table).set_index("s")
    for s, r in summary["pearson_by_s"].items():
        assert r == pytest.approx(per_s.loc[int(s), "pearson_cen_mcc"], abs=1e-12)


def test_figure3_maximum():
    check = compute.figure3_check(max_ratio=60)
    # x* = 2/e maximizes x (1 - log2 x); the grid agrees to its spacing.
    assert check["grid_x_at_max"] == pytest.approx(2 / np.e, abs=1e-6)
    assert check["grid_cen_max"] == pytest.approx(2 / (np.e * np.log(2)), abs=1e-12)
    assert check["max_abs_diff_cen_formula_vs_cenmcc"] < 1e-12
    assert check["max_abs_diff_mcc_formula_vs_cenmcc"] < 1e-12
    assert check["cen_above_1_iff_0_lt_T_lt_F"]
    # The paper's printed form F/(T+F) log2(2(T+F)/F) is the same function.
    T, F = 3.0, 7.0
    x = F / (T + F)
    assert x * (1 - np.log2(x)) == pytest.approx(F / (T + F) * np.log2(2 * (T + F) / F))
    assert 0.5 * (1 - np.log2(0.5)) == 1.0  # CEN = 1 at T = F


@pytest.mark.slow
def test_cli_writes_summary_and_figures(tmp_path):
    assert cli_main(["binary", "--s-max", "12", "--quiet", "--out", str(tmp_path)]) == 0
    out = tmp_path / "binary"
    summary = json.loads((out / "summary.json").read_text())
    keys = {"n_matrices", "s_min", "s_max", "pearson_cen_mcc", "pearson_by_s"}
    keys |= {"share_cen_above_1", "cen_max", "cen_max_at"}
    assert keys <= set(summary)
    assert set(summary["pearson_by_s"]) == {"5", "10"}
    assert (out / "by_total.csv").exists()
    assert (out / "figure3.png").stat().st_size > 0
    assert (out / "figure4.png").stat().st_size > 0


def test_chunks_of_totals_give_the_same_arrays(monkeypatch):
    whole = compute.enumerate_metrics(1, 14)
    monkeypatch.setattr(compute, "CHUNK", 100)  # about ten groups of totals
    chunked = compute.enumerate_metrics(1, 14)
    for key in ("C", "s", "cen", "mcc", "mcc_undefined", "start"):
        assert np.array_equal(whole[key], chunked[key]), key
