"""Metrics on predicted class probabilities or scores, rather than on confusion matrices.

- :func:`log_loss`: the cross-entropy of Grandini, Bagli & Visani (2020), Sec. 4.4, averaged over
  the samples (lower is better, best value 0).
- :func:`hand_till_auc`: Hand & Till's (2001) multi-class AUC ``M``, the mean over class pairs of
  the pairwise separabilities ``A(i, j)`` (higher is better, best value 1).
- :func:`one_vs_rest_pr_curves`: for every class, the one-vs-rest precision-recall curve, its
  average precision and the one-vs-rest ROC AUC (the blog tutorial's "Precision-recall curves and
  AUC").

All three take the true labels ``y_true`` of shape ``(n_samples,)`` and a matrix of shape
``(n_samples, K)`` whose column ``k`` refers to the class ``labels[k]``.

How the rank statistics are computed
------------------------------------
The AUCs and the precision-recall curves depend only on the order of the scores within each
column. Every column is sorted once, all columns in one ``argsort``, and the ties are found as
runs of equal sorted values. For the sample at sorted position ``p`` of column
``k``, two cumulative counts of class-``k`` samples are read off: ``above`` (strictly higher
scores) and ``through`` (higher or equal scores). With ``H = (above + through) / 2``, the number
of pairs (a, b), a of class ``k`` and b of class ``j``, in which a scores higher than b in column
``k``, a tie counting 1/2, is the sum of ``H`` over the samples b of class ``j``:

    U[k, j] = #{s_ak > s_bk} + #{s_ak = s_bk} / 2.

One ``bincount`` over all (column, class) cells gives the whole ``K x K`` matrix ``U``. The cost
is one sort per column, ``O(n K log n)`` time, and a few ``(K, n)`` arrays of memory; there is
no loop over samples, classes or class pairs, except where :func:`one_vs_rest_pr_curves` hands
out its ``K`` curves of different lengths. Counts are exact: ``2 U`` is an integer below
``n^2``, held exactly in ``float64`` for ``n`` up to about ``9 * 10^7``.

Undefined values and bad input
------------------------------
A class of ``labels`` without samples makes ``A(i|j)``, the one-vs-rest ROC AUC and the average
precision of that class 0/0. :func:`hand_till_auc` and :func:`one_vs_rest_pr_curves` raise a
``ValueError`` for it instead of filling a value: any fill (0.5, 0 or 1) would enter ``M`` and
the class averages as if it were a measured separability, and the remedy (drop the class and
its column) is the caller's to choose. With ``K >= 2`` classes all present, no other value is
undefined. :func:`log_loss` needs no sample of a class: an unused column does not enter it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._labels import Labels, encode, read_label_set, read_samples
from ._validation import check_probabilities, check_scores


class HandTillAUC(NamedTuple):
    """Hand & Till's M with the pairwise values behind it (``hand_till_auc(..., pairwise=True)``).

    Attributes
    ----------
    auc : float
        ``M``, the mean of ``pairwise`` over the ``K (K - 1) / 2`` pairs ``i < j``.
    labels : ndarray, shape (K,)
        The classes, in the order of the score columns and of the rows and columns below.
    conditional : ndarray, shape (K, K)
        ``conditional[i, j] = A(i|j)``: the probability that a random member of class ``j`` has a
        lower class-``i`` score than a random member of class ``i`` (ties count 1/2). The diagonal
        holds 0.5, a class against itself; it does not enter ``M``.
    pairwise : ndarray, shape (K, K)
        ``pairwise[i, j] = A(i, j) = (A(i|j) + A(j|i)) / 2``, symmetric, 0.5 on the diagonal.
    """

    auc: float
    labels: np.ndarray
    conditional: np.ndarray
    pairwise: np.ndarray


class PrecisionRecallCurve(NamedTuple):
    """One class's one-vs-rest precision-recall curve, in scikit-learn's layout.

    Attributes
    ----------
    precision : ndarray, shape (T + 1,)
        ``precision[t]`` is the precision of "score >= thresholds[t]"; the last entry is 1.
    recall : ndarray, shape (T + 1,)
        The matching recall, decreasing; the last entry is 0.
    thresholds : ndarray, shape (T,)
        The ``T`` distinct scores of the class's column, increasing.
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


