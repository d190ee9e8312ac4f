"""Paired comparison of two classifiers on the same items: the difference of any measure.

The items of a test set with the truth and the two predictions are one joint table ``T`` of
``K^3`` cells ``(true, predicted by a, predicted by b)``, kept as its non-empty cells (at most
one per item, whatever K). Resampling the items is a multinomial draw of those cells; each
draw's two confusion matrices are its margins (classifier a's: the sum over b's prediction;
b's: over a's), evaluated as two stacks, in blocks (:mod:`cenmcc.intervals.resampling`), so
that memory does not grow with the number of resamples beyond their values. The
delta method differentiates ``f(C_a(T)) - f(C_b(T))`` in the proportions of the cells of
``T``: the gradient at ``(t, i, j)`` is ``g_a[t, i] - g_b[t, j]``.

The labels go through the one label path of :func:`cenmcc.confusion_matrix`
(:mod:`cenmcc._labels`), the three vectors together: labels of one kind, compared exactly, no
NaN or ``None``.

Examples
--------
>>> import cenmcc
>>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2] * 20
>>> a = [0, 0, 1, 1, 1, 1, 2, 2, 0] * 20
>>> b = [0, 1, 1, 1, 0, 1, 2, 0, 0] * 20
>>> r = cenmcc.compare_classifiers(y, a, b, "mcc", random_state=0)
>>> round(float(r.statistic), 3), bool(r.pvalue < 0.01)
(0.503, True)
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ._labels import encode, read_together, union
from ._undefined import caller_stacklevel
from .exceptions import UndefinedMetricWarning
from .intervals import applies as interval_applies
from .intervals import auto
from .intervals.arguments import (
    builtin,
    check_level,
    check_memory,
    check_method,
    check_resamples,
    resolve,
)
from .intervals.asymptotic import (
    check_closed_form,
    delta_covariance,
    delta_variance,
    describe,
    fisher_interval,
    gradient,
)
from .intervals.resampling import BOOTSTRAP, bootstrap, evaluate, peak_bytes, restarted
from .intervals.results import ConfidenceInterval
from .registry import Measure

#: The methods of :func:`compare_classifiers`.
METHODS = ("bca", "percentile", "wald", "mover", "mcnemar", "mcnemar-exact")

#: The default method: chosen by the coverage experiment's table (:mod:`cenmcc.intervals.auto`).
AUTO = "auto"

#: McNemar's tests: of accuracy only.
MCNEMAR = ("mcnemar", "mcnemar-exact")

#: The largest ``z`` at which the MOVER interval is searched for an end at 0 (its p-value).
Z_MAX = 38.0

#: The names of the label vectors, in messages.
NAMES = ("y_true", "y_pred_a", "y_pred_b")


@dataclasses.dataclass(frozen=True)
class ComparisonResult:
    """The difference of a measure between two classifiers on the same items.

    Attributes
    ----------
    statistic : float
        ``measure(a) - measure(b)`` (NaN where either is 0/0).
    confidence_interval : ConfidenceInterval
        Its ``low`` and ``high`` ends.
    standard_error : float
        Bootstrap standard deviation (``ddof=1``) or asymptotic standard error.
    pvalue : float
        Two-sided p-value of no difference; NaN, with an ``UndefinedMetricWarning`` saying
        why, where an asymptotic standard error is 0 and the difference is not.
    statistic_a, statistic_b : float
        The measure of each classifier.
    n_undefined : int
        Bootstrap resamples with a 0/0 measure: for a measure that omits its undefined values,
        the resamples left out (the measure of a or b NaN); for one with a fill value, the 0/0
        values of a and of b, kept at that value.
    undefined : bool
        Whether the measure of a or b is 0/0 on the items themselves: no interval then.
    method : str
    level : float
    n_resamples : int
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    standard_error: float
    pvalue: float
    statistic_a: float
    statistic_b: float
    n_undefined: int
    undefined: bool
    method: str
    level: float
    n_resamples: int


