"""The binary experiment's figures: Figures 3 and 4."""

from __future__ import annotations

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.families import BINARY_SYMMETRIC_CEN_ARGMAX, BINARY_SYMMETRIC_CEN_MAX
from cenmcc.simulation.figures import COLUMN, PAGE, legend_key, style, subplots

from .compute import pearson
from .settings import PANELS


def plot_figure4(table: pd.DataFrame, *, panels=PANELS, gridsize: int = 80):
    """CEN against MCC: one scatter per total in ``panels``, then a hexbin of every matrix.

    Matrices whose MCC is 0/0 (plotted at the fill value 0) are drawn as red crosses; the
    dashed line is CEN = 1. Scatters and hexbin are rasterized, the rest of a PDF is vector.
    """
    with style():
        fig, axes = subplots(2, 3, width=PAGE / 3, height=2.2, sharex=True, sharey=True)
        axes = axes.ravel()
        for ax, s, letter in zip(axes, panels, "abcde", strict=False):
            sub = table[table["s"] == s]
            undefined = sub["mcc_undefined"].to_numpy()
            ok, bad = sub[~undefined], sub[undefined]
            size, alpha = (8, 0.5) if len(sub) < 1000 else (1.5, 0.3)
            ax.scatter(ok["mcc"], ok["cen"], s=size, alpha=alpha, lw=0, color="C0", rasterized=True)
            ax.scatter(bad["mcc"], bad["cen"], s=10, marker="x", color="C3", lw=0.6)
            r = pearson(sub["cen"].to_numpy(), sub["mcc"].to_numpy())
            ax.set_title(f"({letter}) $s = {s}$: {len(sub):,} matrices\n$r = {r:.3f}$")
        ax = axes[len(panels)]
        hb = ax.hexbin(
            table["mcc"], table["cen"], gridsize=gridsize, bins="log", mincnt=1, rasterized=True
        )
        fig.colorbar(hb, ax=ax, label="matrices per cell")
        r = pearson(table["cen"].to_numpy(), table["mcc"].to_numpy())
        lo, hi = table["s"].min(), table["s"].max()
        ax.set_title(f"(f) $s = {lo}, \\ldots, {hi}$: {len(table):,} matrices\n$r = {r:.3f}$")
        for ax in axes:
            ax.axhline(1.0, color="0.3", lw=0.8, ls="--")
        for ax in axes[3:]:
            ax.set_xlabel("MCC")
        for ax in axes[::3]:
            ax.set_ylabel("CEN")
        handles = [
            legend_key("one binary matrix", ls="", marker="o", ms=3, color="C0"),
            legend_key(
                "$\\mathrm{MCC} = 0/0$ (an empty row or column), plotted at 0",
                ls="",
                marker="x",
                ms=4,
                mew=0.8,
                color="C3",
            ),
            legend_key("$\\mathrm{CEN} = 1$", ls="--", lw=0.8, color="0.3"),
        ]
        fig.legend(handles=handles, loc="outside upper center", ncols=3)
    return fig


def plot_figure3(ratio_range=(1e-3, 1e3), n_points: int = 2001, F: int = 1000):
    """CEN and MCC of [[T, F], [F, T]] against T/F (log axis), with CEN = 1 and CEN's maximum.

    Lines are the closed forms of the module docstring; markers are :func:`cenmcc.cen` and
    :func:`cenmcc.mcc` on integer matrices with ``F`` = 1000 off the diagonal.
    """
    ratio = np.geomspace(*ratio_range, n_points)
    x = 1 / (1 + ratio)  # F / (T + F)
    cen_closed, mcc_closed = x * (1 - np.log2(x)), 1 - 2 * x
    T = np.unique(np.round(np.geomspace(F * ratio_range[0], F * ratio_range[1], 25)).astype(int))
    C = np.stack([np.stack([T, np.full_like(T, F)], -1), np.stack([np.full_like(T, F), T], -1)], -2)
    marker = {"ls": "", "ms": 3.5, "mfc": "none", "mew": 0.8}
    with style():
        fig, ax = subplots(1, 1, width=COLUMN, height=3.4)
        ax.fill_between(ratio, 1, cen_closed, where=cen_closed > 1, color="C0", alpha=0.25, lw=0)
        # Legend order, two columns: CEN's entries, then MCC's.
        ax.plot(ratio, cen_closed, color="C0", label="CEN, closed form $x\\,(1 - \\log_2 x)$")
        ax.plot(T / F, cenmcc.cen(C), marker="o", color="C0", label="CEN, computed", **marker)
        ax.axhline(1.0, color="0.3", ls="--", lw=0.8, label="$\\mathrm{CEN} = 1$")
        ax.plot(ratio, mcc_closed, color="C1", label="MCC, closed form $1 - 2x$")
        ax.plot(T / F, cenmcc.mcc(C), marker="s", color="C1", label="MCC, computed", **marker)
        ax.plot([BINARY_SYMMETRIC_CEN_ARGMAX], [BINARY_SYMMETRIC_CEN_MAX], "k*", ms=7, zorder=4)
        ax.annotate(
            "maximum $\\mathrm{CEN} = 2/(e\\,\\ln 2)$\n"
            f"$\\approx {BINARY_SYMMETRIC_CEN_MAX:.4f}$, at\n"
            f"$T/F = e/2 - 1 \\approx {BINARY_SYMMETRIC_CEN_ARGMAX:.3f}$",
            (BINARY_SYMMETRIC_CEN_ARGMAX, BINARY_SYMMETRIC_CEN_MAX),
            xytext=(1.5e-3, 0.1),
            fontsize=7,
            va="bottom",
            arrowprops={"arrowstyle": "->", "lw": 0.6, "shrinkB": 4, "relpos": (0.9, 1.0)},
        )
        ax.set(
            xscale="log",
            xlabel="$T/F$",
            ylabel="CEN or MCC",
            title="$[[T, F], [F, T]]$: $\\mathrm{CEN} > 1$ exactly when $0 < T < F$",
        )
        fig.legend(
            loc="outside lower center",
            ncols=2,
            title=f"$x = F/(T + F)$; computed: cenmcc on integer matrices, $F = {F}$",
            title_fontsize=7,
        )
    return fig
