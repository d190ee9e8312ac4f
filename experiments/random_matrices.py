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
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

import cenmcc
from cenmcc.simulation import KRatio, PaperGenerator, Result, Simulation, figures, resources
from cenmcc.simulation import run as run_simulation
from cenmcc.simulation.cli import (
    add_output_arguments,
    add_parallel_arguments,
    add_seed_argument,
    number,
    positive_int,
)
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table
from cenmcc.simulation.streaming import Histogram2D

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


@dataclasses.dataclass(frozen=True)
class Config:
    """The random-matrix experiment: the papers' generator and the run's settings.

    Attributes
    ----------
    n_matrices : int
        Number of matrices (200,000 in the papers).
    generator : PaperGenerator
        The papers' generator; its defaults are the printed protocol.
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
    generator: PaperGenerator = dataclasses.field(default_factory=PaperGenerator)
    chunk_size: int = 10_000
    seed: int = 0
    n_resamples: int = 999
    confidence_level: float = 0.95

    def __post_init__(self):
        self.simulation()  # checks every setting

    def simulation(self, **changes) -> Simulation:
        """This experiment as a :class:`~cenmcc.simulation.Simulation` (``changes`` to it)."""
        settings = {
            "measures": MEASURES,
            "studies": (self.study(),),
            "pairs": (("cen", "mcc"),),
            "density_pairs": (("cen", "mcc"),),
            "histogram_bins": 200,
        } | changes
        return Simulation(
            self.generator,
            n_matrices=self.n_matrices,
            seed=self.seed,
            chunk_size=self.chunk_size,
            **settings,
        )

    def study(self, **changes) -> KRatio:
        """The papers' study of tMCC against k·CEN, with the printed k by default."""
        return KRatio(
            n_resamples=self.n_resamples, confidence_level=self.confidence_level, **changes
        )


#: The bootstrap intervals of the mean ratio.
INTERVALS = ("student", "percentile", "bca")

#: The measures of every matrix.
MEASURES = ("cen", "mcc", "tmcc")


class Outcome(NamedTuple):
    """The experiment's results: the papers' statistics and what the figures and tables need.

    Attributes
    ----------
    summary : dict
        Every statistic under the papers' names, the printed values next to them.
    per_k : pandas.DataFrame
        The empirical k per number of classes (k_per_dimension.csv).
    histograms : dict of str to Histogram2D
        ``mcc_cen`` (MCC, CEN) and ``tmcc_kcen`` (tMCC, k·CEN): Figure 2.
    table : pandas.DataFrame or None
        Every matrix's K and measures, with ``keep_table``.
    result : cenmcc.simulation.Result
        The simulation's own result.
    """

    summary: dict
    per_k: pd.DataFrame
    histograms: dict
    table: pd.DataFrame | None
    result: Result


def run(
    config: Config | None = None,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
    keep_table: bool = False,
) -> tuple[Outcome, dict]:
    """The whole experiment: generate, measure, summarize; timed.

    Parameters
    ----------
    config : Config, optional
        Defaults to the papers' settings, ``Config()``.
    jobs, backend, scheduler, quiet
        As in :func:`cenmcc.simulation.parallel.iter_tasks`; they change the wall time only.
    keep_table : bool
        Keep every measure of every matrix (``outcome.table``).

    Returns
    -------
    outcome : Outcome
    timing : dict
        ``computation_seconds`` (generation, metrics and statistics) and the parallel settings.
    """
    import pandas as pd

    config = config or Config()
    result = run_simulation(
        config.simulation(keep_table=keep_table),
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        quiet=quiet,
    )
    summary = papers_summary(config, result)
    histograms = {
        "mcc_cen": _transposed(result.histograms["cen", "mcc"]),
        "tmcc_kcen": result.states[1].histogram,
    }
    table = pd.DataFrame(result.table, copy=False) if result.table is not None else None
    outcome = Outcome(summary, per_k_frame(result.study(STUDY)), histograms, table, result)
    return outcome, result.timing


#: The name of the papers' study in the simulation.
STUDY = KRatio().name


