"""Closed forms of the binary case: the MCC and CEN of ``[[TP, FN], [FP, TN]]``, the CEN when
``TP = TN`` and ``FP = FN``, and where and how high that CEN peaks."""

from __future__ import annotations

import numpy as np

from .._undefined import divide, warn_undefined
from ._parameters import check_parameters
from .b_forms import cen_b


def _binary_counts(TP, FN, FP, TN) -> list[np.ndarray]:
    """The four binary counts, checked and broadcast, as float64."""
    return [a.astype(np.float64) for a in check_parameters(0, TP=TP, FN=FN, FP=FP, TN=TN)]


def mcc_binary(TP, FN, FP, TN, *, zero_division: float = 0.0) -> np.ndarray:
    """Binary MCC as printed (identically) in both papers.

    Parameters
    ----------
    TP, FN, FP, TN : array_like of non-negative numbers
        The entries of ``[[TP, FN], [FP, TN]]``.
    zero_division : float, default 0.0
        Value where the MCC is 0/0 (a zero row or column sum); counted in one
        ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray
        ``(TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))``, in [-1, 1], 1 is best.

    Notes
    -----
    Preprint, Sec. 2.1; journal, "The binary case" (Matthews 1975, Baldi et al. 2000). Holds:
    Eq. (2) for N = 2 has numerator ``2 (TP TN - FP FN)`` and radicands
    ``2 (TP+FP)(FN+TN)`` and ``2 (TP+FN)(FP+TN)``.

    Examples
    --------
    >>> round(float(mcc_binary(20, 5, 10, 15)), 3)
    0.408
    """
    tp, fn, fp, tn = _binary_counts(TP, FN, FP, TN)
    values, undefined = divide(
        tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)), zero_division
    )
    warn_undefined(int(np.count_nonzero(undefined)), values.size, "MCC", zero_division)
    return values


def cen_binary(TP, FN, FP, TN) -> np.ndarray:
    """Binary CEN as printed (identically) in both papers.

    Parameters
    ----------
    TP, FN, FP, TN : array_like of non-negative numbers
        The entries of ``[[TP, FN], [FP, TN]]``, at least one positive.

    Returns
    -------
    ndarray
        ``(FN+FP) log2(s^2 - (TP-TN)^2) / (2s) - (FN log2 FN + FP log2 FP) / s`` with
        ``s = TP + TN + FP + FN`` and ``0 log 0 = 0``; non-negative, 0 is best, and it can
        exceed 1 (up to ``2/(e ln 2) ≈ 1.0615`` when ``TP = TN`` and ``FP = FN``).

    Notes
    -----
    Preprint, Sec. 2.1; journal, "The binary case" (``CEN~ (FNzFP) log2 ((TPzTNzFPzFN)2
    {(TP{TN)2) / 2(TPzTNzFPzFN) { FN log2 FNzFP log2 FP / TPzTNzFPzFN``). Holds:
    ``s^2 - (TP - TN)^2 = (2TP + FN + FP)(2TN + FN + FP) = d_1 d_2``.

    Examples
    --------
    >>> round(float(cen_binary(1, 2, 2, 1)), 6)
    1.056642
    """
    from scipy.special import xlogy  # imported here: the rest of cenmcc needs numpy only

    tp, fn, fp, tn = _binary_counts(TP, FN, FP, TN)
    s = tp + tn + fp + fn
    if np.any(s == 0):
        raise ValueError("cen_binary needs at least one sample (TP + FN + FP + TN > 0)")
    ln2 = np.log(2.0)
    first = xlogy(fn + fp, s**2 - (tp - tn) ** 2) / ln2 / (2.0 * s)
    return first - (xlogy(fn, fn) + xlogy(fp, fp)) / ln2 / s


def cen_binary_symmetric(T, F) -> np.ndarray:
    """Binary CEN for ``TP = TN = T`` and ``FP = FN = F``, as printed in both papers.

    Parameters
    ----------
    T, F : array_like of non-negative numbers
        ``T + F > 0``.

    Returns
    -------
    ndarray
        ``F / (T + F) log2(2 (T + F) / F)``; 0 at ``F = 0`` (the limit), 1 at ``T = 0`` and at
        ``T = F``, above 1 exactly when ``0 < T < F``, with maximum
        :data:`~cenmcc.entropy.BINARY_SYMMETRIC_CEN_MAX` at ``T/F =``
        :data:`~cenmcc.entropy.BINARY_SYMMETRIC_CEN_ARGMAX`.

    Notes
    -----
    Preprint, Sec. 2.1; journal, "The binary case" (``CEN~ F / TzF log2 2(TzF ) / F``). Holds
    (it is :func:`cen_b` at N = 2). The claim "larger than 1 ... attained for the totally
    misclassified case T = 0" does not: ``CEN(T = 0) = 1``, and with ``y = 1 + T/F`` the CEN
    is ``log2(2y)/y``, whose maximum ``2/(e ln 2)`` is at ``y = e/2``.

    Examples
    --------
    >>> cen_binary_symmetric([0, 1, 2], 2).round(6).tolist()
    [1.0, 1.056642, 1.0]
    """
    return cen_b(2, T, F)