def compare_classifiers(
    y_true,
    y_pred_a,
    y_pred_b,
    measure,
    *,
    level: float = 0.95,
    method: str = AUTO,
    n_resamples: int = 9999,
    random_state=None,
):
    """Confidence interval and p-value of the difference of a measure between two classifiers.

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b : array_like, shape (n_samples,)
        The true labels and the predictions of classifiers a and b for the same items.
    measure : str, Measure, callable, or a sequence of them
        As in :func:`cenmcc.confidence_interval`; a sequence gives a dict by name.
    level : float, default 0.95
        The confidence level, in (0, 1).
    method : {"auto", "bca", "percentile", "wald", "mover", "mcnemar", "mcnemar-exact"}, \
default "auto"
        ``"auto"``: for each measure, the method that covered the difference best in the
        coverage experiment's paired scenarios nearest to these items (their number, K, the
        smallest class, the classes a or b never predicts; :mod:`cenmcc.intervals.auto`).
        ``"bca"``, ``"percentile"``: bootstrap over the items (the joint table resampled).
        ``"wald"``: the delta method on the joint table, ``d +/- z se`` (any measure with a
        gradient, as for :func:`cenmcc.confidence_interval`).
        ``"mover"``: Zou's MOVER from the Fisher's z interval of each classifier's measure and
        their correlation (measures whose range is [-1, 1]).
        ``"mcnemar"``: for accuracy only, McNemar's mid-p test; ``"mcnemar-exact"``: its exact
        conditional (binomial) test; both with the Wald interval of the difference of the
        accuracies. The former ``"delta"`` is retired (an error that says so): it was
        ``"wald"``.
    n_resamples : int, default 9999
        Bootstrap resamples.
    random_state : None, int, or numpy.random.Generator
        The seed of the resamples.

    Returns
    -------
    ComparisonResult, or dict of str to ComparisonResult
        Its ``method`` is the method used (for ``"auto"``, the one chosen).

    Warns
    -----
    CoverageWarning
        With ``"auto"``, once per call, where in the experiment's nearest paired scenarios no
        method covered the difference 0.93 of the time at level 0.95: it names the measure,
        the regime and the coverage measured there.

    Raises
    ------
    ValueError
        Label vectors of different lengths or not 1-D, no items, NaN labels, and the errors of
        :func:`cenmcc.confidence_interval` (level, resamples, unknown or retired method, a
        measure with no gradient for ``"wald"`` or ``"mover"``, ``"mover"`` for a measure whose
        range is not [-1, 1]); McNemar's tests for a measure other than accuracy; a
        comparison that needs more memory than the machine has (so many classes or resamples).
    TypeError
        Labels of different kinds (strings against numbers), or labels that are none of
        numbers, booleans, strings or bytes (``None``), as :func:`cenmcc.confusion_matrix`.

    Notes
    -----
    p-values. Bootstrap: by inverting the interval, ``p`` is ``1 - level`` of the interval
    (percentile or BCa, same resamples, same ``z0`` and acceleration) one of whose ends is 0:
    for the percentile method twice the smaller share of resampled differences on one side of
    0 (ties count half); never below ``2 / (B + 1)``, the smallest that ``B`` resamples
    resolve. Wald: ``2 Phi(-|d| / se)``, with ``se^2`` the delta method's variance of the
    difference over the joint cells (the gradients of the MCC and its macro and micro averages
    written out, :mod:`cenmcc.intervals.gradients`). MOVER: ``2 Phi(-z)`` at the smallest
    ``z`` whose MOVER interval has 0 at an end (:func:`inverted_mover_pvalue`). Where the
    standard error of the difference is 0 and the difference is not (a right on every item
    and b wrong, say), these p-values are NaN, with an ``UndefinedMetricWarning``; where both
    are 0, 1. Wald's interval and MOVER for paired MCCs are those of Itaya, Tamura, Hayashi &
    Yamamoto (2024, *Statistics in Medicine* 44:e10303) for the binary MCC and of Tamura et
    al. (2025, arXiv:2503.06450) for the macro and micro MCCs: their equations were read from
    the authors' public R code, not from the papers' text, which we could not read; the tests
    check ours against a literal per-cell transcription of them. MOVER (Zou 2008) uses each
    classifier's Fisher's z limits ``(l, u)`` and ``r = cov_ab / sqrt(v_a v_b)``:
    ``L = d - sqrt((m_a - l_a)^2 + (u_b - m_b)^2 - 2 r (m_a - l_a)(u_b - m_b))``,
    ``U = d + sqrt((u_a - m_a)^2 + (m_b - l_b)^2 - 2 r (u_a - m_a)(m_b - l_b))``.
    McNemar's tests (:func:`mcnemar_pvalue`) take the ``n_ab`` items a classifies right and b
    wrong and the ``n_ba`` the other way round: ``"mcnemar-exact"`` the exact binomial test of
    ``n_ab`` of ``n_ab + n_ba`` at 1/2, ``"mcnemar"`` its mid-p version (Fagerland, Lydersen &
    Laake 2013), whose size is closer to nominal; their interval is Wald's interval of the
    difference of paired proportions, ``d +/- z sqrt(n_ab + n_ba - n d^2) / n``.

    Examples
    --------
    >>> y = [0, 1] * 50
    >>> a = [0, 1] * 45 + [1, 0] * 5
    >>> b = [0, 1] * 40 + [1, 0] * 10
    >>> r = compare_classifiers(y, a, b, "accuracy", method="mcnemar")  # 10 against 0
    >>> round(float(r.statistic), 2), round(float(r.pvalue), 5)  # mid-p: 2^-10
    (0.1, 0.00098)
    >>> exact = compare_classifiers(y, a, b, "accuracy", method="mcnemar-exact")
    >>> round(float(exact.pvalue), 5)  # 2 * 2^-10
    0.00195
    """
    level = check_level(level)
    chosen, single = resolve(measure)
    check_method(method, (*METHODS, AUTO))
    if method in MCNEMAR and any(builtin(m) != "accuracy" for m in chosen):
        others = [describe(m) for m in chosen if builtin(m) != "accuracy"]
        raise ValueError(f"method {method!r} is for 'accuracy', not {', '.join(others)}")
    for m in chosen:
        if method != AUTO:
            check_closed_form(method, m)
    if method in (*BOOTSTRAP, AUTO):  # auto may choose a bootstrap
        check_resamples(n_resamples, level)
    cells, counts, K = joint_cells(y_true, y_pred_a, y_pred_b)
    by_method = auto_methods(cells, counts, K, chosen) if method == AUTO else {method: chosen}
    restart = restarted(random_state)
    results = {}
    for name, measures in by_method.items():
        results |= compared(cells, counts, K, measures, level, name, n_resamples, restart())
    results = {m.name: results[m.name] for m in chosen}
    return results[chosen[0].name] if single else results