class OneVsRestCurves(NamedTuple):
    """Per-class one-vs-rest curves and areas (see :func:`one_vs_rest_pr_curves`).

    Attributes
    ----------
    labels : ndarray, shape (K,)
        The classes, in the order of the score columns.
    curves : tuple of PrecisionRecallCurve, length K
        The precision-recall curve of each class.
    average_precision : ndarray, shape (K,)
        The area under each precision-recall curve as the step-wise sum
        ``AP = sum_t (R_t - R_{t+1}) P_t``; in (0, 1], best value 1.
    roc_auc : ndarray, shape (K,)
        The area under each one-vs-rest ROC curve, ties counting 1/2; in [0, 1], best value 1,
        0.5 for scores unrelated to the class.
    """

    labels: np.ndarray
    curves: tuple[PrecisionRecallCurve, ...]
    average_precision: np.ndarray
    roc_auc: np.ndarray


def log_loss(y_true, proba, labels=None) -> float:
    """Cross-entropy (log loss) of predicted class probabilities, averaged over the samples.

    Parameters
    ----------
    y_true : array_like, shape (n_samples,)
        True labels, of any sortable type.
    proba : array_like, shape (n_samples, K)
        Predicted probabilities: non-negative, each row summing to 1 within ``1e-8``.
    labels : array_like, shape (K,), optional
        The class of each column of ``proba``. Default: the sorted distinct labels of
        ``y_true``, which must then number exactly ``K``. Classes without samples are allowed
        when ``labels`` is given.

    Returns
    -------
    float
        ``-(1/N) sum_i ln p_i``, where ``p_i`` is the probability given to the true class of
        sample ``i`` (natural logarithm). In [0, +inf]; 0 is best (every true class predicted
        with probability 1). It is ``+inf`` exactly when some sample's true class has
        probability 0: that is the value of the formula, so it is returned as is, without a
        warning and without clipping.

    Raises
    ------
    TypeError
        If ``proba`` does not hold real numbers.
    ValueError
        If ``y_true`` is not 1-D or is empty; ``proba`` is not 2-D with one row per sample and
        ``K >= 2`` columns, is not finite, has a negative entry or a row not summing to 1 (the
        first such entry or row is named); ``labels`` is not 1-D, repeats a class or does not
        have ``K`` entries; without ``labels``, ``y_true`` does not have exactly ``K`` distinct
        labels; or ``y_true`` has a label outside ``labels``.

    Notes
    -----
    Grandini, Bagli & Visani (2020), Sec. 4.4. The cross-entropy of one sample (Eq. 22) between
    its true distribution (1 on the true class, 0 elsewhere) and the predicted one reduces to
    ``-ln p_i``. The text then "consider[s] the average of the Cross-Entropy values for the
    single units", but Eq. (23) as printed is the sum ``-sum_i sum_k ...`` without ``1/N``. This
    function implements the average the text describes (Eq. 23 divided by ``N``), which is
    comparable across data sets of different sizes and is what scikit-learn's ``log_loss``
    computes; multiply by ``N`` for the printed sum. The paper writes ``log`` without a base; the
    natural logarithm is used here, as in scikit-learn.

    scikit-learn clips the probabilities to ``[eps, 1 - eps]`` (``eps`` the float64 machine
    epsilon), so it returns about 36.04 / N per zero probability where this function returns
    ``+inf``; away from 0 and 1 the two agree to rounding.

    References
    ----------
    Grandini M., Bagli E., Visani G. (2020). Metrics for multi-class classification: an
    overview. arXiv:2008.05756.

    Examples
    --------
    >>> y = ["cat", "dog", "dog"]
    >>> p = [[0.5, 0.5], [0.25, 0.75], [0.0, 1.0]]
    >>> round(log_loss(y, p), 6)  # (ln 2 + ln(4/3) + 0) / 3
    0.326943
    >>> log_loss(y, [[0.0, 1.0], [0.25, 0.75], [0.0, 1.0]])
    inf
    """
    y = read_samples(y_true)
    p = check_probabilities(proba, y.index.size)
    index, _ = _class_index(y, p.shape[1], labels, name="proba", all_present=False)
    with np.errstate(divide="ignore"):  # ln 0 = -inf is the honest value
        return float(-np.log(p[np.arange(index.size), index]).mean())


