"""The one evaluation path of every metric of counts, and the :class:`Measure` that names one.

A metric is written once, as a function of one block of validated matrices (a
:class:`~cenmcc._marginals.Counts`) returning its values and which of them were 0/0 (filled as
:mod:`cenmcc._undefined` says). :func:`count_metric` makes it the public function of counts
``C``; :func:`evaluate` runs one or several such metrics on one stack: validate once, compute
block by block with the marginals the blocks share, join the blocks, count the 0/0 values. The
public function then warns once; :func:`cenmcc.measures` warns once per measure, or returns the
counts, and serves the simulation.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ._marginals import Counts
from ._undefined import warn_undefined
from ._validation import real_array
from .exceptions import UndefinedMetricWarning

#: ``Measure.undefined`` of a measure whose undefined values are left out of the statistics.
OMIT = "omit"


@dataclasses.dataclass(frozen=True)
class Measure:
    """A named measure of confusion-matrix counts: a plain function of an ndarray.

    The contract of a user's ``function``: it receives the counts as a read-only ndarray ``C``
    of shape ``(m, K, K)`` (rows = true class, columns = predicted class; integers, or floats
    for fractional counts), validated (non-negative, finite, every matrix with samples), and
    returns ``m`` real values, one per matrix, as NumPy code does (``C.sum(axis=(-2, -1))``
    the totals, ``np.trace(C, axis1=-2, axis2=-1)`` the correct counts). It may return NaN
    where it is undefined (0/0, with NumPy's warning for it off), if it declares what that
    means in ``undefined``: a value every NaN is replaced by, or :data:`OMIT`, the matrix
    left out of the statistics; either way the NaN are counted and warned about once by the
    caller (:class:`cenmcc.UndefinedMetricWarning`, as for the built-in measures). Infinite values,
    and NaN without ``undefined``, are refused with an error naming the measure. How
    :func:`cenmcc.measures` shares marginals among the built-in measures is internal.

    Parameters
    ----------
    name : str
        The key: a stable, non-empty identifier (``"mcc"``).
    function : callable
        ``function(C)`` of a read-only ndarray ``C`` of shape ``(m, K, K)`` (``(..., K, K)``
        in :func:`cenmcc.measures`) returning shape ``(m,)`` (``(...)``). A metric of
        cenmcc, or a ``functools.partial`` of one, is evaluated by :func:`cenmcc.measures` on
        the blocks it shares with the other measures.
    greater_is_better : bool
        The direction of the values.
    label : str, optional
        A short display label (``"MCC"``, ``"macro F1"``); the name by default.
    best : float, optional
        The best value, within ``bounds``; by default the end of ``bounds`` in the direction
        of ``greater_is_better``.
    bounds : tuple of float, optional
        ``(low, high)``, the range of the values (``inf`` allowed); unbounded by default.
    undefined : float or "omit", optional
        What a NaN returned by ``function`` (an undefined value, 0/0) means for the
        statistics: the value it is replaced by (a real number, within ``bounds``), or
        ``"omit"`` (:data:`OMIT`): the value stays NaN and a simulation leaves the matrix out
        of the measure's moments and of the pair statistics of each of its pairs (a pair
        counts the pairs of matrices defined for both its measures). Counted and warned about
        either way. By default None: ``function`` never returns NaN, and a NaN is an error.

    Raises
    ------
    TypeError, ValueError
        For a field of the wrong type, an empty name, or ``best`` or ``undefined`` outside
        ``bounds``.

    Examples
    --------
    Gwet's AC1 (Gwet 2008), chance-corrected agreement with the chance term
    ``Σ_k π_k (1 - π_k) / (K - 1)``, ``π_k`` the mean of the true and predicted proportions
    of class k:

    >>> import numpy as np
    >>> import cenmcc
    >>> def gwet_ac1(C):
    ...     n = C.sum(axis=(-2, -1))
    ...     observed = np.trace(C, axis1=-2, axis2=-1) / n
    ...     pi = (C.sum(axis=-1) + C.sum(axis=-2)) / (2 * n[..., None])
    ...     chance = (pi * (1 - pi)).sum(axis=-1) / (C.shape[-1] - 1)
    ...     return (observed - chance) / (1 - chance)
    >>> ac1 = cenmcc.Measure("gwet_ac1", gwet_ac1, True, "Gwet's AC1", bounds=(-1.0, 1.0))
    >>> C = [[5, 1, 0], [2, 6, 1], [0, 1, 7]]
    >>> round(float(cenmcc.measures(C, [ac1])["gwet_ac1"]), 4)
    0.6749

    A measure undefined for some matrices returns NaN there and says what it means: the
    precision of class 0 is 0/0 when nothing is predicted as class 0, here counted as 0:

    >>> def precision_0(C):
    ...     return C[..., 0, 0] / C[..., :, 0].sum(axis=-1)
    >>> p0 = cenmcc.Measure("precision_0", precision_0, True, bounds=(0.0, 1.0), undefined=0.0)
    >>> values, undefined = cenmcc.measures(
    ...     [[[0, 2], [0, 3]], [[1, 1], [1, 3]]], [p0], count_undefined=True
    ... )
    >>> values["precision_0"].tolist(), undefined
    ([0.0, 0.5], {'precision_0': 1})

    Or left out of the statistics: the value stays NaN, and a simulation's moments and pair
    counts skip that matrix for this measure:

    >>> p0 = cenmcc.Measure("precision_0", precision_0, True, bounds=(0.0, 1.0), undefined="omit")
    >>> values, undefined = cenmcc.measures(
    ...     [[[0, 2], [0, 3]], [[1, 1], [1, 3]]], [p0], count_undefined=True
    ... )
    >>> values["precision_0"].tolist(), undefined
    ([nan, 0.5], {'precision_0': 1})
    """

    name: str
    function: Callable
    greater_is_better: bool
    label: str = ""
    best: float | None = None
    bounds: tuple[float, float] = (-math.inf, math.inf)
    undefined: float | str | None = None

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
        if self.undefined is not None and not self.omits:
            if not _is_real(self.undefined) or not low <= self.undefined <= high:
                raise ValueError(
                    f"Measure.undefined must be a real number within bounds {self.bounds!r}, "
                    f"{OMIT!r} or None, got {self.undefined!r}"
                )
            object.__setattr__(self, "undefined", float(self.undefined))

    def __call__(self, C):
        """The measure of counts ``C``, shape ``(..., K, K)``: values of shape ``(...)``.

        The path of :func:`cenmcc.measures` (``cenmcc.measures(C, [self])[self.name]``): ``C``
        validated, NaN replaced as :attr:`undefined` declares, at most one
        ``UndefinedMetricWarning``. ``C`` may be a :class:`cenmcc.Counts`.

        Examples
        --------
        >>> import cenmcc
        >>> round(float(cenmcc.MEASURES["f1_macro"]([[5, 1], [2, 6]])), 4)
        0.7846
        """
        values, _ = evaluate_measures(C, [self], count_undefined=False)
        return values[self.name]

    @property
    def omits(self) -> bool:
        """Whether its undefined values are left out of the statistics (:data:`OMIT`)."""
        return isinstance(self.undefined, str) and self.undefined == OMIT

    def filled(self, values: np.ndarray) -> tuple[np.ndarray, int]:
        """``values`` of the function with each NaN replaced by :attr:`undefined` (kept where it
        is :data:`OMIT`), and their number (the caller warns once, with the count).

        Raises
        ------
        ValueError
            For infinite values, or NaN where the measure declares no ``undefined``; the
            message names the measure and the first such matrix.
        """
        nan = np.isnan(values)
        bad = np.isinf(values) | (nan if self.undefined is None else False)
        if np.any(bad):
            first = np.unravel_index(int(np.flatnonzero(bad)[0]), np.shape(values))
            hint = (
                "; a measure returns NaN where it is undefined only if it declares what that "
                "means: cenmcc.Measure(..., undefined=<value> or 'omit')"
                if np.isnan(values[first])
                else ""
            )
            raise ValueError(
                f"measure {self.name!r} returned {values[first]} for matrix "
                f"{first[0] if len(first) == 1 else first}; every value must be finite{hint}"
            )
        count = int(np.count_nonzero(nan))
        if count and not self.omits:
            values = np.where(nan, self.undefined, values)
        return values, count


def call_user_measure(measure: Measure, C: np.ndarray):
    """``measure.function`` of a read-only view of the validated counts ``C``: the contract of
    a user's measure. Where it declares ``undefined``, NumPy's warning for 0/0 (NaN) is off."""
    view = C.view(np.ndarray)
    view.flags.writeable = False
    if measure.undefined is None:
        return measure.function(view)
    with np.errstate(invalid="ignore"):
        return measure.function(view)


def _is_real(x) -> bool:
    return isinstance(x, int | float | np.integer | np.floating) and not isinstance(x, bool)


class Definition(NamedTuple):
    """What :func:`count_metric` knows of a metric (the ``definition`` of its public function).

    Attributes
    ----------
    compute : callable
        ``compute(m, ...)``: the values of one block ``m`` (a :class:`Counts`), one (or one row)
        per matrix, and a boolean array marking the values it checked that were 0/0 (and
        filled), one row per matrix (shape ``(n, ...)``), or None where the metric is never
        undefined.
    what : str
        What is undefined, as the ``UndefinedMetricWarning`` names it ("MCC").
    fill : float or str
        The fill value the warning names, unless the metric takes ``zero_division``.
    prepare : callable or None
        ``prepare(m, **options)``: the options ``compute`` gets, checked once per call against
        the whole validated stack ``m`` (class weights, say).
    signature : inspect.Signature
        The signature of ``compute``.
    """

    compute: Callable
    what: str
    fill: float | str
    prepare: Callable | None
    signature: inspect.Signature


class Evaluated(NamedTuple):
    """A metric's values on a stack, how many of ``checked`` values were 0/0, and how it warns."""

    values: np.ndarray
    undefined: int
    checked: int
    what: str
    fill: float | str

    def warn(self) -> None:
        """The one ``UndefinedMetricWarning`` of the call, if any value was 0/0."""
        warn_undefined(self.undefined, self.checked, self.what, self.fill)


