"""Exact values of the count metrics of one matrix, from its exact rational cells.

Every function takes ``F``, a K x K matrix of :class:`fractions.Fraction` (:func:`fractions_of`
reads integers, and each float as its exact rational value), and follows the metric's formula
with exact rational arithmetic; where a logarithm or a square root enters, in :mod:`decimal`
with 60 significant digits. A 0/0 is the metric's documented fill value (``zero_division``'s
default 0 here). These are the references of the exactness tests: a value ``x`` passes when
``|x - exact| <= 1e-15 * max(1, |exact|)``.

The exact ranks at the end (:func:`exact_ranks`) take integer matrices and are the oracles of
:mod:`cenmcc.ties` and of the exact pair counts.
"""

from __future__ import annotations

import decimal
import itertools
from decimal import Decimal
from fractions import Fraction
from functools import cmp_to_key

import numpy as np

PRECISION = 60
TOLERANCE = 1e-15


def fractions_of(C) -> list[list[Fraction]]:
    """The cells of one matrix as exact fractions (floats by their exact binary value)."""
    return [[Fraction(x) if isinstance(x, float) else Fraction(int(x)) for x in row] for row in C]


def sums(F):
    """Total ``s``, trace ``c``, row sums ``t`` and column sums ``p`` of ``F``."""
    K = len(F)
    t = [sum(F[i]) for i in range(K)]
    p = [sum(F[i][j] for i in range(K)) for j in range(K)]
    return sum(t), sum(F[i][i] for i in range(K)), t, p


def decimal_of(x: Fraction) -> Decimal:
    with decimal.localcontext(prec=PRECISION):
        return Decimal(x.numerator) / Decimal(x.denominator)


def _ratio(num: Fraction, den: Fraction, fill: Fraction = Fraction(0)) -> Fraction:
    return fill if den == 0 else num / den


def accuracy(F) -> Fraction:
    s, c, _, _ = sums(F)
    return c / s


def expected_accuracy(F) -> Fraction:
    s, _, t, p = sums(F)
    return sum(a * b for a, b in zip(t, p, strict=True)) / s**2


def recall(F) -> list[Fraction]:
    _, _, t, _ = sums(F)
    return [_ratio(F[k][k], t[k]) for k in range(len(F))]


def precision(F) -> list[Fraction]:
    _, _, _, p = sums(F)
    return [_ratio(F[k][k], p[k]) for k in range(len(F))]


def f1(F) -> list[Fraction]:
    """``2 P R / (P + R)`` per class, written as ``2 C_kk / (t_k + p_k)``."""
    _, _, t, p = sums(F)
    return [_ratio(2 * F[k][k], t[k] + p[k]) for k in range(len(F))]


def averaged(per_class, average: str | None):
    """A per-class reference averaged as :func:`cenmcc.f1_score` does."""

    def reference(F):
        values = per_class(F)
        if average is None:
            return values
        if average == "micro":
            return accuracy(F)
        if average == "macro":
            return sum(values) / len(values)
        s, _, t, _ = sums(F)  # weighted by support
        return sum(v * n for v, n in zip(values, t, strict=True)) / s

    return reference


def balanced_accuracy(F) -> Fraction:
    """Mean recall over the classes with true samples."""
    _, _, t, _ = sums(F)
    present = [k for k in range(len(F)) if t[k]]
    return sum(F[k][k] / t[k] for k in present) / len(present)


def weighted_recall(weights, *, normalized: bool):
    """``sum_k w_k R_k``, divided by ``sum_k w_k`` if ``normalized``, for the float weights
    ``weights(K)`` read exactly."""

    def reference(F):
        w = [Fraction(x) for x in weights(len(F)).tolist()]
        value = sum(a * r for a, r in zip(w, recall(F), strict=True))
        return value / sum(w) if normalized else value

    return reference


def balanced_accuracy_frequency(F) -> Fraction:
    """Grandini et al.'s balanced accuracy weighted by the class frequencies ``t_k / s``."""
    s, _, t, _ = sums(F)
    return sum(t[k] / s * _ratio(F[k][k], t[k]) for k in range(len(F)))


def f1_of_macro_averages(F) -> Fraction:
    P, R = (sum(v) / len(v) for v in (precision(F), recall(F)))
    return _ratio(2 * P * R, P + R)


