"""cenmcc.families: the constructors, and every printed closed form against the metrics.

The closed forms that hold are compared with cenmcc's fast metrics on a grid and with the literal
transcriptions of :mod:`cenmcc.reference`; the ones found not to hold are shown to fail at their
smallest counterexample (so a regression in the metrics cannot make them pass unnoticed), and
their corrections to hold. Exact values come from rational arithmetic done here by hand.
"""

from fractions import Fraction
from math import e, log

import numpy as np
import pytest

import cenmcc
from cenmcc import families as fam
from cenmcc import reference
from experiments import misprints

NS = (3, 4, 7, 30)
AS = np.array([1, 2, 3, 7, 10, 99, 1000, 10**4])


# --------------------------------------------------------------------------------------------
# Constructors
# --------------------------------------------------------------------------------------------


def test_z_a_entries_follow_the_definition():
    # (Z_A)_ij = 1 + δ_(i,j),(N,1) (A - 1)
    N, A = 5, 9
    i, j = np.indices((N, N))
    expected = 1 + ((i == N - 1) & (j == 0)) * (A - 1)
    np.testing.assert_array_equal(fam.z_a(N, A), expected)
    assert fam.z_a(N, A).dtype == np.int64


def test_dice_b_constant_misclassification_entries():
    np.testing.assert_array_equal(fam.dice(3, 5), [[1, 1, 1], [1, 1, 1], [5, 5, 5]])
    np.testing.assert_array_equal(fam.b_matrix(3, 4, 2), [[4, 2, 2], [2, 4, 2], [2, 2, 4]])
    np.testing.assert_array_equal(fam.constant(2, 3), [[3, 3], [3, 3]])
    np.testing.assert_array_equal(fam.complete_misclassification(3, 2), 2 - 2 * np.eye(3))
    np.testing.assert_array_equal(fam.binary(1, 2, 3, 4), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(
        fam.single_column([1, 2, 3], k=1), [[0, 1, 0], [0, 2, 0], [0, 3, 0]]
    )
    np.testing.assert_array_equal(fam.swapped_pair(3, 2, 5), [[0, 2, 0], [5, 0, 0], [0, 0, 0]])


@pytest.mark.parametrize(
    ("build", "scalar"),
    [
        (lambda a: fam.z_a(4, a), lambda a: fam.z_a(4, int(a))),
        (lambda a: fam.dice(4, a), lambda a: fam.dice(4, int(a))),
        (lambda a: fam.b_matrix(4, a, 3), lambda a: fam.b_matrix(4, int(a), 3)),
        (lambda a: fam.constant(4, a), lambda a: fam.constant(4, int(a))),
        (lambda a: fam.binary(a, 1, 2, a), lambda a: fam.binary(int(a), 1, 2, int(a))),
    ],
)
def test_constructors_are_vectorized(build, scalar):
    a = np.array([[1, 2, 3], [4, 50, 600]])
    stack = build(a)
    assert stack.shape == (*a.shape, *scalar(1).shape)
    for idx in np.ndindex(a.shape):
        np.testing.assert_array_equal(stack[idx], scalar(a[idx]))


def test_parameters_broadcast_and_keep_their_kind():
    B = fam.b_matrix(3, np.arange(4)[:, None], np.array([1, 2]))
    assert B.shape == (4, 2, 3, 3)
    assert B[3, 1, 0, 0] == 3
    assert B[3, 1, 0, 1] == 2
    assert fam.z_a(3, 2.5).dtype == np.float64
    assert fam.single_column(np.ones((5, 4), dtype=int)).shape == (5, 4, 4)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: fam.z_a(1, 2), ValueError, "N must be at least 2"),
        (lambda: fam.z_a(3.0, 2), TypeError, "N must be an integer"),
        (lambda: fam.z_a(True, 2), TypeError, "N must be an integer"),
        (lambda: fam.z_a(3, [2, 0.5]), ValueError, r"A must be >= 1, got 0.5"),
        (lambda: fam.dice(3, np.nan), ValueError, "A must be finite"),
        (lambda: fam.b_matrix(3, -1, 1), ValueError, "T must be >= 0"),
        (lambda: fam.binary(1, 1, "a", 1), TypeError, "FP must be integer or real"),
        (lambda: fam.binary(1, True, 1, 1), TypeError, "FN must be integer or real"),
        (lambda: fam.single_column([1, 1], k=2), ValueError, "k must be a class index"),
        (lambda: fam.swapped_pair(3, 0), ValueError, "F must be > 0"),
        (lambda: fam.mcc_b(3, 0, 0), ValueError, "T \\+ F > 0"),
        (lambda: fam.cen_binary(0, 0, 0, 0), ValueError, "at least one sample"),
        (lambda: fam.cen_constant(1), ValueError, "N must be at least 2"),
        (lambda: fam.z_a(np.timedelta64(3), 2), TypeError, "N must be an integer"),
        (lambda: fam.z_a(3, np.ma.array([2, 3], mask=[0, 1])), TypeError, "A is a masked array"),
        (lambda: fam.cen_z_a(3, np.ma.array([2.0])), TypeError, "A is a masked array"),
        (lambda: fam.cen_dice(np.array([3], "m8[s]"), 2), TypeError, "N must be an integer"),
        (lambda: fam.single_column(np.ma.array([1, 1])), TypeError, "true_counts is a masked"),
        (lambda: fam.mcc_b(3, np.ma.array([1]), 1), TypeError, "T is a masked array"),
    ],
)
def test_bad_parameters_raise_clear_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# --------------------------------------------------------------------------------------------
# The closed forms that hold, against the metrics
# --------------------------------------------------------------------------------------------

