"""A finished simulation: its summary, tables and figures, and how to save them.

``Result.save(path)`` writes, all or nothing (into a staging directory swapped in whole when
complete, :func:`cenmcc.runtime.staging.staged_directory`):

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
in memory intact, to be saved elsewhere; a file of yours in the way of one of these is refused
before anything is drawn (:func:`output_files` names them all, for a check before a run).
:meth:`Result.load` reads a saved result back.
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

from cenmcc.runtime.files import (
    FIGURE_SUFFIXES,
    save_figures,
    stored,
    write_atomic,
    write_json,
)
from cenmcc.runtime.staging import recover, staged_directory

from .agreement import oriented_pair
from .pairs import GROUP


class Result(NamedTuple):
    """A finished simulation.

    Returned by :func:`cenmcc.simulation.run`, or read back from a saved folder by
    :meth:`load`.

    Attributes
    ----------
    simulation : Simulation or dict
        The simulation run. For a loaded result, a dict: the record of what made the run, as
        ``run.json`` holds it (a generator and a measure are code, not data): its ``call``,
        the ``versions`` it ran with, its ``seed``, descriptions of its ``generator``,
        ``measures`` and ``studies``, and ``simulation``, the settings that
        ``summary.json`` holds.
    summary : dict
        Every statistic (JSON-able): ``measures``, ``pairs`` (``pairs[f][g]``), ``studies``,
        and how the standard errors were obtained.
    states : tuple
        The merged states: the agreement state (its ``histograms`` by pair) and each study's;
        empty for a loaded result (they are not saved).
    table : dict of str to ndarray or None
        With ``keep_table``: K and every measure of every matrix, in chunk order.
    processes : tuple of (str, int)
        The host and process id of every process that ran a chunk; empty for a loaded result.
    timing : dict
        Seconds and settings of the run (apart from the summary, which a rerun reproduces);
        for a loaded result also ``machine``, the machine that ran it.
    """

    simulation: object
    summary: dict
    states: tuple
    table: dict | None
    processes: tuple
    timing: dict

    @property
    def histograms(self) -> dict:
        """The 2-D histograms of the density pairs: ``(f, g)`` to Histogram2D (f on x).

        Raises
        ------
        ValueError
            For a loaded result: :meth:`save` does not write them.
        """
        if self._loaded:
            raise ValueError(
                "a loaded Result has no histograms (save does not write them): rerun the "
                "simulation for them and its density figure"
            )
        return self.states[0].histograms

    @property
    def _loaded(self) -> bool:
        return isinstance(self.simulation, dict)

    def labels(self) -> dict[str, str]:
        """Each measure's label (in the figures), by name; a loaded result's as saved."""
        if self._loaded:
            saved = {m["name"]: m["label"] for m in self.simulation.get("measures", ())}
            return {name: saved.get(name, name) for name in self.summary["measures"]}
        return {m.name: m.label for m in self.simulation.resolved_measures}

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

        A run killed while it swapped its outputs into ``path`` is first put right
        (:func:`cenmcc.runtime.staging.recover`). Every statistic is as saved (floats at the
        stored digits); ``simulation`` is the record of what made the run (``run.json``, a
        dict), ``table`` the per-matrix columns if the run kept them, ``timing`` the saved
        timings and machine, and ``states`` and ``processes`` are empty: the histograms
        behind the density figure are not saved, so :attr:`histograms` raises and
        :meth:`save` draws every figure but that one.

        Raises
        ------
        FileNotFoundError
            If ``path`` holds no ``summary.json``.
        ValueError
            If a file of the result is damaged: one line naming the file and what is wrong
            (not JSON, an entry missing or of the wrong type, a table column unreadable or
            not of ``n_matrices`` values).
        """
        directory = Path(path)
        recover(directory)
        if not (directory / "summary.json").is_file():
            raise FileNotFoundError(f"{directory} holds no summary.json: not a saved Result")
        summary = _read_summary(directory / "summary.json")
        record = _read_record(directory / "run.json") | {"simulation": summary.pop("simulation")}
        saved = _read_json(directory / "timing.json", {"run": dict, "machine": dict})
        timing = dict(saved.get("run", {}))
        if "machine" in saved:
            timing["machine"] = saved["machine"]
        table = None
        if (directory / "table").is_dir():
            table = _read_table(directory / "table", summary["n_matrices"])
        return cls(record, summary, (), table, (), timing)

    def save(self, path, *, figures: bool = True, call: str | None = None) -> Path:
        """Write the summary, tables and figures into the directory ``path`` (all or nothing).

        Floats are stored at :data:`~cenmcc.runtime.files.SIGNIFICANT_DIGITS` significant
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
            If ``path`` is a file, a directory that cenmcc did not write, or holds a file of
            yours in the way of one this save writes (before anything is drawn).
        ImportError
            If ``figures`` and matplotlib is missing (before anything is written).

        Notes
        -----
        A loaded result (:meth:`load`) is saved with the record of the run that made it
        (``run.json``), to which ``saved_again`` adds this save's call and versions, and
        which packages' versions differ from the run's (``versions_differ``); it draws every
        figure but the density panels, whose histograms are not saved.
        """
        if figures:
            from . import figures as plots  # ImportError now, before any output is touched
        destination = Path(path)
        writes = _output_files(list(self.summary["studies"]), figures, self.table)
        with staged_directory(destination, writes=writes) as stage:
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
            timing = dict(self.timing)
            machine = timing.pop("machine", None) or _machine()  # a loaded result's, as it ran
            write_json(stage / "timing.json", {"run": timing, "machine": machine})
        return destination


#: The figures of every run (:func:`cenmcc.simulation.figures.result_figures`), where its
#: measures and matrices have them, and those of each study, ``<study>_per_dimension``.
FIGURES = ("agreement", "per_k", "density")


