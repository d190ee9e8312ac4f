"""The discriminancy experiment against O(n²) pair counting on exact rationals."""

import itertools
import json
from math import comb

import numpy as np
import pytest
from exact import exact_ranks

import cenmcc
from experiments.__main__ import main as cli_main
from experiments.discriminancy import compute, settings
from experiments.measures import mcc_counting_fills


def brute_pairs(f, g) -> dict:
    """R, S, P, Q, T over unordered pairs, from the full n x n sign matrices."""
    f, g = np.asarray(f), np.asarray(g)
    df = np.sign(f[:, None] - f[None, :])
    dg = np.sign(g[:, None] - g[None, :])
    upper = np.triu(np.ones(df.shape, dtype=bool), 1)
    return {
        "R": int(((df * dg > 0) & upper).sum()),
        "S": int(((df * dg < 0) & upper).sum()),
        "P": int(((df != 0) & (dg == 0) & upper).sum()),
        "Q": int(((df == 0) & (dg != 0) & upper).sum()),
        "T": int(((df == 0) & (dg == 0) & upper).sum()),
    }


@pytest.mark.parametrize("sizes", [(2, 4, 3), (1, 2, 2), (3, 1, 1)])
def test_exact_counts_match_brute_force(sizes):
    M = cenmcc.matrices_with_row_sums(sizes)
    # Exact ranks from Fractions (test_ties), oriented higher-is-better: -CEN, MCC, ACC.
    exact = {
        "cen": -np.array(exact_ranks(M, "cen")),
        "mcc": np.array(exact_ranks(M, "mcc")),
        "acc": np.array(exact_ranks(M, "accuracy")),
    }
    row = compute.evaluate_case((sizes, 1e-9))
    for f, g in settings.PAIRS:
        brute = brute_pairs(exact[f], exact[g])
        for x in "RSPQT":
            assert row[f"{x}_{f}_{g}"] == brute[x], (f, g, x)
        assert row[f"discriminancy_{f}_{g}"] == brute["P"] / brute["Q"]
        assert row[f"consistency_{f}_{g}"] == brute["R"] / (brute["R"] + brute["S"])
    for m in settings.METRICS:
        assert row[f"distinct_{m}"] == len(set(exact[m].tolist()))


def test_float_eq_counts_match_brute_force():
    sizes = (2, 4, 3)
    M = cenmcc.matrices_with_row_sums(sizes)
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="3 of 900"):
        mcc = cenmcc.mcc(M)
    values = {"cen": -cenmcc.cen(M), "mcc": mcc, "acc": cenmcc.accuracy(M)}
    row = compute.evaluate_case((sizes, 1e-9))
    for f, g in settings.PAIRS:
        brute = brute_pairs(values[f], values[g])
        for x in "RSPQT":
            assert row[f"{x}_{f}_{g}_float_eq"] == brute[x], (f, g, x)


def test_undefined_mcc_is_counted():
    # With every true class non-empty, MCC is 0/0 only when one column holds every sample.
    M = cenmcc.matrices_with_row_sums([2, 1, 3])
    _, undefined = mcc_counting_fills(M)
    assert np.count_nonzero(undefined) == 3
    assert (M[undefined].max(axis=1) == 0).sum() == 3 * 2  # two empty columns in each


@pytest.mark.parametrize("sizes", [(2, 4, 3), (1, 2, 5), (1, 1, 3)])
def test_exact_results_do_not_depend_on_the_order_of_class_sizes(sizes):
    rows = [compute.evaluate_case((p, 1e-9)) for p in set(itertools.permutations(sizes))]
    keys = [k for k in rows[0] if k != "sizes" and "float_eq" not in k]
    for row in rows[1:]:
        assert {k: row[k] for k in keys} == {k: rows[0][k] for k in keys}


def test_permuting_classes_maps_the_domains_onto_each_other():
    # The reason for the order independence: C -> Π C Πᵀ is a bijection between the matrices
    # with sizes (a, b, c) and those with the permuted sizes.
    perm = [1, 2, 0]
    A = cenmcc.matrices_with_row_sums([2, 4, 3])
    B = cenmcc.matrices_with_row_sums([4, 3, 2])
    mapped = A[:, perm][:, :, perm].reshape(len(A), -1)
    assert {tuple(r) for r in mapped.tolist()} == {tuple(r) for r in B.reshape(len(B), -1).tolist()}


@pytest.mark.parametrize("n", range(3, 20))
def test_splits_are_every_composition_into_three_parts(n):
    ordered = compute.splits(n, n, ordered=True)
    assert len(ordered) == len(set(ordered)) == comb(n - 1, 2)
    unordered = compute.splits(n, n)
    assert set(unordered) == {tuple(sorted(s)) for s in ordered}
    assert len(unordered) == round(n * n / 12)  # partitions of n into exactly 3 parts


@pytest.mark.slow
def test_cli_writes_summary_table_and_figure(tmp_path):
    args = "discriminancy --n-min 5 --n-max 6 --order-check-max-n 5 --jobs 1 --quiet --out"
    status = cli_main([*args.split(), str(tmp_path)])
    assert status == 0
    out = tmp_path / "discriminancy"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_cases"] == len(compute.splits(5, 6)) == len(summary["cases"])
    case_keys = {"sizes", "n_matrices", "P", "Q", "discriminancy_cen_mcc"}
    case_keys |= {"discriminancy_cen_mcc_float_eq", "consistency_cen_mcc"}
    case_keys |= {"discriminancy_cen_acc", "discriminancy_mcc_acc"}
    assert case_keys <= set(summary["cases"][0])
    assert summary["paper_case"]["n_matrices"] == 900
    assert summary["order_check"]["order_independent"] is True
    assert (out / "cases.csv").exists()
    assert (out / "discriminancy.png").stat().st_size > 0
