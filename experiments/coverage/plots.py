"""The coverage table and figure."""

from __future__ import annotations

import pandas as pd

import cenmcc
from cenmcc.commands.files import markdown_table
from cenmcc.simulation.figures import PAGE, style, subplots

from .settings import CLOSED_FORMS, FLAG, LEVEL, MEASURES, METHODS, RESAMPLES


def coverage_markdown(table: pd.DataFrame, command: str) -> str:
    """The results table: coverage (± binomial SE) per cell and method, flags in bold."""
    shown = table.copy()
    shown["coverage"] = [
        f"**{c:.3f}** ± {s:.3f}" if f else f"{c:.3f} ± {s:.3f}"
        for c, s, f in zip(shown["coverage"], shown["coverage_se"], shown["flag"], strict=True)
    ]
    wide = shown.pivot_table(
        index=["measure", "K", "n", "classes", "classifier"],
        columns="method",
        values="coverage",
        aggfunc="first",
    ).reset_index()
    widths = table.pivot_table(
        index=["measure", "K", "n", "classes", "classifier"], columns="method", values="mean_width"
    )
    wide["mean width (bca / wald)"] = [
        f"{widths.loc[tuple(r)]['bca']:.3f} / {widths.loc[tuple(r)]['wald']:.3f}"
        for r in wide[["measure", "K", "n", "classes", "classifier"]].to_numpy()
    ]
    wide = wide.fillna("")
    return (
        f"# Coverage of 95% intervals\n\nWritten by `{command}`. Share of "
        f"{int(table['test_sets'].iloc[0]):,} test sets per cell whose interval contains the "
        f"population's value, ± its binomial standard error; **bold**: below {FLAG}. "
        f"Bootstrap: B = {RESAMPLES} resamples. An undefined interval counts as a miss.\n\n"
        + markdown_table(wide)
        + "\n"
    )


#: Every method of the table, each with its own colour and marker in every panel.
ALL_METHODS = (*METHODS, *dict.fromkeys(CLOSED_FORMS.values()))
MARKERS = ("o", "s", "^", "D", "v")


def plot(table: pd.DataFrame):
    """Coverage against n, one panel per measure, one marker per method."""
    with style():
        fig, axes = subplots(2, 4, width=PAGE / 4, height=2.2, sharex=True, sharey=True)
        for ax, name in zip(axes.ravel(), MEASURES, strict=True):
            sub = table[table["measure"] == name]
            for method, part in sub.groupby("method"):
                i = ALL_METHODS.index(method)  # one colour and offset per method in every panel
                jitter = 1 + 0.06 * (i - 2)
                ax.plot(
                    part["n"] * jitter,
                    part["coverage"],
                    MARKERS[i],
                    color=f"C{i}",
                    ms=2.5,
                    alpha=0.6,
                    label=method,
                )
            ax.axhline(LEVEL, color="0.3", lw=0.8)
            ax.axhline(FLAG, color="C7", lw=0.8, ls="--")
            ax.set(xscale="log", title=cenmcc.MEASURES[name].label)
        for ax in axes[1]:
            ax.set_xlabel("test set size n")
        for ax in axes[:, 0]:
            ax.set_ylabel("coverage of 95% intervals")
        handles, labels = axes[0, 0].get_legend_handles_labels()
        for ax in axes.ravel()[1:]:
            for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
        fig.legend(handles, labels, loc="outside upper center", ncols=len(labels))
    return fig
