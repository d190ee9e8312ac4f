"""Exact tie ranks against brute force with exact rationals computed from the definitions."""

import itertools
from fractions import Fraction
from math import sqrt

import numpy as np
import pytest
from exact import cen_compare, cen_exp, exact_ranks, signed_mcc_square
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cenmcc
from cenmcc import tie_ranks
from cenmcc.enumeration import matrices_with_row_sums, matrices_with_total
from cenmcc.ties import (
    CEN_CELL_TABLE_TOTAL,
    MCC_FACTOR_MAX_TOTAL,
    MCC_INT64_MAX_TOTAL,
    _cen_classes,
    _dense_ranks,
    _stacks,
    tie_values,
    undecided,
)

SMALL_STACKS = {
    "rows (2, 1, 2)": matrices_with_row_sums([2, 1, 2]),
    "rows (1, 0, 3)": matrices_with_row_sums([1, 0, 3]),
    "2x2, totals 1..6": matrices_with_total(range(1, 7), 2),
    "3x3, totals 1..2": matrices_with_total([1, 2], 3),
}


@pytest.mark.parametrize("metric", ["mcc", "cen", "accuracy"])
@pytest.mark.parametrize("name", list(SMALL_STACKS))
def test_matches_brute_force_on_enumerated_stacks(name, metric):
    C = SMALL_STACKS[name]
    assert tie_ranks(C, metric).tolist() == exact_ranks(C, metric)


@settings(max_examples=25, deadline=None)
@given(
    arrays(
        np.int64, st.tuples(st.integers(1, 12), st.just(3), st.just(3)), elements=st.integers(0, 4)
    )
)
def test_matches_brute_force_on_random_stacks(C):
    C = C[C.sum(axis=(1, 2)) > 0]
    for metric in ("mcc", "cen", "accuracy"):
        assert tie_ranks(C, metric).tolist() == exact_ranks(C, metric)


def test_rounding_does_not_split_exact_ties():
    # Permuting classes leaves every metric unchanged, but float sums differ in the last bits.
    M = matrices_with_row_sums([2, 4, 3])
    cen = cenmcc.cen(M)
    assert len(np.unique(cen)) > tie_ranks(M, "cen").max() + 1  # floats split some exact ties
    perm = [2, 0, 1]
    both = np.concatenate([M, M[:, perm][:, :, perm]])
    for metric in ("mcc", "cen", "accuracy"):
        r = tie_ranks(both, metric)
        assert np.array_equal(r[: len(M)], r[len(M) :])


def test_rounding_does_not_merge_distinct_values():
    # MCC and accuracy of [[N, 1], [0, N]] are 1 - O(1/N): they round to 1.0 for N = 10**17.
    N = 10**17
    C = np.array([[[N, 0], [0, N]], [[N, 1], [0, N]]])
    assert cenmcc.mcc(C)[0] == cenmcc.mcc(C)[1]
    assert cenmcc.accuracy(C)[0] == cenmcc.accuracy(C)[1]
    assert tie_ranks(C, "mcc").tolist() == [1, 0]
    assert tie_ranks(C, "accuracy").tolist() == [1, 0]


@pytest.mark.parametrize(("metric", "scale"), [("mcc", 60_000), ("accuracy", 60_000), ("cen", 7)])
def test_scaled_matrices_tie_across_totals(metric, scale):
    # Every metric is invariant under C -> λC. For MCC, λ = 60 000 crosses into exact Python
    # integers (totals above MCC_INT64_MAX_TOTAL); for CEN, exponent vectors scale with s.
    C = matrices_with_row_sums([1, 2, 1])
    r = tie_ranks([C, scale * C], metric)
    assert np.array_equal(r[: len(C)], r[len(C) :])
    assert np.array_equal(r[: len(C)], tie_ranks(C, metric))
    assert metric != "mcc" or 4 * scale > MCC_INT64_MAX_TOTAL


def test_large_totals_use_exact_integers_for_mcc():
    C = matrices_with_row_sums([2, 1, 2])
    big = C * 10**9 + np.eye(3, dtype=np.int64)  # totals ~ 5e9: num² ~ 1e39
    assert tie_ranks(big, "mcc").tolist() == exact_ranks(big, "mcc")


def test_mcc_values_round_the_reduced_fraction_once():
    # sign sqrt(fl(a) / fl(b)) of the reduced a/b = num²/den, bit for bit, on every path: int64
    # products up to MCC_INT64_MAX_TOTAL, int64 factors up to MCC_FACTOR_MAX_TOTAL, Python
    # integers above; C and λC (equal MCC) get the same bits only if a/b is reduced.
    rng = np.random.default_rng(7)
    base = rng.integers(0, 6, (300, 3, 3))
    base = base[base.sum(axis=(1, 2)) > 0]
    scales = [1, 3 * 7 * 11 * 13, 3_000_017]  # totals 7 to 39: up to 117 117 and 117 000 663
    values = [tie_values(scale * base, "mcc") for scale in scales]
    totals = base.sum(axis=(1, 2))
    assert totals.max() * scales[1] > MCC_INT64_MAX_TOTAL >= totals.min() * scales[1]
    assert totals.max() * scales[2] > MCC_FACTOR_MAX_TOTAL >= totals.min() * scales[2]
    middle = rng.integers(0, 10**6, (100, 4, 4))  # totals around 8e6
    for C, v in [(base, values[0]), (middle, tie_values(middle, "mcc"))]:
        q = [signed_mcc_square(m.tolist()) for m in C]
        expected = [((x > 0) - (x < 0)) * sqrt(float(abs(x.numerator)) / x.denominator) for x in q]
        assert v.tolist() == expected
    for v in values[1:]:
        assert np.array_equal(v.view(np.int64), values[0].view(np.int64))


