"""Vectorized enumeration of confusion matrices against counting formulas and itertools."""

import itertools
from math import comb, prod

import numpy as np
import pytest

from cenmcc import matrices_with_row_sums, matrices_with_total, weak_compositions


def brute_compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    """Weak compositions by filtering the full grid (itertools), in lexicographic order."""
    return [c for c in itertools.product(range(n + 1), repeat=parts) if sum(c) == n]


@pytest.mark.parametrize(
    ("n", "parts"), [(0, 1), (0, 3), (1, 1), (4, 1), (3, 2), (5, 3), (4, 4), (2, 9)]
)
def test_weak_compositions_match_brute_force(n, parts):
    got = weak_compositions(n, parts)
    assert got.shape == (comb(n + parts - 1, parts - 1), parts)
    assert [tuple(r) for r in got.tolist()] == brute_compositions(n, parts)


def test_several_totals_follow_one_another():
    got = weak_compositions([3, 0, 2], 3)
    expected = brute_compositions(3, 3) + brute_compositions(0, 3) + brute_compositions(2, 3)
    assert [tuple(r) for r in got.tolist()] == expected


@pytest.mark.parametrize("sizes", [[2, 4, 3], [1, 0, 2], [3, 1], [1, 1, 1, 1], [0, 0]])
def test_row_sums_count_and_brute_force(sizes):
    K = len(sizes)
    M = matrices_with_row_sums(sizes)
    assert M.shape == (prod(comb(n + K - 1, K - 1) for n in sizes), K, K)
    assert (M.sum(axis=-1) == np.array(sizes)).all()
    assert M.min() >= 0
    flat = M.reshape(len(M), -1)
    assert len(np.unique(flat, axis=0)) == len(M)  # no duplicates
    rows = [brute_compositions(n, K) for n in sizes]
    brute = [sum(rs, ()) for rs in itertools.product(*rows)]
    assert [tuple(r) for r in flat.tolist()] == brute


@pytest.mark.parametrize(("total", "K"), [(0, 2), (1, 2), (5, 2), (3, 3), (1, 4)])
def test_total_count_and_brute_force(total, K):
    M = matrices_with_total(total, K)
    assert M.shape == (comb(total + K * K - 1, K * K - 1), K, K)
    assert (M.sum(axis=(1, 2)) == total).all()
    assert len(np.unique(M.reshape(len(M), -1), axis=0)) == len(M)
    assert [tuple(m.ravel()) for m in M] == brute_compositions(total, K * K)


def test_binary_range_count():
    # Hockey stick: sum_{s=1}^{S} C(s+3, 3) = C(S+4, 4) - 1.
    M = matrices_with_total(range(1, 31), 2)
    assert len(M) == comb(34, 4) - 1
    assert (np.diff(M.sum(axis=(1, 2))) >= 0).all()


def test_errors():
    with pytest.raises(TypeError, match="integers"):
        weak_compositions(2.0, 3)
    with pytest.raises(ValueError, match="non-negative"):
        weak_compositions([2, -1], 3)
    with pytest.raises(ValueError, match="at least 1"):
        weak_compositions(2, 0)
    with pytest.raises(TypeError, match="integer"):
        weak_compositions(2, 1.5)
    with pytest.raises(ValueError, match="K >= 2"):
        matrices_with_row_sums([3])
    with pytest.raises(ValueError, match="at least 2"):
        matrices_with_total(3, 1)
    with pytest.raises(ValueError, match="1-D"):
        matrices_with_row_sums([[1, 2], [3, 4]])
