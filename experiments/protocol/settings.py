"""The protocol experiment's settings: the published targets and every reading of the protocol."""

from __future__ import annotations

import dataclasses
import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

import cenmcc
from cenmcc.simulation import PaperGenerator
from cenmcc.simulation.agreement import MIN_JACKKNIFE_GROUPS
from experiments.misprints import eq3_first_line_preprint

from ..random_matrices import PRINTED, Config

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
    """tMCC from the preprint's first line of Eq. (3): its one transcription,
    :func:`experiments.misprints.eq3_first_line_preprint`."""
    return eq3_first_line_preprint(C)


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


#: Matrices per chunk of each simulation, at most (:func:`chunk_size`).
CHUNK_SIZE = 10_000


def chunk_size(n: int) -> int:
    """Matrices per chunk of a simulation of ``n``: :data:`CHUNK_SIZE`, or fewer so that it has
    at least ``MIN_JACKKNIFE_GROUPS`` (20) whole chunks, the groups over which the k-ratio
    study's statistics are jackknifed; with fewer, their standard errors are not honest (the
    printed n, 200,000, has 20 chunks of 10,000; its validation seeds, of 50,000, 20 of 2,500).
    """
    return max(1, min(CHUNK_SIZE, n // MIN_JACKKNIFE_GROUPS))


#: The smallest n taken: 20 chunks of 1,000 (:func:`chunk_size`).
N_MIN = 20_000
