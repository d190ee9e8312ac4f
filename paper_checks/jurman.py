"""Claims of Jurman & Furlanello (2010) and Jurman, Riccadonna & Furlanello (2012) that need no
experiment: ranges, extreme cases, invariance, the constant matrix, the definitions of MCC, and
the two printed forms of Eq. (3).

The claims backed by an experiment (the 200,000 random matrices, the exhaustive enumerations,
the closed forms of the Z_A, dice and B(T, F) families) are in
:mod:`paper_checks.jurman_experiments`.
"""

from __future__ import annotations

from math import comb

import numpy as np
from scipy.stats import chi2_contingency

import cenmcc
from cenmcc import reference

from . import rational
from .declarations import load
from .record import Measured
from .search import (
    describe,
    largest_gap,
    marginals,
    mcc_defined,
    random_matrices,
    search_stacks,
    value_range,
)

#: Seed and size of the random search behind the claims about all matrices.
SEED, N_RANDOM = 2012, 3000
#: N = 2 and the papers' range, for comparisons across the number of classes.
PAPER_N_WITH_2 = tuple(range(2, 31))
#: Sizes N > 2 for the multi-class claims, and the papers' range of N for the families.
MULTICLASS = (3, 4, 5, 8, 12, 30)
PAPER_N = tuple(range(3, 31))


def _stacks(sizes=MULTICLASS):
    return search_stacks(SEED, N_RANDOM, sizes)


def cen_range():
    return Measured(
        value_range(_stacks(), cenmcc.cen),
        "min and max of CEN over " + describe(SEED, N_RANDOM, MULTICLASS),
    )


def cen_complete_misclassification():
    gaps = [
        abs(float(cenmcc.cen(F * (1 - np.eye(N, dtype=np.int64)))) - 1.0)
        for N in PAPER_N
        for F in (1, 7, 1000)
    ]
    return Measured(max(gaps), "max |CEN - 1| of (1 - δ_ij) F for N = 3..30, F = 1, 7, 1000")


def _binary_family(T, F):
    """The stack of matrices [[T, F], [F, T]] for broadcast arrays T, F."""
    T, F = np.broadcast_arrays(T, F)
    return np.stack([np.stack([T, F], axis=-1), np.stack([F, T], axis=-1)], axis=-2)


def binary_cen_above_one():
    T, F = np.meshgrid(np.arange(1, 201), np.arange(1, 201), indexing="ij")
    below = T < F
    values = cenmcc.cen(_binary_family(T[below], F[below]))
    everything = cenmcc.cen(_binary_family(T, F))
    i = int(np.argmax(everything))
    return Measured(
        values.min(),
        f"min of CEN([[T, F], [F, T]]) over 0 < T < F <= 200; the largest CEN on the grid "
        f"1 <= T, F <= 200 is {everything.max():.4f}, at T/F = {T.flat[i]}/{F.flat[i]}",
    )


def binary_cen_total_misclassification():
    values = cenmcc.cen(_binary_family(0, np.arange(1, 101)))
    return Measured(np.abs(values - 1).max(), "max |CEN([[0, F], [F, 0]]) - 1| for F = 1..100")


def mcc_range():
    stacks = search_stacks(SEED, N_RANDOM)
    return Measured(
        value_range(stacks, cenmcc.mcc, where=mcc_defined),
        "min and max of the MCC (where defined) over " + describe(SEED, N_RANDOM),
    )


def perfect_classification():
    rng = np.random.default_rng(SEED)
    mcc_lo, cen_hi = np.inf, -np.inf
    for N in (2, *PAPER_N):
        C = np.einsum("ni,ij->nij", rng.integers(1, 1000, size=(100, N)), np.eye(N, dtype=int))
        mcc_lo = min(mcc_lo, float(cenmcc.mcc(C).min()))
        cen_hi = max(cen_hi, float(cenmcc.cen(C).max()))
    return Measured(
        (mcc_lo, cen_hi),
        "smallest MCC and largest CEN of 100 random diagonal matrices for each N = 2..30",
    )


def mcc_two_symmetric_entries():
    rng = np.random.default_rng(SEED)
    gaps = []
    for N in (2, *PAPER_N):
        C = np.zeros((100, N, N), dtype=np.int64)
        i, j = rng.integers(0, N, size=(2, 100))
        j = np.where(i == j, (j + 1) % N, j)
        C[np.arange(100), i, j] = rng.integers(1, 1000, size=100)
        C[np.arange(100), j, i] = rng.integers(1, 1000, size=100)
        gaps.append(np.abs(cenmcc.mcc(C) + 1).max())
    return Measured(
        max(gaps),
        "max |MCC + 1| of 100 random matrices per N = 2..30 that are zero but for two "
        "symmetric entries C_ij, C_ji (any positive values)",
    )


