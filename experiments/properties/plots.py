"""The measure × property table, as Markdown."""

from __future__ import annotations

import pandas as pd

import cenmcc
from cenmcc.commands.files import markdown_table

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


def markdown(table: pd.DataFrame) -> str:
    """The marks, then each counterexample of the domain of every class present."""
    lines = [markdown_table(wide(table)), "", "Counterexamples (every class present):", ""]
    failing = table[(table["holds"] == False) & (table["domain"] == "present")]  # noqa: E712
    for row in failing.itertuples():
        lines.append(f"- {row.measure}, K = {row.K}, {row.property}: {row.counterexample}")
    return "\n".join(lines) + "\n"
