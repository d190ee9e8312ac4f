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


FULL = {"K": (2, 3, 5, 10), "n": (50, 200, 1000, 5000), "test_sets": 2000}


REDUCED = {"K": (2, 3), "n": (50, 200, 1000), "test_sets": 2000}


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
