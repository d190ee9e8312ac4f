"""The tables of a report: scores, per-class scores, comparisons and confusion matrices.

Each number is what the function it comes from returns: the confusion matrices are
:func:`cenmcc.confusion_matrix`'s over the report's classes, the scores and their intervals
:func:`cenmcc.confidence_interval`'s default method on them, the per-class intervals its
``method="wilson"``, and the comparisons :func:`cenmcc.compare_classifiers`'s default method on
the labels of each two classifiers, all with the report's ``level``, ``n_resamples`` and
``random_state``. What those calls warn (an interval a test set is too small for, a 0/0
measure) is recorded in the ``warning`` column of the rows it is about.
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from collections.abc import Mapping

import numpy as np

from .._labels import read_label_set, read_together, union
from ..confusion import confusion_matrix
from ..fscore import f1_score
from ..intervals import confidence_interval
from ..intervals.arguments import check_level, resolve
from ..paired import compare_classifiers

#: The measures a report shows unless told otherwise: the MCC and CEN (the measures this
#: package is about), accuracy and balanced accuracy, macro F1 and Cohen's kappa.
DEFAULT_MEASURES = ("mcc", "cen", "accuracy", "balanced_accuracy", "f1_macro", "cohen_kappa")

#: What the report says about the adjustment of its p-values (:func:`holm`).
ADJUSTMENT = (
    "p-values adjusted by Holm's step-down method (Holm 1979) over all {m} comparisons (every "
    "pair of classifiers and every measure): it keeps the chance of any false 'different' at "
    "most the nominal level whatever the dependence between the tests, which share their "
    "items and measures, and rejects at least what Bonferroni's correction rejects."
)


@dataclasses.dataclass(frozen=True, eq=False)  # tables compare cell by cell, not as one bool
class Report:
    """The evaluation of classifiers on one test set (see :func:`report`).

    Attributes
    ----------
    scores : pandas.DataFrame
        One row per classifier and measure: ``classifier``, ``measure``, ``value``, ``low``,
        ``high``, ``method``, ``n_undefined`` (resamples whose measure was 0/0) and
        ``warning`` (what the interval's call warned about it, or "").
    per_class : pandas.DataFrame
        One row per classifier and class: ``classifier``, ``class``, ``support`` (true items),
        ``precision``, ``precision_low``, ``precision_high``, ``recall``, ``recall_low``,
        ``recall_high`` (Wilson's intervals) and ``f1``.
    comparisons : pandas.DataFrame
        One row per pair of classifiers and measure: ``a``, ``b``, ``measure``, ``difference``
        (a's measure less b's), ``low``, ``high``, ``pvalue``, ``pvalue_holm`` (:func:`holm`
        over all the rows), ``method`` and ``warning``; no rows for one classifier.
    confusion : dict of str to pandas.DataFrame
        Each classifier's confusion matrix, rows the true classes, columns the predicted ones.
    level : float
        The confidence level of every interval.
    n_items : int
        The items of the test set.
    notes : tuple of str
        What a reader needs to read the tables: the methods, the adjustment and why.
    """

    scores: object
    per_class: object
    comparisons: object
    confusion: dict
    level: float
    n_items: int
    notes: tuple[str, ...]

    def to_markdown(self) -> str:
        """The report as a Markdown page: scores, comparisons, per-class scores and notes."""
        from .render import markdown

        return markdown(self)

    def to_html(self, figure: bool = True) -> str:
        """The report as one self-contained HTML page, its figure embedded unless ``figure``
        is False (then matplotlib is not needed)."""
        from .render import html

        return html(self, figure)

    def plot(self):
        """A matplotlib Figure: each measure's intervals by classifier (a forest plot) and the
        confusion matrices normalised by row (each true class's share of predictions)."""
        from .render import figure

        return figure(self)


def report(
    y_true,
    predictions,
    *,
    measures=None,
    level: float = 0.95,
    labels=None,
    n_resamples: int = 9999,
    random_state=None,
) -> Report:
    """Scores with intervals, per-class scores and paired comparisons of classifiers.

    Parameters
    ----------
    y_true : array_like, shape (n_samples,)
        The true labels of the test set: numbers, booleans, strings or bytes, of one kind (a
        pandas column of strings or categories is read by its values).
    predictions : array_like of shape (n_samples,), or mapping of str to array_like
        One classifier's predicted labels (named ``"y_pred"``), or several by name: a dict, or
        a pandas DataFrame whose columns are the classifiers.
    measures : str, Measure, or sequence of them, optional
        Names of :data:`cenmcc.MEASURES` or :class:`cenmcc.Measure` objects; default
        :data:`DEFAULT_MEASURES`.
    level : float, default 0.95
        The confidence level of every interval, in (0, 1).
    labels : array_like, shape (K,), optional
        The classes, in the order of the tables; default the sorted union of the labels.
    n_resamples : int, default 9999
        Bootstrap resamples of each interval and comparison.
    random_state : None, int, or numpy.random.Generator
        Passed to each interval's and comparison's call: with an integer, each is the call
        :func:`cenmcc.confidence_interval` or :func:`cenmcc.compare_classifiers` makes with it.

    Returns
    -------
    Report

    Raises
    ------
    ValueError
        No classifier, label vectors of different lengths, NaN labels, a label outside
        ``labels``, fewer than 2 classes, an unknown measure, or a level outside (0, 1): before
        any interval is computed.
    TypeError
        Labels of different kinds, or labels that are none of numbers, booleans, strings or
        bytes (``None``), as :func:`cenmcc.confusion_matrix`.

    Notes
    -----
    The comparison of classifiers a and b is :func:`cenmcc.compare_classifiers` on their
    labels, whose classes are those the three label vectors hold: the report's classes
    wherever every class occurs among them (a class that no label names would change the
    measures that average over classes). Its p-values are adjusted together by :func:`holm`.

    Examples
    --------
    >>> import cenmcc
    >>> y = ["cat", "dog", "bird"] * 20
    >>> preds = {"a": ["cat", "dog", "dog"] * 20, "b": ["cat", "cat", "bird"] * 20}
    >>> r = cenmcc.report(y, preds, measures=["accuracy"], n_resamples=999, random_state=0)
    >>> r.scores[["classifier", "value"]].round(3).values.tolist()
    [['a', 0.667], ['b', 0.667]]
    >>> r.comparisons[["a", "b", "difference"]].values.tolist()
    [['a', 'b', 0.0]]
    """
    import pandas as pd

    named = _named(predictions)
    level = check_level(level)
    chosen, _ = resolve(DEFAULT_MEASURES if measures is None else measures)
    names = [m.name for m in chosen]
    read = read_together((y_true, *named.values()), ("y_true", *named))
    classes = (union(*read) if labels is None else read_label_set(labels)).labels.tolist()
    confusion = {
        name: confusion_matrix(y_true, y_pred, labels=classes) for name, y_pred in named.items()
    }
    options = {"level": level, "n_resamples": n_resamples, "random_state": random_state}
    scores, methods = [], set()
    for name, C in confusion.items():
        results, caught = _recorded(confidence_interval, C, chosen, **options)
        for m in chosen:
            r = results[m.name]
            methods.add(r.method)
            scores.append(
                {
                    "classifier": name,
                    "measure": m.name,
                    "value": float(r.statistic),
                    "low": float(r.confidence_interval.low),
                    "high": float(r.confidence_interval.high),
                    "method": r.method,
                    "n_undefined": int(r.n_undefined),
                    "warning": _about(caught, m.name, names),
                }
            )
    rows = []
    for a, b in itertools.combinations(named, 2):
        results, caught = _recorded(
            compare_classifiers, y_true, named[a], named[b], chosen, **options
        )
        for m in chosen:
            r = results[m.name]
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "measure": m.name,
                    "difference": r.statistic,
                    "low": r.confidence_interval.low,
                    "high": r.confidence_interval.high,
                    "pvalue": r.pvalue,
                    "method": r.method,
                    "warning": _about(caught, m.name, names),
                }
            )
    columns = ["a", "b", "measure", "difference", "low", "high", "pvalue", "method", "warning"]
    comparisons = pd.DataFrame(rows, columns=columns)
    comparisons.insert(7, "pvalue_holm", holm(comparisons["pvalue"].to_numpy(dtype=float)))
    notes = [
        f"Intervals at {level:g}: {', '.join(sorted(methods))} "
        "(cenmcc.confidence_interval's default); per class, Wilson's score interval.",
    ]
    if rows:
        notes.append(
            f"Differences: a's measure less b's, {', '.join(sorted(set(comparisons['method'])))}"
            " (cenmcc.compare_classifiers's default, on the same items)."
        )
        notes.append(ADJUSTMENT.format(m=len(rows)))
    frame = pd.DataFrame
    return Report(
        scores=frame(scores),
        per_class=_per_class(confusion, classes, level),
        comparisons=comparisons,
        confusion={
            name: frame(
                C,
                index=pd.Index(classes, name="true"),
                columns=pd.Index(classes, name="predicted"),
            )
            for name, C in confusion.items()
        },
        level=level,
        n_items=int(read[0].index.size),
        notes=tuple(notes),
    )


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjustment of p-values for multiple comparisons.

    Parameters
    ----------
    pvalues : array_like, shape (m,)
        The p-values of the ``m`` tests; NaN (no test) stays NaN and is not counted.

    Returns
    -------
    ndarray, shape (m,)
        The adjusted p-values, in [0, 1], in the order given: a test is rejected at level
        ``alpha`` by Holm's procedure exactly where its adjusted p-value is at most ``alpha``.

    Notes
    -----
    Holm (1979), *Scandinavian Journal of Statistics* 6:65-70: with the p-values sorted,
    ``p_(1) <= ... <= p_(m)``, the adjusted ``p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))``.
    It controls the family-wise error rate under any dependence between the tests.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, float("nan")]).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    tested = ~np.isnan(p)
    order = np.argsort(p[tested], kind="stable")
    m = order.size
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[tested][order]))
    out[tested] = adjusted
    return out


