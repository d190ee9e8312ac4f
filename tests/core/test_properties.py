"""Identities between the metrics, with hypothesis.

The properties of every metric (invariances, ranges, symmetry) are in test_common.py, driven by
tests/catalogue.py."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cenmcc


@st.composite
def count_matrices(draw, min_k=2, max_k=6, max_count=50):
    K = draw(st.integers(min_k, max_k))
    C = draw(arrays(np.int64, (K, K), elements=st.integers(0, max_count)))
    assume(C.sum() > 0)
    return C


def quiet(fn, C):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        return fn(C)


@given(C=count_matrices())
def test_cen_is_at_most_one_from_three_classes(C):
    # CEN_j <= q (1 - log_b q) with q <= 1 the off-diagonal share of class j and b = 2(K-1):
    # at most 1 when b >= e (K >= 3), at most 2 / (e ln 2) at q = 2/e when b = 2 (K = 2), the
    # bound that tests/catalogue.py gives for every K.
    K = C.shape[0]
    assert cenmcc.cen(C) <= (1 + 1e-12 if K >= 3 else 2 / (math.e * math.log(2)) + 1e-12)


@given(C=count_matrices())
def test_kappa_never_exceeds_mcc_in_absolute_value(C):
    # s^2 - sum p t = ((s^2 - sum p^2) + (s^2 - sum t^2)) / 2 + sum (p - t)^2 / 2 >= the
    # geometric mean of the MCC's two factors: same numerator, larger denominator.
    assert abs(quiet(cenmcc.cohen_kappa, C)) <= abs(quiet(cenmcc.mcc, C)) + 1e-12


@given(C=count_matrices())
def test_micro_averages_equal_accuracy(C):
    acc = cenmcc.accuracy(C)
    for fn in (cenmcc.precision, cenmcc.recall, cenmcc.f1_score):
        assert fn(C, "micro") == pytest.approx(acc, abs=1e-15)


@given(C=count_matrices(min_k=2, max_k=2))
def test_mcc_for_two_classes_is_the_binary_formula(C):
    (tp, fn), (fp, tn) = C.astype(float)
    den = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    expected = 0.0 if den == 0 else (tp * tn - fp * fn) / den
    assert quiet(cenmcc.mcc, C) == pytest.approx(expected, abs=1e-12)


@given(C=count_matrices())
def test_kappa_and_mcc_share_their_numerator(C):
    s, c = C.sum(), np.trace(C)
    t, p = C.sum(axis=1), C.sum(axis=0)
    numerator = c * s - t @ p
    kappa_den = s * s - t @ p
    mcc_den = math.sqrt((s * s - p @ p) * (s * s - t @ t))
    if kappa_den:
        assert cenmcc.cohen_kappa(C) * kappa_den == pytest.approx(numerator, abs=1e-9)
    if mcc_den:
        assert cenmcc.mcc(C) * mcc_den == pytest.approx(numerator, abs=1e-9)


@given(C=count_matrices())
def test_weighted_variants_reduce_to_the_plain_ones(C):
    K = C.shape[0]
    assume((C.sum(axis=1) > 0).all())
    uniform = np.full(K, 1 / K)
    balanced = cenmcc.balanced_accuracy(C)
    assert cenmcc.weighted_accuracy(C, uniform) == pytest.approx(balanced, abs=1e-12)
    assert cenmcc.balanced_accuracy_weighted(C, np.ones(K)) == pytest.approx(balanced, abs=1e-12)
    assert cenmcc.balanced_accuracy_weighted(C) == pytest.approx(cenmcc.accuracy(C), abs=1e-12)


@given(N=st.integers(2, 12), T=st.integers(0, 10**6), F=st.integers(1, 10**6))
def test_tmcc_equals_cen_on_b_matrices(N, T, F):
    # B(T, F): the identity of Jurman et al. holds exactly there (k = 1).
    B = np.full((N, N), F) + (T - F) * np.eye(N, dtype=np.int64)
    assert cenmcc.tmcc(B) == pytest.approx(cenmcc.cen(B), rel=1e-12, abs=1e-12)