def count_metric(
    what: str = "",
    *,
    fill: float | str = 0.0,
    prepare: Callable | None = None,
    label: str | None = None,
    greater_is_better: bool = True,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> Callable:
    """Make the public metric of counts ``C`` from its function of one block.

    The decorated ``compute(m, *options)`` (see :class:`Definition`) is written once; the public
    function that replaces it takes counts ``C`` (array-like or :class:`Counts`) in place of
    ``m``, refuses label vectors (:func:`refuse_labels`), evaluates ``compute`` on every block
    (:func:`evaluate`) and emits one ``UndefinedMetricWarning``. It keeps the docstring, and
    carries ``definition`` (:class:`Definition`) for :func:`cenmcc.measures` and ``measure``:
    with a ``label``, the :class:`Measure` of the function under its own name, with that label,
    direction and bounds (:data:`cenmcc.MEASURES`); else None.
    """

    def decorate(compute: Callable) -> Callable:
        signature = inspect.signature(compute)
        first, *options = signature.parameters.values()
        definition = Definition(compute, what, fill, prepare, signature)
        positional = _positional(signature)

        @functools.wraps(compute)
        def metric(C, *args, **kwargs):
            refuse_labels(compute.__name__, (C, *args), positional, named=label is not None)
            (result,) = evaluate(C, [(metric, args, kwargs)])
            result.warn()
            return result.values

        C = first.replace(name="C", annotation=first.empty)  # array_like or Counts
        metric.__signature__ = signature.replace(parameters=[C, *options])
        metric.definition = definition
        metric.measure = None
        if label is not None:
            name = compute.__name__
            metric.measure = Measure(name, metric, greater_is_better, label, bounds=bounds)
        return metric

    return decorate


def metric_call(function: Callable) -> tuple[Callable, tuple, dict] | None:
    """``(metric, args, kwargs)`` for :func:`evaluate` of a count metric, or of a
    ``functools.partial`` of one (the arguments it binds); None for any other function."""
    args, kwargs = (), {}
    if isinstance(function, functools.partial):
        function, args, kwargs = function.func, function.args, function.keywords
    definition = getattr(function, "definition", None)
    return (function, args, kwargs) if isinstance(definition, Definition) else None


def evaluate(C, calls) -> list[Evaluated]:
    """Several count metrics of one stack, validated and cut into blocks once.

    Parameters
    ----------
    C : array_like, shape (..., K, K), or Counts
        The counts, validated here unless a :class:`Counts`.
    calls : sequence of (metric, args, kwargs)
        Public count metrics (made by :func:`count_metric`) and their arguments after ``C``.

    Returns
    -------
    list of Evaluated
        Each metric's values, shape ``stack_shape + the metric's trailing shape`` (a NumPy
        scalar for a single matrix and a scalar metric), and its summed 0/0 counts. Every
        metric sees the same block objects, so the marginals that one caches serve the others.
    """
    bound = [_bind(*call) for call in calls]  # the arguments are checked before the counts
    m = as_counts(C)
    prepared = [d.prepare(m, **options) if d.prepare else options for d, options in bound]
    parts = [[] for _ in bound]
    for block in m.blocks():
        for (definition, _), options, part in zip(bound, prepared, parts, strict=True):
            part.append(definition.compute(block, **options))
    return [
        _join(part, m.stack_shape, definition, options.get("zero_division", definition.fill))
        for (definition, options), part in zip(bound, parts, strict=True)
    ]


def evaluate_measures(C, chosen: list[Measure], *, count_undefined: bool) -> tuple[dict, dict]:
    """The values of the measures ``chosen`` on one stack, and their 0/0 counts, by name.

    The path of :func:`cenmcc.measures` and of a :class:`Measure` called on counts: the stack
    is validated once (unless a :class:`Counts`); the metrics of cenmcc among the measures are
    evaluated together on its blocks (:func:`evaluate`), a user's measure on the validated
    counts (:func:`call_user_measure`), its NaN replaced as it declares. Without
    ``count_undefined`` each measure emits at most one ``UndefinedMetricWarning``; with it,
    none, and its count is returned. Every measure's values must have the stack's shape.
    """
    m = as_counts(C)
    blockwise = {x.name: metric_call(x.function) for x in chosen}
    blockwise = {name: call for name, call in blockwise.items() if call is not None}
    results = dict(zip(blockwise, evaluate(m, list(blockwise.values())), strict=True))
    values, undefined = {}, {}
    for measure in chosen:
        if measure.name in results:
            result = results[measure.name]
            if not count_undefined:
                result.warn()
            values[measure.name], undefined[measure.name] = result.values, result.undefined
        else:
            values[measure.name], undefined[measure.name] = _user_values(
                measure, m, count_undefined
            )
        if np.shape(values[measure.name]) != m.stack_shape:
            raise ValueError(
                f"measure {measure.name!r} returned shape {np.shape(values[measure.name])}; a "
                f"measure returns one value per matrix, shape {m.stack_shape}"
            )
    return values, undefined


def _user_values(measure: Measure, m: Counts, count_undefined: bool) -> tuple[np.ndarray, int]:
    """A user's measure's values on the validated counts (given as a read-only ndarray), its
    NaN replaced as it declares (:meth:`Measure.filled`), and its counted 0/0 values."""
    if count_undefined:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UndefinedMetricWarning)
            values = call_user_measure(measure, m.C)
        n_undefined = 0
        for w in caught:
            if issubclass(w.category, UndefinedMetricWarning):
                n_undefined += getattr(w.message, "count", 1)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    else:
        values, n_undefined = call_user_measure(measure, m.C), 0
    values = real_array(values, name=f"the values of measure {measure.name!r}")
    values, filled = measure.filled(values)
    if filled and not count_undefined:
        fill = (
            "NaN (left out: its Measure.undefined is 'omit')"
            if measure.omits
            else measure.undefined
        )
        warn_undefined(filled, values.size, measure.label, fill)
    return values[()] if values.ndim == 0 else values, n_undefined + filled


