"""Each fast kernel against the literal, slow transcription of the printed formula."""

import numpy as np
import pytest

import cenmcc
from cenmcc import reference

KS = range(2, 8)


@pytest.mark.parametrize("K", KS)
def test_cen_matches_eq1_literally(zoo, K):
    fast = cenmcc.cen(zoo[K])
    slow = np.array([reference.cen(C) for C in zoo[K]])
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


@pytest.mark.parametrize("K", KS)
def test_cen_per_class_matches_eq1_literally(zoo, K):
    C = zoo[K]
    empty = (C.sum(axis=-1) + C.sum(axis=-2)) == 0
    if empty.any():
        with pytest.warns(cenmcc.UndefinedMetricWarning, match=f"for {empty.sum()} of"):
            fast = cenmcc.cen_per_class(C)
    else:
        fast = cenmcc.cen_per_class(C)
    slow = np.array([reference.cen_per_class(c) for c in C])  # 0 for an empty class
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


@pytest.mark.parametrize("K", KS)
def test_mcc_matches_triple_sum_eq2_and_covariance_definition(zoo, K):
    C = zoo[K][:150]  # the covariance form expands every sample: keep it small
    C = C[C.sum(axis=(-2, -1)) < 2000]
    with np.errstate(all="ignore"), pytest.warns(cenmcc.UndefinedMetricWarning):
        fast = cenmcc.mcc(C)
    np.testing.assert_allclose(fast, [reference.mcc_triple_sum(c) for c in C], atol=1e-12)
    np.testing.assert_allclose(fast, [reference.mcc_covariance(c) for c in C], atol=1e-12)


@pytest.mark.parametrize("K", KS)
def test_kappa_matches_po_pe_definition(zoo, K):
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        fast = cenmcc.cohen_kappa(zoo[K])
    slow = [reference.cohen_kappa(c) for c in zoo[K]]
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


@pytest.mark.parametrize("K", KS)
def test_precision_recall_match_one_vs_rest_counts(zoo, K):
    C = zoo[K][:100]
    tp, fn, fp = (
        np.array([[reference.one_vs_rest(c, k)[i] for k in range(K)] for c in C]) for i in range(3)
    )
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        np.testing.assert_allclose(
            cenmcc.precision(C), np.where(tp + fp, tp / np.maximum(tp + fp, 1), 0)
        )
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        np.testing.assert_allclose(
            cenmcc.recall(C), np.where(tp + fn, tp / np.maximum(tp + fn, 1), 0)
        )


def test_cen_is_the_weighted_sum_of_per_class_entropies(zoo):
    for C in zoo.values():
        C = C[(C.sum(axis=-1) + C.sum(axis=-2) > 0).all(axis=-1)]
        weights = (C.sum(axis=-1) + C.sum(axis=-2)) / (2 * C.sum(axis=(-2, -1)))[:, None]
        combined = (weights * cenmcc.cen_per_class(C)).sum(axis=-1)
        np.testing.assert_allclose(cenmcc.cen(C), combined, atol=1e-12)


def test_tmcc_by_its_definition(zoo):
    for K, C in zoo.items():
        with pytest.warns(cenmcc.UndefinedMetricWarning):
            m = cenmcc.mcc(C)
        acc = cenmcc.accuracy(C)
        with np.errstate(divide="ignore", invalid="ignore"):
            expected = (1 - m) * (1 - np.log(1 - acc) / np.log(2 * K - 2)) * (1 - 1 / K)
        expected[acc == 1] = 0.0
        with pytest.warns(cenmcc.UndefinedMetricWarning):
            np.testing.assert_allclose(cenmcc.tmcc(C), expected, rtol=1e-12, atol=1e-12)
