"""The arguments of :func:`cenmcc.confidence_interval` and :func:`cenmcc.compare_classifiers`,
checked: the method, the level, the resamples, the counts and the measures asked for."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence

import numpy as np

from .._marginals import Counts
from .._validation import as_items
from ..registry import MEASURES, Measure, measure_named

#: Methods no longer accepted, and what they were.
RETIRED = {
    "delta": (
        "it was Fisher's z interval of the delta method for the MCC and Wald's for every other "
        "measure and for paired differences: ask for method='fisher_z' or 'wald' "
        "(compare_classifiers: 'wald' or 'mover')"
    )
}


def check_method(method, methods: tuple[str, ...]) -> None:
    """Refuse a ``method`` that is not one of ``methods`` (a retired one with what it was)."""
    if isinstance(method, str) and method in RETIRED:
        raise ValueError(f"method {method!r} is retired: {RETIRED[method]}")
    if not isinstance(method, str) or method not in methods:
        raise ValueError(f"unknown method {method!r}; the methods are {list(methods)}")


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


def check_memory(nbytes: int, what: str) -> None:
    """Refuse, before any work, what needs more memory than this machine has (its physical
    memory: the most any call could get); ``what`` names the request in the message."""
    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    if nbytes > physical:
        raise ValueError(
            f"{what} needs about {nbytes / 2**30:,.1f} GiB of memory, more than this machine's "
            f"{physical / 2**30:,.1f} GiB"
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
        return measure_named(measure)
    if callable(measure):
        for known in MEASURES.values():
            if known.function is measure:
                return known
        return Measure(getattr(measure, "__name__", "measure"), measure, True)
    raise TypeError(f"measure must be a name, a Measure or a function, got {measure!r}")


def builtin(measure: Measure) -> str | None:
    """The name of the entry of :data:`cenmcc.MEASURES` that ``measure`` is, or whose very
    function it computes with; None for any other measure, whatever its name.

    The closed forms and written-out gradients are chosen by this identity, never by a name: a
    user's ``Measure("accuracy", <an error rate>)`` is not the accuracy.
    """
    for name, known in MEASURES.items():
        if measure is known or measure.function is known.function:
            return name
    return None


def whole_counts(counts) -> tuple[np.ndarray, tuple]:
    """Validated counts as an int64 stack ``(M, K, K)`` and the stack's shape (M may be 0)."""
    C = as_items(Counts(counts, name="counts").C, name="counts")
    return C.reshape(math.prod(C.shape[:-2]), *C.shape[-2:]), C.shape[:-2]
