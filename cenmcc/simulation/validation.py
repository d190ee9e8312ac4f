"""Honest standard errors: a study rerun over independent seeds, its spread against its claims.

Every statistic of a summary that comes with a standard error (``x`` next to ``x_se``) claims
how much it would move from one run to the next. :func:`validate` reruns the simulation with
``n_seeds`` other seeds and compares, for each such statistic, the spread of its value over the
seeds (their SD) with the mean of the standard errors the runs claimed. A ratio near 1 says
the claim is honest; the aim is 0.75 to 1.33 for every headline statistic. With 20 seeds the
ratio itself is uncertain by about ±16% (the SD of a SD from 20 values).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .engine import run
from .jackknife import flatten
from .plan import Simulation
from .result import describe


def check_validation(sim: Simulation, n_seeds: int) -> None:
    """Refuse a validation that cannot compare any spread with a claimed standard error.

    A spread needs at least two seeds; a run's standard errors need at least two whole
    chunks (the jackknife leaves out groups of chunks, the batch means compare replicate
    chunks: with one chunk every standard error is NaN and nothing is compared).

    Raises
    ------
    ValueError
        Naming the setting and the least value that works.
    """
    if n_seeds < 2:
        raise ValueError(f"n_seeds must be at least 2 (a spread needs two runs), got {n_seeds}")
    if sim.n_matrices < 2 * sim.chunk_size:
        raise ValueError(
            f"the standard errors need at least two whole chunks: {sim.n_matrices:,} matrices "
            f"in chunks of {sim.chunk_size:,} give {sim.n_matrices // sim.chunk_size} "
            f"whole; use n of at least {2 * sim.chunk_size:,} or a chunk size of at most "
            f"{sim.n_matrices // 2:,}"
        )


def validate(sim: Simulation, n_seeds: int = 20, *, by_k: bool = False, **parallel) -> dict:
    """Rerun ``sim`` with seeds ``sim.seed + 1 .. sim.seed + n_seeds``; compare spread and SEs.

    Parameters
    ----------
    sim : Simulation
    n_seeds : int
        Independent runs, at least 2 (20 or more for a useful check); ``sim`` must have at
        least two whole chunks (:func:`check_validation`).
    by_k : bool
        Also check the statistics of each number of classes (many more, each noisier).
    **parallel
        ``jobs``, ``backend``, ``scheduler``, ``quiet``: passed to :func:`run`.

    Returns
    -------
    dict
        ``statistics``: per statistic (its path in the summary, dotted), the mean value over the
        seeds, their SD, the mean claimed SE and the ratio of the two; ``simulation`` (the
        generator and its settings, the measures and studies), ``seeds``, ``n_matrices`` and
        ``method``.
    """
    check_validation(sim, n_seeds)
    seeds = list(range(sim.seed + 1, sim.seed + 1 + n_seeds))
    runs = [
        flatten(_numbers(run(dataclasses.replace(sim, seed=s), **parallel).summary)) for s in seeds
    ]
    out = {}
    for path in runs[0]:
        name = path[-1]
        if name.endswith("_se") or (not by_k and "by_k" in path):
            continue
        se_path = (*path[:-1], f"{name}_se")
        if se_path not in runs[0]:
            continue
        values = np.array([r.get(path, math.nan) for r in runs])
        errors = np.array([r.get(se_path, math.nan) for r in runs])
        ok = np.isfinite(values) & np.isfinite(errors)
        if ok.sum() < 2:
            continue
        spread, claimed = float(np.std(values[ok], ddof=1)), float(np.mean(errors[ok]))
        out[".".join(map(str, path))] = {
            "mean": float(np.mean(values[ok])),
            "seed_sd": spread,
            "claimed_se": claimed,
            "ratio": spread / claimed if claimed > 0 else math.nan,
            "seeds": int(ok.sum()),
        }
    return {
        "simulation": describe(sim),
        "n_matrices": sim.n_matrices,
        "seeds": seeds,
        "method": (
            "each statistic's SD over independent seeds (seed_sd) against the mean of the "
            "standard errors the runs claimed (claimed_se); ratio = seed_sd / claimed_se, about "
            "1 when the claims are honest (0.75 to 1.33 aimed at; with s seeds the ratio is "
            "uncertain by about 1/sqrt(2 (s - 1)))"
        ),
        "statistics": out,
    }


def _numbers(tree):
    """The numeric leaves of a summary (strings, lists and counts of pairs left out)."""
    if isinstance(tree, dict):
        kept = {k: _numbers(v) for k, v in tree.items() if k != "pair_counts"}
        return {k: v for k, v in kept.items() if v is not None and v != {}}
    if isinstance(tree, bool) or not isinstance(tree, int | float):
        return None
    return tree
