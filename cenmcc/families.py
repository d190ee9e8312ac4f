"""Closed-form families of confusion matrices and every closed form the papers print for them.

Two sources print these formulas, and they do not always agree:

- *preprint*: Jurman G., Furlanello C. (2010). A unifying view for performance measures in
  multi-class prediction. arXiv:1008.2908, Sec. 2 and Sec. 2.1 (clean text);
- *journal*: Jurman G., Riccadonna S., Furlanello C. (2012). A comparison of MCC and CEN error
  measures in multi-class prediction. PLoS ONE 7(8): e41882, Methods, subsections
  "Relationships between CEN and MCC", "Comparison on the Z_A family", "The dice rolling case"
  and "The binary case" (text extracted from the PDF).

Where both print the same formula there is one function, named for the quantity and the family
(``cen_z_a``); where they differ, the function is the form that holds, suffixed ``_journal``
(``mcc_z_a_journal``). The library holds no formula that does not hold: the preprint's
misprinted forms (the MCC of ``Z_A`` and its limit, the limit of the dice CEN, the first line
of Eq. (3)) are transcribed in :mod:`experiments.misprints`, which the families experiment and
``paper_checks`` compare with these.

The closed forms of the ``Z_A`` and dice families are each written once, as an expression of
numbers, NumPy arrays or sympy symbols (``*_expression``, no validation), which the validated
NumPy function evaluates and :mod:`experiments.families_symbolic` proves from the definitions.

Reading of the journal's extracted formulas: the PDF extraction prints ``~`` for ``=``, ``{`` for
``-``, ``z`` for ``+``, ``w`` for ``>``, ``v`` for ``<``, ``§`` for ``≥``, ``??`` for ``→ ∞``,
``=`` for ``≠`` (as in ``k=j`` under the sum of Eq. (1)), breaks fractions over lines and writes
``log2N{2`` for ``log_{2N-2}``. Each docstring below gives the garbled text and the reading taken.

All constructors return integer stacks (``int64``) for integer parameters and ``float64`` stacks
otherwise, of shape ``(..., N, N)`` where ``...`` is the broadcast shape of the parameters, with
rows = true class as everywhere in cenmcc. All closed forms are vectorized over their parameters
(``N`` included) and return ``float64``.
"""

from __future__ import annotations

import math

import numpy as np

from ._marginals import Counts
from ._undefined import divide, warn_undefined
from ._validation import _first_index, as_array, check_integer, is_integer, is_real, real_array
from .correlation import mcc

#: Where the maximum of the binary CEN over ``TP = TN = T``, ``FP = FN = F`` is: ``T/F = e/2 - 1``.
#: Derived here (zero of the derivative of ``log2(2y)/y``, ``y = 1 + T/F``); the preprint says the
#: CEN above 1 is "attained for the totally misclassified case T = 0", which is not the maximum.
BINARY_SYMMETRIC_CEN_ARGMAX = math.e / 2.0 - 1.0

#: The maximum itself, ``2 / (e ln 2) ≈ 1.0615``; the CEN at ``T = 0`` is exactly 1.
BINARY_SYMMETRIC_CEN_MAX = 2.0 / (math.e * math.log(2.0))


# --------------------------------------------------------------------------------------------
# Parameter checks (one place, used by every constructor and closed form)
# --------------------------------------------------------------------------------------------


def _check_parameters(minimum: float, *, strict: bool = False, **values) -> list[np.ndarray]:
    """Broadcast named real parameters, check them finite and ``>= minimum`` (``>`` if strict).

    Returns the arrays in the order given, all ``int64`` if every parameter is integer and all
    ``float64`` otherwise.
    """
    arrays = {}
    for name, value in values.items():
        a = as_array(value, name=name)
        if not is_real(a):
            raise TypeError(f"{name} must be integer or real, got dtype {a.dtype}")
        if not np.all(np.isfinite(a)):
            idx = _first_index(~np.isfinite(np.atleast_1d(a)))
            raise ValueError(f"{name} must be finite, found {np.atleast_1d(a)[idx]} at {idx}")
        bad = np.atleast_1d(a <= minimum if strict else a < minimum)
        if np.any(bad):
            idx = _first_index(bad)
            relation = ">" if strict else ">="
            raise ValueError(f"{name} must be {relation} {minimum}, got {np.atleast_1d(a)[idx]}")
        arrays[name] = a
    integer = all(is_integer(a) for a in arrays.values())
    dtype = np.int64 if integer else np.float64
    return [a.astype(dtype) for a in np.broadcast_arrays(*arrays.values())]


