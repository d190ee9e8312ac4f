"""The agreement experiment's figures: consistency matrices, consistency by K, CEN against MCC."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cenmcc.simulation import Result
from cenmcc.simulation import figures as plots
from cenmcc.simulation.streaming import Histogram2D

from .findings import pair_name
from .settings import CASES, MEASURES, PAIRS_BY_K, SHORT

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The rows of the agreement matrices: which pairs of matrices each degree counts.
MATRIX_ROWS = (
    ("consistency", "all pairs of matrices"),
    ("consistency_within_k", "pairs with the same K"),
)


#: What the axis labels of the agreement matrices abbreviate.
ABBREVIATIONS = (
    "$\\kappa$ Cohen's kappa, ACC accuracy, BA balanced accuracy, $F_1^{\\rm M}$ macro F1, "
    "$F_1^{\\mu}$ micro F1; CEN and tMCC (lower is better) negated; 1 is exact, 1.000 rounded"
)


def plot_matrices(summary: dict) -> Figure:
    """The degree of consistency of every pair under each generator, its value in each cell.

    One column per generator; the first row counts every pair of matrices, the second only
    the pairs with the same K. Lower triangles (the degree is symmetric); cells coloured from
    1/2 (no agreement beyond chance) to 1; a 1 is exact, 1.000 rounded.
    """
    names = list(MEASURES)
    q = len(names)
    gens = summary["generators"]
    fig, axes = plots.subplots(
        len(MATRIX_ROWS), len(CASES), width=plots.PAGE / len(CASES), height=2.5
    )
    with plots.style():
        image = None
        for row, (stat, what) in enumerate(MATRIX_ROWS):
            for panel, case in enumerate(CASES):
                ax, gen = axes[row, panel], gens[case.name]
                grid = np.full((q, q), np.nan)
                for i, f in enumerate(names):
                    for j, g in enumerate(names[:i]):
                        grid[i, j] = gen["pairs"][g][f][stat]
                image = ax.imshow(grid, vmin=0.5, vmax=1.0, cmap="viridis", aspect="auto")
                for i in range(q):
                    for j in range(i):
                        value = grid[i, j]
                        text = "1" if value == 1 else f"{value:.3f}".removeprefix("0")
                        ax.text(
                            j,
                            i,
                            text,
                            ha="center",
                            va="center",
                            fontsize=6,
                            color="black" if value > 0.8 else "white",
                        )
                ax.set_xticks(range(q - 1), [SHORT[n] for n in names[:-1]], rotation=90)
                ax.set_yticks(range(1, q), [SHORT[n] for n in names[1:]])
                ax.set_xlim(-0.5, q - 1.5)
                ax.set_ylim(q - 0.5, 0.5)
                ax.tick_params(length=0, labelsize=6.5)
                ax.grid(False)
                for side in ("left", "bottom"):
                    ax.spines[side].set_visible(False)
                letter = "abcdef"[row * len(CASES) + panel]
                ax.set_title(case.panel_title(letter), fontsize=7)
            axes[row, 0].set_ylabel(what, fontsize=8, labelpad=6)
        fig.colorbar(image, ax=axes, shrink=0.6, aspect=30, label="degree of consistency")
        fig.supxlabel(ABBREVIATIONS, fontsize=6.5)
    return fig


def plot_by_k(summary: dict) -> Figure:
    """Consistency against K (±1 SE, shaded) of the pairs of :data:`PAIRS_BY_K`, per generator.

    Within one K, so each point counts only the pairs of matrices with that K.
    """
    gens = summary["generators"]
    fig, axes = plots.subplots(
        1, len(CASES), width=plots.PAGE / len(CASES), height=2.6, sharey=True
    )
    markers = "osD^vP"
    # CEN–tMCC (the second pair) nearly coincides with CEN–MCC: dashed, hollow, on top.
    looks = [
        {"ls": "--", "mfc": "none", "zorder": 9} if n == 1 else {"zorder": 3}
        for n in range(len(PAIRS_BY_K))
    ]
    with plots.style():
        for panel, (ax, case) in enumerate(zip(axes, CASES, strict=True)):
            gen = gens[case.name]
            K = np.asarray(gen["K"])
            for n, (f, g) in enumerate(PAIRS_BY_K):
                e = gen["pairs"][f][g]["by_k"]
                c = np.asarray(e["consistency"], dtype=float)
                se = np.asarray(e["consistency_se"], dtype=float)
                ax.fill_between(K, c - se, c + se, color=f"C{n}", alpha=0.3, lw=0)
                ax.plot(K, c, color=f"C{n}", marker=markers[n], ms=2, lw=0.8, **looks[n])
            ax.axhline(0.5, color="0.4", ls=":", lw=0.8)
            ax.set_title(case.panel_title("abc"[panel]), fontsize=7)
            ax.set_xlabel("$K$, number of classes")
        axes[0].set_ylabel("degree of consistency within $K$")
        handles = [
            plots.legend_key(
                pair_name(f, g),
                color=f"C{n}",
                marker=markers[n],
                ms=3,
                lw=0.8,
                **{k: v for k, v in looks[n].items() if k != "zorder"},
            )
            for n, (f, g) in enumerate(PAIRS_BY_K)
        ]
        handles.append(plots.legend_key("1/2: no agreement beyond chance", color="0.4", ls=":"))
        fig.legend(handles=handles, loc="outside upper center", ncols=4)
    return fig


def plot_density(results: dict[str, Result]) -> Figure:
    """CEN against MCC under each generator, as densities (matrices per cell, log scale)."""
    panels = []
    for panel, case in enumerate(CASES):
        h = results[case.name].histograms["cen", "mcc"]
        panels.append(
            (
                Histogram2D(h.counts.T.copy(), h.outside, h.y_range, h.x_range),
                "MCC",
                "CEN",
                case.panel_title("abc"[panel]),
            )
        )
    fig = plots.density_panels(panels)
    fig.set_size_inches(plots.PAGE, 2.8)
    # One colour scale for the three panels (each is drawn on its own), the colour bar's.
    top = max(2, *(int(h.counts.max()) for h, *_ in panels))
    for ax in fig.axes[: len(panels)]:
        ax.title.set_fontsize(7)
        for mesh in ax.collections:
            mesh.set_clim(1, top)
    return fig
