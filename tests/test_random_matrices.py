"""The random-matrix experiment: generator, determinism, statistics, bootstrap, outputs."""

import json
import math
import types

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cenmcc
from cenmcc import reference
from experiments import random_matrices as rm
from experiments.__main__ import main as cli_main

#: Small and fast, with several chunks so that the schedule could matter.
SMALL = rm.Config(n_matrices=1200, chunk_size=250, n_resamples=60, seed=5)


def deterministic(summary: dict) -> dict:
    """The summary without its timings, which are the only part allowed to differ."""
    return {k: v for k, v in summary.items() if k not in ("wall_seconds", "timing")}


@pytest.fixture(scope="module")
def small_run():
    return rm.run(SMALL, jobs=1, quiet=True)


# ---------------------------------------------------------------------------------------------
# The generator


def test_defaults_are_the_papers_settings():
    c = rm.Config()
    assert (c.n_matrices, c.k_range, c.diagonal_range) == (200_000, (3, 30), (1, 1000))
    assert (c.rho_range, c.off_diagonal_scale, c.off_diagonal_min) == ((0.01, 1.0), 1000, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_matrices": 2}, "n_matrices"),
        ({"k_range": (1, 30)}, "k_range"),
        ({"k_range": (3, 5)}, "k_range"),
        ({"diagonal_range": (10, 5)}, "diagonal_range"),
        ({"rho_range": (0.0, 1.0)}, "rho_range"),
        ({"off_diagonal_min": 0}, "off_diagonal_min"),
        ({"rho_range": (0.0005, 1.0)}, "floor"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"n_resamples": 1}, "n_resamples"),
        ({"confidence_level": 1.0}, "confidence_level"),
    ],
)
def test_config_rejects_bad_settings(change, message):
    with pytest.raises(ValueError, match=message):
        rm.Config(**change)


def test_parameters_cover_their_ranges():
    K, rho = rm.draw_parameters(rm.Config(), 50_000, np.random.default_rng(1))
    assert K.dtype.kind == "i"
    assert set(np.unique(K)) == set(range(3, 31))  # both ends included, nothing outside
    assert rho.min() >= 0.01
    assert rho.max() <= 1.0
    # Uniform dimensions: every K has about 50,000 / 28 matrices.
    assert stats.chisquare(np.bincount(K)[3:]).pvalue > 1e-4


@pytest.mark.parametrize(
    "config",
    [
        rm.Config(),
        rm.Config(
            k_range=(4, 7),
            diagonal_range=(50, 60),
            rho_range=(0.3, 0.5),
            off_diagonal_scale=20,
            off_diagonal_min=2,
        ),
    ],
)
def test_matrices_respect_every_range_and_the_floor_bound(config):
    rng = np.random.default_rng(2)
    rho = rng.uniform(*config.rho_range, size=3000)
    for K in (config.k_range[0], config.k_range[1]):
        C = rm.draw_matrices(config, K, rho, rng)
        assert C.shape == (rho.size, K, K)
        diag = np.einsum("...ii->...i", C)
        off = C[:, ~np.eye(K, dtype=bool)].reshape(rho.size, -1)
        bound = np.array([math.floor(config.off_diagonal_scale * r) for r in rho])
        assert diag.min() == config.diagonal_range[0]
        assert diag.max() == config.diagonal_range[1]
        assert np.all(off.min(axis=1) >= config.off_diagonal_min)
        assert np.all(off.max(axis=1) <= bound)
        # Both ends are drawn as often as uniform integers on [min, bound] make them: the
        # largest of K(K-1) cells equals the bound with probability 1 - (1 - 1/width)^(K(K-1)).
        width = bound - config.off_diagonal_min + 1
        p = 1 - (1 - 1 / width) ** (K * (K - 1))
        for attained in (off.max(axis=1) == bound, off.min(axis=1) == config.off_diagonal_min):
            assert abs(attained.sum() - p.sum()) < 5 * np.sqrt(np.sum(p * (1 - p)))