def _as_classes(N) -> np.ndarray:
    """``N`` (scalar or array of integers >= 2) as float64 for the closed forms."""
    n = as_array(N, name="N")
    if not is_integer(n):
        raise TypeError(f"N must be an integer number of classes, got {N!r}")
    if np.any(n < 2):
        raise ValueError(f"N must be at least 2, got {N!r}")
    return n.astype(np.float64)


def _log_b(x, n, log=np.log):
    """``log_{2N-2}(x)``, the logarithm of CEN (Eq. (1)); ``log`` is the natural logarithm of
    the arithmetic at hand (``np.log`` for float arrays, ``sympy.log`` for symbols)."""
    return log(x) / log(2 * n - 2)


# --------------------------------------------------------------------------------------------
# Constructors
# --------------------------------------------------------------------------------------------


def b_matrix(N, T, F) -> np.ndarray:
    """The matrix ``B(T, F)``: ``T`` on the diagonal and ``F`` everywhere else.

    Parameters
    ----------
    N : int
        Number of classes, at least 2.
    T, F : array_like of non-negative numbers
        Diagonal and off-diagonal entries; broadcast together.

    Returns
    -------
    ndarray, shape (..., N, N)
        ``B_ji = F + (T - F) δ_ij``; ``int64`` for integer ``T`` and ``F``, else ``float64``.

    Notes
    -----
    Preprint, Sec. 2 and journal, "Relationships between CEN and MCC" (``Bji~Fz(T{F)dij``).
    ``B(F, F)`` is the constant matrix, ``B(0, F)`` complete misclassification, ``B(T, 0)``
    perfect classification; for ``N = 2``, ``B(T, F)`` is the binary matrix with ``TP = TN = T``
    and ``FP = FN = F``.

    Examples
    --------
    >>> b_matrix(3, 5, 1).tolist()
    [[5, 1, 1], [1, 5, 1], [1, 1, 5]]
    >>> b_matrix(2, [0, 4], 1).shape
    (2, 2, 2)
    """
    N = check_integer(N, name="N", low=2)
    T, F = _check_parameters(0, T=T, F=F)
    out = np.empty((*T.shape, N, N), dtype=T.dtype)
    out[...] = F[..., None, None]
    np.einsum("...ii->...i", out)[...] = T[..., None]
    return out


def constant(N, F=1) -> np.ndarray:
    """The constant matrix ``C_ij = F``: every class predicted uniformly at random (balanced).

    Parameters
    ----------
    N : int
        Number of classes, at least 2.
    F : array_like of non-negative numbers, default 1
        The common entry.

    Returns
    -------
    ndarray, shape (..., N, N)
        ``B(F, F)``; MCC 0 and CEN ``(1 - 1/N) log_{2N-2}(2N)`` (:func:`cen_constant`).

    Notes
    -----
    Preprint, Sec. 2 (``C_ij = K``) and journal, "Relationships between CEN and MCC" and Fig. 1,
    Box 2 (``Cij~F``, with ``F = 1``).

    Examples
    --------
    >>> constant(2, [1, 3]).tolist()
    [[[1, 1], [1, 1]], [[3, 3], [3, 3]]]
    """
    return b_matrix(N, F, F)


