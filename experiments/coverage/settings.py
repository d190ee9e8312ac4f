"""The coverage experiment's settings: the measures, methods and populations of its grid."""

from __future__ import annotations

import numpy as np

MEASURES = (
    "mcc",
    "cen",
    "cohen_kappa",
    "accuracy",
    "balanced_accuracy",
    "f1_macro",
    "macro_mcc",
    "micro_mcc",
)


#: The eight measures that ``--speed`` times (the grid's first six, the t-MCC and the macro
#: precision): fixed, so that the grid's new measures do not change the committed speed table.
SPEED_MEASURES = (*MEASURES[:6], "tmcc", "precision_macro")


#: Methods for every measure, and the closed forms of some.
METHODS = ("bca", "percentile", "wald")


#: Fisher's z interval, for the measures of the grid whose range is [-1, 1].
FISHER_Z = ("mcc", "cohen_kappa", "macro_mcc", "micro_mcc")


#: The closed form of each measure that has one, by measure: Wilson's interval of the accuracy,
#: and of the micro MCC (the accuracy's, mapped through ``(K acc - 1) / (K - 1)``); Fleiss,
#: Cohen & Everitt's variance of kappa.
CLOSED_FORMS = {"accuracy": "wilson", "cohen_kappa": "fce", "micro_mcc": "wilson"}


LEVEL = 0.95


#: An interval whose end is within this of the population's value contains it: a bootstrap
#: interval's ends are often values of the measure on the test set's lattice (``c / n`` for
#: the accuracy), equal in exact arithmetic to a population value that summing ``P`` in floats
#: puts 1e-16 off (the accuracy 0.9 of an imbalanced population is 0.9000000000000001).
TIE = 1e-9


#: Coverage below this is flagged.
FLAG = 0.93


#: Resamples of the bootstrap methods in this experiment.
RESAMPLES = 999


#: Ratio of the largest class to the smallest in the imbalanced populations.
IMBALANCE = 20.0


RECALL = {"good": 0.9, "poor": 0.6}


#: The grid: 1,000 test sets a cell (the binomial SE of a coverage near 0.95 is 0.007) and 400
#: a paired cell (0.011; of a type-I error near 0.05, 0.011).
FULL = {
    "K": (2, 3, 5, 10),
    "n": (50, 200, 1000, 5000),
    "test_sets": 1000,
    "designs": True,
    "paired_sets": 400,
}


REDUCED = {"K": (2, 3), "n": (50, 200, 1000), "test_sets": 500, "designs": True, "paired_sets": 100}


#: The published designs, rerun with every method: Itaya et al. (2024)'s binary MCC (TP = TN =
#: 0.45, FP = FN = 0.05, MCC 0.8) and Tamura et al. (2025)'s three classes (rows true), as
#: ``../shared/papers/mcc-intervals.md`` reads them from the authors' code.
DESIGNS = {
    "itaya2024": (np.array([[0.45, 0.05], [0.05, 0.45]]), (50, 100, 500, 1000, 5000, 10000)),
    "tamura2025": (
        np.array([[0.28, 0.02, 0.03], [0.03, 0.28, 0.02], [0.02, 0.03, 0.29]]),
        (50, 100, 400, 800),
    ),
}


#: Tamura et al. (2025)'s paired macro-MCC design: joint counts over 500 items, truth x a x b
#: with b's prediction the fastest index (the order of their script).
TAMURA_PAIRED = (
    np.array(
        [
            [190, 80, 90, 5, 5, 5, 0, 5, 5],
            [5, 5, 0, 5, 10, 5, 5, 5, 5],
            [5, 5, 5, 5, 5, 15, 5, 5, 20],
        ]
    ).reshape(3, 3, 3)
    / 500
)


#: Measures of the paired grid, and its methods (McNemar's tests for accuracy only, MOVER for
#: the measures in [-1, 1]).
PAIRED_MEASURES = ("mcc", "macro_mcc", "cohen_kappa", "accuracy")
PAIRED_METHODS = ("bca", "percentile", "wald", "mover", "mcnemar", "mcnemar-exact")

#: Type-I error and power at this level.
ALPHA = 0.05

#: The share of items on which b repeats a's prediction in the copied scenarios.
COPY = 0.5