@pytest.mark.parametrize("metric", ["mcc", "cen", "accuracy"])
def test_values_count_their_undefined_as_measures_does(metric):
    # The simulation takes the number of 0/0 values from tie_values, not from the floats.
    C = matrices_with_row_sums([2, 0, 3])  # a class without samples: some MCCs are 0/0
    values, undefined = tie_values(C, metric, count_undefined=True)
    assert np.array_equal(values, tie_values(C, metric))
    assert undefined == cenmcc.measures(C, [metric], count_undefined=True)[1][metric]
    assert (undefined > 0) == (metric == "mcc")


def test_cen_values_agree_across_the_cell_table_limit(monkeypatch):
    # Below CEN_CELL_TABLE_TOTAL the cells' terms come from the table of x L(x), above it from
    # L(x) times x: both must give the same integer, so the same bits.
    rng = np.random.default_rng(11)
    stacks = [matrices_with_row_sums([2, 4, 3]), rng.integers(0, 5000, (400, 6, 6))]
    table = [tie_values(C, "cen") for C in stacks]
    assert max(C.sum(axis=(1, 2)).max() for C in stacks) < CEN_CELL_TABLE_TOTAL
    monkeypatch.setattr("cenmcc.ties.CEN_CELL_TABLE_TOTAL", 1)
    for C, v in zip(stacks, table, strict=True):
        assert np.array_equal(tie_values(C, "cen").view(np.int64), v.view(np.int64))
        assert np.allclose(v, cenmcc.cen(C), rtol=1e-14, atol=0)


def test_cen_exact_comparison_agrees_with_brute_force():
    # The comparison used inside runs of close approximations, checked on every pair of classes.
    C = matrices_with_total([2, 3], 2)
    inverse, approx, bound, compare = _cen_classes(_stacks(C))
    rep = [int(np.flatnonzero(inverse == c)[0]) for c in range(approx.size)]
    exact = [cen_exp(C[i].tolist()) for i in rep]
    for i, j in itertools.combinations(range(len(rep)), 2):
        assert compare(i, j) == cen_compare(exact[i], exact[j])
        pair = np.sort(approx[[i, j]])
        if not undecided(pair, bound, equal=True)[0]:
            assert compare(i, j) == np.sign(approx[i] - approx[j])


def test_dense_ranks_fixes_close_approximations_exactly():
    # Approximations within the bound but in the wrong order are put right by the comparison.
    exact = [Fraction(1, 3), Fraction(1, 3) + Fraction(1, 10**30), Fraction(2, 3)]
    approx = np.array([1 / 3 + 1e-17, 1 / 3, 2 / 3])
    ranks = _dense_ranks(
        np.array([2, 0, 1, 0]),
        approx,
        (0.0, 1e-16),
        lambda i, j: (exact[i] > exact[j]) - (exact[i] < exact[j]),
    )
    assert ranks.tolist() == [2, 0, 1, 0]


def test_errors():
    with pytest.raises(ValueError, match="metric must be one of"):
        tie_ranks([[1, 0], [0, 1]], "f1")
    with pytest.raises(TypeError, match="integer"):
        tie_ranks([[1.0, 0.0], [0.0, 1.0]], "mcc")
    with pytest.raises(ValueError, match="different numbers of classes"):
        tie_ranks([np.eye(2, dtype=int), np.eye(3, dtype=int)], "cen")
    with pytest.raises(ValueError, match="no samples"):
        tie_ranks([[[1, 0], [0, 1]], [[0, 0], [0, 0]]], "accuracy")
    with pytest.raises(ValueError, match="non-negative"):
        tie_ranks([[1, -1], [0, 1]], "mcc")


def test_mixed_k_allowed_for_mcc_and_accuracy():
    # Perfect classification has MCC 1 and accuracy 1 for every K.
    r = tie_ranks(
        [
            np.eye(2, dtype=int)[None],
            np.array([[[1, 1, 0], [0, 1, 0], [0, 0, 1]], 2 * np.eye(3, dtype=int)]),
        ],
        "mcc",
    )
    assert r.tolist() == [1, 0, 1]
    assert tie_ranks(np.zeros((0, 2, 2), dtype=int), "cen").shape == (0,)


def test_cen_with_many_primes_is_consistent_with_floats():
    # Large counts: many distinct primes, so the valuations are gathered in several chunks.
    C = np.random.default_rng(3).integers(1, 3000, size=(600, 3, 3))
    r = tie_ranks([C, 2 * C], "cen")
    assert np.array_equal(r[:600], r[600:])  # CEN(2C) = CEN(C)
    cen = cenmcc.cen(C)
    far = np.abs(cen[:, None] - cen[None, :]) > 1e-9
    order = np.sign(r[:600, None] - r[None, :600])
    assert np.array_equal(order[far], np.sign(cen[:, None] - cen[None, :])[far])


def test_cen_key_limit(monkeypatch):
    monkeypatch.setattr("cenmcc.ties.CEN_MAX_KEY_ENTRIES", 100)
    with pytest.raises(ValueError, match="integer keys"):
        tie_ranks(matrices_with_row_sums([2, 4, 3]), "cen")
