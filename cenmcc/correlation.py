"""Chance-corrected agreement: multi-class MCC (Gorodkin's R_K), its averages, Cohen's kappa.

All are built from the same four numbers of a confusion matrix (Grandini et al. 2020, Sec. 5):
``c`` the trace, ``s`` the total, ``t_k`` the row sums (true classes) and ``p_k`` the column sums
(predicted classes). The MCC and kappa share the numerator ``c s - sum_k p_k t_k``; the macro-
and micro-averaged MCCs are MCCs of the K one-vs-rest 2 x 2 tables of class k (``C_kk``
true positives, ``t_k - C_kk`` false negatives, ``p_k - C_kk`` false positives).
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
        ``CD = arccos(MCC) / π``, in [0, 1]; 0 is perfect classification, 1/2 a matrix whose
        MCC is 0, 1 a perfectly inverted binary prediction.

    Notes
    -----
    Gösgens, Zhiyanov, Tikhonov & Prokhorenkova 2021 (arXiv 2201.09044): the MCC is the cosine
    of the angle between the centred indicator vectors of truth and prediction, and that angle,
    scaled to [0, 1], satisfies the triangle inequality (a distance on labelings). The MCC here
    is Gorodkin's R_K (:func:`mcc`), so the same holds for K classes. A decreasing function of
    the MCC, it orders matrices as the MCC does, but it trades the MCC's constant baseline for
    the triangle inequality (as Gösgens et al. say): ``arccos`` is not affine, so the expected
    distance of a prediction independent of the truth depends on the class sizes (1/2 for true
    and predicted sizes (1, 1), 4/9 for (1, 2): the counterexample of
    :func:`cenmcc.properties.audit`, ``constant_baseline``, below), although its value where
    the MCC is 0 is 1/2. Precision: the MCC's (3 units in the last place), amplified by the
    slope of ``arccos`` near ±1 (about 1e-8 for an MCC within 3e-16 of 1).

    Examples
    --------
    >>> round(float(correlation_distance([[20, 5], [10, 15]])), 4)  # arccos(0.408) / π
    0.3661
    >>> correlation_distance([[[1, 0], [0, 1]], [[0, 1], [1, 0]]]).tolist()
    [0.0, 1.0]
    >>> from cenmcc.properties import audit
    >>> baseline = audit("correlation_distance", 2, ["constant_baseline"], n_items=3, n_random=100)
    >>> baseline["constant_baseline"].counterexample["expected"]  # doctest: +ELLIPSIS
    [0.5, 0.444...]
    """
    values, undefined = mcc.definition.compute(m, zero_division=zero_division)
    return np.arccos(np.clip(values, -1.0, 1.0)) / np.pi, undefined


def one_vs_rest_mcc(m: Counts, zero_division: float) -> tuple[np.ndarray, np.ndarray]:
    """The binary MCC of each class against the rest ``(..., K)`` and where it is 0/0.

    ``(s C_kk - t_k p_k) / sqrt(t_k (s - t_k) p_k (s - p_k))``: the MCC of the 2 x 2 table of
    class k, 0/0 where class k is never true, always true, never predicted or always predicted.
    Computed as ``sign · sqrt(r_t r_p)`` from the ratios ``r_t = N_k / (t_k (s - t_k))`` and
    ``r_p = N_k / (p_k (s - p_k))`` of exact integers, each rounded once
    (:meth:`cenmcc._exact.ExactSums.class_ratio`): a function of the rational numbers alone,
    so a multiple of the counts gives the same bits, and within 1.5 units in the last place of
    the exact value (a perfect class is 1 exactly: both ratios are 1). Clipped to [-1, 1].
    """
    by_true, never_true = m.exact.class_ratio("covariance", "true_spread")
    by_pred, never_pred = m.exact.class_ratio("covariance", "pred_spread")
    undefined = never_true | never_pred
    values = np.multiply(by_true, by_pred)
    np.sqrt(values, out=values)
    np.copysign(values, by_true, out=values)
    rows = m.exact.slow_rows
    if rows.size:  # only there can a ratio leave the normal floats
        lost = ~(_normal(by_true[rows]) & _normal(by_pred[rows]))
        lost &= ~undefined[rows] & ((by_true[rows] != 0) | (by_pred[rows] != 0))
        for i, k in zip(*np.nonzero(lost), strict=True):
            values[rows[i], k] = _exact_class_mcc(m.exact.class_terms(rows[i]), k)
    values[undefined] = zero_division
    return np.clip(values, -1.0, 1.0, out=values), undefined


