"""Shared fixtures: a seeded zoo of random and degenerate confusion matrices."""

import numpy as np
import pytest
from hypothesis import settings

settings.register_profile("cenmcc", deadline=None, max_examples=200, derandomize=True)
settings.load_profile("cenmcc")


def matrix_zoo(rng: np.random.Generator, n: int, K: int) -> np.ndarray:
    """``n`` integer K x K matrices with at least one sample each, many of them degenerate.

    Mixes dense counts, sparse counts (many zero cells), empty rows, empty columns, empty classes
    (row and column), a single non-zero column (one predicted class), a single non-zero row (one
    true class), a single cell, perfect (diagonal) and complete misclassification, and large counts.
    """
    C = rng.integers(0, 20, size=(n, K, K))
    kind = rng.integers(0, 10, size=n)
    C[kind == 1] *= rng.integers(0, 2, size=(np.count_nonzero(kind == 1), K, K))
    rows = rng.integers(0, K, size=n)
    cols = rng.integers(0, K, size=n)
    idx = np.arange(n)
    C[idx[kind == 2], rows[kind == 2], :] = 0
    C[idx[kind == 3], :, cols[kind == 3]] = 0
    C[idx[kind == 4], rows[kind == 4], :] = 0
    C[idx[kind == 4], :, rows[kind == 4]] = 0
    only_col = C[kind == 5] * (np.arange(K) == cols[kind == 5, None, None])
    C[kind == 5] = only_col
    only_row = C[kind == 6] * (np.arange(K)[:, None] == rows[kind == 6, None, None])
    C[kind == 6] = only_row
    C[kind == 7] = 0
    C[idx[kind == 7], rows[kind == 7], cols[kind == 7]] = rng.integers(1, 5, size=(kind == 7).sum())
    C[kind == 8] *= np.eye(K, dtype=C.dtype)
    C[kind == 9] = C[kind == 9] * (1 - np.eye(K, dtype=C.dtype)) * 10**6
    empty = C.sum(axis=(-2, -1)) == 0
    C[empty, 0, 0] = 1
    return C


@pytest.fixture(scope="session")
def zoo() -> dict[int, np.ndarray]:
    """For K = 2..7, 600 random and degenerate matrices (3,600 in all), seeded."""
    rng = np.random.default_rng(20100818)
    return {K: matrix_zoo(rng, 600, K) for K in range(2, 8)}
