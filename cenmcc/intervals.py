"""Confidence intervals for any measure of a confusion matrix.

Resampling the items of a test set is a multinomial draw of its confusion matrix: the ``B``
bootstrap resamples of a matrix of ``n`` items are one ``(B, K, K)`` stack drawn with
``rng.multinomial(n, C / n, size=B)``, which :func:`cenmcc.measures` evaluates at once. The
leave-one-out matrices that BCa's acceleration needs are only the ``K^2`` matrices ``C`` minus
one item of cell ``(i, j)``, each standing for ``C_ij`` items. The delta method needs the
gradient of the measure in the cell proportions ``p`` and the multinomial covariance
``(diag(p) - p p^T) / n``, whose quadratic form is ``(sum p g^2 - (sum p g)^2) / n``.

A resample whose measure is undefined (0/0) keeps the measure's documented fill value (what the
measure's own function returns for it), and the number of such resamples is reported with the
interval; a matrix whose own value is undefined gets a NaN interval and ``undefined=True``.

Examples
--------
>>> import cenmcc
>>> C = [[40, 5, 5], [4, 38, 8], [2, 6, 42]]
>>> r = cenmcc.confidence_interval(C, "mcc", random_state=0)
>>> round(float(r.statistic), 3)
0.701
>>> bool(r.confidence_interval.low < r.statistic < r.confidence_interval.high)
True
>>> w = cenmcc.confidence_interval(C, "accuracy", method="wilson")
>>> round(float(w.confidence_interval.low), 4), round(float(w.confidence_interval.high), 4)
(0.7289, 0.8562)
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

# scipy.special is imported in the functions that use it: `import cenmcc`, which a
# simulation's workers do, loads numpy only (tests/experiments/test_random_matrices.py).
from . import fscore
from ._gradients import GRADIENTS
from ._marginals import Counts
from .registry import MEASURES, Measure, measures

#: The methods of :func:`confidence_interval`.
METHODS = ("bca", "percentile", "delta", "wilson", "fce")
BOOTSTRAP = ("bca", "percentile")

#: The measures that are the proportion of items on the diagonal, for Wilson's interval, and
#: the micro-averaged MCC, an increasing affine function of it.
PROPORTIONS = ("accuracy", "f1_micro", "precision_micro", "recall_micro", "micro_mcc")

#: The per-class measures with Wilson's interval, shape (..., K): the axis their trials are
#: summed over (recall: ``C_kk`` of the ``t_k`` items of class k; precision: of the ``p_k``
#: items predicted as k).
PER_CLASS = {"recall": -1, "precision": -2}

#: Cells (resamples x K^2) drawn and evaluated at once: a few tens of MB of temporaries.
CHUNK_CELLS = 2_000_000

#: Relative step of the central differences on the proportions, about eps^(1/3).
STEP = 6e-6

#: One-sided differences of a cell that differ by more than this share of the largest
#: (both per relative change of a cell) mean the measure has no gradient there.
KINK = 1e-2


class ConfidenceInterval(NamedTuple):
    """The ends of an interval, as in :func:`scipy.stats.bootstrap`."""

    low: np.ndarray
    high: np.ndarray


@dataclasses.dataclass(frozen=True)
class IntervalResult:
    """An interval of a measure for every matrix of a stack (``scipy.stats.bootstrap``'s names).

    Attributes
    ----------
    statistic : ndarray, shape (...)
        The measure of each matrix (NaN where it is undefined).
    confidence_interval : ConfidenceInterval
        ``low`` and ``high``, each of shape (...); NaN where the measure is undefined.
    standard_error : ndarray, shape (...)
        The bootstrap standard deviation (``ddof=1``), or the asymptotic standard error.
    n_undefined : ndarray of int, shape (...)
        Bootstrap resamples whose measure was 0/0 (kept at the measure's fill value); 0 for
        the other methods.
    undefined : ndarray of bool, shape (...)
        Where the measure of the matrix itself is 0/0: no interval there.
    method : str
    level : float
    n_resamples : int
        Resamples per matrix (0 for the methods that draw none).
    """

    statistic: np.ndarray
    confidence_interval: ConfidenceInterval
    standard_error: np.ndarray
    n_undefined: np.ndarray
    undefined: np.ndarray
    method: str
    level: float
    n_resamples: int


def confidence_interval(
    counts,
    measure,
    *,
    level: float = 0.95,
    method: str = "bca",
    n_resamples: int = 9999,
    random_state=None,
):
    """Confidence interval of a measure for every confusion matrix of a stack.

    Parameters
    ----------
    counts : array_like, shape (..., K, K)
        Confusion matrices of whole-number counts (one item per count), rows = true class.
        Labels go through :func:`cenmcc.confusion_matrix` first.
    measure : str, Measure, callable, or a sequence of them
        A name of :data:`cenmcc.MEASURES`, a :class:`cenmcc.Measure`, or a function of counts
        (a cenmcc function is matched to its entry of :data:`cenmcc.MEASURES`). A sequence
        gives a dict of results by name, from the same resamples. ``"recall"`` or
        ``"precision"`` (or :func:`cenmcc.recall`, :func:`cenmcc.precision`), alone and with
        ``method="wilson"``: the interval of every class, arrays of shape ``(..., K)``.
    level : float, default 0.95
        The confidence level, in (0, 1).
    method : {"bca", "percentile", "delta", "wilson", "fce"}, default "bca"
        ``"bca"``, ``"percentile"``: bootstrap over the items (any measure).
        ``"delta"``: the delta method (any measure with a gradient in the cell proportions;
        written out for the MCC and its macro and micro averages, numerical otherwise); for
        the MCC on Fisher's z scale.
        ``"wilson"``: Wilson's score interval (accuracy, the micro averages, the micro MCC, and
        per class the recall and precision).
        ``"fce"``: the large-sample variance of Cohen's kappa of Fleiss, Cohen & Everitt.
        A closed form asked for a measure it is not written for is an error.
    n_resamples : int, default 9999
        Bootstrap resamples per matrix.
    random_state : None, int, or numpy.random.Generator
        The seed of the resamples.

    Returns
    -------
    IntervalResult, or dict of str to IntervalResult
        One per measure; arrays of shape (...), 0-d for one matrix; (..., K) for per-class
        recall or precision.

    Raises
    ------
    ValueError
        A level outside (0, 1), an unknown method, fewer than 2 resamples or too few for the
        level, counts that are not whole numbers, a matrix of fewer than 2 items for BCa, a
        closed form asked for another measure, a measure with no gradient for ``"delta"``,
        per-class recall or precision asked for with another method than ``"wilson"``.
    TypeError
        A measure that is neither a name, a Measure nor a callable.

    Notes
    -----
    Percentile: the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (linear
    interpolation) of the ``B`` resampled values. BCa (Efron & Tibshirani 1993, Sec. 14.3):
    the quantiles at ``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))``, with
    ``z0 = Phi^-1((#{theta* < theta} + #{theta* <= theta}) / 2B)`` and the acceleration
    ``a = sum C_ij d_ij^3 / (6 (sum C_ij d_ij^2)^(3/2))`` from the jackknife deviations
    ``d_ij`` of the leave-one-out matrix of cell (i, j), weighted by its ``C_ij`` items: the
    conventions of :func:`scipy.stats.bootstrap`, which the tests check against.

    Delta: ``se^2 = (sum_c p_c g_c^2 - (sum_c p_c g_c)^2) / n`` with ``g`` the gradient of the
    measure in the proportions ``p``: written out for ``"mcc"``, ``"macro_mcc"`` and
    ``"micro_mcc"`` (:mod:`cenmcc._gradients`), central differences of relative step ``6e-6``
    otherwise; the normal interval ``theta +/- z se``, for the MCC
    ``tanh(atanh(r) +/- z se / (1 - r^2))``. Itaya, Tamura, Hayashi & Yamamoto (2024, arXiv
    2405.12622; *Statistics in Medicine*, doi:10.1002/sim.10303) give asymptotic intervals for
    the binary MCC and paired differences of MCCs (a third-party summary of the paper says
    their simulations favour Fisher's z over the untransformed interval); Tamura et al. (2025,
    arXiv 2503.06450) give delta-method intervals for macro- and micro-averaged MCCs. We could
    read only their abstracts: the variances here are the multinomial delta method's, derived
    by us and checked against numerical gradients and simulation, not against their printed
    equations. The micro MCC is ``(K acc - 1) / (K - 1)``; its
    ``"wilson"`` interval is the accuracy's, mapped through that line.
    Closed forms: :func:`wilson_interval`, :func:`kappa_standard_error`. Delta and closed
    forms are clipped to the measure's bounds; their ``standard_error`` is the asymptotic one
    (Wald's ``sqrt(p (1 - p) / n)`` for Wilson).

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[[30, 10], [5, 55]], [[50, 0], [0, 0]]])  # the second MCC is 0/0
    >>> r = confidence_interval(C, "mcc", method="delta")
    >>> r.undefined.tolist(), np.round(r.confidence_interval.low, 3).tolist()
    ([False, True], [0.511, nan])

    The recall of each class, with Wilson's interval:

    >>> r = confidence_interval([[40, 10], [5, 45]], "recall", method="wilson")
    >>> low, high = r.confidence_interval
    >>> np.round(low, 3).tolist(), np.round(high, 3).tolist()
    ([0.67, 0.786], [0.888, 0.957])
    """
    level = check_level(level)
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"unknown method {method!r}; the methods are {list(METHODS)}")
    if per_class_name(measure):
        return per_class_wilson(counts, per_class_name(measure), level, method)
    chosen, single = resolve(measure)
    C, stack_shape = whole_counts(counts)
    for m in chosen:
        check_closed_form(method, m)
    if method in BOOTSTRAP:
        check_resamples(n_resamples, level)
        if method == "bca" and C.shape[0] and C.sum(axis=(-2, -1)).min() < 2:
            raise ValueError("BCa's jackknife needs at least 2 items in every matrix")
    statistic, undefined, _ = evaluate(C[:, None], chosen)
    if method in BOOTSTRAP:
        rng = np.random.default_rng(random_state)
        parts = bootstrap(C, chosen, statistic, level, method, n_resamples, rng)
    else:
        parts = {m.name: analytic(C, m, statistic[m.name][:, 0], level, method) for m in chosen}
    results = {}
    for m in chosen:
        part = parts[m.name]
        bad = undefined[m.name][:, 0]
        fields = [statistic[m.name][:, 0], part["low"], part["high"], part["standard_error"]]
        fields = [np.where(bad, np.nan, x).reshape(stack_shape)[()] for x in fields]
        results[m.name] = IntervalResult(
            fields[0],
            ConfidenceInterval(fields[1], fields[2]),
            fields[3],
            part["n_undefined"].reshape(stack_shape)[()],
            bad.reshape(stack_shape)[()],
            method,
            level,
            n_resamples if method in BOOTSTRAP else 0,
        )
    return results[chosen[0].name] if single else results


def per_class_name(measure) -> str | None:
    """``"recall"`` or ``"precision"`` where ``measure`` is that name or function, else None."""
    for name in PER_CLASS:
        if (isinstance(measure, str) and measure == name) or measure is getattr(fscore, name):
            return name
    return None


def per_class_wilson(counts, name: str, level: float, method: str) -> IntervalResult:
    """Wilson's interval of the recall or precision of every class: arrays ``(..., K)``.

    Class k's recall is ``C_kk`` successes of ``t_k`` trials, its precision ``C_kk`` of ``p_k``;
    where there are no trials the class is undefined (NaN, ``undefined`` True).
    """
    if method != "wilson":
        raise ValueError(
            f"per-class {name!r} has Wilson's interval only (method='wilson'), not {method!r}; "
            f"its averages ('{name}_macro', ...) have every method"
        )
    C, stack_shape = whole_counts(counts)
    successes = np.diagonal(C, axis1=-2, axis2=-1)
    trials = C.sum(axis=PER_CLASS[name])
    undefined = trials == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = wilson_interval(successes, trials, level)
        fields = [successes / trials, low, high, np.sqrt(successes * (trials - successes))]
        fields[3] /= trials**1.5  # Wald's sqrt(r (1 - r) / t)
    shape = (*stack_shape, C.shape[-1])
    fields = [np.where(undefined, np.nan, x).reshape(shape) for x in fields]
    return IntervalResult(
        fields[0],
        ConfidenceInterval(fields[1], fields[2]),
        fields[3],
        np.zeros(shape, dtype=np.int64),
        undefined.reshape(shape),
        method,
        level,
        0,
    )


def check_level(level) -> float:
    """``level`` as a float in (0, 1), or a one-line error."""
    if not isinstance(level, numbers.Real) or isinstance(level, bool):
        raise TypeError(f"level must be a real number in (0, 1), got {level!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return float(level)


def check_resamples(n_resamples, level: float) -> None:
    """Refuse fewer than 2 resamples, or too few for the tails of ``level``."""
    if not isinstance(n_resamples, numbers.Integral) or isinstance(n_resamples, bool):
        raise TypeError(f"n_resamples must be an integer, got {n_resamples!r}")
    if n_resamples < 2:
        raise ValueError(f"n_resamples must be at least 2, got {n_resamples}")
    needed = math.ceil(2 / (1 - level) - 1 - 1e-9)
    if n_resamples < needed:
        raise ValueError(
            f"n_resamples {n_resamples} is too few for level {level}: each tail needs a "
            f"resample, at least {needed}"
        )


def resolve(measure) -> tuple[list[Measure], bool]:
    """The measures asked for, and whether one was asked for alone."""
    single = isinstance(measure, str | Measure) or callable(measure)
    chosen = [_one(m) for m in ([measure] if single else _sequence(measure))]
    if not chosen:
        raise ValueError("measure: no measure given")
    names = [m.name for m in chosen]
    if len(set(names)) < len(names):
        raise ValueError(f"measure: a measure is asked for twice in {names}")
    return chosen, single


def _sequence(measure) -> Sequence:
    if not isinstance(measure, Sequence):
        raise TypeError(
            f"measure must be a name, a Measure, a function or a sequence of them, got {measure!r}"
        )
    return measure


def _one(measure) -> Measure:
    if isinstance(measure, Measure):
        return measure
    if isinstance(measure, str):
        if measure not in MEASURES:
            raise ValueError(f"unknown measure {measure!r}; the known names are {list(MEASURES)}")
        return MEASURES[measure]
    if callable(measure):
        for known in MEASURES.values():
            if known.function is measure:
                return known
        return Measure(getattr(measure, "__name__", "measure"), measure, True)
    raise TypeError(f"measure must be a name, a Measure or a function, got {measure!r}")


def whole_counts(counts) -> tuple[np.ndarray, tuple]:
    """Validated counts as an int64 stack ``(M, K, K)`` and the stack's shape."""
    C = Counts(counts, name="counts").C
    if C.dtype.kind == "f":
        if not np.array_equal(C, np.round(C)):
            raise ValueError(
                "counts must be whole numbers (one item per count): intervals resample items"
            )
        C = C.astype(np.int64)
    return C.reshape(-1, *C.shape[-2:]), C.shape[:-2]


def check_closed_form(method: str, m: Measure) -> None:
    """Refuse a closed form asked for a measure it is not written for."""
    if method == "wilson" and m.name not in PROPORTIONS:
        raise ValueError(f"method 'wilson' is for {list(PROPORTIONS)}, not {m.name!r}")
    if method == "fce" and m.name != "cohen_kappa":
        raise ValueError(f"method 'fce' is for 'cohen_kappa', not {m.name!r}")


def evaluate(stack: np.ndarray, chosen: list[Measure]):
    """Measures of ``stack`` ``(G, R, K, K)``: values ``(G, R)``, 0/0 flags and counts ``(G,)``.

    One call of :func:`cenmcc.measures` for the whole stack; a measure with 0/0 values is
    evaluated again group by group to say which group they are in (when there is more than one
    group), and, where a group has one matrix, which matrix.
    """
    G, R = stack.shape[:2]
    values, n_undefined = measures(
        stack.reshape(G * R, *stack.shape[2:]), chosen, count_undefined=True
    )
    out, flags, counts = {}, {}, {}
    for m in chosen:
        out[m.name] = np.asarray(values[m.name], dtype=np.float64).reshape(G, R)
        counts[m.name] = np.zeros(G, dtype=np.int64)
        if n_undefined[m.name] and G == 1:
            counts[m.name][0] = n_undefined[m.name]
        elif n_undefined[m.name]:
            for g in range(G):
                counts[m.name][g] = measures(stack[g], [m], count_undefined=True)[1][m.name]
        flags[m.name] = (counts[m.name] > 0)[:, None] if R == 1 else None
    return out, flags, counts


def bootstrap(C, chosen, statistic, level, method, B, rng, values_of=None, null=None):
    """Percentile or BCa intervals of each matrix of ``C``: a dict of arrays ``(M,)`` by measure.

    Keys ``low``, ``high``, ``standard_error``, ``n_undefined`` (0/0 resamples) and ``pvalue``
    (NaN unless ``null`` is given).

    ``values_of(draws)`` gives the values ``(m, R)`` and 0/0 counts ``(m,)`` of each measure
    for multinomial draws of the cells ``(m, R, cells)``; by default the draws are confusion
    matrices (:func:`matrix_values`), and the paired comparison passes its own. ``null``: the
    value whose two-sided p-value is wanted, by inverting the interval (:func:`inverted_pvalue`).
    """
    values_of = values_of or matrix_values(C.shape[-2:], chosen)
    M, cells = C.shape[0], math.prod(C.shape[1:])
    n = C.reshape(M, -1).sum(axis=1)
    p = C.reshape(M, -1) / n[:, None]
    q = np.array([(1 - level) / 2, (1 + level) / 2])
    fields = ("low", "high", "standard_error", "pvalue")
    out = {m.name: {f: np.full(M, np.nan) for f in fields} for m in chosen}
    for m in chosen:
        out[m.name]["n_undefined"] = np.zeros(M, dtype=np.int64)
    step = max(1, CHUNK_CELLS // (B * cells))
    for start in range(0, M, step):
        rows = slice(start, min(M, start + step))
        draws = rng.multinomial(n[rows, None], p[rows, None, :], size=(rows.stop - start, B))
        values, n_undefined = values_of(draws)
        if method == "bca":
            loo, weights = jackknife(C[rows])
            loo_values, _ = values_of(loo)
        for m in chosen:
            theta_b = values[m.name]
            z0 = a = np.zeros(theta_b.shape[0])
            if method == "bca":
                z0, a = bca_constants(theta_b, statistic[m.name][rows], loo_values[m.name], weights)
            part = out[m.name]
            ends = quantiles(np.sort(theta_b, axis=1), bca_levels(z0, a, q))
            part["low"][rows], part["high"][rows] = ends[:, 0], ends[:, 1]
            part["standard_error"][rows] = theta_b.std(axis=1, ddof=1)
            part["n_undefined"][rows] = n_undefined[m.name]
            if null is not None:
                part["pvalue"][rows] = inverted_pvalue(theta_b, null, z0, a)
    return out


def inverted_pvalue(theta_b, null, z0, a):
    """Two-sided p-value of ``null``: ``1 - level`` of the interval whose end ``null`` is.

    ``null`` is at the level ``u`` of the resamples (ties count half); inverting BCa's map
    ``z -> z0 + (z0 + z) / (1 - a (z0 + z))`` gives ``z = w / (1 + a w) - z0`` with
    ``w = Phi^-1(u) - z0``, and ``p = 2 Phi(-|z|)``. With ``z0 = a = 0`` (percentile) it is
    twice the smaller share of the resamples on one side of ``null``. ``B`` resamples resolve
    no p-value below ``2 / (B + 1)``, which is reported in its place.
    """
    from scipy.special import ndtr, ndtri

    B = theta_b.shape[1]
    u = ((theta_b < null).sum(axis=1) + (theta_b <= null).sum(axis=1)) / (2 * B)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = ndtri(u) - z0
        p = 2 * ndtr(-np.abs(w / (1 + a * w) - z0))
    return np.maximum(np.nan_to_num(p, nan=0.0), 2 / (B + 1))


def matrix_values(shape, chosen) -> Callable:
    """``values_of`` for draws that are confusion matrices of ``shape`` (K, K)."""

    def values_of(draws):
        values, _, n_undefined = evaluate(draws.reshape(*draws.shape[:2], *shape), chosen)
        return values, n_undefined

    return values_of


def jackknife(C):
    """The leave-one-out draws ``(m, cells, cells)`` of each cell and their weights ``(m, cells)``.

    Row ``c`` of a matrix is its counts less one item of cell ``c``, standing for the ``C_c``
    items of that cell; an empty cell keeps the counts, with weight 0.
    """
    flat = C.reshape(C.shape[0], -1)
    cells = flat.shape[1]
    loo = np.repeat(flat[:, None, :], cells, axis=1)
    loo[:, np.arange(cells), np.arange(cells)] -= flat > 0
    return loo, flat


def bca_constants(theta_b, theta, loo, weights):
    """BCa's bias correction ``z0`` and acceleration ``a`` ``(m,)`` (scipy.stats.bootstrap's).

    ``loo`` ``(m, cells)`` are the leave-one-out values and ``weights`` the items they stand
    for; ``a`` is 0 where they are all equal.
    """
    from scipy.special import ndtri

    B = theta_b.shape[1]
    theta = np.reshape(theta, (-1, 1))
    below = (theta_b < theta).sum(axis=1) + (theta_b <= theta).sum(axis=1)
    z0 = ndtri(below / (2 * B))
    mean = (weights * loo).sum(axis=1) / weights.sum(axis=1)
    d = mean[:, None] - loo
    num, den = (weights * d**3).sum(axis=1), (weights * d**2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return z0, np.where(den > 0, num / (6 * den**1.5), 0.0)


def bca_levels(z0, a, q):
    """The quantile levels ``(m, len(q))`` of the resamples for the nominal levels ``q``."""
    from scipy.special import ndtr, ndtri

    with np.errstate(divide="ignore", invalid="ignore"):
        z = z0[:, None] + ndtri(q)
        levels = ndtr(z0[:, None] + z / (1 - a[:, None] * z))
    return np.where(np.isnan(levels), (z0[:, None] > 0).astype(float), levels)


def quantiles(sorted_rows: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row-wise quantiles at levels ``q`` ``(m, j)``, interpolated linearly (numpy's default)."""
    B = sorted_rows.shape[1]
    position = np.clip(q, 0, 1) * (B - 1)
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, B - 1)
    lo = np.take_along_axis(sorted_rows, below, axis=1)
    hi = np.take_along_axis(sorted_rows, above, axis=1)
    return lo + (position - below) * (hi - lo)


def gradient(C: np.ndarray, m: Measure) -> np.ndarray:
    """The gradient ``(M, cells)`` of ``m`` in the cell proportions of each matrix of ``C``.

    Written out for the MCCs of :data:`cenmcc._gradients.GRADIENTS` (NaN where the measure is
    0/0); otherwise central differences of relative step :data:`STEP`, where an empty cell,
    whose proportion has no variance, gets 0. Raises ValueError where the one-sided differences
    of a cell disagree (a kink) or are not finite: the measure has no gradient there.
    """
    M = C.shape[0]
    if m.name in GRADIENTS and MEASURES.get(m.name) is m:
        return GRADIENTS[m.name](C).reshape(M, -1)
    p = C.reshape(M, -1) / C.reshape(M, -1).sum(axis=1, keepdims=True)
    cells = p.shape[1]
    h = STEP * p
    shifts = np.zeros((M, 3, cells, cells))
    eye = np.eye(cells)
    shifts[:, 1] = h[:, None, :] * eye
    shifts[:, 2] = -shifts[:, 1]
    points = (p[:, None, None, :] + shifts).reshape(M, 3 * cells, -1)
    values, _, _ = evaluate(points.reshape(M, 3 * cells, *C.shape[1:]), [m])
    f = values[m.name].reshape(M, 3, cells)
    present = p > 0
    safe = np.where(present, h, 1.0)
    forward, backward = (f[:, 1] - f[:, 0]) / safe, (f[:, 0] - f[:, 2]) / safe
    with np.errstate(invalid="ignore"):
        jump = np.abs(forward - backward) * p  # the change of slope, per relative change
        scale = ((np.abs(forward) + np.abs(backward)) * p).max(axis=1, keepdims=True)
        noise = 1e-7 * (1 + np.abs(f[:, :1, 0]))  # rounding of f, divided by the step
        kink = ~np.isfinite(forward + backward) | (jump > KINK * scale + noise)
        kink &= present
    if kink.any():
        where = np.argwhere(kink)[0]
        raise ValueError(
            f"measure {m.name!r} has no gradient in the cell proportions of matrix "
            f"{int(where[0])} (at cell {int(where[1])}): use method='bca' or 'percentile'"
        )
    return np.where(present, (f[:, 1] - f[:, 2]) / (2 * safe), 0.0)


def delta_variance(p: np.ndarray, g: np.ndarray, n) -> np.ndarray:
    """``g^T (diag(p) - p p^T) g / n`` over the last axis: the delta method's variance."""
    return np.maximum((p * g**2).sum(axis=-1) - (p * g).sum(axis=-1) ** 2, 0.0) / n


def analytic(C, m: Measure, theta, level, method):
    """Delta or closed-form intervals of each matrix, as :func:`bootstrap` gives them."""
    from scipy.special import ndtri

    M = C.shape[0]
    n = C.reshape(M, -1).sum(axis=1)
    z = ndtri((1 + level) / 2)
    if method == "wilson":
        correct = np.trace(C, axis1=-2, axis2=-1)
        low, high = wilson_interval(correct, n, level)
        se = np.sqrt(correct * (n - correct) / n**3)
        if m.name == "micro_mcc":  # (K accuracy - 1) / (K - 1), increasing in the accuracy
            K = C.shape[-1]
            low, high, se = (K * low - 1) / (K - 1), (K * high - 1) / (K - 1), K * se / (K - 1)
    else:
        if method == "fce":
            se = kappa_standard_error(C)
        else:
            se = np.sqrt(delta_variance(C.reshape(M, -1) / n[:, None], gradient(C, m), n))
        low, high = theta - z * se, theta + z * se
        if m.name == "mcc" and method == "delta":
            with np.errstate(divide="ignore", invalid="ignore"):
                inside = np.abs(theta) < 1
                zr = np.arctanh(np.where(inside, theta, 0.0))
                zse = se / (1 - theta**2)
                low = np.where(inside, np.tanh(zr - z * zse), theta)
                high = np.where(inside, np.tanh(zr + z * zse), theta)
        low, high = np.clip(low, *m.bounds), np.clip(high, *m.bounds)
    return {"low": low, "high": high, "standard_error": se, "n_undefined": np.zeros(M, int)}


def wilson_interval(successes, n, level: float = 0.95):
    """Wilson's score interval of a binomial proportion ``successes / n``.

    Notes
    -----
    Wilson (1927), *J. Amer. Statist. Assoc.* 22:209, the interval as Agresti & Coull (1998)
    Eq. (2) write it: ``(x + z^2/2) / (n + z^2) +/- z sqrt(x (n - x) / n + z^2/4) / (n + z^2)``
    with ``z = Phi^-1((1 + level) / 2)``; the tests check it against
    :meth:`scipy.stats.binomtest`'s ``proportion_ci(method="wilson")``.

    Examples
    --------
    >>> [round(float(x), 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    from scipy.special import ndtri

    x, n = np.asarray(successes, dtype=np.float64), np.asarray(n, dtype=np.float64)
    z = ndtri((1 + level) / 2)
    center = (x + z**2 / 2) / (n + z**2)
    half = z * np.sqrt(x * (n - x) / n + z**2 / 4) / (n + z**2)
    return center - half, center + half


def kappa_standard_error(C) -> np.ndarray:
    """The large-sample standard error of Cohen's kappa (Fleiss, Cohen & Everitt 1969).

    Notes
    -----
    With proportions ``p_ij``, row sums ``p_i.``, column sums ``p_.j``, ``p_o = sum p_ii``,
    ``p_e = sum p_i. p_.i`` and kappa ``k``:
    ``var(k) = [sum_i p_ii (1 - (p_i. + p_.i)(1 - k))^2 + (1 - k)^2 sum_{i != j} p_ij
    (p_.i + p_j.)^2 - (k - p_e (1 - k))^2] / (n (1 - p_e)^2)``, the variance of Fleiss, Cohen
    & Everitt (1969), *Psychological Bulletin* 72(5):323-327, as Fleiss, Levin & Paik (2003,
    *Statistical Methods for Rates and Proportions*, Sec. 18.1) print it; we could not check
    the equation's number in the 1969 paper. The tests check it against the numerical delta
    method (it is the delta method's variance, written out). NaN where kappa is 0/0.

    Examples
    --------
    >>> round(float(kappa_standard_error([[40, 10], [5, 45]])), 4)
    0.0711
    """
    C = np.asarray(C, dtype=np.float64)
    n = C.sum(axis=(-2, -1))
    p = C / n[..., None, None]
    row, col = p.sum(axis=-1), p.sum(axis=-2)
    diag = np.diagonal(p, axis1=-2, axis2=-1)
    po, pe = diag.sum(axis=-1), (row * col).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (po - pe) / (1 - pe)
        k1 = (1 - k)[..., None]
        on = (diag * (1 - (row + col) * k1) ** 2).sum(axis=-1)
        spread = col[..., :, None] + row[..., None, :]  # p_.i + p_j. at (i, j)
        off_diagonal = 1 - np.eye(C.shape[-1])
        off = (1 - k) ** 2 * (p * spread**2 * off_diagonal).sum(axis=(-2, -1))
        var = (on + off - (k - pe * (1 - k)) ** 2) / (n * (1 - pe) ** 2)
    return np.sqrt(np.maximum(var, 0.0))
