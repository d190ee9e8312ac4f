"""The agreement experiment's findings: what the numbers say, in sentences from the summary."""

from __future__ import annotations

import math

import numpy as np

import cenmcc

from .settings import pairs_of


def with_error(value: float, se: float) -> str:
    """``value ± se`` with the SE to two significant digits and the value to the same place.

    Examples
    --------
    >>> with_error(0.876123, 0.000388), with_error(1.0, 0.0), with_error(0.5, math.nan)
    ('0.87612 ± 0.00039', '1 ± 0', '0.5')
    """
    if not math.isfinite(value):
        return str(value)
    if not math.isfinite(se):
        return f"{value:.4g}"
    if se == 0:
        return f"{value:g} ± 0"
    digits = max(0, 1 - math.floor(math.log10(se)))
    return f"{value:.{digits}f} ± {se:.{digits}f}"


def label(name: str) -> str:
    return cenmcc.MEASURES[name].label


def pair_name(f: str, g: str) -> str:
    return f"{label(f)}–{label(g)}"


def _identical(entry: dict) -> bool:
    """Whether two measures order and tie every pair of matrices alike."""
    c = entry["pair_counts"]
    return c["discordant"] == 0 and c["f_only"] == 0 and c["g_only"] == 0


def _ends(entry: dict, keys: list[int], width: int = 5) -> tuple[float, float, float, float]:
    """Mean consistency (and its SE) over the ``width`` smallest and the ``width`` largest K."""
    c = np.asarray(entry["by_k"]["consistency"], dtype=float)
    se = np.asarray(entry["by_k"]["consistency_se"], dtype=float)

    def mean(part: slice) -> tuple[float, float]:
        return float(c[part].mean()), float(math.sqrt(np.sum(se[part] ** 2)) / c[part].size)

    return (*mean(slice(0, width)), *mean(slice(len(keys) - width, None)))


def findings(summary: dict) -> list[str]:
    """What the numbers say, in sentences computed from them (no conclusion is written in).

    Consistency "over all pairs" counts every pair of matrices; "within one K" only the pairs
    of matrices with the same number of classes (:func:`within_k`).
    """
    gens = summary["generators"]
    out = []

    def entry(name: str, f: str, g: str) -> dict:
        return gens[name]["pairs"][f][g]

    def show(name: str, f: str, g: str, stat: str = "consistency") -> str:
        e = entry(name, f, g)
        return with_error(e[stat], e[f"{stat}_se"])

    counts = {name: entry(name, "accuracy", "f1_micro")["pair_counts"] for name in gens}
    if all(_identical(entry(name, "accuracy", "f1_micro")) for name in gens):
        out.append(
            "Accuracy and micro F1 order and tie every pair of matrices alike under all three "
            "generators (consistency exactly 1, no pair told apart by one and tied by the "
            "other): for single-label multi-class matrices micro F1 equals accuracy."
        )
    else:
        out.append(f"Accuracy and micro F1 do not order every pair of matrices alike: {counts}.")
    for name, g in gens.items():
        # Micro F1 is accuracy again: its pairs would repeat accuracy's in the rankings.
        same_as_accuracy = _identical(entry(name, "accuracy", "f1_micro"))
        parts = []
        for stat, where in (
            ("consistency", "over all pairs"),
            ("consistency_within_k", "within one K"),
        ):
            ranked = sorted(
                (e[stat], f, h)
                for f, row in g["pairs"].items()
                for h, e in row.items()
                if not (same_as_accuracy and "f1_micro" in (f, h))
            )
            top = ", ".join(
                f"{pair_name(f, h)} {show(name, f, h, stat)}" for _, f, h in ranked[:-3:-1]
            )
            low = ", ".join(f"{pair_name(f, h)} {show(name, f, h, stat)}" for _, f, h in ranked[:2])
            parts.append(f"{where}, most {top}; least {low}")
        out.append(
            f"{g['title']} (mean class balance {g['class_balance']['mean']:.3f}, "
            f"{100 * g['empty_class_share']:.1f}% of classes empty), degree of consistency "
            f"{parts[0]}; {parts[1]}."
        )
    share = {name: entry(name, "cen", "mcc")["share_of_pairs_within_k"] for name in gens}
    out.append(
        "Pairs of matrices with the same K are a small share of all pairs ("
        + ", ".join(f"{name} {100 * v:.1f}%" for name, v in share.items())
        + "): the consistency over all pairs mostly says whether two measures drift alike with "
        "K, the consistency within one K whether they rank the matrices of one problem alike."
    )
    lines = []
    for stat, where in (
        ("consistency", "over all pairs"),
        ("consistency_within_k", "within one K"),
    ):
        b, i = entry("balanced", "cen", "mcc"), entry("imbalanced", "cen", "mcc")
        diff = i[stat] - b[stat]
        diff_se = math.hypot(i[f"{stat}_se"], b[f"{stat}_se"])
        values = ", ".join(f"{name} {show(name, 'cen', 'mcc', stat)}" for name in gens)
        lines.append(
            f"{where}: {values}; imbalanced minus balanced {with_error(diff, diff_se)} "
            f"({diff / diff_se:+.1f} SE)"
        )
    out.append("CEN–MCC consistency " + "; ".join(lines) + ".")
    for name, g in gens.items():
        width = min(5, len(g["K"]))  # fewer K in a small run
        lo, lo_se, hi, hi_se = _ends(entry(name, "cen", "mcc"), g["K"], width)
        out.append(
            f"CEN–MCC consistency within one K, {name}: {with_error(lo, lo_se)} on average over "
            f"K = {g['K'][0]}–{g['K'][width - 1]}, {with_error(hi, hi_se)} over K = "
            f"{g['K'][-width]}–{g['K'][-1]}."
        )
    stat = "consistency_within_k"
    changes = []
    for f, h in pairs_of():
        b, i = entry("balanced", f, h), entry("imbalanced", f, h)
        changes.append((i[stat] - b[stat], math.hypot(b[f"{stat}_se"], i[f"{stat}_se"]), f, h))
    changes.sort(key=lambda t: -abs(t[0]))
    text = "; ".join(
        f"{pair_name(f, h)} {entry('balanced', f, h)[stat]:.4f} → "
        f"{entry('imbalanced', f, h)[stat]:.4f} ({with_error(d, d_se)})"
        for d, d_se, f, h in changes[:3]
    )
    out.append(
        f"Largest changes of the consistency within one K from balanced to imbalanced classes: "
        f"{text}."
    )
    degrees = [
        (f"{pair_name(f, h)} ({name}, {where}", entry(name, f, h)[stat])
        for name in gens
        for f, h in pairs_of()
        for stat, where in (("consistency", "all pairs"), ("consistency_within_k", "within K"))
    ]
    below = [f"{what} {value:.4f})" for what, value in degrees if value < 0.5]
    undefined = sum(math.isnan(value) for _, value in degrees)  # no pairs of matrices (tiny n)
    if below:
        out.append(
            "Pairs of measures that order more pairs of matrices oppositely than alike: "
            + ", ".join(below)
            + "."
        )
    elif undefined:
        out.append(
            f"{undefined} of {len(degrees)} degrees of consistency are undefined (no pairs of "
            "matrices to compare); every other is above 1/2."
        )
    else:
        out.append(
            "Every pair of measures orders more pairs of matrices alike than oppositely "
            "(consistency above 1/2), over all pairs and within one K, under every generator."
        )
    return out
