"""The delete-a-group jackknife of any statistics of mergeable states.

Quenouille (1956), Tukey (1958), Kott (2001): each statistic recomputed on the merge of every
group but one, its standard error from their spread.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import numpy as np

T = TypeVar("T")


def jackknife(
    statistics: Callable[[T], dict], groups: list[T], merge: Callable[[T, T], T]
) -> tuple[T, dict]:
    """The merge of ``groups`` and ``statistics`` of it, each value with its jackknife SE.

    The run without group g is the merge of the groups before it (merged left to right, as
    the run is) with those after it (merged right to left). Those after are merged as g goes
    down, and each run without a group is measured and dropped at once: the process holds the
    groups, their prefix merges and two more states, not every run without a group.

    With g groups left out in turn, ``SE = sqrt((g - 1)/g Σ (θ_(i) - θ̄)²)`` over the groups
    whose statistic is finite (in the order of the groups); NaN with fewer than two groups, or
    where the run's value is NaN. ``statistics`` returns a nested dict of numbers; so does the
    result, with ``<name>_se`` next to each ``<name>``.

    Returns
    -------
    total : T
        The merge of every group, left to right.
    dict
        ``statistics(total)``, with the SEs.
    """
    prefix = [None]
    for state in groups:
        prefix.append(state if prefix[-1] is None else merge(prefix[-1], state))
    total = prefix.pop()
    replicates: list = [None] * len(groups) if len(groups) >= 2 else []
    suffix = None
    for g in reversed(range(len(replicates))):
        left = prefix.pop()
        without = left if suffix is None else suffix if left is None else merge(left, suffix)
        replicates[g] = flatten(statistics(without))
        if g:
            suffix = groups[g] if suffix is None else merge(groups[g], suffix)
    out = {}
    for path, value in flatten(statistics(total)).items():
        theta = np.array([r.get(path, math.nan) for r in replicates], dtype=float)
        theta = theta[np.isfinite(theta)]
        g = theta.size
        se = _root_sum_squares(theta - theta.mean(), (g - 1) / g) if g >= 2 else math.nan
        out[path] = value
        out[(*path[:-1], f"{path[-1]}_se")] = se if math.isfinite(value) else math.nan
    return total, _unflatten(out)


def _root_sum_squares(dev: np.ndarray, factor: float) -> float:
    """``sqrt(factor Σ dev²)``, the deviations scaled by a power of two near the largest so that
    their squares neither overflow nor underflow (the bits of the unscaled formula wherever it
    does neither)."""
    exponent = int(np.frexp(np.max(np.abs(dev), initial=0.0))[1])
    scaled = float(np.sum(np.ldexp(dev, -exponent) ** 2))
    return math.ldexp(math.sqrt(factor * scaled), exponent)


def flatten(tree: dict, path: tuple = ()) -> dict:
    """The leaves of a nested dict as floats, each keyed by its path of keys."""
    out = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out |= flatten(value, (*path, key))
        else:
            out[(*path, key)] = float(value)
    return out


def _unflatten(flat: dict) -> dict:
    out: dict = {}
    for path, value in flat.items():
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    return out
