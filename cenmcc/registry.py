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

import dataclasses
import functools
import math
import types
import warnings
from collections.abc import Callable, Iterable, Mapping

import numpy as np

from ._marginals import Kernel, as_counts, evaluate, takes_counts
from ._undefined import warn_undefined
from ._validation import as_array
from .accuracy import (
    ACCURACY,
    BALANCED_ACCURACY,
    accuracy,
    balanced_accuracy,
    balanced_accuracy_weighted,
    balanced_accuracy_weighted_kernel,
)
from .confusion import confusion_matrix
from .correlation import cohen_kappa, cohen_kappa_kernel, mcc, mcc_kernel
from .entropy import CEN, cen
from .exceptions import UndefinedMetricWarning
from .families import BINARY_SYMMETRIC_CEN_MAX
from .fscore import (
    f1_of_macro_averages,
    f1_of_macro_averages_kernel,
    f1_score,
    precision,
    ratio_kernel,
    recall,
)
from .tmcc import tmcc, tmcc_kernel


@dataclasses.dataclass(frozen=True)
class Measure:
    """A named measure of confusion-matrix counts.

    Parameters
    ----------
    name : str
        The key: a stable, non-empty identifier (``"mcc"``).
    function : callable
        ``function(C)`` of counts ``C`` of shape ``(..., K, K)`` or a :class:`cenmcc.Counts`,
        returning shape ``(...)``.
    greater_is_better : bool
        The direction of the values.
    label : str, optional
        A short display label (``"MCC"``, ``"macro F1"``); the name by default.
    best : float, optional
        The best value, within ``bounds``; by default the end of ``bounds`` in the direction
        of ``greater_is_better``.
    bounds : tuple of float, optional
        ``(low, high)``, the range of the values (``inf`` allowed); unbounded by default.
    kernel : cenmcc._marginals.Kernel, optional
        ``function`` as a function of one block of the stack (the built-in measures have one):
        :func:`measures` evaluates it on the blocks it shares with the other measures. Without
        one, :func:`measures` calls ``function`` on the validated :class:`cenmcc.Counts`.

    Raises
    ------
    TypeError, ValueError
        For a field of the wrong type, an empty name, or ``best`` outside ``bounds``.

    Examples
    --------
    >>> import cenmcc
    >>> k_cen = Measure(
    ...     "k_cen",
    ...     lambda C: cenmcc.k_factor(3) * cenmcc.cen(C),
    ...     False,
    ...     "k·CEN",
    ...     0.0,
    ...     (0.0, math.inf),
    ... )
    >>> round(float(cenmcc.measures([[5, 1, 0], [2, 6, 1], [0, 1, 7]], [k_cen])["k_cen"]), 4)
    0.4366
    """

    name: str
    function: Callable
    greater_is_better: bool
    label: str = ""
    best: float | None = None
    bounds: tuple[float, float] = (-math.inf, math.inf)
    kernel: Kernel | None = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self):
        for field, kind in (("name", str), ("label", str), ("greater_is_better", bool)):
            if not isinstance(getattr(self, field), kind):
                raise TypeError(
                    f"Measure.{field} must be a {kind.__name__}, got {getattr(self, field)!r}"
                )
        if not self.name:
            raise ValueError("Measure.name must not be empty")
        if not self.label:
            object.__setattr__(self, "label", self.name)
        if self.best is None and isinstance(self.bounds, tuple | list) and len(self.bounds) == 2:
            object.__setattr__(self, "best", self.bounds[1 if self.greater_is_better else 0])
        if not callable(self.function):
            raise TypeError(f"Measure.function must be callable, got {self.function!r}")
        if self.kernel is not None and not isinstance(self.kernel, Kernel):
            raise TypeError(f"Measure.kernel must be a Kernel or None, got {self.kernel!r}")
        numbers = (self.best, *self.bounds) if isinstance(self.bounds, tuple | list) else ()
        if len(numbers) != 3 or not all(map(_is_real, numbers)):
            raise TypeError(
                f"Measure.bounds must be two real numbers and best a real number, got "
                f"{self.bounds!r} and {self.best!r}"
            )
        best, low, high = map(float, numbers)
        if not low <= best <= high:
            raise ValueError(f"Measure.best {best!r} must be within bounds {self.bounds!r}")
        object.__setattr__(self, "bounds", (low, high))
        object.__setattr__(self, "best", best)


def _is_real(x) -> bool:
    return isinstance(x, int | float | np.integer | np.floating) and not isinstance(x, bool)


def _measure(name, function, kernel, label, *, higher=True, best=1.0, bounds=(0.0, 1.0)):
    return Measure(name, function, higher, label, best, bounds, kernel)


def _averaged(score, what: str, average: str, label: str) -> Measure:
    """``score(C, average=average)`` of precision, recall or F1."""
    return _measure(
        f"{score.__name__.removesuffix('_score')}_{average}",
        functools.partial(score, average=average),
        ratio_kernel(what, average, 0.0),
        label,
    )


