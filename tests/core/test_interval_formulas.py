"""The published asymptotic intervals of the MCCs, transcribed literally, against ours.

Itaya et al. (2024, Statistics in Medicine 44:e10303) for the binary MCC and Tamura et al.
(2025, arXiv:2503.06450) for the macro, micro and Gorodkin ("miM*") MCCs, as the project's
notes on them give their formulas (read from the authors' R code): a plain loop over the cells
of one table, nothing shared with cenmcc. Where the notes give a gradient (the binary MCC's
four partial derivatives, the micro MCC's variance) it is written out; where they give only
the measure (the macro MCC, Gorodkin's R_K) its derivative in each cell is taken by the complex
step, ``Im f(p + i h e_c) / h``, exact to rounding. Then ``sigma^2 = sum p d^2 - (sum p d)^2``,
the "simple" interval ``m +/- z sigma / sqrt(n)`` and Fisher's z, ``tanh(atanh m +/- z sigma /
(sqrt(n) (1 - m^2)))``; for two classifiers, the joint truth x a x b table, Wald's interval of
the difference and Zou's MOVER.
"""

import cmath
import math

import numpy as np
import pytest
from scipy import stats

import cenmcc

Z = stats.norm.ppf(0.975)


# --- the formulas, cell by cell --------------------------------------------------------------


def binary_mcc_and_gradient(P):
    """Itaya et al.: the MCC and its four partial derivatives, P = [[p11, p10], [p01, p00]]
    (rows true: p11 TP, p10 FN, p01 FP, p00 TN), returned as a 2 x 2 table like P."""
    p11, p10, p01, p00 = P[0][0], P[0][1], P[1][0], P[1][1]
    p1_, p0_ = p11 + p10, p01 + p00  # true margins
    p_1, p_0 = p11 + p01, p10 + p00  # predicted margins
    D = math.sqrt(p1_ * p0_ * p_1 * p_0)
    mcc = (p11 * p00 - p10 * p01) / D
    d11 = p00 / D - mcc * (p1_ + p_1) / (2 * p1_ * p_1)
    d01 = -p10 / D - mcc * (p_1 + p0_) / (2 * p_1 * p0_)
    d10 = -p01 / D - mcc * (p1_ + p_0) / (2 * p1_ * p_0)
    d00 = p11 / D - mcc * (p0_ + p_0) / (2 * p0_ * p_0)
    return mcc, [[d11, d10], [d01, d00]]


def macro_mcc(P):
    """maM = (1/K) sum_k (p_kk - p_k. p_.k) / sqrt(p_k. p_.k (1 - p_k.)(1 - p_.k))."""
    K = len(P)
    total = 0
    for k in range(K):
        row = sum(P[k][j] for j in range(K))
        col = sum(P[i][k] for i in range(K))
        total += (P[k][k] - row * col) / cmath.sqrt(row * col * (1 - row) * (1 - col))
    return total / K


def gorodkin_mcc(P):
    """miM* = N / (sqrt(A) sqrt(B)), N = sum p_ii - sum p_k. p_.k, A = 1 - sum p_k.^2,
    B = 1 - sum p_.k^2."""
    K = len(P)
    rows = [sum(P[k][j] for j in range(K)) for k in range(K)]
    cols = [sum(P[i][k] for i in range(K)) for k in range(K)]
    N = sum(P[k][k] for k in range(K)) - sum(rows[k] * cols[k] for k in range(K))
    A = 1 - sum(r * r for r in rows)
    B = 1 - sum(c * c for c in cols)
    return N / (cmath.sqrt(A) * cmath.sqrt(B))


def complex_step_gradient(f, P, h=1e-30):
    """The measure and its derivative in each cell: Im f(P + i h e_ij) / h."""
    K = len(P)
    value = f([[complex(x) for x in row] for row in P]).real
    grad = [[0.0] * K for _ in range(K)]
    for i in range(K):
        for j in range(K):
            Q = [[complex(x) for x in row] for row in P]
            Q[i][j] += 1j * h
            grad[i][j] = f(Q).imag / h
    return value, grad


def mcc_and_gradient(name, P):
    K = len(P)
    if name == "mcc" and K == 2:
        return binary_mcc_and_gradient(P)
    if name == "micro_mcc":  # (K sum p_ii - 1) / (K - 1): K / (K - 1) on the diagonal
        value = (K * sum(P[k][k] for k in range(K)) - 1) / (K - 1)
        return value, [[K / (K - 1) if i == j else 0.0 for j in range(K)] for i in range(K)]
    return complex_step_gradient(macro_mcc if name == "macro_mcc" else gorodkin_mcc, P)


