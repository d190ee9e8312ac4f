"""Seeded random search and adversarial cases for claims about *all* confusion matrices.

A claim such as "CEN lies in [0, 1] for N > 2" or "micro F1 equals accuracy" is checked on a
seeded random sample of matrices of several sizes, whose entries mix scales (0 to 1000) and
sparsity (from 5% to 100% non-zero cells), together with the adversarial matrices where such
claims usually break: perfect and complete misclassification, constant matrices, one non-zero
column or row, two symmetric entries, a cyclic shift, a single error, and independent
(rank-one) predictions. What the search finds is recorded, not assumed: a search can refute a
claim, never prove it (the records' notes give a proof where there is one).
"""

from __future__ import annotations

import numpy as np

#: Matrix sizes visited by default: binary, the papers' range 3 .. 30, and a few in between.
SIZES = (2, 3, 4, 5, 8, 12, 30)


def random_matrices(seed: int, n: int, K: int) -> np.ndarray:
    """``n`` random ``K x K`` count matrices with mixed scales and sparsity, none empty.

    Parameters
    ----------
    seed : int
        Seed of ``numpy.random.default_rng``.
    n, K : int
        Number and size of the matrices.

    Returns
    -------
    ndarray of int64, shape (n, K, K)
    """
    rng = np.random.default_rng(seed)
    scale = np.rint(10.0 ** rng.uniform(0.0, 3.0, size=(n, 1, 1))).astype(np.int64)
    density = rng.uniform(0.05, 1.0, size=(n, 1, 1))
    C = rng.integers(0, scale + 1, size=(n, K, K)) * (rng.random((n, K, K)) < density)
    empty = C.sum(axis=(1, 2)) == 0
    C[empty, 0, 0] = 1
    return C


def adversarial_matrices(K: int) -> np.ndarray:
    """The edge cases of size ``K``: a stack of matrices where range and identity claims break.

    Returns
    -------
    ndarray of int64, shape (m, K, K)
        Perfect classification (two class profiles), complete misclassification ``1 - I``, the
        constant matrix, each single non-zero column and row, two symmetric entries (equal and
        unequal), a cyclic shift, a single error on a large diagonal, and two rank-one
        (independent) matrices.
    """
    eye = np.eye(K, dtype=np.int64)
    sizes = np.arange(1, K + 1)
    cases = [eye, np.diag(sizes), 1 - eye, np.ones((K, K), dtype=np.int64)]
    for j in range(K):
        column = np.zeros((K, K), dtype=np.int64)
        column[:, j] = sizes
        row = np.zeros((K, K), dtype=np.int64)
        row[j, :] = sizes
        cases += [column, row]
    for a, b in ((1, 1), (1, 3)):
        pair = np.zeros((K, K), dtype=np.int64)
        pair[0, 1], pair[1, 0] = a, b
        cases.append(pair)
    cases.append(np.roll(eye, 1, axis=1))
    one_error = 1000 * eye
    one_error[K - 1, 0] = 1
    cases.append(one_error)
    cases += [np.outer(sizes, sizes), np.outer(sizes, sizes[::-1])]
    return np.stack(cases)


def search_stacks(seed: int, n: int, sizes=SIZES) -> dict[int, np.ndarray]:
    """For each size K: ``n`` random matrices (seed ``seed + K``) then the adversarial ones."""
    return {
        K: np.concatenate([random_matrices(seed + K, n, K), adversarial_matrices(K)]) for K in sizes
    }


def describe(seed: int, n: int, sizes=SIZES) -> str:
    """One phrase saying what :func:`search_stacks` visited, for a record's detail."""
    shown = ", ".join(map(str, sizes))
    return (
        f"{n:,} random matrices per size K in {{{shown}}} (seed {seed}) plus the adversarial "
        "cases of each size"
    )


def marginals(C) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(t, p, c, s)``: row sums, column sums, trace and total of a stack, in float64."""
    C = np.asarray(C, dtype=np.float64)
    return C.sum(axis=-1), C.sum(axis=-2), np.einsum("...ii->...", C), C.sum(axis=(-2, -1))


def mcc_defined(C) -> np.ndarray:
    """Where the MCC is not 0/0: more than one true class and more than one predicted class."""
    t, p, _, s = marginals(C)
    return ((s**2 - (p * p).sum(axis=-1)) * (s**2 - (t * t).sum(axis=-1))) > 0


def largest_gap(stacks, left, right, where=None) -> float:
    """``max |left(C) - right(C)|`` over every matrix of every stack (restricted by ``where``)."""
    gaps = []
    for C in stacks.values():
        if where is not None:
            C = C[where(C)]
        gaps.append(np.max(np.abs(np.asarray(left(C)) - np.asarray(right(C))), initial=0.0))
    return float(max(gaps))


def value_range(stacks, measure, where=None) -> tuple[float, float]:
    """``(min, max)`` of ``measure(C)`` over every matrix of every stack (where ``where``)."""
    lo, hi = np.inf, -np.inf
    for C in stacks.values():
        if where is not None:
            C = C[where(C)]
        values = np.asarray(measure(C))
        lo, hi = min(lo, float(values.min())), max(hi, float(values.max()))
    return lo, hi
