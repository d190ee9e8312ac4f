"""``method="auto"``: the method the coverage experiment found best on test sets like this one.

The coverage experiment (``python -m experiments coverage --full``) measures, for each measure
and method, the share of test sets whose 95% interval contains the population's value, in cells
of a grid and of the published designs (single intervals) and of paired scenarios (differences
between two classifiers), and writes that table into :mod:`._coverage_table`. A test set is
placed among those cells by its regime (:func:`regime`): its size ``n``, its number of classes
``K``, its smallest true class ``s`` and the number ``u`` of classes never predicted. The
distance to a cell is ``|log2(n / n_c)| + |log2(K / K_c)| + |log2((1 + s) / (1 + s_c))| +
|u - u_c|`` (a cell's ``s_c`` and ``u_c`` are the means over its test sets); the nearest cells
are those within :data:`RADIUS` of the nearest. Each method is scored by its worst coverage
there, capped at :data:`ENOUGH` (so that sampling noise above it does not decide), and the
narrowest of the best-scored methods (mean width over the nearest cells) is chosen; a test set
whose smallest class has :data:`LARGE` items or more gets the delta method (Wald), as good as
any there and without resamples, where it reaches :data:`FLAG`. Where even the best scores
below :data:`FLAG`, the call warns (:class:`cenmcc.CoverageWarning`), once, naming the
measure, the regime and that coverage. A measure the experiment did not measure gets BCa (or
Wald where large), scored by the median over the measures it did of BCa's worst coverage. The
table is of 95% intervals: at another level the same method is chosen, and the warning still
reports the 95% interval's coverage.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._undefined import caller_stacklevel
from ..exceptions import CoverageWarning
from ..registry import Measure
from . import _coverage_table
from .arguments import builtin

#: Cells within this distance of the nearest are the test set's neighbourhood (two doublings:
#: one let test sets of four classes at 80 items, the smallest with 6 to 8 items, be judged by
#: balanced five-class cells alone, and miss the imbalanced ones they came from).
RADIUS = 2.0

#: Coverage at least this counts as enough: above it a narrower interval is preferred.
ENOUGH = 0.94

#: Below this coverage in the neighbourhood, the call warns.
FLAG = 0.93

#: The method for a measure the experiment did not measure.
FALLBACK = "bca"

#: A test set whose smallest true class has at least this many items gets the delta method
#: (``"wald"``), which draws no resamples: in the experiment's cells of that kind (5,000 and
#: 10,000 items, 1,000 test sets each, SE about 0.007) every method's worst coverage was 0.934
#: to 0.940 and Wald's 0.936 to 0.939, for every measure, so no method is better there, and a
#: bootstrap of a large table costs seconds a measure (its multinomial draws grow with the
#: table's non-empty cells: 8 s for one paired comparison of 10**6 items of 20 classes at
#: 9,999 resamples, against 1 s for Wald's eight measures). Beyond the paired scenarios'
#: largest test sets (1,000 items) this extrapolates the single intervals' cells.
LARGE = 1000


def regime(n, K: int, smallest, unpredicted) -> np.ndarray:
    """The features ``(M, 4)`` of test sets: ``log2 n``, ``log2 K``, ``log2(1 + smallest)``
    and the number of classes never predicted."""
    n, smallest, unpredicted = np.broadcast_arrays(
        *(np.asarray(x, dtype=np.float64) for x in (n, smallest, unpredicted))
    )
    return np.stack(
        [
            np.log2(np.maximum(n, 1)),
            np.full(n.shape, np.log2(K)),
            np.log2(1 + smallest),
            unpredicted,
        ],
        axis=-1,
    )


def matrix_regime(C: np.ndarray) -> np.ndarray:
    """The features of each confusion matrix of a stack ``(M, K, K)`` (:func:`regime`)."""
    return regime(
        C.sum(axis=(-2, -1)),
        C.shape[-1],
        C.sum(axis=-1).min(axis=-1),
        (C.sum(axis=-2) == 0).sum(axis=-1),
    )


def choose(features: np.ndarray, m: Measure, table: dict, allowed) -> tuple[np.ndarray, np.ndarray]:
    """The chosen method of each test set ``(M,)`` and the worst coverage of that method in its
    neighbourhood ``(M,)``, from ``table`` (:data:`._coverage_table.SINGLE` or ``PAIRED``)
    among the methods ``allowed`` for ``m``."""
    name = builtin(m)
    large = (
        features[:, 2] >= np.log2(1 + LARGE) if "wald" in allowed else np.zeros(len(features), bool)
    )
    if name not in table:  # judged by BCa's median coverage, Wald's within noise where large
        typical = [scores(features, cells, (FALLBACK,))[0][:, 0] for cells in table.values()]
        chosen = np.where(large, "wald", FALLBACK).astype(object)
        return chosen, np.median(typical, axis=0)
    score, width, methods = scores(features, table[name], allowed)
    capped = np.minimum(score, ENOUGH)
    best = capped.max(axis=1, keepdims=True)
    width = np.where(capped == best, width, np.inf)
    pick = np.argmin(width, axis=1)
    if "wald" in methods:  # where it reaches FLAG too: no warning for want of resamples
        wald = methods.index("wald")
        pick = np.where(large & (score[:, wald] >= FLAG), wald, pick)
    rows = np.arange(len(features))
    return np.array(methods, dtype=object)[pick], score[rows, pick]


def scores(features: np.ndarray, cells: dict, allowed) -> tuple[np.ndarray, np.ndarray, list]:
    """The worst coverage ``(M, methods)`` and mean width of each allowed method over each test
    set's neighbourhood among ``cells``, and the methods' names."""
    methods = [method for method in cells["coverage"] if method in allowed]
    where = np.asarray(cells["regime"], dtype=np.float64)  # (cells, 4)
    distance = np.abs(features[:, None, :] - where[None]).sum(axis=-1)
    near = distance <= distance.min(axis=1, keepdims=True) + RADIUS
    coverage = np.array([cells["coverage"][method] for method in methods]).T  # (cells, methods)
    width = np.array([cells["width"][method] for method in methods]).T
    score = np.where(near[:, :, None], coverage[None], np.inf).min(axis=1)
    with np.errstate(invalid="ignore"):
        mean_width = np.nanmean(np.where(near[:, :, None], width[None], np.nan), axis=1)
    return score, np.nan_to_num(mean_width, nan=np.inf), methods


def warn(low: dict[str, tuple], what: str) -> None:
    """One :class:`CoverageWarning` for the measures whose chosen method may under-cover:
    ``low`` maps a measure's name to ``(coverage, method, regime text, count, total)``."""
    if not low:
        return
    parts = [
        f"{name!r} by {method!r} covered {coverage:.3f} in the coverage experiment's cells "
        f"nearest to {where}" + (f" ({count} of {total} test sets)" if total > 1 else "")
        for name, (coverage, method, where, count, total) in low.items()
    ]
    warnings.warn(
        CoverageWarning(
            f"the {what} may cover less than its level: no method reached coverage {FLAG} at "
            "level 0.95 in the experiment's nearest regime; "
            + "; ".join(parts)
            + " (a larger test set, or treat the interval as too narrow)"
        ),
        stacklevel=caller_stacklevel(),
    )


def describe_regime(features: np.ndarray) -> str:
    """A test set's regime in words, from its features (:func:`regime`)."""
    n, K, smallest = (round(2 ** features[i] - (i == 2)) for i in range(3))
    return (
        f"n = {n}, K = {K}, smallest class {smallest}, {int(features[3])} classes never predicted"
    )


def table(kind: str) -> dict:
    """The generated table of ``kind`` ``"single"`` or ``"paired"``."""
    return _coverage_table.SINGLE if kind == "single" else _coverage_table.PAIRED
