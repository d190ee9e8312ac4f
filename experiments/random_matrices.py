"""The 200,000 random confusion matrices: tMCC against k·CEN, the fitted k and Figure 2.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012), "Relationships
between CEN and MCC", check Eq. (3), ``tMCC ≈ k(K)·CEN``, on 200,000 random matrices of
dimension 3 to 30: every diagonal entry a uniform random integer in [1, 1000], every
off-diagonal entry a uniform random integer in [1, ⌊1000·ρ_i⌋] with ρ_i uniform in [0.01, 1].
They print a Pearson correlation of 0.9941477 between tMCC and k·CEN, a degree of consistency
of 1 - 10⁻⁷ with no ties, and a mean ratio tMCC/(k·CEN) of 1.000508 with the 95% bootstrap
Student interval (1.000328, 1.000711).

This module is the papers' generator (:class:`Config`, :class:`PaperGenerator`) on the
streaming engine of :mod:`experiments.simulation`: chunks drawn from their own streams,
reduced in the workers to mergeable statistics, bit-identical for any number of workers and
any backend, memory flat in n but for 28 bytes a matrix (and 38 more while the exact pair
counts run).

``python -m experiments random-matrices`` writes to ``figures/random_matrices/``:
``summary.json`` (every statistic, the printed values next to them), ``timing.json`` (the
seconds it took, apart from the results), ``k_per_dimension.csv`` (the empirical k per K),
``figure2.png``/``.pdf`` (Figure 2 as densities) and ``k_per_dimension.png``/``.pdf``; with
``--table``, every matrix's measures in ``matrices.npz`` (not in git).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from typing import TYPE_CHECKING

import numpy as np

import cenmcc

from . import resources
from .cli import add_output_arguments, add_parallel_arguments, add_seed_argument, positive_int
from .outputs import markdown_table, save_figure, write_atomic, write_json, write_table
from .paths import output_dir
from .simulation import Result, Simulation
from .simulation import run as run_simulation

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pandas as pd
    from matplotlib.figure import Figure

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

#: How the number of classes of each matrix can be drawn (:attr:`Config.k_scheme`).
K_SCHEMES = ("uniform", "balanced")
#: What one ratio ρ applies to (:attr:`Config.rho_scope`).
RHO_SCOPES = ("matrix", "row", "entry")


@dataclasses.dataclass(frozen=True)
class Config:
    """Every choice of the random-matrix experiment; the defaults are the papers' settings.

    Matrix i has ``K_i`` classes, drawn uniformly from the integers of ``k_range`` (both ends
    included; the papers say only "dimensions ranging from 3 to 30", and uniform per matrix is
    the natural reading), and a ratio ``ρ_i`` drawn uniformly from ``rho_range``. Its diagonal
    entries are uniform random integers in ``diagonal_range`` and its off-diagonal entries
    uniform random integers in ``[off_diagonal_min, ⌊off_diagonal_scale·ρ_i⌋]``, all independent
    and both ends included. The fields after ``off_diagonal_min`` are other readings of the
    same text (see :mod:`experiments.protocol`); their defaults are the reading above.

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
        Smallest off-diagonal entry (1 in the papers; with 0 a matrix can be diagonal, and its
        CEN and tMCC are then 0).
    k_scheme : {"uniform", "balanced"}
        ``"uniform"``: each K_i uniform and independent; ``"balanced"``: every chunk holds as
        many matrices of each K as it can, the remainder drawn uniformly, in a random order.
    rho_scope : {"matrix", "row", "entry"}
        One ρ per matrix (printed), one per row, or one per off-diagonal entry.
    upper_inclusive : bool
        Whether the upper ends of the integer ranges are included (printed "in [1, 1000]") or
        excluded (as in R's ``sample(a:b - 1)`` or Python's ``randrange``).
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
    k_scheme: str = "uniform"
    rho_scope: str = "matrix"
    upper_inclusive: bool = True
    chunk_size: int = 10_000
    seed: int = 0
    n_resamples: int = 999
    confidence_level: float = 0.95

    def __post_init__(self):
        k_min, k_max = self.k_range
        d_min, d_max = self.diagonal_range
        r_min, r_max = self.rho_range
        top = 0 if self.upper_inclusive else 1  # an excluded upper end lowers the largest value
        checks = [
            (
                k_min >= 2 and k_min + 3 <= k_max,
                f"k_range must hold at least four numbers of classes >= 2, got {self.k_range}",
            ),
            (
                0 <= d_min <= d_max - top and d_max >= 1,
                f"diagonal_range must satisfy 0 <= low <= high (high > low when the upper end "
                f"is excluded) and high >= 1, got {self.diagonal_range}",
            ),
            (
                0 < r_min <= r_max,
                f"rho_range must satisfy 0 < low <= high, got {self.rho_range}",
            ),
            (
                self.off_diagonal_min >= 0,
                f"off_diagonal_min must be at least 0, got {self.off_diagonal_min}",
            ),
            (
                math.floor(self.off_diagonal_scale * r_min) - top >= self.off_diagonal_min,
                "the largest off-diagonal value at the smallest rho, floor(off_diagonal_scale * "
                f"rho_range[0]) = floor({self.off_diagonal_scale} * {r_min}), must be at least "
                f"off_diagonal_min = {self.off_diagonal_min}",
            ),
            (self.k_scheme in K_SCHEMES, f"k_scheme must be one of {K_SCHEMES}"),
            (self.rho_scope in RHO_SCOPES, f"rho_scope must be one of {RHO_SCOPES}"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
        self.simulation()  # checks n_matrices, chunk_size, seed, n_resamples, confidence_level

    def simulation(self, **changes) -> Simulation:
        """This experiment as a :class:`~experiments.simulation.Simulation` (``changes`` to it)."""
        return Simulation(
            PaperGenerator(self),
            n_matrices=self.n_matrices,
            seed=self.seed,
            chunk_size=self.chunk_size,
            n_resamples=self.n_resamples,
            confidence_level=self.confidence_level,
            **changes,
        )


# --------------------------------------------------------------------------------------------
# The generator


def draw_parameters(config: Config, size: int, rng: np.random.Generator):
    """Draw the dimension ``K_i`` and the ratio ``ρ_i`` of ``size`` matrices.

    Returns
    -------
    K : ndarray of int64, shape (size,)
        Uniform on the integers ``k_range[0] .. k_range[1]``, both included (or balanced, see
        :attr:`Config.k_scheme`).
    rho : ndarray of float64, shape (size,)
        Uniform on ``rho_range``; with ``rho_scope`` "row" or "entry" the ratios are drawn
        later, with the matrices, and this is unused.
    """
    low, high = config.k_range
    if config.k_scheme == "uniform":
        n_classes = rng.integers(low, high, size=size, endpoint=True)
    else:
        values = np.arange(low, high + 1)
        rest = rng.integers(low, high, size=size % values.size, endpoint=True)
        n_classes = rng.permutation(np.concatenate([np.repeat(values, size // values.size), rest]))
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
        The ratio ``ρ_i`` of each matrix (used when ``rho_scope`` is "matrix"; otherwise one
        ratio per row or per entry is drawn here, after the matrix's).
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64, shape (m, K, K)
        Diagonal entries uniform in ``diagonal_range``, off-diagonal entries of matrix i uniform
        in ``[off_diagonal_min, ⌊off_diagonal_scale·ρ⌋]``; every entry independent, drawn
        exactly (``Generator.integers``) in one call with a per-cell upper bound.
    """
    rho = np.asarray(rho, dtype=np.float64)
    if config.rho_scope == "row":
        rho = rng.uniform(*config.rho_range, size=(rho.size, K))[:, :, None]
    elif config.rho_scope == "entry":
        rho = rng.uniform(*config.rho_range, size=(rho.size, K, K))
    else:
        rho = rho[:, None, None]
    off_max = np.floor(config.off_diagonal_scale * rho).astype(np.int64)
    diagonal = np.eye(K, dtype=bool)
    low = np.where(diagonal, config.diagonal_range[0], config.off_diagonal_min)
    high = np.where(diagonal, config.diagonal_range[1], off_max)
    return rng.integers(low, high, endpoint=config.upper_inclusive)


@dataclasses.dataclass(frozen=True)
class PaperGenerator:
    """The papers' generator as a :class:`~experiments.simulation.Simulation` generator.

    Calling it with ``(rng, size)`` draws the dimensions and ratios of the ``size`` matrices
    first, then yields one stack per distinct K, in increasing K, each drawn when it is asked
    for (so a chunk holds one stack at a time; the draws are the same either way).
    """

    config: Config

    def __call__(self, rng: np.random.Generator, size: int) -> Iterator[np.ndarray]:
        n_classes, rho = draw_parameters(self.config, size, rng)
        return (
            draw_matrices(self.config, int(K), rho[n_classes == K], rng)
            for K in np.unique(n_classes)
        )


# --------------------------------------------------------------------------------------------
# The experiment


def run(
    config: Config | None = None,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
    keep_table: bool = False,
) -> tuple[Result, dict]:
    """The whole experiment: generate, measure, summarize; timed.

    Parameters
    ----------
    config : Config, optional
        Defaults to the papers' settings, ``Config()``.
    jobs, backend, scheduler, quiet
        As in :func:`experiments.parallel.iter_tasks`; they change the wall time only.
    keep_table : bool
        Keep every measure of every matrix (``result.table``).

    Returns
    -------
    result : Result
        Its summary gains the experiment's settings and the printed values.
    timing : dict
        ``computation_seconds`` (generation, metrics and statistics) and the parallel settings.
    """
    config = config or Config()
    start, cpu = time.perf_counter(), time.process_time()
    result = run_simulation(
        config.simulation(keep_table=keep_table),
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
    )
    timing = {
        "computation_seconds": time.perf_counter() - start,
        "main_process_cpu_seconds": time.process_time() - cpu,
        "jobs": jobs,
        "backend": backend,
    }
    summary = {
        "n_matrices": config.n_matrices,
        "seed": config.seed,
        "k_range": list(config.k_range),
        "config": dataclasses.asdict(config),
        **result.summary,
        "k_paper": dict(zip("abc", cenmcc.K_PAPER, strict=True)),
        "printed": PRINTED,
    }
    return result._replace(summary=summary), timing


# --------------------------------------------------------------------------------------------
# Figures


def plot(result: Result) -> Figure:
    """Figure 2 of Jurman et al. (2012) as densities: CEN against MCC, k·CEN against tMCC.

    Each panel is a 2-D histogram of every matrix (log-scaled counts), so the figure costs
    the same at any n; k is the printed one.
    """
    from matplotlib.colors import LogNorm

    from . import plotting

    panels = [
        (result.histograms["mcc_cen"], "MCC", "CEN"),
        (result.histograms["tmcc_kcen"], "tMCC", "k·CEN"),
    ]
    fig, axes = plotting.subplots(1, 2)
    with plotting.style():
        for ax, (hist, xlabel, ylabel), letter in zip(axes, panels, "ab", strict=True):
            counts = np.ma.masked_equal(hist.counts.T, 0)
            x = np.linspace(*hist.x_range, hist.counts.shape[0] + 1)
            y = np.linspace(*hist.y_range, hist.counts.shape[1] + 1)
            mesh = ax.pcolormesh(
                x,
                y,
                counts,
                norm=LogNorm(vmin=1, vmax=max(int(counts.max()), 2)),
                cmap="viridis",
                rasterized=True,
            )
            ax.set(xlabel=xlabel, ylabel=ylabel, title=f"({letter}) {ylabel} vs {xlabel}")
            if hist.outside:
                ax.annotate(
                    f"{hist.outside} matrices outside", (0.02, 0.02), xycoords="axes fraction"
                )
        lo, hi = result.histograms["tmcc_kcen"].x_range
        axes[1].plot([lo, hi], [lo, hi], color="0.3", lw=0.8, ls="--", label="k·CEN = tMCC")
        axes[1].legend(loc="upper left")
        fig.colorbar(mesh, ax=axes, label="matrices per cell")
    return fig


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
        if fit is not None:
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
    parser.add_argument(
        "--n", type=positive_int, default=defaults.n_matrices, help="number of matrices"
    )
    parser.add_argument(
        "--resamples", type=positive_int, default=defaults.n_resamples, help="bootstrap resamples"
    )
    parser.add_argument(
        "--chunk-size",
        type=positive_int,
        default=defaults.chunk_size,
        help="matrices per chunk (task)",
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="also write every matrix's measures to matrices.npz (40 bytes a matrix)",
    )
    add_seed_argument(parser, default=defaults.seed)
    add_parallel_arguments(parser)
    add_output_arguments(parser)


#: Bytes kept per matrix: K (4) and CEN, MCC, tMCC (8 each), and the exact pair counts'
#: working memory (38 bytes measured, rounded up); with --table, ACC and the measures again.
BYTES_PER_MATRIX = 28 + 40
BYTES_PER_TABLE_ROW = 40


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, settings the Config rejects or a run that would not fit."""
    try:
        Config(n_matrices=args.n, n_resamples=args.resamples, chunk_size=args.chunk_size)
    except (ValueError, TypeError) as err:
        parser.error(f"argument --n/--resamples/--chunk-size: {err}")
    per_matrix = BYTES_PER_MATRIX + (BYTES_PER_TABLE_ROW if args.table else 0)
    try:
        resources.require_memory(args.n * per_matrix, f"--n {args.n}")
    except ValueError as err:
        parser.error(f"argument --n: {err}")


def report(summary: dict) -> pd.DataFrame:
    """The measured statistics next to the printed ones."""
    import pandas as pd

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
                "measured (fitted k)": show(summary.get(key + "_fitted", "")),
            }
            for key, label in rows
        ]
    )


def save_columns(path, table: pd.DataFrame) -> None:
    """Write each column of ``table`` as an uncompressed ``.npy`` member of the zip ``path``.

    NumPy's ``.npz`` layout (``numpy.load`` reads it), with a fixed member date so that reruns
    write the same bytes.
    """
    import io
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name in table.columns:
            buffer = io.BytesIO()
            np.save(buffer, table[name].to_numpy())
            archive.writestr(
                zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), buffer.getvalue()
            )


def write_outputs(result: Result, timing: dict, out) -> None:
    """Write the summary, timing, per-K table, figures and (if kept) the per-matrix table."""
    from . import plotting

    write_table(out / "k_per_dimension.csv", result.per_k)
    figures = (("figure2", plot(result)), ("k_per_dimension", plot_k(result.per_k, result.summary)))
    for name, fig in figures:
        for suffix in (".png", ".pdf"):
            save_figure(fig, out / f"{name}{suffix}")
        plotting.close(fig)
    if result.table is not None:
        write_atomic(out / "matrices.npz", lambda tmp: save_columns(tmp, result.table))
    write_json(out / "timing.json", timing)
    write_json(out / "summary.json", result.summary)


def main(args: argparse.Namespace) -> int:
    """Run at the command line's settings, write every output, report."""
    config = Config(
        n_matrices=args.n, seed=args.seed, n_resamples=args.resamples, chunk_size=args.chunk_size
    )
    result, timing = run(
        config,
        jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler,
        quiet=args.quiet,
        keep_table=args.table,
    )
    out = output_dir(args.out, NAME)
    write_outputs(result, timing, out)
    summary = result.summary
    print(markdown_table(report(summary)))
    fit = summary["k_fit"]
    if fit is not None:
        print(
            f"fitted k: a={fit['a']:.5f}±{fit['a_se']:.5f}, b={fit['b']:.5f}±{fit['b_se']:.5f}, "
            f"c={fit['c']:.5f}±{fit['c_se']:.5f}"
        )
    print(f"computation {timing['computation_seconds']:.2f} s")
    return 0
