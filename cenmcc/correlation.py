"""Chance-corrected agreement: multi-class MCC (Gorodkin's R_K) and Cohen's kappa.

Both are built from the same four numbers of a confusion matrix (Grandini et al. 2020, Sec. 5):
``c`` the trace, ``s`` the total, ``t_k`` the row sums (true classes) and ``p_k`` the column sums
(predicted classes). They share the numerator ``c s - sum_k p_k t_k``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._marginals import Counts, as_counts
from ._undefined import divide, warn_undefined


class _OneVsRest(NamedTuple):
    """Per-class one-vs-rest counts in float64, shape (..., K)."""

    tp: np.ndarray
    fn: np.ndarray  # t_k - C_kk
    fp: np.ndarray  # p_k - C_kk
    tn: np.ndarray  # s - t_k - p_k + C_kk
    true: np.ndarray  # t_k
    pred: np.ndarray  # p_k


def _one_vs_rest(m: Counts) -> _OneVsRest:
    """One-vs-rest counts of every class; exact, since integers below 2**53 and their
    differences are exact in float64."""
    t = m.true.astype(np.float64)
    p = m.pred.astype(np.float64)
    tp = m.diag.astype(np.float64)
    fn = t - tp
    fp = p - tp
    tn = m.total.astype(np.float64)[..., None] - t - fp
    return _OneVsRest(tp, fn, fp, tn, t, p)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("...k,...k->...", a, b)


def _numerator(o: _OneVsRest) -> np.ndarray:
    """``c s - sum_k t_k p_k`` as ``sum_k (TP_k TN_k - FN_k FP_k)``, the one-vs-rest numerators.

    The two forms are equal, but the difference ``c s - sum_k t_k p_k`` of two numbers near
    ``s^2`` loses its digits when one class holds almost every sample, whereas the one-vs-rest
    terms are only as large as the products they are made of.
    """
    return _dot(o.tp, o.tn) - _dot(o.fn, o.fp)


def mcc_of(m: Counts, zero_division: float) -> tuple[np.ndarray, int]:
    """MCC from validated counts; returns the values and the number of 0/0 fills (internal).

    The variances are written as in Eq. (2) of Jurman et al. (2012),
    ``s^2 - sum_k p_k^2 = sum_k p_k (s - p_k)`` with ``s - p_k = FN_k + TN_k``: non-negative
    terms, so nothing cancels, whereas the difference ``s^2 - sum_k p_k^2`` loses all its digits
    when one class holds almost every sample (e.g. Z_A with A = 1e9).
    """
    o = _one_vs_rest(m)
    var_pred = _dot(o.pred, o.fn + o.tn)
    var_true = _dot(o.true, o.fp + o.tn)
    return divide(_numerator(o), np.sqrt(var_pred * var_true), zero_division)


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
    m = as_counts(C)
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
    m = as_counts(C)
    s = m.total.astype(np.float64)
    return np.einsum("...k,...k->...", m.true.astype(np.float64), m.pred.astype(np.float64)) / (
        s * s
    )


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
    m = as_counts(C)
    o = _one_vs_rest(m)
    # s^2 - sum_k t_k p_k = sum_k t_k (s - p_k): non-negative terms, nothing cancels.
    values, n_undef = divide(_numerator(o), _dot(o.true, o.fn + o.tn), zero_division)
    warn_undefined(n_undef, values.size, "Cohen's kappa", zero_division)
    return values
