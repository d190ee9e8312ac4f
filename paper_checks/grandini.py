"""Claims of Grandini, Bagli & Visani (2020), *Metrics for multi-class classification: an overview*.

Every printed confusion matrix (Figures 1-12) with its printed totals and values, every stated
identity (micro F1 = accuracy; MCC and kappa share a numerator) and every comparative statement
that can be computed (kappa's denominator against MCC's, kappa and error imbalance).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import cenmcc

from . import rational
from .declarations import load
from .record import (
    Measured,
)
from .search import (
    describe,
    largest_gap,
    marginals,
    mcc_defined,
    search_stacks,
    value_range,
)
from .sources import FIG1, FIG2, FIG3, FIG4, FIG9, FIG11, FIG12_RIGHT

#: Seed and size of the random search behind this module's claims about all matrices.
SEED, N_RANDOM = 2020, 3000


def _stacks():
    return search_stacks(SEED, N_RANDOM)


def _searched(what: str) -> str:
    return f"{what} over {describe(SEED, N_RANDOM)}"


def _marginals(pm) -> Measured:
    C = pm.C
    return Measured(
        (*C.sum(axis=1), *C.sum(axis=0), C.sum()),
        "row totals, column totals and grand total of the transcribed cells",
    )


def fig1_marginals():
    return _marginals(FIG1)


def fig2_marginals():
    return _marginals(FIG2)


def fig3_marginals():
    return _marginals(FIG3)


def fig4_marginals():
    return _marginals(FIG4)


def fig9_marginals():
    return _marginals(FIG9)


def fig11_marginals():
    return _marginals(FIG11)


# --- Accuracy and balanced accuracy (Sections 2 and 3) ---------------------------------------


def eq4_accuracy():
    return Measured(cenmcc.accuracy(FIG1.C), "cenmcc.accuracy on Fig. 1")


def eq6_balanced_accuracy():
    return Measured(cenmcc.balanced_accuracy(FIG1.C), "cenmcc.balanced_accuracy on Fig. 1")


def fig3_accuracy():
    return Measured(cenmcc.accuracy(FIG3.C), "cenmcc.accuracy on Fig. 3")


def fig3_balanced_accuracy():
    return Measured(cenmcc.balanced_accuracy(FIG3.C), "cenmcc.balanced_accuracy on Fig. 3")


def fig3_recall_a():
    return Measured(cenmcc.recall(FIG3.C)[0], "cenmcc.recall of class a on Fig. 3")


def fig3_class_a_counts():
    row = FIG3.C[0]
    return Measured((row.sum() - row[0], row[0], row.sum()), "row a of Fig. 3")


def accuracy_range():
    return Measured(value_range(_stacks(), cenmcc.accuracy), _searched("min and max of ACC"))


def balanced_data_accuracy_equals_balanced_accuracy():
    rng = np.random.default_rng(SEED)
    gaps = []
    for K in (2, 3, 4, 5, 8, 12, 30):
        size = rng.integers(1, 200, size=N_RANDOM)
        shares = rng.dirichlet(np.ones(K), size=(N_RANDOM, K))
        C = rng.multinomial(size[:, None], shares)  # every row of a matrix sums to its size
        gaps.append(np.abs(cenmcc.accuracy(C) - cenmcc.balanced_accuracy(C)).max())
    return Measured(
        max(gaps),
        f"max |ACC - balanced accuracy| over {N_RANDOM:,} random matrices with equal class sizes "
        "per K in {2, 3, 4, 5, 8, 12, 30}",
    )


# --- Balanced accuracy weighted (Section 3.1, Eqs. (7)-(8)) ---------------------------------


def _baw_eq7(C, w):
    """Eq. (7) as printed: ``sum_k TP_k / (Total_row_k * w_k) / (K W)``."""
    t, _, _, _ = marginals(C)
    return (np.diagonal(C, axis1=-2, axis2=-1) / (t * w)).sum(axis=-1) / (C.shape[-1] * w.sum())


def _baw_eq8(C, w):
    """Eq. (8) as printed: ``sum_k (TP_k / Total_row_k) * w_k / (K W)``."""
    t, _, _, _ = marginals(C)
    return (np.diagonal(C, axis1=-2, axis2=-1) / t * w).sum(axis=-1) / (C.shape[-1] * w.sum())


def _frequencies(C):
    t, _, _, s = marginals(C)
    return t / s


def eq7_equals_eq8():
    C = FIG1.C
    w = _frequencies(C)
    a, b = _baw_eq7(C, w), _baw_eq8(C, w)
    return Measured(
        abs(a - b),
        f"on Fig. 1 with class-frequency weights: Eq. (7) gives {a:.4f}, Eq. (8) {b:.4f}",
    )


def eq8_perfect_classification():
    C = np.diag(FIG1.row_totals)
    return Measured(
        _baw_eq8(C, _frequencies(C)),
        "Eq. (8) as printed, class-frequency weights, on the perfect classification of Fig. 1's "
        "classes",
    )


def baw_frequency_weights_is_accuracy():
    return Measured(
        largest_gap(_stacks(), cenmcc.balanced_accuracy_weighted, cenmcc.accuracy),
        _searched("max |sum_k w_k R_k / W - ACC| with w_k the class frequencies,"),
    )


# --- Precision, recall, F1 (Sections 1.2 and 4) ----------------------------------------------


def eq10_precision():
    return Measured(cenmcc.precision(FIG2.C)[0], "cenmcc.precision of the positive class, Fig. 2")


def eq10_recall():
    return Measured(cenmcc.recall(FIG2.C)[0], "cenmcc.recall of the positive class, Fig. 2")


def eq11_f1():
    return Measured(cenmcc.f1_score(FIG2.C)[0], "cenmcc.f1_score of the positive class, Fig. 2")


def eq11_f1_from_printed_precision():
    p, r = 0.66, 0.80  # as printed in Eq. (10)
    return Measured(2 * p * r / (p + r), "Eq. (11) evaluated on the printed 0.66 and 0.80")


def model_a_f1():
    C = [[8, 2], [2, 0]]  # TP 8, FN 2, FP 2: precision = recall = 0.8
    return Measured(cenmcc.f1_score(C)[0], "cenmcc.f1_score of a matrix with P = R = 0.8")


def model_b_f1():
    C = [[3, 0], [2, 0]]  # TP 3, FN 0, FP 2: precision 0.6, recall 1
    return Measured(cenmcc.f1_score(C)[0], "cenmcc.f1_score of a matrix with P = 0.6, R = 1")


def f1_range():
    def defined(C):
        t, p, _, _ = marginals(C)
        return np.all(t + p > 0, axis=-1)

    return Measured(
        value_range(_stacks(), cenmcc.f1_score, where=defined),
        _searched("min and max of the per-class F1 (classes with samples)"),
    )


def _macro(C):
    t, p, _, _ = marginals(C)
    d = np.diagonal(C, axis1=-2, axis2=-1)
    return (d / p).mean(axis=-1), (d / t).mean(axis=-1)


def eq16_as_printed():
    P, R = _macro(FIG4.C)
    as_printed = 2 * (P * R) / (1 / P + 1 / R)
    harmonic = cenmcc.f1_of_macro_averages(FIG4.C)
    return Measured(
        abs(as_printed - harmonic),
        f"on Fig. 4: Eq. (16) as printed {as_printed:.4f}, harmonic mean of macro-P "
        f"{P:.4f} and macro-R {R:.4f} {harmonic:.4f}",
    )


def micro_f1_is_accuracy():
    def micro_f1(C):
        t, p, c, _ = marginals(C)
        tp = c  # sum_k TP_k
        micro_p = tp / p.sum(axis=-1)  # Eq. (17): over the column totals
        micro_r = tp / t.sum(axis=-1)  # Eq. (18): over the row totals
        return 2 * micro_p * micro_r / (micro_p + micro_r)

    def defined(C):
        return np.einsum("...ii->...", C) > 0

    stacks = _stacks()
    stacks.update({"fig1": FIG1.C[None], "fig3": FIG3.C[None], "fig4": FIG4.C[None]})
    return Measured(
        largest_gap(stacks, micro_f1, cenmcc.accuracy, where=defined),
        _searched("max |F1 of Eqs. (17)-(18) - ACC| on Figs. 1, 3, 4 and") + " (trace > 0)",
    )


def fig4_class_b_one_vs_rest():
    C, b = FIG4.C, 1
    tp = C[b, b]
    fp = C[:, b].sum() - tp  # the FP tiles: column b, other rows
    fn = C[b, :].sum() - tp  # the FN tiles: row b, other columns
    layout = np.array([tp / (tp + fp), tp / (tp + fn)])
    core = np.array([cenmcc.precision(C)[b], cenmcc.recall(C)[b]])
    return Measured(
        np.abs(layout - core).max(),
        f"class b of Fig. 4: precision {tp}/{tp + fp}, recall {tp}/{tp + fn} from the labelled "
        "tiles, against cenmcc.precision and cenmcc.recall",
    )


# --- Cross-entropy (Section 4.4) -------------------------------------------------------------

#: Figure 6 is not in the text: two predicted distributions over classes 1..6 built as described,
#: both giving 0.4 to the true class 2, the highest probability on class 2 (6a) or 6 (6b).
FIG6_CLASSES = np.arange(1, 7)
FIG6A = np.array([0.1, 0.4, 0.1, 0.1, 0.1, 0.2])
FIG6B = np.array([0.05, 0.4, 0.05, 0.0, 0.0, 0.5])


def fig6_cross_entropy():
    a = cenmcc.log_loss([2], FIG6A[None], labels=FIG6_CLASSES)
    b = cenmcc.log_loss([2], FIG6B[None], labels=FIG6_CLASSES)
    top = [int(FIG6_CLASSES[np.argmax(p)]) for p in (FIG6A, FIG6B)]
    return Measured(
        abs(a - b),
        f"cenmcc.log_loss of the two distributions (highest class {top[0]} and {top[1]}): "
        f"{a:.4f} and {b:.4f}, both -ln 0.4",
    )


def _random_probabilities(n: int, K: int):
    rng = np.random.default_rng(SEED)
    proba = rng.dirichlet(np.ones(K), size=n)
    return rng.integers(0, K, size=n), proba


def eq23_sum_or_average():
    y, proba = _random_probabilities(10, 4)
    eq22 = -np.log(proba[np.arange(y.size), y])  # each unit's cross-entropy
    eq23 = eq22.sum()  # Eq. (23) as printed: -sum_i sum_k p log q
    average = cenmcc.log_loss(y, proba, labels=np.arange(4))
    return Measured(
        abs(eq23 - average),
        f"10 random units, 4 classes: Eq. (23) as printed {eq23:.4f}, the average of Eq. (22) "
        f"(cenmcc.log_loss) {average:.4f}",
    )


def cross_entropy_sign():
    y, proba = _random_probabilities(200, 3)
    classes = np.arange(3)
    units = [cenmcc.log_loss(y[i : i + 1], proba[i : i + 1], labels=classes) for i in range(200)]
    perfect = cenmcc.log_loss(y, np.eye(3)[y], labels=classes)
    return Measured(
        min(*units, perfect),
        f"smallest cross-entropy of 200 random units ({min(units):.2e}) and of a perfect "
        f"prediction ({perfect + 0.0:.1f})",
    )


# --- MCC (Section 5.1) -----------------------------------------------------------------------


def fig7_mcc():
    return Measured(cenmcc.mcc(FIG2.C), "cenmcc.mcc on Fig. 7")


def _eq24(C):
    """Eq. (24): binary MCC from TP, FN, FP, TN."""
    (tp, fn), (fp, tn) = np.moveaxis(np.asarray(C, dtype=np.float64), (-2, -1), (0, 1))
    return (tp * tn - fp * fn) / np.sqrt((tp + fn) * (tp + fp) * (tn + fn) * (tn + fp))


def eq24_binary_formula():
    stacks = {2: _stacks()[2]}
    return Measured(
        largest_gap(stacks, _eq24, cenmcc.mcc, where=mcc_defined),
        "max |Eq. (24) - cenmcc.mcc| over the K = 2 matrices of the search (where defined)",
    )


def _eq25(C, *, as_indexed: bool):
    """Eq. (25). ``as_indexed``: p_k = sum_i C_ki and t_k = sum_i C_ik as printed (which, with
    rows = actual, are the row and column totals: the reverse of the words next to them)."""
    t, p, c, s = marginals(C)
    if as_indexed:
        p, t = t, p
    num = c * s - (p * t).sum(axis=-1)
    return num / np.sqrt((s**2 - (p * p).sum(axis=-1)) * (s**2 - (t * t).sum(axis=-1)))


def eq25_formula():
    stacks = _stacks()
    stacks["fig8"] = FIG4.C[None]
    gap_words = largest_gap(
        stacks, lambda C: _eq25(C, as_indexed=False), cenmcc.mcc, where=mcc_defined
    )
    gap_index = largest_gap(
        stacks, lambda C: _eq25(C, as_indexed=True), cenmcc.mcc, where=mcc_defined
    )
    return Measured(
        max(gap_words, gap_index),
        _searched("max |Eq. (25) - cenmcc.mcc|, p and t read both ways, on Fig. 8 and") + " "
        "(where defined)",
    )


def mcc_range():
    return Measured(
        value_range(_stacks(), cenmcc.mcc, where=mcc_defined),
        _searched("min and max of the MCC (where defined)"),
    )


#: Class sizes whose every confusion matrix is enumerated for the MCC's minimum.
MIN_MCC_SIZES = ((2, 2), (1, 3), (2, 2, 2), (1, 2, 3), (1, 1, 4), (2, 2, 2, 2), (1, 1, 1, 1, 1))


def mcc_minimum_depends_on_classes():
    minima = []
    for sizes in MIN_MCC_SIZES:
        C = cenmcc.matrices_with_row_sums(sizes)
        minima.append(float(cenmcc.mcc(C[mcc_defined(C)]).min()))
    shown = "; ".join(f"{s}: {m:.4f}" for s, m in zip(MIN_MCC_SIZES, minima, strict=True))
    return Measured(
        (min(minima), max(minima)),
        f"smallest and largest of the exact minima over every matrix with the given class "
        f"sizes ({shown})",
    )


def fig9_mcc():
    return Measured(cenmcc.mcc(FIG9.C), "cenmcc.mcc on Fig. 9 (0/0, filled with 0)")


def fig9_accuracy():
    return Measured(cenmcc.accuracy(FIG9.C), "cenmcc.accuracy on Fig. 9")


def fig9_recall():
    return Measured(cenmcc.recall(FIG9.C)[0], "cenmcc.recall of the positive class, Fig. 9")


# --- Cohen's kappa (Section 5.2) -------------------------------------------------------------


def eq34_p_positive():
    (tp, fn), (fp, _) = FIG11.C
    n = FIG11.C.sum()
    return Measured((tp + fn) / n * (tp + fp) / n, "Eq. (30) on Fig. 11")


def eq29_expected_accuracy():
    def eq29(C):
        (tp, fn), (fp, tn) = np.moveaxis(np.asarray(C, dtype=np.float64), (-2, -1), (0, 1))
        n = tp + fn + fp + tn
        return (tp + fn) / n * (tp + fp) / n + (tn + fp) / n * (tn + fn) / n

    stacks = {2: _stacks()[2], "fig11": FIG11.C[None]}
    return Measured(
        largest_gap(stacks, eq29, cenmcc.expected_accuracy),
        "max |Eqs. (29)-(31) - cenmcc.expected_accuracy| on Fig. 11 and the K = 2 search",
    )


def fig12_left_kappa():
    return Measured(cenmcc.cohen_kappa(FIG11.C), "cenmcc.cohen_kappa on Fig. 12, left")


def fig12_right_kappa():
    return Measured(cenmcc.cohen_kappa(FIG12_RIGHT), "cenmcc.cohen_kappa on Fig. 12, right")


def fig12_same_accuracy():
    a, b = cenmcc.accuracy(FIG11.C), cenmcc.accuracy(FIG12_RIGHT)
    return Measured(abs(a - b), f"ACC left {a:.2f}, right {b:.2f}")


def fig12_kappa_and_error_imbalance():
    C = np.array([[55, 5], [35, 5]])  # Fig. 12's class sizes (60, 40) and ACC 0.6; FN 5, FP 35
    return Measured(
        cenmcc.cohen_kappa(C),
        "cenmcc.cohen_kappa of TP 55, FN 5, FP 35, TN 5: same N, class sizes and accuracy as "
        "Fig. 12, errors more unbalanced than on the left (|FN - FP| = 30, as on the right, "
        "against 10)",
    )


def _kappa_denominator(C):
    t, p, _, s = marginals(C)
    return s**2 - (p * t).sum(axis=-1)


def _mcc_denominator(C):
    t, p, _, s = marginals(C)
    return np.sqrt((s**2 - (p * p).sum(axis=-1)) * (s**2 - (t * t).sum(axis=-1)))


def eq40_formula():
    def eq40(C):
        t, p, c, s = marginals(C)
        return (c * s - (p * t).sum(axis=-1)) / _kappa_denominator(C)

    def eq28(C):
        _, _, c, s = marginals(C)
        p_o = c / s
        p_e = cenmcc.expected_accuracy(C)
        return (p_o - p_e) / (1 - p_e)

    def defined(C):
        return _kappa_denominator(C) > 0

    stacks = _stacks()
    stacks["fig8"] = FIG4.C[None]
    gap = max(
        largest_gap(stacks, eq40, cenmcc.cohen_kappa, where=defined),
        largest_gap(stacks, eq28, cenmcc.cohen_kappa, where=defined),
    )
    return Measured(gap, _searched("max |Eq. (40) - kappa| and |Eq. (28) - kappa|, Fig. 8 and"))


def mcc_kappa_share_numerator():
    def defined(C):
        return mcc_defined(C) & (_kappa_denominator(C) > 0)

    def scaled(measure, denominator):
        return lambda C: measure(C) * denominator(C) / marginals(C)[3] ** 2

    return Measured(
        largest_gap(
            _stacks(),
            scaled(cenmcc.mcc, _mcc_denominator),
            scaled(cenmcc.cohen_kappa, _kappa_denominator),
            where=defined,
        ),
        _searched("max |MCC * den_MCC - kappa * den_kappa| / s^2"),
    )


def kappa_denominator_lower():
    lo, _ = value_range(
        _stacks(), lambda C: _kappa_denominator(C) / _mcc_denominator(C), where=mcc_defined
    )
    return Measured(lo, _searched("smallest ratio den_kappa / den_MCC"))


def kappa_higher_than_mcc_fig8():
    k, m = cenmcc.cohen_kappa(FIG4.C), cenmcc.mcc(FIG4.C)
    return Measured(k - m, f"on Fig. 8: kappa {k:.4f}, MCC {m:.4f}")


def kappa_range():
    def defined(C):
        return _kappa_denominator(C) > 0

    return Measured(
        value_range(_stacks(), cenmcc.cohen_kappa, where=defined),
        _searched("min and max of kappa (where defined)"),
    )


# --- Added by the audit (issue 12): zeros, imbalance, Eqs. (5) and (9), the two models -------


def _zero_on_independence(measure: str):
    matrices = rational.independent_matrices(SEED, 40)
    numerators = {rational.mcc_numerator(C) for C in matrices}
    values = np.array([float(getattr(cenmcc, measure)(C)) for C in matrices])
    return Measured(
        np.abs(values).max(),
        f"max |cenmcc.{measure}| over {len(matrices)} independent (rank-one, C = r cᵀ) integer "
        f"matrices, N = 2..8; the exact numerator c s - Σ t_k p_k is {numerators} on all of them",
    )


def mcc_zero_on_independence():
    return _zero_on_independence("mcc")


def kappa_zero_on_independence():
    return _zero_on_independence("cohen_kappa")


def zero_without_independence():
    C = rational.ONE_FIXED_POINT
    return Measured(
        float(rational.independence_gap(C)),
        f"{C.tolist()}: exact MCC numerator {rational.mcc_numerator(C)}, exact kappa "
        f"{rational.kappa(C)} (cenmcc: MCC {float(cenmcc.mcc(C)):g}, kappa "
        f"{float(cenmcc.cohen_kappa(C)):g}); measured: max |C_ij/s - t_i p_j/s²|, 0 only for "
        "independence",
    )


#: Three classes of sizes (40, 30, 30), 70% correct: the errors spread evenly over the other
#: classes, and the same errors with two thirds of them predicted as class 0.
KAPPA_EVEN_ERRORS = np.array([[30, 5, 5], [5, 20, 5], [5, 5, 20]])
KAPPA_ERRORS_TO_CLASS_0 = np.array([[30, 5, 5], [10, 20, 0], [10, 0, 20]])


def kappa_error_imbalance_multiclass():
    even, skewed = rational.kappa(KAPPA_EVEN_ERRORS), rational.kappa(KAPPA_ERRORS_TO_CLASS_0)
    return Measured(
        float(skewed),
        f"exact kappa {skewed} of {KAPPA_ERRORS_TO_CLASS_0.tolist()} (20 of the 30 errors "
        f"predicted as class 0) against {even} = {float(even):.4f} of "
        f"{KAPPA_EVEN_ERRORS.tolist()} (10 errors predicted as each class): same class sizes "
        "and accuracy 0.7; cenmcc.cohen_kappa agrees to "
        f"{abs(float(cenmcc.cohen_kappa(KAPPA_ERRORS_TO_CLASS_0)) - float(skewed)):.0e}",
    )


def eq5_balanced_accuracy():
    (tp, fn), (fp, tn) = FIG2.C.tolist()
    literal = (Fraction(tp, tp + fn) + Fraction(tn, fp + tn)) / 2  # Eq. (5), row totals
    ours = float(cenmcc.balanced_accuracy(FIG2.C))
    return Measured(
        abs(ours - float(literal)),
        f"|cenmcc.balanced_accuracy - Eq. (5)| on Fig. 2, Eq. (5) = {literal} exactly",
    )


def eq9_harmonic_forms():
    grid = [Fraction(a, 20) for a in range(1, 21)]
    gap = max(abs(2 / (1 / p + 1 / r) - 2 * p * r / (p + r)) for p in grid for r in grid)
    gaps = []
    for C in _stacks().values():
        C = C[(np.diagonal(C, axis1=-2, axis2=-1) > 0).all(axis=-1)]  # every P_k, R_k > 0
        P, R = cenmcc.precision(C), cenmcc.recall(C)
        gaps.append(np.abs(cenmcc.f1_score(C) - 2 / (1 / P + 1 / R)).max())
    return Measured(
        max(gaps),
        _searched(
            "max |cenmcc.f1_score - 2/(P⁻¹ + R⁻¹)| per class, matrices with a non-zero diagonal,"
        )
        + f"; the two printed forms differ by exactly {gap} on P, R in 1/20 .. 1",
    )


def two_models_equal_means():
    a = (Fraction(80, 100) + Fraction(80, 100)) / 2
    b = (Fraction(60, 100) + Fraction(100, 100)) / 2
    return Measured(float(abs(a - b)), f"arithmetic means {a} (model A) and {b} (model B)")


#: The claims declared in grandini.toml, each measured by the check it names.
RECORDS = load(__name__)
