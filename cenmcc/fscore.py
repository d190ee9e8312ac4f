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

from ._marginals import Counts, Kernel, Partial, run, takes_counts
from ._undefined import divide

AVERAGES = (None, "micro", "macro", "weighted")


def _precision(m: Counts) -> tuple[np.ndarray, np.ndarray]:
    return m.by_predicted_class


def _recall(m: Counts) -> tuple[np.ndarray, np.ndarray]:
    return m.by_true_class


def _f1(m: Counts) -> tuple[np.ndarray, np.ndarray]:
    return 2 * m.by_class.diag, m.by_class.d


#: The per-class ratio ``(numerator, denominator)`` of each score, by the name its warning uses.
_RATIOS = {"precision": _precision, "recall": _recall, "F1": _f1}


def ratio_kernel(what: str, average, zero_division: float) -> Kernel:
    """Per-class precision, recall or F1 (``what``), averaged as asked; 0/0 filled and counted.

    Micro-averaging pools the counts: sum_k C_kk over sum_k p_k (or t_k, or both), which is the
    accuracy for single-label data.
    """
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {AVERAGES}, got {average!r}")
    ratio = _RATIOS[what]

    def compute(m: Counts) -> Partial:
        if average == "micro":
            return Partial(m.correct / m.total)
        num, den = ratio(m)
        values, _ = divide(num, den, zero_division)
        undefined = den == 0
        if average == "macro":
            averaged = np.einsum("...k->...", values) / m.n_classes
        elif average == "weighted":  # by support t_k: a class without true samples weighs 0
            averaged = np.einsum("...k,...k->...", values, m.true) / m.total
            undefined &= m.true > 0
        else:
            averaged = values
        return Partial(averaged, int(np.count_nonzero(undefined)), values.size)

    return Kernel(compute, what, zero_division)


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


@takes_counts
def precision(C, average=None, *, zero_division: float = 0.0) -> np.ndarray:
    return run(C, ratio_kernel("precision", average, zero_division))


@takes_counts
def recall(C, average=None, *, zero_division: float = 0.0) -> np.ndarray:
    return run(C, ratio_kernel("recall", average, zero_division))


@takes_counts
def f1_score(C, average=None, *, zero_division: float = 0.0) -> np.ndarray:
    return run(C, ratio_kernel("F1", average, zero_division))


precision.__doc__ = f"""Precision: the fraction of samples predicted as class k that are of class k.
{_PARAMETERS}
    Returns
    -------
    ndarray, shape (..., K) or (...)
        ``P_k = C_kk / p_k`` (``p_k`` column sum) or its average; in [0, 1], 1 is best.

    Notes
    -----
    Grandini et al. (2020), Eqs. (1), (12), (14), (17). 0/0 when class k is never predicted.

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
    Grandini et al. (2020), Eqs. (2), (13), (15), (18). 0/0 when class k has no true samples.

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
    Grandini et al. (2020), Eqs. (9), (19). ``2 C_kk / (t_k + p_k)`` equals ``2PR/(P+R)`` wherever
    that is defined, and is 0/0 only for a class with neither true nor predicted samples.

    Examples
    --------
    >>> C = [[20, 5], [10, 15]]  # Grandini et al., Fig. 2
    >>> f1_score(C).round(4).tolist()
    [0.7273, 0.6667]
    """


@takes_counts
def f1_of_macro_averages(C, *, zero_division: float = 0.0) -> np.ndarray:
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
    Grandini et al. (2020), Eqs. (14)-(16) (Eq. (16) as printed has ``P^-1 + R^-1`` in the
    denominator, a typo for ``P + R``: the text calls it the harmonic mean); the blog tutorial's
    ``F1_macro``. Not the mean of per-class F1 scores: see :func:`f1_score`.

    Examples
    --------
    >>> C = [[50, 37, 24, 39], [10, 480, 5, 3], [14, 10, 765, 1], [0, 2, 9, 101]]  # Fig. 4
    >>> round(float(f1_of_macro_averages(C)), 4)
    0.8005
    """
    return run(C, f1_of_macro_averages_kernel(zero_division))


def f1_of_macro_averages_kernel(zero_division: float) -> Kernel:
    """:func:`f1_of_macro_averages` of a block, every 0/0 filled with ``zero_division``."""

    def compute(m: Counts) -> Partial:
        prec, n_p = divide(*_precision(m), zero_division)
        rec, n_r = divide(*_recall(m), zero_division)
        p, r = prec.mean(axis=-1), rec.mean(axis=-1)
        f1, n_f = divide(2 * p * r, p + r, zero_division)
        return Partial(f1, n_p + n_r + n_f, prec.size + rec.size + f1.size)

    return Kernel(compute, "precision/recall/F1", zero_division)
