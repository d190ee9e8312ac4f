"""Huang & Ling's degrees of consistency and discriminancy of two measures on the same domain.

For two measures f and g evaluated on the same objects (e.g. CEN and MCC on a set of confusion
matrices), Huang & Ling (2005) count ordered pairs of objects (a, b):

- ``R = {f(a) > f(b), g(a) > g(b)}`` and ``S = {f(a) > f(b), g(a) < g(b)}``; the degree of
  consistency is ``|R| / (|R| + |S|)``;
- ``P = {f(a) > f(b), g(a) = g(b)}`` and ``Q = {f(a) = f(b), g(a) > g(b)}``; the degree of
  discriminancy of f over g is ``|P| / |Q|``.

Each unordered pair of objects is counted once (in the orientation that makes f, or g, larger),
so these are the concordant, discordant and one-sided-tie counts of Kendall's tau. They are
computed in O(n log n) by sorting and counting, never by a loop over pairs.

Ties
----
Whether ``f(a) = f(b)`` is decided by an explicit rule. By default it is exact equality of the
given values. With a tolerance, the sorted values are split into tie groups wherever two
consecutive values differ by more than ``atol + rtol * max(|u|, |v|)``; a group is therefore a
chain of close values (tolerance ties are made transitive by chaining). For integer confusion
matrices, :func:`cenmcc.tie_ranks` gives exact ranks in which float rounding never decides a tie;
pass those ranks as f or g.
"""

from __future__ import annotations

import math
import sys
from typing import NamedTuple

import numpy as np

from ._ranking import dense_ranks, index_dtype
from ._undefined import warn_undefined
from ._validation import as_array, check_real, is_real


class PairCounts(NamedTuple):
    """Pair counts of two measures over the same n objects (each unordered pair counted once).

    Attributes
    ----------
    n_pairs : int
        ``n (n - 1) / 2``.
    concordant : int
        ``|R|``: pairs ordered the same way, strictly, by f and g.
    discordant : int
        ``|S|``: pairs ordered oppositely, strictly, by f and g.
    f_only : int
        ``|P|``: pairs that f orders and g ties.
    g_only : int
        ``|Q|``: pairs that f ties and g orders.
    both_tied : int
        Pairs tied by both f and g.
    """

    n_pairs: int
    concordant: int
    discordant: int
    f_only: int
    g_only: int
    both_tied: int

    def consistency(self) -> float:
        """Huang & Ling's degree of consistency ``|R| / (|R| + |S|)``; NaN where 0/0."""
        ordered = self.concordant + self.discordant
        return self.concordant / ordered if ordered else math.nan

    def discriminancy(self) -> float:
        """Huang & Ling's degree of discriminancy of f over g, ``|P| / |Q|``.

        ``inf`` where ``|Q| = 0 < |P|``; NaN where ``|P| = |Q| = 0`` (no ties at all).
        """
        if self.g_only == 0:
            return math.inf if self.f_only else math.nan
        return self.f_only / self.g_only

    def tau_b(self) -> float:
        """Kendall's τ_b, ``(C - D) / sqrt((n_0 - n_1)(n_0 - n_2))``; NaN where f or g is constant.

        ``n_1`` and ``n_2`` are the pairs tied in f and in g (Kendall 1945; Agresti 2010,
        Sec. 7.1.3).
        """
        untied_f = self.n_pairs - self.g_only - self.both_tied  # pairs that f orders
        untied_g = self.n_pairs - self.f_only - self.both_tied
        if not untied_f or not untied_g:
            return math.nan
        return (self.concordant - self.discordant) / math.sqrt(untied_f * untied_g)

    def reversed(self) -> PairCounts:
        """The counts of f against -g: concordant and discordant pairs swapped."""
        return self._replace(concordant=self.discordant, discordant=self.concordant)

    @classmethod
    def total(cls, parts) -> PairCounts:
        """The counts of disjoint sets of pairs (for example, those within each group) added up."""
        return (
            cls(*(sum(column) for column in zip(*parts, strict=True)))
            if parts
            else cls(0, 0, 0, 0, 0, 0)
        )