def sigma2(P, d):
    """sum_c p_c d_c^2 - (sum_c p_c d_c)^2 over the cells of one table."""
    cells = [
        (p, g) for prow, drow in zip(P, d, strict=True) for p, g in zip(prow, drow, strict=True)
    ]
    return sum(p * g * g for p, g in cells) - sum(p * g for p, g in cells) ** 2


def single_intervals(name, C):
    n = sum(map(sum, C))
    P = [[x / n for x in row] for row in C]
    m, d = mcc_and_gradient(name, P)
    se = math.sqrt(sigma2(P, d) / n)
    simple = (m - Z * se, m + Z * se)
    fisher = (math.tanh(math.atanh(m) - Z * se / (1 - m * m)),
              math.tanh(math.atanh(m) + Z * se / (1 - m * m)))  # fmt: skip
    return m, se, simple, fisher


def paired_intervals(name, T):
    """Wald and MOVER intervals of MCC_a - MCC_b from the joint table T[t][i][j]."""
    K = len(T)
    n = sum(T[t][i][j] for t in range(K) for i in range(K) for j in range(K))
    A = [[sum(T[t][i][j] for j in range(K)) / n for i in range(K)] for t in range(K)]
    B = [[sum(T[t][i][j] for i in range(K)) / n for j in range(K)] for t in range(K)]
    ma, ga = mcc_and_gradient(name, A)
    mb, gb = mcc_and_gradient(name, B)
    sa = sb = sab = ea = eb = 0.0
    for t in range(K):
        for i in range(K):
            for j in range(K):
                p = T[t][i][j] / n
                sa, sb, sab = (
                    sa + p * ga[t][i] ** 2,
                    sb + p * gb[t][j] ** 2,
                    sab + p * ga[t][i] * gb[t][j],
                )
                ea, eb = ea + p * ga[t][i], eb + p * gb[t][j]
    va, vb, cov = (sa - ea**2) / n, (sb - eb**2) / n, (sab - ea * eb) / n
    delta = ma - mb
    se = math.sqrt(va + vb - 2 * cov)
    wald = (delta - Z * se, delta + Z * se)
    la, ua = (math.tanh(math.atanh(ma) + s * Z * math.sqrt(va) / (1 - ma**2)) for s in (-1, 1))
    lb, ub = (math.tanh(math.atanh(mb) + s * Z * math.sqrt(vb) / (1 - mb**2)) for s in (-1, 1))
    r = cov / math.sqrt(va * vb)
    low = delta - math.sqrt((ma - la) ** 2 + (ub - mb) ** 2 - 2 * r * (ma - la) * (ub - mb))
    high = delta + math.sqrt((ua - ma) ** 2 + (mb - lb) ** 2 - 2 * r * (ua - ma) * (mb - lb))
    return delta, se, wald, (low, high)


# --- random tables ---------------------------------------------------------------------------


def random_table(shape, seed):
    """Counts of a table with every cell filled, of a few hundred items, leaning to the
    diagonal (so that each MCC is well inside (-1, 1))."""
    rng = np.random.default_rng(seed)
    C = rng.integers(1, 30, shape)
    K = shape[0]
    for k in range(K):
        C[(k,) * len(shape)] += rng.integers(20, 120)
    return C


CASES = [(name, K, seed) for name in ("mcc", "macro_mcc", "micro_mcc") for K in (2, 3, 4, 5)
         for seed in range(3)]  # fmt: skip


