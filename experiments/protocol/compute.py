"""The protocol experiment's run: one simulation per distinct generator, every reading analysed."""

from __future__ import annotations

import dataclasses
import math
import time
from typing import TYPE_CHECKING

import numpy as np

from cenmcc.simulation.engine import run as run_simulation
from cenmcc.simulation.validation import said_once

from ..random_matrices.compute import papers_summary
from . import settings
from .findings import distances, standard_errors, statistics, verdict
from .settings import (
    N_PRINTED,
    READINGS,
    READINGS_BY_NAME,
    SE_METHOD,
    TARGETS,
    THRESHOLD,
    Reading,
)

if TYPE_CHECKING:
    import pandas as pd


def simulate(
    reading: Reading,
    n: int,
    seed: int,
    *,
    n_resamples: int = 999,
    chunk_size: int | None = None,
    **parallel,
) -> dict:
    """Run the simulation of one reading; its statistics under the papers' names.

    ``chunk_size`` defaults to :func:`~experiments.protocol.settings.chunk_size` of ``n``, so
    that every standard error of the run is honest.
    """
    config = reading.config(
        n_matrices=n,
        seed=seed,
        n_resamples=n_resamples,
        chunk_size=chunk_size or settings.chunk_size(n),
    )
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


def validate_standard_errors(printed: dict, n: int, seeds, n_validation: int, **options) -> dict:
    """Compare the standard errors of the printed reading with the spread of independent seeds.

    Each seed runs the printed reading at ``n_validation`` matrices; the SD of a statistic over
    the seeds, times ``sqrt(n_validation / n)``, estimates its run-to-run SD at n.
    """
    reading = READINGS_BY_NAME["printed"]
    with said_once():  # a limitation of a small n_validation is said once, not once a seed
        values = [statistics(reading, simulate(reading, n_validation, s, **options)) for s in seeds]
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