def tie_groups(values, *, rtol: float = 0.0, atol: float = 0.0) -> np.ndarray:
    """Dense integer ranks of ``values`` under the tie rule of this module.

    Parameters
    ----------
    values : array_like, shape (n,)
        Finite real values.
    rtol, atol : float, default 0.0
        Relative and absolute tolerance: finite and non-negative (else ``ValueError``; a
        non-number is a ``TypeError``). With both 0, ties are exact equality.

    Returns
    -------
    ndarray of int64, shape (n,)
        0 for the smallest group, consecutive integers upward; equal ranks are ties.

    Examples
    --------
    >>> tie_groups([0.3, 0.1, 0.3, 0.2]).tolist()
    [2, 0, 2, 1]
    >>> tie_groups([1.0, 1.0 + 1e-13, 2.0], rtol=1e-12).tolist()
    [0, 0, 1]
    """
    v = _check_values(values, "values")
    return _dense_ranks(v, rtol, atol).astype(np.int64, copy=False)


def _dense_ranks(v: np.ndarray, rtol, atol) -> np.ndarray:
    """:func:`tie_groups` of checked values, as int32 when they fit (half the memory).

    Exact ties rank through :func:`cenmcc._ranking.dense_ranks`, whose sort of many values in
    pieces is faster; ties within a tolerance chain across any edge between pieces, so they
    take one sort of all the values.
    """
    rtol, atol = check_real(rtol, name="rtol", low=0), check_real(atol, name="atol", low=0)
    if not (rtol or atol):
        return dense_ranks(v)
    order = np.argsort(v)  # ranks do not depend on the order of equal values: any sort will do
    s = v[order]
    new_group = np.diff(s) > atol + rtol * np.maximum(np.abs(s[1:]), np.abs(s[:-1]))
    del s
    ranks = np.empty(v.size, dtype=index_dtype(v.size))
    ranks[order[:1]] = 0
    ranks[order[1:]] = np.cumsum(new_group, dtype=ranks.dtype)
    return ranks


def pair_counts(f, g, *, rtol: float = 0.0, atol: float = 0.0) -> PairCounts:
    """Count concordant, discordant and tied pairs of two measures, in O(n log n).

    Parameters
    ----------
    f, g : array_like, shape (n,)
        The two measures on the same n objects (finite real values, or exact ranks).
    rtol, atol : float, default 0.0
        Tie tolerance (see the module docstring); exact equality by default.

    Returns
    -------
    PairCounts

    Notes
    -----
    Knight's (1966) method: the objects sorted by f, ties in f broken by g, a pair is
    discordant exactly when it is an inversion of g; tied pairs come from the sizes of the tie
    groups of f, of g and of (f, g). One sort of the combined ranks (none where f ties no two
    objects) and one count of discordant pairs, by the Fenwick tree of
    ``scipy.stats.kendalltau`` (a bitwise inversion count in NumPy where scipy lacks it);
    about 50 bytes an object of working memory.

    Examples
    --------
    >>> pair_counts([1, 2, 3, 3], [1, 2, 2, 3])
    PairCounts(n_pairs=6, concordant=4, discordant=0, f_only=1, g_only=1, both_tied=0)
    """
    f, g = _check_values(f, "f"), _check_values(g, "g")
    if f.size != g.size:
        raise ValueError(f"f and g must have the same length, got {f.size} and {g.size}")
    return counts_from_ranks(_dense_ranks(f, rtol, atol), _dense_ranks(g, rtol, atol))


