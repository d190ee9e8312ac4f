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
from .record import (
    DIFFERS,
    REPRODUCED,
    Measured,
    Published,
    Record,
    bound,
    exact,
    expression,
    identity,
    printed,
)
from .search import (
    describe,
    largest_gap,
    marginals,
    mcc_defined,
    search_stacks,
    value_range,
)
from .sources import FIG1, FIG2, FIG3, FIG4, FIG9, FIG11, FIG12_RIGHT, GRANDINI

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


def _marginals_record(name: str, pm, compute, where: str) -> Record:
    return Record(
        id=f"grandini2020-{name}-totals",
        source=f"{GRANDINI}, {where}",
        claim="The printed row totals, column totals and grand total are those of the cells.",
        published=exact(pm.printed_marginals, " ".join(map(str, pm.printed_marginals))),
        compute=compute,
        verdict=REPRODUCED,
        measured=pm.printed_marginals,
        note="Order: row totals, column totals, grand total.",
    )


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


def _sec(where: str) -> str:
    return f"{GRANDINI}, {where}"


RECORDS = (
    _marginals_record("fig1", FIG1, fig1_marginals, "Sec. 1.1, Fig. 1"),
    _marginals_record("fig2", FIG2, fig2_marginals, "Sec. 1.2, Figs. 2 and 7"),
    _marginals_record("fig3", FIG3, fig3_marginals, "Sec. 3, Fig. 3"),
    _marginals_record("fig4", FIG4, fig4_marginals, "Sec. 4.2.1 and 5.1.2, Figs. 4 and 8"),
    _marginals_record("fig9", FIG9, fig9_marginals, "Sec. 5.1.3, Fig. 9"),
    _marginals_record("fig11", FIG11, fig11_marginals, "Sec. 5.2.1, Fig. 11"),
    Record(
        id="grandini2020-eq4-accuracy",
        source=_sec("Sec. 2, Eq. (4)"),
        claim="The accuracy of Fig. 1 is (6 + 9 + 10 + 12) / 52.",
        published=expression("(6 + 9 + 10 + 12) / 52", 37 / 52),
        compute=eq4_accuracy,
        verdict=REPRODUCED,
        measured=0.7115384615384616,
    ),
    Record(
        id="grandini2020-eq6-balanced-accuracy",
        source=_sec("Sec. 3, Eq. (6)"),
        claim="The balanced accuracy of Fig. 1 is (6/9 + 9/14 + 10/13 + 12/16) / 4.",
        published=expression(
            "(6/9 + 9/14 + 10/13 + 12/16) / 4", (6 / 9 + 9 / 14 + 10 / 13 + 0.75) / 4
        ),
        compute=eq6_balanced_accuracy,
        verdict=REPRODUCED,
        measured=0.7071886446886446,
    ),
    Record(
        id="grandini2020-fig3-accuracy",
        source=_sec("Sec. 3, Fig. 3"),
        claim="The accuracy of the imbalanced Fig. 3 is 0.689.",
        published=printed("0.689"),
        compute=fig3_accuracy,
        verdict=REPRODUCED,
        measured=0.6890322580645162,
        headline=True,
    ),
    Record(
        id="grandini2020-fig3-balanced-accuracy",
        source=_sec("Sec. 3, Fig. 3"),
        claim="The balanced accuracy of Fig. 3 is 0.615.",
        published=printed("0.615"),
        compute=fig3_balanced_accuracy,
        verdict=REPRODUCED,
        measured=0.6147788796118739,
        headline=True,
    ),
    Record(
        id="grandini2020-fig3-recall-a",
        source=_sec("Sec. 3, Fig. 3"),
        claim="The recall of class a in Fig. 3 is 0.0806.",
        published=printed("0.0806"),
        compute=fig3_recall_a,
        verdict=REPRODUCED,
        measured=0.08064516129032258,
    ),
    Record(
        id="grandini2020-fig3-class-a-counts",
        source=_sec("Sec. 3, Fig. 3"),
        claim="Class a has 57 misclassified and 5 correct elements, 62 in all.",
        published=exact((57, 5, 62), "57, 5, 62"),
        compute=fig3_class_a_counts,
        verdict=REPRODUCED,
        measured=(57.0, 5.0, 62.0),
    ),
    Record(
        id="grandini2020-accuracy-range",
        source=_sec("Sec. 2"),
        claim="Accuracy takes values between 0 and 1.",
        published=bound("[0, 1]", (0.0, 1.0)),
        compute=accuracy_range,
        verdict=REPRODUCED,
        measured=(0.0, 1.0),
        note="Measured: the smallest and largest accuracy found; both ends are attained.",
    ),
    Record(
        id="grandini2020-balanced-data-acc-equals-ba",
        source=_sec("Sec. 3"),
        claim="On a balanced data set accuracy and balanced accuracy converge to the same value.",
        published=identity("ACC = balanced accuracy when all classes have the same size"),
        compute=balanced_data_accuracy_equals_balanced_accuracy,
        verdict=REPRODUCED,
        measured=1.1102230246251565e-16,
        note="Exact, not only convergent: with t_k = s/K, (1/K) sum_k C_kk/t_k = sum_k C_kk/s.",
    ),
    Record(
        id="grandini2020-eq7-equals-eq8",
        source=_sec("Sec. 3.1, Eqs. (7)-(8)"),
        claim="Eq. (8) is Eq. (7) applied to Fig. 1 (balanced accuracy weighted).",
        published=identity("Eq. (7) = Eq. (8)"),
        compute=eq7_equals_eq8,
        verdict=DIFFERS,
        measured=2.760622892319321,
        reason="Eq. (7) divides each recall by its weight where Eq. (8) and the text multiply by "
        "it; with frequency weights Eq. (7) gives 2.94 on Fig. 1.",
    ),
    Record(
        id="grandini2020-eq8-perfect-classification",
        source=_sec("Sec. 3.1, Eq. (8)"),
        claim="Balanced accuracy weighted can be read as the probability to correctly predict a "
        "unit, so perfect classification scores 1.",
        published=bound("1 for perfect classification", 1.0),
        compute=eq8_perfect_classification,
        verdict=DIFFERS,
        measured=0.25,
        reason="Eq. (8) keeps the balanced accuracy's 1/K next to W, so perfect classification "
        "scores 1/K (and frequency weights give ACC/K).",
        note="cenmcc.balanced_accuracy_weighted implements the text's sum_k w_k R_k / W.",
    ),
    Record(
        id="grandini2020-baw-frequency-weights",
        source=_sec("Sec. 3.1"),
        claim="With class-frequency weights, balanced accuracy weighted is the probability to "
        "correctly predict a given unit (the accuracy), though its formula looks different.",
        published=identity("sum_k w_k R_k / W = ACC for w_k = t_k / s"),
        compute=baw_frequency_weights_is_accuracy,
        verdict=REPRODUCED,
        measured=1.1102230246251565e-16,
        note="Read as the text says (weights multiply recalls, divided by W = sum w_k); exact, "
        "since w_k R_k = (t_k/s)(C_kk/t_k) = C_kk/s.",
    ),
    Record(
        id="grandini2020-eq10-precision",
        source=_sec("Sec. 4.1, Eq. (10)"),
        claim="The precision of Fig. 2 is 20/30 = 0.66.",
        published=printed("0.66"),
        compute=eq10_precision,
        verdict=DIFFERS,
        measured=0.6666666666666666,
        reason="20/30 = 0.6667 rounds to 0.67; the printed 0.66 is truncated.",
    ),
    Record(
        id="grandini2020-eq10-recall",
        source=_sec("Sec. 4.1, Eq. (10)"),
        claim="The recall of Fig. 2 is 20/25 = 0.80.",
        published=printed("0.80"),
        compute=eq10_recall,
        verdict=REPRODUCED,
        measured=0.8,
    ),
    Record(
        id="grandini2020-eq11-f1",
        source=_sec("Sec. 4.1, Eq. (11)"),
        claim="The binary F1 score of Fig. 2 is 0.72.",
        published=printed("0.72"),
        compute=eq11_f1,
        verdict=DIFFERS,
        measured=0.7272727272727273,
        headline=True,
        reason="F1 = 40/55 = 0.7273 rounds to 0.73; the printed 0.72 follows from the truncated "
        "precision 0.66 (grandini2020-eq11-f1-from-truncated-precision).",
    ),
    Record(
        id="grandini2020-eq11-f1-from-truncated-precision",
        source=_sec("Sec. 4.1, Eq. (11)"),
        claim="2 (0.66 * 0.80) / (0.66 + 0.80) = 0.72, i.e. the printed F1 comes from the "
        "printed, truncated precision.",
        published=printed("0.72"),
        compute=eq11_f1_from_printed_precision,
        verdict=REPRODUCED,
        measured=0.7232876712328767,
        note="Explains grandini2020-eq11-f1.",
    ),
    Record(
        id="grandini2020-model-a-f1",
        source=_sec("Sec. 4"),
        claim="Model A, precision = recall = 80%, has F1 80%.",
        published=printed("80%"),
        compute=model_a_f1,
        verdict=REPRODUCED,
        measured=0.8,
    ),
    Record(
        id="grandini2020-model-b-f1",
        source=_sec("Sec. 4"),
        claim="Model B, precision 60% and recall 100%, has F1 75%.",
        published=printed("75%"),
        compute=model_b_f1,
        verdict=REPRODUCED,
        measured=0.75,
    ),
    Record(
        id="grandini2020-f1-range",
        source=_sec("Sec. 4"),
        claim="F1 reaches its best value at 1 and its worst at 0.",
        published=bound("[0, 1]", (0.0, 1.0)),
        compute=f1_range,
        verdict=REPRODUCED,
        measured=(0.0, 1.0),
        note="Measured: the smallest and largest per-class F1 found.",
    ),
    Record(
        id="grandini2020-eq16-macro-f1",
        source=_sec("Sec. 4.2.1, Eq. (16)"),
        claim="Macro F1 is the harmonic mean of macro-precision and macro-recall, Eq. (16): "
        "2 (P R) / (P^-1 + R^-1).",
        published=identity("Eq. (16) = 2 P R / (P + R)"),
        compute=eq16_as_printed,
        verdict=DIFFERS,
        measured=0.2875150533453342,
        reason="Eq. (16) as printed has P^-1 + R^-1 where the harmonic mean has P + R, which "
        "multiplies the harmonic mean by P R.",
        note="The text's harmonic mean is cenmcc.f1_of_macro_averages.",
    ),
    Record(
        id="grandini2020-eq19-micro-f1-is-accuracy",
        source=_sec("Sec. 4.3, Eqs. (17)-(19)"),
        claim="Micro precision equals micro recall, so micro F1 equals the accuracy.",
        published=identity("micro F1 = ACC"),
        compute=micro_f1_is_accuracy,
        verdict=REPRODUCED,
        measured=1.1102230246251565e-16,
        headline=True,
    ),
    Record(
        id="grandini2020-fig4-class-b-tiles",
        source=_sec("Sec. 4.2.1, Fig. 4"),
        claim="With class b as reference, TP, FP (column b) and FN (row b) give its precision "
        "and recall by Eqs. (12)-(13).",
        published=identity("tile layout = per-class precision and recall"),
        compute=fig4_class_b_one_vs_rest,
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="grandini2020-fig6-cross-entropy",
        source=_sec("Sec. 4.4, Fig. 6"),
        claim="Two predictions giving the true class 2 the same probability 0.4 have the same "
        "cross-entropy, though only one of them ranks class 2 first.",
        published=identity("H(6a) = H(6b)"),
        compute=fig6_cross_entropy,
        verdict=REPRODUCED,
        measured=0.0,
        note="Fig. 6's probabilities are not in the text; the two distributions are built as "
        "it describes them.",
    ),
    Record(
        id="grandini2020-eq23-average",
        source=_sec("Sec. 4.4, Eq. (23)"),
        claim="Eq. (23) is the average of the units' cross-entropies (Eq. (22)) over the data set.",
        published=identity("Eq. (23) = (1/N) sum_i Eq. (22)"),
        compute=eq23_sum_or_average,
        verdict=DIFFERS,
        measured=14.819011767305307,
        reason="Eq. (23) as printed is the sum over the units, N times the average the text "
        "describes.",
        note="cenmcc.log_loss implements the average, as scikit-learn does.",
    ),
    Record(
        id="grandini2020-cross-entropy-sign",
        source=_sec("Sec. 4.4"),
        claim="Cross-entropy only assumes positive values.",
        published=bound("H >= 0", 0.0),
        compute=cross_entropy_sign,
        verdict=REPRODUCED,
        measured=-0.0,
        relation=">=",
        note="Non-negative rather than positive: a perfect prediction has cross-entropy 0.",
    ),
    Record(
        id="grandini2020-fig7-mcc",
        source=_sec("Sec. 5.1.1, Fig. 7"),
        claim="The MCC of Fig. 7 is 0.408.",
        published=printed("0.408"),
        compute=fig7_mcc,
        verdict=REPRODUCED,
        measured=0.4082482904638631,
        headline=True,
    ),
    Record(
        id="grandini2020-eq24-binary-mcc",
        source=_sec("Sec. 5.1.1, Eq. (24)"),
        claim="Binary MCC = (TP TN - FP FN) / sqrt((TP+FN)(TP+FP)(TN+FN)(TN+FP)).",
        published=identity("Eq. (24) = MCC"),
        compute=eq24_binary_formula,
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="grandini2020-eq25-multiclass-mcc",
        source=_sec("Sec. 5.1.2, Eq. (25)"),
        claim="Multi-class MCC = (c s - sum p_k t_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2)).",
        published=identity("Eq. (25) = MCC"),
        compute=eq25_formula,
        verdict=REPRODUCED,
        measured=0.0,
        note="The printed indices (p_k = sum_i C_ki, t_k = sum_i C_ik) make p the row totals and "
        "t the column totals, the reverse of the words next to them; Eq. (25) is symmetric in p "
        "and t, so both readings give the MCC.",
    ),
    Record(
        id="grandini2020-mcc-range",
        source=_sec("Sec. 5.1"),
        claim="MCC has range [-1, 1].",
        published=bound("[-1, 1]", (-1.0, 1.0)),
        compute=mcc_range,
        verdict=REPRODUCED,
        measured=(-1.0, 1.0),
        note="Measured: the smallest and largest MCC found; both ends are attained.",
    ),
    Record(
        id="grandini2020-mcc-minimum",
        source=_sec("Sec. 5.1.2"),
        claim="MCC has no fixed minimum: it lies between -1 and 0 depending on the number and "
        "the distribution of the classes.",
        published=bound("between -1 and 0", (-1.0, 0.0)),
        compute=mcc_minimum_depends_on_classes,
        verdict=REPRODUCED,
        measured=(-1.0, -0.3952847075210474),
        relation="in",
        note="Exact minima by enumerating every matrix with the given class sizes; -1 only for "
        "two classes.",
    ),
    Record(
        id="grandini2020-fig9-mcc",
        source=_sec("Sec. 5.1.3, Fig. 9"),
        claim="A model assigning every element to one class has MCC 0.",
        published=printed("0"),
        compute=fig9_mcc,
        verdict=REPRODUCED,
        measured=0.0,
        warns=True,
        note="The MCC of Fig. 9 is 0/0; 0 is the convention (Jurman et al., scikit-learn, "
        "cenmcc), and cenmcc warns.",
    ),
    Record(
        id="grandini2020-fig9-accuracy",
        source=_sec("Sec. 5.1.3, Fig. 9"),
        claim="The accuracy of Fig. 9 is 0.80.",
        published=printed("0.80"),
        compute=fig9_accuracy,
        verdict=REPRODUCED,
        measured=0.8,
    ),
    Record(
        id="grandini2020-fig9-recall",
        source=_sec("Sec. 5.1.3, Fig. 9"),
        claim="The recall of the first class in Fig. 9 is 1.",
        published=printed("1"),
        compute=fig9_recall,
        verdict=REPRODUCED,
        measured=1.0,
    ),
    Record(
        id="grandini2020-eq34-p-positive",
        source=_sec("Sec. 5.2.1, Eq. (34)"),
        claim="P_Positive of Fig. 11 is (45 + 15)/100 * (45 + 25)/100 = 0.42.",
        published=printed("0.42"),
        compute=eq34_p_positive,
        verdict=REPRODUCED,
        measured=0.42,
    ),
    Record(
        id="grandini2020-eq29-expected-accuracy",
        source=_sec("Sec. 5.2.1, Eqs. (29)-(31), (39)"),
        claim="P_e = P_Positive + P_Negative is the expected (chance) accuracy.",
        published=identity("Eqs. (29)-(31) = sum_k t_k p_k / s^2"),
        compute=eq29_expected_accuracy,
        verdict=REPRODUCED,
        measured=1.1102230246251565e-16,
    ),
    Record(
        id="grandini2020-fig12-kappa-left",
        source=_sec("Sec. 5.2.3, Fig. 12 (left) = Fig. 11"),
        claim="Kappa of TP 45, FN 15, FP 25, TN 15 is 0.13.",
        published=printed("0.13"),
        compute=fig12_left_kappa,
        verdict=REPRODUCED,
        measured=0.13043478260869565,
        headline=True,
    ),
    Record(
        id="grandini2020-fig12-kappa-right",
        source=_sec("Sec. 5.2.3, Fig. 12 (right)"),
        claim="Kappa of TP 25, FN 35, FP 5, TN 35 is 0.259.",
        published=printed("0.259"),
        compute=fig12_right_kappa,
        verdict=REPRODUCED,
        measured=0.25925925925925924,
        headline=True,
    ),
    Record(
        id="grandini2020-fig12-same-accuracy",
        source=_sec("Sec. 5.2.3, Fig. 12"),
        claim="The two models of Fig. 12 have the same accuracy.",
        published=identity("ACC left = ACC right"),
        compute=fig12_same_accuracy,
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="grandini2020-fig12-kappa-error-imbalance",
        source=_sec("Sec. 5.2.3, Fig. 12"),
        claim="Kappa increases the more the errors are unbalanced towards one class (at equal "
        "accuracy).",
        published=printed("0.13"),
        compute=fig12_kappa_and_error_imbalance,
        verdict=DIFFERS,
        measured=0.047619047619047616,
        relation=">=",
        reason="Counterexample: at Fig. 12's N, class sizes and accuracy, FN 5 / FP 35 is more "
        "unbalanced than FN 15 / FP 25 yet has kappa 0.048 < 0.13.",
        note="In this family kappa = 0.004 FN / (0.4 + 0.004 FN) grows with FN, not with "
        "|FN - FP|.",
    ),
    Record(
        id="grandini2020-eq40-multiclass-kappa",
        source=_sec("Sec. 5.2.2, Eq. (40)"),
        claim="Multi-class kappa = (c s - sum p_k t_k) / (s^2 - sum p_k t_k), i.e. Eq. (28) "
        "with P_e = sum p_k t_k / s^2.",
        published=identity("Eq. (40) = Eq. (28) = kappa"),
        compute=eq40_formula,
        verdict=REPRODUCED,
        measured=1.4970663597679845e-15,
    ),
    Record(
        id="grandini2020-mcc-kappa-numerator",
        source=_sec("Sec. 5.2.2, Eqs. (25) and (40)"),
        claim="MCC and Cohen's kappa coincide apart from the denominator (they share the "
        "numerator c s - sum p_k t_k).",
        published=identity("MCC * den_MCC = kappa * den_kappa"),
        compute=mcc_kappa_share_numerator,
        kind="definition",
        verdict=REPRODUCED,
        measured=1.1102230246251565e-16,
        headline=True,
        note="An identity of the definitions: cenmcc computes both from the same numerator, so "
        "the two sides reduce to one expression; the exact numerator is checked independently "
        "where it matters (grandini2020-kappa-zero-means-chance).",
    ),
    Record(
        id="grandini2020-kappa-denominator-lower",
        source=_sec("Sec. 5.2.2"),
        claim="Kappa's denominator is slightly lower than MCC's.",
        published=bound("den_kappa / den_MCC < 1", 1.0),
        compute=kappa_denominator_lower,
        verdict=DIFFERS,
        measured=1.0,
        relation="<",
        headline=True,
        reason="The reverse holds for every matrix: den_kappa >= den_MCC, so |kappa| <= |MCC|.",
        note="Proof: with a = s^2 - sum p^2 and b = s^2 - sum t^2, den_kappa = (a + b)/2 + sum "
        "(p_k - t_k)^2 / 2 >= sqrt(a b) = den_MCC, with equality only when p = t.",
    ),
    Record(
        id="grandini2020-kappa-higher-than-mcc",
        source=_sec("Sec. 5.2.2, Fig. 8"),
        claim="Kappa's lower denominator justifies slightly higher scores than MCC (multi-class, "
        "Fig. 8).",
        published=bound("kappa - MCC > 0", 0.0),
        compute=kappa_higher_than_mcc_fig8,
        verdict=DIFFERS,
        measured=-0.0023486443252781486,
        relation=">",
        reason="On Fig. 8 kappa (0.8384) is below the MCC (0.8408), as it must be for a positive "
        "numerator (grandini2020-kappa-denominator-lower).",
    ),
    Record(
        id="grandini2020-kappa-range",
        source=_sec("Sec. 5.2.1"),
        claim="Kappa takes values from -1 to +1.",
        published=bound("[-1, 1]", (-1.0, 1.0)),
        compute=kappa_range,
        verdict=REPRODUCED,
        measured=(-1.0, 1.0),
        note="Measured: the smallest and largest kappa found (searched, not proven).",
    ),
    Record(
        id="grandini2020-mcc-zero-on-independence",
        source=_sec("Sec. 5.1"),
        claim="A classifier assigning units to classes without any link to their true class "
        "(prediction independent of the truth) has MCC 0.",
        published=identity("MCC = 0"),
        compute=mcc_zero_on_independence,
        verdict=REPRODUCED,
        measured=0.0,
        note="One direction of 'when MCC is equal to 0 ... the classifier is randomly "
        "assigning the units': independence gives 0 (the exact numerator is 0 for C = r cᵀ).",
    ),
    Record(
        id="grandini2020-mcc-zero-means-independence",
        source=_sec("Sec. 5.1"),
        claim="When MCC is equal to 0 the classifier is randomly assigning the units to the "
        "classes, without any link to their true class.",
        published=identity("C = t pᵀ/s whenever MCC = 0"),
        compute=zero_without_independence,
        verdict=DIFFERS,
        measured=0.2222222222222222,
        reason="MCC = 0 does not imply independence: the permutation [[1, 0, 0], [0, 0, 1], "
        "[0, 1, 0]] predicts every class as a function of the truth and has MCC = 0 exactly.",
        note="MCC = 0 means c s = Σ t_k p_k (no linear correlation of the one-hot encodings), "
        "which independence implies but does not require.",
    ),
    Record(
        id="grandini2020-kappa-zero-on-independence",
        source=_sec("Sec. 5.2"),
        claim="Kappa 0 is the agreement equivalent to chance: a prediction independent of the "
        "truth has kappa 0.",
        published=identity("kappa = 0"),
        compute=kappa_zero_on_independence,
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="grandini2020-kappa-zero-means-chance",
        source=_sec("Sec. 5.2"),
        claim="Kappa 0 identifies chance agreement (a prediction unrelated to the truth).",
        published=identity("C = t pᵀ/s whenever kappa = 0"),
        compute=zero_without_independence,
        verdict=DIFFERS,
        measured=0.2222222222222222,
        reason="Kappa = 0 does not imply chance agreement: the permutation [[1, 0, 0], "
        "[0, 0, 1], [0, 1, 0]] has kappa = 0 exactly, with a prediction fully determined by the "
        "truth.",
        note="Kappa and MCC share the numerator c s - Σ t_k p_k "
        "(grandini2020-mcc-kappa-numerator), so they are 0 together.",
    ),
    Record(
        id="grandini2020-kappa-error-imbalance-multiclass",
        source=_sec("Sec. 5.2.3"),
        claim="Kappa increases the more the errors are unbalanced towards one class: 'this is "
        "true also for multi-class settings'.",
        published=Published(
            text="kappa of the even errors, 6/11",
            value=6 / 11,
            tolerance=0.0,
            why="an exact fraction (exact arithmetic)",
        ),
        compute=kappa_error_imbalance_multiclass,
        verdict=DIFFERS,
        measured=7 / 13,
        relation=">=",
        reason="Counterexample with three classes: at equal class sizes and accuracy, moving "
        "errors towards class 0 lowers kappa from 6/11 to 7/13 (towards class 2 it raises it): "
        "kappa follows which class absorbs the errors, not their imbalance.",
        note="The three-class analogue of grandini2020-fig12-kappa-error-imbalance, computed "
        "with exact fractions.",
    ),
    Record(
        id="grandini2020-eq5-balanced-accuracy",
        source=_sec("Sec. 3, Eq. (5)"),
        claim="Binary balanced accuracy = (TP/Total_row1 + TN/Total_row2) / 2.",
        published=identity("Eq. (5) = balanced accuracy on Fig. 2"),
        compute=eq5_balanced_accuracy,
        kind="definition",
        verdict=REPRODUCED,
        measured=0.0,
        note="Definition (convention): Eq. (5) transcribed with exact fractions on Fig. 2 "
        "(7/10) against cenmcc.balanced_accuracy, the mean recall.",
    ),
    Record(
        id="grandini2020-eq9-f1-forms",
        source=_sec("Sec. 4, Eq. (9)"),
        claim="F1 = 2/(precision⁻¹ + recall⁻¹) = 2 · precision · recall/(precision + recall).",
        published=identity("2/(P⁻¹ + R⁻¹) = 2PR/(P + R) = F1"),
        compute=eq9_harmonic_forms,
        verdict=REPRODUCED,
        measured=2.220446049250313e-16,
        note="The two printed forms are algebraically equal (exact on a grid of fractions, "
        "detail); measured: cenmcc's F1 against the first form on the search.",
    ),
    Record(
        id="grandini2020-two-models-equal-means",
        source=_sec("Sec. 4"),
        claim="Arithmetically, the mean of the precision and recall is the same for model A "
        "(80%, 80%) and model B (60%, 100%).",
        published=identity("(0.8 + 0.8)/2 = (0.6 + 1)/2"),
        compute=two_models_equal_means,
        verdict=REPRODUCED,
        measured=0.0,
        note="Arithmetic on the printed values, exactly.",
    ),
)
