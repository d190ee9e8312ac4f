"""The bootstrap over the items: multinomial resamples of the cells, percentile and BCa
intervals (with the jackknife of BCa's acceleration), and p-values by inverting them.

Resampling the items of a test set is a multinomial draw of its cells: ``B`` resamples of a
matrix of ``n`` items are one ``(B, K, K)`` stack drawn with ``rng.multinomial(n, C / n,
size=B)``, which :func:`cenmcc.measures` evaluates at once. BCa's leave-one-out matrices are
only the ``K^2`` matrices ``C`` minus one item of cell ``(i, j)``, each standing for ``C_ij``
items.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

# scipy.special is imported in the functions that use it: `import cenmcc`, which a
# simulation's workers do, loads numpy only (tests/experiments/test_random_matrices.py).
from ..registry import Measure, measures

#: The bootstrap methods (of :func:`cenmcc.confidence_interval` and
#: :func:`cenmcc.compare_classifiers`).
BOOTSTRAP = ("bca", "percentile")

#: Cells (resamples x K^2) drawn and evaluated at once: a few tens of MB of temporaries.
CHUNK_CELLS = 2_000_000


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


def bootstrap(C, chosen, statistic, level, method, B, rng, values_of=None, null=None):
    """Percentile or BCa intervals of each matrix of ``C``: a dict of arrays ``(M,)`` by measure.

    Keys ``low``, ``high``, ``standard_error``, ``n_undefined`` (0/0 resamples) and ``pvalue``
    (NaN unless ``null`` is given).

    ``values_of(draws)`` gives the values ``(m, R)`` and 0/0 counts ``(m,)`` of each measure
    for multinomial draws of the cells ``(m, R, cells)``; by default the draws are confusion
    matrices (:func:`matrix_values`), and the paired comparison passes its own. ``null``: the
    value whose two-sided p-value is wanted, by inverting the interval (:func:`inverted_pvalue`).
    """
    values_of = values_of or matrix_values(C.shape[-2:], chosen)
    M, cells = C.shape[0], math.prod(C.shape[1:])
    n = C.reshape(M, -1).sum(axis=1)
    p = C.reshape(M, -1) / n[:, None]
    q = np.array([(1 - level) / 2, (1 + level) / 2])
    fields = ("low", "high", "standard_error", "pvalue")
    out = {m.name: {f: np.full(M, np.nan) for f in fields} for m in chosen}
    for m in chosen:
        out[m.name]["n_undefined"] = np.zeros(M, dtype=np.int64)
    step = max(1, CHUNK_CELLS // (B * cells))
    for start in range(0, M, step):
        rows = slice(start, min(M, start + step))
        draws = rng.multinomial(n[rows, None], p[rows, None, :], size=(rows.stop - start, B))
        values, n_undefined = values_of(draws)
        if method == "bca":
            loo, weights = jackknife(C[rows])
            loo_values, _ = values_of(loo)
        for m in chosen:
            theta_b = values[m.name]
            z0 = a = np.zeros(theta_b.shape[0])
            if method == "bca":
                z0, a = bca_constants(theta_b, statistic[m.name][rows], loo_values[m.name], weights)
            part = out[m.name]
            ends = quantiles(np.sort(theta_b, axis=1), bca_levels(z0, a, q))
            part["low"][rows], part["high"][rows] = ends[:, 0], ends[:, 1]
            part["standard_error"][rows] = theta_b.std(axis=1, ddof=1)
            part["n_undefined"][rows] = n_undefined[m.name]
            if null is not None:
                part["pvalue"][rows] = inverted_pvalue(theta_b, null, z0, a)
    return out


def inverted_pvalue(theta_b, null, z0, a):
    """Two-sided p-value of ``null``: ``1 - level`` of the interval whose end ``null`` is.

    ``null`` is at the level ``u`` of the resamples (ties count half); inverting BCa's map
    ``z -> z0 + (z0 + z) / (1 - a (z0 + z))`` gives ``z = w / (1 + a w) - z0`` with
    ``w = Phi^-1(u) - z0``, and ``p = 2 Phi(-|z|)``. With ``z0 = a = 0`` (percentile) it is
    twice the smaller share of the resamples on one side of ``null``. ``B`` resamples resolve
    no p-value below ``2 / (B + 1)``, which is reported in its place.
    """
    from scipy.special import ndtr, ndtri

    B = theta_b.shape[1]
    u = ((theta_b < null).sum(axis=1) + (theta_b <= null).sum(axis=1)) / (2 * B)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = ndtri(u) - z0
        p = 2 * ndtr(-np.abs(w / (1 + a * w) - z0))
    return np.maximum(np.nan_to_num(p, nan=0.0), 2 / (B + 1))


def matrix_values(shape, chosen) -> Callable:
    """``values_of`` for draws that are confusion matrices of ``shape`` (K, K)."""

    def values_of(draws):
        values, _, n_undefined = evaluate(draws.reshape(*draws.shape[:2], *shape), chosen)
        return values, n_undefined

    return values_of


def jackknife(C):
    """The leave-one-out draws ``(m, cells, cells)`` of each cell and their weights ``(m, cells)``.

    Row ``c`` of a matrix is its counts less one item of cell ``c``, standing for the ``C_c``
    items of that cell; an empty cell keeps the counts, with weight 0.
    """
    flat = C.reshape(C.shape[0], -1)
    cells = flat.shape[1]
    loo = np.repeat(flat[:, None, :], cells, axis=1)
    loo[:, np.arange(cells), np.arange(cells)] -= flat > 0
    return loo, flat


def bca_constants(theta_b, theta, loo, weights):
    """BCa's bias correction ``z0`` and acceleration ``a`` ``(m,)`` (scipy.stats.bootstrap's).

    ``loo`` ``(m, cells)`` are the leave-one-out values and ``weights`` the items they stand
    for; ``a`` is 0 where they are all equal.
    """
    from scipy.special import ndtri

    B = theta_b.shape[1]
    theta = np.reshape(theta, (-1, 1))
    below = (theta_b < theta).sum(axis=1) + (theta_b <= theta).sum(axis=1)
    z0 = ndtri(below / (2 * B))
    mean = (weights * loo).sum(axis=1) / weights.sum(axis=1)
    d = mean[:, None] - loo
    num, den = (weights * d**3).sum(axis=1), (weights * d**2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return z0, np.where(den > 0, num / (6 * den**1.5), 0.0)


def bca_levels(z0, a, q):
    """The quantile levels ``(m, len(q))`` of the resamples for the nominal levels ``q``."""
    from scipy.special import ndtr, ndtri

    with np.errstate(divide="ignore", invalid="ignore"):
        z = z0[:, None] + ndtri(q)
        levels = ndtr(z0[:, None] + z / (1 - a[:, None] * z))
    return np.where(np.isnan(levels), (z0[:, None] > 0).astype(float), levels)


def quantiles(sorted_rows: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row-wise quantiles at levels ``q`` ``(m, j)``, interpolated linearly (numpy's default)."""
    B = sorted_rows.shape[1]
    position = np.clip(q, 0, 1) * (B - 1)
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, B - 1)
    lo = np.take_along_axis(sorted_rows, below, axis=1)
    hi = np.take_along_axis(sorted_rows, above, axis=1)
    return lo + (position - below) * (hi - lo)
