"""Confidence intervals for any measure of a confusion matrix.

:func:`confidence_interval` resamples the items (:mod:`.resampling`: percentile and BCa, from
one multinomial stack of resamples per matrix) or draws no resample (:mod:`.asymptotic`: Wald's
and Fisher's z intervals of the delta method, with the MCCs' gradients written out in
:mod:`.gradients`; Wilson's score interval; the kappa variance of Fleiss, Cohen & Everitt).
:mod:`.arguments` checks the arguments, for :func:`cenmcc.compare_classifiers` too, and
:mod:`.results` holds what is returned.

A resample whose measure is undefined (0/0) keeps the measure's documented fill value (what the
measure's own function returns for it), or, for a measure that omits its undefined values
(``Measure(..., undefined="omit")``), is left out of the interval, as a simulation leaves such
matrices out; either way the number of such resamples is reported with the interval
(``n_undefined``). A matrix whose own value is undefined gets a NaN interval and
``undefined=True``. Empty stacks give empty results.

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

import numpy as np

from .. import fscore
from ..registry import Measure
from . import auto
from .arguments import (
    check_level,
    check_memory,
    check_method,
    check_resamples,
    resolve,
    whole_counts,
)
from .asymptotic import analytic, check_closed_form, wilson_interval
from .resampling import BOOTSTRAP, bootstrap, evaluate, peak_bytes, restarted
from .results import ConfidenceInterval, IntervalResult

__all__ = ["ConfidenceInterval", "IntervalResult", "confidence_interval"]

#: The methods of :func:`confidence_interval`, besides ``"auto"``.
METHODS = ("bca", "percentile", "wald", "fisher_z", "wilson", "fce")

#: The default method: chosen by the coverage experiment's table (:mod:`.auto`).
AUTO = "auto"

#: The per-class measures with Wilson's interval, shape (..., K): the axis their trials are
#: summed over (recall: ``C_kk`` of the ``t_k`` items of class k; precision: of the ``p_k``
#: items predicted as k).
PER_CLASS = {"recall": -1, "precision": -2}


def confidence_interval(
    counts,
    measure,
    *,
    level: float = 0.95,
    method: str = AUTO,
    n_resamples: int = 9999,
    random_state=None,
):
    """Confidence interval of a measure for every confusion matrix of a stack.

    Parameters
    ----------
    counts : array_like, shape (..., K, K)
        Confusion matrices of whole-number counts (one item per count), rows = true class,
        integers or floats, every cell at most ``(2**63 - 1) // K**2`` (items are counted in
        int64, as integer counts are by the metrics). Labels go through
        :func:`cenmcc.confusion_matrix` first.
    measure : str, Measure, callable, or a sequence of them
        A name of :data:`cenmcc.MEASURES`, a :class:`cenmcc.Measure`, or a function of counts
        (a cenmcc function is matched to its entry of :data:`cenmcc.MEASURES`). A sequence
        gives a dict of results by name, from the same resamples. ``"recall"`` or
        ``"precision"`` (or :func:`cenmcc.recall`, :func:`cenmcc.precision`), alone and with
        ``method="wilson"``: the interval of every class, arrays of shape ``(..., K)``.
    level : float, default 0.95
        The confidence level, in (0, 1).
    method : {"auto", "bca", "percentile", "wald", "fisher_z", "wilson", "fce"}, default "auto"
        ``"auto"``: for each matrix and measure, the method that covered best in the coverage
        experiment's cells nearest to the matrix (its size, K, smallest class and classes
        never predicted; :mod:`cenmcc.intervals.auto`), BCa for a measure it did not measure;
        Wilson's interval for per-class recall and precision.
        ``"bca"``, ``"percentile"``: bootstrap over the items (any measure).
        ``"wald"``: the delta method's standard error ``se`` and ``theta +/- z se`` (any
        measure with a gradient in the cell proportions: written out for the MCC, binary and
        Gorodkin's, and its macro and micro averages, numerical otherwise).
        ``"fisher_z"``: the same on Fisher's z scale, ``tanh(atanh(theta) +/- z se / (1 -
        theta^2))``, for measures whose range is [-1, 1] (the MCCs, kappa, informedness,
        markedness, a user's measure declaring those bounds).
        The former ``"delta"`` is retired (an error that says so): it was ``"fisher_z"`` for
        the MCC and ``"wald"`` for every other measure.
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
        recall or precision. Its ``method`` is the method used (for ``"auto"``, the one
        chosen; an array of them, shape (...), where the matrices of a stack got different
        ones).

    Warns
    -----
    CoverageWarning
        With ``"auto"``, once per call, where in the experiment's cells nearest to a matrix no
        method covered 0.93 at level 0.95: it names the measure, the regime and the coverage
        measured there. The interval is still returned.

    Raises
    ------
    ValueError
        A level outside (0, 1), an unknown method, fewer than 2 resamples or too few for the
        level, counts that are not whole numbers or beyond that limit, a matrix of fewer than
        2 items for BCa, a closed form asked for another measure, ``"fisher_z"`` for a measure
        whose range is not [-1, 1], a measure with no gradient for ``"wald"`` or ``"fisher_z"``,
        per-class recall or precision asked for with another method than ``"wilson"``, the
        retired ``"delta"``; resamples whose values need more memory than the machine has.
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

    Wald and Fisher's z: ``se^2 = sigma^2 / n`` with ``sigma^2 = g^T (diag(p) - p p^T) g =
    sum_c p_c g_c^2 - (sum_c p_c g_c)^2``, ``g`` the gradient of the measure in the cell
    proportions ``p``: written out for ``"mcc"`` (the binary MCC for K = 2, Gorodkin's R_K
    otherwise), ``"macro_mcc"`` and ``"micro_mcc"`` (:mod:`.gradients`), central differences
    of relative step ``6e-6`` otherwise. These are the "simple" and "Fisher's z" intervals of
    Itaya, Tamura, Hayashi & Yamamoto (2024, *Statistics in Medicine* 44:e10303,
    doi:10.1002/sim.10303) for the binary MCC and of Tamura et al. (2025, arXiv:2503.06450)
    for the macro-averaged, micro-averaged and Gorodkin ("miM*") MCCs. Their texts were not
    available to us: their equations were read from the authors' public R code (Itaya et
    al.'s simulation scripts; Tamura's repository ``tamuraj/Multiclass-MCC``), not from the
    papers, and the tests check ours against a literal per-cell transcription of those
    formulas. Itaya et al.'s abstract
    reports that Fisher's z does better than the simple interval for the binary MCC. The
    micro MCC is ``(K acc - 1) / (K - 1)``; its ``"wilson"`` interval is the accuracy's,
    mapped through that line. Closed forms: :func:`wilson_interval`,
    :func:`kappa_standard_error`. Asymptotic intervals are clipped to the measure's bounds;
    their ``standard_error`` is the asymptotic one on the measure's scale (Wald's
    ``sqrt(p (1 - p) / n)`` for Wilson), for ``"fisher_z"`` too; where ``|theta| = 1`` the
    Fisher's z interval is the point ``theta``.

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[[30, 10], [5, 55]], [[50, 0], [0, 0]]])  # the second MCC is 0/0
    >>> r = confidence_interval(C, "mcc", method="fisher_z")
    >>> r.undefined.tolist(), np.round(r.confidence_interval.low, 3).tolist()
    ([False, True], [0.511, nan])

    The recall of each class, with Wilson's interval:

    >>> r = confidence_interval([[40, 10], [5, 45]], "recall", method="wilson")
    >>> low, high = r.confidence_interval
    >>> np.round(low, 3).tolist(), np.round(high, 3).tolist()
    ([0.67, 0.786], [0.888, 0.957])
    """
    level = check_level(level)
    check_method(method, (*METHODS, AUTO))
    if per_class_name(measure):
        return per_class_wilson(counts, per_class_name(measure), level, method)
    chosen, single = resolve(measure)
    C, stack_shape = whole_counts(counts)
    if method == AUTO:  # it may choose a bootstrap: its resamples are checked before the work
        check_resamples(n_resamples, level)
        by_method = auto_methods(C, chosen)
    else:
        by_method = {method: (chosen, np.ones((len(chosen), C.shape[0]), bool))}
    for name, (measures, _) in by_method.items():
        for m in measures:
            check_closed_form(name, m)
    statistic, undefined, _ = evaluate(C[:, None], chosen)
    restart = restarted(random_state)
    fields = {m.name: {} for m in chosen}
    for name, (measures, use) in by_method.items():
        rows = use.any(axis=0)
        parts = intervals(
            C[rows], measures, statistic, undefined, rows, level, name, n_resamples, restart()
        )
        for m, mine in zip(measures, use, strict=True):
            for key, x in parts[m.name].items():
                out = fields[m.name].setdefault(key, np.zeros(C.shape[0], np.asarray(x).dtype))
                out[mine] = np.asarray(x)[mine[rows]]
            fields[m.name].setdefault("method", np.empty(C.shape[0], object))[mine] = name
    results = {}
    for m in chosen:
        part, bad = fields[m.name], undefined[m.name][:, 0]
        values = [statistic[m.name][:, 0], part["low"], part["high"], part["standard_error"]]
        values = [np.where(bad, np.nan, x).reshape(stack_shape)[()] for x in values]
        used = part["method"] if len(C) else np.array(list(by_method), object)
        results[m.name] = IntervalResult(
            values[0],
            ConfidenceInterval(values[1], values[2]),
            values[3],
            part["n_undefined"].reshape(stack_shape)[()],
            bad.reshape(stack_shape)[()],
            str(used[0]) if len(set(used)) == 1 else used.astype(str).reshape(stack_shape),
            level,
            n_resamples if set(used) & set(BOOTSTRAP) else 0,
        )
    return results[chosen[0].name] if single else results


def intervals(C, measures, statistic, undefined, rows, level, method, n_resamples, rng) -> dict:
    """The intervals by one ``method`` of the matrices ``C`` (the ``rows`` of the stack whose
    ``statistic`` and ``undefined`` are given): by measure name, ``low``, ``high``,
    ``standard_error`` and ``n_undefined`` of shape ``(M,)``."""
    if method in BOOTSTRAP:
        check_resamples(n_resamples, level)
        check_memory(
            peak_bytes(n_resamples, len(measures), C.shape[-1] ** 2),
            f"a bootstrap of {n_resamples:,} resamples",
        )
        if method == "bca" and C.shape[0] and C.sum(axis=(-2, -1)).min() < 2:
            raise ValueError("BCa's jackknife needs at least 2 items in every matrix")
        mine = {m.name: statistic[m.name][rows] for m in measures}
        return bootstrap(C, measures, mine, level, method, n_resamples, rng)
    return {
        m.name: analytic(
            C, m, statistic[m.name][rows, 0], level, method, undefined[m.name][rows, 0]
        )
        for m in measures
    }


def auto_methods(C: np.ndarray, chosen: list[Measure]) -> dict:
    """``method="auto"``: for each method chosen, the measures it serves and where ``(measures,
    M)``; one :class:`cenmcc.CoverageWarning` for the measures whose choice may under-cover
    (:mod:`.auto`)."""
    if not len(C):  # an empty stack: nothing to choose for
        return {auto.FALLBACK: (chosen, np.ones((len(chosen), 0), bool))}
    features = auto.matrix_regime(C)
    choices, low = {}, {}
    for m in chosen:
        allowed = [x for x in METHODS if applies(x, m)]
        methods, coverage = auto.choose(features, m, auto.table("single"), allowed)
        choices[m.name] = methods
        weak = coverage < auto.FLAG
        if weak.any():
            worst = int(np.argmin(coverage))
            where = auto.describe_regime(features[worst])
            low[m.name] = (coverage[worst], methods[worst], where, int(weak.sum()), len(C))
    auto.warn(low, "interval")
    by_method = {}
    for name in dict.fromkeys(x for methods in choices.values() for x in methods):
        measures = [m for m in chosen if (choices[m.name] == name).any()]
        by_method[name] = (measures, np.array([choices[m.name] == name for m in measures]))
    return by_method


def applies(method: str, m: Measure) -> bool:
    """Whether ``method`` can give an interval of ``m`` (:func:`check_closed_form` accepts it)."""
    try:
        check_closed_form(method, m)
    except ValueError:
        return False
    return True


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
    if method not in ("wilson", AUTO):
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
        "wilson",
        level,
        0,
    )