def _normal(ratios: np.ndarray) -> np.ndarray:
    """Where ``ratios`` are far enough inside the normal floats that the product of two of
    them, at most 1, neither overflows nor loses bits."""
    return (np.abs(ratios) > 2.0**-500) & (np.abs(ratios) < 2.0**500)


def _exact_class_mcc(terms: dict, k: int) -> float:
    """Class k's MCC ``sign(N) sqrt(N^2 / (V_t V_p))`` from exact integers, rounded twice: for
    counts spanning more than about 2**500, where ``r_t`` or ``r_p`` of :func:`one_vs_rest_mcc`
    is beyond the normal floats."""
    num, var_true, var_pred = (
        int(terms[x][k]) for x in ("covariance", "true_spread", "pred_spread")
    )
    return (-1.0 if num < 0 else 1.0) * math.sqrt(num * num / (var_true * var_pred))


@count_metric("MCC of a class against the rest", label="macro MCC", bounds=(-1.0, 1.0))
def macro_mcc(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
    """Macro-averaged MCC: the mean over the K classes of each class's MCC against the rest.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        The MCC of a class whose one-vs-rest MCC is 0/0 (the class is never, or always, true or
        predicted), as :func:`mcc`'s; each such class is counted in one
        ``UndefinedMetricWarning``.

    Returns
    -------
    ndarray, shape (...)
        ``(1/K) sum_k (s C_kk - t_k p_k) / sqrt(t_k (s - t_k) p_k (s - p_k))``, in [-1, 1];
        1 is perfect classification.

    Notes
    -----
    Macro-averaging as Sokolova & Lapalme (2009, *Inf. Process. Manag.* 45:427,
    doi:10.1016/j.ipm.2009.03.002) define it for the multi-class precision and recall (we did
    not check the table's number): the measure of each one-vs-rest 2 x 2 table, then their mean;
    here of the binary MCC (Matthews 1975). scikit-learn's ``matthews_corrcoef`` of the labels
    binarised for class k gives each term (the tests check it). Tamura, Itaya, Hayashi &
    Yamamoto (2025, arXiv 2503.06450) propose a macro-averaged MCC and its inference; we could
    not read their definition, so it is not checked against theirs. For K = 2 both classes
    have the binary MCC, so the macro MCC is :func:`mcc` (up to its rounding). Each class's MCC is
    a function of exact integer ratios, so a multiple of integer counts gives the same bits,
    and a perfect classification gives 1 exactly.

    Examples
    --------
    >>> round(float(macro_mcc([[20, 5], [10, 15]])), 3)  # the binary MCC
    0.408
    >>> round(float(macro_mcc([[5, 1, 0], [2, 6, 1], [0, 1, 7]])), 4)
    0.676
    """
    values, undefined = one_vs_rest_mcc(m, zero_division)
    return np.einsum("...k->...", values) / m.n_classes, undefined


@count_metric(label="micro MCC", bounds=(-1.0, 1.0))
def micro_mcc(m: Counts) -> np.ndarray:
    """Micro-averaged MCC: the binary MCC of the K one-vs-rest 2 x 2 tables summed.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.

    Returns
    -------
    ndarray, shape (...)
        ``(K c / s - 1) / (K - 1)``, in [-1/(K - 1), 1]; 1 is perfect classification, 0 the
        accuracy ``1/K`` of a uniform guess. Never undefined.

    Notes
    -----
    Micro-averaging as Sokolova & Lapalme (2009) define it: the one-vs-rest tables are
    summed, ``TP = c``, ``FN = FP = s - c``, ``TN = (K - 2) s + c``, and the binary MCC
    (Matthews 1975) taken of the sum. Its four margins are ``s``, ``s``, ``(K - 1) s`` and
    ``(K - 1) s``, so ``(TP TN - FP FN) / sqrt(...) = (K c - s) / ((K - 1) s)``: an affine
    function of the accuracy (our algebra; the tests check it against scikit-learn's
    ``matthews_corrcoef`` of the pooled binarised labels). Tamura et al. (2025, arXiv
    2503.06450) propose a micro-averaged MCC; we could not read their definition, so it is not
    checked against theirs.

    Examples
    --------
    >>> round(float(micro_mcc([[5, 1, 0], [2, 6, 1], [0, 1, 7]])), 4)  # accuracy 18/23
    0.6739
    """
    K = m.n_classes
    return (K * (m.correct / m.total) - 1) / (K - 1), None