def papers_summary(config: Config, result: Result) -> dict:
    """The run's statistics under the names the papers' claims are checked by."""
    s, study = result.summary, result.study(STUDY)
    cen_mcc = result.pair("cen", "mcc")
    raw = cen_mcc["pair_counts"]  # oriented: CEN negated, so as counted for (CEN, -MCC)
    out = {
        "n_matrices": config.n_matrices,
        "seed": config.seed,
        "n_chunks": s["n_chunks"],
        "k_range": list(config.generator.k_range),
        "config": {
            **dataclasses.asdict(config.generator),
            "n_resamples": config.n_resamples,
            "chunk_size": config.chunk_size,
            "confidence_level": config.confidence_level,
        },
        # The papers' r(CEN, MCC) is of the raw measures: the agreement's is of CEN negated.
        "pearson_cen_mcc": -cen_mcc["pearson"],
        "pearson_tmcc_kcen_by_k": study["pearson_by_k"],
        "consistency_cen_mcc": cen_mcc["consistency"],
        "ties_cen_mcc": raw["f_only"] + raw["g_only"] + raw["both_tied"],
        "pairs_cen_mcc": raw,
    }
    errors = {
        "pearson_cen_mcc": cen_mcc["pearson_se"],
        "consistency_cen_mcc": cen_mcc["consistency_se"],
    }
    for suffix in ("", "_fitted"):
        if f"consistency{suffix}" not in study:
            continue
        intervals = study[f"intervals{suffix}"]
        out |= {
            f"consistency_tmcc_kcen{suffix}": study[f"consistency{suffix}"],
            f"ties_tmcc_kcen{suffix}": study[f"ties{suffix}"],
            f"pairs_tmcc_kcen{suffix}": study[f"pair_counts{suffix}"],
            f"pearson_tmcc_kcen{suffix}": study[f"pearson{suffix}"],
            f"mean_ratio_tmcc_kcen{suffix}": study[f"mean_ratio{suffix}"],
            f"sd_ratio_tmcc_kcen{suffix}": study[f"sd_ratio{suffix}"],
            **{
                f"ci95_{kind}{suffix}": intervals[kind] for kind in ("student", "percentile", "bca")
            },
        }
        errors |= {
            f"pearson_tmcc_kcen{suffix}": study[f"pearson{suffix}_se"],
            f"mean_ratio_tmcc_kcen{suffix}": study[f"mean_ratio{suffix}_se"],
            f"sd_ratio_tmcc_kcen{suffix}": study[f"sd_ratio{suffix}_se"],
        }
    errors["consistency_tmcc_kcen"] = study["consistency_se"]
    return out | {
        "k_fit": study["k_fit"],
        "standard_errors": errors,
        "standard_errors_method": (
            "run-to-run SD of each statistic at n matrices: r, the mean and SD of the ratio "
            f"jackknifed over {s['standard_errors']['jackknife_groups']} groups of whole chunks "
            "(k refitted in each); the degrees of consistency from the spread over "
            f"{s['standard_errors']['replicates']} replicate chunks, times "
            "sqrt(chunk_size / n_matrices). " + s["standard_errors"]["jackknife"]
        ),
        "bootstrap": study["bootstrap"],
        "ratio_undefined": study["ratio_undefined"],
        "ties_rule": "exact equality of the float64 values; ties_* = pairs tied in either",
        "k_paper": dict(zip("abc", cenmcc.K_PAPER, strict=True)),
        "printed": PRINTED,
    }


def per_k_frame(study: dict) -> pd.DataFrame:
    """The empirical k per dimension (k_per_dimension.csv): the study's per-K table."""
    import pandas as pd

    return pd.DataFrame(study["per_k"]).rename(
        columns={
            "k": "k_paper",
            "mean_ratio": "mean_ratio_paper",
            "k_fitted": "k_fit",
            "mean_ratio_fitted": "mean_ratio_fit",
        }
    )


def _transposed(hist: Histogram2D) -> Histogram2D:
    """The histogram with its axes swapped."""
    return Histogram2D(hist.counts.T.copy(), hist.outside, hist.y_range, hist.x_range)


# --------------------------------------------------------------------------------------------
# Figures


def plot(outcome: Outcome) -> Figure:
    """Figure 2 of Jurman et al. (2012) as densities: CEN against MCC, k·CEN against tMCC.

    Each panel is a 2-D histogram of every matrix (log-scaled counts), so the figure costs
    the same at any n; k is the printed one.
    """
    fig = figures.density_panels(
        [
            (outcome.histograms["mcc_cen"], "MCC", "CEN", "(a) CEN vs MCC"),
            (outcome.histograms["tmcc_kcen"], "tMCC", "k·CEN", "(b) k·CEN vs tMCC"),
        ]
    )
    ax = fig.axes[1]
    lo, hi = outcome.histograms["tmcc_kcen"].x_range
    with figures.style():
        ax.plot([lo, hi], [lo, hi], color="0.3", lw=0.8, ls="--", label="k·CEN = tMCC")
        ax.legend(loc="upper left")
    return fig


def plot_k(outcome: Outcome) -> Figure:
    """The empirical k per dimension (mean ± 1 SD of tMCC/CEN), the printed and the fitted k."""
    return figures.k_per_dimension(outcome.result.study(STUDY))


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


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, settings the Config rejects or a run that would not fit."""
    try:
        config = Config(n_matrices=args.n, n_resamples=args.resamples, chunk_size=args.chunk_size)
    except (ValueError, TypeError) as err:
        parser.error(f"argument --n/--resamples/--chunk-size: {err}")
    try:
        resources.require_simulation(
            config.simulation(),
            what=f"--n {number(args.n)}",
            jobs=args.jobs,
            scheduler=args.scheduler,
            table=args.table,
        )
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
    from cenmcc.simulation import figures as plotting

    write_table(out / "k_per_dimension.csv", result.per_k)
    drawn = (("figure2", plot(result)), ("k_per_dimension", plot_k(result)))
    for name, fig in drawn:
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
