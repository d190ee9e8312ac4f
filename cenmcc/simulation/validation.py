"""Honest standard errors: a study rerun over independent seeds, its spread against its claims.

Every statistic of a summary that comes with a standard error (``x`` next to ``x_se``) claims
how much it would move from one run to the next. :func:`validate` reruns the simulation with
``n_seeds`` other seeds and compares, for each such statistic, the spread of its value over the
seeds (their SD) with the mean of the standard errors the runs claimed. A ratio near 1 says
the claim is honest; the aim is 0.75 to 1.33 (:data:`AIM`) for every headline statistic. With s
seeds the ratio itself is uncertain by about ``u = 1/sqrt(2 (s - 1))`` relative (the SD of a SD
from s values: ±16% with 20 seeds), so each statistic's verdict (:func:`verdict`) takes the
band ``AIM[0]·exp(-2u) .. AIM[1]·exp(2u)``: a ratio outside it is a claim that is not honest
(0.62 to 1.60 with 60 seeds, 0.54 to 1.84 with 20).

A spread that says anything needs independent draws: a generator whose matrices share a
random draw within a call (one set of class proportions for a whole chunk, say) makes the
chunks' matrices correlated, and every standard error of the run too small.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import warnings

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


#: The ratios of spread over claimed SE aimed at for every headline statistic.
AIM = (0.75, 1.33)


def band(seeds: int) -> tuple[float, float]:
    """The ratios of spread over claimed SE that a statistic compared over ``seeds`` seeds may
    have: :data:`AIM` widened by twice the ratio's relative uncertainty,
    ``u = 1/sqrt(2 (seeds - 1))``, on the log scale.

    Examples
    --------
    >>> [round(x, 2) for x in band(60)]
    [0.62, 1.6]
    """
    u = 1 / math.sqrt(2 * (seeds - 1))
    return AIM[0] * math.exp(-2 * u), AIM[1] * math.exp(2 * u)


def verdict(statistic: dict) -> str:
    """``"honest"`` if the ratio of ``statistic`` (an entry of :func:`validate`'s
    ``statistics``) is inside its :func:`band`, else which way the claims are wrong: ``"SE
    too small"`` (the spread is larger than claimed) or ``"SE too large"``."""
    low, high = statistic["band"]
    ratio = statistic["ratio"]
    if math.isnan(ratio):  # no spread and a claimed SE of 0: an exact statistic
        return "honest"
    if ratio > high:
        return "SE too small"
    return "SE too large" if ratio < low else "honest"


def verdict_lines(report: dict) -> list[str]:
    """One line per statistic of :func:`validate`'s ``report`` (its verdict, ratio and band),
    and one per statistic defined in too few seeds to compare."""
    lines = [
        f"{name}: {s['verdict']}: spread {s['seed_sd']:.3g} / claimed SE {s['claimed_se']:.3g} "
        f"= {s['ratio']:.3g} (band {s['band'][0]:.2f} to {s['band'][1]:.2f}, {s['seeds']} seeds)"
        for name, s in report["statistics"].items()
    ]
    return lines + [f"{name}: not compared: {why}" for name, why in report["not_compared"].items()]


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
        seeds, their SD, the mean claimed SE, the ratio of the two, the seeds where it was
        defined, its :func:`band` and :func:`verdict`; ``not_compared``: the statistics defined
        (with their SE) in fewer than two seeds, each with why; ``failed``: the names of the
        statistics whose verdict is not ``"honest"``; ``simulation`` (the generator and its
        settings, the measures and studies), ``seeds``, ``n_matrices`` and ``method``.
    """
    check_validation(sim, n_seeds)
    seeds = list(range(sim.seed + 1, sim.seed + 1 + n_seeds))
    with said_once():
        runs = [
            flatten(_numbers(run(dataclasses.replace(sim, seed=s), **parallel).summary))
            for s in seeds
        ]
    out, not_compared = {}, {}
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
        dotted = ".".join(map(str, path))
        if ok.sum() < 2:
            not_compared[dotted] = f"defined with its SE in {ok.sum()} of {n_seeds} seeds"
            continue
        spread, claimed = float(np.std(values[ok], ddof=1)), float(np.mean(errors[ok]))
        out[dotted] = {
            "mean": float(np.mean(values[ok])),
            "seed_sd": spread,
            "claimed_se": claimed,
            "ratio": spread / claimed if claimed > 0 else (math.inf if spread else math.nan),
            "seeds": int(ok.sum()),
            "band": band(int(ok.sum())),
        }
        out[dotted]["verdict"] = verdict(out[dotted])
    return {
        "simulation": describe(sim),
        "n_matrices": sim.n_matrices,
        "seeds": seeds,
        "method": (
            "each statistic's SD over independent seeds (seed_sd) against the mean of the "
            "standard errors the runs claimed (claimed_se); ratio = seed_sd / claimed_se, about "
            f"1 when the claims are honest ({AIM[0]} to {AIM[1]} aimed at; with s seeds the "
            "ratio is uncertain by about u = 1/sqrt(2 (s - 1)), and a claim is honest when its "
            f"ratio is within {AIM[0]} exp(-2u) to {AIM[1]} exp(2u), its band)"
        ),
        "statistics": out,
        "not_compared": not_compared,
        "failed": [name for name, s in out.items() if s["verdict"] != "honest"],
    }


@contextlib.contextmanager
def said_once():
    """Each distinct warning of the runs inside, said once when they end (not once a run:
    rerunning a simulation over seeds repeats the same limitation)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for category, message in dict.fromkeys((w.category, str(w.message)) for w in caught):
        warnings.warn(message, category, stacklevel=3)


def _numbers(tree):
    """The numeric leaves of a summary (strings, lists and counts of pairs left out)."""
    if isinstance(tree, dict):
        kept = {k: _numbers(v) for k, v in tree.items() if k != "pair_counts"}
        return {k: v for k, v in kept.items() if v is not None and v != {}}
    if isinstance(tree, bool) or not isinstance(tree, int | float):
        return None
    return tree