#: Every scalar measure of counts, by name, in this order. ``expected_accuracy`` is left out:
#: the accuracy of a classifier independent of the truth describes the class marginals, not a
#: performance (no direction, no best value). Read-only.
MEASURES: Mapping[str, Measure] = types.MappingProxyType(
    {
        m.name: m
        for m in (
            _measure(
                "cen",
                cen,
                CEN,
                "CEN",
                higher=False,
                best=0.0,
                bounds=(0.0, BINARY_SYMMETRIC_CEN_MAX),
            ),
            _measure("mcc", mcc, mcc_kernel(0.0), "MCC", bounds=(-1.0, 1.0)),
            _measure(
                "tmcc",
                tmcc,
                tmcc_kernel(0.0),
                "tMCC",
                higher=False,
                best=0.0,
                bounds=(0.0, math.inf),
            ),
            _measure(
                "cohen_kappa",
                cohen_kappa,
                cohen_kappa_kernel(0.0),
                "Cohen's kappa",
                bounds=(-1.0, 1.0),
            ),
            _measure("accuracy", accuracy, ACCURACY, "accuracy"),
            _measure(
                "balanced_accuracy", balanced_accuracy, BALANCED_ACCURACY, "balanced accuracy"
            ),
            _measure(
                "balanced_accuracy_weighted",
                balanced_accuracy_weighted,
                balanced_accuracy_weighted_kernel(0.0),
                "weighted balanced accuracy",
            ),
            _averaged(f1_score, "F1", "macro", "macro F1"),
            _averaged(f1_score, "F1", "micro", "micro F1"),
            _averaged(f1_score, "F1", "weighted", "weighted F1"),
            _averaged(precision, "precision", "macro", "macro precision"),
            _averaged(precision, "precision", "micro", "micro precision"),
            _averaged(precision, "precision", "weighted", "weighted precision"),
            _averaged(recall, "recall", "macro", "macro recall"),
            _averaged(recall, "recall", "micro", "micro recall"),
            _averaged(recall, "recall", "weighted", "weighted recall"),
            _measure(
                "f1_of_macro_averages",
                f1_of_macro_averages,
                f1_of_macro_averages_kernel(0.0),
                "F1 of macro averages",
            ),
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
    ``UndefinedMetricWarning`` per measure per call. A user :class:`Measure` without a kernel is
    called once on the validated :class:`cenmcc.Counts`; with ``count_undefined=True``, the
    ``UndefinedMetricWarning`` it emits is recorded and counted rather than shown (this
    swaps the process's warning filters for the call, so do not count a kernel-less user
    measure in several threads at once).

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[[5, 0], [0, 0]], [[3, 1], [1, 3]]])  # the first MCC is 0/0
    >>> values, undefined = measures(C, ["mcc", "accuracy"], count_undefined=True)
    >>> values["mcc"].tolist(), undefined
    ([0.0, 0.5], {'mcc': 1, 'accuracy': 0})
    """
    chosen = _chosen(names)
    m = as_counts(C)
    blocked = [x for x in chosen if x.kernel is not None]
    results = dict(
        zip((x.name for x in blocked), evaluate(m, [x.kernel for x in blocked]), strict=True)
    )
    values, undefined = {}, {}
    for measure in chosen:
        if measure.kernel is None:
            values[measure.name], undefined[measure.name] = _call(measure, m, count_undefined)
            continue
        result = results[measure.name]
        if not count_undefined:
            warn_undefined(
                result.undefined, result.checked, measure.kernel.what, measure.kernel.fill
            )
        values[measure.name], undefined[measure.name] = result.values, result.undefined
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
            if name not in MEASURES:
                raise ValueError(f"unknown measure {name!r}; the known names are {list(MEASURES)}")
            chosen.append(MEASURES[name])
        else:
            raise TypeError(f"names must hold measure names or Measure objects, got {name!r}")
    seen = set()
    for measure in chosen:
        if measure.name in seen:
            raise ValueError(f"measure {measure.name!r} is asked for twice")
        seen.add(measure.name)
    return chosen


def _call(measure: Measure, m, count_undefined: bool) -> tuple[np.ndarray, int]:
    """A kernel-less measure's values on the validated counts, and its counted 0/0 values."""
    if count_undefined:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UndefinedMetricWarning)
            values = measure.function(m)
        n_undefined = 0
        for w in caught:
            if issubclass(w.category, UndefinedMetricWarning):
                n_undefined += getattr(w.message, "count", 1)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    else:
        values, n_undefined = measure.function(m), 0
    values = as_array(values, name=f"the values of measure {measure.name!r}")
    if values.shape != m.stack_shape:
        raise ValueError(
            f"measure {measure.name!r} returned shape {values.shape}; a measure returns one "
            f"value per matrix, shape {m.stack_shape}"
        )
    return values[()] if values.ndim == 0 else values, n_undefined
