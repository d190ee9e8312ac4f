"""Claims of the blog post *Multiclass Matthew's Correlation Coefficient*.

The post derives the NumPy code found in Mead-Baseline and scikit-learn from the covariance
definition of the multi-class MCC and reduces it to the binary MCC. Its code is transcribed here
(:func:`post_mcc`) and checked against the covariance definition computed from one-hot label
matrices, independently of cenmcc.
"""

from __future__ import annotations

import numpy as np

import cenmcc

from .declarations import load
from .record import Measured
from .search import adversarial_matrices, describe, largest_gap, search_stacks
from .sources import FIG4, MCCPOST

#: Seed and size of the random label sets and matrices.
SEED, N_RANDOM = 1975, 300


def post_mcc(cm) -> float:
    """The post's ``mcc`` on one confusion matrix (rows = gold labels), line by line."""
    samples = np.sum(cm)
    correct = np.trace(cm)
    y = np.sum(cm, axis=1, dtype=np.float64)
    x = np.sum(cm, axis=0, dtype=np.float64)
    cov_x_y = correct * samples - np.dot(x, y)
    cov_y_y = samples * samples - np.dot(y, y)
    cov_x_x = samples * samples - np.dot(x, x)
    denom = np.sqrt(cov_x_x * cov_y_y)
    denom = denom if denom != 0.0 else 1.0
    return cov_x_y / denom


def covariance_mcc(gold, pred, K: int) -> float:
    """``cov(X, Y) / sqrt(cov(X, X) cov(Y, Y))`` with one-hot X (predictions), Y (gold) and
    ``cov(A, B) = sum_k w_k cov(A_k, B_k)``, ``w_k = 1/K`` (NaN when 0/0)."""
    X = np.eye(K)[pred]
    Y = np.eye(K)[gold]

    def cov(A, B):
        return ((A - A.mean(axis=0)) * (B - B.mean(axis=0))).mean(axis=0).sum() / K

    den = np.sqrt(cov(X, X) * cov(Y, Y))
    return cov(X, Y) / den if den > 0 else np.nan


def _label_sets():
    """Random (gold, predicted, K) label sets: any K from 2 to 6, 1 to 200 samples."""
    rng = np.random.default_rng(SEED)
    for _ in range(N_RANDOM):
        K = int(rng.integers(2, 7))
        n = int(rng.integers(1, 201))
        gold = rng.integers(0, K, size=n)
        agree = rng.random(n) < rng.random()  # a classifier right on a random share
        pred = np.where(agree, gold, rng.integers(0, K, size=n))
        yield gold, pred, K


def code_equals_covariance():
    gaps, core_gaps = [], []
    for gold, pred, K in _label_sets():
        reference = covariance_mcc(gold, pred, K)
        if np.isnan(reference):
            continue
        C = cenmcc.confusion_matrix(gold, pred, labels=np.arange(K))
        gaps.append(abs(post_mcc(C) - reference))
        core_gaps.append(abs(cenmcc.mcc(C) - reference))
    return Measured(
        max(gaps),
        f"max |post's code - covariance definition| over {len(gaps)} random label sets with a "
        f"defined MCC (K 2-6, up to 200 samples, seed {SEED}); cenmcc.mcc differs from the "
        f"covariance definition by at most {max(core_gaps):.1e}",
    )


def binary_reduction():
    def binary(C):
        (tp, fn), (fp, tn) = np.asarray(C, dtype=np.float64)
        return (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))

    stack = search_stacks(SEED, N_RANDOM, sizes=(2,))[2]
    gaps = [abs(post_mcc(C) - binary(C)) for C in stack if np.all(C.sum(0)) and np.all(C.sum(1))]
    return Measured(
        max(gaps),
        "max |post's code - binary MCC| over the defined 2 x 2 matrices of "
        + describe(SEED, N_RANDOM, (2,)),
    )


def binary_is_pearson_of_labels():
    gaps = []
    for gold, pred, _ in _label_sets():
        gold, pred = gold % 2, pred % 2  # two classes
        if gold.std() == 0 or pred.std() == 0:
            continue
        gaps.append(abs(covariance_mcc(gold, pred, 2) - np.corrcoef(gold, pred)[0, 1]))
    return Measured(
        max(gaps),
        f"max |covariance MCC with K = 2 - Pearson correlation of the 0/1 label vectors| over "
        f"{len(gaps)} random binary label sets",
    )


def prose_row_sums_axis():
    C = FIG4.C
    return Measured(
        np.abs(np.sum(C, axis=0) - C.sum(axis=1)).max(),
        "max |np.sum(C, axis=0) - row sums| on Grandini et al.'s Fig. 8 matrix (rows = gold)",
    )


def swap_symmetry():
    stacks = search_stacks(SEED, N_RANDOM)

    def transposed(C):
        return np.array([post_mcc(M.T) for M in C])

    def straight(C):
        return np.array([post_mcc(M) for M in C])

    return Measured(
        largest_gap(stacks, straight, transposed),
        "max |code(C) - code(C^T)| (x and y swapped) over " + describe(SEED, N_RANDOM),
    )


def zero_denominator_fallback():
    numerators = []
    for K in (2, 3, 5, 8):
        for C in adversarial_matrices(K):
            samples, x, y = C.sum(), C.sum(axis=0), C.sum(axis=1)
            if (samples**2 - x @ x) * (samples**2 - y @ y) == 0:
                numerators.append(abs(np.trace(C) * samples - x @ y))
    return Measured(
        max(numerators),
        f"max |cov_x_y| over the {len(numerators)} adversarial matrices (K = 2, 3, 5, 8) whose "
        "denominator is 0",
    )


def _src(where: str) -> str:
    return f"{MCCPOST}, {where}"


#: The claims declared in mccpost.toml, each measured by the check it names.
RECORDS = load(__name__)
