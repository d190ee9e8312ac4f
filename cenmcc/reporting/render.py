"""A report as a Markdown page, an HTML page and a matplotlib figure (the ``figures`` extra).

The pages show each value with its interval, ``0.912 [0.894, 0.928]``, and mark a value whose
call warned with ``[!n]``, the n-th warning listed under the tables; the figure is a forest
plot of every measure and the row-normalised confusion matrices.
"""

from __future__ import annotations

import base64
import html as escaping
import io
import math

from ..registry import MEASURES
from ..runtime.files import markdown_table

#: Panels a row of the figure holds, and the size of one (inches).
PANELS_PER_ROW = 4
PANEL = (3.0, 2.6)


def label(name: str) -> str:
    """The display label of a measure of :data:`cenmcc.MEASURES`, else its name."""
    return MEASURES[name].label if name in MEASURES else name


def interval(value, low, high) -> str:
    """``0.912 [0.894, 0.928]``; ``undefined`` where the value is NaN (0/0)."""
    if math.isnan(value):
        return "undefined"
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


def pvalue(p) -> str:
    """Two significant digits, ``<0.0001`` below that."""
    if math.isnan(p):
        return "undefined"
    return "<0.0001" if p < 1e-4 else f"{p:.2g}"


def tables(report) -> tuple[dict, list[str]]:
    """The report's tables as strings to show, by title, and the warnings their ``[!n]`` mark."""
    import pandas as pd

    warned: dict[str, int] = {}

    def mark(text: str, warning: str) -> str:
        if not warning:
            return text
        number = warned.setdefault(warning, len(warned) + 1)
        return f"{text} [!{number}]"

    scores = report.scores
    shown = {}
    wide = {}
    for row in scores.itertuples(index=False):
        cell = mark(interval(row.value, row.low, row.high), row.warning)
        wide.setdefault(row.classifier, {"classifier": row.classifier})[label(row.measure)] = cell
    shown["Scores"] = pd.DataFrame(list(wide.values()))
    if len(report.comparisons):
        shown["Comparisons"] = pd.DataFrame(
            {
                "a": report.comparisons["a"],
                "b": report.comparisons["b"],
                "measure": report.comparisons["measure"].map(label),
                "a - b [interval]": [
                    mark(interval(r.difference, r.low, r.high), r.warning)
                    for r in report.comparisons.itertuples(index=False)
                ],
                "p": report.comparisons["pvalue"].map(pvalue),
                "p (Holm)": report.comparisons["pvalue_holm"].map(pvalue),
            }
        )
    per_class = report.per_class
    shown["Per class"] = pd.DataFrame(
        {
            "classifier": per_class["classifier"],
            "class": per_class["class"].map(str),
            "support": per_class["support"],
            "precision [Wilson]": [
                interval(*v)
                for v in per_class[["precision", "precision_low", "precision_high"]].to_numpy()
            ],
            "recall [Wilson]": [
                interval(*v) for v in per_class[["recall", "recall_low", "recall_high"]].to_numpy()
            ],
            "F1": per_class["f1"].map(lambda v: f"{v:.3f}"),
        }
    )
    notes = [f"[!{n}] {text}" for text, n in warned.items()]
    return shown, notes


def summary(report) -> str:
    """One line: the items, classes, classifiers and level."""
    classes = len(next(iter(report.confusion.values())))
    return (
        f"{report.n_items:,} items, {classes} classes, {len(report.confusion)} classifiers; "
        f"{report.level:.0%} intervals."
    )


def markdown(report) -> str:
    """The report as Markdown (see :meth:`Report.to_markdown`)."""
    shown, warned = tables(report)
    parts = ["# Classifier report", "", summary(report)]
    for title, table in shown.items():
        parts += ["", f"## {title}", "", markdown_table(table)]
    parts += ["", "## Notes", "", *(f"- {note}" for note in [*report.notes, *warned])]
    return "\n".join(parts) + "\n"


