"""The bootstrap over the items: multinomial resamples of the cells, percentile and BCa
intervals (with the jackknife of BCa's acceleration), and p-values by inverting them.

Resampling the items of a test set is a multinomial draw of its cells: ``B`` resamples of a
matrix of ``n`` items are a ``(B, K, K)`` stack drawn with ``rng.multinomial(n, C / n,
size=B)``, which :func:`cenmcc.measures` evaluates at once. The work goes in blocks of about
:data:`CHUNK_CELLS` cells (:func:`blocks`), so that its memory does not grow with the number of
resamples beyond their values. BCa's leave-one-out matrices are only the matrices ``C`` less
one item of a non-empty cell ``(i, j)``, each standing for the ``C_ij`` items of that cell.

A measure that omits its undefined values (``Measure(..., undefined="omit")``) is NaN on a
resample where it is 0/0: such resamples are left out of that matrix's interval, standard
error and p-value (as a simulation leaves such matrices out of its moments) and counted in
``n_undefined``; a leave-one-out value that is NaN is left out of the acceleration alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np

# scipy.special is imported in the functions that use it: `import cenmcc`, which a
# simulation's workers do, loads numpy only (tests/experiments/test_random_matrices.py).
from ..registry import Measure, measures

#: The bootstrap methods (of :func:`cenmcc.confidence_interval` and
#: :func:`cenmcc.compare_classifiers`).
BOOTSTRAP = ("bca", "percentile")

#: Cells (resamples x K^2) drawn and evaluated at once: a few tens of MB of temporaries.
CHUNK_CELLS = 2_000_000


def restarted(random_state) -> Callable[[], np.random.Generator]:
    """A function giving the generator of ``random_state`` back at its first state at each call.

    Each method of one call (``method="auto"`` chooses one a measure) starts its resamples from
    the same state, so a measure's interval is the same whichever other measures the call asks
    for and whichever methods they get: the one it gets alone with the same ``random_state``.
    """
    rng = np.random.default_rng(random_state)
    state = rng.bit_generator.state

    def restart() -> np.random.Generator:
        rng.bit_generator.state = state
        return rng

    return restart


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


def blocks(M: int, B: int, width: int) -> Iterator[tuple[slice, list[slice]]]:
    """The blocks of ``B`` resamples of ``M`` matrices, ``width`` cells evaluated per resample.

    Yields a slice of the matrices and the slices of their resamples: as many matrices as
    :data:`CHUNK_CELLS` cells hold with all their resamples, or, where one matrix's resamples
    exceed it, one matrix at a time with its resamples cut into blocks of that size (at least
    one resample). Blocks drawn one after the other from one generator are the draws of the
    whole, since numpy draws a multinomial sample by sample.
    """
    together = CHUNK_CELLS // (B * width)
    if together:
        for start in range(0, M, together):
            yield slice(start, min(M, start + together)), [slice(0, B)]
        return
    step = max(1, CHUNK_CELLS // width)
    for start in range(M):
        yield slice(start, start + 1), [slice(s, min(B, s + step)) for s in range(0, B, step)]


def peak_bytes(B: int, n_values: int, width: int) -> int:
    """About the most memory :func:`bootstrap` holds at once: the ``n_values`` values of each
    of ``B`` resamples of one matrix (drawn, joined and sorted: 3 copies), and a block of
    :data:`CHUNK_CELLS` cells, or of one resample of ``width`` cells, and its temporaries."""
    return 8 * (3 * B * n_values + 4 * max(CHUNK_CELLS, width))


def bootstrap(C, chosen, statistic, level, method, B, rng, values_of=None, width=None, null=None):
    """Percentile or BCa intervals of each matrix of ``C``: a dict of arrays ``(M,)`` by measure.

    Keys ``low``, ``high``, ``standard_error``, ``n_undefined`` (0/0 resamples) and ``pvalue``
    (NaN unless ``null`` is given).

    ``C`` ``(M, ...)``: the counts of the cells drawn. ``values_of(draws)`` gives the values
    ``(m, R)`` and 0/0 counts ``(m,)`` of each measure for multinomial draws of the cells
    ``(m, R, cells)``, ``width`` cells evaluated per resample (the cells by default); by
    default the draws are confusion matrices (:func:`matrix_values`), and the paired comparison
    passes its own. ``null``: the value whose two-sided p-value is wanted, by inverting the
    interval (:func:`inverted_pvalue`).
    """
    values_of = values_of or matrix_values(C.shape[-2:], chosen)
    M, cells = C.shape[0], math.prod(C.shape[1:])
    flat = C.reshape(M, cells)
    n = flat.sum(axis=1)
    p = flat / n[:, None]
    q = np.array([(1 - level) / 2, (1 + level) / 2])
    fields = ("low", "high", "standard_error", "pvalue")
    out = {m.name: {f: np.full(M, np.nan) for f in fields} for m in chosen}
    for m in chosen:
        out[m.name]["n_undefined"] = np.zeros(M, dtype=np.int64)
    for rows, parts in blocks(M, B, width or cells):
        size = rows.stop - rows.start
        theta_b = {m.name: [] for m in chosen}
        for part in parts:
            draws = rng.multinomial(
                n[rows, None], p[rows, None, :], size=(size, part.stop - part.start)
            )
            values, n_undefined = values_of(draws)
            for m in chosen:
                theta_b[m.name].append(values[m.name])
                out[m.name]["n_undefined"][rows] += n_undefined[m.name]
        if method == "bca":
            here = flat[rows]
            group, cell, loo = one_cell_changes(here, np.where(here > 0, -1, 0), values_of)
        for m in chosen:
            resampled = np.sort(np.concatenate(theta_b[m.name], axis=1), axis=1)  # NaN last
            kept = np.count_nonzero(~np.isnan(resampled), axis=1)
            z0 = a = np.zeros(size)
            if method == "bca":
                z0 = bias_correction(resampled, kept, statistic[m.name][rows])
                a = acceleration(group, here[group, cell], loo[m.name], size)
            part = out[m.name]
            ends = quantiles(resampled, bca_levels(z0, a, q), kept)
            part["low"][rows], part["high"][rows] = ends[:, 0], ends[:, 1]
            part["standard_error"][rows] = spread(resampled, kept)
            if null is not None:
                part["pvalue"][rows] = inverted_pvalue(resampled, kept, null, z0, a)
    return out


def spread(resampled, kept):
    """The standard deviation (``ddof=1``) of each row's ``kept`` values that are not NaN;
    NaN where fewer than two are kept."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.nansum(resampled, axis=1) / kept
        sd = np.sqrt(np.nansum((resampled - mean[:, None]) ** 2, axis=1) / (kept - 1))
    return np.where(kept > 1, sd, np.nan)