def complete_misclassification(N, F=1) -> np.ndarray:
    """Complete misclassification ``C_ij = (1 - δ_ij) F``: no sample in its own class.

    Parameters
    ----------
    N : int
        Number of classes, at least 2.
    F : array_like of non-negative numbers, default 1
        The off-diagonal entry.

    Returns
    -------
    ndarray, shape (..., N, N)
        ``B(0, F)``; its CEN is 1 for every ``N >= 2`` (also ``N = 2``).

    Notes
    -----
    Preprint, Sec. 2 ("extreme misclassification case") and journal, Methods ("complete
    misclassification case ``Cij~(1{dij)F``"). Both say CEN = 1 "for N > 2"; it is 1 for
    ``N = 2`` too: what fails for ``N = 2`` is that 1 is the largest CEN (see
    :data:`BINARY_SYMMETRIC_CEN_MAX`).

    Examples
    --------
    >>> complete_misclassification(3).tolist()
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    """
    return b_matrix(N, 0, F)


def z_a(N, A) -> np.ndarray:
    """The matrix ``Z_A``: all entries 1 except the lower-left corner (row N, column 1), ``A``.

    Parameters
    ----------
    N : int
        Number of classes, at least 2.
    A : array_like of numbers >= 1
        The corner entry. The papers take ``A`` a positive integer; real ``A >= 1`` is allowed.

    Returns
    -------
    ndarray, shape (..., N, N)
        ``(Z_A)_ij = 1 + δ_(i,j),(N,1) (A - 1)``.

    Notes
    -----
    Preprint, Sec. 2 and journal, "Comparison on the Z_A family"
    (``(ZA)ij~1zd(i,j),(N,1)(A{1) for A§1 a positive integer``). ``Z_1`` is the constant matrix.

    Examples
    --------
    >>> z_a(3, 7).tolist()
    [[1, 1, 1], [1, 1, 1], [7, 1, 1]]
    >>> z_a(4, [1, 10, 100]).shape
    (3, 4, 4)
    """
    N = check_integer(N, name="N", low=2)
    (A,) = _check_parameters(1, A=A)
    out = b_matrix(N, np.ones_like(A), np.ones_like(A))
    out[..., N - 1, 0] = A
    return out


def dice(N, A) -> np.ndarray:
    """Dice rolling on unbalanced classes: all entries 1 except the last row, all ``A``.

    Parameters
    ----------
    N : int
        Number of classes (faces of the die), at least 2.
    A : array_like of numbers >= 1
        The entries of the last row: class N has ``A`` times as many samples as the others.

    Returns
    -------
    ndarray, shape (..., N, N)
        Ones, with row N equal to ``A``: predictions independent of the truth, so MCC = 0.

    Notes
    -----
    Preprint, Sec. 2 ("perfectly random classification on a unbalanced problem") and journal,
    "The dice rolling case" (``for A§1``).

    Examples
    --------
    >>> dice(3, 4).tolist()
    [[1, 1, 1], [1, 1, 1], [4, 4, 4]]
    """
    N = check_integer(N, name="N", low=2)
    (A,) = _check_parameters(1, A=A)
    out = b_matrix(N, np.ones_like(A), np.ones_like(A))
    out[..., N - 1, :] = A[..., None]
    return out


def binary(TP, FN, FP, TN) -> np.ndarray:
    """The binary confusion matrix ``[[TP, FN], [FP, TN]]`` (rows = true class).

    Parameters
    ----------
    TP, FN, FP, TN : array_like of non-negative numbers
        True positives, false negatives, false positives, true negatives; broadcast together.

    Returns
    -------
    ndarray, shape (..., 2, 2)
        ``[[TP, FN], [FP, TN]]``, class 1 = positive.

    Notes
    -----
    Preprint, Sec. 2.1 and journal, "The binary case".

    Examples
    --------
    >>> binary(5, 1, 2, 7).tolist()
    [[5, 1], [2, 7]]
    >>> binary([1, 2], 0, 0, 1).shape
    (2, 2, 2)
    """
    TP, FN, FP, TN = _check_parameters(0, TP=TP, FN=FN, FP=FP, TN=TN)
    return np.stack([np.stack([TP, FN], axis=-1), np.stack([FP, TN], axis=-1)], axis=-2)