def compared(cells, counts, K, chosen, level, method, n_resamples, rng) -> dict:
    """The :class:`ComparisonResult` of each measure of ``chosen`` by one ``method``, by name,
    from the joint table's non-empty ``cells`` and their ``counts``."""
    if method in BOOTSTRAP:
        check_resamples(n_resamples, level)
    width = len(cells) + 1 + 2 * K * K  # the drawn cells and two confusion matrices
    if method in BOOTSTRAP:
        what = f"a bootstrap of {n_resamples:,} resamples of {K:,} classes"
        check_memory(peak_bytes(n_resamples, 3 * len(chosen), width), what)
    else:
        check_memory(8 * 4 * width, f"the comparison of {K:,} classes")
    if method == "bca" and counts.sum() < 2:
        raise ValueError("BCa's jackknife needs at least 2 items")
    both = margins(counts[None, None], cells, K)[:, 0, 0]  # (2, K, K): a's and b's
    values, _, undefined = evaluate(both[None], chosen)
    difference = {m.name: values[m.name][:, :1] - values[m.name][:, 1:] for m in chosen}
    if method in BOOTSTRAP:
        drawn, weights = drawn_cells(cells, counts, K)
        parts = bootstrap(
            weights[None], chosen, difference, level, method, n_resamples, rng,
            margins_values(drawn, K, chosen), width, null=0.0,
        )  # fmt: skip
    else:
        parts = {
            m.name: asymptotic(cells, counts, both, values[m.name][0], m, level, method)
            for m in chosen
            if not undefined[m.name][0]
        }
    results = {}
    for m in chosen:
        bad = bool(undefined[m.name][0])
        part = {key: float(np.ravel(x)[0]) for key, x in parts.get(m.name, {}).items()}
        nan = float("nan")
        results[m.name] = ComparisonResult(
            nan if bad else float(difference[m.name][0, 0]),
            ConfidenceInterval(nan if bad else part["low"], nan if bad else part["high"]),
            nan if bad else part["standard_error"],
            nan if bad else part["pvalue"],
            float(values[m.name][0, 0]),
            float(values[m.name][0, 1]),
            int(part.get("n_undefined", 0)),
            bad,
            method,
            level,
            n_resamples if method in BOOTSTRAP else 0,
        )
    return results