def _bind(metric: Callable, args: tuple, kwargs: dict) -> tuple[Definition, dict]:
    """The metric's definition and every argument after ``C`` by name, defaults included."""
    definition = metric.definition
    try:
        options = definition.signature.bind(None, *args, **kwargs)
    except TypeError as err:
        raise TypeError(f"{metric.__name__}() {err}") from None
    options.apply_defaults()
    return definition, dict(list(options.arguments.items())[1:])


def _join(parts: list, stack_shape: tuple, definition: Definition, fill) -> Evaluated:
    values = np.concatenate([values for values, _ in parts])
    values = values.reshape(stack_shape + values.shape[1:])
    masks = [undefined for _, undefined in parts if undefined is not None]
    return Evaluated(
        values[()] if values.ndim == 0 else values,
        sum(int(np.count_nonzero(mask)) for mask in masks),
        sum(mask.size for mask in masks),
        definition.what,
        fill,
    )


def as_counts(C) -> Counts:
    """``C`` itself if it is a :class:`Counts`, else ``C`` validated for one call
    (:meth:`Counts._for_one_call`)."""
    return C if isinstance(C, Counts) else Counts._for_one_call(C)


def takes_counts(function: Callable) -> Callable:
    """Decorate a function of counts ``C`` (not made by :func:`count_metric`, which does the
    same) so that label vectors get pointed to the label path (:func:`refuse_labels`)."""
    positional = _positional(inspect.signature(function))

    @functools.wraps(function)
    def metric(*args, **kwargs):
        refuse_labels(function.__name__, args, positional)
        return function(*args, **kwargs)

    return metric


