"""Precision, recall and F1 per class and averaged (higher is better, best value 1).

Two different quantities are both called "macro F1" in the literature:

- :func:`f1_score` with ``average="macro"``: the mean of the per-class F1 scores
  (scikit-learn's ``f1_score(average="macro")``);
- :func:`f1_of_macro_averages`: the harmonic mean of macro-precision and macro-recall
  (Grandini et al. 2020, Eq. (16); the blog tutorial's ``get.macro.f1``).

They differ in general; both are provided, under names that say which.
"""

from __future__ import annotations

import numpy as np

from ._marginals import Counts
from ._metric import count_metric
from ._undefined import divide

AVERAGES = (None, "micro", "macro", "weighted")


def _check_average(m: Counts, average, zero_division: float) -> dict:
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {AVERAGES}, got {average!r}")
    return {"average": average, "zero_division": zero_division}


def _averaged(m: Counts, num, den, average, zero_division: float):
    """The per-class ratios ``num / den`` (``C_kk / p_k``, ``C_kk / t_k`` or the F1), averaged
    as asked; 0/0 filled, and where (in a weighted average, only where ``t_k > 0``).

    Micro-averaging pools the counts: sum_k C_kk over sum_k p_k (or t_k, or both), which is the
    accuracy for single-label data.
    """
    if average == "micro":
        return m.correct / m.total, None
    values, _ = divide(num, den, zero_division)
    undefined = den == 0
    if average == "macro":
        return np.einsum("...k->...", values) / m.n_classes, undefined
    if average == "weighted":  # by support t_k: a class without true samples weighs 0
        return np.einsum("...k,...k->...", values, m.true) / m.total, undefined & (m.true > 0)
    return values, undefined


_PARAMETERS = """
    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    average : {None, "micro", "macro", "weighted"}, default None
        None: one value per class; "micro": pooled over all samples (equal to the accuracy for
        single-label multi-class data); "macro": unweighted mean over the K classes;
        "weighted": mean weighted by the number of true samples of each class.
    zero_division : float, default 0.0
        Value of a class whose ratio is 0/0; counted in one ``UndefinedMetricWarning`` per call.
        Every class of ``C`` takes part in the averages, including empty ones; with
        ``"weighted"`` a class without true samples has weight 0, and its 0/0 is not counted.
"""


@count_metric("precision", prepare=_check_average)
def precision(m: Counts, average=None, *, zero_division: float = 0.0) -> np.ndarray:
    return _averaged(m, *m.by_predicted_class, average, zero_division)


@count_metric("recall", prepare=_check_average)
def recall(m: Counts, average=None, *, zero_division: float = 0.0) -> np.ndarray:
    return _averaged(m, *m.by_true_class, average, zero_division)


@count_metric("F1", prepare=_check_average)
def f1_score(m: Counts, average=None, *, zero_division: float = 0.0) -> np.ndarray:
    return _averaged(m, 2 * m.by_class.diag, m.by_class.d, average, zero_division)


precision.__doc__ = f"""Precision: the fraction of samples predicted as class k that are of class k.
{_PARAMETERS}
    Returns
    -------
    ndarray, shape (..., K) or (...)
        ``P_k = C_kk / p_k`` (``p_k`` column sum) or its average; in [0, 1], 1 is best.

    Notes
    -----
    Eqs. (1), (12), (14), (17), Grandini et al. 2020. 0/0 when class k is never predicted.

    Examples
    --------
    >>> C = [[20, 5], [10, 15]]  # Grandini et al., Fig. 2
    >>> precision(C).round(4).tolist()
    [0.6667, 0.75]
    """

recall.__doc__ = f"""Recall: the fraction of the samples of class k that are predicted as class k.
{_PARAMETERS}
    Returns
    -------
    ndarray, shape (..., K) or (...)
        ``R_k = C_kk / t_k`` (``t_k`` row sum) or its average; in [0, 1], 1 is best.

    Notes
    -----
    Eqs. (2), (13), (15), (18), Grandini et al. 2020. 0/0 when class k has no true samples.

    Examples
    --------
    >>> C = [[20, 5], [10, 15]]  # Grandini et al., Fig. 2
    >>> recall(C).round(4).tolist()
    [0.8, 0.6]
    """

f1_score.__doc__ = f"""F1 score: the harmonic mean of precision and recall of each class.
{_PARAMETERS}
    Returns
    -------
    ndarray, shape (..., K) or (...)
        ``F1_k = 2 C_kk / (t_k + p_k)`` or its average; in [0, 1], 1 is best. ``average="macro"``
        is the mean of the per-class F1 scores (scikit-learn's convention); for the harmonic mean
        of macro-precision and macro-recall see :func:`f1_of_macro_averages`.

    Notes
    -----
    Eqs. (9), (19), Grandini et al. 2020. ``2 C_kk / (t_k + p_k)`` equals ``2PR/(P+R)`` wherever
    that is defined, and is 0/0 only for a class with neither true nor predicted samples.

    Examples
    --------
    >>> C = [[20, 5], [10, 15]]  # Grandini et al., Fig. 2
    >>> f1_score(C).round(4).tolist()
    [0.7273, 0.6667]
    """


@count_metric("precision/recall/F1", label="F1 of macro averages")
def f1_of_macro_averages(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
    """Harmonic mean of macro-precision and macro-recall ("macro F1" of the white paper).

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        Value of a per-class precision or recall that is 0/0, and of the result when both macro
        averages are 0; all filled values are counted in one ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray, shape (...)
        ``2 P_macro R_macro / (P_macro + R_macro)``, in [0, 1]; 1 is best.

    Notes
    -----
    Eqs. (14)-(16), Grandini et al. 2020 (Eq. (16) as printed has ``P^-1 + R^-1`` in the
    denominator, a typo for ``P + R``: the text calls it the harmonic mean); the blog tutorial's
    ``F1_macro``. Not the mean of per-class F1 scores: see :func:`f1_score`.

    Examples
    --------
    >>> C = [[50, 37, 24, 39], [10, 480, 5, 3], [14, 10, 765, 1], [0, 2, 9, 101]]  # Fig. 4
    >>> round(float(f1_of_macro_averages(C)), 4)
    0.8005
    """
    prec, undefined_p = divide(*m.by_predicted_class, zero_division)
    rec, undefined_r = divide(*m.by_true_class, zero_division)
    p, r = prec.mean(axis=-1), rec.mean(axis=-1)
    f1, undefined_f = divide(2 * p * r, p + r, zero_division)
    # One row per matrix (the audit reads which matrices had a 0/0 from it, row by row).
    return f1, np.concatenate([undefined_p, undefined_r, undefined_f[..., None]], axis=-1)
