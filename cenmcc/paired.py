"""Paired comparison of two classifiers on the same items: the difference of any measure.

The items of a test set with the truth and the two predictions are one joint table ``T`` of
``K^3`` cells ``(true, predicted by a, predicted by b)``. Resampling the items is a multinomial
draw of ``T``; each draw's two confusion matrices are its margins ``T.sum(2)`` (classifier a)
and ``T.sum(1)`` (classifier b), evaluated as two stacks. The delta method differentiates
``f(C_a(T)) - f(C_b(T))`` in the ``K^3`` proportions of ``T``: the gradient at ``(t, i, j)`` is
``g_a[t, i] - g_b[t, j]``.

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

import numpy as np

from .intervals.arguments import check_level, check_method, check_resamples, resolve
from .intervals.asymptotic import delta_variance, gradient
from .intervals.resampling import BOOTSTRAP, bootstrap, evaluate
from .intervals.results import ConfidenceInterval
from .registry import Measure

#: The methods of :func:`compare_classifiers`.
METHODS = ("bca", "percentile", "delta", "mcnemar")


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
        Two-sided p-value of no difference.
    statistic_a, statistic_b : float
        The measure of each classifier.
    n_undefined : int
        Bootstrap resamples in which either measure was 0/0 (kept at its fill value), counted
        once per classifier.
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
    method: str = "bca",
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
    method : {"bca", "percentile", "delta", "mcnemar"}, default "bca"
        ``"bca"``, ``"percentile"``: bootstrap over the items (the joint table resampled);
        ``"delta"``: the delta method on the joint table; ``"mcnemar"``: for accuracy only,
        McNemar's test (its chi-square without continuity correction) with the delta interval.
    n_resamples : int, default 9999
        Bootstrap resamples.
    random_state : None, int, or numpy.random.Generator
        The seed of the resamples.

    Returns
    -------
    ComparisonResult, or dict of str to ComparisonResult

    Raises
    ------
    ValueError
        Label vectors of different lengths or not 1-D, no items, and the errors of
        :func:`cenmcc.confidence_interval` (level, resamples, unknown method, a measure with no
        gradient for ``"delta"``); ``"mcnemar"`` for a measure other than accuracy.

    Notes
    -----
    p-values. Bootstrap: by inverting the interval, ``p`` is ``1 - level`` of the interval
    (percentile or BCa, same resamples, same ``z0`` and acceleration) one of whose ends is 0:
    for the percentile method twice the smaller share of resampled differences on one side of
    0 (ties count half); never below ``2 / (B + 1)``, the smallest that ``B`` resamples
    resolve. Delta: ``2 Phi(-|d| / se)``, the gradients of the MCC and its macro and micro
    averages written out (:mod:`cenmcc.intervals.gradients`): the paired differences of the
    binary MCC that Itaya et al. (2024, arXiv 2405.12622) and of the macro- and micro-averaged
    MCCs that Tamura et al. (2025, arXiv 2503.06450) treat, by our derivation, not checked
    against their printed variances (we could read only their abstracts).
    McNemar (1947): ``(n_ab - n_ba)^2 / (n_ab + n_ba)`` against chi-square with 1 degree of
    freedom, ``n_ab`` the items a classifies right and b wrong; its interval is the delta
    method's, the Wald interval of paired proportions
    ``d +/- z sqrt(n_ab + n_ba - n d^2) / n``.

    Examples
    --------
    >>> y = [0, 1] * 50
    >>> a = [0, 1] * 45 + [1, 0] * 5
    >>> b = [0, 1] * 40 + [1, 0] * 10
    >>> r = compare_classifiers(y, a, b, "accuracy", method="mcnemar")
    >>> round(float(r.statistic), 2), round(float(r.pvalue), 4)
    (0.1, 0.0016)
    """
    level = check_level(level)
    chosen, single = resolve(measure)
    check_method(method, METHODS)
    if method == "mcnemar" and any(m.name != "accuracy" for m in chosen):
        others = [m.name for m in chosen if m.name != "accuracy"]
        raise ValueError(f"method 'mcnemar' is for 'accuracy', not {others}")
    if method in BOOTSTRAP:
        check_resamples(n_resamples, level)
    T = joint_table(y_true, y_pred_a, y_pred_b)
    K = T.shape[0]
    if method == "bca" and T.sum() < 2:
        raise ValueError("BCa's jackknife needs at least 2 items")
    values, _, undefined = evaluate(np.stack([T.sum(2), T.sum(1)])[None], chosen)
    difference = {m.name: values[m.name][:, :1] - values[m.name][:, 1:] for m in chosen}
    if method in BOOTSTRAP:
        rng = np.random.default_rng(random_state)
        values_of = margins_values(K, chosen)
        parts = bootstrap(
            T[None], chosen, difference, level, method, n_resamples, rng, values_of, null=0.0
        )
    else:
        parts = {m.name: delta(T, m, difference[m.name][0, 0], level, method) for m in chosen}
    results = {}
    for m in chosen:
        part = {key: float(np.ravel(x)[0]) for key, x in parts[m.name].items()}
        bad = bool(undefined[m.name][0])
        nan = float("nan")
        results[m.name] = ComparisonResult(
            nan if bad else float(difference[m.name][0, 0]),
            ConfidenceInterval(nan if bad else part["low"], nan if bad else part["high"]),
            nan if bad else part["standard_error"],
            nan if bad else part["pvalue"],
            float(values[m.name][0, 0]),
            float(values[m.name][0, 1]),
            int(part["n_undefined"]),
            bad,
            method,
            level,
            n_resamples if method in BOOTSTRAP else 0,
        )
    return results[chosen[0].name] if single else results


