"""The families experiment's figures: the Z_A, dice, dice-limit and B(T, F) families."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cenmcc import families as fam
from cenmcc.simulation.figures import (
    COLUMN,
    PAGE,
    legend_key,
    ordered_colors,
    style,
    subplots,
)

from .settings import FIGURES, LIMIT_A


def _curve(table: pd.DataFrame, formula: str, N: int, x: str = "A", **where):
    rows = table[(table["formula"] == formula) & (table["N"] == N)]
    for column, value in where.items():
        rows = rows[rows[column] == value]
    rows = rows.sort_values(x)
    return rows[x].to_numpy(dtype=float), rows["measured"].to_numpy(dtype=float)


#: The numbers of classes drawn in the figures (N = 2 only where the family covers it).
PLOT_N = (3, 4, 5, 10, 30)


PLOT_N_B = (2, 3, 5, 10, 30)


def _n_handles(Ns, colors) -> list:
    """Legend entries for the curves of each N."""
    return [legend_key(f"$N = {N}$", color=c) for N, c in zip(Ns, colors, strict=True)]


def _plot_z_a(table: pd.DataFrame):
    fig, axes = subplots(1, 3, width=PAGE / 3, height=2.3)
    colors = ordered_colors(len(PLOT_N))
    panels = (
        ("zA-acc", "ACC", "(a) accuracy"),
        ("zA-mcc-journal", "MCC", "(b) MCC"),
        ("zA-cen", "CEN", "(c) CEN"),
    )
    for ax, (formula, measure, title) in zip(axes, panels, strict=True):
        for N, color in zip(PLOT_N, colors, strict=True):
            ax.plot(*_curve(table, formula, N), color=color)
            if measure == "MCC":
                limit = float(fam.mcc_z_a_limit_journal(N))
                ax.axhline(limit, ls=":", lw=0.9, color=color)
        ax.set(xscale="log", xlabel="$A$", ylabel=f"{measure}$(Z_A)$", title=title)
    limit = legend_key("MCC limit,\n$-1/(2N-2)$", ls=":", lw=0.9, color="0.3")
    fig.legend(handles=[*_n_handles(PLOT_N, colors), limit], loc="outside right upper")
    return fig


def _plot_dice(table: pd.DataFrame):
    fig, axes = subplots(
        1, 2, width=PAGE / 2, height=2.4, sharex=True, gridspec_kw={"width_ratios": [3, 2]}
    )
    colors = ordered_colors(len(PLOT_N))
    for N, color in zip(PLOT_N, colors, strict=True):
        axes[0].plot(*_curve(table, "dice-cen", N), color=color)
        axes[0].axhline(float(fam.cen_dice_limit_journal(N)), ls=":", lw=0.9, color=color)
        axes[1].plot(*_curve(table, "dice-mcc-zero", N), color=color)
    axes[0].set(xscale="log", xlabel="$A$", ylabel="CEN", title="(a) CEN of dice rolling")
    axes[1].set(
        xscale="log", xlabel="$A$", ylabel="MCC", ylim=(-1, 1), title="(b) MCC of dice rolling"
    )
    axes[1].text(
        0.5,
        0.3,
        "$\\mathrm{MCC} = 0$ for every $A$ and $N$\n(the curves coincide)",
        transform=axes[1].transAxes,
        ha="center",
    )
    limit = legend_key("CEN limit,\n$A \\to \\infty$", ls=":", lw=0.9, color="0.3")
    fig.legend(handles=[*_n_handles(PLOT_N, colors), limit], loc="outside right upper")
    return fig


def _plot_dice_limit(table: pd.DataFrame):
    fig, ax = subplots(1, 1, width=COLUMN, height=3.0)
    at_1e9 = table[(table["formula"] == "dice-cen-limit-journal") & (table["A"] == LIMIT_A[-1])]
    at_1e9 = at_1e9.sort_values("N")
    # The closed form over the points' range and beyond: its printed value at N = 2, then the
    # values checked for N = 3 .. 10^9 (where the claim "increasing" holds).
    rising = table[table["formula"] == "dice-limit-increasing"].sort_values("N")
    first = at_1e9.iloc[0]
    N = np.concatenate([[first["N"]], rising["N"]]).astype(float)
    limit = np.concatenate([[first["printed"]], rising["measured"]])
    ax.plot(N, limit, color="C0", label=r"$L(N) = (N-1)/(2N) \cdot \log_{2N-2}(N+1)$", zorder=2)
    ax.plot(
        at_1e9["N"],
        at_1e9["measured"],
        "o",
        ms=3,
        mfc="none",
        mew=0.8,
        color="C1",
        label="CEN(dice) at $A = 10^9$, $N = 2, \\ldots, 30$",
        zorder=3,
    )
    ax.axhline(0.5, ls="--", color="0.3", lw=0.8, label="$1/2$, the limit of $L(N)$")
    arrow = {"arrowstyle": "->", "lw": 0.6, "shrinkB": 3}
    ax.annotate(
        "$N = 2$: $L = (\\log_2 3)/4$",
        (first["N"], first["printed"]),
        xytext=(1.6, 0.462),
        fontsize=7,
        arrowprops=arrow,
    )
    ax.annotate(
        "$N = 3$: $L = 1/3$, the minimum;\n$L$ increases from here",
        (3, 1 / 3),
        xytext=(14, 0.337),
        fontsize=7,
        va="center",
        arrowprops=arrow,
    )
    ax.set(
        xscale="log",
        xlim=(1.5, 3e9),
        ylim=(0.32, 0.51),
        xlabel="$N$, number of classes",
        ylabel="CEN(dice) as $A \\to \\infty$",
        title="Limit of the dice-rolling CEN",
    )
    fig.legend(loc="outside lower center")
    return fig


def _plot_b(table: pd.DataFrame, F: int = 1000):
    fig, axes = subplots(1, 2, width=PAGE / 2, height=2.4)
    colors = ordered_colors(len(PLOT_N_B))
    for N, color in zip(PLOT_N_B, colors, strict=True):
        for ax, formula in zip(axes, ("b-cen", "b-mcc"), strict=True):
            T, value = _curve(table, formula, N, x="T", F=F)
            ax.plot(T[T > 0] / F, value[T > 0], color=color)
    axes[0].axhline(1.0, ls="--", color="0.3", lw=0.8)
    axes[0].plot(
        fam.BINARY_SYMMETRIC_CEN_ARGMAX, fam.BINARY_SYMMETRIC_CEN_MAX, "k*", ms=7, zorder=3
    )
    for ax, measure, letter in zip(axes, ("CEN", "MCC"), "ab", strict=True):
        ax.set(
            xscale="log",
            xlabel=f"$T/F$ ($F = {F}$)",
            ylabel=measure,
            title=f"({letter}) {measure} of $B(T, F)$",
        )
    handles = _n_handles(PLOT_N_B, colors)
    handles[0].set_label("$N = 2$ (binary)")
    handles += [
        legend_key("$\\mathrm{CEN} = 1$", ls="--", color="0.3", lw=0.8),
        legend_key("CEN maximum,\n$N = 2$: $2/(e\\,\\ln 2)$", ls="", marker="*", ms=7, color="k"),
    ]
    fig.legend(handles=handles, loc="outside right upper")
    return fig


_PLOTS = {"z_a": _plot_z_a, "dice": _plot_dice, "dice_limit": _plot_dice_limit, "b": _plot_b}


def plot(table: pd.DataFrame, which: str):
    """One figure from the tidy table: ``"z_a"``, ``"dice"``, ``"dice_limit"`` or ``"b"``."""
    if which not in _PLOTS:
        raise ValueError(f"unknown figure {which!r}; expected one of {FIGURES}")
    with style():
        return _PLOTS[which](table)
