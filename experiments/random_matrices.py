"""The 200,000 random confusion matrices: tMCC against k·CEN, the fitted k and Figure 2.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012), "Relationships
between CEN and MCC", check Eq. (3), ``tMCC ≈ k(K)·CEN``, on 200,000 random matrices of
dimension 3 to 30: every diagonal entry a uniform random integer in [1, 1000], every
off-diagonal entry a uniform random integer in [1, ⌊1000·ρ_i⌋] with ρ_i uniform in [0.01, 1].
They print a Pearson correlation of 0.9941477 between tMCC and k·CEN, a degree of consistency
of 1 - 10⁻⁷ with no ties, and a mean ratio tMCC/(k·CEN) of 1.000508 with the 95% bootstrap
Student interval (1.000328, 1.000711).

This module regenerates the matrices in fixed-size chunks, each with its own random stream, so
the results are bit-identical for any number of workers and any joblib backend (including a
dask.distributed cluster). A chunk is generated, measured and dropped; only one row per matrix
is kept (K, ρ, ACC, MCC, CEN, tMCC). The statistics are computed for the printed k and for k
refitted to the same data.

``python -m experiments random-matrices`` writes to ``figures/random_matrices/``:
``summary.json`` (every statistic, the printed values next to them, the timings),
``k_per_dimension.csv`` (the empirical k per K), ``figure2.png``/``.pdf`` (Figure 2),
``k_per_dimension.png``/``.pdf`` and the per-matrix table ``matrices_table.csv.gz`` (not in git).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import pandas as pd
from scipy.special import ndtr, ndtri

import cenmcc

from .cli import add_output_arguments, add_parallel_arguments, add_seed_argument
from .outputs import markdown_table, save_figure, write_json, write_table
from .parallel import chunk_sizes, map_tasks, spawn_seeds
from .paths import output_dir

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Workers import this module to run the chunks; matplotlib, scipy.optimize and scipy.stats, about
# 1.2 s of imports that only the parent needs, are imported where they are used.

NAME = "random_matrices"

#: The values printed by Jurman & Furlanello (2010), Sec. 2 (the journal version, Jurman,
#: Riccadonna & Furlanello 2012, prints the same ratio and interval and "about 0.994").
PRINTED = {
    "pearson_tmcc_kcen": 0.9941477,
    "consistency_tmcc_kcen": 1 - 1e-7,
    "ties_tmcc_kcen": 0,
    "mean_ratio_tmcc_kcen": 1.000508,
    "ci95_student": [1.000328, 1.000711],
}

#: Per-matrix measures, in the order of the table's columns after K and ρ.
METRICS = {
    "ACC": cenmcc.accuracy,
    "MCC": cenmcc.mcc,
    "CEN": cenmcc.cen,
    "tMCC": cenmcc.tmcc,
}


@dataclasses.dataclass(frozen=True)
class Config:
    """Every choice of the random-matrix experiment; the defaults are the papers' settings.

    Matrix i has ``K_i`` classes, drawn uniformly from the integers of ``k_range`` (both ends
    included; the papers say only "dimensions ranging from 3 to 30", and uniform per matrix is
    the natural reading), and a ratio ``ρ_i`` drawn uniformly from ``rho_range``. Its diagonal
    entries are uniform random integers in ``diagonal_range`` and its off-diagonal entries
    uniform random integers in ``[off_diagonal_min, ⌊off_diagonal_scale·ρ_i⌋]``, all independent
    and both ends included.

    Attributes
    ----------
    n_matrices : int
        Number of matrices (200,000 in the papers).
    k_range : tuple of int
        Smallest and largest number of classes K, inclusive; at least four values, so that
        the three constants of k(K) can be fitted with a degree of freedom left.
    diagonal_range : tuple of int
        Smallest and largest diagonal entry, inclusive.
    rho_range : tuple of float
        Interval of the uniform distribution of ρ.
    off_diagonal_scale : float
        The off-diagonal entries of matrix i are at most ``⌊off_diagonal_scale·ρ_i⌋``.
    off_diagonal_min : int
        Smallest off-diagonal entry (1 in the papers; at least 1, so CEN is never 0).
    chunk_size : int
        Matrices per chunk. Chunk j is drawn from its own stream (child j of
        ``numpy.random.SeedSequence(seed)``), so the matrices depend on the seed and the chunk
        size, never on the number of workers.
    seed : int
        Seed of the run.
    n_resamples : int
        Bootstrap resamples for the confidence intervals of the mean ratio.
    confidence_level : float
        Level of the two-sided bootstrap intervals.
    """

    n_matrices: int = 200_000
    k_range: tuple[int, int] = (3, 30)
    diagonal_range: tuple[int, int] = (1, 1000)
    rho_range: tuple[float, float] = (0.01, 1.0)
    off_diagonal_scale: float = 1000.0
    off_diagonal_min: int = 1
    chunk_size: int = 10_000
    seed: int = 0
    n_resamples: int = 999
    confidence_level: float = 0.95

    def __post_init__(self):
        k_min, k_max = self.k_range
        d_min, d_max = self.diagonal_range
        r_min, r_max = self.rho_range
        checks = [
            (self.n_matrices >= 3, f"n_matrices must be at least 3, got {self.n_matrices}"),
            (
                k_min >= 2 and k_min + 3 <= k_max,
                f"k_range must hold at least four numbers of classes >= 2, got {self.k_range}",
            ),
            (
                0 <= d_min <= d_max,
                f"diagonal_range must satisfy 0 <= low <= high, got {self.diagonal_range}",
            ),
            (
                0 < r_min <= r_max,
                f"rho_range must satisfy 0 < low <= high, got {self.rho_range}",
            ),
            (
                self.off_diagonal_min >= 1,
                f"off_diagonal_min must be at least 1, got {self.off_diagonal_min}",
            ),
            (
                math.floor(self.off_diagonal_scale * r_min) >= self.off_diagonal_min,
                "floor(off_diagonal_scale * rho_range[0]) must be at least off_diagonal_min, got "
                f"floor({self.off_diagonal_scale} * {r_min}) < {self.off_diagonal_min}",
            ),
            (self.chunk_size >= 1, f"chunk_size must be positive, got {self.chunk_size}"),
            (self.n_resamples >= 2, f"n_resamples must be at least 2, got {self.n_resamples}"),
            (
                0 < self.confidence_level < 1,
                f"confidence_level must be in (0, 1), got {self.confidence_level}",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)

    @property
    def n_chunks(self) -> int:
        return len(chunk_sizes(self.n_matrices, self.chunk_size))


# --------------------------------------------------------------------------------------------
# The generator


def draw_parameters(config: Config, size: int, rng: np.random.Generator):
    """Draw the dimension ``K_i`` and the ratio ``ρ_i`` of ``size`` matrices.

    Returns
    -------
    K : ndarray of int64, shape (size,)
        Uniform on the integers ``k_range[0] .. k_range[1]``, both included.
    rho : ndarray of float64, shape (size,)
        Uniform on ``rho_range``.
    """
    n_classes = rng.integers(config.k_range[0], config.k_range[1], size=size, endpoint=True)
    rho = rng.uniform(config.rho_range[0], config.rho_range[1], size=size)
    return n_classes, rho


def draw_matrices(config: Config, K: int, rho, rng: np.random.Generator) -> np.ndarray:
    """Draw one ``K x K`` confusion matrix for each ratio in ``rho``, as the papers describe.

    Parameters
    ----------
    config : Config
    K : int
        Number of classes of every matrix of the stack.
    rho : array_like of float, shape (m,)
        The ratio ``ρ_i`` of each matrix.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64, shape (m, K, K)
        Diagonal entries uniform in ``diagonal_range``, off-diagonal entries of matrix i uniform
        in ``[off_diagonal_min, ⌊off_diagonal_scale·ρ_i⌋]``; every entry independent, drawn
        exactly (``Generator.integers``) in one call with a per-cell upper bound.
    """
    rho = np.asarray(rho, dtype=np.float64)
    off_max = np.floor(config.off_diagonal_scale * rho).astype(np.int64)
    diagonal = np.eye(K, dtype=bool)
    low = np.where(diagonal, config.diagonal_range[0], config.off_diagonal_min)
    high = np.where(diagonal, config.diagonal_range[1], off_max[:, None, None])
    return rng.integers(low, high, endpoint=True)


class Chunk(NamedTuple):
    """One task: ``size`` matrices drawn from the stream ``seed``."""

    config: Config
    size: int
    seed: np.random.SeedSequence


def measure_chunk(chunk: Chunk) -> dict[str, np.ndarray]:
    """Generate one chunk and measure it; the matrices are dropped, one row per matrix is kept.

    The dimensions and ratios of the whole chunk are drawn first, then one stack per distinct K
    (at most ``k_range[1] - k_range[0] + 1`` stacks), in increasing K.

    Returns
    -------
    dict of ndarray, each of shape (size,)
        ``K``, ``rho`` and the values of :data:`METRICS`, in the order the matrices were drawn.
    """
    rng = np.random.default_rng(chunk.seed)
    n_classes, rho = draw_parameters(chunk.config, chunk.size, rng)
    values = {name: np.empty(chunk.size) for name in METRICS}
    for K in np.unique(n_classes):
        rows = np.flatnonzero(n_classes == K)
        # Validate the stack and compute its marginals once for all the metrics.
        C = cenmcc.Counts(draw_matrices(chunk.config, int(K), rho[rows], rng))
        for name, metric in METRICS.items():
            values[name][rows] = metric(C)
    return {"K": n_classes, "rho": rho, **values}


def simulate(
    config: Config,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> pd.DataFrame:
    """Generate and measure every matrix, chunk by chunk, in parallel.

    Parameters
    ----------
    config : Config
    jobs, backend, scheduler, quiet
        As in :func:`experiments.parallel.map_tasks`; none of them changes the result.

    Returns
    -------
    pandas.DataFrame
        One row per matrix, in chunk order: ``K``, ``rho``, ``ACC``, ``MCC``, ``CEN``, ``tMCC``.
    """
    seeds = spawn_seeds(config.seed, config.n_chunks)
    sizes = chunk_sizes(config.n_matrices, config.chunk_size)
    parts = map_tasks(
        measure_chunk,
        [Chunk(config, size, seed) for size, seed in zip(sizes, seeds, strict=True)],
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        desc="random matrices",
        quiet=quiet,
    )
    # Column by column, releasing each chunk's array once it is copied: the peak is the table
    # plus one column, not twice the table.
    columns = {c: np.concatenate([p.pop(c) for p in parts]) for c in list(parts[0])}
    return pd.DataFrame(columns, copy=False)


# --------------------------------------------------------------------------------------------
# Bootstrap of a mean


class BootstrapMean(NamedTuple):
    """Bootstrap confidence intervals of the means of one or more series of the same length.

    Attributes
    ----------
    mean : ndarray, shape (m,)
        The sample means.
    student : ndarray, shape (m, 2)
        Bootstrap-t (studentized) interval.
    bca : ndarray, shape (m, 2)
        Bias-corrected and accelerated interval.
    distribution : ndarray, shape (m, n_resamples)
        The resampled means.
    t_distribution : ndarray, shape (m, n_resamples)
        The resampled Student statistics ``(mean* - mean) / (sd* / sqrt(n))``.
    """

    mean: np.ndarray
    student: np.ndarray
    bca: np.ndarray
    distribution: np.ndarray
    t_distribution: np.ndarray


def _resample_moments(task) -> tuple[np.ndarray, np.ndarray]:
    """Sums and sums of squares of the centred series ``y`` over each resample of a block.

    Each resample is turned into counts (how often each observation was drawn), so the sums are
    dot products of the counts with ``y`` and ``y²``: one scattered write per draw, where
    gathering the drawn values would cost one cache miss per draw and per series.
    """
    y, seeds = task
    n = y.shape[-1]
    moments = np.concatenate([y, y * y])
    out = np.empty((len(moments), len(seeds)))
    for r, seed in enumerate(seeds):
        drawn = np.random.default_rng(seed).integers(0, n, size=n)
        counts = np.bincount(drawn, minlength=n).astype(np.float64)
        out[:, r] = np.einsum("ki,i->k", moments, counts)  # not BLAS: same sums on any machine
    return out[: len(y)], out[len(y) :]


def student_interval(x, t_distribution, confidence_level: float = 0.95) -> np.ndarray:
    """Bootstrap-t interval of the mean from resampled Student statistics.

    With ``se = sd(x) / sqrt(n)`` (``ddof=1``) and ``t*`` the resampled
    ``(mean* - mean) / (sd* / sqrt(n))``, the interval is
    ``(mean - q_{1-α/2}(t*) se, mean - q_{α/2}(t*) se)``, quantiles by ``numpy.quantile``
    (linear interpolation); Efron & Tibshirani (1993), *An Introduction to the Bootstrap*,
    Ch. 12.

    Parameters
    ----------
    x : array_like, shape (..., n)
    t_distribution : array_like, shape (..., n_resamples)
    confidence_level : float

    Returns
    -------
    ndarray, shape (..., 2)
    """
    x = np.asarray(x, dtype=np.float64)
    alpha = (1 - confidence_level) / 2
    q = np.quantile(t_distribution, [1 - alpha, alpha], axis=-1)
    se = x.std(axis=-1, ddof=1) / math.sqrt(x.shape[-1])
    return np.stack(np.mean(x, axis=-1) - q * se, axis=-1)


def bca_interval(x, distribution, confidence_level: float = 0.95) -> np.ndarray:
    """BCa interval of the mean from its bootstrap distribution, as ``scipy.stats.bootstrap``.

    The bias correction is ``z0 = Φ⁻¹(p)`` with ``p`` the fraction of resampled means below the
    sample mean (ties counted one half); the acceleration is the jackknife skewness
    ``a = Σ U_i³ / (6 (Σ U_i²)^{3/2})``, where for the mean the jackknife influence values
    ``U_i = (n-1)(mean_(·) - mean_(i))`` are exactly ``x_i - mean(x)``, so the n leave-one-out
    means (about n² operations in ``scipy.stats.bootstrap``) are not needed. The interval ends
    are the ``Φ(z0 + (z0 + z_α) / (1 - a (z0 + z_α)))`` quantiles of the distribution
    (``numpy.quantile``, linear interpolation); Efron & Tibshirani (1993), *An Introduction to
    the Bootstrap*, Ch. 14.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        The observations of one or m series.
    distribution : array_like, shape (n_resamples,) or (m, n_resamples)
        Resampled means of each series.
    confidence_level : float

    Returns
    -------
    ndarray, shape (2,) or (m, 2)
    """
    x = np.atleast_2d(np.asarray(x, dtype=np.float64))
    dist = np.atleast_2d(np.asarray(distribution, dtype=np.float64))
    theta = np.mean(x, axis=-1, keepdims=True)
    below = np.count_nonzero(dist < theta, axis=-1) + np.count_nonzero(dist <= theta, axis=-1)
    z0 = ndtri(below / (2 * dist.shape[-1]))
    u = x - theta
    accel = np.sum(u**3, axis=-1) / (6 * np.sum(u**2, axis=-1) ** 1.5)
    z = ndtri(np.array([(1 - confidence_level) / 2, (1 + confidence_level) / 2]))[:, None]
    levels = ndtr(z0 + (z0 + z) / (1 - accel * (z0 + z)))  # shape (2, m)
    ci = np.array([np.quantile(d, lv) for d, lv in zip(dist, levels.T, strict=True)])
    return ci if np.ndim(distribution) > 1 else ci[0]


def bootstrap_mean(
    x,
    *,
    n_resamples: int,
    seed: np.random.SeedSequence | int,
    confidence_level: float = 0.95,
    block: int = 250,
    **parallel,
) -> BootstrapMean:
    """Nonparametric bootstrap of the mean of each series of ``x``, with shared resamples.

    Resample r draws n indices uniformly with replacement (one ``Generator.integers`` call)
    from its own stream, child r of ``seed``; every series of ``x`` is resampled with the same
    indices (a paired bootstrap). The result is the same for any ``jobs`` and ``block``.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        Observations (at least two distinct values per series).
    n_resamples : int
    seed : int or numpy.random.SeedSequence
    confidence_level : float, default 0.95
    block : int, default 250
        Resamples per parallel task: few large tasks, since each task carries the whole
        series to its worker (6.4 MB at paper scale); the result does not depend on it.
    **parallel
        ``jobs``, ``backend``, ``scheduler``, ``quiet`` of
        :func:`experiments.parallel.map_tasks`, which runs the blocks.

    Returns
    -------
    BootstrapMean
        With one row per series (m = 1 for a 1-D ``x``).
    """
    x = np.atleast_2d(np.asarray(x, dtype=np.float64))
    n = x.shape[-1]
    if x.ndim != 2 or n < 2 or np.any(np.ptp(x, axis=-1) == 0):
        raise ValueError(
            f"x must be one or more series of at least two distinct values, got shape {x.shape}"
        )
    if not isinstance(seed, np.random.SeedSequence):
        seed = np.random.SeedSequence(seed)
    seeds = seed.spawn(n_resamples)
    mean = x.mean(axis=-1)
    y = x - mean[:, None]
    parts = map_tasks(
        _resample_moments,
        [(y, seeds[i : i + block]) for i in range(0, n_resamples, block)],
        desc="bootstrap",
        **({"jobs": 1} | parallel),
    )
    dev = np.concatenate([p[0] for p in parts], axis=-1) / n  # mean* - mean
    squares = np.concatenate([p[1] for p in parts], axis=-1)
    sd = np.sqrt((squares - n * dev**2) / (n - 1))
    t_distribution = dev / (sd / math.sqrt(n))
    distribution = mean[:, None] + dev
    return BootstrapMean(
        mean=mean,
        student=student_interval(x, t_distribution, confidence_level),
        bca=bca_interval(x, distribution, confidence_level),
        distribution=distribution,
        t_distribution=t_distribution,
    )


# --------------------------------------------------------------------------------------------
# Statistics


def empirical_k(table: pd.DataFrame) -> pd.DataFrame:
    """The empirical k per dimension: mean and spread of tMCC/CEN for each K.

    Returns
    -------
    pandas.DataFrame
        One row per K: ``K``, ``n_matrices``, ``mean``, ``std`` (``ddof=1``), ``sem``
        (``std / sqrt(n)``), ``q025`` and ``q975`` (2.5% and 97.5% quantiles) of tMCC/CEN.
    """
    ratio = (table["tMCC"] / table["CEN"]).groupby(table["K"])
    out = ratio.agg(n_matrices="size", mean="mean", std="std").reset_index()
    out["sem"] = out["std"] / np.sqrt(out["n_matrices"])
    out["q025"] = ratio.quantile(0.025).to_numpy()
    out["q975"] = ratio.quantile(0.975).to_numpy()
    return out


def fit_k(per_k: pd.DataFrame) -> dict:
    """Fit ``k(K) = a (1 + b / ln K + c / ln² K)`` to the per-dimension mean of tMCC/CEN.

    Objective: weighted least squares of the per-K means of tMCC/CEN (from
    :func:`empirical_k`), each weighted by its inverse squared standard error. The papers'
    summary is the mean of tMCC/(k·CEN), and k is constant within a dimension, so this fit
    brings that mean as close to 1 as three constants allow in every dimension, each weighted
    by the precision of its mean; a least-squares fit of tMCC - k·CEN over the matrices would
    instead weight them by their CEN. ``scipy.optimize.curve_fit`` with
    ``absolute_sigma=True``: the standard errors of the means are sampling errors, known well
    (thousands of matrices per dimension at paper scale), so the covariance is not rescaled;
    ``chi2_reduced`` checks the fit (about 1 when the curve fits the means within their
    errors). The tolerances are tightened from the defaults (1.5e-8) so that the optimum is
    the weighted least-squares solution (the model is linear in ``a``, ``a·b``, ``a·c``).

    Parameters
    ----------
    per_k : pandas.DataFrame
        The output of :func:`empirical_k`; dimensions with fewer than two matrices are left
        out.

    Returns
    -------
    dict
        ``a``, ``b``, ``c``, their standard errors ``a_se``, ``b_se``, ``c_se``,
        ``chi2_reduced`` and ``n_dimensions``.
    """
    from scipy.optimize import curve_fit

    use = per_k[(per_k["n_matrices"] >= 2) & (per_k["sem"] > 0)]
    if len(use) < 4:
        raise ValueError(
            f"fitting k(K) needs at least 4 dimensions with 2 or more matrices, got {len(use)}"
        )
    K = use["K"].to_numpy(dtype=np.float64)
    mean, sem = use["mean"].to_numpy(), use["sem"].to_numpy()
    params, cov = curve_fit(
        lambda K, a, b, c: cenmcc.k_factor(K, a, b, c),
        K,
        mean,
        p0=cenmcc.K_PAPER,
        sigma=sem,
        absolute_sigma=True,
        xtol=1e-14,
        ftol=1e-14,
    )
    a, b, c = (float(p) for p in params)
    a_se, b_se, c_se = (float(s) for s in np.sqrt(np.diag(cov)))
    residual = (mean - cenmcc.k_factor(K, a, b, c)) / sem
    return {
        "a": a,
        "b": b,
        "c": c,
        "a_se": a_se,
        "b_se": b_se,
        "c_se": c_se,
        "chi2_reduced": float(residual @ residual / (len(use) - 3)),
        "n_dimensions": len(use),
    }


def summarize(table: pd.DataFrame, config: Config, **parallel) -> dict:
    """Every statistic of the experiment, for the printed k and for the refitted k.

    Pearson correlations (``numpy.corrcoef``); degrees of consistency from
    :func:`cenmcc.pair_counts` (exact float equality decides ties; ``ties_*`` counts the pairs
    tied in either measure, ``pairs_*`` gives every count); the mean of tMCC/(k·CEN)
    with its bootstrap-t and BCa intervals (:func:`bootstrap_mean`, both series resampled with
    the same indices). The bootstrap stream is child ``n_chunks`` of
    ``numpy.random.SeedSequence(seed)``: chunks use children ``0 .. n_chunks - 1``.
    ``parallel`` (``jobs``, ``backend``, ``scheduler``, ``quiet``) runs the bootstrap.

    Returns
    -------
    dict
        The keys of ``summary.json`` (without the timings).
    """
    K = table["K"].to_numpy()
    cen, mcc, tmcc = (table[c].to_numpy() for c in ("CEN", "MCC", "tMCC"))
    fit = fit_k(empirical_k(table))
    kcen = {
        "": cenmcc.k_factor(K) * cen,
        "_fitted": cenmcc.k_factor(K, fit["a"], fit["b"], fit["c"]) * cen,
    }
    compared = {"cen_mcc": (cen, -mcc)} | {f"tmcc_kcen{s}": (tmcc, g) for s, g in kcen.items()}
    # The pair counts run in a thread of this process while the bootstrap runs in the workers.
    with ThreadPoolExecutor(max_workers=1) as thread:
        pending = thread.submit(lambda: {k: cenmcc.pair_counts(*fg) for k, fg in compared.items()})
        boot = bootstrap_mean(
            np.stack([tmcc / g for g in kcen.values()]),
            n_resamples=config.n_resamples,
            seed=spawn_seeds(config.seed, config.n_chunks + 1)[-1],
            confidence_level=config.confidence_level,
            **parallel,
        )
        pairs = pending.result()
    summary = {
        "n_matrices": config.n_matrices,
        "seed": config.seed,
        "k_range": list(config.k_range),
        "config": dataclasses.asdict(config),
        "n_chunks": config.n_chunks,
        "pearson_cen_mcc": float(np.corrcoef(cen, mcc)[0, 1]),
    }
    for key, counts in pairs.items():
        summary |= {
            f"consistency_{key}": counts.concordant / (counts.concordant + counts.discordant),
            f"ties_{key}": counts.f_only + counts.g_only + counts.both_tied,
            f"pairs_{key}": counts._asdict(),
        }
    for i, (suffix, g) in enumerate(kcen.items()):
        summary |= {
            f"pearson_tmcc_kcen{suffix}": float(np.corrcoef(tmcc, g)[0, 1]),
            f"mean_ratio_tmcc_kcen{suffix}": float(boot.mean[i]),
            f"ci95_student{suffix}": boot.student[i].tolist(),
            f"ci95_bca{suffix}": boot.bca[i].tolist(),
        }
    summary |= {
        "k_paper": dict(zip("abc", cenmcc.K_PAPER, strict=True)),
        "k_fit": fit,
        "bootstrap": {
            "n_resamples": config.n_resamples,
            "confidence_level": config.confidence_level,
            "student": (
                "bootstrap-t: quantiles of the resampled (mean* - mean)/(sd*/sqrt(n)), sd with "
                "ddof=1, interval mean - q[1-a/2]*se .. mean - q[a/2]*se, se = sd/sqrt(n)"
            ),
            "bca": "BCa as scipy.stats.bootstrap, jackknife acceleration in closed form",
            "quantiles": "numpy.quantile, linear interpolation",
            "stream": "child n_chunks of SeedSequence(seed); resample r uses its child r",
        },
        "ties_rule": "exact equality of the float64 values; ties_* = pairs tied in either",
        "printed": PRINTED,
    }
    return summary


def run(
    config: Config | None = None,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> tuple[pd.DataFrame, dict]:
    """The whole experiment: generate, measure, summarize; timed.

    Parameters
    ----------
    config : Config, optional
        Defaults to the papers' settings, ``Config()``.
    jobs, backend, scheduler, quiet
        As in :func:`experiments.parallel.map_tasks`; they change the wall time only.

    Returns
    -------
    table : pandas.DataFrame
        One row per matrix (see :func:`simulate`).
    summary : dict
        :func:`summarize` plus ``wall_seconds`` (generation, metrics and statistics) and its
        split in ``timing``.
    """
    config = config or Config()
    start = time.perf_counter()
    table = simulate(config, jobs=jobs, backend=backend, scheduler=scheduler, quiet=quiet)
    generated = time.perf_counter()
    summary = summarize(table, config, jobs=jobs, backend=backend, scheduler=scheduler, quiet=quiet)
    end = time.perf_counter()
    summary["wall_seconds"] = end - start
    summary["timing"] = {
        "generation_and_metrics_seconds": generated - start,
        "statistics_seconds": end - generated,
        "jobs": jobs,
        "backend": backend,
    }
    return table, summary


# --------------------------------------------------------------------------------------------
# Figures


def plot(table: pd.DataFrame) -> Figure:
    """Figure 2 of Jurman et al. (2012): CEN against MCC, and k·CEN against tMCC.

    One dot per matrix, coloured by its number of classes, drawn in a fixed random order (so no
    dimension hides the others) and rasterized; k is the printed one.
    """
    from . import plotting

    order = np.random.default_rng(0).permutation(len(table))
    K = table["K"].to_numpy()[order]
    cen = table["CEN"].to_numpy()[order]
    panels = [
        (table["MCC"].to_numpy()[order], cen, "MCC", "CEN"),
        (table["tMCC"].to_numpy()[order], cenmcc.k_factor(K) * cen, "tMCC", "k·CEN"),
    ]
    fig, axes = plotting.subplots(1, 2)
    with plotting.style():
        for ax, (x, y, xlabel, ylabel), letter in zip(axes, panels, "ab", strict=True):
            dots = ax.scatter(
                x, y, c=K, s=0.5, linewidths=0, vmin=K.min(), vmax=K.max(), rasterized=True
            )
            ax.set(xlabel=xlabel, ylabel=ylabel, title=f"({letter}) {ylabel} vs {xlabel}")
        lo, hi = axes[1].get_xlim()
        axes[1].plot([lo, hi], [lo, hi], color="0.3", lw=0.8, ls="--", label="k·CEN = tMCC")
        axes[1].legend(loc="upper left")
        fig.colorbar(dots, ax=axes, label="K (number of classes)")
    return fig


def k_table(table: pd.DataFrame, summary: dict) -> pd.DataFrame:
    """:func:`empirical_k` with the printed and the fitted k(K) and the per-K mean ratios."""
    out = empirical_k(table)
    fit = summary["k_fit"]
    out["k_paper"] = cenmcc.k_factor(out["K"].to_numpy())
    out["k_fit"] = cenmcc.k_factor(out["K"].to_numpy(), fit["a"], fit["b"], fit["c"])
    out["mean_ratio_paper"] = out["mean"] / out["k_paper"]
    out["mean_ratio_fit"] = out["mean"] / out["k_fit"]
    return out


def plot_k(per_k: pd.DataFrame, summary: dict) -> Figure:
    """The empirical k per dimension (mean ± 1 SD of tMCC/CEN), the printed and the fitted k."""
    from . import plotting

    fit = summary["k_fit"]
    grid = np.linspace(per_k["K"].min(), per_k["K"].max(), 300)
    fig, ax = plotting.subplots(width=5.5)
    with plotting.style():
        ax.errorbar(
            per_k["K"],
            per_k["mean"],
            yerr=per_k["std"],
            fmt="o",
            ms=3,
            capsize=2,
            label="tMCC/CEN, mean ± 1 SD",
        )
        ax.plot(grid, cenmcc.k_factor(grid), label="k(K), printed constants")
        ax.plot(
            grid,
            cenmcc.k_factor(grid, fit["a"], fit["b"], fit["c"]),
            ls="--",
            label=f"k(K) fitted: a={fit['a']:.4f}, b={fit['b']:.4f}, c={fit['c']:.4f}",
        )
        ax.set(xlabel="K (number of classes)", ylabel="k", title="The constant k of Eq. (3)")
        ax.legend()
    return fig


# --------------------------------------------------------------------------------------------
# Command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Config()
    parser.add_argument("--n", type=int, default=defaults.n_matrices, help="number of matrices")
    parser.add_argument(
        "--resamples", type=int, default=defaults.n_resamples, help="bootstrap resamples"
    )
    add_seed_argument(parser, default=defaults.seed)
    add_parallel_arguments(parser)
    add_output_arguments(parser)


def report(summary: dict) -> pd.DataFrame:
    """The measured statistics next to the printed ones."""
    rows = [
        ("pearson_tmcc_kcen", "r(tMCC, k·CEN)"),
        ("consistency_tmcc_kcen", "consistency(tMCC, k·CEN)"),
        ("ties_tmcc_kcen", "tied pairs (tMCC, k·CEN)"),
        ("mean_ratio_tmcc_kcen", "mean tMCC/(k·CEN)"),
        ("ci95_student", "95% bootstrap-t interval"),
        ("ci95_bca", "95% BCa interval"),
    ]

    def show(value):
        if isinstance(value, list):
            return "(" + ", ".join(f"{v:.7g}" for v in value) + ")"
        return f"{value:.10g}" if isinstance(value, float) else str(value)

    return pd.DataFrame(
        [
            {
                "statistic": label,
                "printed": show(PRINTED[key]) if key in PRINTED else "",
                "measured (printed k)": show(summary[key]),
                "measured (fitted k)": show(summary[key + "_fitted"]),
            }
            for key, label in rows
        ]
    )


def main(args: argparse.Namespace) -> int:
    """Run at the command line's settings, write every output (the summary last), report."""
    from . import plotting

    config = Config(n_matrices=args.n, seed=args.seed, n_resamples=args.resamples)
    out = output_dir(args.out, NAME)
    # The summary marks a complete run: never leave a stale one next to new outputs.
    (out / "summary.json").unlink(missing_ok=True)
    table, summary = run(
        config, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, quiet=args.quiet
    )
    per_k = k_table(table, summary)
    write_table(out / "matrices_table.csv.gz", table)
    write_table(out / "k_per_dimension.csv", per_k)
    for name, fig in (("figure2", plot(table)), ("k_per_dimension", plot_k(per_k, summary))):
        for suffix in (".png", ".pdf"):
            save_figure(fig, out / f"{name}{suffix}")
        plotting.close(fig)
    write_json(out / "summary.json", summary)
    print(markdown_table(report(summary)))
    fit = summary["k_fit"]
    print(
        f"fitted k: a={fit['a']:.5f}±{fit['a_se']:.5f}, b={fit['b']:.5f}±{fit['b_se']:.5f}, "
        f"c={fit['c']:.5f}±{fit['c_se']:.5f}; {summary['wall_seconds']:.2f} s; outputs in {out}"
    )
    return 0