def inverted_pvalue(theta_b, kept, null, z0, a):
    """Two-sided p-value of ``null``: ``1 - level`` of the interval whose end ``null`` is.

    ``null`` is at the level ``u`` of the ``kept`` resamples (ties count half); inverting BCa's
    map ``z -> z0 + (z0 + z) / (1 - a (z0 + z))`` gives ``z = w / (1 + a w) - z0`` with
    ``w = Phi^-1(u) - z0``, and ``p = 2 Phi(-|z|)``. With ``z0 = a = 0`` (percentile) it is
    twice the smaller share of the resamples on one side of ``null``. ``B`` resamples resolve
    no p-value below ``2 / (B + 1)``, which is reported in its place; NaN where no resample is
    kept.
    """
    from scipy.special import ndtr, ndtri

    u = ((theta_b < null).sum(axis=1) + (theta_b <= null).sum(axis=1)) / (2 * kept)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = ndtri(u) - z0
        p = 2 * ndtr(-np.abs(w / (1 + a * w) - z0))
        p = np.maximum(np.nan_to_num(p, nan=0.0), 2 / (kept + 1))
    return np.where(kept > 0, p, np.nan)


def matrix_values(shape, chosen) -> Callable:
    """``values_of`` for draws that are confusion matrices of ``shape`` (K, K)."""

    def values_of(draws):
        values, _, n_undefined = evaluate(draws.reshape(*draws.shape[:2], *shape), chosen)
        return values, n_undefined

    return values_of


