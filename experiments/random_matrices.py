"""The 200,000 random confusion matrices: tMCC against k·CEN, the fitted k and Figure 2.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012), "Relationships
between CEN and MCC", check Eq. (3), ``tMCC ≈ k(K)·CEN``, on 200,000 random matrices of
dimension 3 to 30: every diagonal entry a uniform random integer in [1, 1000], every
off-diagonal entry a uniform random integer in [1, ⌊1000·ρ_i⌋] with ρ_i uniform in [0.01, 1].
They print a Pearson correlation of 0.9941477 between tMCC and k·CEN, a degree of consistency
of 1 - 10⁻⁷ with no ties, and a mean ratio tMCC/(k·CEN) of 1.000508 with the 95% bootstrap
Student interval (1.000328, 1.000711).

This module is the papers' generator (:class:`Config`, :class:`PaperGenerator`) on the
streaming engine of :mod:`cenmcc.simulation.engine`: chunks drawn from their own streams,
reduced in the workers to mergeable statistics, bit-identical for any number of workers and
any backend, memory flat in n but for 28 bytes a matrix (and 38 more while the exact pair
counts run).

``python -m experiments random-matrices`` writes to ``figures/random_matrices/``:
``summary.json`` (every statistic, the printed values next to them), ``k_per_dimension.csv``
(the empirical k per K), ``figure2.png``/``.pdf`` (Figure 2 as densities) and
``k_per_dimension.png``/``.pdf``; with ``--table``, every matrix's measures in
``matrices.npz`` (not in git).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import TYPE_CHECKING

import numpy as np

import cenmcc
from cenmcc.simulation import resources
from cenmcc.simulation.cli import (
    add_output_arguments,
    add_parallel_arguments,
    add_seed_argument,
    number,
    positive_int,
)
from cenmcc.simulation.engine import Result
from cenmcc.simulation.engine import run as run_simulation
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table
from cenmcc.simulation.papers import Config

from .registry import Computed

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

#: The values printed by Jurman & Furlanello (2010), Sec. 2 (the journal version, Jurman,
#: Riccadonna & Furlanello 2012, prints the same ratio and interval and "about 0.994").
PRINTED = {
    "pearson_tmcc_kcen": 0.9941477,
    "consistency_tmcc_kcen": 1 - 1e-7,
    "ties_tmcc_kcen": 0,
    "mean_ratio_tmcc_kcen": 1.000508,
    "ci95_student": [1.000328, 1.000711],
}

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
        As in :func:`cenmcc.simulation.parallel.iter_tasks`; they change the wall time only.
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
        resources.require_memory(args.n * per_matrix, f"--n {number(args.n)}")
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


def write_outputs(result: Result, out) -> None:
    """Write the per-K table, the figures and (if kept) the per-matrix table."""
    from . import plotting

    write_table(out / "k_per_dimension.csv", result.per_k)
    figures = (("figure2", plot(result)), ("k_per_dimension", plot_k(result.per_k, result.summary)))
    for name, fig in figures:
        for suffix in (".png", ".pdf"):
            save_figure(fig, out / f"{name}{suffix}")
        plotting.close(fig)
    if result.table is not None:
        write_atomic(out / "matrices.npz", lambda tmp: save_columns(tmp, result.table))


def main(args: argparse.Namespace, out) -> Computed:
    """Run at the command line's settings, write the tables and figures into ``out``, report."""
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
    write_outputs(result, out)
    summary = result.summary
    print(markdown_table(report(summary)))
    fit = summary["k_fit"]
    if fit is not None:
        print(
            f"fitted k: a={fit['a']:.5f}±{fit['a_se']:.5f}, b={fit['b']:.5f}±{fit['b_se']:.5f}, "
            f"c={fit['c']:.5f}±{fit['c_se']:.5f}"
        )
    seconds = timing.pop("computation_seconds")
    print(f"computation {seconds:.2f} s")
    return Computed(summary, seconds, timing)
