"""No silently wrong number: MCC, kappa, tMCC, CEN and ACC against 60-digit arithmetic.

Every value is compared with the same formula evaluated on the exact counts (integers, or the
exact rational value of each float) in :mod:`decimal` with 60 significant digits, across the
whole range that validation accepts: row sums far above 2**53, float counts from 1e-300 to
1e300, and matrices where one class holds almost every sample (where the differences of the
MCC's sums cancel). A value ``x`` passes when ``|x - exact| <= 1e-15 * max(1, |exact|)``:
1e-15 absolute, and relative above 1.
"""

import decimal
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cenmcc

decimal.getcontext().prec = 60

TOLERANCE = 1e-15


def _exact(C) -> list[list[Fraction]]:
    return [[Fraction(x) if isinstance(x, float) else Fraction(int(x)) for x in row] for row in C]


def _sums(F):
    K = len(F)
    t = [sum(F[i]) for i in range(K)]
    p = [sum(F[i][j] for i in range(K)) for j in range(K)]
    s, c = sum(t), sum(F[i][i] for i in range(K))
    return s, c, t, p


def _dec(x: Fraction) -> Decimal:
    return Decimal(x.numerator) / Decimal(x.denominator)


def exact_mcc(F) -> Decimal | None:
    s, c, t, p = _sums(F)
    num = c * s - sum(a * b for a, b in zip(t, p, strict=True))
    vp = s * s - sum(b * b for b in p)
    vt = s * s - sum(a * a for a in t)
    if vp == 0 or vt == 0:
        return None
    return _dec(num) / (_dec(vp) * _dec(vt)).sqrt()


def exact_kappa(F) -> Decimal | None:
    s, c, t, p = _sums(F)
    chance = sum(a * b for a, b in zip(t, p, strict=True))
    den = s * s - chance
    return None if den == 0 else _dec(c * s - chance) / _dec(den)


def exact_tmcc(F) -> Decimal:
    """Eq. (3) of Jurman et al. (2012), second line, without 1/k."""
    K = len(F)
    s, c, _, _ = _sums(F)
    if c == s:
        return Decimal(0)
    mcc = exact_mcc(F) or Decimal(0)
    log_term = _dec((s - c) / s).ln() / Decimal(2 * K - 2).ln()
    return (1 - mcc) * (1 - log_term) * (1 - Decimal(1) / K)


def exact_cen(F) -> Decimal:
    """Eq. (1) of Jurman et al. (2012): off-diagonal sum of C_jk log(d_j d_k / C_jk^2)."""
    K = len(F)
    s, _, t, p = _sums(F)
    d = [a + b for a, b in zip(t, p, strict=True)]
    total = Decimal(0)
    for j in range(K):
        for k in range(K):
            if j != k and F[j][k]:
                total += _dec(F[j][k]) * _dec(d[j] * d[k] / F[j][k] ** 2).ln()
    return total / (2 * _dec(s) * Decimal(2 * K - 2).ln())


def assert_exact(value, exact: Decimal, what: str) -> None:
    error = abs(Decimal(float(value)) - exact)
    assert error <= Decimal(TOLERANCE) * max(Decimal(1), abs(exact)), (
        f"{what}: {float(value)!r}, exact {exact:.20g}"
    )


def check_all(C) -> None:
    """Every metric of ``C`` (one matrix) against its exact value."""
    F = _exact(np.asarray(C).tolist())
    m = cenmcc.Counts(C)
    mcc, kappa = exact_mcc(F), exact_kappa(F)
    if mcc is not None:
        assert_exact(cenmcc.mcc(m), mcc, "MCC")
        assert_exact(cenmcc.tmcc(m), exact_tmcc(F), "tMCC")
    if kappa is not None:
        assert_exact(cenmcc.cohen_kappa(m), kappa, "kappa")
    s, c, t, p = _sums(F)
    assert_exact(cenmcc.accuracy(m), _dec(c / s), "ACC")
    assert_exact(
        cenmcc.expected_accuracy(m),
        _dec(sum(a * b for a, b in zip(t, p, strict=True)) / s**2),
        "P_e",
    )
    assert_exact(cenmcc.cen(m), exact_cen(F), "CEN")


