"""Exact (rational) transcriptions of the formulas some new records check, independent of cenmcc.

The claims about "MCC = 0" or "kappa = 0" are about exact zeros, and a floating-point zero can
hide a tiny non-zero value (or the reverse); these functions compute with
:class:`fractions.Fraction` from the integer counts, following the printed formulas literally,
so a record built on them tests the claim without going through cenmcc.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def _counts(C) -> list[list[int]]:
    return [[int(v) for v in row] for row in np.asarray(C)]


def marginals(C) -> tuple[list[int], list[int], int, int]:
    """``(t, p, c, s)``: true (row) and predicted (column) class sizes, correct, total."""
    rows = _counts(C)
    t = [sum(r) for r in rows]
    p = [sum(col) for col in zip(*rows, strict=True)]
    return t, p, sum(rows[k][k] for k in range(len(rows))), sum(t)


def mcc_numerator(C) -> int:
    """``c s - sum_k t_k p_k``: the numerator shared by the multi-class MCC and kappa."""
    t, p, c, s = marginals(C)
    return c * s - sum(a * b for a, b in zip(t, p, strict=True))


def kappa(C) -> Fraction:
    """Cohen's kappa ``(P_o - P_e) / (1 - P_e)``, ``P_e = sum_k t_k p_k / s²``, exactly."""
    t, p, c, s = marginals(C)
    p_o = Fraction(c, s)
    p_e = Fraction(sum(a * b for a, b in zip(t, p, strict=True)), s * s)
    return (p_o - p_e) / (1 - p_e)


def independence_gap(C) -> Fraction:
    """``max_ij |C_ij / s - t_i p_j / s²|``: 0 exactly when truth and prediction are independent
    in the empirical joint distribution."""
    t, p, _, s = marginals(C)
    rows = _counts(C)
    return max(
        abs(Fraction(rows[i][j], s) - Fraction(t[i] * p[j], s * s))
        for i in range(len(t))
        for j in range(len(p))
    )


def independent_matrices(seed: int, n: int, sizes=(2, 3, 4, 5, 8)) -> list[np.ndarray]:
    """``n`` integer matrices per size with independent truth and prediction: ``C = r cᵀ``."""
    rng = np.random.default_rng(seed)
    return [
        np.outer(rng.integers(1, 30, K), rng.integers(1, 30, K)) for K in sizes for _ in range(n)
    ]


#: A permutation matrix with exactly one fixed point: c s = sum_k t_k p_k, so MCC = kappa = 0,
#: yet the prediction is a function of the truth (as far from independent as can be).
ONE_FIXED_POINT = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]])
