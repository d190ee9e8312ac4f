"""Confusion Entropy (CEN) of Wei et al. (2010): an entropy, so lower is better (0 is perfect).

With ``d_j = t_j + p_j`` (row plus column sum of class j) and ``s`` the number of samples, the
misclassification probabilities of Eq. (1) of Jurman et al. (2012) are ``P^j_jk = C_jk / d_j``,
``P^j_kj = C_kj / d_j`` and ``P_j = d_j / (2s)``, so, with ``ln`` the natural logarithm and
``b = 2(K-1)`` the base of the entropy,

    2 s ln(b) CEN = sum_j sum_{k != j} [C_jk ln(d_j / C_jk) + C_kj ln(d_j / C_kj)]
                  = sum_{j != k} C_jk ln(d_j d_k / C_jk^2),

because each off-diagonal cell appears once as a row term (of class j) and once as a column
term (of class k). Every term of the last sum is non-negative (``C_jk <= d_j``), so the sum
cannot cancel: with the ratio ``d_j d_k / C_jk^2`` rounded once before its logarithm, CEN is
within ``2 u / ln(b)`` plus the rounding of a sum of positive terms of its exact value (u the
unit roundoff, 1.1e-16). The equivalent ``sum_j (d_j - 2 C_jj) ln d_j - 2 sum C_jk ln C_jk``
needs fewer operations but subtracts numbers of size ``s ln s``, and loses about ``log2(ln s)``
bits. The convention ``0 ln 0 = 0`` (Jurman et al. 2012, Methods) makes empty cells and empty
classes contribute nothing. :func:`cenmcc.reference.cen` transcribes Eq. (1) literally; the
tests check the two agree.
"""

from __future__ import annotations

import math

import numpy as np

from ._marginals import CLASSES_FIRST, Counts
from ._metric import count_metric
from ._undefined import divide

#: Where the maximum of the binary CEN over ``TP = TN = T``, ``FP = FN = F`` is: ``T/F = e/2 - 1``.
#: Derived here (zero of the derivative of ``log2(2y)/y``, ``y = 1 + T/F``); the preprint says the
#: CEN above 1 is "attained for the totally misclassified case T = 0", which is not the maximum.
BINARY_SYMMETRIC_CEN_ARGMAX = math.e / 2.0 - 1.0

#: The maximum itself, ``2 / (e ln 2) ≈ 1.0615``, the largest CEN of any matrix (the upper bound
#: of :func:`cen`); the CEN at ``T = 0`` is exactly 1.
BINARY_SYMMETRIC_CEN_MAX = 2.0 / (math.e * math.log(2.0))


