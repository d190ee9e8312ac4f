"""A finished simulation: its summary, tables and figures, and how to save them.

``Result.save(path)`` writes, all or nothing (into a staging directory swapped in whole when
complete, :func:`cenmcc.commands.staging.staged_directory`):

- ``summary.json``: every statistic with its standard error;
- ``measures.csv``: per measure, overall and per K, its count, mean, SD and undefined values;
- ``pairs.csv``: per pair of measures, overall, within K (the pairs of matrices of equal K
  pooled: τ_b, consistency, discriminancy) and per K, the Pearson correlation, Kendall's τ_b
  and the degrees of consistency and discriminancy, with their standard errors;
- for each study with a per-K table, ``<study>_per_k.csv``;
- ``run.json``: what made the run (the call or command line, the versions of cenmcc and its
  dependencies, the seed, the generator, measures and studies); ``timing.json``: its timings;
- with ``keep_table``, ``table/<column>.npy``: K and every measure of every matrix, one NumPy
  array per column (``numpy.load``; ``table/columns.json`` lists them in order);
- the figures (PNG and PDF; they need matplotlib, the ``figures`` extra): ``agreement`` (the
  matrix of pairwise agreement), ``density`` (the density panels of the chosen pairs),
  ``per_k`` (each pair's agreement against K) and, for the papers' study,
  ``<study>_per_dimension``.

Each table's ``scope`` column says which rows are ``overall``, ``within_k`` and ``per_k``;
``K`` is an integer, the number of classes of a ``per_k`` row and 0 on the others.

A save that fails (a full disk, an interrupt) leaves the destination as it was, and the result
in memory intact, to be saved elsewhere. :meth:`Result.load` reads a saved result back.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import platform
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

import numpy as np

from cenmcc.commands.files import save_figures, stored, write_atomic, write_json
from cenmcc.commands.staging import staged_directory

from .agreement import oriented_pair


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
        return oriented_pair(self.summary, f, g)[0]

    def pair_names(self):
        """The ``(f, g)`` pairs of measures of the summary, in its order."""
        return ((f, g) for f, row in self.summary["pairs"].items() for g in row)

    def study(self, name: str) -> dict:
        """The summary of a study."""
        return self.summary["studies"][name]

    def tables(self) -> dict[str, list[dict]]:
        """The CSV tables of :meth:`save`, as lists of rows (dicts)."""
        measures = self.summary["measures"].items()
        pairs = [(f, g, p) for f, row in self.summary["pairs"].items() for g, p in row.items()]
        tables = {
            "measures": _rows((({"measure": m}, entry) for m, entry in measures), MEASURE_COLUMNS),
            "pairs": _rows((({"f": f, "g": g}, entry) for f, g, entry in pairs), PAIR_COLUMNS),
        }
        for name, study in self.summary["studies"].items():
            if isinstance(study.get("per_k"), dict):
                columns = study["per_k"]
                tables[f"{name}_per_k"] = [
                    dict(zip(columns, row, strict=True))
                    for row in zip(*columns.values(), strict=True)
                ]
        return tables

    @classmethod
    def load(cls, path) -> Result:
        """The result that :meth:`save` wrote into the directory ``path``.

        Every statistic is as saved (floats at the stored digits); ``simulation`` is the saved
        description of the simulation (a dict: a generator is code, not data), ``table`` the
        per-matrix columns if the run kept them, ``timing`` the saved timings, and ``states``
        empty (the histograms behind the density figure are not saved).

        Raises
        ------
        FileNotFoundError
            If ``path`` holds no ``summary.json``.
        """
        directory = Path(path)
        if not (directory / "summary.json").is_file():
            raise FileNotFoundError(f"{directory} holds no summary.json: not a saved Result")
        summary = _numbers(json.loads((directory / "summary.json").read_text()))
        described = summary.pop("simulation")
        timing_file = directory / "timing.json"
        timing = json.loads(timing_file.read_text()) if timing_file.is_file() else {}
        columns = directory / "table"
        table = None
        if columns.is_dir():
            order = json.loads((columns / "columns.json").read_text())
            table = {name: np.load(columns / f"{name}.npy") for name in order}
        return cls(described, summary, (), table, (), timing.get("run", {}))

    def save(self, path, *, figures: bool = True, call: str | None = None) -> Path:
        """Write the summary, tables and figures into the directory ``path`` (all or nothing).

        Floats are stored at :data:`~cenmcc.commands.files.SIGNIFICANT_DIGITS` significant
        digits, those a rerun on another processor reproduces.

        Parameters
        ----------
        path : str or Path
            The output directory. It is replaced whole if it holds an earlier save (or any
            output of cenmcc), except for files you added to it, which are kept; any other
            existing directory or file, or a mount point, is refused, untouched.
        figures : bool
            Also draw the figures (needs matplotlib: ``pip install 'cenmcc[figures]'``).
        call : str, optional
            What made the run, for ``run.json`` (the command line); by default the library
            call, ``cenmcc.simulation.run(Simulation(...))`` with the simulation's settings.

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
        if figures:
            from . import figures as plots  # ImportError now, before any output is touched
        destination = Path(path)
        with staged_directory(destination) as stage:
            for name, rows in self.tables().items():
                text = _csv(rows)
                write_atomic(stage / f"{name}.csv", lambda tmp, text=text: tmp.write_text(text))
            if figures:
                save_figures(plots.result_figures(self), stage)
            if self.table is not None:
                (stage / "table").mkdir()
                for name, column in self.table.items():
                    write_atomic(
                        stage / "table" / f"{name}.npy",
                        lambda tmp, column=column: _save_npy(tmp, column),
                    )
                write_json(stage / "table" / "columns.json", list(self.table))
            described = describe(self.simulation)
            write_json(stage / "summary.json", self.summary | {"simulation": described})
            write_json(stage / "run.json", provenance(self.simulation, call))
            write_json(stage / "timing.json", {"run": self.timing, "machine": _machine()})
        return destination


