"""The blog tutorial's R examples, run by R itself when ``Rscript`` is installed.

``paper_checks/tutorial.R`` replays the tutorial's iris example (its ``set.seed(12345)``, its
90/60 split, a Gaussian naive Bayes with klaR's defaults, its own ``multiclass.auc``) and its pROC
example (``multiclass.roc(aSAH$gos6, aSAH$s100b)``). R changed its default sampler in 3.6, so the
split is drawn twice: with the current sampler (``sample.kind = "Rejection"``) and with the one R
used before (``"Rounding"``). The records compare what R prints with the published values, and
with what cenmcc computes on the same predictions.

Without ``Rscript`` (or without the R package pROC) the records are "not checkable", with that
reason; install both with ``apt-get install --no-install-recommends r-base-core r-cran-proc``.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from .record import NotCheckable

#: The R script, beside this module.
SCRIPT = Path(__file__).resolve().parent / "tutorial.R"
#: The program the R records need (``python -m paper_checks --rscript`` changes it; None: no R).
RSCRIPT = "Rscript"
rscript: str | None = shutil.which(RSCRIPT)
#: How to install what the R records need (Debian).
INSTALL = "apt-get install --no-install-recommends r-base-core r-cran-proc"
#: R's samplers: the current one (R >= 3.6) and the one before.
SAMPLERS = ("Rejection", "Rounding")
#: Seconds one run of the script may take (it takes about one).
TIMEOUT_S = 120


@dataclass(frozen=True)
class RRun:
    """What one run of ``tutorial.R`` wrote.

    Attributes
    ----------
    values : dict of str to str
        ``values.csv``: the values the tutorial's code prints, and the R and pROC versions.
    rows : ndarray of int, shape (60,)
        The test split: rows of R's ``iris`` (1-based, as in R).
    species : ndarray of str, shape (60,)
        The test split's species.
    posterior : ndarray, shape (60, 3)
        The three-class model's posteriors (columns setosa, versicolor, virginica).
    one_vs_all : ndarray, shape (60, 3)
        Each one-vs-all model's posterior of its class.
    asah : tuple of (ndarray of str, ndarray) or None
        pROC's ``aSAH$gos6`` and ``aSAH$s100b``; None when pROC is not installed.
    asah_pairs : list of dict or None
        pROC's AUC and direction for each pair of ``gos6`` levels.
    """

    values: dict
    rows: np.ndarray
    species: np.ndarray
    posterior: np.ndarray
    one_vs_all: np.ndarray
    asah: tuple | None
    asah_pairs: list | None

    @property
    def version(self) -> str:
        """The R version (and pROC's) that computed it, with the sampler."""
        v = self.values
        return (
            f"{v['r_version']}, pROC {v.get('proc_version', 'absent')}, sampler {v['sample_kind']}"
        )


def _rows(path: Path) -> list[dict]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@cache
def run_tutorial(sampler: str, program: str) -> RRun | NotCheckable:
    """Run ``tutorial.R`` with R's ``sampler`` through ``program``.

    Returns :class:`NotCheckable` with ``missing`` set when ``program`` cannot be started (R is
    absent), and without it when the script fails (a fault to report, not a missing program).
    """
    with tempfile.TemporaryDirectory(prefix="paper_checks_r_") as tmp:
        try:
            done = subprocess.run(
                [program, str(SCRIPT), tmp, sampler],
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return NotCheckable(f"{program} {SCRIPT.name} could not run: {error}", missing=RSCRIPT)
        out = Path(tmp)
        if not (out / "values.csv").exists():
            last = done.stderr.strip().splitlines()[-1:] or ["no message"]
            return NotCheckable(
                f"{program} {SCRIPT.name} failed (status {done.returncode}): {last[0]}"
            )
        test = _rows(out / "iris_test.csv")
        species = ("setosa", "versicolor", "virginica")
        values = {r["name"]: r["value"] for r in _rows(out / "values.csv")}
        asah = asah_pairs = None
        if (out / "proc_values.csv").exists():
            values.update({r["name"]: r["value"] for r in _rows(out / "proc_values.csv")})
            rows = _rows(out / "asah.csv")
            asah = (
                np.array([r["gos6"] for r in rows]),
                np.array([float(r["s100b"]) for r in rows]),
            )
            asah_pairs = _rows(out / "asah_pairs.csv")
        return RRun(
            values=values,
            rows=np.array([int(r["row"]) for r in test]),
            species=np.array([r["species"] for r in test]),
            posterior=np.array([[float(r[s]) for s in species] for r in test]),
            one_vs_all=np.array([[float(r[f"ova_{s}"]) for s in species] for r in test]),
            asah=asah,
            asah_pairs=asah_pairs,
        )


def tutorial_run(sampler: str = SAMPLERS[0]) -> RRun | NotCheckable:
    """The run of ``tutorial.R`` with ``sampler``, or why there is none (R not installed)."""
    if rscript is None:
        return NotCheckable(
            f"{RSCRIPT} is not installed (install R and pROC: {INSTALL})", missing=RSCRIPT
        )
    return run_tutorial(sampler, rscript)


def proc_run() -> RRun | NotCheckable:
    """The run of ``tutorial.R`` with pROC's example in it, or why there is none."""
    run = tutorial_run()
    if isinstance(run, RRun) and run.asah is None:
        return NotCheckable(f"the R package pROC is not installed ({INSTALL})", missing=RSCRIPT)
    return run