def auto_methods(cells, counts, K: int, chosen: list[Measure]) -> dict[str, list[Measure]]:
    """``method="auto"``: the measures each chosen method serves, from the paired scenarios of
    the coverage experiment nearest to this test set (:mod:`cenmcc.intervals.auto`; McNemar's
    tests for accuracy only); one :class:`cenmcc.CoverageWarning` for the measures whose
    choice may under-cover there."""
    t, i, j = cells.T
    true = np.bincount(t, counts, K)
    never = max((np.bincount(side, counts, K) == 0).sum() for side in (i, j))
    features = auto.regime([counts.sum()], K, [true.min()], [never])
    by_method, low = {}, {}
    for m in chosen:
        allowed = [x for x in METHODS if applies(x, m)]
        methods, coverage = auto.choose(features, m, auto.table("paired"), allowed)
        by_method.setdefault(methods[0], []).append(m)
        if coverage[0] < auto.FLAG:
            low[m.name] = (coverage[0], methods[0], auto.describe_regime(features[0]), 1, 1)
    auto.warn(low, "interval and p-value of the difference")
    return by_method


def applies(method: str, m: Measure) -> bool:
    """Whether ``method`` can compare ``m`` (McNemar's tests: accuracy only)."""
    if method in MCNEMAR:
        return builtin(m) == "accuracy"
    return interval_applies(method, m)


def joint_cells(y_true, y_pred_a, y_pred_b) -> tuple[np.ndarray, np.ndarray, int]:
    """The non-empty cells ``(L, 3)`` of the joint table of (true, a's, b's) class indices, in
    the table's row-major order, their counts ``(L,)`` and the number of classes K (the sorted
    union of the labels, at least 2), through the label path of :func:`cenmcc.confusion_matrix`.
    """
    read = read_together((y_true, y_pred_a, y_pred_b), NAMES)
    classes = union(*read)
    codes = [
        encode(x, classes, name=name, classes_name="classes")
        for x, name in zip(read, NAMES, strict=True)
    ]
    K = max(classes.labels.size, 2)
    # One integer per item, the cell's row-major index: a 1-D unique (sorted, so the cells come
    # in the table's row-major order) is some 30 times as fast as the unique rows of the
    # (n, 3) codes (0.08 s against 2.6 s for 10**6 items of 20 classes).
    flat, counts = np.unique(np.ravel_multi_index(codes, (K, K, K)), return_counts=True)
    cells = np.stack(np.unravel_index(flat, (K, K, K)), axis=1)
    return cells, counts.astype(np.int64), K


def drawn_cells(cells, counts, K: int) -> tuple[np.ndarray, np.ndarray]:
    """The cells a resample draws and their counts: the non-empty cells and the table's last.

    numpy draws a multinomial cell by cell, an empty cell draws nothing unless it is the last,
    and the last takes what is left: the resamples of these cells are those of the whole
    ``K^3`` table, at the cost of its non-empty cells only.
    """
    last = np.full((1, 3), K - 1)
    if len(cells) and (cells[-1] == last[0]).all():
        return cells, counts
    return np.concatenate([cells, last]), np.append(counts, 0)