def counts_from_ranks(
    rf: np.ndarray, rg: np.ndarray, lo: int = 0, hi: int | None = None
) -> PairCounts:
    """:func:`pair_counts` of two rank arrays (integers from 0 in the order of the values, equal
    ranks are ties; dense or not), or of the pairs whose higher rank of f lies in ``[lo, hi)``.

    The objects are sorted by (rank of f, rank of g); a pair is then discordant exactly when it
    is an inversion of g's ranks (Knight 1966), counted by :func:`_discordant`. Where f ties no
    two objects (its ranks are then a permutation of ``lo .. lo + n - 1``, dense or not) that
    order is a placement of g's ranks at f's, one pass instead of a sort
    (:func:`_placed_by_ranks`).

    A band ``[lo, hi)`` holds the pairs of two objects in it and the pairs of one object in it
    with one below it (rank of f under ``lo``). The bands of a partition of f's ranks hold
    every pair once, so their counts add up (:meth:`PairCounts.total`) to those of all pairs,
    and several workers can count one pair of measures. A pair across the band's edge is tied
    in g, or discordant, by a histogram of g's ranks below the edge: with ``h`` the number of
    those objects at each rank of g and ``H`` its cumulative sum, an object of the band of
    rank ``y`` is tied in g with ``h[y]`` of them and discordant with ``H[-1] - H[y]``.
    """
    below = rg[:0]
    if lo > 0 or hi is not None:
        in_band = rf >= lo
        if hi is not None:
            in_band &= rf < hi
        if lo > 0:
            below = rg[rf < lo]
        rf, rg = rf[in_band], rg[in_band]
    n = rf.size
    sizes_g = np.bincount(rg)
    m = sizes_g.size  # g's largest rank + 1
    tied_g = _tied_pairs(sizes_g)
    across, across_tied_g, across_discordant = below.size * n, 0, 0
    if below.size and n:
        h = np.bincount(below, minlength=m)
        across_tied_g = _sum_at(h, rg, sizes_g)
        np.cumsum(h, out=h)
        across_discordant = across - _sum_at(h, rg, sizes_g)
        del h
    del sizes_g  # 8 bytes an object, not held through the count below
    placed = _placed_by_ranks(rf, rg, lo)
    if placed is not None:  # f ties no two objects
        tied_f = tied_both = 0
        discordant = _discordant(None, placed)
    else:
        tied_f = _tied_pairs(np.bincount(rf - lo if lo else rf))
        key = rf.astype(np.int64)
        key *= m
        key += rg
        key.sort()  # by f, ties in f by g
        tied_both = _tied_in_sorted(key)
        x, y = np.divmod(key, m)
        del key
        discordant = _discordant(x, y)
    discordant += across_discordant
    tied_g += across_tied_g
    n_pairs = n * (n - 1) // 2 + across
    return PairCounts(
        n_pairs=n_pairs,
        concordant=n_pairs - tied_f - tied_g + tied_both - discordant,
        discordant=discordant,
        f_only=tied_g - tied_both,
        g_only=tied_f - tied_both,
        both_tied=tied_both,
    )


def _sum_at(h: np.ndarray, rg: np.ndarray, sizes_g: np.ndarray) -> int:
    """``h[rg].sum()`` (an int64 sum: at most the pairs across a band's edge), with
    ``sizes_g = np.bincount(rg)``: for a band of many objects, ``h · sizes_g``, one sequential
    pass over g's ranks (eight times faster than gathering ``h`` at 10⁷ random ranks of 2·10⁷),
    else the gather of the band's few objects."""
    if rg.size * 8 >= sizes_g.size:
        return int(np.dot(h[: sizes_g.size], sizes_g))
    return int(h[rg].sum())


def _placed_by_ranks(rf: np.ndarray, rg: np.ndarray, lo: int) -> np.ndarray | None:
    """g's ranks in the order of f's, ``placed[rf - lo] = rg``, where f's ranks are
    ``lo .. lo + n - 1`` each once; None where they are not (f ties two objects, its ranks
    are not dense from ``lo``)."""
    n = rf.size
    if n == 0 or int(rf.min()) != lo or int(rf.max()) != lo + n - 1:
        return None
    placed = np.full(n, -1, dtype=rg.dtype)
    placed[rf - lo if lo else rf] = rg
    return placed if int(placed.min()) >= 0 else None  # n ranks in n places: all, or a tie


