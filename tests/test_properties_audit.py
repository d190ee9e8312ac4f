"""The measures of Powers (2011), Gösgens et al. (2021) and Delgado & Núñez-González (2019)
against independent oracles, and the audit of measure properties (:mod:`cenmcc.properties`)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import cenmcc

pycm = pytest.importorskip("pycm")

#: Matrices in which every class has errors in its row and its column (PyCM's MCEN is "None"
#: where a class has none).
ORACLE_MATRICES = [
    [[20, 5], [10, 65]],
    [[3, 7], [9, 1]],
    [[3, 1, 2], [1, 4, 1], [2, 2, 5]],
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
    [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]],
]


def _pycm(C):
    K = len(C)
    table = {i: {j: int(C[i][j]) for j in range(K)} for i in range(K)}
    return pycm.ConfusionMatrix(matrix=table)


def _exact_informedness(C) -> Fraction:
    """``sum_k (p_k / s) (C_kk / t_k - FP_k / (s - t_k))`` in fractions (Powers 2011)."""
    F = [[Fraction(x) for x in row] for row in C]
    K = len(F)
    t = [sum(row) for row in F]
    p = [sum(F[i][k] for i in range(K)) for k in range(K)]
    s = sum(t)
    total = Fraction(0)
    for k in range(K):
        if t[k] and s - t[k]:
            total += p[k] / s * (F[k][k] / t[k] - (p[k] - F[k][k]) / (s - t[k]))
    return total


@pytest.mark.parametrize("C", ORACLE_MATRICES)
def test_mcen_against_pycm(C):
    assert float(cenmcc.mcen(C)) == pytest.approx(_pycm(C).overall_stat["Overall MCEN"], 1e-13)


@pytest.mark.parametrize("C", ORACLE_MATRICES)
def test_informedness_and_markedness_against_exact_fractions_and_pycm(C):
    assert float(cenmcc.informedness(C)) == pytest.approx(float(_exact_informedness(C)), 1e-14)
    transposed = np.transpose(C).tolist()
    assert float(cenmcc.markedness(C)) == pytest.approx(
        float(_exact_informedness(transposed)), 1e-14
    )
    stats = _pycm(C).class_stat  # PyCM's per-class BM and MK, weighted as Powers does
    s, t, p = np.sum(C), np.sum(C, axis=1), np.sum(C, axis=0)
    bm = sum(p[k] / s * stats["BM"][k] for k in range(len(C)))
    mk = sum(t[k] / s * stats["MK"][k] for k in range(len(C)))
    assert float(cenmcc.informedness(C)) == pytest.approx(bm, 1e-13)
    assert float(cenmcc.markedness(C)) == pytest.approx(mk, 1e-13)


@pytest.mark.parametrize("C", ORACLE_MATRICES[:2])
def test_binary_forms(C):
    (tp, fn), (fp, tn) = C
    tpr, tnr, ppv, npv = tp / (tp + fn), tn / (tn + fp), tp / (tp + fp), tn / (tn + fn)
    assert float(cenmcc.informedness(C)) == pytest.approx(tpr + tnr - 1, 1e-14)
    assert float(cenmcc.markedness(C)) == pytest.approx(ppv + npv - 1, 1e-14)
    assert float(cenmcc.symmetric_balanced_accuracy(C)) == pytest.approx(
        (tpr + tnr + ppv + npv) / 4, 1e-14
    )
    # Powers (2011): for two classes the MCC is the geometric mean of BM and MK.
    product = float(cenmcc.informedness(C) * cenmcc.markedness(C))
    assert float(cenmcc.mcc(C)) ** 2 == pytest.approx(product, 1e-13)


@pytest.mark.parametrize("C", ORACLE_MATRICES)
def test_symmetric_balanced_accuracy_and_correlation_distance(C):
    sba = (cenmcc.balanced_accuracy(C) + cenmcc.balanced_accuracy(np.transpose(C))) / 2
    assert float(cenmcc.symmetric_balanced_accuracy(C)) == pytest.approx(float(sba), 1e-15)
    expected = math.acos(_pycm(C).overall_stat["Overall MCC"]) / math.pi
    assert float(cenmcc.correlation_distance(C)) == pytest.approx(expected, 1e-12)


def test_new_measures_are_named():
    for name in ("informedness", "markedness", "symmetric_balanced_accuracy"):
        assert cenmcc.MEASURES[name].greater_is_better
    for name in ("correlation_distance", "mcen"):
        assert not cenmcc.MEASURES[name].greater_is_better
        assert cenmcc.MEASURES[name].best == 0.0