def margins(draws, cells, K: int) -> np.ndarray:
    """The confusion matrices ``(2, m, R, K, K)`` of a and b of draws ``(m, R, L)`` of ``cells``."""
    m, R, L = draws.shape
    offsets = np.arange(m * R)[:, None] * (K * K)
    weights = draws.reshape(m * R, L).ravel()
    out = np.empty((2, m * R * K * K), dtype=np.int64)
    for side, column in enumerate((1, 2)):
        index = (offsets + cells[:, 0] * K + cells[:, column]).ravel()
        out[side] = np.bincount(index, weights, m * R * K * K)
    return out.reshape(2, m, R, K, K)


def margins_values(cells, K: int, chosen: list[Measure]):
    """``values_of`` for draws of the joint cells: differences ``(m, R)`` and 0/0 counts ``(m,)``
    (for a measure that omits its undefined values, the resamples left out: where the measure
    of a or b is NaN; for one with a fill value, the 0/0 values of a and of b)."""

    def values_of(draws):
        R = draws.shape[1]
        both = margins(draws, cells, K)
        values, _, n_undefined = evaluate(np.concatenate(list(both), axis=1), chosen)
        differences = {m.name: values[m.name][:, :R] - values[m.name][:, R:] for m in chosen}
        for m in chosen:
            if m.omits:
                n_undefined[m.name] = np.count_nonzero(np.isnan(differences[m.name]), axis=1)
        return differences, n_undefined

    return values_of


def asymptotic(cells, counts, both, thetas, m: Measure, level: float, method: str) -> dict:
    """The interval, standard error and p-value of the difference of ``m`` between the two
    confusion matrices ``both``, whose measures are ``thetas``, by a method that draws no
    resample (see :func:`compare_classifiers`).

    The delta method over the joint cells ``(t, i, j)`` with proportions ``p``: the gradients
    of the measure of a and of b are ``g_a[t, i]`` and ``g_b[t, j]`` (``g_a``, ``g_b`` its
    gradients at a's and b's confusion matrix), their variances and covariance
    :func:`delta_covariance`, and the difference's gradient ``g_a[t, i] - g_b[t, j]``.
    """
    from scipy.special import ndtri

    n = counts.sum()
    p = counts / n
    t, i, j = cells.T
    g = gradient(both, m).reshape(both.shape)
    ga, gb = g[0][t, i], g[1][t, j]
    theta_a, theta_b = (float(x) for x in thetas)
    d = theta_a - theta_b
    se = float(np.sqrt(delta_variance(p, ga - gb, n)))
    z = ndtri((1 + level) / 2)
    if method == "mover":
        ends = mover(theta_a, theta_b, p, ga, gb, n)
        low, high = ends(z)
        pvalue = inverted_mover_pvalue(ends, d, se)
    else:
        width = m.bounds[1] - m.bounds[0]
        low, high = np.clip([d - z * se, d + z * se], -width, width)
        pvalue = mcnemar_pvalue(cells, counts, method) if method in MCNEMAR else None
        pvalue = wald_pvalue(d, se, method) if pvalue is None else pvalue
    return {"low": low, "high": high, "standard_error": se, "pvalue": pvalue}


