"""The constructors of the papers' matrix families: ``B(T, F)`` and its special cases (constant,
complete misclassification), ``Z_A``, dice rolling, binary, single column and swapped pair.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_array, check_integer
from ._parameters import check_parameters


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
    T, F = check_parameters(0, T=T, F=F)
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
    :data:`~cenmcc.entropy.BINARY_SYMMETRIC_CEN_MAX`).

    Examples
    --------
    >>> complete_misclassification(3).tolist()
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    """
    return b_matrix(N, 0, F)


def _ones_and_entry(N, A) -> tuple[np.ndarray, np.ndarray]:
    """The all-ones stack ``(..., N, N)`` that ``Z_A`` and dice rolling start from, and their
    entry ``A`` checked (``>= 1``), of the stack's dtype."""
    N = check_integer(N, name="N", low=2)
    (A,) = check_parameters(1, A=A)
    return b_matrix(N, np.ones_like(A), np.ones_like(A)), A


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
    out, A = _ones_and_entry(N, A)
    out[..., -1, 0] = A
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
    out, A = _ones_and_entry(N, A)
    out[..., -1, :] = A[..., None]
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
    TP, FN, FP, TN = check_parameters(0, TP=TP, FN=FN, FP=FP, TN=TN)
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
    (counts,) = check_parameters(0, true_counts=counts)
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
    F, G = check_parameters(0, strict=True, F=F, G=F if G is None else G)
    out = np.zeros((*F.shape, N, N), dtype=F.dtype)
    out[..., 0, 1] = F
    out[..., 1, 0] = G
    return out