def hand_till_auc(y_true, scores, labels=None, *, pairwise: bool = False):
    """Hand & Till's (2001) multi-class AUC ``M``, the mean pairwise class separability.

    Parameters
    ----------
    y_true : array_like, shape (n_samples,)
        True labels, of any sortable type.
    scores : array_like, shape (n_samples, K)
        Real, finite scores; column ``k`` is the estimated probability (or any score increasing
        with it) that the sample belongs to class ``labels[k]``. Only the order of the values
        within each column matters: rows need not sum to 1.
    labels : array_like, shape (K,), optional
        The class of each column. Default: the sorted distinct labels of ``y_true``, which must
        then number exactly ``K``. Every class must have at least one sample.
    pairwise : bool, default False
        If True, return a :class:`HandTillAUC` with ``M`` and the matrices of ``A(i|j)`` and
        ``A(i, j)`` (the blog tutorial prints the latter as ``pair_AUCs``).

    Returns
    -------
    float or HandTillAUC
        ``M = 2 / (K (K - 1)) sum_{i<j} A(i, j)``, in [0, 1]; 1 is best (every pair of classes
        perfectly separated by both of its columns), about 0.5 for scores unrelated to the
        classes.

    Raises
    ------
    TypeError
        If ``scores`` does not hold real numbers.
    ValueError
        If ``y_true`` is not 1-D or is empty; ``scores`` is not 2-D with one row per sample and
        ``K >= 2`` columns, or is not finite; ``labels`` is not 1-D, repeats a class or does not
        have ``K`` entries; without ``labels``, ``y_true`` does not have exactly ``K`` distinct
        labels; ``y_true`` has a label outside ``labels``; or a class of ``labels`` has no
        sample, which makes ``A(i|j)`` 0/0 for its pairs (see the module docstring for why this
        raises rather than fills a value).

    Notes
    -----
    Hand & Till (2001), as presented in the blog tutorial *Performance measures for multi-class
    problems*, "Generalization of the AUC by Hand and Till". For classes ``i`` and ``j``, rank
    the class-``i`` scores of the ``n_i + n_j`` samples of the two classes, and let ``S_i`` be
    the sum of the ranks of the class-``i`` samples. Then

    ``A(i|j) = (S_i - n_i (n_i + 1) / 2) / (n_i n_j)``,
    ``A(i, j) = (A(i|j) + A(j|i)) / 2``,
    ``M = 2 / (c (c - 1)) sum_{i<j} A(i, j)``.

    ``A(i|j)`` is the Mann-Whitney statistic: the fraction of (class-``i``, class-``j``) pairs
    in which the class-``i`` member has the higher class-``i`` score. Tied scores get mid-ranks,
    so a tied pair counts 1/2; this is also what scikit-learn's
    ``roc_auc_score(multi_class="ovo")`` does. The blog's R function ``compute.A.conditional``
    ranks with ``order()``, which leaves tied values in their input order (class ``i`` first), so
    it counts a tied pair as 0 in ``A(i|j)`` (and in ``A(j|i)``): with ties its pairwise values
    and ``M`` are lower than Hand & Till's. The blog requires ``c > 2`` classes; ``K = 2`` is
    accepted here and gives ``M = (A(0|1) + A(1|0)) / 2``.

    ``M`` is unchanged by any strictly increasing transform of any score column, since it
    depends only on the order and ties within each column. scikit-learn's
    ``roc_auc_score(multi_class="ovo")`` computes the same ``M`` but requires rows summing to 1,
    and, given ``labels`` with a class absent from ``y_true``, averages over the present classes
    only, where this function raises.

    References
    ----------
    Hand D. J., Till R. J. (2001). A simple generalisation of the area under the ROC curve for
    multiple class classification problems. Machine Learning 45(2):171-186.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> s = [
    ...     [0.8, 0.1, 0.1],
    ...     [0.4, 0.5, 0.1],
    ...     [0.4, 0.4, 0.2],
    ...     [0.1, 0.8, 0.1],
    ...     [0.2, 0.2, 0.6],
    ...     [0.1, 0.3, 0.6],
    ... ]
    >>> r = hand_till_auc(y, s, pairwise=True)
    >>> float(r.conditional[0, 1])  # class-0 scores: 0.8 > 0.4, 0.8 > 0.1, 0.4 = 0.4, 0.4 > 0.1
    0.875
    >>> r.pairwise[np.triu_indices(3, 1)].tolist()  # A(0, 1), A(0, 2), A(1, 2)
    [0.8125, 1.0, 1.0]
    >>> r.auc == hand_till_auc(y, s) == (0.8125 + 1 + 1) / 3
    True
    """
    y = read_samples(y_true)
    s = check_scores(scores, y.index.size)
    K = s.shape[1]
    index, classes = _class_index(y, K, labels, name="scores", all_present=True)
    U, n = _pair_counts(index, s)
    A = U / np.multiply.outer(n, n)
    pair = (A + A.T) / 2
    auc = float(pair[np.triu_indices(K, 1)].mean())
    if pairwise:
        return HandTillAUC(auc=auc, labels=classes, conditional=A, pairwise=pair)
    return auc


