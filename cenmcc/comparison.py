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

from typing import NamedTuple

import numpy as np

from ._undefined import warn_undefined


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


def tie_groups(values, *, rtol: float = 0.0, atol: float = 0.0) -> np.ndarray:
    """Dense integer ranks of ``values`` under the tie rule of this module.

    Parameters
    ----------
    values : array_like, shape (n,)
        Finite real values.
    rtol, atol : float, default 0.0
        Relative and absolute tolerance; with both 0, ties are exact equality.

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
    if rtol < 0 or atol < 0:
        raise ValueError(f"rtol and atol must be non-negative, got rtol={rtol}, atol={atol}")
    order = np.argsort(v, kind="stable")
    s = v[order]
    gap = np.diff(s)
    if rtol or atol:
        new_group = gap > atol + rtol * np.maximum(np.abs(s[1:]), np.abs(s[:-1]))
    else:
        new_group = gap != 0
    ranks = np.empty(v.size, dtype=np.int64)
    ranks[order] = np.concatenate(([0], np.cumsum(new_group)))
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

    Examples
    --------
    >>> pair_counts([1, 2, 3, 3], [1, 2, 2, 3])
    PairCounts(n_pairs=6, concordant=4, discordant=0, f_only=1, g_only=1, both_tied=0)
    """
    rf = tie_groups(_check_values(f, "f"), rtol=rtol, atol=atol)
    rg = tie_groups(_check_values(g, "g"), rtol=rtol, atol=atol)
    if rf.size != rg.size:
        raise ValueError(f"f and g must have the same length, got {rf.size} and {rg.size}")
    n = rf.size
    # Sorted by f, ties in f broken by g ascending: a pair is discordant exactly when g inverts.
    m = int(rg.max(initial=0)) + 1
    both = np.sort(rf * m + rg)
    runs = np.flatnonzero(np.concatenate(([True], both[1:] != both[:-1], [True])))
    tied_f = _tied_pairs(np.bincount(rf))
    tied_g = _tied_pairs(np.bincount(rg))
    tied_both = _tied_pairs(np.diff(runs))
    discordant = _count_inversions(both % m)
    n_pairs = n * (n - 1) // 2
    return PairCounts(
        n_pairs=n_pairs,
        concordant=n_pairs - tied_f - tied_g + tied_both - discordant,
        discordant=discordant,
        f_only=tied_g - tied_both,
        g_only=tied_f - tied_both,
        both_tied=tied_both,
    )


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
    c = pair_counts(f, g, rtol=rtol, atol=atol)
    return _ratio(c.concordant, c.concordant + c.discordant, "degree of consistency")


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
    c = pair_counts(f, g, rtol=rtol, atol=atol)
    if c.g_only == 0 and c.f_only > 0:
        return float("inf")
    return _ratio(c.f_only, c.g_only, "degree of discriminancy")


def _ratio(num: int, den: int, what: str) -> float:
    if den == 0:
        warn_undefined(1, 1, what, float("nan"))
        return float("nan")
    return num / den


def _check_values(values, name: str) -> np.ndarray:
    v = np.asarray(values)
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {v.shape}")
    if v.dtype == np.bool_ or not (
        np.issubdtype(v.dtype, np.integer) or np.issubdtype(v.dtype, np.floating)
    ):
        raise TypeError(f"{name} must hold real numbers, got dtype {v.dtype}")
    if v.dtype.kind == "f" and not np.all(np.isfinite(v)):
        idx = int(np.flatnonzero(~np.isfinite(v))[0])
        raise ValueError(f"{name} must be finite, found {v[idx]} at index {idx}")
    return v


def _tied_pairs(sizes: np.ndarray) -> int:
    """Number of unordered pairs within groups of the given sizes."""
    sizes = sizes.astype(np.int64)
    return int((sizes * (sizes - 1) // 2).sum())


def _count_inversions(x: np.ndarray) -> int:
    """Number of pairs i < j with ``x[i] > x[j]`` for non-negative integers, in O(n log max x).

    One pass per bit, from the highest: the elements are kept in the stable order of their
    prefix (the bits above the current one), so a pair whose highest differing bit is b is an
    inversion exactly when the earlier element has bit b set. At bit b every element whose bit
    is 0 counts the 1s before it that share its prefix (two cumulative sums); then every prefix
    group is split stably by bit b, 0s first, and the next bit is processed. Every step is a
    vectorized pass over the array (the offline form of a Fenwick-tree count).
    """
    n = x.size
    if n < 2:
        return 0
    index = np.int32 if n < 2**31 - 1 else np.int64
    v = x.astype(np.int64)
    positions = np.arange(n, dtype=index)
    ones = np.zeros(n + 1, dtype=index)  # ones[i]: elements before position i with the bit set
    first = np.empty(n, dtype=bool)
    first[0] = True
    total = 0
    for b in range(int(v.max()).bit_length() - 1, -1, -1):
        prefix = v >> (b + 1)
        np.not_equal(prefix[1:], prefix[:-1], out=first[1:])
        starts = np.flatnonzero(first).astype(index)
        ends = np.append(starts[1:], index(n))
        group = np.cumsum(first, dtype=index) - 1
        bit = ((v >> b) & 1).astype(bool)
        np.cumsum(bit, out=ones[1:])
        start = starts[group]
        ones_before = ones[:-1] - ones[start]
        total += int(ones_before[~bit].sum(dtype=np.int64))
        zeros = (ends - starts - (ones[ends] - ones[starts]))[group]
        moved = np.empty_like(v)
        moved[np.where(bit, start + zeros + ones_before, positions - ones_before)] = v
        v = moved
    return total
