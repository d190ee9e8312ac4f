"""Degrees of consistency and discriminancy against brute-force pair counting and scipy."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import cenmcc
from cenmcc import comparison
from cenmcc.comparison import _count_inversions, _placed_by_ranks, counts_from_ranks


def brute_force(f, g):
    """|R|, |S|, |P|, |Q| by the definitions of Huang & Ling (2005), over ordered pairs."""
    R = S = P = Q = 0
    for a in range(len(f)):
        for b in range(len(f)):
            R += f[a] > f[b] and g[a] > g[b]
            S += f[a] > f[b] and g[a] < g[b]
            P += f[a] > f[b] and g[a] == g[b]
            Q += f[a] == f[b] and g[a] > g[b]
    return R, S, P, Q


values = st.lists(st.integers(0, 5), min_size=0, max_size=40)


@given(f=values, data=st.data())
def test_pair_counts_match_the_definitions(f, data):
    g = data.draw(st.lists(st.integers(0, 5), min_size=len(f), max_size=len(f)))
    c = cenmcc.pair_counts(f, g)
    assert (c.concordant, c.discordant, c.f_only, c.g_only) == brute_force(f, g)
    total = c.concordant + c.discordant + c.f_only + c.g_only + c.both_tied
    assert total == c.n_pairs == len(f) * (len(f) - 1) // 2


def brute_force_band(f, g, lo, hi):
    """The counts of the pairs whose higher f lies in [lo, hi), one pair at a time."""
    counts = dict.fromkeys(("n_pairs", "concordant", "discordant", "f_only", "g_only", "both"), 0)
    for a in range(len(f)):
        for b in range(a + 1, len(f)):
            top = max(f[a], f[b])
            if top < lo or (hi is not None and top >= hi):
                continue
            df, dg = np.sign(f[a] - f[b]), np.sign(g[a] - g[b])
            if df == 0:
                kind = "both" if dg == 0 else "g_only"  # only g orders the pair
            elif dg == 0:
                kind = "f_only"
            else:
                kind = "concordant" if df == dg else "discordant"
            counts["n_pairs"] += 1
            counts[kind] += 1
    return counts


@given(f=values, data=st.data())
def test_the_counts_of_a_band_of_f_are_those_of_its_pairs(f, data):
    """g's ranks up to 5 or 500: a band of a few objects among many ranks of g sums the pairs
    across its edge by gathering at their ranks, a band of many by a pass over g's ranks."""
    top = data.draw(st.sampled_from([5, 500]))
    g = data.draw(st.lists(st.integers(0, top), min_size=len(f), max_size=len(f)))
    lo = data.draw(st.integers(0, 7))
    hi = data.draw(st.none() | st.integers(lo, 7))
    c = counts_from_ranks(np.array(f, dtype=np.int32), np.array(g, dtype=np.int32), lo, hi)
    got = (c.n_pairs, c.concordant, c.discordant, c.f_only, c.g_only, c.both_tied)
    assert got == tuple(brute_force_band(f, g, lo, hi).values())


def test_pairs_across_a_band_edge_are_summed_alike_by_pass_and_by_gather():
    rng = np.random.default_rng(5)
    h = rng.integers(0, 50, 10_000)
    for size in (3, 1_000, 5_000):  # below and above an eighth of g's ranks
        rg = rng.integers(0, 10_000, size)
        sizes = np.bincount(rg)
        assert comparison._sum_at(h, rg, sizes) == int(h[rg].sum())


@given(n=st.integers(0, 30), data=st.data())
def test_the_counts_where_f_ties_nothing_are_those_of_its_pairs(n, data):
    """f's ranks a permutation (the placement in one pass, not the sort), every band."""
    f = data.draw(st.permutations(range(n)))
    g = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    lo = data.draw(st.integers(0, n + 1))
    hi = data.draw(st.none() | st.integers(lo, n + 1))
    rf, rg = np.array(f, dtype=np.int32), np.array(g, dtype=np.int32)
    c = counts_from_ranks(rf, rg, lo, hi)
    got = (c.n_pairs, c.concordant, c.discordant, c.f_only, c.g_only, c.both_tied)
    assert got == tuple(brute_force_band(f, g, lo, hi).values())