#: From this many objects the discordant pairs are counted by scipy's Fenwick tree (importing
#: ``scipy.stats`` takes about a second, which smaller counts do not repay) ...
FENWICK_FROM = 1_000_000
#: ... or from this many, once ``scipy.stats`` is imported anyway (about 1.8 times faster than
#: :func:`_count_inversions` from 10⁴ objects on).
FENWICK_LOADED_FROM = 10_000


def _fenwick_discordant():
    """scipy's count of discordant pairs (the Fenwick tree of ``scipy.stats.kendalltau``).

    ``_kendall_dis(x, y)`` takes objects sorted by x, with x and y ranks from 1, and counts the
    pairs ordered by x whose y are in the opposite order: the inversions of y between groups of
    equal x; about 15 times faster than :func:`_count_inversions` at 4·10⁶ objects. It is
    private to scipy, so it is looked up, and :func:`_count_inversions` (the same count in
    vectorized NumPy) takes over where it is absent.

    No public scipy function returns this integer count: ``scipy.stats.kendalltau`` returns
    τ_b, a float, and sorts the objects again (on 2·10⁶ correlated ranks, 7.3 to 8.0 s against
    2.4 to 4.2 s for :func:`counts_from_ranks`, which counts every pair exactly).
    """
    try:
        from scipy.stats._stats import _kendall_dis
    except ImportError:  # pragma: no cover - depends on the scipy version
        return None
    return _kendall_dis


def load_fenwick() -> bool:
    """Import scipy's Fenwick counter now (with ``scipy.stats``, about a second), so that the
    counts of :data:`FENWICK_LOADED_FROM` objects or more in this process use it; whether it
    is there."""
    return _fenwick_discordant() is not None


#: From this many objects the Fenwick count is split in two by g's high bits (:func:`_discordant`):
#: a tree of 2²³ 8-byte counts no longer fits a 32 MiB L3 cache.
FENWICK_SPLIT_FROM = 2**23
#: The low bits of g's ranks left to the second count of the split: a run of 2¹² counts of the
#: tree at a time.
FENWICK_LOW_BITS = 12


def _discordant(x: np.ndarray | None, y: np.ndarray) -> int:
    """Pairs ``i < j`` with ``x[i] < x[j]`` and ``y[i] > y[j]``, for ``x`` non-decreasing
    integers (None: ``0, 1, .., n - 1``) and ``y`` non-negative integers, non-decreasing
    within each run of equal ``x`` (consumes both).

    From :data:`FENWICK_SPLIT_FROM` objects the Fenwick count is two counts whose trees are
    reached in cache. With ``h = y >> s`` (y's high bits), a pair with ``h[i] > h[j]`` has
    ``y[i] > y[j]``, and one with ``h[i] < h[j]`` has not: the first count is that of ``h``,
    a tree of fewer than 2¹⁶ counts. The pairs of equal ``h`` are counted in the objects
    stably sorted by ``h`` (a radix sort): each value of ``h`` is then one run of objects in
    their order of ``x``, whose ``y`` span fewer than 2^s ranks, and a pair across two runs
    is in the order of its ``y``, so not discordant; the tree is reached one run at a time.
    At 2·10⁷ objects of correlated ranks, 1.5–2.1 s against 2.2–3.0 s for one count; at
    5·10⁷, 4.9 s against 7.2 s.
    """
    loaded = "scipy.stats" in sys.modules and y.size >= FENWICK_LOADED_FROM
    kendall_dis = _fenwick_discordant() if loaded or y.size >= FENWICK_FROM else None
    if kendall_dis is None or y.size < 2:
        return _count_inversions(y.astype(index_dtype(y.size)), overwrite=True)
    tied_x = x is not None
    x = x.astype(np.intp, copy=False) if tied_x else np.arange(y.size, dtype=np.intp)
    y = y.astype(np.intp, copy=False)
    x += 1  # scipy's tree counts ranks from 1
    y += 1
    if y.size < FENWICK_SPLIT_FROM:
        return int(kendall_dis(x, y))
    high = np.empty(y.size, dtype=np.uint16)  # y's high bits, 16 at most
    shift = max(FENWICK_LOW_BITS, int(y.max()).bit_length() - 16)
    np.right_shift(y, shift, out=high, casting="unsafe")
    ranks = high.astype(np.intp)
    ranks += 1
    between = int(kendall_dis(x, ranks))
    del ranks
    order = np.argsort(high, kind="stable")
    del high
    y = y[order]
    if tied_x:  # equal x cut apart by the sort are in two runs of h: not discordant anyway
        x = x[order]
    del order
    return between + int(kendall_dis(x, y))