def mcc_single_column():
    rng = np.random.default_rng(SEED)
    values = []
    for N in (2, *PAPER_N):
        C = np.zeros((100, N, N), dtype=np.int64)
        C[np.arange(100), :, rng.integers(0, N, size=100)] = rng.integers(1, 1000, size=(100, N))
        values.append(np.abs(cenmcc.mcc(C)).max())
    return Measured(max(values), "max |MCC| of 100 random single-column matrices per N = 2..30")


def mcc_constant():
    values = [abs(float(cenmcc.mcc(np.full((N, N), F)))) for N in (2, *PAPER_N) for F in (1, 9)]
    return Measured(max(values), "max |MCC| of the constant matrices, N = 2..30, F = 1 and 9")


def cen_constant():
    N = np.array(PAPER_N)
    closed = (1 - 1 / N) * np.log(2 * N) / np.log(2 * N - 2)
    measured = np.array([float(cenmcc.cen(np.ones((n, n), dtype=np.int64))) for n in PAPER_N])
    return Measured(
        np.abs(measured - closed).max(),
        "max |CEN(constant) - (1 - 1/N) log_{2N-2}(2N)| for N = 3..30",
    )


def box1c_cen():
    C = np.zeros((4, 4), dtype=np.int64)
    C[:, 0] = 1
    return Measured(cenmcc.cen(C), "cenmcc.cen of N = 4, one sample per class, all predicted as 1")


def single_column_cen_spread():
    rng = np.random.default_rng(SEED)
    C = np.zeros((1000, 4, 4), dtype=np.int64)
    C[np.arange(1000), :, rng.integers(0, 4, size=1000)] = rng.integers(1, 1000, size=(1000, 4))
    values = cenmcc.cen(C)
    return Measured(
        values.max() - values.min(),
        f"spread of CEN over 1,000 random single-column 4 x 4 matrices: from {values.min():.4f} "
        f"to {values.max():.4f}",
    )


