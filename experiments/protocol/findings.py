"""The protocol experiment's findings: each reading's distances from the published values."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .settings import N_PRINTED, STATISTICS, TARGETS, THRESHOLD, Reading

if TYPE_CHECKING:
    import pandas as pd


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