def single_column(true_counts, k: int = 0) -> np.ndarray:
    """All samples predicted as one class ``k``: column ``k`` holds the true-class counts.

    Parameters
    ----------
    true_counts : array_like, shape (..., N)
        Number of samples of each true class (non-negative, N >= 2).
    k : int, default 0
        The predicted class (0-based).

    Returns
    -------
    ndarray, shape (..., N, N)
        Zeros except column ``k``. Its MCC is 0/0 (0 by the papers' convention); its CEN
        depends on the column, and for a constant column it is
        ``(N-1)/(2N) log_{2N-2}(N+1)`` (:func:`cen_dice_limit_journal`).

    Notes
    -----
    Preprint, Sec. 2 ("the confusion matrix is all zeros but for one single column") and
    journal, "Matthews Correlation Coefficient (MCC)" and Fig. 1, Box 1(c).

    Examples
    --------
    >>> single_column([1, 1, 1], k=2).tolist()
    [[0, 0, 1], [0, 0, 1], [0, 0, 1]]
    """
    counts = as_array(true_counts, name="true_counts")
    if counts.ndim < 1:
        raise ValueError(f"true_counts must have shape (..., N), got shape {counts.shape}")
    N = check_integer(counts.shape[-1], name="N", low=2)
    k = check_integer(k, name="k", low=0)
    if k >= N:
        raise ValueError(f"k must be a class index in 0..{N - 1}, got {k}")
    (counts,) = _check_parameters(0, true_counts=counts)
    out = np.zeros((*counts.shape, N), dtype=counts.dtype)
    out[..., :, k] = counts
    return out


def swapped_pair(N, F, G=None) -> np.ndarray:
    """All zeros but two symmetric entries: ``C_12 = F`` and ``C_21 = G`` (``G = F`` by default).

    Parameters
    ----------
    N : int
        Number of classes, at least 2.
    F, G : array_like of positive numbers
        The two entries; ``G`` defaults to ``F``.

    Returns
    -------
    ndarray, shape (..., N, N)
        Classes 1 and 2 swapped, no other sample. MCC = -1 exactly, for every ``N``, ``F``, ``G``.

    Notes
    -----
    Preprint, Sec. 2 ("-1 is reached in the alternative extreme misclassification case of a
    confusion matrix with all zeros but in two symmetric entries") and journal, "Matthews
    Correlation Coefficient (MCC)" ("The value -1 is asymptotically reached"): it is reached
    exactly.

    Examples
    --------
    >>> swapped_pair(3, 2).tolist()
    [[0, 2, 0], [2, 0, 0], [0, 0, 0]]
    """
    N = check_integer(N, name="N", low=2)
    F, G = _check_parameters(0, strict=True, F=F, G=F if G is None else G)
    out = np.zeros((*F.shape, N, N), dtype=F.dtype)
    out[..., 0, 1] = F
    out[..., 1, 0] = G
    return out


# --------------------------------------------------------------------------------------------
# Z_A
# --------------------------------------------------------------------------------------------


def acc_z_a(N, A) -> np.ndarray:
    """Accuracy of ``Z_A`` as printed (identically) in both papers: ``N / (N^2 + A - 1)``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray
        ``N / (N^2 + A - 1)``, in (0, 1/N]; decreasing towards 0 as ``A`` grows.

    Notes
    -----
    Preprint, Sec. 2 (``ACC(Z_A) = N/(N^2 + A - 1)``); journal, "Comparison on the Z_A family"
    (``ACC(ZA)~N=(N2zA{1)``). Holds: the trace is N and the total ``N^2 - 1 + A``.

    Examples
    --------
    >>> float(acc_z_a(3, 2))
    0.3
    """
    return acc_z_a_expression(_as_classes(N), real_array(A, name="A"))


def acc_z_a_expression(n, a):
    """:func:`acc_z_a` on numbers, float arrays or sympy symbols, unvalidated: ``n/(n^2 + a - 1)``.

    Examples
    --------
    >>> import sympy
    >>> acc_z_a_expression(sympy.Integer(3), sympy.Integer(2))
    3/10
    """
    return n / (n**2 + a - 1)


