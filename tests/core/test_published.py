"""Values printed in the sources, recomputed from the printed matrices.

The full claim-by-claim record lives in paper_checks/; these are the core's own smoke tests,
at the precision printed.
"""

import pytest

import cenmcc

FIG3 = [[5, 23, 17, 17], [10, 540, 21, 14], [166, 96, 436, 110], [1, 2, 5, 87]]


def test_white_paper_binary_mcc_fig7():
    # Grandini et al. (2020), Fig. 7: MCC = 0.408.
    assert round(float(cenmcc.mcc([[20, 5], [10, 15]])), 3) == 0.408


def test_white_paper_kappa_fig12():
    # Grandini et al. (2020), Fig. 12: K = 0.13 and K = 0.259.
    assert round(float(cenmcc.cohen_kappa([[45, 15], [25, 15]])), 2) == 0.13
    assert round(float(cenmcc.cohen_kappa([[25, 35], [5, 35]])), 3) == 0.259


def test_white_paper_imbalanced_fig3():
    # Grandini et al. (2020), Fig. 3: accuracy 0.689, balanced accuracy 0.615, recall of a 0.0806.
    assert round(float(cenmcc.accuracy(FIG3)), 3) == 0.689
    assert round(float(cenmcc.balanced_accuracy(FIG3)), 3) == 0.615
    assert round(float(cenmcc.recall(FIG3)[0]), 4) == 0.0806


def test_white_paper_fig9_single_predicted_class():
    # Grandini et al. (2020), Fig. 9: accuracy 0.80 and MCC 0 when all are predicted positive.
    C = [[40, 0], [10, 0]]
    assert cenmcc.accuracy(C) == pytest.approx(0.80)
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        assert cenmcc.mcc(C) == 0.0


def test_jurman_complete_misclassification_and_constant_matrix():
    # Jurman et al. (2012), Methods: CEN = 1 for C_ij = (1 - δ_ij) F when N > 2, and
    # CEN = (1 - 1/N) log_{2N-2}(2N), MCC = 0 for a constant matrix.
    import math

    import numpy as np

    for N in range(3, 12):
        F = 7
        assert cenmcc.cen(F * (1 - np.eye(N, dtype=int))) == pytest.approx(1.0, abs=1e-12)
        constant = np.full((N, N), F)
        expected = (1 - 1 / N) * math.log(2 * N) / math.log(2 * N - 2)
        assert cenmcc.cen(constant) == pytest.approx(expected, abs=1e-12)
        assert cenmcc.mcc(constant) == pytest.approx(0.0, abs=1e-12)
