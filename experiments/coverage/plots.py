"""The coverage table and figure."""

from __future__ import annotations

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.intervals import auto
from cenmcc.runtime.files import markdown_table
from cenmcc.simulation.figures import PAGE, style, subplots

from .compute import SINGLE_KEYS, table_entries
from .settings import (
    ALPHA,
    CLOSED_FORMS,
    DESIGNS,
    FLAG,
    IMBALANCE,
    LEVEL,
    MEASURES,
    METHODS,
    RECALL,
    RESAMPLES,
    paired_scenarios,
)


def populations_markdown() -> str:
    """What each population of the experiment is, in words and numbers."""
    designs = "\n".join(
        f"- `{name}`: expected confusion matrix (rows true) "
        f"`{P.tolist()}`, n = {', '.join(map(str, sizes))}"
        for name, (P, sizes) in DESIGNS.items()
    )
    scenarios = "\n".join(
        f"- {name}: K = {p.shape[0]}, true priors "
        f"{', '.join(f'{x:.3f}' for x in p.sum(axis=(1, 2)))}"
        for name, p in paired_scenarios().items()
    )
    return (
        "## The populations\n\n"
        "**Grid** (`settings.population`): K classes with equal priors (`balanced`) or priors "
        f"falling geometrically from the largest to the smallest, {IMBALANCE:g} times smaller "
        "(`imbalanced`; for K = 2, a prevalence of 1/21); a `good` classifier (recall "
        f"{RECALL['good']} in every class) or a `poor` one (recall {RECALL['poor']}), its "
        "errors spread evenly over the other classes. The population's value is the measure "
        "of the expected confusion matrix.\n\n"
        "**Published designs** (`settings.DESIGNS`), Itaya et al. (2024) and Tamura et al. "
        "(2025), as read from the authors' code (their coverage tables are not available "
        "to us: the numbers here are ours):\n\n" + designs + "\n\n"
        "**Paired scenarios** (`settings.paired_scenarios`: joint tables of truth, a's and "
        "b's predictions; 'null' where the two MCCs are equal):\n\n" + scenarios + "\n"
    )


def default_choices(table: pd.DataFrame) -> pd.DataFrame:
    """What ``method="auto"`` chooses in each cell of the table, and its worst coverage in
    that cell's neighbourhood (:mod:`cenmcc.intervals.auto`, from this table)."""
    entries = table_entries(table, SINGLE_KEYS)
    cells = table.drop_duplicates(["measure", *SINGLE_KEYS])
    rows = []
    for name, part in cells.groupby("measure", sort=False):
        features = auto.regime(part["n"], 1, part["smallest"], part["unpredicted"])
        features[:, 1] = np.log2(part["K"])
        methods, coverage = auto.choose(
            features, cenmcc.MEASURES[name], entries, list(entries[name]["coverage"])
        )
        rows.append(part[SINGLE_KEYS].assign(measure=name, method=methods, coverage=coverage))
    out = pd.concat(rows, ignore_index=True)
    out["holds"] = out["coverage"] >= FLAG
    return out


def paired_markdown(paired: pd.DataFrame) -> str:
    """Type-I error (null scenarios), power and coverage of the paired methods."""
    if paired.empty:
        return ""
    shown = paired.assign(
        cell=[
            f"{r:.3f} / {c:.3f}"
            for r, c in zip(paired["rejected"], paired["coverage"], strict=True)
        ]
    )
    wide = shown.pivot_table(
        index=["scenario", "measure", "n"], columns="method", values="cell", aggfunc="first"
    ).reset_index()
    sets = int(paired["test_sets"].iloc[0])
    se = np.sqrt(ALPHA * (1 - ALPHA) / sets)
    return (
        f"\n## Paired comparisons\n\nEach cell: the share of {sets:,} test sets whose p-value "
        f"is below {ALPHA} (under a null scenario the type-I error, binomial SE {se:.3f} near "
        f"{ALPHA}; elsewhere the power) / the share whose interval contains the difference.\n\n"
        + markdown_table(wide.fillna(""))
        + "\n"
    )


def coverage_markdown(table: pd.DataFrame, paired: pd.DataFrame, command: str) -> str:
    """The populations, where the default holds, the results table (coverage ± binomial SE
    per cell and method, flags in bold) and the paired comparisons."""
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
    default = default_choices(table)
    default["shown"] = [
        f"{c:.3f} {m}" + (" **!**" if c < FLAG else "")
        for c, m in zip(default["coverage"], default["method"], strict=True)
    ]
    holds = default.pivot_table(
        index=["K", "n", "classes", "classifier"],
        columns="measure",
        values="shown",
        aggfunc="first",
    ).reset_index()
    return (
        f"# Coverage of 95% intervals\n\n{populations_markdown()}\n"
        '## Where the default holds\n\nFor each cell, what `method="auto"` chooses there and '
        "the worst coverage of that method over the cell's neighbourhood (the cells it reads); "
        f"**!** where it is below {FLAG}: there the call warns (`cenmcc.CoverageWarning`).\n\n"
        + markdown_table(holds)
        + f"\n\n## Every method\n\nWritten by `{command}`. Share of "
        f"{int(table['test_sets'].iloc[0]):,} test sets per cell whose interval contains the "
        f"population's value, ± its binomial standard error; **bold**: below {FLAG}. "
        f"Bootstrap: B = {RESAMPLES} resamples. An undefined interval counts as a miss.\n\n"
        + markdown_table(wide)
        + "\n"
        + paired_markdown(paired)
    )


#: Every method of the table, each with its own colour and marker in every panel.
ALL_METHODS = (*METHODS, "fisher_z", *dict.fromkeys(CLOSED_FORMS.values()))
MARKERS = ("o", "s", "^", "<", "D", "v")


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


def plot_default(table: pd.DataFrame):
    """For each measure, the regimes (n, smallest class) where the default holds: filled where
    its worst neighbourhood coverage is at least the flag, a cross where the call warns."""
    default = default_choices(table)
    with style():
        fig, axes = subplots(2, 4, width=PAGE / 4, height=2.2, sharex=True, sharey=True)
        for ax, name in zip(axes.ravel(), MEASURES, strict=True):
            sub = default[default["measure"] == name]
            for holds, marker, colour, label in (
                (True, "o", "C2", f"default covers >= {FLAG}"),
                (False, "x", "C3", "warns (CoverageWarning)"),
            ):
                part = sub[sub["holds"] == holds]
                ax.scatter(
                    part["n"] * (1 + 0.08 * (part["K"] - 3)),
                    1 + part["smallest"],
                    marker=marker,
                    color=colour,
                    s=10,
                    label=label,
                )
            ax.set(xscale="log", yscale="log", title=cenmcc.MEASURES[name].label)
        for ax in axes[1]:
            ax.set_xlabel("test set size n")
        for ax in axes[:, 0]:
            ax.set_ylabel("1 + smallest class")
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside upper center", ncols=2)
    return fig