def mcc_z_a_journal(N, A) -> np.ndarray:
    """MCC of ``Z_A`` as the journal prints it: ``-(A - 1) / ((N - 1)(N^2 + 2A - 2))``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray
        In ``(-1/(2(N-1)), 0]``: 0 at ``A = 1``, decreasing in ``A`` towards
        :func:`mcc_z_a_limit_journal`.

    Notes
    -----
    Journal, "Comparison on the Z_A family": ``MCC(ZA)~{ A{1 / (N{1)(N2z2A{2)`` read as
    ``-(A-1)/((N-1)(N^2+2A-2))``. Holds: with trace N, total ``s = N^2 + A - 1``, one row and
    one column summing to ``N - 1 + A`` and the others to N, the numerator of the MCC is
    ``c s - sum_k t_k p_k = -N (A - 1)`` and both factors of the denominator are
    ``N (N - 1)(N^2 + 2A - 2)``.

    Examples
    --------
    >>> round(float(mcc_z_a_journal(3, 2)), 6)
    -0.045455
    """
    return mcc_z_a_expression(_as_classes(N), real_array(A, name="A"))


def mcc_z_a_expression(n, a):
    """:func:`mcc_z_a_journal` on numbers, float arrays or sympy symbols, unvalidated.

    Examples
    --------
    >>> import sympy
    >>> mcc_z_a_expression(sympy.Integer(3), sympy.Integer(2))
    -1/22
    """
    return -(a - 1) / ((n - 1) * (n**2 + 2 * a - 2))


def mcc_z_a_limit_journal(N) -> np.ndarray:
    """The journal's limit of MCC(Z_A) for ``A -> ∞``: ``-1/(2(N - 1))``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.

    Returns
    -------
    ndarray
        ``-1/(2(N-1))``, the infimum of MCC(Z_A) over ``A >= 1``.

    Notes
    -----
    Journal, "Comparison on the Z_A family" (``with limit { 1 / 2(N{1) for A??``). Holds: the
    limit of :func:`mcc_z_a_journal`.

    Examples
    --------
    >>> float(mcc_z_a_limit_journal(3))
    -0.25
    """
    return mcc_z_a_limit_expression(_as_classes(N))


def mcc_z_a_limit_expression(n):
    """:func:`mcc_z_a_limit_journal` on numbers, float arrays or sympy symbols: ``-1/(2(n-1))``.

    Examples
    --------
    >>> import sympy
    >>> mcc_z_a_limit_expression(sympy.Integer(3))
    -1/4
    """
    return -1 / (2 * (n - 1))


def cen_z_a(N, A) -> np.ndarray:
    """CEN of ``Z_A`` as printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray
        ``[(N-2)(N-1) log(2N) + (2N+A-3) log(2N+A-1) - A log A] / (N^2 + A - 1)`` with
        ``log = log_{2N-2}``; the constant-matrix CEN at ``A = 1`` and 0 in the limit.

    Notes
    -----
    Preprint, Sec. 2; journal, "Comparison on the Z_A family" (``CEN(ZA) ~ 1/(N2zA{1)
    [(N{2)(N{1) log2N{2 (2N) z(2NzA{3) log2N{2 (2NzA{1){A log2N{2 (A)]``). Holds: by the
    identity of :mod:`cenmcc.entropy`, ``2 s CEN = sum_j (d_j - 2 C_jj) log d_j
    - 2 sum_{j != k} C_jk log C_jk`` with ``d_j = 2N + A - 1`` for classes 1 and N,
    ``d_j = 2N`` for the other N - 2, and one off-diagonal cell ``A``. Decreasing over the
    integers ``A >= 1`` as the papers say (they take A an integer), but as a function of a real
    ``A`` it first increases on ``(1, ≈ 1.41)`` for ``N = 3``.

    Examples
    --------
    >>> from cenmcc.reference import cen
    >>> round(float(cen_z_a(3, 10)), 6), round(cen(z_a(3, 10)), 6)
    (0.631673, 0.631673)
    """
    return cen_z_a_expression(_as_classes(N), real_array(A, name="A"))


