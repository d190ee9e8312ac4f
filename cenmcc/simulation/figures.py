"""Figures of simulations, in one style shared by every figure of cenmcc (needs matplotlib).

- :func:`agreement_matrix`: for every pair of measures, Kendall's τ_b and the degrees of
  consistency and discriminancy, over all pairs of matrices and within K, one cell per pair
  with its value written in it;
- :func:`density_panels`: 2-D histograms of pairs of measures (matrices per cell, log scale);
- :func:`agreement_by_k`: each pair's τ_b and consistency against the number of classes K;
- :func:`k_per_dimension`: the empirical k of Eq. (3) per K with the given and the refitted
  k(K), flagged when the curve does not fit.

Every figure of cenmcc and of the experiments is drawn in one style (:func:`style`,
:func:`subplots`), at the size a journal prints it, :data:`COLUMN` (one column) or :data:`PAGE`
(the full text width) wide, with 7-8 point text, so that what is legible here is legible in
print. Mathematics in labels is mathtext (``"$A \\to \\infty$"``); large scatters and meshes
are drawn with ``rasterized=True`` so that a PDF stays vector where it is sparse and small where
it is dense. Draw a figure's contents inside :func:`style` as well as creating it with
:func:`subplots`: matplotlib reads most settings when an element is created. The settings read
only when a file is written (:data:`SAVE`: fonts embedded as TrueType in PDF, not Type 3) are
set for the process when this module is imported, as the Agg backend is.
"""

from __future__ import annotations

from contextlib import contextmanager

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LogNorm, Normalize
from matplotlib.lines import Line2D

import cenmcc

from .agreement import oriented_pair

#: Width in inches of one journal column (89 mm) and of the full text width (183 mm).
COLUMN = 3.5
PAGE = 7.2

STYLE = {
    "figure.dpi": 100,
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "figure.titlesize": 9,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.2,
    "lines.markersize": 3.5,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.minor.width": 0.4,
    "ytick.minor.width": 0.4,
    "xtick.major.size": 3,
    "ytick.major.size": 3,
    "xtick.minor.size": 1.8,
    "ytick.minor.size": 1.8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "legend.handlelength": 1.8,
    "image.cmap": "viridis",
}

#: Settings matplotlib reads when a file is written, outside any :func:`style` context.
SAVE = {
    "pdf.fonttype": 42,  # TrueType: text stays text in the PDF, as journals ask
    "ps.fonttype": 42,
}
matplotlib.rcParams.update(SAVE)


@contextmanager
def style():
    """Context in which figures get the project's style."""
    with plt.rc_context(STYLE):
        yield


def subplots(nrows: int = 1, ncols: int = 1, *, width: float = PAGE / 2, height: float = 2.6, **kw):
    """``plt.subplots`` in the project's style, ``width x height`` inches per panel."""
    with style():
        return plt.subplots(
            nrows, ncols, figsize=(width * ncols, height * nrows), layout="constrained", **kw
        )


def ordered_colors(n: int) -> list:
    """``n`` colours of the viridis map for an ordered parameter (small to large), dark to light.

    The light yellow end is left out: it does not show on white.
    """
    return [plt.get_cmap("viridis")(x) for x in np.linspace(0.0, 0.82, n)]


def legend_key(label: str, **line) -> Line2D:
    """A legend entry drawn as a line or marker (``Line2D`` keywords), with no data of its own."""
    return Line2D([], [], label=label, **line)


def result_figures(result) -> dict:
    """The figures of :meth:`cenmcc.simulation.Result.save`, by file name."""
    labels = result.labels()
    figures = {}
    if any(True for _ in result.pair_names()):
        figures["agreement"] = agreement_matrix(result.summary, labels)
        if len(next(iter(result.summary["measures"].values()))["by_k"]) > 1:
            figures["per_k"] = agreement_by_k(result.summary, labels)
    if result.states and result.histograms:  # a loaded result has none
        figures["density"] = density_panels(
            [
                (h, labels[f], labels[g], f"{labels[g]} against {labels[f]}")
                for (f, g), h in result.histograms.items()
            ]
        )
    for name, study in result.summary["studies"].items():
        if "k_fit" in study and "per_k" in study:
            figures[f"{name}_per_dimension"] = k_per_dimension(study)
    return figures