def one_cell_changes(base, change, values_of):
    """The values of each matrix of ``base`` ``(m, cells)`` with one cell changed, for each
    cell where ``change`` ``(m, cells)`` is not 0, in blocks of :data:`CHUNK_CELLS` cells.

    Returns the matrix ``(E,)`` and cell ``(E,)`` of each change, in row-major order, and the
    values ``(E,)`` of each measure after it (``values_of`` as for :func:`bootstrap`). With
    ``change`` -1 in every non-empty cell these are BCa's leave-one-out values; the numerical
    gradient (:func:`cenmcc.intervals.asymptotic.gradient`) shifts each proportion both ways.
    """
    group, cell = np.nonzero(change)
    step = max(1, CHUNK_CELLS // max(base.shape[1], 1))
    parts = []
    for start in range(0, group.size, step):
        g, c = group[start : start + step], cell[start : start + step]
        rows = base[g].astype(np.result_type(base, change))  # a copy
        rows[np.arange(g.size), c] += change[g, c]
        parts.append(values_of(rows[None])[0])
    if not parts:
        parts.append(values_of(base[:0][None])[0])
    return group, cell, {x: np.concatenate([v[x][0] for v in parts]) for x in parts[0]}


def bias_correction(resampled, kept, theta):
    """BCa's bias correction ``z0`` ``(m,)``: ``Phi^-1`` of the share of the ``kept``
    resamples below the statistic, ties counting half (scipy.stats.bootstrap's)."""
    from scipy.special import ndtri

    theta = np.reshape(theta, (-1, 1))
    below = (resampled < theta).sum(axis=1) + (resampled <= theta).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return ndtri(below / (2 * kept))


def acceleration(group, weights, loo, m: int):
    """BCa's acceleration ``a`` ``(m,)`` from the leave-one-out values ``loo`` of matrix
    ``group``, each standing for ``weights`` items (scipy.stats.bootstrap's
    ``sum w d^3 / (6 (sum w d^2)^(3/2))``, ``d`` the deviations from the weighted mean); NaN
    values are left out, and ``a`` is 0 where the values are all equal."""
    defined = ~np.isnan(loo)
    w = np.where(defined, weights, 0).astype(np.float64)
    v = np.where(defined, loo, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.bincount(group, w * v, m) / np.bincount(group, w, m)
        d = mean[group] - v
        num, den = np.bincount(group, w * d**3, m), np.bincount(group, w * d**2, m)
        return np.where(den > 0, num / (6 * den**1.5), 0.0)


def bca_levels(z0, a, q):
    """The quantile levels ``(m, len(q))`` of the resamples for the nominal levels ``q``."""
    from scipy.special import ndtr, ndtri

    with np.errstate(divide="ignore", invalid="ignore"):
        z = z0[:, None] + ndtri(q)
        levels = ndtr(z0[:, None] + z / (1 - a[:, None] * z))
    return np.where(np.isnan(levels), (z0[:, None] > 0).astype(float), levels)


def quantiles(sorted_rows: np.ndarray, q: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Row-wise quantiles at levels ``q`` ``(m, j)`` of the first ``kept`` values of each
    sorted row, interpolated linearly (numpy's default); NaN where ``kept`` is 0."""
    last = np.maximum(kept, 1)[:, None] - 1
    position = np.clip(q, 0, 1) * last
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, last)
    lo = np.take_along_axis(sorted_rows, below, axis=1)
    hi = np.take_along_axis(sorted_rows, above, axis=1)
    return np.where(kept[:, None] > 0, lo + (position - below) * (hi - lo), np.nan)