def cen_z_a_expression(n, a, log=np.log):
    """:func:`cen_z_a` on float arrays, or on sympy symbols with ``log=sympy.log``, unvalidated.

    Examples
    --------
    >>> import sympy
    >>> sympy.simplify(cen_z_a_expression(sympy.Integer(2), sympy.Integer(1), sympy.log))
    1
    """
    bracket = (
        (n - 2) * (n - 1) * _log_b(2 * n, n, log)
        + (2 * n + a - 3) * _log_b(2 * n + a - 1, n, log)
        - a * _log_b(a, n, log)
    )
    return bracket / (n**2 + a - 1)


# --------------------------------------------------------------------------------------------
# Dice rolling
# --------------------------------------------------------------------------------------------


def cen_dice(N, A) -> np.ndarray:
    """CEN of the dice-rolling matrix, as printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Entries of the last row, ``A >= 1``.

    Returns
    -------
    ndarray
        ``(N-1)/(2N(N+A-1)) [(2N+A-3) log(2N+A-1) - 2A log A + (A+1) log(N+NA+A-1)]`` with
        ``log = log_{2N-2}``; decreasing in ``A`` towards :func:`cen_dice_limit_journal`.

    Notes
    -----
    Preprint, Sec. 2; journal, "The dice rolling case" (``CEN ~ N{1 / 2N(NzA{1)
    [(2NzA{3) log2N{2 (2NzA{1) {2A log2N{2 Az(Az1) log2N{2 (NzNAzA{1)]``). Holds:
    ``d_j = 2N + A - 1`` for the first N - 1 classes, ``d_N = NA + N + A - 1`` with
    ``d_N - 2 C_NN = (N - 1)(A + 1)``, and N - 1 off-diagonal cells equal to ``A``.

    Examples
    --------
    >>> from cenmcc.reference import cen
    >>> round(float(cen_dice(3, 10)), 6), round(cen(dice(3, 10)), 6)
    (0.606479, 0.606479)
    """
    return cen_dice_expression(_as_classes(N), real_array(A, name="A"))


def cen_dice_expression(n, a, log=np.log):
    """:func:`cen_dice` on float arrays, or on sympy symbols with ``log=sympy.log``, unvalidated.

    Examples
    --------
    >>> import sympy
    >>> sympy.simplify(cen_dice_expression(sympy.Integer(2), sympy.Integer(1), sympy.log))
    1
    """
    bracket = (
        (2 * n + a - 3) * _log_b(2 * n + a - 1, n, log)
        - 2 * a * _log_b(a, n, log)
        + (a + 1) * _log_b(n + n * a + a - 1, n, log)
    )
    return (n - 1) / (2 * n * (n + a - 1)) * bracket


def cen_dice_limit_journal(N) -> np.ndarray:
    """The journal's limit of the dice CEN for ``A -> ∞``: ``(N-1)/(2N) log_{2N-2}(N + 1)``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.

    Returns
    -------
    ndarray
        In [1/3, 1/2) for ``N >= 3``: increasing in ``N >= 3`` towards 1/2 (as ``1/2 -
        ln 2 / (2 ln N)`` to first order). At ``N = 2`` it is ``log2(3)/4 ≈ 0.396``, above its
        value 1/3 at ``N = 3``.

    Notes
    -----
    Journal, "The dice rolling case" (``N{1 / 2N log2N{2 (Nz1)``). Holds. It is also the CEN of
    any matrix whose samples are all predicted as one class with balanced true classes
    (:func:`single_column` with a constant column), because CEN is invariant under
    transposition and scaling and ``dice(N, A) / A`` tends to a single constant row: for
    ``N = 4`` it is 0.33684, the "CEN ≈ 0.337" of the journal's Fig. 1, Box 1(c).

    Examples
    --------
    >>> round(float(cen_dice_limit_journal(4)), 5)
    0.33684
    """
    return cen_dice_limit_expression(_as_classes(N))


def cen_dice_limit_expression(n, log=np.log):
    """:func:`cen_dice_limit_journal` on float arrays, or on sympy symbols with ``log=sympy.log``.

    Examples
    --------
    >>> import sympy
    >>> cen_dice_limit_expression(sympy.Integer(3), sympy.log)
    1/3
    """
    return (n - 1) / (2 * n) * _log_b(n + 1, n, log)