def test_g_is_placed_at_f_exactly_where_f_ties_nothing():
    g = np.array([7, 5, 9], dtype=np.int32)
    assert _placed_by_ranks(np.array([2, 0, 1]), g, 0).tolist() == [5, 9, 7]
    assert _placed_by_ranks(np.array([4, 2, 3]), g, 2).tolist() == [5, 9, 7]  # a band from 2
    assert _placed_by_ranks(np.array([2, 0, 2]), g, 0) is None  # a tie: a place left empty
    assert _placed_by_ranks(np.array([0, 0, 2]), g, 0) is None
    assert _placed_by_ranks(np.array([3, 1, 2]), g, 0) is None  # not from lo
    assert _placed_by_ranks(np.array([], dtype=np.int32), g[:0], 0) is None


def test_placed_and_sorted_counts_agree_with_the_fenwick_counter(monkeypatch):
    """At 3·10⁵ objects (scipy's Fenwick tree, in one count or split in two), f without ties
    and f with a few."""
    rng = np.random.default_rng(11)
    n = 300_000
    rf = rng.permutation(n).astype(np.int32)
    rg = np.minimum(rf + rng.integers(-50_000, 50_000, n), n + 10).clip(0).astype(np.int32)
    placed = counts_from_ranks(rf, rg)
    tied = rf.copy()
    tied[rf == 1] = 0  # two objects at f's rank 0: the sort, not the placement
    monkeypatch.setattr(comparison, "FENWICK_FROM", 0)
    assert _placed_by_ranks(rf, rg, 0) is not None
    assert _placed_by_ranks(tied, rg, 0) is None
    sorted_counts = counts_from_ranks(tied, rg)
    assert sorted_counts.g_only + sorted_counts.both_tied == 1
    # The pair made tied in f moved from concordant or discordant to tied; the rest is equal.
    assert placed.concordant + placed.discordant == (
        sorted_counts.concordant + sorted_counts.discordant + sorted_counts.g_only
    )
    monkeypatch.setattr(comparison, "FENWICK_SPLIT_FROM", 0)
    for low_bits in (12, 0):  # runs of 2**12 g-ranks; the fewest bits that leave h 16 bits
        monkeypatch.setattr(comparison, "FENWICK_LOW_BITS", low_bits)
        assert counts_from_ranks(rf, rg) == placed  # two Fenwick counts, split by g's high bits
        assert counts_from_ranks(tied, rg) == sorted_counts
    monkeypatch.setattr(comparison, "FENWICK_FROM", 10**12)
    monkeypatch.setattr(comparison, "FENWICK_LOADED_FROM", 10**12)
    assert counts_from_ranks(rf, rg) == placed  # NumPy's inversion count, the same pairs