def _named(predictions) -> dict:
    """The classifiers by name: a mapping's items, a DataFrame's columns, or one ``"y_pred"``."""
    if isinstance(predictions, Mapping) or hasattr(predictions, "columns"):
        keys = list(predictions)  # a DataFrame's columns
        named = {str(name): predictions[name] for name in keys}
        if not named:
            raise ValueError("predictions holds no classifier; give at least one")
        if len(named) < len(keys):
            raise ValueError("predictions names two classifiers alike once written as text")
        return named
    return {"y_pred": predictions}


def _recorded(call, *args, **kwargs):
    """``call(*args, **kwargs)`` and the warnings it emitted, recorded rather than shown."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args, **kwargs)
    return result, [str(w.message) for w in caught]


def _about(messages: list[str], name: str, names: list[str]) -> str:
    """The messages about the measure ``name`` of a call on the measures ``names``: those that
    quote it (``'mcc'``), or that quote none of ``names`` (then they are about every one),
    joined by "; "."""
    quoted = [f"'{other}'" for other in names]
    return "; ".join(
        dict.fromkeys(
            text for text in messages if f"'{name}'" in text or not any(q in text for q in quoted)
        )
    )


def _per_class(confusion: dict, classes: list, level: float):
    """Per-class support, precision, recall (Wilson's intervals) and F1 of each classifier."""
    import pandas as pd

    parts = []
    for name, C in confusion.items():
        part = {"classifier": name, "class": classes, "support": C.sum(axis=1)}
        for measure in ("precision", "recall"):
            r = confidence_interval(C, measure, method="wilson", level=level)
            part[measure] = r.statistic
            part[f"{measure}_low"], part[f"{measure}_high"] = r.confidence_interval
        part["f1"] = f1_score(C, average=None)  # 0/0 only for a class no label names
        parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)