# --------------------------------------------------------------------------------------------
# Constant matrix
# --------------------------------------------------------------------------------------------


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
    n = _as_classes(N)
    return (1.0 - 1.0 / n) * _log_b(2.0 * n, n)


# --------------------------------------------------------------------------------------------
# B(T, F)
# --------------------------------------------------------------------------------------------


def _check_b(T, F) -> tuple[np.ndarray, np.ndarray]:
    T, F = _check_parameters(0, T=T, F=F)
    if np.any(T + F == 0):
        raise ValueError("B(T, F) needs T + F > 0 (T = F = 0 is a matrix without samples)")
    return T.astype(np.float64), F.astype(np.float64)


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
    n = _as_classes(N)
    t, f = _check_b(T, F)
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
    n = _as_classes(N)
    t, f = _check_b(T, F)
    r = t + (n - 1.0) * f
    positive = f > 0
    ratio = np.divide(2.0 * r, f, out=np.ones_like(r * f), where=positive)
    return np.where(positive, (n - 1.0) * f / r * _log_b(ratio, n), 0.0)


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
    n = _as_classes(N)
    t, f = _check_b(T, F)
    positive = f > 0
    ratio = np.divide(t + (n - 1.0) * f, (n - 1.0) * f, out=np.ones_like(t * f), where=positive)
    value = (1.0 - real_array(mcc, name="mcc")) * (1.0 + _log_b(ratio, n)) * (1.0 - 1.0 / n)
    return np.where(positive, value, 0.0)


# --------------------------------------------------------------------------------------------
# Eq. (3), first line
# --------------------------------------------------------------------------------------------


def eq3_first_line_journal(C, *, zero_division: float = 0.0) -> np.ndarray:
    """First line of Eq. (3) as the journal prints it, without ``1/k``: equals the second line.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class.
    zero_division : float, default 0.0
        MCC used where the MCC is 0/0 (see :func:`cenmcc.mcc`).

    Returns
    -------
    ndarray, shape (...)
        ``(1 - MCC) (1 + log_{2K-2}(sum_ij C_ij / sum_{i != j} C_ij)) (1 - 1/K)``, 0 where no
        sample is misclassified (the limit, as for :func:`cenmcc.tmcc`).

    Notes
    -----
    Journal, Eq. (3), first line, ``1z log2N{2 (sum_{i,j} Cij / sum_{i,j, i=j} Cij)`` with the
    extracted ``=`` read as ``≠``. Since ``1 - ACC = sum_{i != j} C_ij / sum_ij C_ij`` it is
    identically the second line, :func:`cenmcc.tmcc`; on ``B(T, F)`` it is exactly the CEN
    (:func:`cen_b_from_mcc`).

    Examples
    --------
    >>> C = [[5, 1, 1], [1, 5, 1], [1, 1, 5]]
    >>> round(float(eq3_first_line_journal(C)), 6)  # = CEN of this B(5, 1)
    0.543908
    """
    m = Counts(C)
    K = m.n_classes
    values = mcc(m, zero_division=zero_division)
    wrong = m.total - m.correct  # exact for integer counts
    log_ratio = np.log(np.divide(m.total, wrong, out=np.ones(wrong.shape), where=wrong > 0))
    out = (1.0 - values) * (1.0 + log_ratio / np.log(2.0 * K - 2.0)) * (1.0 - 1.0 / K)
    return np.where(wrong == 0, 0.0, out)  # no sample misclassified: the limit, 0


# --------------------------------------------------------------------------------------------
# Binary case
# --------------------------------------------------------------------------------------------


def _binary_counts(TP, FN, FP, TN) -> list[np.ndarray]:
    """The four binary counts, checked and broadcast, as float64."""
    return [a.astype(np.float64) for a in _check_parameters(0, TP=TP, FN=FN, FP=FP, TN=TN)]


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
        :data:`BINARY_SYMMETRIC_CEN_MAX` at ``T/F =`` :data:`BINARY_SYMMETRIC_CEN_ARGMAX`.

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
