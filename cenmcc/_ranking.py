"""Ranks of many values, sorted in pieces that stay in cache (internal).

:func:`ranks` gives each value its rank, dense (equal values share a rank, the next value has
the next) or minimal (how many values are smaller): the ranks of one sort of all the values.
Above :data:`SORT_PIECE` values, the values are cut at quantiles of a sample into pieces of
increasing values (:func:`value_edges`, :func:`edges_below`), and each piece is sorted and
ranked on its own: equal values fall in one piece, so the ranks are the same, while a sort of
2·10⁷ values at once misses the cache at every level and takes 1.5 times as long. Each piece
is ordered by :func:`sorting_order`: two radix sorts of a 32-bit key, then a stable sort of
values that are then almost in order.

:func:`cenmcc.tie_groups` and :func:`cenmcc.pair_counts` (exact ties) and the pair counts of a
simulation (:mod:`cenmcc.simulation.pairs`) rank through here.

Kept against the libraries because it is measured faster: the minimal ranks of 2·10⁷ distinct
floats took 37 s here, 58 s (1.6 times) by one ``np.argsort(kind="stable")`` and 81 s (2.2
times) by ``scipy.stats.rankdata(method="min")``; of 2·10⁷ floats of 10⁴ values, 23 s against
53 s and 61 s (two cores shared by many processes, load 11; the same ranks each way).
``rankdata`` also makes every rank NaN where one value is, where these give each NaN its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np


def index_dtype(n: int):
    """The smaller integer type that holds every value 0..n."""
    return np.int32 if n < 2**31 - 1 else np.int64


def dense_ranks(values: np.ndarray) -> np.ndarray:
    """Dense ranks from 0 (equal values share a rank), int32 when they fit; NaN last."""
    return ranks(values, dense=True)


#: Values sorted at once by :func:`ranks`: a piece's sort and its rank arrays stay in cache.
SORT_PIECE = 2**20


def ranks(values: np.ndarray, *, dense: bool, offset: int = 0) -> np.ndarray:
    """Ranks of ``values`` plus ``offset``: dense (equal values share a rank, the next value has
    the next rank) or minimal (how many values are smaller); NaN last, each its own rank.

    Parameters
    ----------
    values : ndarray, shape (n,)
        Real numbers (integers or floats, NaN allowed).
    dense : bool
        Dense ranks, or minimal ones.
    offset : int
        Added to every rank.

    Returns
    -------
    ndarray of int32 (int64 from 2³¹ values), shape (n,)

    Notes
    -----
    Above :data:`SORT_PIECE` values, the rows are cut into pieces of increasing values
    (:func:`pieces`), and each piece is sorted and ranked on its own, its ranks offset by the
    pieces below it.
    """
    out = np.empty(values.size, dtype=index_dtype(values.size))
    for rows in pieces(values):
        v = values if rows is None else values[rows]
        order = sorting_order(v)
        s = v[order]
        piece = np.zeros(s.size, dtype=out.dtype)
        if dense:
            np.cumsum(s[1:] != s[:-1], out=piece[1:])
        else:  # where each sorted value's run of equals starts
            piece[1:] = np.where(s[1:] != s[:-1], np.arange(1, s.size, dtype=out.dtype), 0)
            np.maximum.accumulate(piece, out=piece)
        piece += offset
        out[order if rows is None else rows[order]] = piece
        if s.size:
            offset = int(piece[-1]) + 1 if dense else offset + s.size
    return out


#: Values above which :func:`sorting_order` orders by its key (from 2¹¹ it is faster than
#: ``np.argsort``, measured on an AMD Zen 4).
RADIX_MIN = 2**11


def sorting_order(values: np.ndarray) -> np.ndarray:
    """Indices that sort ``values``, NaN last, as ``np.argsort(values)``; equal values may be in
    any order.

    Real values of more than :data:`RADIX_MIN` are first ordered by a 32-bit key, ``⌊(x - min)
    · s⌋`` with ``s`` just under ``2³² / (max - min)``, which does not decrease where ``x``
    increases (each rounding is monotone), by two stable radix sorts of its 16-bit halves
    (``np.argsort`` of 16-bit integers, ``kind="stable"``); values of different keys are then in
    order, and a stable sort of the values in that order (a merge sort that finds them almost
    sorted) puts in order those of equal keys. The result is a sort whatever the key; values
    the key cannot spread (NaN or an infinity among them, or all equal as floats) are sorted
    by ``np.argsort``.

    On 2²⁰ float64, 29 ms against 79 ms for ``np.argsort`` on an AMD Zen 4, whose AVX-512
    sort (x86-simd-sort's) stores through a microcoded compress instruction; NumPy's AVX2 sort
    takes 26 ms there (with ``NPY_DISABLE_CPU_FEATURES``, which also slows every ufunc).
    """
    if values.size <= RADIX_MIN or values.dtype.kind not in "fiu":
        return np.argsort(values)
    lo = values.min()
    span = float(values.max()) - float(lo)  # NaN, or 0 where all are equal as floats
    scale = (2.0**32 - 2.0**21) / span if span > 0 else 0.0
    if not 0 < scale < math.inf:  # NaN, an infinity, no spread, or a subnormal range
        return np.argsort(values)
    key = np.subtract(values, lo, dtype=np.float64)
    key *= scale
    key = key.astype(np.uint32)
    order = np.argsort(key.astype(np.uint16), kind="stable")
    key >>= 16
    order = order[np.argsort(key.astype(np.uint16)[order], kind="stable")]
    return order[np.argsort(values[order], kind="stable")]


def pieces(values: np.ndarray) -> Iterable[np.ndarray | None]:
    """The rows of ``values`` in pieces of about :data:`SORT_PIECE`, each piece's values all
    below the next's (None: one piece, every row)."""
    k = -(-values.size // SORT_PIECE)
    if k <= 1:
        yield None
        return
    edges = value_edges(values, k)
    piece = edges_below(values, edges)
    order = np.argsort(piece, kind="stable")  # a radix sort of 16-bit integers
    start = 0
    for size in np.bincount(piece, minlength=len(edges) + 1):
        yield order[start : start + size]
        start += size


def value_edges(values: np.ndarray, k: int) -> list:
    """At most ``k - 1`` increasing edges that cut ``values`` into bands of about equal counts:
    quantiles of every ``n // (1024 k)``-th value (NaN left out), the same in every task.

    The edges are values of the array, as Python numbers (``int`` for integer values, so that
    comparing with them is exact beyond 2⁵³)."""
    if k == 1:
        return []
    sample = np.sort(values[:: max(1, values.size // (1024 * k))])
    sample = sample[~np.isnan(sample)] if sample.dtype.kind == "f" else sample
    return sorted({sample[sample.size * i // k].item() for i in range(1, k)} if sample.size else [])


#: Values compared with the edges at once by :func:`edges_below` (their comparisons and
#: counts, 352 KiB, stay in cache).
EDGE_BLOCK = 2**15


def edges_below(values: np.ndarray, edges: list) -> np.ndarray:
    """How many of the increasing ``edges`` (fewer than 2¹⁶) are at most each value, all of
    them for NaN: ``np.searchsorted(edges, values, side="right")`` as 16-bit integers.

    The edges above a value, counted by one comparison per edge over blocks of values that
    stay in cache: at 2·10⁷ values, 3 to 5 times faster than ``np.searchsorted`` with 19
    edges and 1.5 times with 95 (its search mispredicts a branch at almost every step).
    """
    if len(edges) >= 2**16:
        raise ValueError(f"at most {2**16 - 1} edges, got {len(edges)}")
    above = np.zeros(values.shape, dtype=np.uint16)
    less = np.empty(min(values.size, EDGE_BLOCK), dtype=bool)
    for start in range(0, values.size, EDGE_BLOCK):
        block, count = values[start : start + EDGE_BLOCK], above[start : start + EDGE_BLOCK]
        for edge in edges:
            count += np.less(block, edge, out=less[: block.size])  # False for NaN
    return np.subtract(np.uint16(len(edges)), above, out=above)
