"""Studies: statistics of a run that stream like the built-in ones, and the papers' k·CEN study.

A study adds its own statistics to a simulation through a small protocol. It is an object with

- ``name`` (str): its key in the summary;
- ``measures`` (tuple): the measures it needs, names of :data:`cenmcc.MEASURES` or
  :class:`cenmcc.Measure` objects (added to the simulation's);
- ``reduce(chunk) -> state``: in a worker, the state of one chunk (:class:`ChunkData`: its
  index, the number of classes K and every measure's value of each matrix, a random generator
  of the study's own stream, and whether the chunk is a replicate);
- ``merge(a, b) -> state``: the state of two sets of chunks; it must be associative (in exact
  arithmetic) and is applied along a tree fixed by the number of chunks, so the run's bits do
  not depend on the workers;
- ``statistics(state, run) -> dict``: its cheap statistics (nested dicts of floats) from a
  state; the engine also evaluates them on the run with each group of chunks left out, and
  writes each one's jackknife standard error next to it (``<name>_se``);
- ``summarize(state, run) -> dict``: the rest of its summary (JSON-able), in the caller's
  process; ``run`` (:class:`RunContext`) gives the simulation and exact pair counts of any
  per-matrix values;
- optionally ``pair_columns`` (int): how many such per-matrix values its summary counts, each
  in one pair (0 if absent), and ``footprint(simulation)``: the memory of one of its states
  and of a worker reducing a chunk (:class:`Footprint`), for the run's footprint
  (:meth:`cenmcc.simulation.Simulation.footprint`), checked before any work;
- optionally ``added_columns`` (tuple of str): the names it gives those values, which a
  :class:`~cenmcc.simulation.Simulation` refuses to share with a measure or ``"K"``.

The state must be picklable and small (it travels from the workers). :class:`KRatio` is the
study of Jurman et al. (2010, 2012): tMCC against k(K)·CEN (Eq. 3).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, ClassVar, NamedTuple, Protocol

import numpy as np

import cenmcc

from .agreement import batch_means_se, pair_count_statistics
from .streaming import (
    Histogram2D,
    KeyedMoments,
    Moments,
    PoissonBootstrap,
    key_groups,
    poisson_weights,
    random_blocks,
)


class ChunkData(NamedTuple):
    """One chunk's per-matrix values, as a study's ``reduce`` sees them.

    Attributes
    ----------
    index : int
        The chunk's index in the run.
    n_matrices : int
        The run's number of matrices.
    K : ndarray of int, shape (m,)
        Number of classes of each matrix.
    columns : dict of str to ndarray, shape (m,)
        Every measure of the simulation, by name: the value of each matrix (NaN where a
        measure whose ``Measure.undefined`` is ``"omit"`` is undefined).
    rng : numpy.random.Generator
        The study's own stream for this chunk.
    replicate : bool
        Whether the chunk is one of the run's replicates (whole chunks whose own statistics
        estimate the standard errors of statistics that need every matrix).
    """

    index: int
    n_matrices: int
    K: np.ndarray
    columns: dict
    rng: np.random.Generator
    replicate: bool


class Footprint(NamedTuple):
    """A study's memory in a run, in bytes: one of its states (the main process holds many, the
    jackknife's), a worker's while it reduces a chunk, and the setting that lowers them."""

    state: int
    reduce: int
    setting: str


class Study(Protocol):
    """The protocol of a study (see the module docstring)."""

    name: str
    measures: tuple

    def reduce(self, chunk: ChunkData) -> Any: ...

    def merge(self, a: Any, b: Any) -> Any: ...

    def statistics(self, state: Any, run: RunContext) -> dict: ...

    def summarize(self, state: Any, run: RunContext) -> dict: ...


class RunContext(Protocol):
    """What a study's summary can ask of the finished run (in the caller's process)."""

    simulation: Any

    def column(self, name: str, rows: slice | None = None) -> np.ndarray:
        """The per-matrix values of a measure (or ``"K"``), in chunk order: memory-mapped, or
        only the consecutive ``rows``, read into memory."""

    def count_pairs(self, columns: dict, pairs: list) -> dict:
        """Exact pair counts (:class:`cenmcc.PairCounts`) of each pair of named columns.

        ``columns`` adds per-matrix values of the study's own (derived from the others, say)
        under new names: each an array of one value per matrix, or a function of a range of
        rows (a ``slice``) returning their values, called block by block so that the
        column is never whole in the caller's memory. The counts run in the workers.
        """


def check_study(study) -> None:
    """Raise TypeError naming what a study lacks of the protocol."""
    missing = [
        a
        for a in ("name", "measures", "reduce", "merge", "statistics", "summarize")
        if not hasattr(study, a)
    ]
    if missing:
        raise TypeError(f"study {study!r} lacks {missing} of the study protocol")
    if not isinstance(study.name, str) or not study.name.isidentifier():
        raise TypeError(f"a study's name must be an identifier, got {study.name!r}")


# --------------------------------------------------------------------------------------------
# The papers' study: tMCC against k(K)·CEN


#: Bytes one bootstrap resample adds to a :class:`KRatio` state per number of classes: three
#: float64 sums. Measured: the main process of ``simulate --study k_ratio --n 200000
#: --chunk-size 2000`` (28 numbers of classes, 100 jackknife groups: 202 states held at once)
#: grows 225, 742, 1,407 and 2,711 MiB at 999, 5,000, 10,000 and 20,000 resamples, 137 KB a
#: resample: 24.3 bytes a resample, number of classes and state.
BOOTSTRAP_BYTES = 24


class KRatioState(NamedTuple):
    """A chunk's (or a merge's) state of :class:`KRatio`.

    Attributes
    ----------
    moments : KeyedMoments
        Per K, of (denominator, numerator): CEN and tMCC.
    ratio : KeyedMoments
        Per K, of numerator/denominator over the matrices with a denominator above 0.
    bootstrap : PoissonBootstrap
        Per K, of ``ratio - k(K)`` over the same matrices.
    histogram : Histogram2D
        Of (tMCC, k·CEN).
    replicates : tuple of dict
        The pair statistics of (numerator, k·denominator) in each replicate chunk.
    undefined : int
        Matrices whose ratio is 0/0 or x/0 (a denominator of 0).
    """

    moments: KeyedMoments
    ratio: KeyedMoments
    bootstrap: PoissonBootstrap
    histogram: Histogram2D
    replicates: tuple
    undefined: int


@dataclass(frozen=True)
class KRatio:
    """tMCC ≈ k(K)·CEN: the study of Eq. (3) of Jurman et al. (2010, 2012) on any generator.

    Per number of classes K: the moments of CEN, tMCC and tMCC/CEN and a Poisson bootstrap of
    tMCC/CEN; from them, with the printed k(K) (or the one given) and with k refitted to the
    run: the Pearson correlation of tMCC and k·CEN, the mean and SD of tMCC/(k·CEN) with
    bootstrap-t, percentile and BCa intervals, the exact degree of consistency of the two, the
    empirical k per K and the fit of ``k(K) = a (1 + b / ln K + c / ln² K)`` with its reduced
    χ² (a curve whose χ² is far above 1 does not fit, and the summary says so).

    Attributes
    ----------
    numerator, denominator : str
        The measures compared (tMCC and CEN).
    k : callable
        ``k(K)``, the printed constant of Eq. (3) by default (:func:`cenmcc.k_factor`).
    n_resamples : int
        Poisson-bootstrap resamples of the mean ratio (at least enough for the intervals' tails).
    confidence_level : float
    bootstrap_blocks : int
        Blocks of matrices that get a bootstrap weight in a run: each block holds
        ``max(1, n // bootstrap_blocks)`` matrices, dealt at random in each chunk (many blocks
        of independent matrices make a fine bootstrap, and few per chunk a fast one).
    histogram_bins : int
    """

    numerator: str = "tmcc"
    denominator: str = "cen"
    k: Callable = cenmcc.k_factor
    n_resamples: int = 999
    confidence_level: float = 0.95
    bootstrap_blocks: int = 2_000
    histogram_bins: int = 200
    name: str = "k_ratio"
    #: The per-matrix values its summary counts against tMCC: k·CEN, printed and refitted k.
    pair_columns: ClassVar[int] = 2

    def __post_init__(self):
        if not 0 < self.confidence_level < 1:
            raise ValueError(f"confidence_level must be in (0, 1), got {self.confidence_level}")
        least = minimum_resamples(self.confidence_level)
        if not isinstance(self.n_resamples, int | np.integer) or self.n_resamples < least:
            raise ValueError(
                f"n_resamples must be an integer of at least {least}, so that each tail of a "
                f"{self.confidence_level:.0%} interval holds at least one resample, got "
                f"{self.n_resamples!r}"
            )
        if self.bootstrap_blocks < 1:
            raise ValueError(f"bootstrap_blocks must be at least 1, got {self.bootstrap_blocks}")

    def block(self, n_matrices: int) -> int:
        """Matrices that share a bootstrap weight, in a run of ``n_matrices``."""
        return max(1, n_matrices // self.bootstrap_blocks)

    def footprint(self, simulation) -> Footprint:
        """The memory of a state (the bootstrap's :data:`BOOTSTRAP_BYTES` a resample and
        number of classes, the histogram, the moments), and of a worker reducing a chunk: the
        Poisson weights of its blocks (drawn as int64, kept as float64) and four bootstraps
        (the chunk's, its transposed copy, the batch's merged state and their merge)."""
        keys = simulation.dimensions
        per_chunk = min(keys, simulation.chunk_size)
        state = (
            self.n_resamples * keys * BOOTSTRAP_BYTES
            + 8 * self.histogram_bins**2
            + KeyedMoments.nbytes(keys, 2)
            + KeyedMoments.nbytes(keys, 1)
        )
        blocks = -(
            -min(simulation.chunk_size, simulation.n_matrices) // self.block(simulation.n_matrices)
        )
        reduce = self.n_resamples * (16 * blocks + 4 * per_chunk * BOOTSTRAP_BYTES)
        return Footprint(state, reduce, "n_resamples")

    @property
    def measures(self) -> tuple:
        return (self.denominator, self.numerator)

    @property
    def added_columns(self) -> tuple[str, ...]:
        """The per-matrix values its summary counts: k·CEN, printed and refitted k."""
        return tuple(self._column(suffix) for suffix in ("", "_fitted"))

    def _column(self, suffix: str) -> str:
        """The name of the column ``k<suffix>·denominator``."""
        return f"k{suffix}_{self.denominator}"

    def reduce(self, chunk: ChunkData) -> KRatioState:
        den, num = chunk.columns[self.denominator], chunk.columns[self.numerator]
        size = chunk.K.size
        block = self.block(chunk.n_matrices)
        blocks = random_blocks(chunk.rng, size, block)
        weights = poisson_weights(chunk.rng, self.n_resamples, -(-size // block))
        groups = key_groups(chunk.K)
        keys = [k for k, _ in groups]
        moments = KeyedMoments.by_key(groups, np.stack([den, num], axis=-1))
        ratios, series = [], []
        for k, rows in groups:
            d, n = den[rows], num[rows]
            defined = d > 0
            ratio = n[defined] / d[defined]
            ratios.append(Moments.of(ratio[:, None]))
            series.append((ratio - float(self.k(k)), blocks[rows][defined]))
        boot = PoissonBootstrap.of_series(keys, series, weights)
        kden = times_k(self.k, chunk.K, den)
        histogram = Histogram2D.of(num, kden, (0.0, 1.3), (0.0, 1.3), bins=self.histogram_bins)
        replicates = ()
        if chunk.replicate:
            counts = cenmcc.pair_counts(num, kden)
            replicates = (pair_count_statistics(counts) | {"n": size},)
        return KRatioState(
            moments,
            KeyedMoments.of_parts(keys, ratios),
            boot,
            histogram,
            replicates,
            int(np.count_nonzero(den <= 0)),
        )

    def merge(self, a: KRatioState, b: KRatioState) -> KRatioState:
        return KRatioState(
            a.moments.merge(b.moments),
            a.ratio.merge(b.ratio),
            a.bootstrap.merge(b.bootstrap),
            a.histogram.merge(b.histogram),
            a.replicates + b.replicates,
            a.undefined + b.undefined,
        )

    def statistics(self, state: KRatioState, run=None) -> dict:
        """Pearson r(tMCC, k·CEN), mean and SD of tMCC/(k·CEN): printed k and k refitted."""
        out = {}
        for suffix, k in self._ks(fit_k(per_k_table(state))).items():
            kk = np.asarray(k(state.moments.keys), dtype=float)
            both = state.moments.scaled(np.stack([kk, np.ones_like(kk)], axis=-1)).total()
            ratio = ratio_total(state, k)
            out[f"pearson{suffix}"] = both.correlation(0, 1) if both.n >= 3 else math.nan
            out[f"mean_ratio{suffix}"] = float(ratio.mean[0]) if ratio.n else math.nan
            out[f"sd_ratio{suffix}"] = (
                float(math.sqrt(ratio.variance()[0])) if ratio.n >= 2 else math.nan
            )
        return out

    def _ks(self, fit: KFit | None) -> dict[str, Callable]:
        """The k of the study (suffix "") and, where there is a ``fit``, k refitted ("_fitted")."""
        return {"": self.k} if fit is None else {"": self.k, "_fitted": fit.curve}

    def _times_k(self, run: RunContext, k: Callable, rows: slice) -> np.ndarray:
        """``k(K)·denominator`` of the matrices ``rows`` of the run."""
        return times_k(k, run.column("K", rows), run.column(self.denominator, rows))

    def summarize(self, state: KRatioState, run: RunContext) -> dict:
        per_k = per_k_table(state)
        fit = fit_k(per_k)
        ks = self._ks(fit)
        out: dict = {
            "numerator": self.numerator,
            "denominator": self.denominator,
            "k_fit": None if fit is None else fit.summary(),
            "ratio_undefined": state.undefined,
            "pearson_by_k": {
                int(k): state.moments.moments[i].correlation(0, 1)
                if state.moments.moments.n[i] >= 3
                else math.nan
                for i, k in enumerate(state.moments.keys)
            },
        }
        columns = {
            self._column(suffix): functools.partial(self._times_k, run, k)
            for suffix, k in ks.items()
        }
        pairs = [(self.numerator, name) for name in columns]
        counted = run.count_pairs(columns, pairs)
        for (suffix, k), pair in zip(ks.items(), pairs, strict=True):
            counts = counted[pair]
            boot = bootstrap_means(state, k, self.k)
            out |= {
                f"consistency{suffix}": counts.consistency(),
                f"ties{suffix}": counts.f_only + counts.g_only + counts.both_tied,
                f"pair_counts{suffix}": counts._asdict(),
                f"intervals{suffix}": intervals(ratio_total(state, k), boot, self.confidence_level),
            }
            per_k[f"k{suffix}"] = np.asarray(k(per_k["K"]), dtype=float)
            per_k[f"mean_ratio{suffix}"] = per_k["mean"] / per_k[f"k{suffix}"]
        reps = state.replicates
        out["consistency_se"] = batch_means_se(
            [r["consistency"] for r in reps],
            sum(r["n"] for r in reps) / len(reps) if reps else math.nan,
            run.simulation.n_matrices,
        )
        out["per_k"] = {name: column.tolist() for name, column in per_k.items()}
        out["bootstrap"] = {
            "n_resamples": self.n_resamples,
            "confidence_level": self.confidence_level,
            "block": self.block(run.simulation.n_matrices),
            "method": (
                "Poisson bootstrap of blocks: the matrices of each chunk are dealt at random into "
                "blocks of `block` matrices, and each block gets an independent Poisson(1) weight "
                "per resample, from the chunk's own stream; Hanley & MacGibbon (2006), Chamandy "
                "et al. (2012). bootstrap-t: quantiles of (mean* - mean)/(sd*/sqrt(n*)), "
                "se = sd/sqrt(n); percentile: quantiles of mean*; BCa: acceleration "
                "M3/(6 M2^1.5) of the mean in closed form; numpy.quantile, linear interpolation"
            ),
        }
        return out


def minimum_resamples(confidence_level: float) -> int:
    """Fewest resamples with at least one beyond each end of a two-sided interval."""
    return math.ceil(2 / (1 - confidence_level))


def times_k(k: Callable, K: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``k(K)·values`` per matrix, from a table of k over the dimensions (one array of n floats)."""
    low = int(K.min(initial=2))
    table = np.asarray(k(np.arange(low, int(K.max(initial=2)) + 1)), dtype=np.float64)
    out = table[np.asarray(K) - low]
    out *= values
    return out


def per_k_table(state: KRatioState) -> dict[str, np.ndarray]:
    """The empirical k per dimension: count, mean, SD and SEM of the ratio (columns)."""
    m = state.ratio.moments
    n = np.asarray(m.n)
    with np.errstate(divide="ignore", invalid="ignore"):
        std = np.where(n >= 2, np.sqrt(m.variance()[:, 0]), np.nan)
        sem = np.where(n >= 2, std / np.sqrt(n), np.nan)
    return {
        "K": state.ratio.keys.copy(),
        "n_matrices": n.copy(),
        "mean": np.where(n > 0, m.mean[:, 0], np.nan),
        "std": std,
        "sem": sem,
    }


class KFit(NamedTuple):
    """``k(K) = a (1 + b / ln K + c / ln² K)`` fitted to the per-K mean ratios (:func:`fit_k`)."""

    a: float
    b: float
    c: float
    a_se: float
    b_se: float
    c_se: float
    chi2_reduced: float
    n_dimensions: int

    #: A reduced χ² above this says the curve does not fit the per-K means within their errors.
    CHI2_LIMIT = 3.0

    def curve(self, K):
        return cenmcc.k_factor(K, self.a, self.b, self.c)

    @property
    def fits(self) -> bool:
        return self.chi2_reduced <= self.CHI2_LIMIT

    def summary(self) -> dict:
        note = (
            "the curve fits the per-K means within their standard errors"
            if self.fits
            else f"reduced chi2 {self.chi2_reduced:.3g} > {self.CHI2_LIMIT:g}: the curve "
            "a (1 + b / ln K + c / ln^2 K) does not fit the per-K means of this generator"
        )
        return {**self._asdict(), "fits": self.fits, "fit_note": note}


def fit_k(per_k: dict) -> KFit | None:
    """Fit ``k(K) = a (1 + b / ln K + c / ln² K)`` to the per-dimension mean of the ratio.

    Weighted least squares of the per-K means, each weighted by its inverse squared standard
    error, solved in closed form: the curve is linear in ``(α, β, γ) = (a, a b, a c)``,
    ``k(K) = α + β / ln K + γ / ln² K``, so the weighted design ``X`` (rows
    ``(1, 1/ln K, 1/ln² K) / sem``) gives ``(α, β, γ)`` through its singular value decomposition
    ``X = U S Vᵀ``, and their covariance ``V S⁻² Vᵀ`` (the SEMs are sampling errors, known
    well, so it is not rescaled by the residuals). ``(a, b, c) = (α, β/α, γ/α)`` minimizes the
    same sum of squares, and its covariance is ``G V S⁻² Vᵀ Gᵀ`` with ``G`` the Jacobian of that
    map (exact for the linear problem, as the Gauss-Newton covariance of the curve in
    ``(a, b, c)`` at its optimum). The reduced χ² checks the fit (about 1 when the curve fits
    the means within their errors).

    None with fewer than 4 dimensions of two or more matrices (three constants and a degree
    of freedom), when the columns of ``X`` are numerically dependent, or when ``α`` is 0 to
    rounding, ``|α| <= 8 ε (|β| + |γ|)`` (no ``b`` and ``c`` then).
    """
    use = (per_k["n_matrices"] >= 2) & (per_k["sem"] > 0)
    if np.count_nonzero(use) < 4:
        return None
    K = per_k["K"][use].astype(np.float64)
    mean, sem = per_k["mean"][use], per_k["sem"][use]
    inverse_log = 1.0 / np.log(K)
    X = np.stack([np.ones_like(K), inverse_log, inverse_log**2], axis=-1) / sem[:, None]
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    eps = np.finfo(np.float64).eps
    if not s[-1] > s[0] * K.size * eps:
        return None
    alpha, beta, gamma = Vt.T @ ((U.T @ (mean / sem)) / s)
    if abs(alpha) <= 8 * eps * (abs(beta) + abs(gamma)):
        return None
    a, b, c = float(alpha), float(beta / alpha), float(gamma / alpha)
    G = np.array([[1.0, 0.0, 0.0], [-b / a, 1.0 / a, 0.0], [-c / a, 0.0, 1.0 / a]])
    se = np.sqrt(np.sum(np.square((G @ Vt.T) / s), axis=-1))
    residual = (mean - cenmcc.k_factor(K, a, b, c)) / sem
    return KFit(
        a, b, c, *(float(v) for v in se), float(residual @ residual / (K.size - 3)), int(K.size)
    )


def ratio_total(state: KRatioState, k: Callable) -> Moments:
    """The moments of tMCC/(k(K)·CEN) over every K: each K's moments of the ratio over k(K)."""
    return state.ratio.scaled(1.0 / np.asarray(k(state.ratio.keys), dtype=float)).total()


def bootstrap_means(state: KRatioState, k: Callable, center: Callable):
    """Resampled count, mean and SD of tMCC/(k(K)·CEN), from the per-K Poisson bootstraps.

    Each group's sums are of ``y = ratio - center(K)``; with ``c = center(K)`` and
    ``z = (y + c)/k(K)``: ``Σ w z = (Σ w y + c Σ w)/k`` and
    ``Σ w z² = (Σ w y² + 2 c Σ w y + c² Σ w)/k²``, summed over K.

    Returns
    -------
    n, mean, sd : ndarray, shape (n_usable,)
        Of every resample that drew at least two matrices.
    """
    s0 = s1 = s2 = 0.0
    for K, sums in zip(state.bootstrap.keys.tolist(), state.bootstrap.sums, strict=True):
        c, kk = float(center(K)), float(k(K))
        w, wy, wyy = sums.T
        s0 = s0 + w
        s1 = s1 + (wy + c * w) / kk
        s2 = s2 + (wyy + 2 * c * wy + c * c * w) / kk**2
    usable = np.asarray(s0) >= 2  # fewer than two matrices: no mean and SD
    s0, s1, s2 = (np.asarray(s)[usable] for s in (s0, s1, s2))
    mean = s1 / s0
    sd = np.sqrt(np.maximum(s2 - s0 * mean**2, 0.0) / (s0 - 1))
    return s0, mean, sd


def intervals(moments: Moments, boot, confidence_level: float) -> dict:
    """Bootstrap-t, percentile and BCa intervals of a mean from its Poisson bootstrap.

    - bootstrap-t: ``t* = (mean* - mean)/(sd*/√n*)``; ``(mean - q_{1-α/2}(t*) se,
      mean - q_{α/2}(t*) se)`` with ``se = sd/√n`` (Efron & Tibshirani 1993, Ch. 12);
    - percentile: the ``α/2`` and ``1 - α/2`` quantiles of ``mean*`` (ibid., Ch. 13);
    - BCa: ``z0 = Φ⁻¹(p)`` with p the fraction of ``mean*`` below the mean (ties one half),
      and the acceleration of the mean, ``a = M3 / (6 M2^{3/2})`` (ibid., Ch. 14).

    An interval that the data cannot give is None, with the reason under ``undefined``: no
    values, a constant ratio (every resample has the same mean and a zero SD, so t* is 0/0),
    or too few usable resamples. Φ and Φ⁻¹ are those of :class:`statistics.NormalDist`.
    """
    n_star, mean_star, sd_star = boot
    out: dict = {"student": None, "percentile": None, "bca": None}
    if moments.n < 2:
        return out | {"undefined": f"{moments.n} value(s): a mean needs two for an interval"}
    if len(mean_star) < minimum_resamples(confidence_level):
        return out | {"undefined": f"{len(mean_star)} usable resamples, too few for the tails"}
    mean = float(moments.mean[0])
    m2, m3 = float(moments.comoment[0, 0]), float(moments.third[0])
    alpha = (1 - confidence_level) / 2
    out["percentile"] = np.quantile(mean_star, [alpha, 1 - alpha]).tolist()
    if m2 == 0 or np.any(sd_star == 0):
        return out | {
            "undefined": "the values are constant (or some resample is): bootstrap-t and BCa "
            "divide by their zero spread"
        }
    se = math.sqrt(m2 / (moments.n - 1)) / math.sqrt(moments.n)
    t_star = (mean_star - mean) / (sd_star / np.sqrt(n_star))
    q_t = np.quantile(t_star, [1 - alpha, alpha])
    out["student"] = [float(mean - q_t[0] * se), float(mean - q_t[1] * se)]
    below = np.count_nonzero(mean_star < mean) + 0.5 * np.count_nonzero(mean_star == mean)
    p = below / len(mean_star)
    if not 0 < p < 1:
        return out | {"undefined": "BCa: every resample mean lies on one side of the mean"}
    normal = NormalDist()
    z0 = normal.inv_cdf(p)
    a = m3 / (6.0 * m2**1.5)
    z = (normal.inv_cdf(alpha), normal.inv_cdf(1 - alpha))
    levels = [normal.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq))) for zq in z]
    out["bca"] = np.quantile(mean_star, levels).tolist()
    return out