def mcc(F) -> Decimal:
    s, c, t, p = sums(F)
    num = c * s - sum(a * b for a, b in zip(t, p, strict=True))
    vp = s * s - sum(b * b for b in p)
    vt = s * s - sum(a * a for a in t)
    if vp == 0 or vt == 0:
        return Decimal(0)
    with decimal.localcontext(prec=PRECISION):
        return decimal_of(num) / (decimal_of(vp) * decimal_of(vt)).sqrt()


def macro_mcc(F) -> Decimal:
    """The mean of the binary MCCs of each class against the rest (0/0 counts 0)."""
    s, _, t, p = sums(F)
    with decimal.localcontext(prec=PRECISION):
        total = Decimal(0)
        for k in range(len(F)):
            den = t[k] * (s - t[k]) * p[k] * (s - p[k])
            if den:
                total += decimal_of(s * F[k][k] - t[k] * p[k]) / decimal_of(den).sqrt()
        return total / len(F)


def informedness(F) -> Fraction:
    """Powers (2011) Eq. (42) as yardstick's ``j_index`` and a summary of the paper give it:
    ``sum_k Prev(k) (TPR_k - FPR_k)``, the prevalence ``t_k / s`` weighting each class's
    one-versus-rest informedness. A class never true has weight 0; where one class is always
    true its ``FPR`` is 0/0 and the value is cenmcc's documented fill, 0."""
    s, _, t, p = sums(F)
    total = Fraction(0)
    for k in range(len(F)):
        if t[k] == s:
            return Fraction(0)
        if t[k]:
            tpr, fpr = F[k][k] / t[k], (p[k] - F[k][k]) / (s - t[k])
            total += t[k] / s * (tpr - fpr)
    return total


def markedness(F) -> Fraction:
    """Powers (2011) Eq. (43): ``sum_k Bias(k) (PPV_k + NPV_k - 1)``, the bias ``p_k / s``
    weighting each class's one-versus-rest markedness; 0 where one class is always predicted
    (cenmcc's fill)."""
    s, _, t, p = sums(F)
    total = Fraction(0)
    for k in range(len(F)):
        if p[k] == s:
            return Fraction(0)
        if p[k]:
            true_negatives = s - t[k] - p[k] + F[k][k]
            ppv, npv = F[k][k] / p[k], true_negatives / (s - p[k])
            total += p[k] / s * (ppv + npv - 1)
    return total


def micro_mcc(F) -> Decimal:
    """The binary MCC of the summed one-vs-rest tables, from its four cells."""
    s, c, _, _ = sums(F)
    K = len(F)
    tp, fn, tn = c, s - c, (K - 2) * s + c
    with decimal.localcontext(prec=PRECISION):
        den = decimal_of((tp + fn) * (tp + fn) * (tn + fn) * (tn + fn)).sqrt()
        return decimal_of(tp * tn - fn * fn) / den


def cohen_kappa(F) -> Fraction:
    s, c, t, p = sums(F)
    chance = sum(a * b for a, b in zip(t, p, strict=True))
    return _ratio(c * s - chance, s * s - chance)


def tmcc(F) -> Decimal:
    """Eq. (3) of Jurman et al. (2012), second line, without 1/k; 0 where ACC = 1."""
    K = len(F)
    s, c, _, _ = sums(F)
    if c == s:
        return Decimal(0)
    with decimal.localcontext(prec=PRECISION):
        log_term = decimal_of((s - c) / s).ln() / Decimal(2 * K - 2).ln()
        return (1 - mcc(F)) * (1 - log_term) * (1 - Decimal(1) / K)


def _cen_terms(F, j: int) -> Decimal:
    """``sum_{k != j} C_jk ln(d_j / C_jk) + C_kj ln(d_j / C_kj)`` of Eq. (1), and ``d_j``."""
    _, _, t, p = sums(F)
    d = t[j] + p[j]
    total = Decimal(0)
    for k in range(len(F)):
        for cell in (F[j][k], F[k][j]):
            if k != j and cell:
                total += decimal_of(cell) * decimal_of(d / cell).ln()
    return total, d


def cen(F) -> Decimal:
    """Eq. (1) of Jurman et al. (2012): ``sum_j P_j CEN_j`` with ``P_j = d_j / (2 s)``."""
    K = len(F)
    s = sums(F)[0]
    with decimal.localcontext(prec=PRECISION):
        total = sum(_cen_terms(F, j)[0] for j in range(K))
        return total / (2 * decimal_of(s) * Decimal(2 * K - 2).ln())