def describe(sim) -> dict:
    """What a :class:`~cenmcc.simulation.Simulation` simulates, for a saved summary (a loaded
    result's description is returned as it is)."""
    if isinstance(sim, dict):
        return sim
    return {
        "generator": _name_of(sim.generator),
        "measures": [m.name for m in sim.resolved_measures],
        "studies": [s.name for s in sim.studies],
        "n_matrices": sim.n_matrices,
        "seed": sim.seed,
        "chunk_size": sim.chunk_size,
    }


#: The packages whose versions every saved run records.
DEPENDENCIES = ("numpy", "scipy", "joblib", "matplotlib", "dask", "distributed", "cloudpickle")


def provenance(sim, call: str | None = None) -> dict:
    """What made a run, for ``run.json``: the call or command, the package and dependency
    versions, the seed, and descriptions of the generator, the measures and the studies."""
    versions = {}
    for name in ("cenmcc", *DEPENDENCIES):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    if isinstance(sim, dict):  # a loaded result saved again
        return {"call": call, "versions": versions, "simulation": sim}
    return {
        "call": call or f"cenmcc.simulation.run({_settings(sim)})",
        "package": "cenmcc",
        "versions": versions,
        "python": platform.python_version(),
        "seed": sim.seed,
        "generator": repr(sim.generator),
        "measures": [
            {
                "name": m.name,
                "label": m.label,
                "function": _name_of(m.function),
                "greater_is_better": m.greater_is_better,
                "bounds": list(m.bounds),
                "undefined": m.undefined,
            }
            for m in sim.resolved_measures
        ],
        "studies": [repr(s) for s in sim.studies],
        "simulation": describe(sim),
    }


def _settings(sim) -> str:
    """``Simulation(...)`` with the settings that differ from the defaults."""
    fields = [
        f"{f.name}={getattr(sim, f.name)!r}"
        for f in dataclasses.fields(sim)
        if f.name in ("generator", "n_matrices") or getattr(sim, f.name) != f.default
    ]
    return f"Simulation({', '.join(fields)})"


def _machine() -> dict:
    return {
        "host": platform.node(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }


def _save_npy(path: Path, column: np.ndarray) -> None:
    with path.open("wb") as file:
        np.save(file, column)


def _numbers(tree):
    """A loaded summary with the strings that stand for non-finite floats as floats."""
    if isinstance(tree, dict):
        return {k: _numbers(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_numbers(v) for v in tree]
    if tree in ("nan", "inf", "-inf"):
        return float(tree)
    return tree


def _name_of(obj) -> str:
    if hasattr(obj, "__qualname__"):
        return f"{obj.__module__}.{obj.__qualname__}"
    return repr(obj)


#: The statistics of a measure's row and of a pair's row.
MEASURE_COLUMNS = ("n", "mean", "mean_se", "sd", "sd_se", "undefined")
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


def _rows(entries, columns: tuple) -> list[dict]:
    """A table's rows, one per scope of each ``(names, entry)`` of the summary: the entry's
    ``names`` (a dict), its ``scope`` and ``K``, and its ``columns`` (NaN where absent). The
    scopes are ``"overall"`` (K 0), ``"within_k"`` (the pairs of equal K pooled, K 0) where the
    entry has one, then ``"per_k"``, K by K."""
    rows = []
    for names, entry in entries:
        scoped = [("overall", 0, entry)]
        if "within_k" in entry:
            scoped.append(("within_k", 0, entry["within_k"]))
        scoped += [("per_k", int(K), part) for K, part in entry["by_k"].items()]
        rows += [
            {**names, "scope": scope, "K": K, **{c: part.get(c, math.nan) for c in columns}}
            for scope, K, part in scoped
        ]
    return rows


def _csv(rows: list[dict]) -> str:
    """Rows as CSV text, floats as stored (:func:`~cenmcc.commands.files.stored`), NaN as
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
