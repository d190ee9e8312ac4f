"""A finished simulation: its summary, tables and figures, and how to save them.

``Result.save(path)`` writes, all or nothing (into a staging directory swapped in whole when
complete, :func:`cenmcc.simulation.outputs.staged_directory`):

- ``summary.json``: every statistic with its standard error;
- ``measures.csv``: per measure, overall and per K, its count, mean, SD and undefined values;
- ``pairs.csv``: per pair of measures, overall, within K (the pairs of matrices of equal K
  pooled: τ_b, consistency, discriminancy) and per K, the Pearson correlation, Kendall's τ_b
  and the degrees of consistency and discriminancy, with their standard errors;

Each table's ``scope`` column says which rows are ``overall``, ``within_k`` and ``per_k``;
``K`` is an integer, the number of classes of a ``per_k`` row and 0 on the others;
- for each study with a per-K table, ``<study>_per_k.csv``;
- the figures (PNG and PDF; they need matplotlib, the ``figures`` extra): ``agreement`` (the
  matrix of pairwise agreement), ``density`` (the density panels of the chosen pairs),
  ``per_k`` (each pair's agreement against K) and, for the papers' study, ``k_per_dimension``.

A save that fails (a full disk, an interrupt) leaves the destination as it was, and the result
in memory intact, to be saved elsewhere.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .outputs import stored


class Result(NamedTuple):
    """A finished simulation.

    Attributes
    ----------
    simulation : Simulation
    summary : dict
        Every statistic (JSON-able): ``measures``, ``pairs`` (``pairs[f][g]``), ``studies``,
        and how the standard errors were obtained.
    states : tuple
        The merged states: the agreement state (its ``histograms`` by pair) and each study's.
    table : dict of str to ndarray or None
        With ``keep_table``: K and every measure of every matrix, in chunk order.
    processes : tuple of (str, int)
        The host and process id of every process that ran a chunk.
    timing : dict
        Seconds and settings of the run (apart from the summary, which a rerun reproduces).
    """

    simulation: object
    summary: dict
    states: tuple
    table: dict | None
    processes: tuple
    timing: dict

    @property
    def histograms(self) -> dict:
        """The 2-D histograms of the density pairs: ``(f, g)`` to Histogram2D (f on x)."""
        return self.states[0].histograms

    def pair(self, f: str, g: str) -> dict:
        """The summary of the pair (f, g) of measures, in either order asked."""
        pairs = self.summary["pairs"]
        if f in pairs and g in pairs[f]:
            return pairs[f][g]
        if g in pairs and f in pairs[g]:
            return pairs[g][f]
        raise KeyError(f"no pair ({f}, {g}) in this run; its pairs: {list(self.pair_names())}")

    def pair_names(self):
        return ((f, g) for f, row in self.summary["pairs"].items() for g in row)

    def study(self, name: str) -> dict:
        """The summary of a study."""
        return self.summary["studies"][name]

    def tables(self) -> dict[str, list[dict]]:
        """The CSV tables of :meth:`save`, as lists of rows (dicts)."""
        tables = {"measures": _measure_rows(self.summary), "pairs": _pair_rows(self.summary)}
        for name, study in self.summary["studies"].items():
            if isinstance(study.get("per_k"), dict):
                columns = study["per_k"]
                tables[f"{name}_per_k"] = [
                    dict(zip(columns, row, strict=True))
                    for row in zip(*columns.values(), strict=True)
                ]
        return tables

    def frames(self):
        """The tables of :meth:`tables` as pandas DataFrames (needs pandas)."""
        import pandas as pd

        return {name: pd.DataFrame(rows) for name, rows in self.tables().items()}

    def save(self, path, *, figures: bool = True) -> Path:
        """Write the summary, tables and figures into the directory ``path`` (all or nothing).

        Floats are stored at :data:`~cenmcc.simulation.outputs.SIGNIFICANT_DIGITS` significant
        digits, those a rerun on another processor reproduces.

        Parameters
        ----------
        path : str or Path
            The output directory. It is replaced whole if it holds an earlier save (or any
            output of cenmcc), except for files you added to it, which are kept; any other
            existing directory or file, or a mount point, is refused, untouched.
        figures : bool
            Also draw the figures (needs matplotlib: ``pip install 'cenmcc[figures]'``).

        Returns
        -------
        Path
            The directory written.

        Raises
        ------
        ValueError
            If ``path`` is a file, or a directory that cenmcc did not write.
        ImportError
            If ``figures`` and matplotlib is missing (before anything is written).
        """
        from .outputs import save_figure, staged_directory, write_atomic, write_json

        if figures:
            from . import figures as plots  # ImportError now, before any output is touched
        destination = Path(path)
        with staged_directory(destination) as stage:
            for name, rows in self.tables().items():
                text = _csv(rows)
                write_atomic(stage / f"{name}.csv", lambda tmp, text=text: tmp.write_text(text))
            if figures:
                for name, fig in plots.result_figures(self).items():
                    for suffix in (".png", ".pdf"):
                        save_figure(fig, stage / f"{name}{suffix}")
                    plots.close(fig)
            write_json(
                stage / "summary.json", self.summary | {"simulation": describe(self.simulation)}
            )
        return destination


def describe(sim) -> dict:
    """What a :class:`~cenmcc.simulation.Simulation` simulates, for a saved summary."""
    return {
        "generator": _name_of(sim.generator),
        "measures": [m.name for m in sim.resolved_measures],
        "studies": [s.name for s in sim.studies],
        "n_matrices": sim.n_matrices,
        "seed": sim.seed,
        "chunk_size": sim.chunk_size,
    }


def _name_of(obj) -> str:
    if hasattr(obj, "__qualname__"):
        return f"{obj.__module__}.{obj.__qualname__}"
    return repr(obj)


def _scoped(entry: dict) -> list[tuple[str, int, dict]]:
    """``(scope, K, statistics)`` of an entry of the summary: ``"overall"`` (K 0), then
    ``"within_k"`` (the pairs of equal K pooled, K 0) where it has one, then ``"per_k"``, K
    by K: a K column of integers only."""
    rows = [("overall", 0, entry)]
    if "within_k" in entry:
        rows.append(("within_k", 0, entry["within_k"]))
    return rows + [("per_k", int(K), part) for K, part in entry["by_k"].items()]


def _measure_rows(summary: dict) -> list[dict]:
    rows = []
    for name, m in summary["measures"].items():
        for scope, K, part in _scoped(m):
            rows.append(
                {
                    "measure": name,
                    "scope": scope,
                    "K": K,
                    **{
                        key: part.get(key, math.nan)
                        for key in ("n", "mean", "mean_se", "sd", "sd_se", "undefined")
                    },
                }
            )
    return rows


#: The columns of a pair's row.
PAIR_COLUMNS = (
    "pearson",
    "pearson_se",
    "kendall_tau_b",
    "kendall_tau_b_se",
    "consistency",
    "consistency_se",
    "discriminancy",
    "discriminancy_se",
)


def _pair_rows(summary: dict) -> list[dict]:
    rows = []
    for f, row in summary["pairs"].items():
        for g, p in row.items():
            for scope, K, part in _scoped(p):
                rows.append(
                    {
                        "f": f,
                        "g": g,
                        "scope": scope,
                        "K": K,
                        **{c: part.get(c, math.nan) for c in PAIR_COLUMNS},
                    }
                )
    return rows


def _csv(rows: list[dict]) -> str:
    """Rows as CSV text, floats as stored (:func:`~cenmcc.simulation.outputs.stored`), NaN as
    ``nan``."""
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
    return buffer.getvalue()


def _cell(value):
    if isinstance(value, float | np.floating):
        return repr(stored(float(value)))
    return value