def one_vs_rest_pr_curves(y_true, scores, labels=None) -> OneVsRestCurves:
    """One-vs-rest precision-recall curves of every class, with average precision and ROC AUC.

    Parameters
    ----------
    y_true : array_like, shape (n_samples,)
        True labels, of any sortable type.
    scores : array_like, shape (n_samples, K)
        Real, finite scores; column ``k`` is the score of class ``labels[k]`` (its samples are
        the positives, all others the negatives).
    labels : array_like, shape (K,), optional
        The class of each column. Default: the sorted distinct labels of ``y_true``, which must
        then number exactly ``K``. Every class must have at least one sample.

    Returns
    -------
    OneVsRestCurves
        ``labels``; ``curves``, the precision-recall curve of each class (precision, recall and
        thresholds as scikit-learn's ``precision_recall_curve`` lays them out: one point per
        distinct score, plus the end point precision 1, recall 0); ``average_precision``, the
        step-wise area under each curve, in (0, 1], best value 1; and ``roc_auc``, the area
        under each one-vs-rest ROC curve, in [0, 1], best value 1.

    Raises
    ------
    TypeError
        If ``scores`` does not hold real numbers.
    ValueError
        As :func:`hand_till_auc`, including for a class of ``labels`` without samples (its
        recall, hence its curve and both areas, would be 0/0).

    Notes
    -----
    Blog tutorial *Performance measures for multi-class problems*, "One-vs-all precision-recall
    curves": class ``k`` against all others, thresholding column ``k``. At a threshold ``t``
    (every distinct score, from high to low), with ``TP`` and ``FP`` the positives and negatives
    scoring ``>= t``, precision is ``P = TP / (TP + FP)`` and recall ``R = TP / n_k``.

    The area given is the average precision ``AP = sum_t (R_t - R_{t+1}) P_t``, the step-wise
    sum of scikit-learn's ``average_precision_score``: each increase of recall weighted by the
    precision reached there, without the optimistic linear interpolation between points of a
    trapezoidal area.

    The blog prints "Mean AUC under the precision-recall curve", but its R code computes it
    with ROCR's ``performance(pred, "auc")``, which is the area under the ROC curve, not under
    the precision-recall curve. ``roc_auc`` gives that one-vs-rest ROC AUC (the Mann-Whitney
    statistic, a tie counting 1/2, which equals the trapezoidal area over the distinct cutoffs
    that ROCR and scikit-learn's ``roc_auc_score`` compute), so that both can be compared
    with the blog's number. It is computed from the same pair counts as :func:`hand_till_auc`:
    ``roc_auc[k] = sum_{j != k} n_j A(k|j) / (n - n_k)``.

    Examples
    --------
    >>> y = ["a", "a", "b", "c"]
    >>> s = [[0.9, 0.1, 0.0], [0.3, 0.3, 0.4], [0.4, 0.5, 0.1], [0.2, 0.2, 0.6]]
    >>> r = one_vs_rest_pr_curves(y, s)
    >>> r.curves[0].thresholds.tolist()
    [0.2, 0.3, 0.4, 0.9]
    >>> r.curves[0].precision.tolist()  # a: 2 of 4 >= 0.2, 2/3 >= 0.3, 1/2 >= 0.4, 1/1 >= 0.9
    [0.5, 0.6666666666666666, 0.5, 1.0, 1.0]
    >>> r.curves[0].recall.tolist()
    [1.0, 1.0, 0.5, 0.5, 0.0]
    >>> float(r.average_precision[0])  # 0.5 * 1 + 0.5 * 2/3
    0.8333333333333333
    >>> r.roc_auc.tolist()  # a: pairs (0.9 > 0.4, 0.9 > 0.2, 0.3 < 0.4, 0.3 > 0.2)
    [0.75, 1.0, 1.0]
    """
    y = read_samples(y_true)
    s = check_scores(scores, y.index.size)
    K = s.shape[1]
    index, classes = _class_index(y, K, labels, name="scores", all_present=True)
    ranks = _ColumnRanks(index, s)
    U, n = _pair_counts(index, s, ranks)
    roc_auc = (U.sum(axis=1) - np.diagonal(U)) / (n * (index.size - n))

    # Precision and recall at the end of every tie group (one point per distinct score).
    size = np.arange(1, index.size + 1)  # TP + FP at each sorted position
    gain = ranks.through - ranks.above  # positives in the tie group, counted at its end
    step = np.where(ranks.is_end, gain * (ranks.through / size), 0.0)
    average_precision = step.sum(axis=1) / n

    # The K curves have different lengths: handing them out is the one loop over classes.
    curves = []
    for k in range(K):
        end = np.flatnonzero(ranks.is_end[k])[::-1]  # increasing thresholds
        tp = ranks.through[k, end]
        curves.append(
            PrecisionRecallCurve(
                precision=np.append(tp / (end + 1), 1.0),
                recall=np.append(tp / n[k], 0.0),
                thresholds=ranks.values[k, end],
            )
        )
    return OneVsRestCurves(
        labels=classes,
        curves=tuple(curves),
        average_precision=average_precision,
        roc_auc=roc_auc,
    )