def _off_diagonal(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The off-diagonal cells in float64 (diagonal set to 0) and where they are > 0."""
    C = C.astype(np.float64)  # a copy, exact for integer counts below 2**53
    np.einsum("...ii->...i", C)[...] = 0.0
    return C, C > 0


def _log_ratio(C: np.ndarray, present: np.ndarray, floating: bool, *factors) -> np.ndarray:
    """``ln(prod_f (f / C))`` over the ``factors`` where ``present``, 0 elsewhere.

    Each ratio ``f / C`` is at least 1 (``f`` is a ``d_j >= C``), so their product neither
    underflows nor cancels; it is rounded at most three times before its logarithm. For
    integer counts ``d_j d_k / C_jk^2`` is formed directly (at most 2**128). For float counts
    the product can overflow where a cell is more than 2**512 times smaller than its classes'
    sums; there the logarithm is far above 1 and is taken factor by factor.
    """
    if not floating:  # integer counts: d_j d_k and C^2 are at most 2**128, no overflow
        num = factors[0] * factors[1] if len(factors) == 2 else factors[0]
        den = C * C if len(factors) == 2 else C
        return np.log(np.divide(num, den, out=np.ones(C.shape), where=present))
    ratio = np.ones(C.shape)
    with np.errstate(over="ignore"):
        for f in factors:
            ratio *= np.divide(f, C, out=np.ones(C.shape), where=present)
    out = np.log(ratio)
    huge = np.isinf(out)
    if np.any(huge):
        out[huge] = sum(_log_quotient(np.broadcast_to(f, C.shape)[huge], C[huge]) for f in factors)
    return out


def _log_quotient(f: np.ndarray, C: np.ndarray) -> np.ndarray:
    """``ln(f / C)`` for ``f >= C > 0``; ``ln f - ln C`` where the quotient overflows."""
    with np.errstate(over="ignore"):
        out = np.log(f / C)
    huge = np.isinf(out)
    out[huge] = np.log(f[huge]) - np.log(C[huge])  # above 709: no cancellation
    return out


#: Added to every squared integer count before it divides: a cell of 0 (the diagonal, an empty
#: cell) then has a finite logarithm, which it multiplies by 0, while every other squared count
#: is an integer of at least 1, which adding 2**-800 leaves unchanged.
_EMPTY_CELL = 2.0**-800


def _integer_cells_sum(m: Counts) -> np.ndarray:
    """``sum_{j != k} C_jk ln(d_j d_k / C_jk^2)`` of integer counts, one logarithm per cell.

    Each off-diagonal cell's ratio is ``d_j d_k`` over ``C_jk^2``, each rounded once, divided
    once (at most 2**128 over at least 1: no overflow); an empty class's ``d_j`` is taken as 1,
    which changes no ratio of a non-empty cell (``d_j >= C_jk``). The products are summed
    pairwise over the K^2 cells of each matrix (:func:`_sum_cells`).
    """
    X = m.cells
    d = np.add(m.true, m.pred, out=m.scratch("d", 1))  # summed exactly, then rounded
    np.maximum(d, 1.0, out=d)
    ratio = m.scratch("ratio")
    if m.n_classes >= CLASSES_FIRST:  # each matrix contiguous: einsum's loop is the faster
        np.einsum("...j,...k->...jk", d, d, out=ratio)
    else:
        np.multiply(d[..., :, None], d[..., None, :], out=ratio)
    square = np.multiply(X, X, out=m.scratch("square"))
    square += _EMPTY_CELL
    np.divide(ratio, square, out=ratio)
    np.log(ratio, out=ratio)
    np.einsum("...ii->...i", ratio)[...] = 0.0  # the diagonal contributes nothing
    ratio *= X
    return _sum_cells(ratio)


def _sum_cells(X: np.ndarray) -> np.ndarray:
    """The sum of the K^2 cells of each matrix of ``X`` (n, K, K), in either layout of
    :attr:`Counts.cells`: NumPy's pairwise summation of each matrix's cells in row-major order,
    made contiguous first, so that a matrix's CEN has the same bits in a stack of any size (and
    as NumPy's ``X.sum(axis=(-2, -1))`` of the matrix alone).

    Summed in place over the matrices' axis, class by class, the cells would be added one after
    the other, with other bits. The copy costs 0.3 to 4 ms per 10^4 matrices of 2 to 15 classes,
    within the noise of CEN's own 110 ms (measured on K = 3 to 30, against a transcription of
    NumPy's summation order on the class-by-class layout that this replaces).
    """
    n, K, _ = X.shape
    return np.ascontiguousarray(X).reshape(n, K * K).sum(axis=-1)


def _weighted_cells_sum(m: Counts) -> np.ndarray:
    """``sum_{j != k} C_jk ln(d_j d_k / C_jk^2)`` of (scaled) float counts."""
    C, present = _off_diagonal(m.C)
    d = (m.true + m.pred).astype(np.float64)
    X = _log_ratio(C, present, True, d[..., :, None], d[..., None, :])
    X *= C
    return X.sum(axis=(-2, -1))  # pairwise summation over the K^2 contiguous cells


@count_metric(label="CEN", greater_is_better=False, bounds=(0.0, BINARY_SYMMETRIC_CEN_MAX))
def cen(m: Counts) -> np.ndarray:
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
    Eq. (1), Jurman et al. 2012, after Wei et al. 2010, computed with one logarithm per cell
    through the identity in the module docstring:
    ``CEN = sum_{j != k} C_jk ln(d_j d_k / C_jk^2) / (2 s ln b)``. A class with no samples (row
    and column zero) has ``P_j = 0`` and contributes nothing, so CEN is never 0/0; a matrix with
    no samples raises ``ValueError``.

    Accepted range and precision: see the package docstring (:mod:`cenmcc`); every term of the
    sum is non-negative.

    Examples
    --------
    >>> round(float(cen([[0, 1, 1], [1, 0, 1], [1, 1, 0]])), 12)  # complete misclassification
    1.0
    >>> cen([[[5, 0], [0, 5]], [[1, 1], [1, 1]]]).round(4).tolist()
    [0.0, 1.0]
    """
    cells = _weighted_cells_sum(m) if m.C.dtype.kind == "f" else _integer_cells_sum(m)
    # 2 s ln(b) as s (2 ln b): the same bits, one temporary fewer
    cells /= np.multiply(m.total, 2.0 * np.log(2.0 * (m.n_classes - 1)))
    return cells, None


@count_metric("CEN_j of a class with no samples")
def cen_per_class(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
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
    Eq. (1), Jurman et al. 2012, after Wei et al. 2010. Per class,
    ``d_j ln(b) CEN_j = (d_j - 2 C_jj) ln d_j - sum_{k != j} (C_jk ln C_jk + C_kj ln C_kj)``.

    Examples
    --------
    >>> cen_per_class([[2, 1, 0], [0, 3, 0], [0, 0, 4]]).round(4).tolist()
    [0.2322, 0.2005, 0.0]
    """
    # Each class's row and column in the unit of that class (for float counts): CEN_j is a
    # function of them alone, exact however far they are from the other classes' counts.
    seen = m.by_class
    d = seen.d.astype(np.float64, order="C")  # the layout of the counts, not of the cells
    floating = m.C.dtype.kind == "f"
    R, in_row = _off_diagonal(seen.rows)
    Q, in_column = (R, in_row) if seen.columns is seen.rows else _off_diagonal(seen.columns)
    rows = R * _log_ratio(R, in_row, floating, d[..., :, None])  # C_jk ln(d_j / C_jk)
    columns = Q * _log_ratio(Q, in_column, floating, d[..., None, :])  # C_jk ln(d_k / C_jk)
    numerator = rows.sum(axis=-1) + columns.sum(axis=-2)
    return divide(numerator, d * np.log(2.0 * (m.n_classes - 1)), zero_division)


@count_metric(label="MCEN", greater_is_better=False, bounds=(0.0, 1.0))
def mcen(m: Counts) -> np.ndarray:
    """Modified Confusion Entropy (MCEN) of Delgado & Núñez-González (2019); lower is better.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``MCEN = sum_j w_j MCEN_j``, in [0, 1]; 0 is perfect classification. ``MCEN_j`` is CEN's
        ``CEN_j`` with the misclassification probabilities taken over the errors of class j
        only, ``C_jk / e_j`` and ``C_kj / e_j`` with ``e_j = t_j + p_j - C_jj``, logarithms to
        base ``2(K-1)``; ``w_j = e_j / (2 s - α c)`` with ``c`` the trace, ``α = 1`` for
        K > 2 and 0 for K = 2.

    Notes
    -----
    Delgado & Núñez-González 2019 (PLOS ONE 14(1): e0210264), as PyCM implements it
    (``CEN_calc`` with ``modified=True`` and ``convex_combination`` in PyCM 4), which the tests
    use as the oracle. As for :func:`cen`, one logarithm per cell:
    ``MCEN = sum_{j != k} C_jk ln(e_j e_k / C_jk^2) / ((2 s - α c) ln b)``. A class without
    errors (``e_j = 0``) contributes nothing; PyCM returns "None" there. Never 0/0. Computed in
    float64 (the ratios rounded up to three times before their logarithm).

    Examples
    --------
    >>> round(float(mcen([[0, 1, 1], [1, 0, 1], [1, 1, 0]])), 12)  # complete misclassification
    1.0
    >>> round(float(mcen([[5, 0], [0, 5]])), 12)
    0.0
    """
    C, present = _off_diagonal(m.C)
    e = (m.true + m.pred - m.diag).astype(np.float64)
    X = _log_ratio(C, present, True, e[..., :, None], e[..., None, :])
    X *= C
    alpha = 1.0 if m.n_classes > 2 else 0.0
    denominator = (2.0 * m.total - alpha * m.correct) * np.log(2.0 * (m.n_classes - 1))
    return X.sum(axis=(-2, -1)) / denominator, None
