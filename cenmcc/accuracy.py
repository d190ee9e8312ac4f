"""Accuracy and its balanced and weighted variants (higher is better, best value 1)."""

from __future__ import annotations

import numpy as np

from ._marginals import Counts, Kernel, Partial, as_counts, run, takes_counts
from ._undefined import divide
from ._validation import check_weights

#: The accuracy ``c / s`` of each matrix of a block; never undefined.
ACCURACY = Kernel(lambda m: Partial(m.correct / m.total))


@takes_counts
def accuracy(C) -> np.ndarray:
    """Accuracy: the fraction of correctly classified samples.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class; integer or weighted
        (float) counts.

    Returns
    -------
    ndarray, shape (...)
        ``ACC = sum_k C_kk / sum_ij C_ij``, in [0, 1]; 1 is perfect classification.

    Notes
    -----
    Jurman, Riccadonna & Furlanello (2012), Methods, first display; Grandini et al. (2020),
    Eqs. (3)-(4). Never undefined: a matrix without samples raises ``ValueError``.

    Examples
    --------
    >>> C = [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]]  # Grandini et al., Fig. 1
    >>> round(float(accuracy(C)), 4)
    0.7115
    """
    return run(C, ACCURACY)


@takes_counts
def balanced_accuracy(C) -> np.ndarray:
    """Balanced accuracy: the mean recall over the true classes.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``(1/K') sum_k C_kk / t_k`` over the K' classes with ``t_k > 0``; in [0, 1], 1 is best.

    Notes
    -----
    Grandini et al. (2020), Eqs. (5)-(6). The recall of a class without true samples is 0/0; such a
    class has nothing to balance and is left out of the mean (as scikit-learn's
    ``balanced_accuracy_score`` does), and the call emits one ``UndefinedMetricWarning`` counting
    the classes left out.

    Examples
    --------
    >>> C = [[5, 23, 17, 17], [10, 540, 21, 14], [166, 96, 436, 110], [1, 2, 5, 87]]  # Fig. 3
    >>> round(float(balanced_accuracy(C)), 3)
    0.615
    """
    return run(C, BALANCED_ACCURACY)


def _balanced_accuracy(m: Counts) -> Partial:
    diag, true = m.by_true_class
    present = true > 0
    recalls, _ = divide(diag, true, 0.0)
    return Partial(
        np.einsum("...k->...", recalls) / np.count_nonzero(present, axis=-1),
        int(np.count_nonzero(~present)),
        present.size,
    )


#: The balanced accuracy; a class without true samples is left out of the mean, and counted.
BALANCED_ACCURACY = Kernel(
    _balanced_accuracy, "recall of a class without true samples", fill="excluded"
)


@takes_counts
def weighted_accuracy(C, weights, *, zero_division: float = 0.0) -> np.ndarray:
    """Weighted accuracy: per-class recalls averaged with class weights that sum to 1.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    weights : array_like, shape (..., K)
        Non-negative class weights summing to 1 (within 1e-8).
    zero_division : float, default 0.0
        Recall used for a class without true samples (0/0); counted in one warning.

    Returns
    -------
    ndarray, shape (...)
        ``sum_k w_k C_kk / t_k``, in [0, 1]; 1 is best. Uniform weights give the balanced accuracy.

    Notes
    -----
    The blog tutorial *Performance measures for multi-class problems* prints
    ``sum_k w_i sum_{x: g(x)=k} I(g(x) = ĝ(x))``: taken literally this sums weighted counts of
    correct predictions, not weighted per-class accuracies, and its R code
    (``calculate.w.accuracy``) checks the weights but then returns the plain mean of the per-class
    accuracies. We implement the stated intent: the weights multiply per-class accuracies
    (recalls).

    Examples
    --------
    >>> C = [[2, 1], [1, 6]]
    >>> round(float(weighted_accuracy(C, [0.5, 0.5])), 4)
    0.7619
    """
    m = as_counts(C)
    w = _per_matrix(check_weights(weights, m.n_classes, sum_to_one=True), m)
    kernel = Kernel(lambda b: _weighted_recall_sum(b, w[b.span], zero_division), "recall")
    return run(m, kernel._replace(fill=zero_division))


@takes_counts
def balanced_accuracy_weighted(C, weights=None, *, zero_division: float = 0.0) -> np.ndarray:
    """Balanced accuracy weighted (Grandini et al. 2020, Sec. 3.1): the weighted mean of recalls.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    weights : array_like, shape (..., K), optional
        Non-negative class weights with a positive sum. Default: the class frequencies
        ``w_k = t_k / s`` of the true classes, as the white paper proposes.
    zero_division : float, default 0.0
        Recall used for a class without true samples (0/0); counted in one warning.

    Returns
    -------
    ndarray, shape (...)
        ``sum_k w_k R_k / W`` with ``R_k = C_kk / t_k`` and ``W = sum_k w_k``; in [0, 1], 1 is best.

    Notes
    -----
    What the white paper prints does not define a weighted mean, so we implement what its text
    describes ("multiplying each recall by the weight of its class", and "the probability to
    correctly predict a given unit"): ``sum_k w_k R_k / W``.

    - Eq. (7) prints ``sum_k TP_k / (Total_row_k * w_k) / (K W)``: it *divides* each recall by
      its weight, contradicting both the text and Eq. (8).
    - Eq. (8) multiplies by the weight but keeps the balanced-accuracy factor ``1/K`` next to
      ``W``: ``sum_k w_k R_k / (K W)``. Then perfect classification scores ``1/K``, and with the
      proposed frequency weights the value is exactly ``ACC / K``.

    With frequency weights our value equals the accuracy; with uniform weights it equals the
    balanced accuracy.

    Examples
    --------
    >>> C = [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]]  # Grandini et al., Fig. 1
    >>> round(float(balanced_accuracy_weighted(C)), 4)  # frequency weights: the accuracy
    0.7115
    """
    m = as_counts(C)
    w = None
    if weights is not None:
        w = _per_matrix(check_weights(weights, m.n_classes, sum_to_one=False), m)
    return run(m, balanced_accuracy_weighted_kernel(zero_division, w))


def balanced_accuracy_weighted_kernel(zero_division: float, w: np.ndarray | None = None) -> Kernel:
    """:func:`balanced_accuracy_weighted` with the class weights ``w`` of each matrix of the
    flattened stack (checked), or the class frequencies ``t_k / s`` when ``w`` is None."""

    def compute(block: Counts) -> Partial:
        wb = block.true / block.total[..., None] if w is None else w[block.span]
        part = _weighted_recall_sum(block, wb, zero_division)
        return part._replace(values=part.values / np.einsum("...k->...", wb))

    return Kernel(compute, "recall", zero_division)


def _per_matrix(w: np.ndarray, m: Counts) -> np.ndarray:
    """Class weights ``(..., K)`` broadcast to one row per matrix of the flattened stack."""
    shape = (*m.stack_shape, m.n_classes)
    try:
        return np.broadcast_to(w, shape).reshape(-1, m.n_classes)
    except ValueError:
        raise ValueError(
            f"weights of shape {w.shape} do not broadcast to the stack's shape {shape}"
        ) from None


def _weighted_recall_sum(m: Counts, w: np.ndarray, zero_division: float) -> Partial:
    """``sum_k w_k R_k``; a 0/0 recall is filled, and counted only where its weight is non-zero."""
    diag, true = m.by_true_class
    recalls, _ = divide(diag, true, zero_division)
    relevant = (true == 0) & (w > 0)
    return Partial(
        np.einsum("...k->...", w * recalls), int(np.count_nonzero(relevant)), relevant.size
    )