def agreement_matrix(summary: dict, labels: dict):
    """τ_b, consistency and discriminancy of every pair of measures, oriented (higher is better).

    Cell (row f, column g) holds the statistic of f against g: above the diagonal over every
    pair of matrices, below it over the pairs of matrices of equal K (``within_k``, the per-K
    counts pooled). τ_b and consistency are symmetric; discriminancy, ``|P|/|Q|`` of the row
    over the column, is drawn on a log scale about 1 (its reverse is its reciprocal).
    """
    names = list(summary["measures"])
    many = len(names) > 8  # smaller cells, two decimals
    cell = 0.36 if many else 0.6
    side = cell * len(names) + 1.9
    fig, axes = subplots(1, 3, width=side, height=side - 0.2)
    panels = [
        ("kendall_tau_b", "Kendall's τ_b", Normalize(-1, 1)),
        ("consistency", "degree of consistency", Normalize(0, 1)),
        ("discriminancy", "degree of discriminancy (row over column)", LogNorm(0.1, 10)),
    ]
    with style():
        for ax, (stat, title, norm) in zip(axes, panels, strict=True):
            grid = np.full((len(names), len(names)), np.nan)
            for i, f in enumerate(names):
                for j, g in enumerate(names[i + 1 :], start=i + 1):
                    try:
                        pair, flip = oriented_pair(summary, f, g)
                    except KeyError:  # a pair the run did not count
                        continue
                    for (r, c), part in (((i, j), pair), ((j, i), pair.get("within_k", {}))):
                        value = float(part.get(stat, np.nan))
                        if stat == "discriminancy" and flip != (r > c):
                            with np.errstate(divide="ignore"):
                                value = 1.0 / np.float64(value)
                        grid[r, c] = value
            shown = np.clip(grid, norm.vmin, norm.vmax)
            image = ax.imshow(np.ma.masked_invalid(shown), norm=norm, cmap="RdBu")
            for (i, j), value in np.ndenumerate(grid):
                if i != j and not np.isnan(value):
                    dark = abs(norm(shown[i, j]) - 0.5) > 0.35
                    text = "∞" if np.isinf(value) else f"{value:.2f}" if many else f"{value:.3f}"
                    ax.text(
                        j,
                        i,
                        text,
                        ha="center",
                        va="center",
                        fontsize=5 if many else 6.5,
                        color="white" if dark else "black",
                    )
            ticks = [labels.get(n, n) for n in names]
            ax.set_xticks(range(len(names)), ticks, rotation=45, ha="right")
            ax.set_yticks(range(len(names)), ticks)
            ax.plot([-0.5, len(names) - 0.5], [-0.5, len(names) - 0.5], color="0.3", lw=0.6)
            ax.grid(False)
            ax.set_title(title)
            fig.colorbar(image, ax=ax, shrink=0.8, location="bottom")
        fig.suptitle(
            f"How the measures rank {summary['n_matrices']:,} matrices alike (oriented: higher is "
            "better); above the diagonal: all pairs of matrices, below: pairs of equal K; blank: "
            "undefined (0/0)"
        )
    return fig


def density_panels(panels):
    """One 2-D histogram a panel: ``(histogram, x label, y label, title)`` each."""
    fig, axes = subplots(1, len(panels), squeeze=False)
    with style():
        mesh = None
        for ax, (hist, xlabel, ylabel, title) in zip(axes[0], panels, strict=True):
            counts = np.ma.masked_equal(hist.counts.T, 0)
            x = np.linspace(*hist.x_range, hist.counts.shape[0] + 1)
            y = np.linspace(*hist.y_range, hist.counts.shape[1] + 1)
            mesh = ax.pcolormesh(
                x,
                y,
                counts,
                norm=LogNorm(vmin=1, vmax=max(int(counts.max() or 1), 2)),
                cmap="viridis",
                rasterized=True,
            )
            ax.set(xlabel=xlabel, ylabel=ylabel, title=title)
            if hist.outside:
                ax.annotate(
                    f"{hist.outside:,} matrices outside", (0.02, 0.02), xycoords="axes fraction"
                )
        if mesh is not None:
            fig.colorbar(mesh, ax=axes, label="matrices per cell")
    return fig


#: Markers and line styles that, with the ten colours of ``tab10``, give up to 70 pairs each a
#: style of its own (:func:`pair_styles`).
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LINESTYLES = ("-", "--", ":", "-.")


#: Pairs the per-K figure draws at most by default (8 measures); beyond, those of the first
#: measure.
MAX_PAIRS = 28