def output_files(sim, *, figures: bool = True) -> list[str]:
    """Every file :meth:`Result.save` may write for a run of the
    :class:`~cenmcc.simulation.Simulation` ``sim``, as paths in its directory.

    A figure or a study's table is written where the run has it (``per_k`` for several K),
    so this is what a run can write, known before it runs: to refuse a file of the user's in
    the way of one before the work
    (:func:`cenmcc.runtime.staging.check_replaceable`).
    """
    table = [GROUP, *(m.name for m in sim.resolved_measures)] if sim.keep_table else None
    return _output_files([s.name for s in sim.studies], figures, table)


def _output_files(studies: list[str], figures: bool, table) -> list[str]:
    """:func:`output_files` of a run with these ``studies`` (names), ``figures`` or not, and
    ``table`` (its column names, None without)."""
    names = ["summary.json", "run.json", "timing.json", "measures.csv", "pairs.csv"]
    names += [f"{study}_per_k.csv" for study in studies]
    if figures:
        drawn = [*FIGURES, *(f"{study}_per_dimension" for study in studies)]
        names += [f"{name}{suffix}" for name in drawn for suffix in FIGURE_SUFFIXES]
    if table is not None:
        names += ["table/columns.json", *(f"table/{column}.npy" for column in table)]
    return names


def describe(sim) -> dict:
    """What a :class:`~cenmcc.simulation.Simulation` simulates, for a saved summary (a loaded
    result's description is returned as it was saved)."""
    if isinstance(sim, dict):
        return sim["simulation"]
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
    versions, the seed, and descriptions of the generator, the measures and the studies.

    For a loaded result (``sim`` the record :meth:`Result.load` read), that record, with this
    save added to its list ``saved_again``: its call, the versions installed, and the
    packages whose versions differ from the run's (``versions_differ``).
    """
    versions = {}
    for name in ("cenmcc", *DEPENDENCIES):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    if isinstance(sim, dict):
        ran = sim.get("versions", {})
        again = {
            "call": call or "cenmcc.simulation.Result.save",
            "versions": versions,
            "python": platform.python_version(),
            "versions_differ": sorted(
                n for n in ran.keys() | versions if ran.get(n) != versions.get(n)
            ),
        }
        return sim | {"saved_again": [*sim.get("saved_again", []), again]}
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


def _damaged(path: Path, problem: str) -> ValueError:
    """The error of a damaged file of a saved result: one line naming it and the problem."""
    return ValueError(f"{path} is damaged: {problem} (not a whole saved Result)")


def _read_json(path: Path, entries: dict[str, type], *, required: bool = False):
    """The JSON object in the file ``path`` (empty if it is absent and not ``required``),
    whose ``entries`` that it holds are of their types (all of them, where ``required``)."""
    if not required and not path.is_file():
        return {}
    try:
        value = json.loads(path.read_text())
    except ValueError as err:  # not JSON, not UTF-8
        raise _damaged(path, f"not JSON ({err})") from None
    if not isinstance(value, dict):
        raise _damaged(path, f"a JSON {type(value).__name__}, not an object")
    for key, kind in entries.items():
        if (required or key in value) and not isinstance(value.get(key), kind):
            raise _damaged(path, f"its {key!r} is missing or not a {kind.__name__}")
    return value


def _read_summary(path: Path) -> dict:
    """A saved ``summary.json``: every entry :class:`Result` reads, each measure's and each
    pair's with its ``by_k``, and the strings of non-finite floats as floats."""
    summary = _read_json(path, SUMMARY_ENTRIES, required=True)
    rows = summary["pairs"].values()
    entries = [
        *summary["measures"].values(),
        *(entry for row in rows for entry in (row.values() if isinstance(row, dict) else [row])),
    ]
    if not all(isinstance(e, dict) and isinstance(e.get("by_k"), dict) for e in entries):
        raise _damaged(path, "a measure or pair without its 'by_k' object")
    return _numbers(summary)


def _read_record(path: Path) -> dict:
    """A saved ``run.json`` (empty if absent), its measures each with a name and a label."""
    record = _read_json(path, {"measures": list, "versions": dict})
    for measure in record.get("measures", ()):
        if not (isinstance(measure, dict) and {"name", "label"} <= measure.keys()):
            raise _damaged(path, f"a measure without its name and label: {measure!r}")
    return record


#: The entries of a saved ``summary.json`` that :meth:`Result.load` needs, and their types.
SUMMARY_ENTRIES = {
    "simulation": dict,
    "n_matrices": int,
    "measures": dict,
    "pairs": dict,
    "studies": dict,
}


def _read_table(directory: Path, n: int) -> dict[str, np.ndarray]:
    """The columns of ``directory`` (``table/``) in the order of its ``columns.json``, each of
    ``n`` values."""
    order = directory / "columns.json"
    try:
        names = json.loads(order.read_text())
    except ValueError as err:
        raise _damaged(order, f"not JSON ({err})") from None
    if not (isinstance(names, list) and all(isinstance(c, str) and "/" not in c for c in names)):
        raise _damaged(order, f"not a list of column names: {names!r}")
    table = {}
    for name in names:
        file = directory / f"{name}.npy"
        try:
            table[name] = np.load(file)
        except FileNotFoundError:
            raise _damaged(order, f"it lists {name!r}, and {file.name} is missing") from None
        except ValueError as err:
            raise _damaged(file, str(err)) from None
        if table[name].shape != (n,):
            raise _damaged(file, f"shape {table[name].shape}, not the {n} values of n_matrices")
    return table


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
    """Rows as CSV text, floats as stored (:func:`~cenmcc.runtime.files.stored`), NaN as
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