def degree_of_consistency(f, g, *, rtol: float = 0.0, atol: float = 0.0) -> float:
    """Huang & Ling's degree of consistency of f and g: ``|R| / (|R| + |S|)``.

    Parameters
    ----------
    f, g : array_like, shape (n,)
        The two measures on the same objects. Orient them alike: for CEN (lower is better) and
        MCC (higher is better) compare CEN with -MCC.
    rtol, atol : float, default 0.0
        Tie tolerance (see the module docstring); exact equality by default.

    Returns
    -------
    float
        In [0, 1]; 1 when no pair is ordered oppositely. NaN, with one
        ``UndefinedMetricWarning``, when no pair is strictly ordered by both (0/0).

    Notes
    -----
    Huang & Ling (2005); Jurman et al. (2012), "Relationships between CEN and MCC".

    Examples
    --------
    >>> degree_of_consistency([1, 2, 3, 4], [10, 20, 40, 30])
    0.8333333333333334
    """
    return _warn_if_nan(
        pair_counts(f, g, rtol=rtol, atol=atol).consistency(), "degree of consistency"
    )


def degree_of_discriminancy(f, g, *, rtol: float = 0.0, atol: float = 0.0) -> float:
    """Huang & Ling's degree of discriminancy of f over g: ``|P| / |Q|``.

    Parameters
    ----------
    f, g : array_like, shape (n,)
        The two measures on the same objects.
    rtol, atol : float, default 0.0
        Tie tolerance (see the module docstring); exact equality by default.

    Returns
    -------
    float
        Greater than 1 when f tells apart more pairs that g ties than the reverse. ``inf`` when
        ``|Q| = 0 < |P|``; NaN, with one ``UndefinedMetricWarning``, when ``|P| = |Q| = 0``
        ("undefined since no ties occurred", Jurman et al. 2012).

    Notes
    -----
    Huang & Ling (2005); Jurman et al. (2012), "Relationships between CEN and MCC".

    Examples
    --------
    >>> degree_of_discriminancy([1, 2, 3, 4], [1, 1, 2, 2])
    inf
    """
    discriminancy = pair_counts(f, g, rtol=rtol, atol=atol).discriminancy()
    return _warn_if_nan(discriminancy, "degree of discriminancy")


def _warn_if_nan(value: float, what: str) -> float:
    """``value``, with one ``UndefinedMetricWarning`` where it is NaN (0/0)."""
    if math.isnan(value):
        warn_undefined(1, 1, what, math.nan)
    return value


def _check_values(values, name: str) -> np.ndarray:
    v = as_array(values, name=name)
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {v.shape}")
    if not is_real(v):
        raise TypeError(f"{name} must hold real numbers, got dtype {v.dtype}")
    if v.dtype.kind == "f" and not np.all(np.isfinite(v)):
        idx = int(np.flatnonzero(~np.isfinite(v))[0])
        raise ValueError(f"{name} must be finite, found {v[idx]} at index {idx}")
    return v


