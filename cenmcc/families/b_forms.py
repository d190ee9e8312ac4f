"""Closed forms of ``B(T, F)`` (:func:`cenmcc.families.b_matrix`): the CEN of the constant
matrix ``B(F, F)``, the MCC and CEN of ``B(T, F)``, and its CEN from its MCC."""

from __future__ import annotations

import numpy as np

from .._validation import real_array
from ._parameters import as_classes, check_parameters, log_b


def cen_constant(N) -> np.ndarray:
    """CEN of the constant matrix ``C_ij = F``, as printed in both: ``(1 - 1/N) log_{2N-2}(2N)``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.

    Returns
    -------
    ndarray
        ``(1 - 1/N) log_{2N-2}(2N)``, independent of ``F``: 1 at ``N = 2``, 0.8617 at
        ``N = 3``, then increasing towards 1.

    Notes
    -----
    Preprint, Sec. 2 (``(1 - 1/N) log_{2N-2} 2N``); journal, "Relationships between CEN and MCC"
    (``CEN~ 1{ 1/N log2N{2 2N``). Holds: ``d_j = 2NF``, ``d_j - 2 C_jj = (2N - 2) F``.

    Examples
    --------
    >>> round(float(cen_constant(3)), 6)
    0.861654
    """
    n = as_classes(N)
    return (1.0 - 1.0 / n) * log_b(2.0 * n, n)


def _check_b(N, T, F) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``N`` (:func:`as_classes`), ``T`` and ``F`` checked and broadcast, as float64."""
    n = as_classes(N)
    T, F = check_parameters(0, T=T, F=F)
    if np.any(T + F == 0):
        raise ValueError("B(T, F) needs T + F > 0 (T = F = 0 is a matrix without samples)")
    return n, T.astype(np.float64), F.astype(np.float64)


def mcc_b(N, T, F) -> np.ndarray:
    """MCC of ``B(T, F)`` as printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    T, F : array_like of non-negative numbers
        Diagonal and off-diagonal entries, ``T + F > 0``.

    Returns
    -------
    ndarray
        ``(T^2 + (N-2) T F - (N-1) F^2) / (T + (N-1) F)^2``, which factors as
        ``(T - F) / (T + (N-1) F)``: in ``[-1/(N-1), 1]``, 1 for ``F = 0``.

    Notes
    -----
    Preprint, Sec. 2; journal, "Relationships between CEN and MCC" (``MCC ~
    T2z(N{2)TF{(N{1)F2 / [Tz(N{1)F]2``). Holds: with ``R = T + (N-1) F`` every row and column
    sums to R, so ``MCC = (N T - R) / ((N-1) R)``.

    Examples
    --------
    >>> float(mcc_b(3, 5, 1))
    0.5714285714285714
    """
    n, t, f = _check_b(N, T, F)
    return (t**2 + (n - 2.0) * t * f - (n - 1.0) * f**2) / (t + (n - 1.0) * f) ** 2


def cen_b(N, T, F) -> np.ndarray:
    """CEN of ``B(T, F)`` as printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    T, F : array_like of non-negative numbers
        Diagonal and off-diagonal entries, ``T + F > 0``.

    Returns
    -------
    ndarray
        ``(N-1) F / (T + (N-1) F) log_{2N-2}(2 (T + (N-1) F) / F)``; 1 at ``T = 0``, and its
        limit 0 (perfect classification) at ``F = 0``, where the printed form is ``0 · ∞``.

    Notes
    -----
    Preprint, Sec. 2; journal, "Relationships between CEN and MCC" (``CEN ~ (N{1)F /
    Tz(N{1)F log2N{2 2[Tz(N{1)F] / F``). Holds: ``d_j = 2R``, ``d_j - 2 C_jj = 2 (N-1) F``.

    Examples
    --------
    >>> round(float(cen_b(3, 5, 1)), 6)  # 2/7 log_4(14)
    0.543908
    """
    n, t, f = _check_b(N, T, F)
    r = t + (n - 1.0) * f
    positive = f > 0
    ratio = np.divide(2.0 * r, f, out=np.ones_like(r * f), where=positive)
    return np.where(positive, (n - 1.0) * f / r * log_b(ratio, n), 0.0)


def cen_b_from_mcc(N, T, F, mcc) -> np.ndarray:
    """CEN of ``B(T, F)`` from its MCC, by the identity printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    T, F : array_like of non-negative numbers
        Diagonal and off-diagonal entries, ``T + F > 0``.
    mcc : array_like
        The MCC of ``B(T, F)`` (e.g. :func:`cenmcc.mcc` of :func:`b_matrix`).

    Returns
    -------
    ndarray
        ``(1 - MCC) (1 + log_{2N-2}((T + (N-1) F) / ((N-1) F))) (1 - 1/N)``; 0 at ``F = 0``
        (the limit, where MCC = 1).

    Notes
    -----
    Preprint, Sec. 2; journal, "Relationships between CEN and MCC" (``CEN~(1{MCC) (1z log2N{2
    Tz(N{1)F / (N{1)F) (1{ 1/N)``). Holds: ``(1 - MCC)(1 - 1/N) = (N-1) F / R`` and
    ``1 + log_{2N-2}(R / ((N-1) F)) = log_{2N-2}(2R / F)``. It is the exact case (k = 1) of
    Eq. (3) in the journal's version (:func:`eq3_first_line_journal`).

    Examples
    --------
    >>> round(float(cen_b_from_mcc(3, 5, 1, mcc_b(3, 5, 1))), 6)  # = cen_b(3, 5, 1)
    0.543908
    """
    n, t, f = _check_b(N, T, F)
    positive = f > 0
    ratio = np.divide(t + (n - 1.0) * f, (n - 1.0) * f, out=np.ones_like(t * f), where=positive)
    value = (1.0 - real_array(mcc, name="mcc")) * (1.0 + log_b(ratio, n)) * (1.0 - 1.0 / n)
    return np.where(positive, value, 0.0)
