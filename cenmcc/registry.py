"""Named count measures, and several of them of one stack at once.

:data:`MEASURES` maps a stable name to a :class:`Measure`: the function, its direction, a short
display label, its best value and range. :func:`measures` computes several of them of one stack
of confusion matrices, validating it once and cutting it into blocks once; every measure sees
the same block objects, so marginals cached by one are reused by the others. With
``count_undefined=True`` it returns the number of 0/0 values of each measure instead of
warning, for workers that must not print. :func:`from_labels` is the path from label vectors,
as scikit-learn's metrics take them.

Examples
--------
>>> import cenmcc
>>> C = [[5, 1, 0], [2, 6, 1], [0, 1, 7]]
>>> values = cenmcc.measures(C, ["cen", "mcc"])
>>> {name: round(float(v), 4) for name, v in values.items()}
{'cen': 0.3863, 'mcc': 0.6743}
>>> m = cenmcc.MEASURES["cen"]
>>> m.label, m.greater_is_better, m.best
('CEN', False, 0.0)
>>> round(float(cenmcc.from_labels([0, 1, 1, 2], [0, 1, 2, 2], "accuracy")), 2)
0.75
"""

from __future__ import annotations

import functools
import types
from collections.abc import Iterable, Mapping

from ._metric import Measure, evaluate_measures, takes_counts
from .accuracy import accuracy, balanced_accuracy, balanced_accuracy_weighted
from .confusion import confusion_matrix
from .correlation import cohen_kappa, correlation_distance, macro_mcc, mcc, micro_mcc
from .entropy import cen, mcen
from .fscore import f1_of_macro_averages, f1_score, precision, recall
from .informedness import informedness, markedness, symmetric_balanced_accuracy
from .tmcc import tmcc


def _averaged(score, average: str, label: str) -> Measure:
    """``score(C, average=average)`` of precision, recall or F1, named ``f1_macro`` say."""
    name = f"{score.__name__.removesuffix('_score')}_{average}"
    return Measure(name, functools.partial(score, average=average), True, label, 1.0, (0.0, 1.0))


#: Every scalar measure of counts, by name, in this order: the metrics that declare their
#: label, direction and bounds (:func:`cenmcc._metric.count_metric`), and the averages of the
#: per-class scores. ``expected_accuracy`` is left out: the accuracy of a classifier
#: independent of the truth describes the class marginals, not a performance (no direction, no
#: best value). Read-only.
MEASURES: Mapping[str, Measure] = types.MappingProxyType(
    {
        m.name: m
        for m in (
            cen.measure,
            mcc.measure,
            tmcc.measure,
            cohen_kappa.measure,
            accuracy.measure,
            balanced_accuracy.measure,
            balanced_accuracy_weighted.measure,
            *(
                _averaged(score, average, f"{average} {label}")
                for score, label in ((f1_score, "F1"), (precision, "precision"), (recall, "recall"))
                for average in ("macro", "micro", "weighted")
            ),
            f1_of_macro_averages.measure,
            informedness.measure,
            markedness.measure,
            symmetric_balanced_accuracy.measure,
            correlation_distance.measure,
            mcen.measure,
            macro_mcc.measure,
            micro_mcc.measure,
        )
    }
)


