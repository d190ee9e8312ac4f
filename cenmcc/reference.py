"""Literal, slow transcriptions of the printed formulas, one matrix at a time, in pure Python.

These are the independent references the fast kernels are tested against, and a way for a reader
to check an identity of the papers by hand. Each function follows its equation symbol by symbol,
with explicit loops and ``math.log``; none is vectorized and none shares code with the kernels.
Inputs are a single K x K confusion matrix (nested lists or a 2-D array), rows = true class.
"""

from __future__ import annotations

import math

from ._validation import as_array


def _matrix(C) -> list[list[float]]:
    rows = [[float(x) for x in row] for row in as_array(C, name="C").tolist()]
    if len(rows) < 2 or any(len(r) != len(rows) for r in rows):
        raise ValueError("C must be a square K x K matrix with K >= 2")
    return rows


def cen(C) -> float:
    """CEN by Eq. (1) of Jurman et al. (2012) after Wei et al. (2010), literally.

    ``CEN = sum_j P_j sum_{k != j} [h(P^j_jk) + h(P^j_kj)]`` with ``h(p) = -p log_{2(N-1)} p``,
    ``h(0) = 0``, ``P^j_jk = C_jk / sum_k (C_jk + C_kj)`` and
    ``P_j = sum_k (C_jk + C_kj) / (2 sum_kl C_kl)``.
    """
    C = _matrix(C)
    N = len(C)
    base = 2 * (N - 1)

    def h(p: float) -> float:
        return 0.0 if p == 0 else -p * math.log(p, base)

    total = sum(sum(row) for row in C)
    result = 0.0
    for j in range(N):
        result += (
            cen_per_class_one(C, j, h) * sum(C[j][k] + C[k][j] for k in range(N)) / (2 * total)
        )
    return result


def cen_per_class_one(C, j: int, h) -> float:
    """``CEN_j = sum_{k != j} h(P^j_jk) + h(P^j_kj)``; 0 for a class without samples."""
    N = len(C)
    d = sum(C[j][k] + C[k][j] for k in range(N))
    if d == 0:
        return 0.0
    return sum(h(C[j][k] / d) + h(C[k][j] / d) for k in range(N) if k != j)


def cen_per_class(C) -> list[float]:
    """Per-class ``CEN_j`` of Eq. (1), literally (0 for a class without samples)."""
    C = _matrix(C)
    base = 2 * (len(C) - 1)

    def h(p: float) -> float:
        return 0.0 if p == 0 else -p * math.log(p, base)

    return [cen_per_class_one(C, j, h) for j in range(len(C))]


def mcc_triple_sum(C) -> float:
    """MCC by the triple-sum form, Eq. (2) of Jurman et al. (2012), literally (0 when 0/0).

    ``sum_{k,l,m} (C_kk C_ml - C_lk C_km)`` over
    ``sqrt(sum_k (sum_l C_lk)(sum_{f != k, g} C_gf))``
    ``* sqrt(sum_k (sum_l C_kl)(sum_{f != k, g} C_fg))``.
    """
    C = _matrix(C)
    N = len(C)
    num = 0.0
    for k in range(N):
        for l in range(N):
            for m in range(N):
                num += C[k][k] * C[m][l] - C[l][k] * C[k][m]
    den_pred = 0.0
    den_true = 0.0
    for k in range(N):
        col_k = sum(C[l][k] for l in range(N))
        row_k = sum(C[k][l] for l in range(N))
        others_cols = sum(C[g][f] for f in range(N) if f != k for g in range(N))
        others_rows = sum(C[f][g] for f in range(N) if f != k for g in range(N))
        den_pred += col_k * others_cols
        den_true += row_k * others_rows
    den = math.sqrt(den_pred) * math.sqrt(den_true)
    return 0.0 if den == 0 else num / den


def mcc_covariance(C) -> float:
    """MCC as ``cov(X, Y) / sqrt(cov(X, X) cov(Y, Y))`` on one-hot sample matrices (0 when 0/0).

    Builds, for an integer matrix, the S x N matrices ``X_sn = [pc(s) = n]`` and
    ``Y_sn = [tc(s) = n]`` and applies ``cov(X, Y) = sum_k w_k cov(X_k, Y_k)`` with uniform
    ``w_k = 1/N`` (Jurman et al. 2012, Methods; the MCC blog post). Only for small integer counts.
    """
    C = _matrix(C)
    N = len(C)
    X, Y = [], []
    for i in range(N):
        for j in range(N):
            if C[i][j] != int(C[i][j]):
                raise ValueError("mcc_covariance needs integer counts")
            for _ in range(int(C[i][j])):
                Y.append([1.0 if n == i else 0.0 for n in range(N)])
                X.append([1.0 if n == j else 0.0 for n in range(N)])
    S = len(X)

    def cov(A, B) -> float:
        total = 0.0
        for k in range(N):
            mean_a = sum(A[s][k] for s in range(S)) / S
            mean_b = sum(B[s][k] for s in range(S)) / S
            total += sum((A[s][k] - mean_a) * (B[s][k] - mean_b) for s in range(S)) / S / N
        return total

    den = math.sqrt(cov(X, X) * cov(Y, Y))
    return 0.0 if den == 0 else cov(X, Y) / den


def cohen_kappa(C) -> float:
    """Cohen's kappa ``(P_o - P_e) / (1 - P_e)``, Grandini et al. (2020) Eqs. (28)-(31).

    0 when 0/0 (``P_e = 1``).
    """
    C = _matrix(C)
    N = len(C)
    n = sum(sum(row) for row in C)
    p_o = sum(C[k][k] for k in range(N)) / n
    p_e = sum(
        sum(C[k][i] for i in range(N)) / n * sum(C[i][k] for i in range(N)) / n for k in range(N)
    )
    return 0.0 if p_e == 1 else (p_o - p_e) / (1 - p_e)


def one_vs_rest(C, k: int) -> tuple[float, float, float, float]:
    """``(TP, FN, FP, TN)`` of class k against the rest (Grandini et al. 2020, Fig. 4)."""
    C = _matrix(C)
    N = len(C)
    tp = C[k][k]
    fn = sum(C[k][j] for j in range(N) if j != k)
    fp = sum(C[i][k] for i in range(N) if i != k)
    tn = sum(C[i][j] for i in range(N) for j in range(N) if i != k and j != k)
    return tp, fn, fp, tn
