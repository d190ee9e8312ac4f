"""Bookmaker informedness, markedness and the symmetric balanced accuracy (higher is better).

Each class k is seen one-versus-rest with ``t_k`` its true samples (row sum), ``p_k`` its
predicted samples (column sum), ``C_kk`` its correct ones and ``s`` the total. Its informedness
(Youden's J, ``TPR + TNR - 1``) and its markedness (``PPV + NPV - 1``) share the numerator of
the MCC's per-class covariance (Powers 2011, where it is ``dtp``):

    B_k = (s C_kk - t_k p_k) / (t_k (s - t_k)),     M_k = (s C_kk - t_k p_k) / (p_k (s - p_k)).

The multi-class informedness weights the ``B_k`` by the prevalence ``t_k / s`` (Powers 2011,
Eq. (42)) and the markedness weights the ``M_k`` by the bias ``p_k / s`` (Eq. (43)). Transposing
``C`` (truth and prediction exchanged) swaps ``t`` and ``p``, so the markedness of ``C`` is the
informedness of ``C^T``, and the symmetric balanced accuracy is the mean of the balanced
accuracy of ``C`` and of ``C^T``.
"""

from __future__ import annotations

import numpy as np

from ._marginals import Counts
from ._metric import count_metric
from ._undefined import divide


def _weighted_informedness(m: Counts, rest: str) -> tuple[np.ndarray, np.ndarray]:
    """``sum_k (t_k / s) B_k = sum_k (s C_kk - t_k p_k) / (s (s - t_k))`` of a block
    (``rest="true_rest"``; ``"pred_rest"`` exchanges ``t`` and ``p``: the markedness), and
    where a term is 0/0.

    The weight ``t_k / s`` cancels the ``t_k`` of ``B_k``'s denominator, so each term is a
    ratio of two exact integers, rounded once, and the sum is 0 exactly where the exact sum
    is (:meth:`cenmcc._exact.ExactSums.class_ratio_sum`): a multiple of the counts gives the
    same bits. A class never true has weight 0 and adds 0; the one 0/0 is a class always true
    (``t_k = s``: every sample of one class), filled with 0.
    """
    return m.exact.class_ratio_sum("covariance", rest)


@count_metric(
    "informedness of a class always true",
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
        ``BM = sum_k (t_k / s) B_k`` with ``B_k = (s C_kk - t_k p_k) / (t_k (s - t_k))`` the
        one-versus-rest informedness of class k, weighted by its prevalence; in [-1, 1], 1 is
        perfect classification and 0 a prediction independent of the truth. For K = 2 both
        ``B_k`` equal ``TPR + TNR - 1`` (Youden's J).

    Notes
    -----
    Powers (2011), Eq. (42): the multi-class informedness is the mean of the one-versus-rest
    informedness weighted by the prevalence ``t_k / s`` (the dichotomous form
    ``Recall + Inverse Recall - 1`` is his too). The multi-class section of the paper was not
    available to us; two independent secondary sources agree on Eq. (42): the documentation
    of yardstick's ``j_index`` (tidymodels), whose prevalence-weighted J-index is "multiclass
    informedness as defined in Powers (2011), equation (42)", and a summary of the paper's
    equations (``B = sum_l Prev(l) B(l)``). PyCM gives each class's ``B_k`` (``BM``) and no
    multi-class form.

    Each term ``(t_k / s) B_k = (s C_kk - t_k p_k) / (s (s - t_k))`` is the ratio of two exact
    integers rounded once, and the terms are summed in float64: within about ``K`` units in
    the last place of the exact value (0 exactly where it is 0), and a multiple ``a C`` of
    integer counts gives exactly the value of ``C``. A class never true (``t_k = 0``) has
    weight 0 and adds 0. Where one class is always true (``t_k = s``) its ``B_k`` is 0/0 with
    weight 1: the informedness is taken as 0 and counted in one ``UndefinedMetricWarning``.

    Examples
    --------
    >>> round(float(informedness([[20, 5], [10, 65]])), 4)  # TPR + TNR - 1 = 0.8 + 65/75 - 1
    0.6667
    """
    return _weighted_informedness(m, "true_rest")


@count_metric(
    "markedness of a class always predicted",
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
        ``MK = sum_k (p_k / s) M_k`` with ``M_k = (s C_kk - t_k p_k) / (p_k (s - p_k))`` the
        one-versus-rest markedness of class k, weighted by its bias: the :func:`informedness`
        of ``C^T``. In [-1, 1], 1 is best; for K = 2, ``PPV + NPV - 1``.

    Notes
    -----
    Powers (2011), Eq. (43): the one-versus-rest markedness weighted by the bias ``p_k / s``
    (the dichotomous ``Markedness = Precision + Inverse Precision - 1`` is his too); the
    dual of Eq. (42) (:func:`informedness`, where the sources are named). Computed as the
    informedness is, with ``t`` and ``p`` exchanged: a class never predicted adds 0, and
    where one class is always predicted (``p_k = s``) the markedness is taken as 0 and
    counted in one ``UndefinedMetricWarning``. For K = 2, ``MCC^2 = BM MK`` (Powers 2011).

    Examples
    --------
    >>> round(float(markedness([[20, 5], [10, 65]])), 4)  # 20/30 + 65/70 - 1
    0.5952
    """
    return _weighted_informedness(m, "pred_rest")


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
