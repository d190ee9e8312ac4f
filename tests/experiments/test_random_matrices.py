"""The random-matrix experiment: the papers' generator and its readings, statistics, outputs."""

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

import cenmcc
from cenmcc import reference
from cenmcc.simulation import papers
from experiments import random_matrices as rm
from experiments.__main__ import main as cli_main

#: Small and fast, with several chunks so that the schedule could matter.
SMALL = rm.Config(n_matrices=1200, chunk_size=250, n_resamples=60, seed=5)


@pytest.fixture(scope="module")
def small_run():
    result, _ = rm.run(SMALL, jobs=1, quiet=True, keep_table=True)
    return result


# ---------------------------------------------------------------------------------------------
# The generator


def test_defaults_are_the_papers_settings():
    c = rm.Config()
    g = c.generator
    assert (c.n_matrices, g.k_range, g.diagonal_range) == (200_000, (3, 30), (1, 1000))
    assert (g.rho_range, g.off_diagonal_scale, g.off_diagonal_min) == ((0.01, 1.0), 1000, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"k_scheme": "per-row"}, "k_scheme"),
        ({"rho_scope": "column"}, "rho_scope"),
        ({"k_range": (1, 30)}, "k_range"),
        ({"k_range": (5, 3)}, "k_range"),
        ({"diagonal_range": (10, 5)}, "diagonal_range"),
        ({"rho_range": (0.0, 1.0)}, "rho_range"),
        ({"off_diagonal_min": -1}, "off_diagonal_min"),
        ({"rho_range": (0.0005, 1.0)}, "floor"),
    ],
)
def test_the_generator_rejects_bad_settings(change, message):
    with pytest.raises(ValueError, match=message):
        papers.PaperGenerator(**change)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_matrices": 0}, "n_matrices"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"n_resamples": 1}, "n_resamples"),
        ({"confidence_level": 1.0}, "confidence_level"),
    ],
)
def test_the_experiment_rejects_bad_settings(change, message):
    with pytest.raises(ValueError, match=message):
        rm.Config(**change)


def test_parameters_cover_their_ranges():
    K, rho = papers.draw_parameters(papers.PaperGenerator(), 50_000, np.random.default_rng(1))
    assert K.dtype.kind == "i"
    assert set(np.unique(K)) == set(range(3, 31))  # both ends included, nothing outside
    assert rho.min() >= 0.01
    assert rho.max() <= 1.0
    # Uniform dimensions: every K has about 50,000 / 28 matrices.
    assert stats.chisquare(np.bincount(K)[3:]).pvalue > 1e-4


