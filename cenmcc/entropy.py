"""Confusion Entropy (CEN) of Wei et al. (2010): an entropy, so lower is better (0 is perfect).

With ``d_j = t_j + p_j`` (row plus column sum of class j) and ``s`` the number of samples, Eq. (1)
of Jurman et al. (2012) needs only one logarithm per cell. The misclassification probabilities
are ``P^j_jk = C_jk / d_j``, ``P^j_kj = C_kj / d_j`` and ``P_j = d_j / (2s)``, so, with ``ln`` the
natural logarithm and ``b = 2(K-1)`` the base of the entropy,

    2 s ln(b) CEN = sum_j sum_{k != j} [C_jk ln(d_j / C_jk) + C_kj ln(d_j / C_kj)]
                  = sum_j (d_j - 2 C_jj) ln d_j  -  2 sum_{j != k} C_jk ln C_jk,

because ``sum_{k != j} (C_jk + C_kj) = d_j - 2 C_jj`` and each off-diagonal cell appears once as a
row term (of class j) and once as a column term (of class k). The convention ``0 ln 0 = 0``
(Jurman et al. 2012, Methods) makes empty cells and empty classes contribute nothing.
:func:`cenmcc.reference.cen` transcribes Eq. (1) literally; the tests check the two agree.
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from ._marginals import Counts, Partial, evaluate
from ._undefined import divide, warn_undefined


def _xlogx_cells(m: Counts) -> np.ndarray:
    """``C_jk ln C_jk`` for every cell, 0 on the diagonal and where ``C_jk = 0``; float64.

    For integer counts whose largest value is small next to the number of cells, the values come
    from a lookup table of ``x ln x`` for ``x = 0 .. max`` (one gather per cell, about three times
    cheaper than a logarithm); otherwise one logarithm per cell is taken. Both give the same
    products ``x * ln(x)``.
    """
    C = m.C
    if C.dtype.kind == "i" and m.max_count < max(_TABLE_MIN, C.size // 2):
        x = np.arange(m.max_count + 1, dtype=np.float64)
        X = np.take(xlogy(x, x), C)
    else:
        X = np.log(C, out=np.zeros(C.shape), where=C > 0)
        X *= C
    np.einsum("...ii->...i", X)[...] = 0.0
    return X


#: Tables this small are always worth building.
_TABLE_MIN = 4096


def _class_term(m: Counts) -> np.ndarray:
    """``(d_j - 2 C_jj) ln d_j`` per class; the difference is exact for integer counts."""
    d = m.true + m.pred
    return xlogy(d - 2 * m.diag, d)


def cen_of(m: Counts) -> np.ndarray:
    """CEN of validated counts (internal)."""
    cells = np.einsum("...ij->...", _xlogx_cells(m))  # sum_{j != k} C_jk ln C_jk
    numerator = np.einsum("...j->...", _class_term(m)) - 2.0 * cells
    return numerator / (2.0 * m.total * np.log(2.0 * (m.n_classes - 1)))


def cen(C) -> np.ndarray:
    """Confusion Entropy of Wei et al. (2010): the weighted misclassification entropy.

    CEN is an entropy: lower is better, 0 is perfect classification.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class; integer or weighted
        counts.

    Returns
    -------
    ndarray, shape (...)
        ``CEN = sum_j P_j CEN_j`` with logarithms to base ``2(K-1)``. 0 for perfect
        classification; 1 for complete misclassification ``C_ij = (1 - δ_ij) F`` when K > 2;
        for K = 2 it can exceed 1 (Jurman et al. 2012, "The binary case").

    Notes
    -----
    Eq. (1) of Jurman et al. (2012), after Wei et al. (2010), computed with one logarithm per
    cell through the identity in the module docstring. A class with no samples (row and column
    zero) has ``P_j = 0`` and contributes nothing, so CEN is never 0/0; a matrix with no samples
    raises ``ValueError``.

    Examples
    --------
    >>> round(float(cen([[0, 1, 1], [1, 0, 1], [1, 1, 0]])), 12)  # complete misclassification
    1.0
    >>> cen([[[5, 0], [0, 5]], [[1, 1], [1, 1]]]).round(4).tolist()
    [0.0, 1.0]
    """
    return evaluate(C, lambda m: Partial(cen_of(m))).values


def cen_per_class(C, *, zero_division: float = 0.0) -> np.ndarray:
    """Per-class confusion entropies ``CEN_j`` (lower is better, 0 is best).

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        Value for a class with no samples (row and column zero), whose ``CEN_j`` is 0/0; such a
        class has weight ``P_j = 0`` in :func:`cen`. Counted in one ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray, shape (..., K)
        ``CEN_j = -sum_{k != j} [P^j_jk log P^j_jk + P^j_kj log P^j_kj]``, logarithms to base
        ``2(K-1)``; ``sum_j P_j CEN_j`` is :func:`cen`.

    Notes
    -----
    Jurman et al. (2012), Eq. (1), after Wei et al. (2010). Per class,
    ``d_j ln(b) CEN_j = (d_j - 2 C_jj) ln d_j - sum_{k != j} (C_jk ln C_jk + C_kj ln C_kj)``.

    Examples
    --------
    >>> cen_per_class([[2, 1, 0], [0, 3, 0], [0, 0, 4]]).round(4).tolist()
    [0.2322, 0.2005, 0.0]
    """

    def kernel(m: Counts) -> Partial:
        X = _xlogx_cells(m)
        numerator = _class_term(m) - np.einsum("...ij->...i", X) - np.einsum("...ij->...j", X)
        d = m.true + m.pred
        values, undefined = divide(numerator, d * np.log(2.0 * (m.n_classes - 1)), zero_division)
        return Partial(values, undefined, values.size)

    result = evaluate(C, kernel)
    warn_undefined(
        result.undefined, result.checked, "CEN_j of a class with no samples", zero_division
    )
    return result.values