def mover(theta_a, theta_b, p, ga, gb, n):
    """Zou's MOVER interval of ``theta_a - theta_b`` as a function of the normal quantile ``z``.

    Each measure's Fisher's z interval ``(l, u)`` at ``z`` (:func:`fisher_interval`, its
    standard error from :func:`delta_covariance`), and their correlation ``r = cov_ab /
    sqrt(v_a v_b)`` (0 where a variance is 0: a
    measure of 1 or -1, say), give ``L = d - sqrt((theta_a - l_a)^2 +
    (u_b - theta_b)^2 - 2 r (theta_a - l_a)(u_b - theta_b))`` and ``U = d + sqrt((u_a -
    theta_a)^2 + (theta_b - l_b)^2 - 2 r (u_a - theta_a)(theta_b - l_b))``: Zou (2008),
    *Statistics in Medicine* 27:1693, with the standard cross terms.
    """
    va, vb = delta_variance(p, ga, n), delta_variance(p, gb, n)
    product = va * vb
    r = delta_covariance(p, ga, gb, n) / np.sqrt(product) if product > 0 else 0.0
    r = float(np.clip(r, -1.0, 1.0))  # rounding can put |r| a hair above 1
    d = theta_a - theta_b

    def ends(z):
        la, ua = fisher_interval(theta_a, np.sqrt(va), z)
        lb, ub = fisher_interval(theta_b, np.sqrt(vb), z)
        below = (theta_a - la) ** 2 + (ub - theta_b) ** 2 - 2 * r * (theta_a - la) * (ub - theta_b)
        above = (ua - theta_a) ** 2 + (theta_b - lb) ** 2 - 2 * r * (ua - theta_a) * (theta_b - lb)
        return float(d - np.sqrt(max(below, 0.0))), float(d + np.sqrt(max(above, 0.0)))

    return ends


def inverted_mover_pvalue(ends, d: float, se: float) -> float:
    """Two-sided p-value of no difference from the MOVER interval: ``2 Phi(-z)`` at the
    smallest ``z`` whose interval ``ends(z)`` has 0 at an end (found by Brent's method); 0
    where no interval up to ``z = Z_MAX`` reaches 0; NaN as :func:`wald_pvalue` says where the
    standard error ``se`` of the difference is 0."""
    from scipy.optimize import brentq
    from scipy.special import ndtr

    if se == 0 or d == 0:
        return wald_pvalue(d, se, "mover")
    side = 0 if d > 0 else 1  # the end that moves towards 0

    def end(z):
        return ends(z)[side]

    if np.sign(end(Z_MAX)) == np.sign(d):
        return 0.0
    return float(2 * ndtr(-brentq(end, 0.0, Z_MAX, xtol=1e-12)))


def mcnemar_pvalue(cells, counts, method: str) -> float:
    """McNemar's p-value from the ``b`` items a classifies right and b wrong, and the ``c`` the
    other way round, ``N = b + c`` (1 where ``N = 0``).

    ``"mcnemar-exact"``: the exact conditional test, :func:`scipy.stats.binomtest` of ``b``
    of ``N`` at 1/2 (two-sided). ``"mcnemar"``: its mid-p version (Fagerland, Lydersen & Laake
    2013, *BMC Medical Research Methodology* 13:91): ``2 P(X <= min(b, c)) - P(X = min(b,
    c))`` with ``X ~ Binomial(N, 1/2)``, the exact p-value before its cap at 1 less the point
    probability of what was observed; 1 where ``b = c``.
    """
    from scipy import stats

    t, i, j = cells.T
    right_a = int(counts[(i == t) & (j != t)].sum())
    right_b = int(counts[(j == t) & (i != t)].sum())
    N = right_a + right_b
    if N == 0:
        return 1.0
    if method == "mcnemar-exact":
        return float(stats.binomtest(right_a, N, 0.5).pvalue)
    k = min(right_a, right_b)
    return float(2 * stats.binom.cdf(k, N, 0.5) - stats.binom.pmf(k, N, 0.5))


def wald_pvalue(d: float, se: float, method: str) -> float:
    """``2 Phi(-|d| / se)``; 1 where ``d`` and ``se`` are both 0 (no difference on any item);
    NaN, with a warning that says why, where only ``se`` is 0: the asymptotic variance of a
    difference is 0 on such a table (every item agrees with both or neither classifier, say),
    and ``d / se`` is no test."""
    from scipy.special import ndtr

    if se > 0:
        return float(2 * ndtr(-abs(d) / se))
    if d == 0:
        return 1.0
    warnings.warn(
        UndefinedMetricWarning(
            f"the p-value of method {method!r} is undefined: the difference is {d:.6g} with a "
            "standard error of 0 (its asymptotic variance vanishes on this table); set to NaN, "
            "use a bootstrap method or, for accuracy, 'mcnemar'",
            1,
        ),
        stacklevel=caller_stacklevel(),
    )
    return float("nan")