@pytest.mark.parametrize(("name", "K", "seed"), CASES)
def test_single_intervals_are_the_published_formulas(name, K, seed):
    C = random_table((K, K), seed)
    m, se, simple, fisher = single_intervals(name, C.tolist())
    wald = cenmcc.confidence_interval(C, name, method="wald")
    fz = cenmcc.confidence_interval(C, name, method="fisher_z")
    assert wald.statistic == pytest.approx(m, abs=1e-12)
    assert wald.standard_error == pytest.approx(se, rel=1e-10)
    assert fz.standard_error == pytest.approx(se, rel=1e-10)
    assert list(wald.confidence_interval) == pytest.approx(simple, rel=1e-10, abs=1e-12)
    assert list(fz.confidence_interval) == pytest.approx(fisher, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize(("name", "K", "seed"), CASES)
def test_paired_intervals_are_the_published_formulas(name, K, seed):
    T = random_table((K, K, K), seed)
    t, a, b = np.unravel_index(np.repeat(np.arange(K**3), T.ravel()), T.shape)
    delta, se, wald, mover = paired_intervals(name, T.tolist())
    w = cenmcc.compare_classifiers(t, a, b, name, method="wald")
    m = cenmcc.compare_classifiers(t, a, b, name, method="mover")
    assert w.statistic == pytest.approx(delta, abs=1e-12)
    assert w.standard_error == pytest.approx(se, rel=1e-10)
    assert list(w.confidence_interval) == pytest.approx(wald, rel=1e-10, abs=1e-12)
    assert list(m.confidence_interval) == pytest.approx(mover, rel=1e-10, abs=1e-12)


def test_the_binary_formulas_agree_with_the_complex_step_of_the_mcc():
    """Itaya et al.'s four partial derivatives are those of Gorodkin's R_K at K = 2, up to a
    multiple of the ones vector (the proportions sum to 1), which sigma^2 ignores."""
    P = (random_table((2, 2), 7) / random_table((2, 2), 7).sum()).tolist()
    m, d = binary_mcc_and_gradient(P)
    value, g = complex_step_gradient(gorodkin_mcc, P)
    assert m == pytest.approx(value, abs=1e-14)
    assert sigma2(P, d) == pytest.approx(sigma2(P, g), rel=1e-12)


# --- MOVER's p-value, McNemar's tests ---------------------------------------------------------


def test_the_mover_pvalue_is_the_level_whose_interval_reaches_zero():
    T = random_table((3, 3, 3), 11)
    for k in range(3):
        T[k, k, (k + 1) % 3] += 15  # items a gets right and b wrong: a is better
    t, a, b = np.unravel_index(np.repeat(np.arange(27), T.ravel()), T.shape)
    r = cenmcc.compare_classifiers(t, a, b, "mcc", method="mover")
    assert r.statistic > 0
    assert 0 < r.pvalue < 0.5
    at = cenmcc.compare_classifiers(t, a, b, "mcc", method="mover", level=1 - r.pvalue)
    assert at.confidence_interval.low == pytest.approx(0, abs=1e-9)
    assert (r.confidence_interval.low > 0) == (r.pvalue < 0.05)


@pytest.mark.parametrize(("n_ab", "n_ba"), [(7, 2), (2, 7), (30, 15), (5, 5), (0, 4), (1, 0)])
def test_mcnemar_mid_p_is_the_exact_pvalue_less_the_point_probability(n_ab, n_ba):
    """Fagerland, Lydersen & Laake (2013): mid-p = 2 P(X <= min) - P(X = min), X ~ Bin(N, 1/2);
    by hand for 7 against 2: (2 (1 + 9 + 36) - 36) / 512 = 56 / 512."""
    y, a, b = paired_labels(n_ab, n_ba)
    N, k = n_ab + n_ba, min(n_ab, n_ba)
    exact = stats.binomtest(n_ab, N).pvalue
    mid = cenmcc.compare_classifiers(y, a, b, "accuracy", method="mcnemar").pvalue
    if n_ab != n_ba:
        assert mid == pytest.approx(exact - stats.binom.pmf(k, N, 0.5), rel=1e-12)
    else:
        assert mid == pytest.approx(1.0)
    assert mid == pytest.approx(sum(math.comb(N, x) for x in range(k)) * 2 / 2**N
                                + math.comb(N, k) / 2**N)  # fmt: skip
    if (n_ab, n_ba) == (7, 2):
        assert mid == pytest.approx(56 / 512)
    ex = cenmcc.compare_classifiers(y, a, b, "accuracy", method="mcnemar-exact")
    assert ex.pvalue == pytest.approx(exact, rel=1e-12)
    assert list(ex.confidence_interval) == list(
        cenmcc.compare_classifiers(y, a, b, "accuracy", method="wald").confidence_interval
    )


def paired_labels(n_ab, n_ba, n_both=20, n_neither=5):
    """Binary labels: n_ab items a gets right and b wrong, n_ba the other way, and so on."""
    kinds = np.repeat([0, 1, 2, 3], [n_ab, n_ba, n_both, n_neither])
    y = np.arange(kinds.size) % 2
    a = np.where((kinds == 0) | (kinds == 2), y, 1 - y)
    b = np.where((kinds == 1) | (kinds == 2), y, 1 - y)
    return y, a, b