def _class_index(y: Labels, K: int, labels, *, name: str, all_present: bool):
    """Column index of every sample's true class, and the labels of the K columns."""
    if labels is None:
        classes, index = y.distinct, y.index
        if classes.size != K:
            raise ValueError(
                f"y_true has {classes.size} distinct labels but {name} has {K} columns; "
                "pass `labels` to give the class of each column"
            )
    else:
        given = read_label_set(labels)
        classes = given.labels
        if classes.size != K:
            raise ValueError(
                f"labels has {classes.size} entries but {name} has {K} columns; "
                "give one label per column"
            )
        index = encode(y, given, name="y_true", classes_name="labels")
    if all_present:
        n = np.bincount(index, minlength=K)
        if np.any(n == 0):
            missing = classes[n == 0][:5].tolist()
            raise ValueError(
                f"classes {missing} of `labels` have no samples in y_true; their AUC and "
                "precision-recall values are undefined (0/0): drop them from `labels` "
                f"and their columns from {name}"
            )
    return index, classes


class _ColumnRanks:
    """Every score column sorted from high to low, with cumulative class counts per tie group.

    The arrays have shape ``(K, n_samples)``: row ``k`` is score column ``k``, sorted (this
    layout keeps each sort and cumulative sum on contiguous memory).

    Attributes
    ----------
    values : the sorted scores, decreasing along each row.
    classes : the class index of the sample at each sorted position.
    above, through : the number of class-``k`` samples scoring strictly higher than, and at
        least as high as, the sample at each position of row ``k``.
    is_end : True at the last position of each tie group.
    """

    def __init__(self, index: np.ndarray, s: np.ndarray):
        n, K = s.shape
        columns = np.ascontiguousarray(s.T)
        # The order within a tie group does not matter: every count below is per tie group.
        order = np.ascontiguousarray(np.argsort(columns, axis=1)[:, ::-1])
        self.values = np.take_along_axis(columns, order, axis=1)
        self.classes = index[order]
        through_all = np.cumsum(self.classes == np.arange(K)[:, None], axis=1)
        new_group = self.values[:, 1:] != self.values[:, :-1]
        edge = np.ones((K, 1), dtype=bool)
        self.is_end = np.concatenate([new_group, edge], axis=1)
        positions = np.arange(n)
        is_start = np.concatenate([edge, new_group], axis=1)
        start = np.maximum.accumulate(np.where(is_start, positions, 0), axis=1)
        end = np.minimum.accumulate(np.where(self.is_end, positions, n - 1)[:, ::-1], axis=1)
        padded = np.concatenate([np.zeros((K, 1), dtype=through_all.dtype), through_all], axis=1)
        self.above = np.take_along_axis(padded, start, axis=1)
        self.through = np.take_along_axis(through_all, end[:, ::-1], axis=1)


def _pair_counts(index: np.ndarray, s: np.ndarray, ranks: _ColumnRanks | None = None):
    """Mann-Whitney pair counts ``U[k, j]`` (module docstring) and the class sizes ``n``."""
    K = s.shape[1]
    if ranks is None:
        ranks = _ColumnRanks(index, s)
    # Twice the count is an integer, so the float64 bincount sums are exact.
    twice = np.bincount(
        (np.arange(K)[:, None] * K + ranks.classes).ravel(),
        weights=(ranks.above + ranks.through).ravel(),
        minlength=K * K,
    )
    return twice.reshape(K, K) / 2, np.bincount(index, minlength=K)