def _positional(signature: inspect.Signature) -> list[str]:
    return [p.name for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]


def refuse_labels(name: str, args: tuple, positional: list, *, named: bool = False) -> None:
    """Refuse label vectors given to the metric of counts ``name``, pointing to the label path.

    ``mcc(y_true, y_pred)`` would raise Python's "takes 1 positional argument but 2 were
    given", and ``precision(y_true, y_pred)`` would take ``y_pred`` for ``average``: two 1-D
    arrays (where the second parameter is not class ``weights``), or more positional arguments
    than the metric's ``positional`` parameters, raise a ``TypeError``, and a 1-D ``C`` a
    ``ValueError``, that name :func:`cenmcc.from_labels` (with the metric's name where it is
    ``named`` in :data:`cenmcc.MEASURES`) and :func:`cenmcc.confusion_matrix`.
    """
    labels = len(args) > 1 and positional[1:2] != ["weights"] and all(map(_is_1d, args[:2]))
    if len(args) > len(positional) or labels:
        raise TypeError(f"{name} takes confusion-matrix counts C, not labels; {_hint(name, named)}")
    if args and _is_1d(args[0]):
        raise ValueError(
            f"C must have at least 2 dimensions (..., K, K), got shape ({len(args[0])},); "
            f"{_hint(name, named)}"
        )


def _is_1d(x) -> bool:
    """Whether ``x`` is a 1-D array, or a list or tuple whose first element is a scalar."""
    if isinstance(x, Counts):
        return False
    if hasattr(x, "ndim"):
        return x.ndim == 1
    return isinstance(x, list | tuple) and len(x) > 0 and np.ndim(x[0]) == 0


def _hint(name: str, named: bool) -> str:
    """Where labels go for the metric ``name``."""
    matrix = f"cenmcc.{name}(cenmcc.confusion_matrix(y_true, y_pred))"
    if name == "measures":
        return f"for labels use cenmcc.from_labels(y_true, y_pred, names) or {matrix}"
    if named:
        return f"for labels use cenmcc.from_labels(y_true, y_pred, {name!r}) or {matrix}"
    return f"for labels use {matrix}, or cenmcc.from_labels for the measures of cenmcc.MEASURES"
