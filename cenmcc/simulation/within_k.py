"""Exact pair counts of the pairs of matrices of equal K, and the U-statistic SEs they give.

Within a group of equal K, every pair of measures is counted at once from the signs of the
differences (:func:`within_group_counts`), the groups' counts added over the K
(:meth:`cenmcc.PairCounts.total`). A run of few chunks also counts, per matrix, its
concordant, discordant and ordered partners of equal K (:func:`object_counts`), whose sums
(:class:`WithinKTerms`) give the SEs of the within-K τ_b, consistency and discriminancy as
U-statistics of order 2 (:func:`within_k_errors`, Hoeffding 1948).

References
----------
W. Hoeffding, "A class of statistics with asymptotically normal distribution", Ann. Math.
Statist. 19 (1948) 293-325.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cenmcc.comparison import PairCounts, counts_from_ranks

#: The statistics of a pair of measures that come from pair counts.
PAIR_COUNT_STATISTICS = ("kendall_tau_b", "consistency", "discriminancy")


@dataclass(frozen=True)
class WithinKTerms:
    """Sums over the m matrices of a replicate of each matrix's within-K pair counts.

    Matrix i's counts ``v_i = (c_i, d_i, F_i, G_i)`` are of the other matrices of its K (in
    the replicate) that are concordant with it, discordant, that f orders against it, and that
    g orders against it (oriented as the pair's statistics). Exact integers, so that their
    sums over the replicates have the same bits in any order.

    Attributes
    ----------
    m : int
        Matrices counted (those where both measures are defined).
    total : ndarray of int64, shape (4,)
        ``sum_i v_i``.
    products : ndarray of int64, shape (4, 4)
        ``sum_i v_i v_iᵀ``.
    """

    m: int
    total: np.ndarray
    products: np.ndarray


#: Largest number of (ordered pair of objects) x (measure) cells :func:`within_group_counts`
#: holds at once (8 bytes each); a larger group is counted pair by pair from its ranks.
SIGN_CELLS = 4_000_000


def within_group_counts(ranks: np.ndarray, pairs, index: dict) -> dict:
    """Exact pair counts of every pair of measures over the same objects, all at once.

    Parameters
    ----------
    ranks : ndarray of int, shape (q, m)
        Row i: the dense ranks (or any exactly comparable integers) of measure i on m objects.
    pairs : sequence of (str, str)
    index : dict of str to int
        The row of each measure.

    Returns
    -------
    dict of (str, str) to PairCounts
        Raw (not oriented): the same as :func:`cenmcc.pair_counts` of the two rows.

    Notes
    -----
    Over the m² ordered pairs (i, j) of objects, each measure's sign of ``r_i - r_j`` is
    coded as two 0/1 rows, G (greater) and S (smaller). A concordant pair is counted once in
    ``G_f · G_g`` (in the order where both are greater) and a discordant one once in
    ``G_f · S_g``, so one matrix product each gives every pair of measures: ``G Gᵀ`` and
    ``G Sᵀ``. The diagonal of ``G Gᵀ`` is the number of pairs each measure orders, and the
    pairs both tie follow by inclusion and exclusion. In float32 the sums are exact integers
    while m² < 2**24. Beyond :data:`SIGN_CELLS` cells, each pair is counted from its ranks.
    """
    q, m = ranks.shape
    if q * m * m > SIGN_CELLS or m * m >= 2**24:
        return {(f, g): counts_from_ranks(ranks[index[f]], ranks[index[g]]) for f, g in pairs}
    greater = np.empty((q, m, m), dtype=np.float32)
    smaller = np.empty((q, m, m), dtype=np.float32)
    np.greater(ranks[:, :, None], ranks[:, None, :], out=greater)
    np.less(ranks[:, :, None], ranks[:, None, :], out=smaller)
    greater, smaller = greater.reshape(q, m * m), smaller.reshape(q, m * m)
    concordant = np.rint(greater @ greater.T).astype(np.int64)
    discordant = np.rint(greater @ smaller.T).astype(np.int64)
    ordered = np.diagonal(concordant)  # the pairs each measure orders
    return {
        (f, g): _from_ordered(
            m,
            int(concordant[index[f], index[g]]),
            int(discordant[index[f], index[g]]),
            int(ordered[index[f]]),
            int(ordered[index[g]]),
        )
        for f, g in pairs
    }


def _from_ordered(m: int, c: int, d: int, f: int, g: int) -> PairCounts:
    """The pair counts of m objects with c concordant and d discordant pairs, of which f pairs
    are ordered by f and g by g: the rest by inclusion and exclusion."""
    n_pairs = m * (m - 1) // 2
    return PairCounts(n_pairs, c, d, f - c - d, g - c - d, n_pairs - f - g + c + d)


def object_counts(ranks: np.ndarray, pairs, index: dict) -> dict:
    """Each object's pair counts against the others, for every pair of measures.

    Parameters
    ----------
    ranks : ndarray of int, shape (q, m)
        Row i: the dense ranks of measure i on m objects (integers from 0, ties equal).
    pairs : sequence of (str, str)
    index : dict of str to int
        The row of each measure.

    Returns
    -------
    dict of (str, str) to ndarray of int64, shape (m, 4)
        Row i: the objects j concordant with object i, discordant with it (raw, not oriented),
        that f orders against it (``r_f[j] != r_f[i]``) and that g orders against it. Summed
        over i, each is twice the group's count (every pair is seen from both ends).

    Notes
    -----
    A group of at most :data:`SIGN_CELLS` (pair of measures) x (ordered pair of objects)
    cells is counted for every pair of measures at once, from the signs of the differences
    (as :func:`within_group_counts`). A larger one is counted pair by pair, exactly, in
    O(m log² m) time and O(m) memory: with ``#(f<, g<)`` each object's count of objects below
    it in both (:func:`_dominated`), every other cell of the 3 × 3 table of the signs of
    ``(r_f[j] - r_f[i], r_g[j] - r_g[i])`` follows from the counts below and equal in one
    measure (cumulative counts of the ranks) and equal in one and below in the other (sorted
    keys). The groups of a run's strided parts are small: in ``python -m experiments
    agreement`` (about 20 objects a group, 277,760 groups and pairs) counted pair by pair
    took the experiment from 26 s to 102 s of computation; with the signs it takes 23 s.
    """
    m = ranks.shape[1]
    if not pairs or len(pairs) * m * m > SIGN_CELLS:
        return {(f, g): _object_counts(ranks[index[f]], ranks[index[g]]) for f, g in pairs}
    signs = np.sign(ranks[:, :, None] - ranks[:, None, :]).astype(np.int8)  # (q, m, m)
    f_rows = signs[[index[f] for f, _ in pairs]]
    g_rows = signs[[index[g] for _, g in pairs]]
    product = f_rows * g_rows  # (pairs, m, m): 1 concordant, -1 discordant, 0 a tie
    counts = np.stack(
        [
            np.count_nonzero(product > 0, axis=-1),
            np.count_nonzero(product < 0, axis=-1),
            np.count_nonzero(f_rows, axis=-1),
            np.count_nonzero(g_rows, axis=-1),
        ],
        axis=-1,
    ).astype(np.int64)
    return dict(zip(pairs, counts, strict=True))


def group_counts(objects: np.ndarray) -> PairCounts:
    """The raw pair counts of a group from its objects' counts (:func:`object_counts`): each
    unordered pair is seen from both of its objects, so each column sums to twice its count."""
    return _from_ordered(len(objects), *(int(total) // 2 for total in objects.sum(axis=0)))


def _object_counts(rf: np.ndarray, rg: np.ndarray) -> np.ndarray:
    """:func:`object_counts` of one pair of measures, pair by pair (see its Notes)."""
    rf, rg = np.asarray(rf, dtype=np.int64), np.asarray(rg, dtype=np.int64)
    m = rf.size
    if m == 0:
        return np.zeros((0, 4), np.int64)
    tf, below_f = _equal_and_below(rf)  # #(f=) (itself included), #(f<)
    tg, below_g = _equal_and_below(rg)
    width = int(max(rf.max(), rg.max())) + 1
    key_f, key_g = rf * width + rg, rg * width + rf  # ordered by (f, g) and by (g, f)
    by_f, by_g = np.sort(key_f), np.sort(key_g)
    first = np.searchsorted(by_f, key_f)
    both = np.searchsorted(by_f, key_f, "right") - first  # equal in both (itself included)
    f_equal_g_below = first - np.searchsorted(by_f, rf * width)
    g_equal_f_below = np.searchsorted(by_g, key_g) - np.searchsorted(by_g, rg * width)
    ll = _dominated(rf, rg)  # #(f<, g<)
    lg = below_f - ll - g_equal_f_below  # #(f<, g>)
    gl = below_g - ll - f_equal_g_below  # #(f>, g<)
    gg = (m - below_g - tg) - lg - (tf - f_equal_g_below - both)  # #(g>) - #(f<, g>) - #(f=, g>)
    return np.stack([ll + gg, lg + gl, m - tf, m - tg], axis=1).astype(np.int64)


def _equal_and_below(r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each object's count of objects of its rank in ``r`` (itself included) and below it."""
    counts = np.bincount(r)
    return counts[r], (np.cumsum(counts) - counts)[r]


def _dominated(rf: np.ndarray, rg: np.ndarray) -> np.ndarray:
    """Each object's count of objects below it in both f and g (non-negative integers).

    In the order of increasing f, and of decreasing g among ties in f, the objects below
    object i in both are those before it with a smaller g. Those are counted bit by bit of g
    (the offline form of a Fenwick tree, as :func:`cenmcc.comparison._count_inversions`):
    an object j < i with ``g_j < g_i`` first differs from ``g_i`` at one bit, where ``g_j``
    has 0 and ``g_i`` has 1 above the same higher bits.
    """
    order = np.lexsort((-rg, rf))
    x = rg[order]
    counts = np.zeros(x.size, np.int64)
    for b in reversed(range(max(1, int(x.max()).bit_length()))):
        prefix, bit = x >> (b + 1), (x >> b) & 1
        grouped = np.argsort(prefix, kind="stable")  # each group in the order above
        zero, p = bit[grouped] == 0, prefix[grouped]
        start = np.flatnonzero(np.r_[True, p[1:] != p[:-1]])
        before = np.cumsum(zero) - zero  # zeros before each, in the whole order
        before -= np.repeat(before[start], np.diff(np.r_[start, p.size]))  # in its group
        counts[grouped[~zero]] += before[~zero]
    out = np.empty_like(counts)
    out[order] = counts
    return out


def within_k_errors(terms, n: float) -> dict[str, float]:
    """The SEs, at a run of n matrices, of a pair's within-K τ_b, consistency and
    discriminancy from its matrices' within-K pair counts in the replicates (the U-statistic
    variance, Hoeffding 1948).

    Parameters
    ----------
    terms : sequence of WithinKTerms
        Of the replicates (strided parts of chunks, each a sample of the run's design).
    n : float
        Matrices of the run (where both measures are defined).

    Returns
    -------
    dict of str to float
        NaN where a statistic is undefined (0/0), fewer than 3 matrices were counted or the
        estimate of σ₁² is negative (see Notes); exactly 0 where no pair of matrices moves the
        statistic (a discriminancy of 0, a consistency of 1).

    Notes
    -----
    Over ordered pairs (i, j) of matrices, let ``e_ij`` hold four 0/1 kernels: concordant and
    of equal K, discordant and of equal K, of equal K and ordered by f, of equal K and ordered
    by g. Each within-K statistic is a function ``T(μ)`` of their means μ (consistency
    ``μ_c / (μ_c + μ_d)``, τ_b ``(μ_c - μ_d) / sqrt(μ_F μ_G)``, discriminancy
    ``(μ_F - μ_c - μ_d) / (μ_G - μ_c - μ_d)``), which are U-statistics of order 2. By the
    delta method its kernel is ``h_ij = wᵀ e_ij`` with ``w = ∇T(μ)``, centred (``wᵀμ = 0``:
    T is homogeneous of degree 0), and by Hoeffding's (1948) decomposition

        Var T ≈ 4 σ₁² / n,   σ₁² = E[h(X₁, X₂) h(X₁, X₃)],

    estimated without bias (for fixed w) over the distinct triples of each replicate:
    ``σ̂₁² = Σ_i (s_i² - Σ_j h_ij²) / Σ m(m-1)(m-2)`` with ``s_i = wᵀ v_i``, ``v_i = Σ_j e_ij``
    (:class:`WithinKTerms`). As e_ij is 0/1 with ``c·d = 0`` and ``F·G = c + d``,
    ``Σ_ij e_ij e_ijᵀ`` follows from ``Σ_i v_i``. This is the variance of Kendall's τ as a
    U-statistic (Hoeffding 1948, Sec. 5; Kendall & Gibbons 1990, Ch. 5), for the pairs of
    equal K. It does not depend on the size of the replicates, whereas the spread of the
    statistics over small replicates, scaled by ``sqrt(m / n)``, carries their second-order
    term (measured: a seed SD over mean SE of 0.66 at n = 20,000 in two chunks, 1.02 with
    this estimator, ``validate`` over 60 seeds).

    The sum is computed exactly. With the summed counts (c, d, F, G) and N ordered pairs, w is
    ``N / sqrt(D)`` times a vector z of integers (:func:`_gradients`), so
    ``σ̂₁² = N² zᵀ M z / (D Σ m(m-1)(m-2))`` with ``M = Σ_i v_i v_iᵀ - Σ_ij e_ij e_ijᵀ``,
    a quadratic form of integers (Python integers, no overflow): a statistic that no pair
    moves has an SE of exactly 0. In floats the two sums cancel to rounding noise (about 1e-6
    at 50,000 matrices in ``python -m experiments agreement``, 0 or not by the machine).

    The estimate of σ₁² is unbiased, not positive: where it is negative the variance is not
    estimable from the replicates and the SE is NaN, not 0. It happens where a statistic rests
    on a few pairs, such as a discriminancy whose denominator counts a handful (MCC against
    accuracy on imbalanced classes in ``python -m experiments agreement``: 1053 from 5 pairs of
    the replicates that accuracy orders and MCC ties).

    References
    ----------
    W. Hoeffding, "A class of statistics with asymptotically normal distribution", Ann. Math.
    Statist. 19 (1948) 293-325.
    """
    m = [t.m for t in terms]
    triples = sum(k * (k - 1) * (k - 2) for k in m)
    if not terms or triples <= 0 or n <= 0:
        return dict.fromkeys(PAIR_COUNT_STATISTICS, math.nan)
    c, d, F, G = (int(x) for x in np.sum([t.total for t in terms], axis=0))
    products = np.sum([t.products for t in terms], axis=0).tolist()
    kernel = [[c, 0, c, c], [0, d, d, d], [c, d, F, c + d], [c, d, c + d, G]]
    M = [[products[a][b] - kernel[a][b] for b in range(4)] for a in range(4)]
    N = sum(k * (k - 1) for k in m)
    out = {}
    for name, gradient in _gradients(c, d, F, G).items():
        if gradient is None:
            out[name] = math.nan
            continue
        z, D = gradient
        form = sum(z[a] * M[a][b] * z[b] for a in range(4) for b in range(4))
        sigma1 = Fraction(N * N * form, D * triples)
        out[name] = math.sqrt(4 * float(sigma1) / n) if form >= 0 else math.nan
    return out


def _gradients(c: int, d: int, F: int, G: int) -> dict:
    """Each statistic's gradient in the means ``(c, d, F, G) / N`` of :func:`within_k_errors`,
    as ``(z, D)``: ``∇T = N / sqrt(D) · z`` with z and D integers; None where T is undefined.

    Consistency ``c / (c + d)``: ``z = (d, -c, 0, 0)``, ``D = (c + d)⁴``. τ_b
    ``(c - d) / sqrt(F G)``: ``z = (2FG, -2FG, -(c - d) G, -(c - d) F)``, ``D = 4 F³ G³``.
    Discriminancy ``P / Q`` with ``P = F - c - d``, ``Q = G - c - d``:
    ``z = (P - Q, P - Q, Q, -P)``, ``D = Q⁴``.
    """
    P, Q = F - c - d, G - c - d
    return {
        "kendall_tau_b": (
            ((2 * F * G, -2 * F * G, -(c - d) * G, -(c - d) * F), 4 * F**3 * G**3)
            if F > 0 and G > 0
            else None
        ),
        "consistency": ((d, -c, 0, 0), (c + d) ** 4) if c + d > 0 else None,
        "discriminancy": ((P - Q, P - Q, Q, -P), Q**4) if Q > 0 else None,
    }
