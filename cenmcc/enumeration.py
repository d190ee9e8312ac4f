"""Every confusion matrix of a given shape: with given class sizes, or with a given total.

The papers evaluate measures on *all* confusion matrices of a small problem: every 3×3 matrix
whose rows hold 2, 4 and 3 samples (Jurman et al. 2012, "Relationships between CEN and MCC",
after Wei et al. 2010) and every 2×2 matrix on s samples, 2 ≤ s ≤ 100 (Jurman et al. 2012,
"The binary case"). A row of a K×K matrix with n samples is a weak composition of n into K
parts, so the matrices are Cartesian products of compositions; there are
``prod_i C(n_i + K - 1, K - 1)`` with row sums ``n_i`` and ``C(s + K² - 1, K² - 1)`` with total
``s`` (stars and bars).

The compositions are built with NumPy, one part at a time: the loop runs over the K parts (or
the K rows), never over compositions or matrices.
"""

from __future__ import annotations

import numpy as np

from ._validation import as_array, check_integer, is_integer


def _check_nonnegative_ints(values, name: str) -> np.ndarray:
    """``values`` as a 1-D int64 array of non-negative integers, or a clear error."""
    arr = as_array(values, name=name)
    if not is_integer(arr):
        raise TypeError(f"{name} must be integers, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and arr.size and arr.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds {int(arr.max())}, too large for int64")
    arr = np.atleast_1d(arr).astype(np.int64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be an integer or a 1-D sequence, got shape {arr.shape}")
    if np.any(arr < 0):
        bad = int(arr[np.flatnonzero(arr < 0)[0]])
        raise ValueError(f"{name} must be non-negative, got {bad}")
    return arr


def weak_compositions(totals, parts: int) -> np.ndarray:
    """Every way to write each total as an ordered sum of ``parts`` non-negative integers.

    Parameters
    ----------
    totals : int or sequence of int
        The total(s) n >= 0. For a sequence, the compositions of each total follow one another
        in the order given.
    parts : int
        Number of parts, at least 1.

    Returns
    -------
    ndarray of int64, shape (N, parts)
        ``N = sum_n C(n + parts - 1, parts - 1)`` rows; the compositions of one total are in
        lexicographic order and each appears once.

    Notes
    -----
    Built one part at a time: each partial composition with ``r`` units left gets ``r + 1``
    children, with the values ``0 .. r`` as its next part (a ragged ``arange``); the last part takes
    what is left. Each level stores its values and the index of each child's parent; the rows
    are then filled one column at a time by following the parents back.

    Examples
    --------
    >>> weak_compositions(2, 3).tolist()
    [[0, 0, 2], [0, 1, 1], [0, 2, 0], [1, 0, 1], [1, 1, 0], [2, 0, 0]]
    >>> weak_compositions([0, 1], 2).tolist()
    [[0, 0], [0, 1], [1, 0]]
    """
    remaining = _check_nonnegative_ints(totals, "totals")
    k = check_integer(parts, name="parts", low=1)
    values, parents = [], []
    for _ in range(k - 1):
        repeats = remaining + 1
        starts = np.cumsum(repeats) - repeats
        parent = np.repeat(np.arange(remaining.size), repeats)
        value = np.arange(parent.size, dtype=np.int64) - starts[parent]
        values.append(value)
        parents.append(parent)
        remaining = remaining[parent] - value
    out = np.empty((remaining.size, k), dtype=np.int64)
    out[:, k - 1] = remaining
    # Part j of each final row is values[j] at that row's ancestor on level j.
    index = np.arange(remaining.size)
    for j in range(k - 2, -1, -1):
        out[:, j] = values[j][index]
        index = parents[j][index]
    return out


def matrices_with_row_sums(row_sums) -> np.ndarray:
    """Every K×K count matrix whose rows (true classes) have the given sizes.

    Parameters
    ----------
    row_sums : sequence of int, length K >= 2
        Number of samples of each true class (non-negative).

    Returns
    -------
    ndarray of int64, shape (N, K, K)
        ``N = prod_i C(n_i + K - 1, K - 1)`` distinct matrices, rows = true class, in
        lexicographic order of their flattened cells.

    Notes
    -----
    The domain of the degree of discriminancy of Jurman et al. (2012), "Relationships between
    CEN and MCC": for class sizes (2, 4, 3), every matrix "from the perfect classification case
    to the complete misclassification case". Each row is a :func:`weak_compositions` of its
    size; the matrices are their Cartesian product (one loop over the K rows).

    Examples
    --------
    >>> M = matrices_with_row_sums([2, 4, 3])
    >>> M.shape
    (900, 3, 3)
    >>> M.sum(axis=-1).min(axis=0).tolist(), M.sum(axis=-1).max(axis=0).tolist()
    ([2, 4, 3], [2, 4, 3])
    """
    sizes = _check_nonnegative_ints(row_sums, "row_sums")
    K = sizes.size
    if K < 2:
        raise ValueError(f"row_sums must give K >= 2 class sizes, got {sizes.tolist()}")
    rows = [weak_compositions(int(n), K) for n in sizes]
    counts = [len(r) for r in rows]
    n_total = int(np.prod(counts))
    out = np.empty((n_total, K, K), dtype=np.int64)
    inner = n_total
    for i, r in enumerate(rows):
        inner //= counts[i]
        # Row i varies slower than rows i+1..K-1: repeat each composition over the inner block,
        # and tile that over the outer block.
        out[:, i, :] = np.tile(np.repeat(r, inner, axis=0), (n_total // (counts[i] * inner), 1))
    return out


def matrices_with_total(totals, n_classes: int) -> np.ndarray:
    """Every K×K count matrix with the given number of samples.

    Parameters
    ----------
    totals : int or sequence of int
        Number(s) of samples s >= 0. For a sequence, the matrices of each total follow one
        another in the order given (e.g. ``range(1, 101)``).
    n_classes : int
        K >= 2.

    Returns
    -------
    ndarray of int64, shape (N, K, K)
        ``N = sum_s C(s + K² - 1, K² - 1)`` distinct matrices per total, in lexicographic order
        of their flattened cells within each total.

    Notes
    -----
    The domain of "The binary case" of Jurman et al. (2012) with K = 2: every 2×2 matrix on s
    samples. The matrices are the :func:`weak_compositions` of s into K² cells.

    Examples
    --------
    >>> matrices_with_total(1, 2).tolist()
    [[[0, 0], [0, 1]], [[0, 0], [1, 0]], [[0, 1], [0, 0]], [[1, 0], [0, 0]]]
    >>> len(matrices_with_total(range(1, 101), 2))  # Jurman et al. (2012): 4 598 125
    4598125
    """
    K = check_integer(n_classes, name="n_classes", low=2)
    return weak_compositions(totals, K * K).reshape(-1, K, K)
