"""Bookmaker informedness, markedness and the symmetric balanced accuracy (higher is better).

Each class k is seen one-versus-rest with ``t_k`` its true samples (row sum), ``p_k`` its
predicted samples (column sum), ``C_kk`` its correct ones and ``s`` the total. Its informedness
(Youden's J, ``TPR + TNR - 1``) and its markedness (``PPV + NPV - 1``) share the numerator of
the MCC's per-class covariance (Powers 2011, where it is ``dtp``):

    B_k = (s C_kk - t_k p_k) / (t_k (s - t_k)),     M_k = (s C_kk - t_k p_k) / (p_k (s - p_k)).

Transposing ``C`` (truth and prediction exchanged) swaps ``t`` and ``p``, so the markedness of
``C`` is the informedness of ``C^T``, and the symmetric balanced accuracy is the mean of the
balanced accuracy of ``C`` and of ``C^T``.

Precision: computed in float64 from the rounded marginals; not covered by the package's 1e-15
guarantee (which is for the metrics of :mod:`cenmcc._exact`): ``s C_kk - t_k p_k`` can cancel.
"""

from __future__ import annotations

import numpy as np

from ._marginals import Counts
from ._metric import count_metric
from ._undefined import divide


def _weighted_informedness(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sum_k p_k B_k / s`` of counts ``C`` (n, K, K), and where a class with ``p_k > 0`` had
    ``B_k = 0/0`` (filled with 0: ``t_k`` is 0 or ``s``, so the class carries no information
    either way).

    ``B_k`` is taken as ``TPR_k - FPR_k = C_kk / t_k - FP_k / N_k``, with ``FP_k`` the
    off-diagonal sum of column k and ``N_k = s - t_k`` the samples of the other classes: ratios
    of counts, which neither overflow for float counts near the largest float nor round a
    perfect classification (``B_k = 1``, ``sum_k p_k = s``) away from 1. Both denominators are
    exactly 0 where they should be, float counts included: ``N_k`` is set to 0 where every
    other row is empty rather than left to the rounding of ``s - t_k``."""
    C = C.astype(np.float64)
    diag = np.einsum("...ii->...i", C).copy()
    # einsum rather than ndarray.sum: the same additions in the same order, but a reduction
    # over an axis of K < 8 elements costs ndarray.sum about four times as much.
    true, pred = np.einsum("...ij->...i", C), np.einsum("...ij->...j", C)
    np.einsum("...ii->...i", C)[...] = 0.0
    false_positives = np.einsum("...ij->...j", C)
    total = np.einsum("...i->...", true)
    negatives = total[..., None] - true
    negatives[np.count_nonzero(true, axis=-1)[..., None] - (true > 0) == 0] = 0.0
    tpr, never = divide(diag, true, 0.0)
    fpr, always = divide(false_positives, negatives, 0.0)
    per_class = tpr - fpr
    undefined = never | always
    per_class[undefined] = 0.0
    return np.einsum("...k,...k->...", pred, per_class) / total, undefined & (pred > 0)


@count_metric(
    "informedness of a class predicted but never or always true",
    label="informedness",
    bounds=(-1.0, 1.0),
)
def informedness(m: Counts) -> np.ndarray:
    """Bookmaker informedness: the probability that the prediction is informed versus chance.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``BM = sum_k p_k B_k / s`` with ``B_k = (s C_kk - t_k p_k) / (t_k (s - t_k))`` the
        one-versus-rest informedness of class k; in [-1, 1], 1 is perfect classification and 0
        a prediction independent of the truth. For K = 2 both ``B_k`` equal
        ``TPR + TNR - 1`` (Youden's J).

    Notes
    -----
    The dichotomous ``Informedness = Recall + Inverse Recall - 1`` is Powers 2011's. For
    K > 2 the one-versus-rest ``B_k`` are averaged with the prediction bias ``p_k / s`` as
    weights. That weighting is not confirmed against Powers 2011: its multi-class section
    could not be read for this docstring. The one independent statement found, the
    documentation of yardstick's ``j_index`` (tidymodels), says that Powers's multi-class
    informedness, his Eq. (42), is the mean of the ``B_k`` weighted by the true class sizes
    ``t_k / s``, which differs from this function for K > 2 (PyCM gives the ``B_k`` of each
    class and no multi-class form). Both weightings give Youden's J for K = 2 and 0 in
    expectation for a prediction independent of the truth with fixed class sizes (their
    weights depend on the margins only). Where ``t_k`` is 0 or ``s`` (a class never or
    always true) ``B_k`` is 0/0; it is taken as 0 and, where the class is predicted
    (``p_k > 0``, so its weight counts), counted in one ``UndefinedMetricWarning``.

    Examples
    --------
    >>> round(float(informedness([[20, 5], [10, 65]])), 4)  # TPR + TNR - 1 = 0.8 + 65/75 - 1
    0.6667
    """
    return _weighted_informedness(m.C)


@count_metric(
    "markedness of a class true but never or always predicted",
    label="markedness",
    bounds=(-1.0, 1.0),
)
def markedness(m: Counts) -> np.ndarray:
    """Markedness: the probability that the truth is marked by the prediction versus chance.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``MK = sum_k t_k M_k / s`` with ``M_k = (s C_kk - t_k p_k) / (p_k (s - p_k))`` the
        one-versus-rest markedness of class k: the :func:`informedness` of ``C^T``. In
        [-1, 1], 1 is best; for K = 2, ``PPV + NPV - 1``.

    Notes
    -----
    Powers 2011 (``Markedness = Precision + Inverse Precision - 1``); for K > 2 the
    one-versus-rest ``M_k`` weighted by the prevalence ``t_k / s``, the dual of the weighting
    of :func:`informedness` (unconfirmed against Powers 2011, see there). A class predicted
    never or always (``p_k`` 0 or ``s``) that is true (``t_k > 0``) has a 0/0 ``M_k``, taken
    as 0 and counted in one ``UndefinedMetricWarning``. For K = 2, ``MCC^2 = BM MK``
    (Powers 2011).

    Examples
    --------
    >>> round(float(markedness([[20, 5], [10, 65]])), 4)  # 20/30 + 65/70 - 1
    0.5952
    """
    return _weighted_informedness(np.swapaxes(m.C, -1, -2))


@count_metric(
    "recall or precision of an absent class",
    fill="excluded",
    label="symmetric balanced accuracy",
)
def symmetric_balanced_accuracy(m: Counts) -> np.ndarray:
    """Symmetric balanced accuracy: the mean of the balanced accuracies of ``C`` and ``C^T``.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``SBA = (1/2) [(1/K_t) sum_{t_k > 0} C_kk / t_k + (1/K_p) sum_{p_k > 0} C_kk / p_k]``,
        the mean of the macro-averaged recall and the macro-averaged precision, each over the
        ``K_t`` classes that are true and the ``K_p`` classes that are predicted. In [0, 1],
        1 is best; unchanged when ``C`` is transposed. For K = 2, ``(TPR + TNR + PPV + NPV) / 4``.

    Notes
    -----
    Gösgens, Zhiyanov, Tikhonov & Prokhorenkova 2021 (arXiv 2201.09044) define SBA as
    the average of the balanced accuracy and of the balanced accuracy with truth and prediction
    exchanged (binary: the mean of TPR, TNR, PPV and NPV); for K > 2 we average over the classes
    present on each side, as :func:`cenmcc.balanced_accuracy` does, and the call emits one
    ``UndefinedMetricWarning`` counting the recalls and precisions left out.

    Examples
    --------
    >>> round(float(symmetric_balanced_accuracy([[20, 5], [10, 65]])), 4)
    0.8155
    """
    means, missing = [], []
    for diag, size in (m.by_true_class, m.by_predicted_class):
        present = size > 0
        ratios, _ = divide(diag, size, 0.0)
        means.append(np.einsum("...k->...", ratios) / np.count_nonzero(present, axis=-1))
        missing.append(~present)
    return (means[0] + means[1]) / 2, np.concatenate(missing, axis=-1)