HOLDING = [
    # (closed form of (N, A), family, metric)
    (fam.acc_z_a, fam.z_a, cenmcc.accuracy),
    (fam.mcc_z_a_journal, fam.z_a, cenmcc.mcc),
    (fam.cen_z_a, fam.z_a, cenmcc.cen),
    (fam.cen_dice, fam.dice, cenmcc.cen),
    (lambda N, A: np.zeros(np.shape(A)), fam.dice, cenmcc.mcc),
]


@pytest.mark.parametrize(("closed", "build", "metric"), HOLDING)
@pytest.mark.parametrize("N", NS)
def test_a_families_hold(closed, build, metric, N):
    np.testing.assert_allclose(closed(N, AS), metric(build(N, AS)), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("N", [2, *NS])
def test_b_matrix_formulas_hold(N):
    T, F = np.meshgrid([0, 1, 2, 5, 13, 1000], [1, 2, 7, 100])
    B = fam.b_matrix(N, T, F)
    mcc = cenmcc.mcc(B)
    np.testing.assert_allclose(fam.mcc_b(N, T, F), mcc, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(fam.cen_b(N, T, F), cenmcc.cen(B), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(fam.cen_b_from_mcc(N, T, F, mcc), cenmcc.cen(B), rtol=1e-12)


def test_b_matrix_limit_f_zero_is_perfect_classification():
    assert fam.cen_b(4, 3, 0) == 0.0
    assert fam.cen_b_from_mcc(4, 3, 0, 1.0) == 0.0
    assert fam.mcc_b(4, 3, 0) == 1.0


@pytest.mark.parametrize("N", [2, *NS])
def test_constant_and_complete_misclassification(N):
    F = np.array([1, 3, 1000])
    C = fam.constant(N, F)
    np.testing.assert_array_equal(cenmcc.mcc(C), 0.0)
    np.testing.assert_allclose(cenmcc.cen(C), fam.cen_constant(N), rtol=1e-13)
    # CEN = 1 for complete misclassification, N = 2 included (the papers say "for N > 2").
    np.testing.assert_allclose(cenmcc.cen(fam.complete_misclassification(N, F)), 1.0, rtol=1e-13)
    np.testing.assert_allclose(cenmcc.mcc(fam.swapped_pair(N, F, F[::-1])), -1.0, rtol=1e-14)


def test_single_column_mcc_is_zero_only_as_the_fill_value():
    C = fam.single_column([[1, 2, 3, 4], [1, 1, 1, 1]], k=2)
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="2 of 2"):
        assert cenmcc.mcc(C).tolist() == [0.0, 0.0]
    cen = cenmcc.cen(C)
    assert cen[0] != cen[1]  # CEN varies with the column
    # A constant column: the dice limit; N = 4 gives the journal's Fig. 1, Box 1(c), CEN ≈ 0.337.
    assert round(float(cen[1]), 3) == 0.337
    assert cen[1] == pytest.approx(float(fam.cen_dice_limit_journal(4)), rel=1e-13)


def test_binary_formulas_hold():
    v = np.array([0, 1, 2, 7, 100])
    TP, FN, FP, TN = (x.ravel()[1:] for x in np.meshgrid(v, v, v, v))
    C = fam.binary(TP, FN, FP, TN)
    np.testing.assert_allclose(fam.cen_binary(TP, FN, FP, TN), cenmcc.cen(C), atol=1e-13)
    defined = (TP + FP) * (TP + FN) * (TN + FP) * (TN + FN) > 0
    np.testing.assert_allclose(
        fam.mcc_binary(TP[defined], FN[defined], FP[defined], TN[defined]),
        cenmcc.mcc(C[defined]),
        atol=1e-14,
    )
    T, F = np.meshgrid(np.arange(0, 20), np.arange(1, 20))
    np.testing.assert_allclose(
        fam.cen_binary_symmetric(T, F), cenmcc.cen(fam.binary(T, F, F, T)), atol=1e-14
    )


def test_binary_mcc_zero_division_warns_once():
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="1 of 2"):
        assert fam.mcc_binary([0, 1], 0, [0, 1], 1).tolist() == [0.0, 0.5]


def test_closed_forms_match_the_literal_reference_transcriptions():
    # cenmcc.reference follows Eq. (1) and Eq. (2) symbol by symbol, one matrix at a time.
    for N, A in ((3, 2), (4, 10), (6, 1000)):
        assert fam.cen_z_a(N, A) == pytest.approx(reference.cen(fam.z_a(N, A)), rel=1e-12)
        assert fam.cen_dice(N, A) == pytest.approx(reference.cen(fam.dice(N, A)), rel=1e-12)
        assert fam.mcc_z_a_journal(N, A) == pytest.approx(
            reference.mcc_triple_sum(fam.z_a(N, A)), rel=1e-12
        )
    assert fam.cen_b(5, 3, 2) == pytest.approx(reference.cen(fam.b_matrix(5, 3, 2)), rel=1e-12)
    assert fam.cen_binary(3, 1, 4, 1) == pytest.approx(reference.cen(fam.binary(3, 1, 4, 1)))


def _mcc_exact(C) -> tuple[int, int]:
    """Numerator and product of the radicands of the MCC, in Python integers."""
    C = [[int(x) for x in row] for row in C]
    K = len(C)
    t = [sum(row) for row in C]
    p = [sum(C[i][j] for i in range(K)) for j in range(K)]
    s, c = sum(t), sum(C[k][k] for k in range(K))
    cross = sum(a * b for a, b in zip(t, p, strict=True))
    return c * s - cross, (s * s - sum(x * x for x in p)) * (s * s - sum(x * x for x in t))


@pytest.mark.parametrize(("N", "A"), [(3, 2), (3, 5), (4, 7), (10, 10**9), (30, 12345)])
def test_mcc_z_a_journal_is_exact(N, A):
    num, den = _mcc_exact(fam.z_a(N, A))
    q = Fraction(-(A - 1), (N - 1) * (N * N + 2 * A - 2))
    assert num * num == q * q * den
    assert (num < 0) == (q < 0)


# --------------------------------------------------------------------------------------------
# The printed forms that do not hold fail, and their corrections hold
# --------------------------------------------------------------------------------------------


def test_mcc_z_a_preprint_fails_at_its_smallest_counterexample():
    # N = 3, A = 2: the MCC is -1/22 (exact), the preprint prints -1/6.
    num, den = _mcc_exact(fam.z_a(3, 2))
    assert Fraction(num * num, den) == Fraction(1, 22**2)
    assert float(misprints.mcc_z_a_preprint(3, 2)) == pytest.approx(-1 / 6)
    assert float(cenmcc.mcc(fam.z_a(3, 2))) == pytest.approx(-1 / 22, rel=1e-14)
    assert float(fam.mcc_z_a_journal(3, 2)) == pytest.approx(-1 / 22, rel=1e-14)
    # A = 1 is the only agreement; the printed form has a pole at A = N^2/2 - 1.
    assert misprints.mcc_z_a_preprint(3, 1) == 0.0
    assert np.isinf(misprints.mcc_z_a_preprint(4, np.int64(7)))


@pytest.mark.parametrize("N", NS)
def test_limits_of_mcc_z_a(N):
    # The gap to the limit is N^2 / (2 (N-1)(N^2 + 2A - 2)) < N / A; at A = 10^7 the float
    # MCC is still good to ~1e-10 (its s^2 - sum p^2 cancels more as A grows).
    A = 10**7
    at_large_a = float(cenmcc.mcc(fam.z_a(N, A)))
    assert at_large_a == pytest.approx(float(fam.mcc_z_a_limit_journal(N)), abs=N / A)
    assert abs(at_large_a - float(misprints.mcc_z_a_limit_preprint(N))) > 0.01


@pytest.mark.parametrize("N", [2, *NS])
def test_limits_of_dice_cen(N):
    at_large_a = float(cenmcc.cen(fam.dice(N, 10**12)))
    assert at_large_a == pytest.approx(float(fam.cen_dice_limit_journal(N)), abs=1e-9)
    assert float(misprints.cen_dice_limit_preprint(N)) > 1.0 > at_large_a


def test_dice_limit_in_n():
    L = fam.cen_dice_limit_journal(np.arange(3, 5000))
    assert np.all(np.diff(L) > 0)  # increasing from N = 3 ...
    assert fam.cen_dice_limit_journal(2) > fam.cen_dice_limit_journal(3)  # ... but not from 2
    assert 0.5 - float(fam.cen_dice_limit_journal(10**12)) < log(2) / log(10**12)
    assert float(fam.cen_dice_limit_journal(10**12)) < 0.5


def test_cen_z_a_decreases_on_integers_but_not_on_reals():
    A = np.arange(1, 2000)
    for N in NS:
        assert np.all(np.diff(cenmcc.cen(fam.z_a(N, A))) < 0)
    assert cenmcc.cen(fam.z_a(3, 1.4)) > cenmcc.cen(fam.z_a(3, 1))


def test_eq3_first_line_preprint_differs_journal_equals_second_line():
    rng = np.random.default_rng(5)
    C = rng.integers(0, 50, size=(200, 4, 4))
    np.testing.assert_allclose(fam.eq3_first_line_journal(C), cenmcc.tmcc(C), rtol=1e-13)
    # The constant 3 x 3 matrix: the two lines differ by exactly (2/3) log_4(2) = 1/3.
    C = fam.constant(3)
    assert misprints.eq3_first_line_preprint(C) - cenmcc.tmcc(C) == pytest.approx(1 / 3, rel=1e-13)
    # The preprint's line is not scale invariant; it agrees where N samples are misclassified.
    assert misprints.eq3_first_line_preprint(2 * C) != misprints.eq3_first_line_preprint(C)
    B = fam.b_matrix(3, 5, 0.5)  # 6 x 0.5 = 3 = N misclassified
    assert misprints.eq3_first_line_preprint(B) == pytest.approx(float(cenmcc.tmcc(B)), rel=1e-13)


def test_eq3_first_line_journal_on_b_is_the_cen():
    B = fam.b_matrix(6, np.arange(0, 40, 3), 2)
    np.testing.assert_allclose(fam.eq3_first_line_journal(B), cenmcc.cen(B), rtol=1e-12)
    assert fam.eq3_first_line_journal(np.eye(3, dtype=int)) == 0.0


def test_binary_symmetric_maximum_is_not_at_t0():
    # CEN(T = 0) = 1; CEN(T = 1, F = 2) = (2/3) log2(3) > 1: T = 0 is not where the maximum is.
    assert cenmcc.cen(fam.binary(0, 2, 2, 0)) == pytest.approx(1.0, rel=1e-15)
    assert cenmcc.cen(fam.binary(1, 2, 2, 1)) == pytest.approx(2 / 3 * log(3, 2), rel=1e-14)
    # The maximum 2/(e ln 2) at T/F = e/2 - 1, never exceeded.
    assert abs(fam.BINARY_SYMMETRIC_CEN_ARGMAX - (e / 2 - 1)) < 1e-15
    at_max = cenmcc.cen(
        fam.binary(fam.BINARY_SYMMETRIC_CEN_ARGMAX, 1.0, 1.0, fam.BINARY_SYMMETRIC_CEN_ARGMAX)
    )
    assert at_max == pytest.approx(fam.BINARY_SYMMETRIC_CEN_MAX, rel=1e-14)
    r = np.linspace(0, 5, 50001)
    assert cenmcc.cen(fam.binary(r, 1.0, 1.0, r)).max() <= fam.BINARY_SYMMETRIC_CEN_MAX + 1e-15
    # CEN > 1 exactly for 0 < T < F.
    T, F = np.meshgrid(np.arange(0, 40), np.arange(1, 40))
    cen = cenmcc.cen(fam.binary(T, F, F, T))
    above = (T > 0) & (T < F)
    assert np.all(cen[above] > 1)
    assert np.all(cen[~above] <= 1 + 1e-14)


def test_the_library_holds_no_misprinted_formula():
    """The preprint's formulas that do not hold are transcribed in experiments.misprints only."""
    misprinted = {"mcc_z_a_preprint", "mcc_z_a_limit_preprint", "cen_dice_limit_preprint"}
    misprinted.add("eq3_first_line_preprint")
    assert not [name for name in vars(fam) if name.endswith("_preprint")]
    assert misprinted <= set(vars(misprints))