def test_chunk_rows_are_the_metrics_of_the_drawn_matrices():
    """Redraw a chunk's matrices and measure them one by one with the literal formulas."""
    config = rm.Config(n_matrices=10, k_range=(3, 6), chunk_size=60)
    seed = np.random.SeedSequence(9)
    rows = rm.measure_chunk(rm.Chunk(config, 60, seed))
    rng = np.random.default_rng(seed)
    dims, rho = rm.draw_parameters(config, 60, rng)
    np.testing.assert_array_equal(rows["K"], dims)
    np.testing.assert_array_equal(rows["rho"], rho)
    for dim in np.unique(dims):
        where = np.flatnonzero(dims == dim)
        for i, C in zip(where, rm.draw_matrices(config, int(dim), rho[where], rng), strict=True):
            acc = np.trace(C) / C.sum()
            mcc = reference.mcc_triple_sum(C)
            tmcc = (1 - mcc) * (1 - math.log(1 - acc, 2 * dim - 2)) * (1 - 1 / dim)
            expected = [acc, mcc, reference.cen(C), tmcc]
            got = [rows[name][i] for name in ("ACC", "MCC", "CEN", "tMCC")]
            np.testing.assert_allclose(got, expected, rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# Determinism


def test_results_do_not_depend_on_workers_or_backend(small_run):
    table, summary = small_run
    assert len(table) == SMALL.n_matrices
    for jobs, backend in ((2, "loky"), (2, "threading")):
        other_table, other_summary = rm.run(SMALL, jobs=jobs, backend=backend, quiet=True)
        pd.testing.assert_frame_equal(table, other_table, check_exact=True)
        assert deterministic(summary) == deterministic(other_summary)


@pytest.mark.cluster
def test_dask_cluster_gives_the_loky_results(small_run):
    import distributed  # the [dask] extra, installed by the test command: never skipped

    table, summary = small_run
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        other_table, other_summary = rm.run(
            SMALL, backend="dask", scheduler=cluster.scheduler_address, quiet=True
        )
    pd.testing.assert_frame_equal(table, other_table, check_exact=True)
    assert deterministic(summary) == deterministic(other_summary)


def test_another_seed_gives_other_matrices(small_run):
    table, _ = small_run
    other = rm.simulate(rm.Config(n_matrices=SMALL.n_matrices, seed=SMALL.seed + 1), jobs=1)
    assert not np.array_equal(table["CEN"], other["CEN"])


# ---------------------------------------------------------------------------------------------
# Statistics, against independent computations


def brute_force_pairs(f, g):
    """Concordant, discordant and tied pairs by looking at every pair."""
    df = np.sign(f[:, None] - f[None, :])
    dg = np.sign(g[:, None] - g[None, :])
    upper = np.triu(np.ones(df.shape, dtype=bool), 1)
    prod = (df * dg)[upper]
    return int((prod > 0).sum()), int((prod < 0).sum()), int((prod == 0).sum())


def test_correlations_and_consistency(small_run):
    table, s = small_run
    K, cen, mcc, tmcc = (table[c].to_numpy() for c in ("K", "CEN", "MCC", "tMCC"))
    kcen = cenmcc.k_factor(K) * cen
    assert s["pearson_tmcc_kcen"] == pytest.approx(stats.pearsonr(tmcc, kcen).statistic, rel=1e-12)
    assert s["pearson_cen_mcc"] == pytest.approx(stats.pearsonr(cen, mcc).statistic, rel=1e-12)
    for f, g, key in ((tmcc, kcen, "tmcc_kcen"), (cen, -mcc, "cen_mcc")):
        concordant, discordant, tied = brute_force_pairs(f, g)
        assert s[f"consistency_{key}"] == concordant / (concordant + discordant)
        assert s[f"ties_{key}"] == tied
    assert s["mean_ratio_tmcc_kcen"] == pytest.approx(np.mean(tmcc / kcen), rel=1e-13)
    fit = s["k_fit"]
    k_fit = cenmcc.k_factor(K, fit["a"], fit["b"], fit["c"])
    assert s["mean_ratio_tmcc_kcen_fitted"] == pytest.approx(
        np.mean(tmcc / (k_fit * cen)), rel=1e-13
    )
    assert s["pearson_tmcc_kcen_fitted"] == pytest.approx(
        stats.pearsonr(tmcc, k_fit * cen).statistic, rel=1e-12
    )


def test_empirical_k_per_dimension(small_run):
    table, _ = small_run
    per_k = rm.empirical_k(table)
    for row in per_k.itertuples():
        ratio = (table["tMCC"] / table["CEN"])[table["K"] == row.K].to_numpy()
        assert row.n_matrices == ratio.size
        assert row.mean == pytest.approx(ratio.mean(), rel=1e-13)
        assert row.std == pytest.approx(ratio.std(ddof=1), rel=1e-12)
        assert row.q975 == pytest.approx(np.quantile(ratio, 0.975), rel=1e-13)


def test_fitted_k_is_the_weighted_least_squares_solution(small_run):
    """k(K) is linear in (a, a·b, a·c): solve it in closed form and map the covariance."""
    table, s = small_run
    per_k = rm.empirical_k(table)
    K, y, w = per_k["K"].to_numpy(float), per_k["mean"].to_numpy(), 1 / per_k["sem"].to_numpy()
    X = np.column_stack([np.ones_like(K), 1 / np.log(K), 1 / np.log(K) ** 2])
    beta, *_ = np.linalg.lstsq(X * w[:, None], y * w, rcond=None)
    residual = (y - X @ beta) * w
    chi2_red = residual @ residual / (len(K) - 3)
    cov_beta = np.linalg.inv((X * w[:, None]).T @ (X * w[:, None]))
    a, b, c = beta[0], beta[1] / beta[0], beta[2] / beta[0]
    # Jacobian of (a, b, c) = (β0, β1/β0, β2/β0) with respect to β.
    G = np.array([[1, 0, 0], [-b / a, 1 / a, 0], [-c / a, 0, 1 / a]])
    se = np.sqrt(np.diag(G @ cov_beta @ G.T))
    fit = s["k_fit"]
    # b and c are strongly correlated (1/ln K and 1/ln² K are nearly collinear on 3..30), so
    # the iterative fit reaches the optimum to a small fraction of the standard errors.
    np.testing.assert_array_less(np.abs([fit["a"] - a, fit["b"] - b, fit["c"] - c]), 1e-4 * se)
    np.testing.assert_allclose([fit["a_se"], fit["b_se"], fit["c_se"]], se, rtol=1e-4)
    assert fit["chi2_reduced"] == pytest.approx(chi2_red, rel=1e-6)


# ---------------------------------------------------------------------------------------------
# The bootstrap, against scipy.stats.bootstrap


@pytest.fixture(scope="module")
def skewed():
    return np.random.default_rng(3).exponential(size=(2, 40)) * [[1.0], [3.0]]


def test_bca_from_a_distribution_is_scipys(skewed):
    """Same bootstrap distribution in, same BCa interval out (z0, jackknife acceleration)."""
    boot = rm.bootstrap_mean(skewed, n_resamples=3000, seed=7)
    for x, dist, ours in zip(skewed, boot.distribution, boot.bca, strict=True):
        theirs = stats.bootstrap(
            (x,),
            np.mean,
            n_resamples=0,
            bootstrap_result=types.SimpleNamespace(bootstrap_distribution=dist),
            method="BCa",
        ).confidence_interval
        np.testing.assert_allclose(ours, [theirs.low, theirs.high], rtol=1e-12)


def test_bootstrap_agrees_with_scipy_within_monte_carlo_error(skewed):
    B = 20_000
    boot = rm.bootstrap_mean(skewed, n_resamples=B, seed=11)
    for i, x in enumerate(skewed):
        n, mean = x.size, x.mean()
        se = x.std(ddof=1) / math.sqrt(n)
        rng = np.random.default_rng(12 + i)
        bca = stats.bootstrap((x,), np.mean, n_resamples=B, method="BCa", rng=rng)
        # The bootstrap standard error (relative MC error about 1/sqrt(2B) = 0.5%).
        assert boot.distribution[i].std(ddof=1) == pytest.approx(bca.standard_error, rel=0.03)
        # Interval ends: MC error of a 2.5% quantile of B = 20,000 is about 0.02 se.
        ci = bca.confidence_interval
        np.testing.assert_allclose(boot.bca[i], [ci.low, ci.high], atol=0.1 * se)

        def student_t(sample, axis=-1, mean=mean, n=n):
            return (sample.mean(axis=axis) - mean) / (sample.std(axis=axis, ddof=1) / math.sqrt(n))

        t = stats.bootstrap((x,), student_t, n_resamples=B, method="percentile", rng=rng)
        t_lo, t_hi = t.confidence_interval
        np.testing.assert_allclose(
            boot.student[i], [mean - t_hi * se, mean - t_lo * se], atol=0.1 * se
        )
    # Right-skewed data: the bootstrap-t interval reaches further above the mean than below, by
    # much more than the tolerance above, which therefore catches an interval flipped about the
    # mean.
    below, above = boot.mean - boot.student[:, 0], boot.student[:, 1] - boot.mean
    se = skewed.std(axis=1, ddof=1) / math.sqrt(skewed.shape[1])
    assert np.all(above - below > 0.3 * se)


def test_bootstrap_is_reproducible_and_schedule_free(skewed):
    a = rm.bootstrap_mean(skewed, n_resamples=101, seed=4)
    b = rm.bootstrap_mean(skewed, n_resamples=101, seed=4, block=7, jobs=2, backend="threading")
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    # Paired: each series alone gets the same resampled means.
    alone = rm.bootstrap_mean(skewed[1], n_resamples=101, seed=4)
    np.testing.assert_array_equal(alone.distribution[0], a.distribution[1])


def test_bootstrap_rejects_constant_data():
    with pytest.raises(ValueError, match="distinct"):
        rm.bootstrap_mean(np.ones(10), n_resamples=10, seed=0)


# ---------------------------------------------------------------------------------------------
# Command line and outputs


def test_command_line_writes_every_output(tmp_path, capsys):
    argv = ["random-matrices", "--n", "800", "--resamples", "50", "--seed", "3", "--jobs", "1"]
    assert cli_main([*argv, "--out", str(tmp_path), "--quiet"]) == 0
    out = tmp_path / rm.NAME
    summary = json.loads((out / "summary.json").read_text())
    required = {
        *("n_matrices", "seed", "k_range", "pearson_cen_mcc", "pearson_tmcc_kcen"),
        *("consistency_tmcc_kcen", "consistency_cen_mcc", "ties_tmcc_kcen"),
        *("mean_ratio_tmcc_kcen", "ci95_student", "ci95_bca", "k_paper", "k_fit"),
        *("pearson_tmcc_kcen_fitted", "mean_ratio_tmcc_kcen_fitted", "wall_seconds"),
    }
    assert required <= set(summary)
    assert summary["n_matrices"] == 800
    assert summary["seed"] == 3
    assert set(summary["k_fit"]) >= {"a", "b", "c", "a_se", "b_se", "c_se"}
    lo, hi = summary["ci95_student"]
    assert lo < summary["mean_ratio_tmcc_kcen"] < hi
    table = pd.read_csv(out / "matrices_table.csv.gz")
    assert list(table.columns) == ["K", "rho", "ACC", "MCC", "CEN", "tMCC"]
    assert len(table) == 800
    per_k = pd.read_csv(out / "k_per_dimension.csv")
    assert per_k["n_matrices"].sum() == 800
    for name in ("figure2", "k_per_dimension"):
        assert (out / f"{name}.png").stat().st_size > 0
        assert (out / f"{name}.pdf").stat().st_size > 0
    assert "mean tMCC/(k·CEN)" in capsys.readouterr().out
    assert not list(out.glob(".*.tmp"))


def test_a_failed_run_leaves_no_summary(tmp_path, monkeypatch):
    out = tmp_path / rm.NAME
    out.mkdir()
    (out / "summary.json").write_text("{}")  # from an earlier run

    def broken_plot(table):
        raise RuntimeError("plotting failed")

    monkeypatch.setattr(rm, "plot", broken_plot)
    argv = ["random-matrices", "--n", "300", "--resamples", "20", "--jobs", "1", "--quiet"]
    with pytest.raises(RuntimeError, match="plotting failed"):
        cli_main([*argv, "--out", str(tmp_path)])
    assert not (out / "summary.json").exists()
    assert not list(out.glob(".*.tmp"))


def test_a_failing_chunk_names_its_task(monkeypatch):
    def broken(config, K, rho, rng):
        raise MemoryError("no room")

    monkeypatch.setattr(rm, "draw_matrices", broken)
    with pytest.raises(RuntimeError, match=r"random matrices: task 0 of 2 failed.*no room"):
        rm.simulate(rm.Config(n_matrices=20, chunk_size=10), jobs=1, quiet=True)