def pair_styles(n: int) -> list[dict]:
    """``n`` distinct line styles (colour, marker, line style), for lines that are not ordered:
    the colour cycles over ten, the marker over seven and the line style changes every ten,
    so that no two of up to 70 lines look alike."""
    colors = plt.get_cmap("tab10").colors
    return [
        {
            "color": colors[i % 10],
            "marker": MARKERS[i % len(MARKERS)],
            "linestyle": LINESTYLES[(i // 10) % len(LINESTYLES)],
        }
        for i in range(n)
    ]


def agreement_by_k(summary: dict, labels: dict, pairs=None):
    """Each pair's τ_b and consistency against the number of classes K (±1 SE).

    ``pairs``: the ``(f, g)`` pairs to draw; by default every pair of the summary, or, beyond
    :data:`MAX_PAIRS`, those of the first measure (the title says so). Each pair
    gets a style of its own (:func:`pair_styles`); the legend sits under the panels, in as
    many rows as it needs, so that 2 to 28 pairs stay legible and none is cut.
    """
    chosen = (
        list(pairs)
        if pairs is not None
        else [(f, g) for f, row in summary["pairs"].items() for g in row]
    )
    first = None
    if pairs is None and len(chosen) > MAX_PAIRS:  # the first measure against each other
        first = next(iter(summary["measures"]))
        chosen = [p for p in chosen if first in p]
    columns = 1 if len(chosen) <= 4 else 2 if len(chosen) <= 12 else 3
    legend_rows = -(-len(chosen) // columns)
    fig, axes = subplots(1, 2, width=PAGE / 2, height=2.6 + 0.16 * legend_rows)
    with style():
        for ax, stat, title in zip(
            axes,
            ("kendall_tau_b", "consistency"),
            ("Kendall's τ_b", "degree of consistency"),
            strict=True,
        ):
            for (f, g), look in zip(chosen, pair_styles(len(chosen)), strict=True):
                pair, _ = oriented_pair(summary, f, g)
                Ks = [int(k) for k in pair["by_k"]]
                values = [part[stat] for part in pair["by_k"].values()]
                errors = [part.get(f"{stat}_se", np.nan) for part in pair["by_k"].values()]
                ax.errorbar(
                    Ks,
                    values,
                    yerr=np.nan_to_num(np.asarray(errors, dtype=float)),
                    ms=3,
                    lw=0.9,
                    capsize=0,
                    label=f"{labels.get(f, f)} vs {labels.get(g, g)}",
                    **look,
                )
            ax.set(xlabel="K (number of classes)", title=title)
        handles, names = axes[0].get_legend_handles_labels()
        fig.legend(handles, names, loc="outside lower center", ncols=columns, fontsize=6.5)
        if first is not None:
            fig.suptitle(
                f"{labels.get(first, first)} against each other measure (of "
                f"{len(summary['measures'])}; agreement_by_k(pairs=...) draws others)"
            )
    return fig


def k_per_dimension(study: dict, *, given: str = "k(K), printed constants"):
    """The empirical k per K (mean ± 1 SD of the ratio), the given k(K) and the refitted one.

    A refitted curve whose reduced χ² is above the limit is drawn dashed red and labelled as
    not fitting.
    """
    per_k = {name: np.asarray(v, dtype=float) for name, v in study["per_k"].items()}
    fit = study["k_fit"]
    K = per_k["K"]
    grid = np.linspace(K.min(), K.max(), 300)
    fig, ax = subplots(width=6.0)
    with style():
        ax.errorbar(
            K,
            per_k["mean"],
            yerr=per_k["std"],
            fmt="o",
            ms=3,
            capsize=2,
            label="ratio per K, mean ± 1 SD",
        )
        ax.plot(K, per_k["k"], label=given)
        if fit is not None:
            curve = cenmcc.k_factor(grid, fit["a"], fit["b"], fit["c"])
            text = f"k(K) fitted: a={fit['a']:.4f}, b={fit['b']:.4f}, c={fit['c']:.4f}"
            if fit["fits"]:
                ax.plot(grid, curve, ls="--", label=text)
            else:
                ax.plot(
                    grid,
                    curve,
                    ls="--",
                    color="tab:red",
                    label=f"{text}\nDOES NOT FIT: reduced χ² = {fit['chi2_reduced']:.3g}",
                )
        ax.set(xlabel="K (number of classes)", ylabel="k", title="The constant k of Eq. (3)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig
