"""Protocol sensitivity: which reading of the random-matrix protocol gives the printed numbers.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012) print, for their
200,000 random matrices, r(tMCC, k·CEN) = 0.9941477, a degree of consistency of 1 - 10⁻⁷, and a
mean tMCC/(k·CEN) of 1.000508 with the 95% bootstrap Student interval (1.000328, 1.000711),
which implies an SD of the ratio of about 0.044 at n = 200,000. The protocol as printed
(:mod:`experiments.random_matrices`) gives other values. This experiment reruns the
simulation under a grid of readings (:data:`READINGS`), each a named deviation from the printed
text (how N is drawn, where ρ applies, the integer ranges, the logarithm of k(N), the first line
of Eq. (3), the base of CEN's logarithm, k refitted, the interval, the tie rule), on the same
chunked deterministic engine (:mod:`cenmcc.simulation.engine`), and measures the distance of each
statistic from its published value in combined standard errors (:func:`distances`).

``python -m experiments protocol`` writes to ``figures/protocol/``: ``readings.csv`` and
``readings.md`` (one row per reading and statistic), ``protocol.png``/``.pdf`` and
``summary.json`` (every reading's statistics, how each standard error is obtained, the check of
the batch standard errors against independent seeds, the closest reading and the verdict).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from statistics import NormalDist
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

import cenmcc
from cenmcc.simulation import PaperGenerator, resources
from cenmcc.simulation.cli import (
    add_output_arguments,
    add_parallel_arguments,
    add_seed_argument,
    non_negative_int,
    number,
    positive_int,
)
from cenmcc.simulation.engine import run as run_simulation
from cenmcc.simulation.outputs import (
    markdown_table,
    save_figure,
    stored_table,
    write_atomic,
    write_table,
)

from . import random_matrices
from .random_matrices import PRINTED, Config, papers_summary
from .registry import Computed

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

#: Number of matrices of the published run.
N_PRINTED = 200_000
#: A published value is reproduced when within this many combined standard errors.
THRESHOLD = 3.0


class Target(NamedTuple):
    """A published value, its own Monte Carlo standard error (None: not stated) and its text."""

    value: float
    se: float | None
    text: str


_LO, _HI = PRINTED["ci95_student"]
#: Standard error of the published mean ratio implied by its 95% interval (half-width / z_0.975).
SE_MEAN_PRINTED = (_HI - _LO) / 2 / NormalDist().inv_cdf(0.975)

#: The published values, Sec. 2 of Jurman & Furlanello (2010) (the journal prints the same ratio
#: and interval). The SD of the ratio is not printed: it is the one the interval implies.
TARGETS = {
    "pearson_tmcc_kcen": Target(PRINTED["pearson_tmcc_kcen"], None, "0.9941477"),
    "consistency_tmcc_kcen": Target(PRINTED["consistency_tmcc_kcen"], None, "1 - 10⁻⁷"),
    "mean_ratio": Target(PRINTED["mean_ratio_tmcc_kcen"], SE_MEAN_PRINTED, "1.000508"),
    "sd_ratio": Target(
        SE_MEAN_PRINTED * math.sqrt(N_PRINTED), None, "implied by the interval at n = 200,000"
    ),
    "ci95_low": Target(_LO, SE_MEAN_PRINTED, "1.000328"),
    "ci95_high": Target(_HI, SE_MEAN_PRINTED, "1.000711"),
}
#: The figure's panel titles (short: each panel is a sixth of the page wide).
PANEL_TITLES = {
    "pearson_tmcc_kcen": "Pearson $r$",
    "consistency_tmcc_kcen": "consistency",
    "mean_ratio": "mean ratio",
    "sd_ratio": "SD of ratio",
    "ci95_low": "95% CI, low",
    "ci95_high": "95% CI, high",
}
#: Every statistic reported per reading: the targets, and r(CEN, MCC) (no printed number).
STATISTICS = (*TARGETS, "pearson_cen_mcc")

#: How each standard error is obtained (written into the summary).
SE_METHOD = (
    "se_run: the run's own standard error: r, the mean and the SD of the ratio jackknifed over "
    "groups of whole chunks (k refitted in each, for the readings with k refitted); the degree "
    "of consistency from the spread over replicate chunks times sqrt(chunk_size / n); for the "
    "interval's ends, the mean ratio's. se_published: the "
    "published value's own Monte Carlo error: for the mean ratio and the interval's ends, the "
    "half-width of the printed interval over z_0.975; otherwise (not stated) that of a run of "
    "the same reading at the authors' n, se_run * sqrt(n / 200,000). Combined SE = "
    "sqrt(se_run² + se_published²) (the difference of two runs: sqrt(2) se_run at n = 200,000); "
    "distance = (measured - published) / combined SE; reproduced when |distance| <= 3."
)

K_LOGS = {"e": math.e, "2": 2.0, "10": 10.0}
EQ3_LINES = ("journal", "preprint")
CEN_BASES = ("2N-2", "2N", "N")
INTERVALS = ("student", "percentile", "bca")
TIE_RULES = ("excluded", "half")


def _cen_base(name: str, K: int) -> float:
    return {"2N-2": 2.0 * K - 2.0, "2N": 2.0 * K, "N": float(K)}[name]


@dataclasses.dataclass(frozen=True)
class LogBaseK:
    """k(N) of Eq. (3) with its logarithm read to ``base``: ``a (1 + b/log_β N + c/log_β² N)``.

    Since ``1/log_β N = ln β / ln N``, this is :func:`cenmcc.k_factor` with ``b ln β`` and
    ``c ln² β``.
    """

    base: float

    def __call__(self, K):
        ln_base = math.log(self.base)
        a, b, c = cenmcc.K_PAPER
        return cenmcc.k_factor(K, a, b * ln_base, c * ln_base**2)


@dataclasses.dataclass(frozen=True)
class CenInBase:
    """CEN with its logarithms to another base: ``cenmcc.cen · ln(2N - 2) / ln(base)``."""

    base: str

    def __call__(self, C: np.ndarray) -> np.ndarray:
        K = C.shape[-1]
        return cenmcc.cen(C) * (math.log(2.0 * K - 2.0) / math.log(_cen_base(self.base, K)))


def tmcc_preprint(C: np.ndarray) -> np.ndarray:
    """tMCC from the preprint's first line of Eq. (3).

    ``(1 - MCC)(1 + log_{2N-2}(Σ_ij C_ij / N))(1 - 1/N)``.
    """
    K = C.shape[-1]
    log_term = np.log(C.sum(axis=(-2, -1), dtype=np.float64) / K) / math.log(2.0 * K - 2.0)
    return (1.0 - cenmcc.mcc(C)) * (1.0 + log_term) * (1.0 - 1.0 / K)


def reading_measures(eq3: str, cen_base: str) -> tuple:
    """CEN, MCC and tMCC under a reading of Eq. (1) and Eq. (3), as measures of a simulation.

    ``eq3="preprint"``: tMCC from the preprint's first line of Eq. (3); ``"journal"``:
    :func:`cenmcc.tmcc`. ``cen_base``: CEN with logarithms to base 2N - 2 (printed), 2N or N.
    """
    cen = (
        "cen"
        if cen_base == "2N-2"
        else cenmcc.Measure("cen", CenInBase(cen_base), greater_is_better=False, label="CEN")
    )
    tmcc = (
        "tmcc"
        if eq3 == "journal"
        else cenmcc.Measure("tmcc", tmcc_preprint, greater_is_better=False, label="tMCC")
    )
    return (cen, "mcc", tmcc)


@dataclasses.dataclass(frozen=True)
class Reading:
    """One reading of the printed protocol: a named deviation from the text (defaults: printed).

    Attributes
    ----------
    name, description : str
    generator : tuple of (str, value) pairs
        Changes to :class:`experiments.random_matrices.Config` (how the matrices are drawn).
    k_log : {"e", "2", "10"}
        The base of the logarithm written "log" in k(N) (natural as printed in the code's reading).
    eq3 : {"journal", "preprint"}
        Which first line of Eq. (3) defines tMCC (:class:`ReadingMeasures`).
    cen_base : {"2N-2", "2N", "N"}
        The base of CEN's logarithm.
    k_refitted : bool
        Statistics with k(N) refitted to the run instead of the printed constants.
    interval : {"student", "percentile", "bca"}
        The bootstrap interval of the mean ratio (bootstrap-t as printed "Student").
    ties : {"excluded", "half"}
        Degree of consistency with tied pairs left out (Huang & Ling 2005, as printed) or
        counted as half concordant.
    """

    name: str
    description: str
    generator: tuple = ()
    k_log: str = "e"
    eq3: str = "journal"
    cen_base: str = "2N-2"
    k_refitted: bool = False
    interval: str = "student"
    ties: str = "excluded"

    def __post_init__(self):
        choices = {
            "k_log": (self.k_log, tuple(K_LOGS)),
            "eq3": (self.eq3, EQ3_LINES),
            "cen_base": (self.cen_base, CEN_BASES),
            "interval": (self.interval, INTERVALS),
            "ties": (self.ties, TIE_RULES),
        }
        for field, (value, allowed) in choices.items():
            if value not in allowed:
                raise ValueError(f"reading {self.name!r}: {field} must be one of {allowed}")
        self.config()  # checks the generator's changes

    def config(self, **settings) -> Config:
        """The experiment's :class:`Config` under this reading (``settings``: n, seed, ...)."""
        return Config(generator=PaperGenerator(**dict(self.generator)), **settings)

    @property
    def k(self):
        return cenmcc.k_factor if self.k_log == "e" else LogBaseK(K_LOGS[self.k_log])

    @property
    def measures(self) -> tuple:
        return reading_measures(self.eq3, self.cen_base)

    @property
    def run_key(self) -> tuple:
        """Readings with the same key share one simulation (they differ in the analysis only)."""
        return (self.generator, self.k_log, self.eq3, self.cen_base)


_NUMPY_EXCLUSIVE = (("upper_inclusive", False), ("k_range", (3, 29)))

#: The grid of readings, the printed one first.
READINGS = (
    Reading("printed", "The protocol as printed (Sec. 2 of both papers)."),
    Reading(
        "n-balanced",
        "An equal number of matrices of each N (per chunk), not N uniform per matrix.",
        (("k_scheme", "balanced"),),
    ),
    Reading(
        "n-3-to-29",
        "N uniform in 3..29 (an exclusive upper end, numpy's randint).",
        (("k_range", (3, 29)),),
    ),
    Reading("rho-per-row", "One ρ per row, not per matrix.", (("rho_scope", "row"),)),
    Reading("rho-per-entry", "One ρ per off-diagonal entry.", (("rho_scope", "entry"),)),
    Reading("offdiag-from-0", "Off-diagonal entries from 0, not 1.", (("off_diagonal_min", 0),)),
    Reading("diag-from-0", "Diagonal entries from 0, not 1.", (("diagonal_range", (0, 1000)),)),
    Reading(
        "upper-exclusive",
        "Upper ends of the entries' ranges excluded (1..999, 1..⌊1000ρ⌋ - 1).",
        (("upper_inclusive", False),),
    ),
    Reading(
        "numpy-exclusive",
        "Every upper end excluded, N included (numpy's randint): N in 3..29, entries as "
        "upper-exclusive.",
        _NUMPY_EXCLUSIVE,
    ),
    Reading("k-log2", "The log of k(N) read as base 2.", k_log="2"),
    Reading("k-log10", "The log of k(N) read as base 10.", k_log="10"),
    Reading(
        "eq3-preprint",
        "tMCC from the preprint's first line of Eq. (3) (Σ C_ij / N).",
        eq3="preprint",
    ),
    Reading("cen-base-2N", "CEN's logarithm to base 2N (a slip for 2N - 2).", cen_base="2N"),
    Reading("cen-base-N", "CEN's logarithm to base N.", cen_base="N"),
    Reading(
        "k-refitted", "k(N) refitted to the run instead of the printed constants.", k_refitted=True
    ),
    Reading("interval-percentile", "Percentile bootstrap interval.", interval="percentile"),
    Reading("interval-bca", "BCa bootstrap interval.", interval="bca"),
    Reading("ties-half", "Tied pairs counted as half concordant in the consistency.", ties="half"),
    Reading(
        "k-log2+cen-base-2N",
        "k(N) with log base 2 and CEN to base 2N (both raise the mean ratio).",
        k_log="2",
        cen_base="2N",
    ),
    Reading(
        "rho-per-row+k-refitted",
        "One ρ per row (raises the SD of the ratio), k(N) refitted (brings its mean to 1).",
        (("rho_scope", "row"),),
        k_refitted=True,
    ),
    Reading(
        "cen-base-2N+k-refitted",
        "CEN to base 2N (raises the SD of the ratio), k(N) refitted.",
        cen_base="2N",
        k_refitted=True,
    ),
    Reading(
        "rho-per-entry+k-refitted",
        "One ρ per off-diagonal entry, k(N) refitted.",
        (("rho_scope", "entry"),),
        k_refitted=True,
    ),
    Reading(
        "offdiag-from-0+k-refitted",
        "Off-diagonal entries from 0, k(N) refitted.",
        (("off_diagonal_min", 0),),
        k_refitted=True,
    ),
    Reading(
        "numpy-exclusive+k-refitted",
        "numpy-exclusive ranges, k(N) refitted.",
        _NUMPY_EXCLUSIVE,
        k_refitted=True,
    ),
)
READINGS_BY_NAME = {r.name: r for r in READINGS}


# --------------------------------------------------------------------------------------------
# Statistics of one reading


def consistency(pairs: dict, ties: str) -> float:
    """Degree of consistency from pair counts: ties left out, or counted half concordant."""
    c, d = pairs["concordant"], pairs["discordant"]
    if ties == "excluded":
        return c / (c + d) if c + d else math.nan
    tied = pairs["f_only"] + pairs["g_only"] + pairs["both_tied"]
    return (c + tied / 2) / (c + d + tied)


def statistics(reading: Reading, summary: dict) -> dict[str, float]:
    """The reading's statistics of a finished run (the analysis choices applied).

    A statistic the run cannot give (k refitted where the fit is undefined, an interval the
    bootstrap cannot give) is NaN.
    """
    suffix = "_fitted" if reading.k_refitted else ""
    interval = summary.get(f"ci95_{reading.interval}{suffix}") or [math.nan, math.nan]
    pairs = summary.get(f"pairs_tmcc_kcen{suffix}")
    return {
        "pearson_tmcc_kcen": summary.get(f"pearson_tmcc_kcen{suffix}", math.nan),
        "consistency_tmcc_kcen": consistency(pairs, reading.ties) if pairs else math.nan,
        "mean_ratio": summary.get(f"mean_ratio_tmcc_kcen{suffix}", math.nan),
        "sd_ratio": summary.get(f"sd_ratio_tmcc_kcen{suffix}", math.nan),
        "ci95_low": interval[0],
        "ci95_high": interval[1],
        "pearson_cen_mcc": summary["pearson_cen_mcc"],
    }


def standard_errors(reading: Reading, summary: dict) -> dict[str, float]:
    """The run's standard error of each of the reading's statistics (see :data:`SE_METHOD`)."""
    suffix = "_fitted" if reading.k_refitted else ""
    errors = summary["standard_errors"]
    se = {
        "pearson_tmcc_kcen": errors.get(f"pearson_tmcc_kcen{suffix}", math.nan),
        # k refitted orders the pairs as the printed k within 0.3%: the same replicate spread.
        "consistency_tmcc_kcen": errors["consistency_tmcc_kcen"],
        "mean_ratio": errors.get(f"mean_ratio_tmcc_kcen{suffix}", math.nan),
        "sd_ratio": errors.get(f"sd_ratio_tmcc_kcen{suffix}", math.nan),
        "pearson_cen_mcc": errors["pearson_cen_mcc"],
    }
    se["ci95_low"] = se["ci95_high"] = se["mean_ratio"]
    return se


def distances(stats: dict, se: dict, n: int) -> list[dict]:
    """One row per statistic: measured, its SE, the published value, its SE, the distance.

    See :data:`SE_METHOD`. A statistic without a published value (r(CEN, MCC)) gets NaN.
    """
    rows = []
    for name in STATISTICS:
        target = TARGETS.get(name)
        row = {"statistic": name, "measured": stats[name], "se": se[name]}
        if target is None:
            row |= dict.fromkeys(("published", "se_published", "combined_se", "distance"), math.nan)
            row["reproduced"] = ""
        else:
            se_pub = target.se if target.se is not None else se[name] * math.sqrt(n / N_PRINTED)
            combined = math.hypot(se[name], se_pub)
            gap = stats[name] - target.value
            distance = (
                gap / combined
                if combined > 0
                else (0.0 if gap == 0 else math.copysign(math.inf, gap))
            )
            row |= {
                "published": target.value,
                "se_published": se_pub,
                "combined_se": combined,
                "distance": distance,
                "reproduced": bool(abs(distance) <= THRESHOLD),
            }
        rows.append(row)
    return rows


def verdict(overview: pd.DataFrame) -> tuple[dict, str]:
    """The closest reading (smallest largest |distance|) and the honest verdict sentence."""
    best = overview.sort_values("max_abs_distance", kind="stable").iloc[0]
    closest = {
        "reading": best["reading"],
        "max_abs_distance": float(best["max_abs_distance"]),
        "reproduced": int(best["reproduced"]),
        "of": len(TARGETS),
    }
    winners = overview.loc[overview["max_abs_distance"] <= THRESHOLD, "reading"].tolist()
    if winners:
        sentence = (
            f"Reading(s) {', '.join(winners)} reproduce every published value within "
            f"{THRESHOLD:g} combined standard errors."
        )
    else:
        sentence = (
            f"No reading comes within {THRESHOLD:g} standard errors of all {len(TARGETS)} "
            f"published values; the closest, {closest['reading']}, reproduces "
            f"{closest['reproduced']} of them, its largest distance "
            f"{closest['max_abs_distance']:.3g} standard errors."
        )
    return closest, sentence


# --------------------------------------------------------------------------------------------
# The experiment


#: Matrices per chunk of each simulation.
CHUNK_SIZE = 10_000
#: The smallest n: two full chunks, which the batch standard errors and the refitted k need.
N_MIN = 2 * CHUNK_SIZE


def simulate(
    reading: Reading,
    n: int,
    seed: int,
    *,
    n_resamples: int = 999,
    chunk_size: int = CHUNK_SIZE,
    **parallel,
) -> dict:
    """Run the simulation of one reading; its statistics under the papers' names."""
    config = reading.config(n_matrices=n, seed=seed, n_resamples=n_resamples, chunk_size=chunk_size)
    sim = config.simulation(
        measures=reading.measures, studies=(config.study(k=reading.k),), density_pairs=()
    )
    return papers_summary(config, run_simulation(sim, **parallel))


#: The statistics whose standard errors come from the run itself (the others' from these).
RUN_ERRORS = (
    "pearson_tmcc_kcen",
    "consistency_tmcc_kcen",
    "mean_ratio",
    "sd_ratio",
    "pearson_cen_mcc",
)


def validate_standard_errors(printed: dict, n: int, seeds, n_validation: int, **settings) -> dict:
    """Compare the standard errors of the printed reading with the spread of independent seeds.

    Each seed runs the printed reading at ``n_validation`` matrices; the SD of a statistic over
    the seeds, times ``sqrt(n_validation / n)``, estimates its run-to-run SD at n.
    """
    reading = READINGS_BY_NAME["printed"]
    values = [statistics(reading, simulate(reading, n_validation, s, **settings)) for s in seeds]
    scale = math.sqrt(n_validation / n)
    out = {}
    for name in RUN_ERRORS:
        seed_sd = float(np.std([v[name] for v in values], ddof=1) * scale)
        out[name] = {
            "run_se": printed[name],
            "seed_sd": seed_sd,
            "ratio": seed_sd / printed[name] if printed[name] > 0 else math.nan,
        }
    return {
        "seeds": list(seeds),
        "n_per_seed": n_validation,
        "method": "SD over the seeds of the printed reading at n_per_seed matrices, times "
        "sqrt(n_per_seed / n), against the standard error the main run gives at n",
        "statistics": out,
    }


def run(
    readings=READINGS,
    *,
    n: int = N_PRINTED,
    seed: int = 0,
    n_resamples: int = 999,
    validation_seeds: int = 5,
    validation_n: int | None = None,
    **parallel,
) -> tuple[pd.DataFrame, dict, dict]:
    """Run every reading (sharing simulations where only the analysis differs); timed.

    Returns
    -------
    table : pandas.DataFrame
        Tidy: one row per reading and statistic (:func:`distances`).
    summary : dict
    timing : dict
    """
    import pandas as pd

    start, cpu = time.perf_counter(), time.process_time()
    results: dict[tuple, dict] = {}
    rows, per_reading, seconds = [], {}, {}
    se_printed = None
    for reading in readings:
        t0 = time.perf_counter()
        if reading.run_key not in results:
            results[reading.run_key] = simulate(
                reading, n, seed, n_resamples=n_resamples, **parallel
            )
        summary = results[reading.run_key]
        stats, se = statistics(reading, summary), standard_errors(reading, summary)
        if reading.name == "printed":
            se_printed = se
        reading_rows = distances(stats, se, n)
        rows += [{"reading": reading.name, **row} for row in reading_rows]
        compared = [r for r in reading_rows if r["statistic"] in TARGETS]
        per_reading[reading.name] = {
            "description": reading.description,
            "deviation": {
                f.name: getattr(reading, f.name)
                for f in dataclasses.fields(reading)
                if f.name not in ("name", "description")
            },
            "statistics": stats,
            "standard_errors": se,
            "distances": {r["statistic"]: r["distance"] for r in compared},
            "reproduced": sum(r["reproduced"] for r in compared),
            "max_abs_distance": max(
                (abs(r["distance"]) for r in compared), key=lambda d: (math.isnan(d), d)
            ),
        }
        seconds[reading.name] = time.perf_counter() - t0
    validation = None
    if validation_seeds >= 2 and se_printed is not None:
        t0 = time.perf_counter()
        validation = validate_standard_errors(
            se_printed,
            n,
            range(seed + 1, seed + 1 + validation_seeds),
            validation_n or max(n // 4, 3),
            n_resamples=n_resamples,
            **parallel,
        )
        seconds["se_validation"] = time.perf_counter() - t0
    table = pd.DataFrame(rows)
    overview = pd.DataFrame(
        [
            {
                "reading": name,
                "reproduced": v["reproduced"],
                "max_abs_distance": v["max_abs_distance"],
            }
            for name, v in per_reading.items()
        ]
    )
    closest, sentence = verdict(overview)
    compared = table[table["statistic"].isin(list(TARGETS))]
    nearest = compared.loc[compared["distance"].abs().groupby(compared["statistic"]).idxmin()]
    closest_per_statistic = {
        row.statistic: {"reading": row.reading, "distance": row.distance}
        for row in nearest.itertuples()
    }
    summary = {
        "n_matrices": n,
        "seed": seed,
        "threshold_se": THRESHOLD,
        "published": {name: t._asdict() for name, t in TARGETS.items()},
        "standard_errors_method": SE_METHOD,
        "readings": per_reading,
        "se_validation": validation,
        "closest": closest,
        "closest_per_statistic": closest_per_statistic,
        "reproducing_all": overview.loc[
            overview["max_abs_distance"] <= THRESHOLD, "reading"
        ].tolist(),
        "verdict": sentence,
    }
    timing = {
        "wall_seconds": time.perf_counter() - start,
        "main_process_cpu_seconds": time.process_time() - cpu,
        "simulations": len(results),
        "seconds_per_reading": seconds,
        **{k: v for k, v in parallel.items() if k in ("jobs", "backend")},
    }
    return table, summary, timing


# --------------------------------------------------------------------------------------------
# Figure and outputs


def _published_text(stat: str) -> str:
    """The published value as the figure states it."""
    if stat == "consistency_tmcc_kcen":
        return "$1 - 10^{-7}$"
    if stat == "sd_ratio":
        return f"{TARGETS[stat].value:.4f} (implied)"
    return f"{TARGETS[stat].value:.7g}"


def _symlog_ticks(ax, limit: float) -> None:
    """Symmetric-log x ticks: 0, ±3 and every decade marked; 0 and ±10^3 (or less) labelled."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    decades = [10.0**k for k in range(1, 7) if 10.0**k <= limit]
    labelled = {decades[min(2, len(decades) - 1)]} if decades else set()
    ticks = sorted({0.0, *decades, *(-d for d in decades)})
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(FixedLocator([-THRESHOLD, THRESHOLD]))
    ax.xaxis.set_minor_formatter(NullFormatter())

    def label(x, _pos):
        if x == 0:
            return "0"
        if abs(x) not in labelled:
            return ""
        k = round(math.log10(abs(x)))
        return f"$-10^{{{k}}}$" if x < 0 else f"$10^{{{k}}}$"

    ax.xaxis.set_major_formatter(FuncFormatter(label))


def plot(table: pd.DataFrame) -> Figure:
    """Each reading's distance from each published value, in combined standard errors.

    One tall panel per published statistic, side by side, the readings named once on the
    left; 0 is the published value, the shaded band ±3 combined SEs (reproduced), the bars
    ±1; a symmetric-log axis, linear within ±3, the same in every panel. Filled markers are
    reproduced values, open ones not; a line separates the single readings from their
    combinations.
    """
    from matplotlib.patches import Patch

    from cenmcc.simulation import figures as plotting

    names = list(dict.fromkeys(table["reading"]))
    y = np.arange(len(names))
    shown = table[table["statistic"].isin(TARGETS)]
    d_all = shown["distance"].to_numpy(dtype=float)
    finite = d_all[np.isfinite(d_all)]
    limit = max(3 * np.abs(finite).max(), 10 * THRESHOLD) if finite.size else 10 * THRESHOLD
    combined = [i for i, name in enumerate(names) if "+" in name]
    with plotting.style():
        fig, axes = plotting.subplots(
            1,
            len(TARGETS),
            width=plotting.PAGE / len(TARGETS),
            height=0.17 * len(names) + 1.6,
            sharey=True,
            sharex=True,
        )
        for ax, stat in zip(axes, TARGETS, strict=True):
            rows = table[table["statistic"] == stat].set_index("reading").loc[names]
            d = rows["distance"].to_numpy(dtype=float)
            inside = np.abs(d) <= THRESHOLD
            for i in y[::2]:  # every other row shaded, to follow a reading across the panels
                ax.axhspan(i - 0.5, i + 0.5, color="0.94", lw=0, zorder=0)
            ax.axvspan(-THRESHOLD, THRESHOLD, color="C2", alpha=0.22, lw=0, zorder=1)
            ax.axvline(0, color="0.3", lw=0.6, zorder=1)
            if combined and combined[0] > 0:  # single readings above, combinations below
                ax.axhline(combined[0] - 0.5, color="0.3", lw=0.6, zorder=1)
            ax.errorbar(d, y, xerr=1.0, fmt="none", ecolor="C0", elinewidth=0.8, zorder=2)
            ax.plot(d[~inside], y[~inside], "o", ms=3.2, mfc="white", mec="C0", mew=0.9, zorder=3)
            ax.plot(d[inside], y[inside], "o", ms=3.2, color="C0", zorder=3)
            ax.set_xscale("symlog", linthresh=THRESHOLD)
            ax.set_xlim(-limit, limit)
            _symlog_ticks(ax, limit)
            ax.set_title(f"{PANEL_TITLES[stat]}\n{_published_text(stat)}", fontsize=7)
            ax.grid(axis="y", visible=False)
            ax.tick_params(axis="y", length=0)
        axes[0].set_yticks(y, names)
        axes[0].set_ylim(len(names) - 0.5, -0.5)  # shared: the first reading on top
        printed = [t for t in axes[0].get_yticklabels() if t.get_text() == "printed"]
        for t in printed:
            t.set_fontweight("bold")
        fig.supxlabel(
            "distance from the published value (under each title), in combined standard"
            " errors;\nstatistics of tMCC and $k\\cdot$CEN, ratio = tMCC/($k\\cdot$CEN)",
            fontsize=8,
        )
        handles = [
            Patch(color="C2", alpha=0.22, lw=0, label=f"$\\pm{THRESHOLD:g}$ SE"),
            plotting.legend_key("inside: reproduced", ls="", marker="o", ms=3.2, color="C0"),
            plotting.legend_key(
                "outside: not reproduced", ls="", marker="o", ms=3.2, mfc="white", mec="C0", mew=0.9
            ),
            plotting.legend_key("$\\pm 1$ SE", color="C0", lw=0.8),
        ]
        fig.legend(handles=handles, loc="outside upper center", ncols=len(handles))
    return fig


def write_outputs(table: pd.DataFrame, summary: dict, out) -> None:
    """CSV, Markdown and the figure."""
    import pandas as pd

    from cenmcc.simulation import figures as plotting

    write_table(out / "readings.csv", table)
    overview = pd.DataFrame(
        [
            {
                "reading": name,
                "description": v["description"],
                "reproduced": f"{v['reproduced']} of {len(TARGETS)}",
                "max |distance|": v["max_abs_distance"],
            }
            for name, v in summary["readings"].items()
        ]
    )
    text = "\n\n".join(
        [
            f"# Protocol readings: n = {summary['n_matrices']:,}, seed {summary['seed']}",
            summary["verdict"],
            markdown_table(overview),
            SE_METHOD,
            markdown_table(table, floatfmt=".7g"),
        ]
    )
    write_atomic(out / "readings.md", lambda tmp: tmp.write_text(text + "\n"))
    fig = plot(stored_table(table))  # the values readings.csv holds: the same vectors anywhere
    for suffix in (".png", ".pdf"):
        save_figure(fig, out / f"protocol{suffix}")
    plotting.close(fig)


# --------------------------------------------------------------------------------------------
# Command line


def _reading_names(text: str) -> tuple[str, ...]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in READINGS_BY_NAME]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown readings {unknown}; choose from {list(READINGS_BY_NAME)}"
        )
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise argparse.ArgumentTypeError(f"readings named more than once: {repeated}")
    return tuple(names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n",
        type=positive_int,
        default=N_PRINTED,
        help=f"matrices per reading, at least {N_MIN:,}",
    )
    parser.add_argument("--resamples", type=positive_int, default=999, help="bootstrap resamples")
    parser.add_argument(
        "--readings",
        type=_reading_names,
        default=tuple(READINGS_BY_NAME),
        help="comma-separated reading names (default: all, " + ", ".join(READINGS_BY_NAME) + ")",
    )
    parser.add_argument(
        "--validation-seeds",
        type=non_negative_int,
        default=5,
        help="extra seeds of the printed reading that check the batch SEs (0 or 1: none)",
    )
    parser.add_argument(
        "--validation-n",
        type=positive_int,
        default=None,
        help="matrices per extra seed (default: n/4)",
    )
    add_seed_argument(parser)
    add_parallel_arguments(parser)
    add_output_arguments(parser)


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, an n too small for the statistics or too large for the machine.

    The simulations run one after the other, each keeping what its pair counts need until it
    ends: the footprint of one random-matrices run of ``--n`` matrices.
    """
    if args.n < N_MIN:
        parser.error(
            f"argument --n: must be at least {N_MIN:,} (two full chunks of {CHUNK_SIZE:,} "
            f"matrices, for the batch standard errors and the refitted k), got {number(args.n)}"
        )
    try:
        resources.require_simulation(
            random_matrices.Config(n_matrices=args.n).simulation(),
            what=f"--n {number(args.n)}",
            jobs=args.jobs,
            scheduler=args.scheduler,
        )
    except ValueError as err:
        parser.error(f"argument --n: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Run the grid at the command line's settings, write the tables and figure, report."""
    table, summary, timing = run(
        tuple(READINGS_BY_NAME[name] for name in args.readings),
        n=args.n,
        seed=args.seed,
        n_resamples=args.resamples,
        validation_seeds=args.validation_seeds,
        validation_n=args.validation_n,
        jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler,
        quiet=args.quiet,
    )
    write_outputs(table, summary, out)
    for name, v in summary["readings"].items():
        print(
            f"{name:28s} reproduced {v['reproduced']}/{len(TARGETS)}  "
            f"max |d| {v['max_abs_distance']:.3g}"
        )
    print(summary["verdict"])
    seconds = timing.pop("wall_seconds")
    print(f"{seconds:.1f} s wall, {timing['main_process_cpu_seconds']:.1f} s CPU (main process)")
    return Computed(summary, seconds, timing)
