"""Claims about the 200,000 random matrices, checked under every reading of the printed protocol.

:mod:`experiments.protocol` (``python -m experiments protocol``) reruns the random-matrix
simulation under a grid of readings of the printed text (how N is drawn, where ρ applies, the
integer ranges, the logarithm of k(N), the first line of Eq. (3), the base of CEN's logarithm,
k refitted, the interval, the tie rule) and writes, for each reading, the distance of each
statistic from its published value in combined standard errors (``figures/protocol/
summary.json``, read here through :func:`paper_checks.summaries.load_summary`).
"""

from __future__ import annotations

import math

from .declarations import load
from .record import Measured
from .summaries import load_summary


def _protocol() -> dict:
    return load_summary("protocol")


def closest_reading():
    s = _protocol()
    c = s["closest"]
    return Measured(
        c["max_abs_distance"],
        f"{len(s['readings'])} readings at n = {s['n_matrices']:,} (seed {s['seed']}); the "
        f"closest, {c['reading']}, reproduces {c['reproduced']} of {c['of']} published values; "
        f"{s['verdict']}",
        _reading_facts(s),
    )


def _reading_facts(s) -> dict:
    """The closest reading and how far, the largest consistency, and what refitting k does
    (the mean ratio's distance and the SD of the ratio over the readings that refit k)."""
    readings = s["readings"].values()
    refitted = [r for r in readings if r["deviation"].get("k_refitted")]
    mean_ratio = [abs(r["distances"]["mean_ratio"]) for r in refitted]
    sd = [r["statistics"]["sd_ratio"] for r in refitted]
    name, best = _best_consistency(s)
    return {
        "closest": s["closest"]["reading"],
        "closest_distance": s["closest"]["max_abs_distance"],
        "best_consistency": best,
        "best_consistency_reading": name,
        "opposite_at_least": 1 - best,
        "refitted_mean_ratio_lo": min(mean_ratio, default=math.nan),
        "refitted_mean_ratio_hi": max(mean_ratio, default=math.nan),
        "refitted_sd_lo": min(sd, default=math.nan),
        "refitted_sd_hi": max(sd, default=math.nan),
    }


def _best_consistency(s) -> tuple[str, float]:
    return max(
        ((n, r["statistics"]["consistency_tmcc_kcen"]) for n, r in s["readings"].items()),
        key=lambda item: item[1],
    )


def best_consistency():
    s = _protocol()
    name, best = _best_consistency(s)
    return Measured(
        best, f"largest degree of consistency over the readings: {name}", _reading_facts(s)
    )


#: The claims declared in protocol_checks.toml, each measured by the check it names.
RECORDS = load(__name__)