@st.composite
def integer_matrices(draw, low_bits=0):
    """K x K integer counts mixing small cells with cells up to the largest int64 accepts."""
    K = draw(st.integers(2, 6))
    top = np.iinfo(np.int64).max // (K * K)
    cell = st.one_of(st.integers(0, 3), st.integers(0, 1000), st.integers(0, top))
    C = np.array(draw(st.lists(cell, min_size=K * K, max_size=K * K)), dtype=np.int64)
    C = C.reshape(K, K)
    if draw(st.booleans()):  # one dominant class: the case where the MCC's sums cancel
        C[0, 0] = draw(st.integers(2**53, top))
    if C.sum() == 0:
        C[0, 0] = 1
    return C


@settings(max_examples=300, deadline=None)
@given(integer_matrices())
def test_integer_counts_are_exact(C):
    check_all(C)


@settings(max_examples=200, deadline=None)
@given(integer_matrices(), st.integers(-300, 300), st.booleans())
def test_float_counts_are_exact(C, exponent, odd):
    """Integer counts scaled to a largest cell of 10**exponent (rounded cell by cell), or with
    an odd fraction added."""
    F = C.astype(np.float64) / C.max() * 10.0**exponent
    if odd:
        F = F * (1 + 1 / 3) + 0.1 * 10.0**exponent  # significands with every bit set
    check_all(F)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda K: st.lists(
            st.floats(1e-300, 1e300) | st.just(0.0), min_size=K * K, max_size=K * K
        ).map(lambda cells: np.array(cells).reshape(K, K))
    )
)
def test_float_counts_of_any_magnitude_are_exact(C):
    """Cells spanning up to 600 orders of magnitude in one matrix."""
    if C.sum() > 0 and np.isfinite(C.sum()):
        check_all(C)


@pytest.mark.parametrize(
    ("C", "metric", "exact"),
    [
        # The red-team cases of issue 13.
        ([[2**53, 1], [1, 1]], cenmcc.mcc, 0.5),
        ([[10**16, 3], [2, 5]], cenmcc.cohen_kappa, 2 / 3),
        ([[10**18, 5, 7], [3, 11, 2], [9, 4, 13]], cenmcc.mcc, None),
        (np.array([[2.0, 1.0], [1.0, 2.0]]) * 1e77, cenmcc.mcc, 1 / 3),
        (np.array([[2.0, 1.0], [1.0, 2.0]]) * 1e-85, cenmcc.mcc, 1 / 3),
        (np.array([[2.0, 1.0], [1.0, 2.0]]) * 1e153, cenmcc.mcc, 1 / 3),
        (np.array([[2.0, 1.0], [1.0, 2.0]]) * 1e153, cenmcc.cohen_kappa, 1 / 3),
        (np.array([[2.0, 1.0], [1.0, 2.0]]) * 1e153, cenmcc.expected_accuracy, 1 / 2),
    ],
)
def test_reported_cases(C, metric, exact):
    F = _exact(np.asarray(C).tolist())
    if exact is None:
        exact = float(exact_mcc(F))
    assert abs(float(metric(C)) - exact) <= TOLERANCE
    check_all(C)


def test_a_stack_mixes_the_fast_and_exact_paths():
    """Matrices above and below the int64 path's limit in one stack give their own values."""
    small = np.array([[5, 1, 0], [2, 6, 1], [0, 1, 7]])
    big = np.array([[10**18, 5, 7], [3, 11, 2], [9, 4, 13]])
    stack = np.stack([small, big, small])
    expected = [cenmcc.mcc(small), cenmcc.mcc(big), cenmcc.mcc(small)]
    np.testing.assert_array_equal(cenmcc.mcc(stack), expected)
    np.testing.assert_array_equal(cenmcc.tmcc(stack)[1], cenmcc.tmcc(big))


def test_balanced_accuracy_weighted_takes_huge_weights():
    C = [[5, 1, 0], [2, 6, 1], [0, 1, 7]]
    expected = cenmcc.balanced_accuracy_weighted(C, [1.0, 1.0, 1.0])
    assert cenmcc.balanced_accuracy_weighted(C, [1e308] * 3) == pytest.approx(expected, abs=1e-15)
    assert cenmcc.balanced_accuracy_weighted(C, [1e-308] * 3) == pytest.approx(expected, abs=1e-15)