STYLE = """body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .5em}
th{background:#f3f3f3}td{font-variant-numeric:tabular-nums}img{max-width:100%}"""


def html(report, with_figure: bool = True) -> str:
    """The report as one HTML page, its figure embedded (see :meth:`Report.to_html`)."""
    shown, warned = tables(report)
    parts = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        f"<title>Classifier report</title><style>{STYLE}</style></head><body>",
        f"<h1>Classifier report</h1><p>{escaping.escape(summary(report))}</p>",
    ]
    for title, table in shown.items():
        parts += [f"<h2>{title}</h2>", table.to_html(index=False, border=0)]
    if with_figure:
        buffer = io.BytesIO()
        figure(report).savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        image = base64.b64encode(buffer.getvalue()).decode("ascii")
        parts.append(f'<h2>Figure</h2><img alt="the figure" src="data:image/png;base64,{image}">')
    items = "".join(f"<li>{escaping.escape(note)}</li>" for note in [*report.notes, *warned])
    parts += [f"<h2>Notes</h2><ul>{items}</ul>", "</body></html>\n"]
    return "\n".join(parts)


def figure(report):
    """The report's figure (see :meth:`Report.plot`)."""
    import numpy as np
    from matplotlib.figure import Figure

    measures = list(dict.fromkeys(report.scores["measure"]))
    names = list(report.confusion)
    rows = [math.ceil(len(measures) / PANELS_PER_ROW), math.ceil(len(names) / PANELS_PER_ROW)]
    columns = min(PANELS_PER_ROW, max(len(measures), len(names)))
    fig = Figure(
        figsize=(PANEL[0] * columns, PANEL[1] * rows[0] + (PANEL[1] + 0.4) * rows[1]),
        layout="constrained",
    )
    top, bottom = fig.subfigures(2, 1, height_ratios=[rows[0] * PANEL[1], rows[1] * PANEL[1] + 0.4])
    top.suptitle(f"Each measure with its {report.level:.0%} interval")
    colors = [f"C{i % 10}" for i in range(len(names))]
    y = np.arange(len(names))[::-1]
    for i, name in enumerate(measures):
        ax = top.add_subplot(rows[0], columns, i + 1)
        part = report.scores[report.scores["measure"] == name].set_index("classifier").loc[names]
        value = part["value"].to_numpy()
        errors = np.abs(part[["low", "high"]].to_numpy().T - value)
        for j in range(len(names)):
            ax.errorbar(
                value[j], y[j], xerr=errors[:, j : j + 1], fmt="o", color=colors[j], capsize=3
            )
        ax.set_yticks(y, names if i % columns == 0 else [""] * len(names))
        ax.set_ylim(-0.7, len(names) - 0.3)
        title = label(name)
        if name in MEASURES:  # a user's measure: its direction is not in the report
            title += f" ({'higher' if MEASURES[name].greater_is_better else 'lower'} is better)"
        ax.set_title(title, fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    bottom.suptitle("Confusion matrices, each row divided by its true class's items")
    for i, name in enumerate(names):
        ax = bottom.add_subplot(rows[1], columns, i + 1)
        C = report.confusion[name]
        with np.errstate(divide="ignore", invalid="ignore"):
            share = C.to_numpy() / C.to_numpy().sum(axis=1, keepdims=True)
        image = ax.imshow(share, vmin=0, vmax=1, cmap="Blues")
        ticks = np.arange(len(C))
        text = [str(c) for c in C.index]
        ax.set_xticks(ticks, text, fontsize=7, rotation=90 if len(C) > 10 else 0)
        ax.set_yticks(ticks, text, fontsize=7)
        ax.set_xlabel("predicted", fontsize=8)
        ax.set_ylabel("true", fontsize=8)
        ax.set_title(name, fontsize=9, color=colors[i])
    bottom.colorbar(image, ax=bottom.axes, shrink=0.8, label="share of the true class")
    return fig
