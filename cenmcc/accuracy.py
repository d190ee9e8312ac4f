"""Accuracy and its balanced and weighted variants (higher is better, best value 1)."""

from __future__ import annotations

import functools

import numpy as np

from ._marginals import Counts
from ._metric import count_metric
from ._undefined import divide
from ._validation import check_weights


@count_metric(label="accuracy")
def accuracy(m: Counts) -> np.ndarray:
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
    Eqs. (3)-(4), Grandini et al. 2020; Jurman, Riccadonna & Furlanello 2012, Methods, first
    display. Never undefined: a matrix without samples raises ``ValueError``.

    Examples
    --------
    >>> C = [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]]  # Grandini et al., Fig. 1
    >>> round(float(accuracy(C)), 4)
    0.7115
    """
    return m.correct / m.total, None


@count_metric("recall of a class without true samples", fill="excluded", label="balanced accuracy")
def balanced_accuracy(m: Counts) -> np.ndarray:
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
    Eqs. (5)-(6), Grandini et al. 2020. The recall of a class without true samples is 0/0; such a
    class has nothing to balance and is left out of the mean (as scikit-learn's
    ``balanced_accuracy_score`` does), and the call emits one ``UndefinedMetricWarning`` counting
    the classes left out.

    Examples
    --------
    >>> C = [[5, 23, 17, 17], [10, 540, 21, 14], [166, 96, 436, 110], [1, 2, 5, 87]]  # Fig. 3
    >>> round(float(balanced_accuracy(C)), 3)
    0.615
    """
    diag, true = m.by_true_class
    present = true > 0
    recalls, _ = divide(diag, true, 0.0)
    return np.einsum("...k->...", recalls) / np.count_nonzero(present, axis=-1), ~present


def _weights_per_matrix(m: Counts, weights, zero_division: float, *, sum_to_one: bool) -> dict:
    """The options of :func:`weighted_accuracy` (``sum_to_one``) and
    :func:`balanced_accuracy_weighted` with the class weights checked and broadcast to one row
    per matrix of the flattened stack ``m``; the latter's default None stays None."""
    if weights is None and not sum_to_one:
        return {"weights": None, "zero_division": zero_division}
    weights = check_weights(weights, m.n_classes, sum_to_one=sum_to_one)
    shape = (*m.stack_shape, m.n_classes)
    try:
        weights = np.broadcast_to(weights, shape).reshape(-1, m.n_classes)
    except ValueError:
        raise ValueError(
            f"weights of shape {weights.shape} do not broadcast to the stack's shape {shape}"
        ) from None
    return {"weights": weights, "zero_division": zero_division}


@count_metric("recall", prepare=functools.partial(_weights_per_matrix, sum_to_one=True))
def weighted_accuracy(m: Counts, weights, *, zero_division: float = 0.0) -> np.ndarray:
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
    return _weighted_recall_sum(m, weights[m.span], zero_division)


@count_metric(
    "recall",
    prepare=functools.partial(_weights_per_matrix, sum_to_one=False),
    label="weighted balanced accuracy",
)
def balanced_accuracy_weighted(
    m: Counts, weights=None, *, zero_division: float = 0.0
) -> np.ndarray:
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
    w = m.true / m.total[..., None] if weights is None else weights[m.span]
    values, undefined = _weighted_recall_sum(m, w, zero_division)
    return values / np.einsum("...k->...", w), undefined


def _weighted_recall_sum(m: Counts, w: np.ndarray, zero_division: float):
    """``sum_k w_k R_k``, and where a recall was 0/0 with a non-zero weight (a 0/0 recall is
    filled, and counted only there)."""
    diag, true = m.by_true_class
    recalls, _ = divide(diag, true, zero_division)
    return np.einsum("...k->...", w * recalls), (true == 0) & (w > 0)
