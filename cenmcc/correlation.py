"""Chance-corrected agreement: multi-class MCC (Gorodkin's R_K) and Cohen's kappa.

Both are built from the same four numbers of a confusion matrix (Grandini et al. 2020, Sec. 5):
``c`` the trace, ``s`` the total, ``t_k`` the row sums (true classes) and ``p_k`` the column sums
(predicted classes). They share the numerator ``c s - sum_k p_k t_k``.
"""

from __future__ import annotations

import math

import numpy as np

from ._marginals import Counts
from ._metric import count_metric
from ._undefined import divide


def _mcc(m: Counts, zero_division: float) -> tuple[np.ndarray, np.ndarray]:
    """The MCC of a block and where it is 0/0: the numerator ``c s - sum_k t_k p_k`` and the
    variances ``s^2 - sum_k p_k^2`` and ``s^2 - sum_k t_k^2`` are exact integers
    (:mod:`cenmcc._exact`), each rounded once; the result is within 3 units in the last place
    of the exact MCC. Read-only: :func:`mcc` shares it with the tMCC."""
    undefined = m.exact.zero("var_pred") | m.exact.zero("var_true")
    with np.errstate(all="ignore"):  # the slow rows are replaced
        den = m.exact.term("var_pred") * m.exact.term("var_true")
        values, undefined = divide(
            m.exact.term("numerator"), np.sqrt(den, out=den), zero_division, undefined
        )
    values = m.exact.override(values, exact_mcc)
    values.flags.writeable = False
    return values, undefined


def exact_mcc(terms: dict) -> float | None:
    """The MCC from exact integer terms, rounded 3 times: ``sign(N) sqrt(N^2 / (V_p V_t))``."""
    num, den = terms["numerator"], terms["var_pred"] * terms["var_true"]
    return None if den == 0 else math.sqrt(num * num / den) * (1.0 if num >= 0 else -1.0)


@count_metric("MCC", label="MCC", bounds=(-1.0, 1.0))
def mcc(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
    """Matthews correlation coefficient for K classes (Gorodkin's R_K).

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class; integer or weighted
        counts.
    zero_division : float, default 0.0
        Value where the MCC is 0/0, i.e. where all samples are predicted as one class or all
        belong to one class (then the numerator is 0 too). 0 is the convention of Jurman et al.
        and of scikit-learn. Filled values are counted in one ``UndefinedMetricWarning`` per call.

    Returns
    -------
    ndarray, shape (...)
        ``(c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2))``, in [-1, 1]; 1 is
        perfect classification, 0 no better than chance.

    Notes
    -----
    Eq. (25), Grandini et al. 2020: the simplified form of the MCC blog post (*Multiclass
    Matthew's Correlation Coefficient*). It equals the covariance ratio
    ``cov(X, Y) / sqrt(cov(X, X) cov(Y, Y))`` and the triple-sum form of Jurman et al. (2012)
    Eq. (2); :mod:`cenmcc.reference` transcribes both literally, and the tests check all three
    agree. For K = 2 it is the binary ``(TP TN - FP FN) / sqrt(...)``.

    Accepted range and precision: see the package docstring (:mod:`cenmcc`); the sums are exact
    integers (:mod:`cenmcc._exact`).

    Examples
    --------
    >>> round(float(mcc([[20, 5], [10, 15]])), 3)  # Grandini et al., Fig. 7
    0.408
    >>> mcc([[[1, 0], [0, 1]], [[0, 1], [1, 0]]]).tolist()  # a stack of two matrices
    [1.0, -1.0]
    """
    # Once per block and zero_division, for the MCC and the tMCC of one evaluation.
    return m._once(("mcc", zero_division), lambda: _mcc(m, zero_division))


@count_metric()
def expected_accuracy(m: Counts) -> np.ndarray:
    """Expected accuracy ``P_e``: the accuracy of a classifier that is independent of the truth.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``P_e = sum_k t_k p_k / s^2``, in [0, 1].

    Notes
    -----
    Eqs. (29)-(31) and (39), Grandini et al. 2020. Never undefined.

    Accepted range and precision: see the package docstring (:mod:`cenmcc`); the sums are exact
    integers (:mod:`cenmcc._exact`).

    Examples
    --------
    >>> round(float(expected_accuracy([[45, 15], [25, 15]])), 2)  # Grandini et al., Fig. 11
    0.54
    """
    chance, square = m.exact.term("chance"), m.exact.term("square")
    with np.errstate(all="ignore"):  # the slow rows are replaced
        values = chance / square
    return m.exact.override(values, lambda t: t["chance"] / t["square"]), None


@count_metric("Cohen's kappa", label="Cohen's kappa", bounds=(-1.0, 1.0))
def cohen_kappa(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
    """Cohen's kappa for K classes: accuracy corrected for chance agreement.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        Value where kappa is 0/0, which happens only when every sample is of one class and is
        predicted as that class (``P_e = 1``). Counted in one ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray, shape (...)
        ``(c s - sum_k p_k t_k) / (s^2 - sum_k p_k t_k) = (P_o - P_e) / (1 - P_e)``, in [-1, 1];
        1 is perfect agreement, 0 chance agreement.

    Notes
    -----
    Eq. (40), Grandini et al. 2020 (multi-class; Eq. (28) for two classes). Same numerator as
    :func:`cenmcc.mcc`.

    Accepted range and precision: see the package docstring (:mod:`cenmcc`); the sums are exact
    integers (:mod:`cenmcc._exact`).

    Examples
    --------
    >>> round(float(cohen_kappa([[25, 35], [5, 35]])), 3)  # Grandini et al., Fig. 12 right
    0.259
    """
    numerator, den = m.exact.term("numerator"), m.exact.term("kappa_den")
    with np.errstate(all="ignore"):  # the slow rows are replaced
        values, undefined = divide(numerator, den, zero_division, m.exact.zero("kappa_den"))
    values = m.exact.override(
        values, lambda t: t["numerator"] / t["kappa_den"] if t["kappa_den"] else None
    )
    return values, undefined


@count_metric("MCC", label="correlation distance", greater_is_better=False)
def correlation_distance(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
    """Correlation distance: the angle between truth and prediction, ``arccos(MCC) / π``.

    A distance, so lower is better (0 is perfect classification).

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        The MCC used where the MCC is 0/0 (:func:`mcc`), so 1/2 by default; counted in one
        ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray, shape (...)
        ``CD = arccos(MCC) / π``, in [0, 1]; 0 is perfect classification, 1/2 a prediction
        independent of the truth, 1 a perfectly inverted binary prediction.

    Notes
    -----
    Gösgens, Zhiyanov, Tikhonov & Prokhorenkova 2021 (arXiv 2201.09044): the MCC is the cosine
    of the angle between the centred indicator vectors of truth and prediction, and that angle,
    scaled to [0, 1], satisfies the triangle inequality (a distance on labelings) while keeping
    the MCC's constant baseline. The MCC here is Gorodkin's R_K (:func:`mcc`), so the same holds
    for K classes. Precision: the MCC's (3 units in the last place), amplified by the slope of
    ``arccos`` near ±1 (about 1e-8 for an MCC within 3e-16 of 1).

    Examples
    --------
    >>> round(float(correlation_distance([[20, 5], [10, 15]])), 4)  # arccos(0.408) / π
    0.3661
    >>> correlation_distance([[[1, 0], [0, 1]], [[0, 1], [1, 0]]]).tolist()
    [0.0, 1.0]
    """
    values, undefined = mcc.definition.compute(m, zero_division=zero_division)
    return np.arccos(np.clip(values, -1.0, 1.0)) / np.pi, undefined
