"""The measure × property table, as Markdown."""

from __future__ import annotations

import pandas as pd

import cenmcc
from cenmcc.runtime.files import markdown_table

from .settings import MARK


def wide(table: pd.DataFrame) -> pd.DataFrame:
    """The measure × property table of marks, one row per measure, K and domain."""
    marks = table.assign(mark=table["holds"].map(MARK))
    grid = marks.pivot_table(
        index=["measure", "K", "domain"], columns="property", values="mark", aggfunc="first"
    )
    order = [p for p in cenmcc.properties.PROPERTIES if p in grid.columns]
    grid = grid[order].fillna("")
    measures = {name: i for i, name in enumerate(cenmcc.MEASURES)}
    grid = grid.reset_index()
    return grid.sort_values(
        ["measure", "K", "domain"],
        key=lambda c: c.map(measures.get) if c.name == "measure" else c,
        kind="stable",
    )


#: What the table leaves out and how its counterexamples were found, under the marks.
NOTES = (
    "Left out of every check: the matrices on which a measure meets a 0/0, those its "
    "UndefinedMetricWarning counts, whether it fills a value there (the MCC's 0) or leaves the "
    "term out of a mean (the balanced accuracy's classes without true samples); with every "
    "class present (`present`), also the matrices in which a class is never true or never "
    "predicted. The audit's `method` (properties.csv) counts them.",
    "",
    "A counterexample from the exhaustive range (every matrix up to the audit's number of "
    "items) is the smallest; one marked *random search* was found among the random matrices "
    "beyond it and is the first found there, not the smallest: one of fewer items may exist.",
)


def markdown(table: pd.DataFrame) -> str:
    """The marks, what is left out, then each counterexample of the domain of every class
    present, those of the random search marked as such."""
    lines = [markdown_table(wide(table)), "", *NOTES, "", "Counterexamples (every class present):"]
    lines.append("")
    failing = table[(table["holds"] == False) & (table["domain"] == "present")]  # noqa: E712
    for row in failing.itertuples():
        found = "" if row.smallest else " (random search, not the smallest)"
        lines.append(f"- {row.measure}, K = {row.K}, {row.property}{found}: {row.counterexample}")
    return "\n".join(lines) + "\n"
