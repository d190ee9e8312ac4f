"""Pair counts and the statistics they imply, against a count over every pair."""

import itertools
import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import cenmcc
from cenmcc import comparison
from cenmcc.simulation import Simulation, agreement, within_k


def brute_force(f, g) -> cenmcc.PairCounts:
    """Every unordered pair classified by the signs of its two differences."""
    c = d = f_only = g_only = both = 0
    for i, j in itertools.combinations(range(len(f)), 2):
        df, dg = np.sign(f[i] - f[j]), np.sign(g[i] - g[j])
        if df * dg > 0:
            c += 1
        elif df * dg < 0:
            d += 1
        elif df:
            f_only += 1
        elif dg:
            g_only += 1
        else:
            both += 1
    n = len(f)
    return cenmcc.PairCounts(n * (n - 1) // 2, c, d, f_only, g_only, both)


values = st.lists(st.integers(0, 6), min_size=0, max_size=40)


@given(values, values)
def test_both_discordant_counters_equal_the_count_over_every_pair(a, b):
    n = min(len(a), len(b))
    f, g = np.array(a[:n], dtype=float), np.array(b[:n], dtype=float)
    expected = brute_force(f, g)
    assert cenmcc.pair_counts(f, g) == expected  # NumPy's inversion count (few objects)
    with mock.patch.object(comparison, "FENWICK_FROM", 0):  # scipy's Fenwick tree, any size
        assert cenmcc.pair_counts(f, g) == expected
        with (
            mock.patch.object(comparison, "FENWICK_SPLIT_FROM", 0),
            mock.patch.object(comparison, "FENWICK_LOW_BITS", 1),
        ):  # split in two counts by g's high bits
            assert cenmcc.pair_counts(f, g) == expected


def test_scipy_still_has_the_fenwick_counter():
    # If a scipy release renames it, pair counts still hold (the NumPy count), only slower:
    # this test says so at once.
    assert comparison._fenwick_discordant() is not None


@given(values, values)
def test_statistics_follow_their_definitions(a, b):
    n = min(len(a), len(b))
    f, g = np.array(a[:n], dtype=float), np.array(b[:n], dtype=float)
    c = cenmcc.pair_counts(f, g)
    ordered = c.concordant + c.discordant
    if ordered:
        assert c.consistency() == c.concordant / ordered
    else:
        assert math.isnan(c.consistency())
    if n >= 2 and np.ptp(f) > 0 and np.ptp(g) > 0:
        assert c.tau_b() == pytest.approx(stats.kendalltau(f, g).statistic, abs=1e-12)
    else:
        assert math.isnan(c.tau_b())
    if c.g_only:
        assert c.discriminancy() == c.f_only / c.g_only
    elif c.f_only:
        assert c.discriminancy() == math.inf
    else:
        assert math.isnan(c.discriminancy())
    r = c.reversed()
    assert (r.concordant, r.discordant) == (c.discordant, c.concordant)
    assert cenmcc.pair_counts(f, -g) == r


def test_counts_of_disjoint_groups_add_up():
    rng = np.random.default_rng(0)
    f, g, group = rng.integers(0, 5, size=(3, 300))
    parts = [cenmcc.pair_counts(f[group == k], g[group == k]) for k in range(5)]
    total = cenmcc.PairCounts.total(parts)
    assert total.n_pairs == sum(p.n_pairs for p in parts)
    assert total.concordant == sum(p.concordant for p in parts)
    assert cenmcc.PairCounts.total([]) == cenmcc.PairCounts(0, 0, 0, 0, 0, 0)


@given(st.lists(st.tuples(*[st.integers(0, 5)] * 3), min_size=0, max_size=30))
def test_the_counts_of_every_pair_at_once_are_those_of_each_pair(rows):
    # A replicate chunk counts all pairs of measures within each K in two matrix products.
    ranks = np.array(rows, dtype=np.int32).reshape(-1, 3).T
    names = {"a": 0, "b": 1, "c": 2}
    pairs = [("a", "b"), ("a", "c"), ("c", "b")]
    counted = within_k.within_group_counts(ranks, pairs, names)
    for f, g in pairs:
        expected = brute_force(ranks[names[f]], ranks[names[g]])
        assert counted[f, g] == expected


def test_a_replicate_chunk_counts_each_k_as_pair_counts_does(monkeypatch):
    rng = np.random.default_rng(3)
    K = rng.integers(3, 7, size=900)
    values = {m: rng.integers(0, 12, size=K.size).astype(float) for m in ("cen", "mcc", "accuracy")}
    sim = Simulation(lambda r, n: None, K.size, measures=tuple(values))
    for cells in (within_k.SIGN_CELLS, 0):  # all at once, then pair by pair from the ranks
        monkeypatch.setattr(within_k, "SIGN_CELLS", cells)
        replicate = agreement._replicate(sim, K, values, dict.fromkeys(values, 0.0))
        for (f, g), statistics in replicate.statistics.items():
            for k in np.unique(K):
                rows = np.flatnonzero(k == K)
                counts = cenmcc.pair_counts(values[f][rows], values[g][rows])
                if not sim.same_direction(f, g):
                    counts = counts.reversed()
                assert statistics["by_k"][int(k)] == agreement.pair_count_statistics(counts)