def conditional(recall) -> np.ndarray:
    """``P(predicted | true)`` with the given recall per class, errors spread evenly."""
    recall = np.asarray(recall, dtype=np.float64)
    K = recall.size
    Q = np.repeat(((1 - recall) / (K - 1))[:, None], K, axis=1)
    np.fill_diagonal(Q, recall)
    return Q


def joint(prior, Qa, Qb, copy: float = 0.0) -> np.ndarray:
    """The joint table ``p[t, i, j]`` of truth, a's and b's predictions: given the truth, b
    repeats a's prediction with probability ``copy`` (only where ``Qa == Qb``, which keeps b's
    conditional) and is drawn independently of a otherwise."""
    if copy and not np.allclose(Qa, Qb):
        raise ValueError("copying a's predictions changes b's unless both have one conditional")
    independent = Qa[:, :, None] * Qb[:, None, :]
    same = Qa[:, :, None] * np.eye(Qa.shape[1])[None]
    return prior[:, None, None] * ((1 - copy) * independent + copy * same)


def binary_recall_with_mcc(prior, recall_0, mcc) -> float:
    """The recall of class 1 that gives the binary MCC ``mcc`` with class 0's ``recall_0``."""
    from scipy.optimize import brentq

    import cenmcc

    def gap(r1):
        return float(cenmcc.mcc(prior[:, None] * conditional([recall_0, r1]))) - mcc

    return brentq(gap, 0.5, 1.0, xtol=1e-14)


def paired_scenarios() -> dict[str, np.ndarray]:
    """The paired populations, by name: joint tables ``p[t, i, j]`` (see the package docstring).

    Null (equal MCC): equal conditionals, b copying half of a's predictions (balanced binary,
    imbalanced binary, imbalanced five classes); different structures with equal MCC (balanced
    binary, a's recalls 0.95 / 0.75 against b's 0.75 / 0.95). Non-null: the MCC 0.05 apart
    (balanced binary, recalls 0.9 against 0.875; imbalanced binary, b's minority recall lowered
    to give 0.05 less MCC); imbalanced three classes (recall 0.9 against 0.75); Tamura et al.'s
    paired macro-MCC design.
    """
    import cenmcc

    half = np.full(2, 0.5)
    rare = np.array([IMBALANCE, 1.0]) / (IMBALANCE + 1)
    good = conditional([0.95, 0.8])
    lower = binary_recall_with_mcc(rare, 0.95, float(cenmcc.mcc(rare[:, None] * good)) - 0.05)
    prior3 = population(3, "imbalanced", "good").sum(axis=1)
    prior5 = population(5, "imbalanced", "good").sum(axis=1)
    return {
        "null: equal, balanced binary": joint(half, *[conditional([0.85, 0.85])] * 2, COPY),
        "null: equal, imbalanced binary": joint(rare, good, good, COPY),
        "null: equal, imbalanced 5 classes": joint(prior5, *[conditional([0.8] * 5)] * 2, COPY),
        "null: other structure, balanced binary": joint(
            half, conditional([0.95, 0.75]), conditional([0.75, 0.95])
        ),
        "MCC 0.05 apart, balanced binary": joint(
            half, conditional([0.9, 0.9]), conditional([0.875, 0.875])
        ),
        "MCC 0.05 apart, imbalanced binary": joint(rare, good, conditional([0.95, lower])),
        "imbalanced 3 classes, recall 0.9 against 0.75": joint(
            prior3, conditional([0.9] * 3), conditional([0.75] * 3)
        ),
        "tamura2025 paired macro MCC": TAMURA_PAIRED,
    }


#: Sizes of the paired test sets, by scenario name prefix (Tamura et al.'s own sizes for theirs).
PAIRED_N = {"tamura2025": (50, 100, 400, 800), "": (50, 200, 1000)}


def population(K: int, balance: str, classifier: str) -> np.ndarray:
    """The expected confusion matrix ``P`` (proportions) of a population of the grid."""
    if balance == "balanced":
        prior = np.full(K, 1 / K)
    else:
        prior = IMBALANCE ** -(np.arange(K) / (K - 1))
        prior /= prior.sum()
    recall = RECALL[classifier]
    P = np.full((K, K), (1 - recall) / (K - 1))
    np.fill_diagonal(P, recall)
    return prior[:, None] * P
