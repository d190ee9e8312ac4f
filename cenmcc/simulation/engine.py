"""Simulations of CEN against MCC on any generator of confusion matrices, streamed in chunks.

A :class:`Simulation` names a generator ``generator(rng, size) -> stacks`` and how many matrices
to draw from it. :func:`run` draws them in chunks of ``chunk_size``, chunk j from its own stream
(child j of ``numpy.random.SeedSequence(seed)``), measures each chunk in a worker and reduces it
to mergeable statistics (:mod:`cenmcc.simulation.streaming`): per number of classes K, the
moments of CEN, MCC, tMCC and tMCC/CEN and a Poisson bootstrap of tMCC/CEN; 2-D histograms for the
figures; the chunk's own pair counts. Per matrix only what the exact degree of consistency
needs is kept (K, CEN, MCC and tMCC: 28 bytes), so memory grows by 28 bytes a matrix and
never by the chunks' matrices; the workers hold one chunk at a time.

From these, :func:`summarize` gives every statistic of Jurman et al.'s random-matrix study for
the printed k(K) and for k refitted to the run: Pearson correlations, exact degrees of
consistency, the mean of tMCC/(k·CEN) with bootstrap-t, percentile and BCa intervals, the
empirical k per K and its fit, and a standard error for each headline statistic from the
spread of the chunks (independent replicates). Everything is bit-identical for any number of
workers, any backend and any dask scheduler.

The README's "Running at scale" shows a simulation of a user's own generator.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

import cenmcc

from . import pairs
from .allocator import reuse_freed_memory
from .parallel import chunk_sizes, iter_tasks, spawn_seeds
from .streaming import (
    Histogram2D,
    Moments,
    OrderedReducer,
    PoissonBootstrap,
    combine,
    merge_keyed,
    poisson_weights,
    random_blocks,
)

if TYPE_CHECKING:
    import pandas as pd

#: The per-matrix measures every simulation computes, and the columns of :attr:`Group.moments`.
MEASURES = ("CEN", "MCC", "tMCC")

#: Chunks whose own degrees of consistency are counted, as replicates for their standard
#: errors (the other statistics of every chunk are replicates; counting pairs is dearer).
CONSISTENCY_REPLICATES = 64

#: Grids of the two density panels (the values of Figure 2 always fall in them for K >= 2:
#: MCC in [-1, 1], CEN <= 2/(e ln 2) < 1.07; tMCC and k·CEN of realistic matrices below 1.3).
HISTOGRAMS = {
    "mcc_cen": ((-1.0, 1.0), (0.0, 1.1)),
    "tmcc_kcen": ((0.0, 1.3), (0.0, 1.3)),
}


def standard_measures(m: cenmcc.Counts) -> dict[str, np.ndarray]:
    """CEN, MCC and tMCC (Eq. 3 as in :func:`cenmcc.tmcc`) and accuracy of a validated stack."""
    return {
        "CEN": cenmcc.cen(m),
        "MCC": cenmcc.mcc(m),
        "tMCC": cenmcc.tmcc(m),
        "ACC": cenmcc.accuracy(m),
    }


@dataclasses.dataclass(frozen=True)
class Simulation:
    """A simulation: a generator of confusion matrices and how to measure and summarize them.

    Attributes
    ----------
    generator : callable
        ``generator(rng, size)`` returns ``size`` confusion matrices drawn with the
        ``numpy.random.Generator`` ``rng``: one array of shape ``(size, K, K)``, or an iterable
        of arrays ``(m_i, K_i, K_i)`` with ``Σ m_i = size`` (one per number of classes, say; a
        generator that yields them keeps one stack at a time in the worker's memory).
        Non-negative integer (or finite float) counts, rows = true class. It runs in the
        workers, so it must be picklable (a module-level function, or any function when the
        backend pickles with cloudpickle, as loky and dask do).
    n_matrices : int
        Number of matrices.
    seed : int
        Seed of the run.
    chunk_size : int
        Matrices per chunk (a chunk is one task; its matrices live only in its worker).
    n_resamples : int
        Poisson-bootstrap resamples of the mean of tMCC/(k·CEN).
    confidence_level : float
        Level of the two-sided intervals.
    bootstrap_block : int
        Matrices that share a bootstrap weight (dealt at random into blocks in each chunk);
        smaller in runs of fewer than 1,000 blocks (:attr:`block`).
    k : callable
        ``k(K)``, the printed constant of Eq. (3) by default (:func:`cenmcc.k_factor`).
    measures : callable
        ``measures(counts)`` of a :class:`cenmcc.Counts` returns at least CEN, MCC and tMCC
        (:func:`standard_measures` by default; other readings of the papers pass their own).
    histogram_bins : int
        Cells per axis of the density panels.
    keep_table : bool
        Keep every measure of every matrix (``Result.table``), not only what the statistics
        need.
    """

    generator: Callable[[np.random.Generator, int], np.ndarray | Iterable[np.ndarray]]
    n_matrices: int
    seed: int = 0
    chunk_size: int = 10_000
    n_resamples: int = 999
    confidence_level: float = 0.95
    bootstrap_block: int = 100
    k: Callable = cenmcc.k_factor
    measures: Callable[[cenmcc.Counts], dict] = standard_measures
    histogram_bins: int = 200
    keep_table: bool = False

    def __post_init__(self):
        integers = {
            "n_matrices": (self.n_matrices, 3),
            "seed": (self.seed, 0),
            "chunk_size": (self.chunk_size, 1),
            "n_resamples": (self.n_resamples, 2),
            "bootstrap_block": (self.bootstrap_block, 1),
            "histogram_bins": (self.histogram_bins, 1),
        }
        for name, (value, low) in integers.items():
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise TypeError(f"{name} must be an integer, got {value!r}")
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if not 0 < self.confidence_level < 1:
            raise ValueError(f"confidence_level must be in (0, 1), got {self.confidence_level}")
        if not callable(self.generator):
            raise TypeError(f"generator must be callable, got {self.generator!r}")

    @property
    def n_chunks(self) -> int:
        return len(chunk_sizes(self.n_matrices, self.chunk_size))

    @property
    def block(self) -> int:
        """Matrices per bootstrap block: ``bootstrap_block``, but at least 1,000 blocks a run."""
        return max(1, min(self.bootstrap_block, self.n_matrices // 1000))


# --------------------------------------------------------------------------------------------
# One chunk, in a worker


class Group(NamedTuple):
    """The statistics of the matrices of one number of classes K (merged over chunks).

    Attributes
    ----------
    moments : Moments
        Of the columns CEN, MCC, tMCC (:data:`MEASURES`) over every matrix.
    ratio : Moments
        Of tMCC/CEN over the matrices with CEN > 0.
    bootstrap : PoissonBootstrap
        Of ``tMCC/CEN - k(K)`` over the same matrices.
    """

    moments: Moments
    ratio: Moments
    bootstrap: PoissonBootstrap

    def merge(self, other: Group) -> Group:
        return Group(*(a.merge(b) for a, b in zip(self, other, strict=True)))


class ChunkResult(NamedTuple):
    """What one chunk leaves: mergeable statistics, and the few per-matrix values kept.

    Attributes
    ----------
    groups : dict of int to Group
        Per number of classes, increasing.
    histograms : dict of str to Histogram2D
        ``mcc_cen`` (MCC, CEN) and ``tmcc_kcen`` (tMCC, k·CEN), on the grids of
        :data:`HISTOGRAMS`.
    batch : ndarray, shape (5,)
        The chunk's own r(CEN, MCC), r(tMCC, k·CEN), mean tMCC/(k·CEN), and degrees of
        consistency of (CEN, -MCC) and (tMCC, k·CEN): one independent replicate of each.
    columns : dict of str to ndarray
        Per matrix: K, CEN, MCC, tMCC (and every measure with ``keep_table``).
    """

    groups: dict
    histograms: dict
    batch: np.ndarray
    columns: dict


class Chunk(NamedTuple):
    """One task: chunk ``index`` of ``size`` matrices of ``simulation``, and its streams."""

    simulation: Simulation
    index: int
    size: int
    seed: np.random.SeedSequence
    bootstrap_seed: np.random.SeedSequence


def _stacks(chunk: Chunk) -> Iterator[np.ndarray]:
    """The generator's matrices for one chunk, a stack at a time, checked: each problem names
    the chunk. A generator that yields its stacks lazily keeps one of them in memory at a time.
    """
    where = f"generator output of chunk {chunk.index}"
    out = chunk.simulation.generator(np.random.default_rng(chunk.seed), chunk.size)
    total = 0
    for i, stack in enumerate([out] if isinstance(out, np.ndarray) else out):
        stack = np.asarray(stack)
        if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] < 2:
            raise ValueError(
                f"{where}: stack {i} has shape {stack.shape}, expected (m, K, K) with K >= 2"
            )
        total += stack.shape[0]
        if total > chunk.size:
            raise ValueError(f"{where}: more than the {chunk.size} matrices expected")
        yield stack
    if total != chunk.size:
        raise ValueError(f"{where}: {total} matrices, expected {chunk.size}")


def measure_chunk(chunk: Chunk) -> ChunkResult:
    """Draw one chunk, measure it, and reduce it (runs in a worker).

    Raises
    ------
    ValueError, TypeError
        If the generator's output is not a stack of valid confusion matrices of the expected
        number, naming the chunk and the problem.
    """
    reuse_freed_memory()
    sim = chunk.simulation
    stacks = _stacks(chunk)
    boot_rng = np.random.default_rng(chunk.bootstrap_seed)
    blocks = random_blocks(boot_rng, chunk.size, sim.block)
    weights = poisson_weights(boot_rng, sim.n_resamples, -(-chunk.size // sim.block))
    parts: list[tuple[int, Moments, Moments]] = []
    series: list[tuple[np.ndarray, np.ndarray]] = []
    columns: dict[str, list[np.ndarray]] = {}
    start = 0
    for i, stack in enumerate(stacks):
        try:
            counts = cenmcc.Counts(stack)
        except (ValueError, TypeError) as err:
            raise type(err)(f"generator output of chunk {chunk.index}, stack {i}: {err}") from err
        K, rows = counts.n_classes, slice(start, start + len(stack))
        start = rows.stop
        values = sim.measures(counts)
        cen, mcc, tmcc = (np.asarray(values[name], dtype=np.float64) for name in MEASURES)
        defined = cen > 0
        ratio = tmcc[defined] / cen[defined]
        parts.append(
            (
                K,
                Moments.of(np.stack([cen, mcc, tmcc], axis=-1)),
                Moments.of(ratio[:, None]) if ratio.size else _empty_moments(1),
            )
        )
        series.append((ratio - float(sim.k(K)), blocks[rows][defined]))
        for name, v in (("K", np.full(cen.size, K, dtype=np.int32)), *values.items()):
            if sim.keep_table or name in ("K", *MEASURES):
                columns.setdefault(name, []).append(np.asarray(v))
    groups: dict[int, Group] = {}
    for (K, moments, ratio), boot in zip(
        parts, PoissonBootstrap.of_series(series, weights), strict=True
    ):
        group = Group(moments, ratio, boot)
        groups[K] = groups[K].merge(group) if K in groups else group
    kept = {name: np.concatenate(parts) for name, parts in columns.items()}
    kcen = _times_k(sim.k, kept["K"], kept["CEN"])
    histograms = {
        key: Histogram2D.of(x, y, *HISTOGRAMS[key], bins=sim.histogram_bins)
        for key, (x, y) in {
            "mcc_cen": (kept["MCC"], kept["CEN"]),
            "tmcc_kcen": (kept["tMCC"], kcen),
        }.items()
    }
    defined = kept["CEN"] > 0
    batch = np.array(
        [
            _pearson(kept["CEN"], kept["MCC"]),
            _pearson(kept["tMCC"], kcen),
            float(np.mean(kept["tMCC"][defined] / kcen[defined])) if defined.any() else math.nan,
            *(
                (_consistency(kept["CEN"], -kept["MCC"]), _consistency(kept["tMCC"], kcen))
                if chunk.index < CONSISTENCY_REPLICATES
                else (math.nan, math.nan)
            ),
        ]
    )
    return ChunkResult(dict(sorted(groups.items())), histograms, batch, kept)


def _empty_moments(d: int) -> Moments:
    return Moments(0, np.zeros(d), np.zeros((d, d)), np.zeros(d))


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    return Moments.of(np.stack([x, y], axis=-1)).correlation(0, 1)


def _consistency(f: np.ndarray, g: np.ndarray) -> float:
    return _consistency_of(cenmcc.pair_counts(f, g))


# --------------------------------------------------------------------------------------------
# The run


class Result(NamedTuple):
    """A finished simulation.

    Attributes
    ----------
    simulation : Simulation
    summary : dict
        Every statistic (:func:`summarize`).
    per_k : pandas.DataFrame
        The empirical k per number of classes (:func:`per_k_table`).
    histograms : dict of str to Histogram2D
    table : pandas.DataFrame or None
        One row per matrix, with ``keep_table``.
    """

    simulation: Simulation
    summary: dict
    per_k: pd.DataFrame
    histograms: dict
    table: pd.DataFrame | None


def chunks(sim: Simulation) -> list[Chunk]:
    """The tasks of a run: chunk j draws from child j of ``SeedSequence(seed)``.

    Chunk j's bootstrap weights come from child j of child ``n_chunks`` (the child after the
    chunks'), so they never overlap a chunk's matrices.
    """
    n = sim.n_chunks
    seeds = spawn_seeds(sim.seed, n + 1)
    boot = seeds[-1].spawn(n)
    sizes = chunk_sizes(sim.n_matrices, sim.chunk_size)
    return [Chunk(sim, j, sizes[j], seeds[j], boot[j]) for j in range(n)]


def _merge(a: ChunkResult, b: ChunkResult) -> ChunkResult:
    """Merge the statistics of two runs of chunks (the per-matrix values are gathered apart)."""
    return ChunkResult(
        merge_keyed(a.groups, b.groups), merge_keyed(a.histograms, b.histograms), None, None
    )


def reduce(sim: Simulation, results) -> tuple[ChunkResult, np.ndarray, dict[str, np.ndarray]]:
    """Merge chunk results (``(index, ChunkResult)`` pairs, any order) into a run's statistics.

    Returns
    -------
    merged : ChunkResult
        The groups and histograms of every chunk (``batch`` and ``columns`` unset).
    batches : ndarray, shape (n_chunks, 5)
        Each chunk's own statistics (see :class:`ChunkResult`).
    columns : dict of str to ndarray
        The per-matrix values, in chunk order.
    """
    reducer = OrderedReducer(sim.n_chunks, _merge)
    batches = np.empty((sim.n_chunks, 5))
    columns: dict[str, np.ndarray] = {}
    starts = np.cumsum([0, *chunk_sizes(sim.n_matrices, sim.chunk_size)])
    for index, result in results:
        for name, values in result.columns.items():
            if name not in columns:
                columns[name] = np.empty(sim.n_matrices, dtype=values.dtype)
            columns[name][starts[index] : starts[index + 1]] = values
        batches[index] = result.batch
        reducer.add(index, result._replace(columns=None, batch=None))
    return reducer.result(), batches, columns


def run(
    sim: Simulation,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> Result:
    """Run a simulation: draw, measure and reduce every chunk in parallel, then summarize.

    Parameters
    ----------
    sim : Simulation
    jobs, backend, scheduler, quiet
        As in :func:`cenmcc.simulation.parallel.iter_tasks`; none of them changes the result.

    Returns
    -------
    Result
    """
    import pandas as pd

    tasks = chunks(sim)
    results = iter_tasks(
        measure_chunk,
        tasks,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        desc="chunks",
        quiet=quiet,
    )
    merged, batches, columns = reduce(sim, enumerate(results))
    summary, per_k = summarize(
        sim,
        merged.groups,
        batches,
        columns,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
    )
    table = pd.DataFrame(columns, copy=False) if sim.keep_table else None
    return Result(sim, summary, per_k, merged.histograms, table)


# --------------------------------------------------------------------------------------------
# Statistics


def ratio_moments(groups: dict, k: Callable) -> Moments:
    """Moments of tMCC/(k(K)·CEN) over every matrix, from the per-K moments of tMCC/CEN."""
    return combine(g.ratio.scaled(1.0 / float(k(K))) for K, g in groups.items() if g.ratio.n)


def measure_moments(groups: dict, k: Callable) -> Moments:
    """Moments of (k(K)·CEN, MCC, tMCC) over every matrix, from the per-K moments."""
    return combine(g.moments.scaled([float(k(K)), 1.0, 1.0]) for K, g in groups.items())


def bootstrap_means(groups: dict, k: Callable, center: Callable):
    """Resampled count, mean and SD of tMCC/(k(K)·CEN), from the per-K Poisson bootstraps.

    Each group's sums are of ``y = tMCC/CEN - center(K)``; with ``c = center(K)`` and the
    ratio ``z = (y + c)/k(K)``: ``Σ w z = (Σ w y + c Σ w)/k`` and
    ``Σ w z² = (Σ w y² + 2 c Σ w y + c² Σ w)/k²``, summed over K.

    Returns
    -------
    n, mean, sd : ndarray, shape (n_usable,)
        Of every resample that drew at least two matrices (all of them but in tiny runs).
    """
    s0 = s1 = s2 = 0.0
    for K, g in groups.items():
        c, kk = float(center(K)), float(k(K))
        w, wy, wyy = g.bootstrap.sums.T
        s0 = s0 + w
        s1 = s1 + (wy + c * w) / kk
        s2 = s2 + (wyy + 2 * c * wy + c * c * w) / kk**2
    usable = s0 >= 2  # a resample that drew fewer than two matrices has no mean and SD
    s0, s1, s2 = s0[usable], s1[usable], s2[usable]
    mean = s1 / s0
    sd = np.sqrt(np.maximum(s2 - s0 * mean**2, 0.0) / (s0 - 1))
    return s0, mean, sd


def intervals(moments: Moments, boot, confidence_level: float) -> dict[str, list[float]]:
    """Bootstrap-t, percentile and BCa intervals of a mean from its Poisson bootstrap.

    - bootstrap-t: ``t* = (mean* - mean)/(sd*/√n*)``; ``(mean - q_{1-α/2}(t*) se,
      mean - q_{α/2}(t*) se)`` with ``se = sd/√n`` (Efron & Tibshirani 1993, Ch. 12);
    - percentile: the ``α/2`` and ``1 - α/2`` quantiles of ``mean*`` (ibid., Ch. 13);
    - BCa: ``z0 = Φ⁻¹(p)`` with p the fraction of ``mean*`` below the mean (ties one half),
      and the acceleration of the mean, ``a = M3 / (6 M2^{3/2})`` with M2, M3 the second and
      third central sums (the jackknife influence of observation i is ``x_i - mean``); the
      ends are the ``Φ(z0 + (z0 + z_α)/(1 - a (z0 + z_α)))`` quantiles of ``mean*``
      (ibid., Ch. 14). Quantiles by ``numpy.quantile`` (linear interpolation).
    """
    from scipy.special import ndtr, ndtri

    n_star, mean_star, sd_star = boot
    mean = float(moments.mean[0])
    m2, m3 = float(moments.comoment[0, 0]), float(moments.third[0])
    se = math.sqrt(m2 / (moments.n - 1)) / math.sqrt(moments.n)
    alpha = (1 - confidence_level) / 2
    t_star = (mean_star - mean) / (sd_star / np.sqrt(n_star))
    q_t = np.quantile(t_star, [1 - alpha, alpha])
    p = (np.count_nonzero(mean_star < mean) + 0.5 * np.count_nonzero(mean_star == mean)) / len(
        mean_star
    )
    z0 = ndtri(p)
    a = m3 / (6.0 * m2**1.5)
    z = ndtri(np.array([alpha, 1 - alpha]))
    bca_levels = ndtr(z0 + (z0 + z) / (1 - a * (z0 + z)))
    return {
        "student": [float(mean - q_t[0] * se), float(mean - q_t[1] * se)],
        "percentile": np.quantile(mean_star, [alpha, 1 - alpha]).tolist(),
        "bca": np.quantile(mean_star, bca_levels).tolist(),
    }


def per_k_table(groups: dict, columns: dict[str, np.ndarray]) -> pd.DataFrame:
    """The empirical k per dimension: count, mean, SD, SEM and 2.5%/97.5% quantiles of tMCC/CEN.

    Means and SDs come from the merged moments; the quantiles from the kept per-matrix values.
    """
    import pandas as pd

    K, cen, tmcc = columns["K"], columns["CEN"], columns["tMCC"]
    order = np.argsort(K, kind="stable")
    bounds = np.searchsorted(K[order], [*groups, np.inf])  # groups are sorted by K
    rows = []
    for i, (k, g) in enumerate(groups.items()):
        idx = order[bounds[i] : bounds[i + 1]]
        ratio = tmcc[idx][cen[idx] > 0] / cen[idx][cen[idx] > 0]
        n = g.ratio.n
        std = math.sqrt(g.ratio.variance()[0]) if n >= 2 else math.nan
        q = np.quantile(ratio, [0.025, 0.975]) if n else [math.nan, math.nan]
        rows.append(
            {
                "K": k,
                "n_matrices": n,
                "mean": float(g.ratio.mean[0]) if n else math.nan,
                "std": std,
                "sem": std / math.sqrt(n) if n >= 2 else math.nan,
                "q025": float(q[0]),
                "q975": float(q[1]),
            }
        )
    return pd.DataFrame(rows)


def fit_k(per_k: pd.DataFrame) -> dict | None:
    """Fit ``k(K) = a (1 + b / ln K + c / ln² K)`` to the per-dimension mean of tMCC/CEN.

    Objective: weighted least squares of the per-K means of tMCC/CEN, each weighted by its
    inverse squared standard error. The papers' summary is the mean of tMCC/(k·CEN), and k is
    constant within a dimension, so this fit brings that mean as close to 1 as three constants
    allow in every dimension, each weighted by the precision of its mean.
    ``scipy.optimize.curve_fit`` with ``absolute_sigma=True``: the standard errors of the means
    are sampling errors, known well, so the covariance is not rescaled; ``chi2_reduced`` checks
    the fit (about 1 when the curve fits the means within their errors). The tolerances are
    tightened from the defaults so that the optimum is the weighted least-squares solution.

    Returns
    -------
    dict or None
        ``a``, ``b``, ``c``, their standard errors ``a_se``, ``b_se``, ``c_se``,
        ``chi2_reduced`` and ``n_dimensions``; None when fewer than 4 dimensions have two or
        more matrices (three constants and a degree of freedom).
    """
    from scipy.optimize import curve_fit

    use = per_k[(per_k["n_matrices"] >= 2) & (per_k["sem"] > 0)]
    if len(use) < 4:
        return None
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


#: The statistics of :attr:`ChunkResult.batch`, in order.
BATCH_STATISTICS = (
    "pearson_cen_mcc",
    "pearson_tmcc_kcen",
    "mean_ratio_tmcc_kcen",
    "consistency_cen_mcc",
    "consistency_tmcc_kcen",
)


def batch_standard_errors(sim: Simulation, batches: np.ndarray) -> dict[str, float]:
    """Standard error of each statistic for one run of n matrices, from the chunks' spread.

    Each full chunk is an independent replicate of ``chunk_size`` matrices, from its own seed;
    the SD of a statistic over the replicates, times ``sqrt(chunk_size / n)``, estimates its
    run-to-run SD at n matrices (batch means, Schmeiser 1982; every statistic here is a mean,
    a smooth function of means, or a U-statistic, whose SD falls as ``1/√n``). The degrees of
    consistency use the first :data:`CONSISTENCY_REPLICATES` chunks. NaN with fewer than two
    replicates.
    """
    full = batches[: sim.n_matrices // sim.chunk_size]
    scale = math.sqrt(sim.chunk_size / sim.n_matrices)
    out = {}
    for name, column in zip(BATCH_STATISTICS, full.T, strict=True):
        replicates = column[np.isfinite(column)]
        sd = np.std(replicates, ddof=1) if replicates.size >= 2 else math.nan
        out[name] = float(sd * scale)
    return out


def summarize(
    sim: Simulation, groups: dict, batches: np.ndarray, columns: dict, **parallel
) -> tuple[dict, pd.DataFrame]:
    """Every statistic of a run, for the simulation's k and for k refitted to the run.

    ``columns`` holds the per-matrix values (:func:`reduce`); without ``keep_table`` its MCC
    is dropped once counted, to free its memory. ``parallel`` (``jobs``, ``backend``,
    ``scheduler``, ``quiet``) runs the exact pair counts
    (:func:`cenmcc.simulation.pairs.pair_counts`).

    Returns
    -------
    summary : dict
    per_k : pandas.DataFrame
        :func:`per_k_table` with the simulation's k(K) (``k_paper``: the printed one unless the
        simulation says otherwise) and the fitted one (``k_fit``), and the per-K means of
        tMCC/(k·CEN) for each (``mean_ratio_paper``, ``mean_ratio_fit``).
    """
    per_k = per_k_table(groups, columns)
    fit = fit_k(per_k)
    ks = {"": sim.k}
    if fit is not None:
        ks["_fitted"] = lambda K: cenmcc.k_factor(K, fit["a"], fit["b"], fit["c"])
    cen = columns["CEN"]
    summary: dict = {
        "n_matrices": sim.n_matrices,
        "seed": sim.seed,
        "n_chunks": sim.n_chunks,
        "pearson_cen_mcc": combine(g.moments for g in groups.values()).correlation(0, 1),
        # k is constant within a dimension, so r(tMCC, k·CEN) there is r(tMCC, CEN).
        "pearson_tmcc_kcen_by_k": {
            int(K): g.moments.correlation(0, 2) if g.moments.n >= 3 else math.nan
            for K, g in groups.items()
        },
    }
    for key, f, g, negated in _comparisons(sim, ks, columns):
        counts = pairs.pair_counts(f, g, **parallel)
        del f, g
        if negated:
            counts = counts._replace(concordant=counts.discordant, discordant=counts.concordant)
        summary |= {
            f"consistency_{key}": _consistency_of(counts),
            f"ties_{key}": counts.f_only + counts.g_only + counts.both_tied,
            f"pairs_{key}": counts._asdict(),
        }
    for suffix, k in ks.items():
        ratio = ratio_moments(groups, k)
        ci = intervals(ratio, bootstrap_means(groups, k, sim.k), sim.confidence_level)
        summary |= {
            f"pearson_tmcc_kcen{suffix}": measure_moments(groups, k).correlation(0, 2),
            f"mean_ratio_tmcc_kcen{suffix}": float(ratio.mean[0]),
            f"sd_ratio_tmcc_kcen{suffix}": math.sqrt(float(ratio.variance()[0])),
            f"ci95_student{suffix}": ci["student"],
            f"ci95_percentile{suffix}": ci["percentile"],
            f"ci95_bca{suffix}": ci["bca"],
        }
        name = "paper" if suffix == "" else "fit"
        per_k[f"k_{name}"] = k(per_k["K"].to_numpy())
        per_k[f"mean_ratio_{name}"] = per_k["mean"] / per_k[f"k_{name}"]
    summary |= {
        "k_fit": fit,
        "standard_errors": batch_standard_errors(sim, batches),
        "standard_errors_method": (
            "run-to-run SD at n matrices from the spread of the run's full chunks (independent "
            "replicates of chunk_size matrices, each from its own seed), times "
            "sqrt(chunk_size / n_matrices): batch means, Schmeiser (1982)"
        ),
        "bootstrap": {
            "n_resamples": sim.n_resamples,
            "confidence_level": sim.confidence_level,
            "method": (
                "Poisson bootstrap of blocks: the matrices of each chunk are dealt at random into "
                "blocks of bootstrap_block, and each block gets an independent Poisson(1) weight "
                "per resample, from its chunk's stream (child j of child n_chunks of "
                "SeedSequence(seed)); Hanley & MacGibbon (2006), Chamandy et al. (2012)"
            ),
            "block": sim.block,
            "student": "bootstrap-t: quantiles of (mean* - mean)/(sd*/sqrt(n*)), se = sd/sqrt(n)",
            "percentile": "quantiles of mean*",
            "bca": "BCa, acceleration M3/(6 M2^1.5) of the mean in closed form",
            "quantiles": "numpy.quantile, linear interpolation",
        },
        "ratio_undefined": int(np.count_nonzero(cen == 0)),
        "ties_rule": "exact equality of the float64 values; ties_* = pairs tied in either",
    }
    return summary, per_k


def _comparisons(sim: Simulation, ks: dict, columns: dict):
    """The pairs of measures whose pair counts are summarized: ``(key, f, g, negated)``.

    CEN falls as MCC rises, so (CEN, -MCC) is counted as (CEN, MCC) with concordant and
    discordant swapped (``negated``). Without ``keep_table`` the MCC column is dropped once
    counted, and each k·CEN exists only while its pairs are counted (8 bytes a matrix each).
    """
    K, cen, tmcc = columns["K"], columns["CEN"], columns["tMCC"]
    mcc = columns["MCC"] if sim.keep_table else columns.pop("MCC")
    yield "cen_mcc", cen, mcc, True
    del mcc
    for suffix, k in ks.items():
        yield f"tmcc_kcen{suffix}", tmcc, _times_k(k, K, cen), False


def _times_k(k: Callable, K: np.ndarray, cen: np.ndarray) -> np.ndarray:
    """``k(K)·CEN`` per matrix, from a table of k over the dimensions (one array of n floats)."""
    low = int(K.min(initial=2))
    table = np.asarray(k(np.arange(low, int(K.max(initial=2)) + 1)), dtype=np.float64)
    out = table[K - low]
    out *= cen
    return out


def _consistency_of(counts) -> float:
    ordered = counts.concordant + counts.discordant
    return counts.concordant / ordered if ordered else math.nan
