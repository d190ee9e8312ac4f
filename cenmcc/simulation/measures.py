"""The measures of a simulation: named cenmcc measures or a user's own, checked as they run.

A simulation names its measures as strings of :data:`cenmcc.MEASURES` (``"cen"``, ``"mcc"``,
``"cohen_kappa"``, ...) or gives :class:`cenmcc.Measure` objects wrapping functions of a
read-only ndarray of counts ``(m, K, K)`` (the contract: :class:`cenmcc.Measure`). In a worker,
:func:`evaluate` computes them all on one validated stack (the named ones together, sharing
their work: :func:`cenmcc.measures`), counts the values that were 0/0 instead of warning (a
user's NaN replaced by its ``Measure.undefined``, or kept where that is ``"omit"``), and
checks every user function's output: one real value per matrix, finite or a declared NaN,
else an error naming the measure and saying what it returned (:func:`describe`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Mapping

import numpy as np

import cenmcc
from cenmcc._metric import call_user_measure, metric_call

#: What a measure's name may hold: it names files, columns and summary keys.
NAME = re.compile(r"[a-z][a-z0-9_]*")


def resolve(measures: Iterable) -> tuple[cenmcc.Measure, ...]:
    """The :class:`cenmcc.Measure` of each name or Measure, in order, checked.

    Raises
    ------
    ValueError
        For an unknown name (the known ones are listed), a repeated name, fewer than one
        measure, or a name that is not lower-case letters, digits and underscores.
    TypeError
        For anything else (a bare function: wrap it in ``cenmcc.Measure(name, function,
        greater_is_better=...)`` so that its direction is known).
    """
    out = []
    for item in measures:
        if isinstance(item, str):
            if item not in cenmcc.MEASURES:
                raise ValueError(
                    f"unknown measure {item!r}; the named measures are {list(cenmcc.MEASURES)}, "
                    "or give a cenmcc.Measure of your own function"
                )
            out.append(cenmcc.MEASURES[item])
        elif isinstance(item, cenmcc.Measure):
            out.append(item)
        else:
            raise TypeError(
                f"a measure is a name of cenmcc.MEASURES or a cenmcc.Measure, got {item!r}; wrap "
                "a function of an (m, K, K) array of counts as cenmcc.Measure(name, function, "
                "greater_is_better=...)"
            )
    names = [m.name for m in out]
    if not names:
        raise ValueError("a simulation needs at least one measure")
    bad = [n for n in names if not NAME.fullmatch(n)]
    if bad:
        raise ValueError(f"measure names must be lower-case letters, digits and _, got {bad}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"measures named more than once: {repeated}")
    return tuple(out)


def evaluate(
    measures: tuple[cenmcc.Measure, ...], counts: cenmcc.Counts, where: str
) -> tuple[dict[str, np.ndarray], dict[str, int], list[str]]:
    """Every measure of one validated stack, in a worker.

    Returns
    -------
    values : dict of str to ndarray, shape (m,)
    undefined : dict of str to int
        How many values of each measure were 0/0 (a user's: NaN) and filled (no warning is
        emitted).
    warned : list of str
        The warnings a user's function emitted (to be shown once, in the caller's process).

    Raises
    ------
    TypeError
        If a user's function returns a masked array (its mask would be dropped) or values that
        are not real numbers (complex, text, objects); the message names the measure, ``where``
        (the chunk and stack) and what it returned.
    ValueError
        If it returns other than one value per matrix, or an infinite value, or NaN without
        declaring ``undefined``, named likewise.
    Exception
        What a user's function raised, as it was, with a note naming the measure and ``where``.
    """
    named = [m for m in measures if cenmcc.MEASURES.get(m.name) is m]
    values, undefined = cenmcc.measures(counts, named, count_undefined=True) if named else ({}, {})
    warned: list[str] = []
    m = counts.C.shape[0]
    for measure in measures:
        if measure.name in values:
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = user_call(
                f"measure {measure.name!r} failed on {where}", call_user_measure, measure, counts.C
            )
        warned += [f"{w.category.__name__}: {w.message}" for w in caught]
        values[measure.name], undefined[measure.name] = _checked(measure, result, m, where)
    return {mm.name: values[mm.name] for mm in measures}, undefined, warned


def user_call(context: str, function, *args):
    """``function(*args)`` of a user's function; what it raises is raised as it was, with the
    note ``context`` (which function failed, and where)."""
    try:
        return function(*args)
    except Exception as err:
        err.add_note(context)
        raise


def _checked(measure: cenmcc.Measure, result, m: int, where: str) -> tuple[np.ndarray, int]:
    """A user's measure's output as float64 of shape (m,), its NaN filled as it declares, and
    their number; or an error naming it and saying what it returned."""
    name = measure.name
    if np.ma.isMaskedArray(result):
        raise TypeError(
            f"measure {name!r} returned a masked array ({describe(result)}) on {where}; its mask "
            "would be dropped and the values under it counted: return one real value per matrix"
        )
    try:
        values = np.asarray(result)
        if values.dtype.kind not in "biufO":  # complex, text, dates: not real numbers
            raise TypeError
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"measure {name!r} returned {describe(result)} on {where}, not real numbers"
        ) from None
    if values.shape != (m,):
        raise ValueError(
            f"measure {name!r} returned shape {values.shape} on {where}, expected ({m},): one "
            "value per matrix"
        )
    try:
        return measure.filled(values)
    except ValueError as err:
        err.add_note(where)
        raise


def undefined_rule(measure: cenmcc.Measure) -> str:
    """What became of a measure's undefined (0/0) values, for the one warning of a run."""
    if measure.omits:
        return (
            "left out of its moments and of the pair statistics of its pairs (its "
            "Measure.undefined is 'omit'; each pair's left_out counts the matrices)"
        )
    if measure.undefined is not None:
        return f"set to {measure.undefined:g} (its Measure.undefined)"
    call = metric_call(measure.function)
    if call is None:
        return "as its function decided"
    metric, _, kwargs = call
    fill = kwargs.get("zero_division", metric.definition.fill)
    if fill == "excluded":
        return "computed over the classes that have samples (the others excluded)"
    return f"set to {fill:g}"


def describe(obj) -> str:
    """What ``obj`` is, in a few words, for an error message: its type and, where it has them,
    its dtype and shape, its length or its first keys.

    Examples
    --------
    >>> describe({"cen": 1, "mcc": 2})
    "dict with keys ['cen', 'mcc']"
    >>> describe(np.zeros((2, 3), dtype=complex))
    'ndarray of complex128, shape (2, 3)'
    >>> describe([1, 2])
    'list of 2 items'
    """
    kind = type(obj).__name__
    if isinstance(obj, Mapping):
        keys = list(obj)
        shown = repr(keys[:5])[:-1] + (", ...]" if len(keys) > 5 else "]")
        return f"{kind} with keys {shown}"
    if hasattr(obj, "dtype") and hasattr(obj, "shape"):
        return f"{kind} of {obj.dtype}, shape {obj.shape}"
    if isinstance(obj, list | tuple):
        return f"{kind} of {len(obj)} items"
    return kind