@pytest.mark.parametrize(
    "config",
    [
        papers.PaperGenerator(),
        papers.PaperGenerator(
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
        C = papers.draw_matrices(config, K, rho, rng)
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


def test_other_readings_of_the_generator():
    """Balanced K, one ρ per row or per entry, excluded upper ends: each does what it says."""
    rng = np.random.default_rng(4)
    K, _ = papers.draw_parameters(papers.PaperGenerator(k_scheme="balanced"), 28 * 30 + 5, rng)
    counts = np.bincount(K)[3:]  # 30 of each of the 28 dimensions, 5 more drawn at random
    assert counts.min() >= 30
    assert counts.sum() - 28 * 30 == 5
    exclusive = papers.PaperGenerator(upper_inclusive=False, diagonal_range=(1, 3), k_range=(3, 6))
    C = papers.draw_matrices(exclusive, 3, np.full(4000, 0.01), rng)  # off-diagonal bound 10
    diag = np.einsum("...ii->...i", C)
    assert set(np.unique(diag)) == {1, 2}
    assert C[:, ~np.eye(3, dtype=bool)].max() == 9
    # One ρ per row: the off-diagonal bound varies between rows of one matrix.
    per_row = papers.draw_matrices(
        papers.PaperGenerator(rho_scope="row"), 20, np.full(200, 1.0), rng
    )
    row_max = np.where(np.eye(20, dtype=bool), 0, per_row).max(axis=-1)
    assert np.mean(row_max.std(axis=-1)) > 100
    per_matrix = papers.draw_matrices(papers.PaperGenerator(), 20, rng.uniform(0.01, 1, 200), rng)
    row_max = np.where(np.eye(20, dtype=bool), 0, per_matrix).max(axis=-1)
    assert np.mean(row_max.std(axis=-1)) < 30
    per_entry = papers.draw_matrices(
        papers.PaperGenerator(rho_scope="entry"), 20, np.full(200, 1.0), rng
    )
    off = per_entry[:, ~np.eye(20, dtype=bool)]
    # Uniform on [1, floor(1000 ρ)] with ρ uniform: mean about 250, far below the 500 of ρ = 1.
    assert 230 < off.mean() < 270


def test_table_rows_are_the_metrics_of_the_drawn_matrices():
    """Redraw a chunk's matrices and measure them one by one with the literal formulas."""
    generator = papers.PaperGenerator(k_range=(3, 6))
    config = rm.Config(n_matrices=60, generator=generator, chunk_size=60, n_resamples=40)
    result, _ = rm.run(config, jobs=1, quiet=True, keep_table=True)
    task = config.simulation().chunks()[0]
    stacks = generator(np.random.default_rng(task.seed), 60)
    matrices = [C for stack in stacks for C in stack]
    table = result.table
    for i, C in enumerate(matrices):
        dim = C.shape[0]
        acc = np.trace(C) / C.sum()
        mcc = reference.mcc_triple_sum(C)
        tmcc = (1 - mcc) * (1 - math.log(1 - acc, 2 * dim - 2)) * (1 - 1 / dim)
        expected = [dim, mcc, reference.cen(C), tmcc]
        got = [table[name][i] for name in ("K", "mcc", "cen", "tmcc")]
        np.testing.assert_allclose(got, expected, rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# Determinism


def test_results_do_not_depend_on_workers_or_backend(small_run):
    assert len(small_run.table) == SMALL.n_matrices
    for jobs, backend in ((2, "loky"), (2, "threading")):
        other, _ = rm.run(SMALL, jobs=jobs, backend=backend, quiet=True, keep_table=True)
        pd.testing.assert_frame_equal(small_run.table, other.table, check_exact=True)
        assert json.dumps(small_run.summary) == json.dumps(other.summary)


@pytest.mark.slow
@pytest.mark.cluster
def test_dask_cluster_gives_the_loky_results(small_run):
    other, _ = rm.run(SMALL, jobs=2, backend="dask", quiet=True, keep_table=True)
    pd.testing.assert_frame_equal(small_run.table, other.table, check_exact=True)
    assert json.dumps(small_run.summary) == json.dumps(other.summary)


def test_another_seed_gives_other_matrices(small_run):
    other, _ = rm.run(rm.Config(n_matrices=SMALL.n_matrices, seed=SMALL.seed + 1), jobs=1)
    assert other.summary["pearson_cen_mcc"] != small_run.summary["pearson_cen_mcc"]


# ---------------------------------------------------------------------------------------------
# Statistics, against independent computations on the whole table


def brute_force_pairs(f, g):
    """Concordant, discordant and tied pairs by looking at every pair."""
    df = np.sign(f[:, None] - f[None, :])
    dg = np.sign(g[:, None] - g[None, :])
    upper = np.triu(np.ones(df.shape, dtype=bool), 1)
    prod = (df * dg)[upper]
    return int((prod > 0).sum()), int((prod < 0).sum()), int((prod == 0).sum())


def test_streamed_statistics_equal_the_one_pass_values(small_run):
    table, s = small_run.table, small_run.summary
    K, cen, mcc, tmcc = (table[c].to_numpy() for c in ("K", "cen", "mcc", "tmcc"))
    fit = s["k_fit"]
    for suffix, k in (("", cenmcc.k_factor(K)), ("_fitted", cenmcc.k_factor(K, *fit_abc(fit)))):
        kcen = k * cen
        r = stats.pearsonr(tmcc, kcen).statistic
        assert s[f"pearson_tmcc_kcen{suffix}"] == pytest.approx(r, rel=1e-12)
        ratio = tmcc / kcen
        assert s[f"mean_ratio_tmcc_kcen{suffix}"] == pytest.approx(ratio.mean(), rel=1e-12)
        assert s[f"sd_ratio_tmcc_kcen{suffix}"] == pytest.approx(ratio.std(ddof=1), rel=1e-12)
        concordant, discordant, tied = brute_force_pairs(tmcc, kcen)
        assert s[f"consistency_tmcc_kcen{suffix}"] == concordant / (concordant + discordant)
        assert s[f"ties_tmcc_kcen{suffix}"] == tied
    assert s["pearson_cen_mcc"] == pytest.approx(stats.pearsonr(cen, mcc).statistic, rel=1e-12)
    concordant, discordant, tied = brute_force_pairs(cen, -mcc)
    assert s["consistency_cen_mcc"] == concordant / (concordant + discordant)


def fit_abc(fit):
    return fit["a"], fit["b"], fit["c"]


def test_empirical_k_per_dimension(small_run):
    table, per_k = small_run.table, small_run.per_k
    for row in per_k.itertuples():
        ratio = (table["tmcc"] / table["cen"])[table["K"] == row.K].to_numpy()
        assert row.n_matrices == ratio.size
        assert row.mean == pytest.approx(ratio.mean(), rel=1e-12)
        assert row.std == pytest.approx(ratio.std(ddof=1), rel=1e-12)
        assert row.sem == pytest.approx(ratio.std(ddof=1) / math.sqrt(ratio.size), rel=1e-12)
        assert row.mean_ratio_paper == pytest.approx(ratio.mean() / cenmcc.k_factor(row.K))


def test_fitted_k_is_the_iterative_weighted_least_squares_optimum(small_run):
    """The closed-form fit is the optimum an iterative nonlinear fit of (a, b, c) reaches."""
    s, per_k = small_run.summary, small_run.per_k
    K, y, sem = (per_k[c].to_numpy(float) for c in ("K", "mean", "sem"))
    (a, b, c), cov = optimize.curve_fit(
        lambda K, a, b, c: cenmcc.k_factor(K, a, b, c),
        K,
        y,
        p0=cenmcc.K_PAPER,
        sigma=sem,
        absolute_sigma=True,
        xtol=1e-14,
        ftol=1e-14,
    )
    se = np.sqrt(np.diag(cov))
    residual = (y - cenmcc.k_factor(K, a, b, c)) / sem
    fit = s["k_fit"]
    # b and c are strongly correlated (1/ln K and 1/ln² K are nearly collinear on 3..30), so
    # the iterative fit reaches the optimum to a small fraction of the standard errors, and its
    # covariance comes from a finite-difference Jacobian.
    np.testing.assert_array_less(np.abs([fit["a"] - a, fit["b"] - b, fit["c"] - c]), 1e-4 * se)
    np.testing.assert_allclose([fit["a_se"], fit["b_se"], fit["c_se"]], se, rtol=1e-4)
    assert fit["chi2_reduced"] == pytest.approx(residual @ residual / (len(K) - 3), rel=1e-6)


def test_intervals_contain_the_mean_and_match_the_standard_error(small_run):
    s = small_run.summary
    se = s["sd_ratio_tmcc_kcen"] / math.sqrt(s["n_matrices"])
    for kind in ("student", "percentile", "bca"):
        lo, hi = s[f"ci95_{kind}"]
        assert lo < s["mean_ratio_tmcc_kcen"] < hi
        # 95%: about ±1.96 se; the bootstrap's own error with 60 resamples is large.
        assert 2 * 1.2 * se < hi - lo < 2 * 2.8 * se


# ---------------------------------------------------------------------------------------------
# Command line and outputs


@pytest.mark.slow
def test_command_line_writes_every_output(tmp_path, capsys):
    argv = ["random-matrices", "--n", "800", "--resamples", "50", "--seed", "3", "--jobs", "1"]
    assert cli_main([*argv, "--chunk-size", "200", "--table", "--out", str(tmp_path)]) == 0
    out = tmp_path / "random_matrices"
    summary = json.loads((out / "summary.json").read_text())
    required = {
        *("n_matrices", "seed", "k_range", "pearson_cen_mcc", "pearson_tmcc_kcen"),
        *("consistency_tmcc_kcen", "consistency_cen_mcc", "ties_tmcc_kcen"),
        *("mean_ratio_tmcc_kcen", "ci95_student", "ci95_bca", "k_paper", "k_fit"),
        *("pearson_tmcc_kcen_fitted", "mean_ratio_tmcc_kcen_fitted", "standard_errors"),
    }
    assert required <= set(summary)
    assert not {"wall_seconds", "timing"} & set(summary)
    assert json.loads((out / "timing.json").read_text())["computation_seconds"] > 0
    assert (summary["n_matrices"], summary["seed"], summary["n_chunks"]) == (800, 3, 4)
    assert set(summary["k_fit"]) >= {"a", "b", "c", "a_se", "b_se", "c_se"}
    with np.load(out / "matrices.npz") as table:
        assert sorted(table.files) == ["K", "cen", "mcc", "tmcc"]
        assert table["K"].size == 800
    per_k = pd.read_csv(out / "k_per_dimension.csv")
    assert per_k["n_matrices"].sum() == 800
    for name in ("figure2", "k_per_dimension"):
        assert (out / f"{name}.png").stat().st_size > 0
        assert (out / f"{name}.pdf").stat().st_size > 0
    assert "mean tMCC/(k·CEN)" in capsys.readouterr().out
    assert not list(out.glob(".*.tmp"))


def test_the_table_is_opt_in(tmp_path):
    argv = ["random-matrices", "--n", "300", "--resamples", "40", "--jobs", "1", "--quiet"]
    assert cli_main([*argv, "--out", str(tmp_path)]) == 0
    assert not (tmp_path / "random_matrices" / "matrices.npz").exists()


WORKER_IMPORTS = """
import joblib
from experiments.random_matrices import Config, run

def loaded(_):
    import sys
    return sorted(m for m in ("pandas", "matplotlib", "scipy") if m in sys.modules)

run(Config(n_matrices=20_000, n_resamples=40), jobs=2, quiet=True)
print(sorted({m for ms in joblib.Parallel(n_jobs=2)(joblib.delayed(loaded)(i) for i in range(4))
              for m in ms}))
"""


@pytest.mark.slow
def test_the_workers_import_numpy_and_cenmcc_only():
    """A chunk needs numpy and cenmcc only (no pandas, matplotlib or scipy): small workers."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", WORKER_IMPORTS],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == "[]"


def test_a_run_of_fewer_matrices_than_the_moment_subgroups_runs(tmp_path):
    # issue 45 item 12: 10 matrices, fewer than the 40 strided parts of a run of one chunk
    argv = ["random-matrices", "--n", "10", "--jobs", "1", "--quiet", "--out", str(tmp_path)]
    assert cli_main(argv) == 0
    summary = json.loads((tmp_path / "random_matrices" / "summary.json").read_text())
    assert summary["n_matrices"] == 10
