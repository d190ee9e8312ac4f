"""The blog tutorial's iris experiment, rebuilt: Gaussian naive Bayes on random 90/60 splits.

The tutorial splits R's ``iris`` with ``set.seed(12345); sample(150, 0.6 * 150)`` and fits klaR's
``NaiveBayes`` (Gaussian class-conditional densities, the default ``usekernel = FALSE``). R's
random split cannot be replayed here, so the printed values are compared with the spread of the
same method over many seeded random splits of the same size.

The model follows klaR's defaults: class priors from the training frequencies, and for each class
and feature a normal density with the class mean and the sample standard deviation (``n - 1``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

#: Fisher's iris data, shipped with paper_checks (scikit-learn is a test-only dependency).
IRIS_CSV = Path(__file__).resolve().parent / "iris.csv"
SPECIES = ("setosa", "versicolor", "virginica")
N_TRAIN = 90  # 0.6 * nrow(iris)


@cache
def load_iris() -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)``: the 150 x 4 measurements and the species index (0, 1, 2 in :data:`SPECIES`)."""
    rows = np.genfromtxt(IRIS_CSV, delimiter=",", comments="#", skip_header=3, dtype=str)
    X = rows[:, :4].astype(np.float64)
    y = np.searchsorted(np.array(SPECIES), rows[:, 4])
    return X, y


def gaussian_naive_bayes(X_train, y_train, X_test, n_classes: int) -> np.ndarray:
    """Posterior class probabilities of a Gaussian naive Bayes (klaR's defaults).

    Parameters
    ----------
    X_train : ndarray, shape (n_train, d)
    y_train : ndarray of int, shape (n_train,)
        Class indices in ``0 .. n_classes - 1``; every class needs at least two samples.
    X_test : ndarray, shape (n_test, d)
    n_classes : int

    Returns
    -------
    ndarray, shape (n_test, n_classes)
        Rows sum to 1.
    """
    onehot = np.eye(n_classes)[y_train]  # (n_train, K)
    count = onehot.sum(axis=0)
    if np.any(count < 2):
        raise ValueError(f"every class needs two training samples, got counts {count}")
    mean = onehot.T @ X_train / count[:, None]  # (K, d)
    var = onehot.T @ X_train**2 / count[:, None] - mean**2
    var *= count[:, None] / (count[:, None] - 1)  # sample variance, as R's sd()
    z = (X_test[:, None, :] - mean) ** 2 / var  # (n_test, K, d)
    log_like = -0.5 * (z + np.log(2 * np.pi * var)).sum(axis=-1) + np.log(count / count.sum())
    log_like -= log_like.max(axis=1, keepdims=True)
    posterior = np.exp(log_like)
    return posterior / posterior.sum(axis=1, keepdims=True)


def random_splits(seed: int, n_splits: int):
    """``n_splits`` random 90/60 splits of iris: yields ``(train index, test index)``."""
    rng = np.random.default_rng(seed)
    X, _ = load_iris()
    for _ in range(n_splits):
        order = rng.permutation(len(X))
        yield order[:N_TRAIN], order[N_TRAIN:]