#: Up to this many objects, the sum of the squares of their groups' sizes (at most the square
#: of their number) is exact in int64.
_SQUARES_EXACT = math.isqrt(2**63 - 1)


def _tied_pairs(sizes: np.ndarray) -> int:
    """Number of unordered pairs within groups of the given sizes: ``sum L (L - 1) / 2``.

    Computed as ``(sum L^2 - sum L) / 2`` in two passes over the sizes, with no temporary
    array: ``np.dot`` adds the squares in int64, exactly up to :data:`_SQUARES_EXACT` objects
    (3·10⁹), and in Python integers beyond.
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    total = int(sizes.sum())
    if total > _SQUARES_EXACT:  # the groups of two or more, in Python integers
        sizes = sizes[sizes > 1].astype(object)
        total = int(sizes.sum())
    return (int(np.dot(sizes, sizes)) - total) // 2


def _tied_in_sorted(s: np.ndarray) -> int:
    """Number of unordered pairs of equal values in the sorted array ``s``: a run of L equal
    values, L - 1 equal neighbours, holds L (L - 1) / 2."""
    same = s[1:] == s[:-1]
    if not same.any():
        return 0
    edges = np.flatnonzero(np.diff(same, prepend=False, append=False))  # where runs start and end
    return _tied_pairs(edges[1::2] - edges[0::2] + 1)


def _count_inversions(x: np.ndarray, *, overwrite: bool = False) -> int:
    """Number of pairs i < j with ``x[i] > x[j]`` for non-negative integers, in O(n log max x).

    One pass per bit, from the highest: the elements are kept in the stable order of their
    prefix (the bits above the current one), in groups of equal prefix, so a pair whose highest
    differing bit is b is an inversion exactly when, at bit b, the earlier element of the pair
    has the bit set (the offline form of a Fenwick-tree count; Knuth, TAOCP vol. 3, 5.1.1).

    At bit b, with ``w_i`` the set bits before element i in its group, the inversions are the
    sum of ``w_i`` over the elements whose bit is 0. Then each group is split stably by bit b, zeros
    first: a zero at i moves to ``i - w_i``, a one to ``s_g + z_g + w_i`` (``s_g`` the group's
    start, ``z_g`` its zeros). Every step is a vectorized pass, in 32-bit integers when they
    suffice; ``overwrite`` lets it work in ``x`` (when ``x`` has that type).
    """
    n = x.size
    if n < 2:
        return 0
    top = int(x.max())
    dtype = index_dtype(max(n, top))
    v = x if overwrite and x.dtype == dtype else x.astype(dtype)
    index = np.arange(n, dtype=dtype)
    ones = np.zeros(n + 1, dtype=dtype)
    bit = np.empty(n, dtype=dtype)
    moved = np.empty_like(v)
    starts = np.zeros(1, dtype=dtype)
    total = 0
    for b in range(top.bit_length() - 1, -1, -1):
        np.right_shift(v, b, out=bit)
        np.bitwise_and(bit, 1, out=bit)
        np.cumsum(bit, out=ones[1:])
        sizes = np.diff(starts, append=dtype(n))
        o = ones[starts]
        z = sizes - (ones[starts + sizes] - o)
        w = ones[:-1] - np.repeat(o, sizes)
        del o
        np.multiply(w, bit, out=moved)  # moved is free until the move: w of the ones
        total += int(w.sum(dtype=np.int64)) - int(moved.sum(dtype=np.int64))
        if b == 0:
            break  # every pair is counted; no need to split the groups
        # Destination i - w, plus bit * (s + z + w - (i - w)) for a one.
        to = np.subtract(index, w, out=ones[1:])  # ones[1:] is free until the next bit
        w += w
        w += np.repeat(starts + z, sizes)
        w -= index
        w *= bit
        to += w
        del w
        moved[to] = v
        v, moved = moved, v
        split = np.stack([starts, starts + z], axis=1).ravel()
        starts = split[np.stack([z > 0, z < sizes], axis=1).ravel()]
    return total
