"""The random-matrix experiment's run: the simulation and the papers' summary."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, NamedTuple

import cenmcc
from cenmcc.simulation import KRatio, Result
from cenmcc.simulation import run as run_simulation
from cenmcc.simulation.streaming import Histogram2D

from .settings import PRINTED, Config

if TYPE_CHECKING:
    import pandas as pd


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
        "ties_rule": _ties_rule(s["ties"]),
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


def _ties_rule(ties: dict) -> str:
    """The run's tie rule in words (its summary's ``ties``), for the summary."""
    rules = {**ties["measures"], "tMCC and k·CEN": ties["study_columns"]}
    said = ", ".join(f"{name} {rule}" for name, rule in rules.items())
    if "tolerance" in rules.values():
        said += f" (rtol = {ties['rtol']:g})"
    return said + "; ties_* = pairs tied in either"