def cen_per_class(F) -> list[Decimal]:
    """``CEN_j`` of Eq. (1); 0 for a class without samples."""
    K = len(F)
    values = []
    with decimal.localcontext(prec=PRECISION):
        log_base = Decimal(2 * K - 2).ln()
        for j in range(K):
            terms, d = _cen_terms(F, j)
            values.append(Decimal(0) if d == 0 else terms / (decimal_of(d) * log_base))
    return values


def error(value, exact) -> float:
    """Largest ``|value - exact| / max(1, |exact|)`` over the entries (one or a list)."""
    exact = exact if isinstance(exact, list) else [exact]
    value = np.atleast_1d(np.asarray(value, dtype=np.float64))
    worst = Decimal(0)
    with decimal.localcontext(prec=PRECISION):
        for v, e in zip(value.tolist(), exact, strict=True):
            e = decimal_of(e) if isinstance(e, Fraction) else e
            worst = max(worst, abs(Decimal(v) - e) / max(Decimal(1), abs(e)))
    return float(worst)


# Exact ranks of MCC, CEN and accuracy (oracles of cenmcc.ties and the exact pair counts)


def signed_mcc_square(C) -> Fraction:
    """sign(MCC) MCC², exactly, from the covariance definition of Gorodkin's R_K.

    With one-hot label vectors X (true) and Y (predicted) of the s samples,
    ``cov(X, Y) = sum_k (E[X_k Y_k] - E[X_k] E[Y_k])`` and ``E[X_k Y_k] = C_kk / s``,
    ``E[X_k] = t_k / s``, ``E[Y_k] = p_k / s``; MCC = cov(X, Y) / sqrt(cov(X, X) cov(Y, Y)).
    """
    K = len(C)
    s = sum(map(sum, C))
    t = [Fraction(sum(C[k]), s) for k in range(K)]
    p = [Fraction(sum(C[i][k] for i in range(K)), s) for k in range(K)]
    cxy = sum(Fraction(C[k][k], s) - t[k] * p[k] for k in range(K))
    cxx = sum(t[k] - t[k] * t[k] for k in range(K))
    cyy = sum(p[k] - p[k] * p[k] for k in range(K))
    if cxx * cyy == 0:
        return Fraction(0)  # cenmcc.mcc's documented fill value
    return (1 if cxy > 0 else -1) * cxy * cxy / (cxx * cyy)


def cen_exp(C) -> tuple[Fraction, int]:
    """(R, s) with 2 s ln(2(K-1)) CEN = ln R, R read off Eq. (1) term by term (no identity)."""
    K = len(C)
    d = [sum(C[j]) + sum(C[i][j] for i in range(K)) for j in range(K)]
    R = Fraction(1)
    for j in range(K):
        for k in range(K):
            if k != j:
                # d_j P_j CEN_j terms: C_jk ln(d_j / C_jk) + C_kj ln(d_j / C_kj)
                for c in (C[j][k], C[k][j]):
                    if c:
                        R *= Fraction(d[j], c) ** c
    return R, sum(map(sum, C))


def cen_compare(a, b) -> int:
    """Exact sign of CEN(a) - CEN(b): compare R_a^(1/s_a) with R_b^(1/s_b)."""
    (ra, sa), (rb, sb) = a, b
    left, right = ra**sb, rb**sa
    return (left > right) - (left < right)


def brute_ranks(values, compare=None) -> list[int]:
    """Dense ranks of exact values by sorting them (O(n log n) exact comparisons)."""
    key = cmp_to_key(compare) if compare else None
    order = sorted(range(len(values)), key=lambda i: key(values[i]) if key else values[i])
    ranks, rank = [0] * len(values), 0
    for prev, cur in itertools.pairwise(order):
        equal = compare(values[prev], values[cur]) == 0 if compare else values[prev] == values[cur]
        rank += not equal
        ranks[cur] = rank
    return ranks


def exact_ranks(C, metric) -> list[int]:
    mats = [m.tolist() for m in np.asarray(C).reshape(-1, *np.shape(C)[-2:])]
    if metric == "mcc":
        return brute_ranks([signed_mcc_square(m) for m in mats])
    if metric == "accuracy":
        return brute_ranks(
            [Fraction(sum(m[i][i] for i in range(len(m))), sum(map(sum, m))) for m in mats]
        )
    return brute_ranks([cen_exp(m) for m in mats], cen_compare)
