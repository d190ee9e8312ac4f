"""No silently wrong number: every count metric of the catalogue against exact arithmetic.

Every value is compared with the same formula evaluated on the exact counts (integers, or the
exact rational value of each float) in :mod:`exact` (fractions, and :mod:`decimal` with 60
significant digits where a logarithm or a square root enters), across the whole range that
validation accepts: row sums far above 2**53, float counts from the smallest subnormal to the
largest float, and matrices where one class holds almost every sample (where the differences of
the MCC's sums cancel). A value ``x`` passes when ``|x - exact| <= 1e-15 * max(1, |exact|)``:
1e-15 absolute, and relative above 1.
"""

import exact
import numpy as np
import pytest
from catalogue import COUNTS, having, quiet
from hypothesis import given, settings
from hypothesis import strategies as st

import cenmcc

#: thousands of matrices against exact arithmetic in Python integers
pytestmark = pytest.mark.slow

TOLERANCE = exact.TOLERANCE
EXACT = [metric for metric in having(COUNTS) if metric.exact is not None]


def check_all(C) -> None:
    """Every catalogued count metric of ``C`` (one matrix) against its exact value."""
    F = exact.fractions_of(np.asarray(C).tolist())
    m = cenmcc.Counts(C)
    for metric in EXACT:
        value = quiet(metric, m)
        error = exact.error(value, metric.exact(F))
        assert error <= TOLERANCE, f"{metric.id}: {value!r}, error {error:.3g}"


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


#: Any finite non-negative float, from the smallest subnormal to the largest float.
ANY_COUNT = st.one_of(
    st.floats(0.0, np.finfo(np.float64).max),
    st.sampled_from([0.0, 5e-324, 2.0**-1022, np.finfo(np.float64).max]),
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda K: st.lists(ANY_COUNT, min_size=K * K, max_size=K * K).map(
            lambda cells: np.array(cells).reshape(K, K)
        )
    )
)
def test_float_counts_of_any_magnitude_are_exact(C):
    """Cells spanning up to 2,100 binary orders of magnitude in one matrix."""
    if np.any(C > 0):
        check_all(C)


_C = np.array([[5.0, 11], [18, 0]])


@pytest.mark.parametrize(
    "C",
    [
        _C * 2.0**-1074,  # every cell subnormal
        np.ones((2, 2)) * 5e-324,
        np.array([[5.0, 11, 0], [18, 0, 3], [1, 2, 7]]) * 2.0**-1070,
        _C / 18 * np.finfo(np.float64).max,  # sums far past the largest float
        np.full((4, 4), np.finfo(np.float64).max),
        np.array([[1e308, 0], [0, 5e-324]]),  # one class at the top, one at the bottom
        np.array([[1.7e308, 5e-324, 0], [5e-324, 0, 5e-324], [0, 1e308, 2.0**-1060]]),
    ],
    ids=["subnormal", "5e-324", "subnormal-3", "near-overflow", "largest", "span", "span-3"],
)
def test_subnormal_huge_and_widely_spread_float_counts_are_exact(C):
    check_all(C)


@pytest.mark.parametrize(
    ("C", "metric", "expected"),
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
def test_reported_cases(C, metric, expected):
    if expected is None:
        expected = float(exact.mcc(exact.fractions_of(np.asarray(C).tolist())))
    assert abs(float(metric(C)) - expected) <= TOLERANCE
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
