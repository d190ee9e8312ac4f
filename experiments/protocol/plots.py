"""The protocol experiment's figure: each reading's distances from the published values."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .settings import PANEL_TITLES, TARGETS, THRESHOLD

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


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
