"""Chance-corrected agreement: multi-class MCC (Gorodkin's R_K) and Cohen's kappa.

Both are built from the same four numbers of a confusion matrix (Grandini et al. 2020, Sec. 5):
``c`` the trace, ``s`` the total, ``t_k`` the row sums (true classes) and ``p_k`` the column sums
(predicted classes). They share the numerator ``c s - sum_k p_k t_k``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._marginals import Counts
from ._undefined import divide, warn_undefined


class _Agreement(NamedTuple):
    numerator: np.ndarray  # c s - sum_k t_k p_k
    cross: np.ndarray  # sum_k t_k p_k
    s2: np.ndarray  # s^2
    true: np.ndarray  # t_k in float64
    pred: np.ndarray  # p_k in float64


def _agreement(m: Counts) -> _Agreement:
    """The terms shared by MCC, kappa and P_e, in float64 (exact while ``s^2 < 2**53``)."""
    s = m.total.astype(np.float64)
    t, p = m.true.astype(np.float64), m.pred.astype(np.float64)
    cross = np.einsum("...k,...k->...", t, p)
    return _Agreement(m.correct * s - cross, cross, s * s, t, p)


def mcc_of(m: Counts, zero_division: float) -> tuple[np.ndarray, int]:
    """MCC from validated counts; returns the values and the number of 0/0 fills (internal)."""
    a = _agreement(m)
    var_pred = a.s2 - np.einsum("...k,...k->...", a.pred, a.pred)
    var_true = a.s2 - np.einsum("...k,...k->...", a.true, a.true)
    return divide(a.numerator, np.sqrt(var_pred * var_true), zero_division)


def mcc(C, *, zero_division: float = 0.0) -> np.ndarray:
    """Matthews correlation coefficient for K classes (Gorodkin's R_K).

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class; integer or weighted
        counts.
    zero_division : float, default 0.0
        Value where the MCC is 0/0, i.e. where all samples are predicted as one class or all
        belong to one class (then the numerator is 0 too). 0 is the convention of Jurman et al.
        and of scikit-learn. Filled values are counted in one ``UndefinedMetricWarning`` per call.

    Returns
    -------
    ndarray, shape (...)
        ``(c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2))``, in [-1, 1]; 1 is
        perfect classification, 0 no better than chance.

    Notes
    -----
    The simplified form of the MCC blog post (*Multiclass Matthew's Correlation Coefficient*),
    also Grandini et al. (2020) Eq. (25). It equals the covariance ratio
    ``cov(X, Y) / sqrt(cov(X, X) cov(Y, Y))`` and the triple-sum form of Jurman et al. (2012)
    Eq. (2); :mod:`cenmcc.reference` transcribes both literally, and the tests check all three
    agree. For K = 2 it is the binary ``(TP TN - FP FN) / sqrt(...)``.

    Examples
    --------
    >>> round(float(mcc([[20, 5], [10, 15]])), 3)  # Grandini et al., Fig. 7
    0.408
    >>> mcc([[[1, 0], [0, 1]], [[0, 1], [1, 0]]]).tolist()  # a stack of two matrices
    [1.0, -1.0]
    """
    m = Counts(C)
    values, n_undef = mcc_of(m, zero_division)
    warn_undefined(n_undef, values.size, "MCC", zero_division)
    return values


def expected_accuracy(C) -> np.ndarray:
    """Expected accuracy ``P_e``: the accuracy of a classifier that is independent of the truth.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``P_e = sum_k t_k p_k / s^2``, in [0, 1].

    Notes
    -----
    Grandini et al. (2020), Eqs. (29)-(31) and (39). Never undefined.

    Examples
    --------
    >>> round(float(expected_accuracy([[45, 15], [25, 15]])), 2)  # Grandini et al., Fig. 11
    0.54
    """
    m = Counts(C)
    a = _agreement(m)
    return a.cross / a.s2


def cohen_kappa(C, *, zero_division: float = 0.0) -> np.ndarray:
    """Cohen's kappa for K classes: accuracy corrected for chance agreement.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        Value where kappa is 0/0, which happens only when every sample is of one class and is
        predicted as that class (``P_e = 1``). Counted in one ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray, shape (...)
        ``(c s - sum_k p_k t_k) / (s^2 - sum_k p_k t_k) = (P_o - P_e) / (1 - P_e)``, in [-1, 1];
        1 is perfect agreement, 0 chance agreement.

    Notes
    -----
    Grandini et al. (2020), Eq. (40) (multi-class) and Eq. (28) (binary). Same numerator as
    :func:`cenmcc.mcc`.

    Examples
    --------
    >>> round(float(cohen_kappa([[25, 35], [5, 35]])), 3)  # Grandini et al., Fig. 12 right
    0.259
    """
    m = Counts(C)
    a = _agreement(m)
    values, n_undef = divide(a.numerator, a.s2 - a.cross, zero_division)
    warn_undefined(n_undef, values.size, "Cohen's kappa", zero_division)
    return values