def test_the_counts_of_bands_of_f_add_up_to_those_of_every_pair():
    rng = np.random.default_rng(5)
    for n, distinct in [(0, 1), (1, 1), (2000, 3), (2000, 40), (20_000, 20_000)]:
        rf, rg = (rng.integers(0, distinct, n, dtype=np.int32) for _ in range(2))
        whole = counts_from_ranks(rf, rg)
        cuts = sorted({0, *rng.integers(0, n + 2, 6)})  # some beyond the ranks: empty bands
        for edges in ([0, 1], [0, distinct // 2, distinct], cuts):
            tops = [*edges[1:], None]
            bands = [counts_from_ranks(rf, rg, a, b) for a, b in zip(edges, tops, strict=True)]
            assert cenmcc.PairCounts.total(bands) == whole


@given(st.lists(st.integers(0, 2**20), max_size=50))
def test_tied_pairs_are_the_pairs_within_each_group(sizes):
    expected = sum(L * (L - 1) // 2 for L in sizes)
    assert comparison._tied_pairs(np.array(sizes, dtype=np.int64)) == expected


def test_tied_pairs_beyond_the_exact_int64_squares_are_exact():
    """More than 3·10⁹ objects: the sum of the squares would overflow int64."""
    sizes = np.array([3_000_000_000, 0, 1, 2, 2**31 + 5, 1], dtype=np.int64)
    assert sizes.sum() > comparison._SQUARES_EXACT
    expected = sum(int(L) * (int(L) - 1) // 2 for L in sizes)
    assert comparison._tied_pairs(sizes) == expected


@given(st.lists(st.integers(0, 1000), max_size=300))
def test_inversions_match_a_quadratic_count(x):
    x = np.array(x, dtype=np.int64)
    expected = sum(int((x[i] > x[i + 1 :]).sum()) for i in range(len(x)))
    assert _count_inversions(x) == expected


@given(st.lists(st.integers(0, 2**40), max_size=200), st.integers(0, 2**62))
def test_inversions_of_values_beyond_32_bits(x, shift):
    x = np.array(x, dtype=np.int64) + np.int64(shift % (2**62 - 2**40))
    expected = sum(int((x[i] > x[i + 1 :]).sum()) for i in range(len(x)))
    assert _count_inversions(x) == expected


def test_inversions_of_a_large_permutation_match_a_merge_count():
    """100,000 elements (about 17 bits, groups of every size) against scipy's Kendall tau."""
    rng = np.random.default_rng(3)
    x = rng.permutation(100_000)
    # For a permutation, tau = 1 - 4 inversions / (n (n - 1)).
    n = x.size
    tau = stats.kendalltau(np.arange(n), x).statistic
    assert _count_inversions(x) == round((1 - tau) * n * (n - 1) / 4)


def test_kendall_tau_b_from_the_counts_matches_scipy():
    rng = np.random.default_rng(5)
    f = rng.integers(0, 50, 20_000).astype(float)
    g = f + rng.integers(-20, 20, f.size)
    c = cenmcc.pair_counts(f, g)
    tau_b = (c.concordant - c.discordant) / np.sqrt(
        (c.n_pairs - c.g_only - c.both_tied) * (c.n_pairs - c.f_only - c.both_tied)
    )
    assert tau_b == pytest.approx(stats.kendalltau(f, g).statistic, abs=1e-12)


def test_degrees_of_consistency_and_discriminancy():
    assert cenmcc.degree_of_consistency([1, 2, 3], [1, 2, 3]) == 1.0
    assert cenmcc.degree_of_consistency([1, 2, 3], [3, 2, 1]) == 0.0
    # f splits the pair (0, 1) that g ties; g splits nothing f ties.
    assert cenmcc.degree_of_discriminancy([1, 2, 3], [1, 1, 3]) == float("inf")
    assert cenmcc.degree_of_discriminancy([1, 1, 3, 4], [1, 2, 3, 3]) == 1.0
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="degree of discriminancy"):
        assert np.isnan(cenmcc.degree_of_discriminancy([1, 2, 3], [1, 2, 3]))
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="degree of consistency"):
        assert np.isnan(cenmcc.degree_of_consistency([1, 1, 1], [1, 2, 3]))


def test_tie_rule_exact_by_default_and_chained_with_a_tolerance():
    f = [0.1 + 0.2, 0.3, 1.0]  # 0.30000000000000004 and 0.3 differ in float64
    assert cenmcc.tie_groups(f).tolist() == [1, 0, 2]
    assert cenmcc.tie_groups(f, rtol=1e-12).tolist() == [0, 0, 1]
    # Chaining: 1 ~ 1.5 and 1.5 ~ 2.0 with atol 0.6, so all three tie although |2.0 - 1| > 0.6.
    assert cenmcc.tie_groups([1.0, 1.5, 2.0, 5.0], atol=0.6).tolist() == [0, 0, 0, 1]
    counts = cenmcc.pair_counts(f, [1, 2, 3], rtol=1e-12)
    assert counts.g_only == 1


def test_bad_values_are_rejected():
    with pytest.raises(ValueError, match="same length"):
        cenmcc.pair_counts([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="finite, found nan at index 1"):
        cenmcc.degree_of_consistency([1, np.nan], [1, 2])
    with pytest.raises(ValueError, match="1-D"):
        cenmcc.pair_counts([[1, 2]], [[1, 2]])
    with pytest.raises(TypeError, match="real numbers"):
        cenmcc.pair_counts(["a", "b"], [1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        cenmcc.tie_groups([1.0, 2.0], rtol=-1)


def test_scales_to_paper_size():
    # 200,000 values: O(n log n), no pair loop (a loop over 2e10 pairs would never finish).
    rng = np.random.default_rng(0)
    f = rng.random(200_000)
    c = cenmcc.pair_counts(f, f + rng.normal(0, 1e-3, f.size))
    assert c.n_pairs == 200_000 * 199_999 // 2
    assert c.concordant > 0.99 * c.n_pairs
