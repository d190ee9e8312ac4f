"""The within-K pair statistics' SEs in a run of few chunks: the U-statistic variance."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cenmcc
from cenmcc.simulation import Simulation, agreement, run, within_k
from cenmcc.simulation.papers import PaperGenerator


def brute_force_object_counts(f, g):
    """Each object's concordant, discordant, f-ordered and g-ordered partners, pair by pair."""
    out = np.zeros((len(f), 4), dtype=np.int64)
    for i, j in itertools.permutations(range(len(f)), 2):
        df, dg = np.sign(f[i] - f[j]), np.sign(g[i] - g[j])
        out[i] += [df * dg > 0, df * dg < 0, df != 0, dg != 0]
    return out


@given(st.lists(st.tuples(*[st.integers(0, 6)] * 3), min_size=0, max_size=30))
def test_each_objects_counts_are_those_of_every_pair_it_is_in(rows):
    ranks = np.array(rows, dtype=np.int64).reshape(-1, 3).T
    names = {"a": 0, "b": 1, "c": 2}
    pairs = [("a", "b"), ("c", "a"), ("b", "c")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(within_k, "SIGN_CELLS", 0)  # every group counted pair by pair
        by_pair = within_k.object_counts(ranks, pairs, names)
    by_signs = within_k.object_counts(ranks, pairs, names)  # all pairs at once
    for f, g in pairs:
        expected = brute_force_object_counts(ranks[names[f]], ranks[names[g]]).reshape(-1, 4)
        np.testing.assert_array_equal(by_pair[f, g], expected)
        np.testing.assert_array_equal(by_signs[f, g], expected)
        group = within_k.group_counts(by_signs[f, g])
        assert group == cenmcc.pair_counts(ranks[names[f]], ranks[names[g]])


STATISTICS = {  # of the means of (concordant, discordant, f orders, g orders) over pairs
    "consistency": lambda c, d, F, G: c / (c + d),
    "kendall_tau_b": lambda c, d, F, G: (c - d) / math.sqrt(F * G),
    "discriminancy": lambda c, d, F, G: (F - c - d) / (G - c - d),
}


def brute_force_errors(parts, n):
    """The delta-method U-statistic SE over every ordered pair and triple of each part:
    the kernels written out pair by pair, the gradient by central differences, and
    E[h(X1, X2) h(X1, X3)] summed over the distinct triples (Hoeffding 1948)."""
    kernels, pairs, triples = [], 0, 0
    for K, f, g in parts:
        m = K.size
        e = np.zeros((m, m, 4))
        for i, j in itertools.permutations(range(m), 2):
            if K[i] == K[j]:
                df, dg = np.sign(f[i] - f[j]), np.sign(g[i] - g[j])
                e[i, j] = [df * dg > 0, df * dg < 0, df != 0, dg != 0]
        kernels.append(e)
        pairs += m * (m - 1)
        triples += m * (m - 1) * (m - 2)
    mu = sum(e.sum(axis=(0, 1)) for e in kernels) / pairs
    out = {}
    for name, T in STATISTICS.items():
        step = 1e-6 * mu.max()
        w = np.array([(T(*(mu + step * u)) - T(*(mu - step * u))) / (2 * step) for u in np.eye(4)])
        total = 0.0
        for e in kernels:
            h = e @ w
            m = h.shape[0]
            for i, j, k in itertools.permutations(range(m), 3):
                total += h[i, j] * h[i, k]
        sigma1 = total / triples
        out[name] = math.sqrt(4 * sigma1 / n) if sigma1 >= 0 else math.nan  # as the engine
    return out


def test_the_within_k_errors_are_the_u_statistic_variance_counted_over_every_triple():
    rng = np.random.default_rng(7)
    sim = Simulation(lambda r, n: None, 10, measures=("cen", "mcc"))
    parts, terms = [], []
    for m in (28, 23):  # two replicates of unequal size, pooled
        K = rng.integers(3, 5, size=m)
        f = rng.integers(0, 6, size=m).astype(float)  # with ties in both
        g = np.floor(f / 2 + rng.integers(0, 3, size=m))
        replicate = agreement._replicate(
            sim, K, {"cen": f, "mcc": g}, {"cen": 0.0, "mcc": 0.0}, terms=True
        )
        terms.append(replicate.within_k_terms["cen", "mcc"])
        parts.append((K, -f, g))  # CEN is lower-is-better: its pairs are oriented
    got = within_k.within_k_errors(terms, 5000)
    expected = brute_force_errors(parts, 5000)
    assert got == pytest.approx(expected, rel=1e-6)
    assert all(v > 0 for v in got.values())


def test_within_k_errors_are_nan_where_a_statistic_is_undefined():
    zero = within_k.WithinKTerms(5, np.zeros(4, np.int64), np.zeros((4, 4), np.int64))
    assert all(math.isnan(v) for v in within_k.within_k_errors([zero], 100).values())
    assert all(math.isnan(v) for v in within_k.within_k_errors([], 100).values())


def _within_k_u_statistic_se(K, f, g):
    """The within-K consistency's SE from every matrix's counts over the whole run."""
    c, d = np.zeros(K.size), np.zeros(K.size)
    for k in np.unique(K):
        rows = np.flatnonzero(k == K)
        s = np.sign(f[rows, None] - f[rows]) * np.sign(g[rows, None] - g[rows])
        c[rows], d[rows] = (s > 0).sum(axis=1), (s < 0).sum(axis=1)
    uc, ud = c.mean(), d.mean()
    psi = (ud * c - uc * d) / (uc + ud) ** 2
    return 2 * psi.std(ddof=1) / np.sqrt(K.size)


def test_a_run_of_two_chunks_gets_within_k_errors_as_honest_as_the_whole_runs():
    # Its replicates are strided parts of about 300 matrices, about 11 of each K: their spread,
    # scaled to the run, overstated the within-K SE by about half (0.66 over 60 seeds).
    sim = Simulation(PaperGenerator(), 20_000, measures=("cen", "mcc"), seed=11, keep_table=True)
    result = run(sim, jobs=1, quiet=True)
    assert result.summary["standard_errors"]["replicate_size"] < 400
    t = result.table
    exact = _within_k_u_statistic_se(np.asarray(t["K"]), -t["cen"], t["mcc"])
    within = result.pair("cen", "mcc")["within_k"]
    assert 0.8 < within["consistency_se"] / exact < 1.25  # 0.96; the spread of parts: 1.50
    # Without ties in either measure τ_b is 2 consistency - 1.
    assert within["kendall_tau_b_se"] == pytest.approx(2 * within["consistency_se"], rel=0.05)


def test_a_run_of_many_chunks_keeps_its_replicates_spread():
    sim = Simulation(PaperGenerator(), 6_400, measures=("cen", "mcc"), chunk_size=100, seed=2)
    assert agreement.replicate_splits(sim) == 1
    result = run(sim, jobs=1, quiet=True)
    assert result.summary["standard_errors"]["replicate_size"] == 100


def test_a_statistic_no_pair_moves_has_an_se_of_exactly_zero():
    # g orders every pair that f orders, and in the same direction: no pair is discordant
    # (consistency 1) and none is ordered by f and tied by g (discriminancy 0). Each matrix's
    # kernel is 0, so the SE is 0; in floats the two sums of the variance cancelled to noise
    # (1e-17 here; 1e-6, 0 or not by the machine, in the agreement experiment).
    sim = Simulation(lambda r, n: None, 10, measures=("mcc", "accuracy"))
    rng = np.random.default_rng(0)
    for _ in range(20):
        terms = []
        for _ in range(4):
            K = rng.integers(3, 6, size=150)
            g = rng.normal(size=K.size)
            replicate = agreement._replicate(
                sim,
                K,
                {"mcc": np.floor(2 * g), "accuracy": g},
                dict.fromkeys(sim.measures, 0.0),
                terms=True,
            )
            terms.append(replicate.within_k_terms["mcc", "accuracy"])
        errors = within_k.within_k_errors(terms, 50_000)
        assert (errors["consistency"], errors["discriminancy"]) == (0.0, 0.0)
        assert errors["kendall_tau_b"] > 0


def test_a_discriminancy_of_a_few_pairs_has_no_se_rather_than_zero():
    # g is coarse and f fine, but one pair of each replicate is tied by f and ordered by g:
    # the discriminancy is a few hundred, from 4 such pairs. The unbiased estimate of its
    # variance is mostly negative there, which was reported as an SE of 0.
    sim = Simulation(lambda r, n: None, 10, measures=("mcc", "accuracy"))
    rng = np.random.default_rng(1)
    for _ in range(10):
        terms = []
        for _ in range(4):
            K = rng.integers(3, 6, size=150)
            f = rng.normal(size=K.size)
            g = np.floor(f)
            f[1], g[1], K[1] = f[0], g[0] + 1, K[0]
            replicate = agreement._replicate(
                sim, K, {"mcc": f, "accuracy": g}, dict.fromkeys(sim.measures, 0.0), terms=True
            )
            terms.append(replicate.within_k_terms["mcc", "accuracy"])
        se = within_k.within_k_errors(terms, 50_000)["discriminancy"]
        assert math.isnan(se) or se > 0