def scale_invariance():
    stacks = search_stacks(SEED, N_RANDOM // 3, (2, *MULTICLASS))
    gaps = []
    for factor in (2, 3, 10, 1000):
        gaps.append(largest_gap(stacks, cenmcc.cen, lambda C, f=factor: cenmcc.cen(f * C)))
        gaps.append(
            largest_gap(
                stacks, cenmcc.mcc, lambda C, f=factor: cenmcc.mcc(f * C), where=mcc_defined
            )
        )
    return Measured(
        max(gaps),
        "max |m(λC) - m(C)| for m = CEN, MCC, λ = 2, 3, 10, 1000 over "
        + describe(SEED, N_RANDOM // 3, (2, *MULTICLASS)),
    )


def _independent(N: int, n: int = 1000):
    """``n`` rank-one matrices ``r c^T``: predictions independent of the truth."""
    rng = np.random.default_rng(SEED + N)
    r, c = rng.integers(1, 30, size=(2, n, N))
    return np.einsum("ni,nj->nij", r, c)


def random_classification_mcc():
    values = [np.abs(cenmcc.mcc(_independent(N))).max() for N in (2, *PAPER_N)]
    return Measured(max(values), "max |MCC| of 1,000 random rank-one matrices r c^T per N = 2..30")


def random_classification_cen():
    values = cenmcc.cen(_independent(4))
    return Measured(
        values.max() - values.min(),
        f"spread of CEN over 1,000 random rank-one 4 x 4 matrices: from {values.min():.4f} to "
        f"{values.max():.4f}",
    )


def _small(sizes=(2, 3, 4, 6), n: int = 60):
    """Small matrices for the slow literal transcriptions of :mod:`cenmcc.reference`."""
    return {N: random_matrices(SEED + N, n, N) % 12 + np.eye(N, dtype=np.int64) for N in sizes}


def eq2_triple_sum():
    def literal(C):
        return np.array([reference.mcc_triple_sum(M) for M in C])

    return Measured(
        largest_gap(_small(), literal, cenmcc.mcc, where=mcc_defined),
        "max |Eq. (2), transcribed literally (cenmcc.reference) - cenmcc.mcc| over 60 small "
        "random matrices per N = 2, 3, 4, 6",
    )


def covariance_definition():
    def literal(C):
        return np.array([reference.mcc_covariance(M) for M in C])

    return Measured(
        largest_gap(_small(), literal, cenmcc.mcc, where=mcc_defined),
        "max |cov(X, Y) / sqrt(cov(X, X) cov(Y, Y)) on one-hot samples (cenmcc.reference) - "
        "cenmcc.mcc| over 60 small random matrices per N = 2, 3, 4, 6",
    )


#: Matrices given to scipy's chi2_contingency, one call each.
N_PHI = 300


def phi_is_root_chi2():
    stack = search_stacks(SEED, N_RANDOM, (2,))[2]
    t, p, _, _ = marginals(stack)
    stack = stack[np.all(t > 0, axis=-1) & np.all(p > 0, axis=-1)][:N_PHI]
    chi2 = np.array([chi2_contingency(C, correction=False).statistic for C in stack])
    root = np.sqrt(chi2 / stack.sum(axis=(1, 2)))
    return Measured(
        np.abs(np.abs(cenmcc.mcc(stack)) - root).max(),
        f"max ||MCC| - sqrt(χ²/n)| (scipy's chi2_contingency, no continuity correction) over "
        f"the first {len(stack)} 2 x 2 matrices with no empty row or column of "
        + describe(SEED, N_RANDOM, (2,)),
    )


def _wrong(C):
    _, _, c, s = marginals(C)
    return c < s


def _eq3_second_line(C):
    N = C.shape[-1]
    return 1 - np.log(1 - cenmcc.accuracy(C)) / np.log(2 * N - 2)


def eq3_preprint_lines():
    def first(C):
        N = C.shape[-1]
        return 1 + np.log(C.sum(axis=(-2, -1)) / N) / np.log(2 * N - 2)

    return Measured(
        largest_gap(_stacks(), first, _eq3_second_line, where=_wrong),
        "max |1 + log_{2N-2}(sum C_ij / N) - (1 - log_{2N-2}(1 - ACC))| over "
        + describe(SEED, N_RANDOM, MULTICLASS)
        + " (ACC < 1)",
    )


def eq3_journal_lines():
    def first(C):
        N = C.shape[-1]
        _, _, c, s = marginals(C)
        return 1 + np.log(s / (s - c)) / np.log(2 * N - 2)

    return Measured(
        largest_gap(_stacks(), first, _eq3_second_line, where=_wrong),
        "max |1 + log_{2N-2}(sum C_ij / sum_{i != j} C_ij) - (1 - log_{2N-2}(1 - ACC))| over "
        + describe(SEED, N_RANDOM, MULTICLASS)
        + " (ACC < 1)",
    )


def eq3_zero_at_perfect():
    cen_perfect = max(float(cenmcc.cen(np.eye(N, dtype=np.int64))) for N in PAPER_N)
    nearly = []
    for N in PAPER_N:
        C = 10**9 * np.eye(N, dtype=np.int64)
        C[N - 1, 0] = 1
        nearly.append(float(cenmcc.tmcc(C)))
    return Measured(
        (cen_perfect, max(nearly)),
        "largest CEN of the identity matrices, and largest tMCC of 10^9 I plus one error, "
        "N = 3..30 (tMCC is 0 * inf at ACC = 1: its limit is checked)",
    )


def _binary_matrices(s: int) -> int:
    """Number of 2 x 2 count matrices with total s: C(s + 3, 3), by stars and bars."""
    return comb(s + 3, 3)


def binary_count():
    for s in range(13):  # the closed form against an explicit enumeration
        if len(cenmcc.weak_compositions(s, 4)) != _binary_matrices(s):
            raise AssertionError(f"stars and bars disagree with the enumeration at s = {s}")
    printed_range = sum(_binary_matrices(s) for s in range(2, 101))
    from_one = sum(_binary_matrices(s) for s in range(1, 101))
    return Measured(
        printed_range,
        f"sum of C(s + 3, 3) over 2 <= s <= 100 (checked against an enumeration for s <= 12); "
        f"over 1 <= s <= 100 it is {from_one:,}",
    )


# --- Added by the audit (issue 12) -------------------------------------------------------------

#: Three classes whose row (true) and column (predicted) sums all differ: (7, 8, 7) against
#: (6, 6, 10), so a transposition shows.
METHODS_MATRIX = np.array([[5, 2, 0], [1, 3, 4], [0, 1, 6]])


def _one_hot(C):
    """The journal's X (predicted) and Y (true) one-hot matrices, one row per sample."""
    true, pred = np.nonzero(C)
    counts = C[true, pred]
    true, pred = np.repeat(true, counts), np.repeat(pred, counts)
    K = C.shape[0]
    return np.eye(K, dtype=np.int64)[pred], np.eye(K, dtype=np.int64)[true]


def methods_c_kl():
    C = METHODS_MATRIX
    X, Y = _one_hot(C)
    printed_C = X.T @ Y  # C_kl = |{s : X_sk = 1 and Y_sl = 1}|, as printed
    return Measured(
        np.abs(printed_C - C).max(),
        f"max |C_kl as printed - C_kl| on {C.tolist()} (C_ij = #(true i, predicted j), the "
        f"journal's own); the printed definition gives {printed_C.tolist()}, the transpose",
    )


def methods_means():
    C = METHODS_MATRIX
    X, Y = _one_hot(C)
    S = C.sum()
    x_bar, y_bar = X.mean(axis=0), Y.mean(axis=0)  # (1/S) sum_s X_sk, (1/S) sum_s Y_sk
    x_printed, y_printed = C.sum(axis=1) / S, C.sum(axis=0) / S  # (1/S) sum_l C_kl, C_lk
    return Measured(
        max(np.abs(x_bar - x_printed).max(), np.abs(y_bar - y_printed).max()),
        f"on {C.tolist()}: X̄ = {np.round(x_bar, 4).tolist()} against the printed "
        f"(1/S) Σ_l C_kl = {np.round(x_printed, 4).tolist()}; Ȳ = "
        f"{np.round(y_bar, 4).tolist()} against (1/S) Σ_l C_lk = "
        f"{np.round(y_printed, 4).tolist()}",
    )


def methods_mcc_unaffected():
    gaps = []
    stack = random_matrices(SEED, 50, 4)
    for C in (METHODS_MATRIX, *stack[mcc_defined(stack)]):
        X, Y = _one_hot(C)
        Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
        cov = lambda A, B: (A * B).sum()  # noqa: E731  (the common 1/N, 1/S factors cancel)
        direct = cov(Xc, Yc) / np.sqrt(cov(Xc, Xc) * cov(Yc, Yc))
        gaps += [abs(direct - float(cenmcc.mcc(C))), abs(direct - float(cenmcc.mcc(C.T)))]
    return Measured(
        max(gaps),
        "max |cov(X, Y)/sqrt(cov(X, X) cov(Y, Y)) on the one-hot encodings - cenmcc.mcc| for C "
        "and for its transpose, on the matrix above and the random 4-class matrices (of 50) "
        "whose MCC is defined",
    )


def mcc_zero_without_random_classification():
    C = rational.ONE_FIXED_POINT
    return Measured(
        float(rational.independence_gap(C)),
        f"{C.tolist()}: exact MCC numerator c s - Σ t_k p_k = {rational.mcc_numerator(C)} "
        f"(cenmcc.mcc {float(cenmcc.mcc(C)):g}); measured: max |C_ij/s - t_i p_j/s²|, 0 only "
        "for independent (random) predictions",
    )


#: Accuracies at which binary and multi-class CEN are compared.
EQUAL_ACCURACIES = (0.8, 0.9, 0.95, 0.99)


def binary_cen_high_at_high_accuracy():
    ratios, shown = [], []
    for acc in EQUAL_ACCURACIES:
        # B(T, F) with T = acc/(1 - acc) (N - 1) F has accuracy acc; F = 100 keeps T an integer.
        cen = {
            N: float(cenmcc.cen(cenmcc.b_matrix(N, round(acc / (1 - acc) * (N - 1) * 100), 100)))
            for N in PAPER_N_WITH_2
        }
        ratios.append(cen[2] / max(v for N, v in cen.items() if N > 2))
        shown.append(f"ACC {acc}: CEN {cen[2]:.3f} (N = 2), {cen[3]:.3f} (3), {cen[30]:.3f} (30)")
    return Measured(
        min(ratios),
        "smallest ratio of the binary CEN to the largest multi-class CEN (N = 3..30) of "
        "B(T, F) at the same accuracy; " + "; ".join(shown),
    )


#: The claims declared in jurman.toml, each measured by the check it names.
RECORDS = load(__name__)
