"""The discriminancy experiment's figure: the degrees of discriminancy of each case."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from cenmcc.simulation.figures import PAGE, legend_key, style, subplots

from .settings import PAPER_DISCRIMINANCY, PAPER_SIZES


def _side_by_side(n: np.ndarray, half_width: float = 0.34) -> np.ndarray:
    """x positions: the cases of each n spread evenly over ``n ± half_width``, in table order."""
    x = n.astype(float)
    for value in np.unique(n):
        at = np.flatnonzero(n == value)
        if len(at) > 1:
            x[at] += np.linspace(-half_width, half_width, len(at))
    return x


def _infinite_row(ax, x: np.ndarray, sizes: np.ndarray) -> None:
    """Cases with |Q| = 0 (an infinite degree) on a row of their own above the data, ticked ∞.

    The row is a decade above the axis' top, past a dotted break line; the cases are named
    (counted, when more than two).
    """
    lo, hi = ax.get_ylim()
    y_inf = hi * 10
    ticks = [t for t in ax.yaxis.get_major_locator().tick_values(lo, hi) if lo <= t <= hi]
    formatter = ax.yaxis.get_major_formatter()
    formatter.set_locs(ticks)
    ax.set_yticks([*ticks, y_inf], [*(formatter(t) for t in ticks), "$\\infty$"])
    ax.axhline(np.sqrt(hi * y_inf), color="C3", ls=":", lw=0.6)
    ax.set_ylim(lo, y_inf * 10)
    ax.scatter(x, np.full(len(x), y_inf), marker="^", s=18, color="C3", zorder=4)
    names = ", ".join(f"$({case.replace('-', ', ')})$" for case in sizes)
    ax.text(
        0.03,
        y_inf * 1.8,
        f"$|Q| = 0$, sizes {names}" if len(sizes) <= 2 else f"$|Q| = 0$: {len(sizes)} cases",
        transform=ax.get_yaxis_transform(),
        va="bottom",
        fontsize=7,
        color="C3",
    )


def plot(table: pd.DataFrame, *, paper_sizes=PAPER_SIZES):
    """Degree of discriminancy (log scale) against n, one point per case.

    Three panels: CEN over MCC, CEN over ACC and MCC over ACC, with ties decided exactly; in
    the first, a stick from each case's exact value up to its value with plain float ``==``
    ties. The cases of each n are spread side by side. The case of the paper is circled; the
    dashed line is its "about 6"; a case with |Q| = 0 (an infinite degree) is a triangle on
    a row of its own above the data, ticked ∞.
    """
    # The sweep lists unordered splits with sizes sorted; ordered runs list every order.
    paper = (
        table["sizes"]
        .isin({"-".join(map(str, p)) for p in itertools.permutations(paper_sizes)})
        .to_numpy()
    )
    x = _side_by_side(table["n"].to_numpy())
    panels = [
        ("cen_mcc", "(a) CEN over MCC"),
        ("cen_acc", "(b) CEN over accuracy"),
        ("mcc_acc", "(c) MCC over accuracy"),
    ]
    dot = {"s": 7, "color": "C0", "lw": 0, "zorder": 3}
    ring = {"s": 45, "facecolors": "none", "edgecolors": "k", "lw": 0.8, "zorder": 4}
    with style():
        fig, axes = subplots(1, 3, width=PAGE / 3, height=2.5, sharex=True)
        for ax, (pair, title) in zip(axes, panels, strict=True):
            exact = table[f"discriminancy_{pair}"].to_numpy(dtype=float)
            finite = np.isfinite(exact)
            if pair == "cen_mcc":
                flt = table[f"discriminancy_{pair}_float_eq"].to_numpy(dtype=float)
                ax.vlines(x, exact, flt, color="C1", lw=0.6, zorder=2)
                ax.scatter(x, flt, s=7, facecolors="none", edgecolors="C1", lw=0.6, zorder=3)
                ax.scatter(x[paper], flt[paper], **ring)
                ax.axhline(PAPER_DISCRIMINANCY, color="0.3", ls="--", lw=0.8, zorder=1)
            ax.scatter(x[finite], exact[finite], **dot)
            ax.scatter(x[paper & finite], exact[paper & finite], **ring)
            ax.set_yscale("log")
            if not finite.all():
                _infinite_row(ax, x[~finite], table["sizes"].to_numpy()[~finite])
            ax.set(title=title, xlabel="$n$, samples in three classes")
            ax.set_xticks(sorted(table["n"].unique()))
        axes[0].set_ylabel("degree of discriminancy $|P|\\,/\\,|Q|$")
        handles = [
            legend_key(
                "one split of the $n$ samples, ties decided exactly",
                ls="",
                marker="o",
                ms=2.6,
                mew=0,
                color="C0",
            ),
            legend_key(
                "(a) the same split with float == ties",
                ls="-",
                lw=0.6,
                marker="o",
                ms=2.6,
                mfc="none",
                mew=0.6,
                color="C1",
            ),
            legend_key(
                f"class sizes ${tuple(paper_sizes)}$, the paper's case",
                ls="",
                marker="o",
                ms=6,
                mfc="none",
                mew=0.8,
                color="k",
            ),
            legend_key(
                f"(a) printed: “about {PAPER_DISCRIMINANCY:g}”", ls="--", lw=0.8, color="0.3"
            ),
        ]
        fig.legend(handles=handles, loc="outside upper center", ncols=2)
    return fig