def joint_table(y_true, y_pred_a, y_pred_b) -> np.ndarray:
    """The counts ``(K, K, K)`` of (true, a's, b's) labels; classes are their sorted union."""
    vectors = [np.asarray(y) for y in (y_true, y_pred_a, y_pred_b)]
    if any(v.ndim != 1 for v in vectors):
        shapes = [v.shape for v in vectors]
        raise ValueError(f"y_true, y_pred_a and y_pred_b must be 1-D, got shapes {shapes}")
    lengths = [v.size for v in vectors]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"y_true, y_pred_a and y_pred_b must have the same length, got lengths {lengths}"
        )
    if not lengths[0]:
        raise ValueError("y_true, y_pred_a and y_pred_b hold no items")
    classes, codes = np.unique(np.concatenate(vectors), return_inverse=True)
    K = max(classes.size, 2)
    t, a, b = codes.reshape(3, -1)
    return np.bincount((t * K + a) * K + b, minlength=K**3).reshape(K, K, K)


def margins_values(K: int, chosen: list[Measure]):
    """``values_of`` for draws of the joint table: differences ``(m, R)``, 0/0 counts ``(m,)``."""

    def values_of(draws):
        m, R = draws.shape[:2]
        T = draws.reshape(m, R, K, K, K)
        values, _, n_undefined = evaluate(np.concatenate([T.sum(4), T.sum(3)], axis=1), chosen)
        return {x: v[:, :R] - v[:, R:] for x, v in values.items()}, n_undefined

    return values_of


def delta(T, m: Measure, d: float, level: float, method: str) -> dict:
    """Delta-method (or McNemar) interval, standard error and p-value of the difference ``d``."""
    from scipy import stats
    from scipy.special import ndtr, ndtri

    n = T.sum()
    margins = np.stack([T.sum(2), T.sum(1)])
    g = gradient(margins, m).reshape(2, *T.shape[:2])
    G = g[0][:, :, None] - g[1][:, None, :]  # at (t, i, j): g_a[t, i] - g_b[t, j]
    se = float(np.sqrt(delta_variance((T / n).ravel(), G.ravel(), n)))
    z = ndtri((1 + level) / 2)
    if method == "mcnemar":
        t = np.arange(T.shape[0])
        right_a = T[t, t, :].sum() - np.trace(T[t, t, :])
        right_b = T[t, :, t].sum() - np.trace(T[t, :, t])
        discordant = right_a + right_b
        pvalue = 1.0 if not discordant else stats.chi2.sf((right_a - right_b) ** 2 / discordant, 1)
    else:
        pvalue = 2 * ndtr(-abs(d) / se) if se > 0 else float(d == 0)
    width = m.bounds[1] - m.bounds[0]
    low, high = np.clip([d - z * se, d + z * se], -width, width)
    return {
        "low": low,
        "high": high,
        "standard_error": se,
        "pvalue": pvalue,
        "n_undefined": 0,
    }