@takes_counts
def measures(C, names=None, *, count_undefined: bool = False):
    """Several measures of one stack of confusion matrices, validated and cut into blocks once.

    Parameters
    ----------
    C : array_like, shape (..., K, K), or Counts
        Confusion matrices, rows = true class, columns = predicted class.
    names : str, Measure, or iterable of them, optional
        Names of :data:`MEASURES` and :class:`Measure` objects, in the order wanted. Default:
        every measure of :data:`MEASURES`.
    count_undefined : bool, default False
        If True, emit no ``UndefinedMetricWarning`` and return the number of 0/0 values of
        each measure as well.

    Returns
    -------
    values : dict of str to ndarray of shape (...)
        Each measure's values, by name, in the order asked; bit for bit those of its function
        (``MEASURES[name].function(C)``), 0/0 filled with its default fill value.
    undefined : dict of str to int
        Only with ``count_undefined=True``: the number of 0/0-filled values of each measure
        (what its warning would count).

    Raises
    ------
    ValueError
        An unknown name (the known names are listed), a name asked for twice, or invalid
        counts; a user measure whose values do not have the stack's shape.
    TypeError
        An entry of ``names`` that is neither a name nor a Measure, or invalid counts.

    Notes
    -----
    Without ``count_undefined``, each measure warns as its function does: at most one
    ``UndefinedMetricWarning`` per measure per call. A :class:`Measure` whose function is not a
    metric of cenmcc (nor a ``functools.partial`` of one) is called once on a read-only ndarray
    of the validated counts; its NaN are replaced by its ``undefined`` value and counted
    (:meth:`Measure.filled`); with ``count_undefined=True``, the ``UndefinedMetricWarning`` it
    emits is recorded and counted rather than shown (this swaps the process's warning filters
    for the call, so do not count such a measure in several threads at once).

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[[5, 0], [0, 0]], [[3, 1], [1, 3]]])  # the first MCC is 0/0
    >>> values, undefined = measures(C, ["mcc", "accuracy"], count_undefined=True)
    >>> values["mcc"].tolist(), undefined
    ([0.0, 0.5], {'mcc': 1, 'accuracy': 0})
    """
    values, undefined = evaluate_measures(C, _chosen(names), count_undefined=count_undefined)
    return (values, undefined) if count_undefined else values


def from_labels(y_true, y_pred, names=None, *, labels=None, sample_weight=None):
    """Measures of true and predicted labels: :func:`cenmcc.confusion_matrix`, then
    :func:`measures`.

    The path from scikit-learn's ``metric(y_true, y_pred)``: every count metric of cenmcc
    takes confusion-matrix counts ``C`` instead.

    Parameters
    ----------
    y_true, y_pred : array_like, shape (n_samples,)
        True and predicted labels (see :func:`cenmcc.confusion_matrix`).
    names : str, Measure, or iterable of them, optional
        One measure (then its value is returned) or several (then a dict); default all of
        :data:`MEASURES`.
    labels : array_like, shape (K,), optional
        The classes; default the sorted union of the labels.
    sample_weight : array_like, shape (n_samples,), optional
        Non-negative weight of each sample.

    Returns
    -------
    numpy.float64 or dict of str to numpy.float64
        The value of one measure, or the values by name.

    Examples
    --------
    >>> y_true = ["cat", "dog", "dog", "bird", "cat"]
    >>> y_pred = ["cat", "dog", "cat", "bird", "cat"]
    >>> round(float(from_labels(y_true, y_pred, "mcc")), 4)  # sklearn's matthews_corrcoef
    0.735
    >>> values = from_labels(y_true, y_pred, ["cen", "f1_macro"])
    >>> {name: round(float(v), 4) for name, v in values.items()}
    {'cen': 0.1953, 'f1_macro': 0.8222}
    """
    C = confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    if isinstance(names, str | Measure):
        return measures(C, [names])[_chosen([names])[0].name]
    return measures(C, names)


def measure_named(name: str) -> Measure:
    """The entry ``name`` of :data:`MEASURES`, or a ValueError listing the known names."""
    if name not in MEASURES:
        raise ValueError(f"unknown measure {name!r}; the known names are {list(MEASURES)}")
    return MEASURES[name]


def _chosen(names) -> list[Measure]:
    """The measures that ``names`` asks for, checked."""
    if names is None:
        return list(MEASURES.values())
    if isinstance(names, str | Measure) or not isinstance(names, Iterable):
        names = [names]
    chosen = []
    for name in names:
        if isinstance(name, Measure):
            chosen.append(name)
        elif isinstance(name, str):
            chosen.append(measure_named(name))
        else:
            raise TypeError(f"names must hold measure names or Measure objects, got {name!r}")
    seen = set()
    for measure in chosen:
        if measure.name in seen:
            raise ValueError(f"measure {measure.name!r} is asked for twice")
        seen.add(measure.name)
    return chosen
