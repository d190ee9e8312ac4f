"""Experiment summaries for the records that an experiment backs.

An experiment writes ``<figures>/<folder>/summary.json`` (its folder and the keys its summary
must hold are declared in :data:`experiments.registry.EXPERIMENTS`). :func:`load_summary` puts
right what a killed run left there (:func:`cenmcc.runtime.staging.recover`) and reads it; it
never runs an experiment: a missing summary is named, with the command that writes it
(``python -m paper_checks --run-missing`` runs the missing ones first, see
:func:`missing_experiments`). Data flows one way: paper_checks imports experiments, never the
reverse.
"""

from __future__ import annotations

import json
from pathlib import Path

from cenmcc.runtime.staging import recover
from experiments.paths import FIGURES, REPO_ROOT
from experiments.registry import BY_FOLDER, EXPERIMENTS, Experiment

#: Where summaries are read (``python -m paper_checks --figures DIR`` changes it).
figures_dir: Path = FIGURES


class SummaryError(ValueError):
    """An experiment's summary that cannot be used: missing, not JSON, or not the expected one.

    The message names the file and what is wrong with it; :func:`paper_checks.report.run_record`
    turns it into a "not checkable" outcome of each record that reads the file.
    """


def command_line(experiment: Experiment, figures: Path) -> str:
    """The command that writes ``experiment``'s outputs under ``figures``."""
    out = "" if Path(figures).resolve() == FIGURES else f" --out {figures}"
    return f"python -m experiments {experiment.command}{out}"


def missing_experiments(figures: Path) -> list[Experiment]:
    """The experiments paper_checks reads whose summary is missing under ``figures``.

    Each output directory is recovered first (:func:`cenmcc.runtime.staging.recover`), so a
    run killed while swapping its outputs in counts by the run it leaves in place.
    """
    missing = []
    for experiment in EXPERIMENTS:
        if experiment.summary_keys:
            recover(Path(figures) / experiment.folder)
            if not (Path(figures) / experiment.folder / "summary.json").exists():
                missing.append(experiment)
    return missing


class Summary(dict):
    """A parsed ``summary.json`` whose missing keys raise :class:`SummaryError` naming the file.

    Nested objects are :class:`Summary` too, so a record reading ``s["k_fit"]["a"]`` from an
    older layout learns which file lacks which key, not a bare ``KeyError: 'a'``.
    """

    def __init__(self, data: dict, path: Path, where: str = ""):
        super().__init__({k: _wrap(v, path, f"{where}{k}.") for k, v in data.items()})
        self.path = path
        self.where = where

    def __missing__(self, key):
        raise SummaryError(
            f"{self.path} has no key {self.where}{key} (another experiment's summary, or an "
            "older layout: rerun the experiment)"
        )


def _wrap(value, path: Path, where: str):
    if isinstance(value, dict):
        return Summary(value, path, where)
    if isinstance(value, list):
        return [_wrap(v, path, f"{where[:-1]}[{i}].") for i, v in enumerate(value)]
    return value


def shown(path: Path) -> Path:
    """``path`` as messages show it: relative to the repository when inside it."""
    path = Path(path)
    try:
        return path.resolve().relative_to(REPO_ROOT)
    except ValueError:
        return path


def read_summary(path: Path, name: str | None = None) -> Summary:
    """Parse the summary at ``path``, checking it is a JSON object (of the experiment in ``name``).

    Raises
    ------
    SummaryError
        If the file is missing or unreadable, is not valid JSON (a truncated write), is not a
        JSON object, or lacks the keys its experiment's declaration lists (another experiment's
        summary, or an older layout); the message names the file.
    """
    figures = Path(path).parent.parent
    path = shown(path)
    try:
        text = (REPO_ROOT / path).read_text()
    except FileNotFoundError:
        how = f": run `{command_line(BY_FOLDER[name], figures)}`" if name in BY_FOLDER else ""
        raise SummaryError(f"{path} does not exist{how}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SummaryError(f"{path} cannot be read: {error}") from None
    if not text.strip():
        raise SummaryError(f"{path} is empty (an interrupted run? rerun the experiment)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SummaryError(
            f"{path} is not valid JSON ({error.msg} at line {error.lineno}, column "
            f"{error.colno}; truncated? rerun the experiment)"
        ) from None
    if not isinstance(data, dict):
        raise SummaryError(f"{path} holds a JSON {type(data).__name__}, not an object")
    expected = BY_FOLDER[name].summary_keys if name in BY_FOLDER else ()
    missing = [k for k in expected if k not in data]
    if missing:
        like = [
            e.folder for e in EXPERIMENTS if e.summary_keys and set(e.summary_keys) <= data.keys()
        ]
        guess = (
            f"it looks like the {like[0]} experiment's summary"
            if like
            else "another experiment's summary, or an older layout"
        )
        raise SummaryError(f"{path} is not a {name} summary: it lacks {missing} ({guess})")
    return Summary(data, path)


def load_summary(name: str, *, figures: Path | None = None) -> Summary:
    """The summary of the experiment whose output folder is ``name``, recovered first.

    Parameters
    ----------
    name : str
        Output folder of the experiment under ``figures`` (e.g. ``"random_matrices"``).
    figures : Path, optional
        The figures directory; default :data:`figures_dir`.

    Returns
    -------
    Summary
        The parsed ``summary.json`` (see :func:`read_summary`).

    Raises
    ------
    SummaryError
        If it is missing (the message names the command that writes it) or is not a usable
        summary of ``name``.
    """
    figures = Path(figures) if figures is not None else figures_dir
    recover(figures / name)
    return read_summary(figures / name / "summary.json", name)


def load_table(name: str, filename: str, *, figures: Path | None = None):
    """A small table (CSV) that the experiment in folder ``name`` writes next to its summary.

    The summary marks a complete run, so it is loaded first (see :func:`load_summary`); the
    table is then read from the same directory.

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    figures = Path(figures) if figures is not None else figures_dir
    load_summary(name, figures=figures)
    path = figures / name / filename
    try:
        return pd.read_csv(path)
    except (OSError, ValueError) as error:  # missing, empty or unparsable
        raise SummaryError(f"{shown(path)} cannot be read as a table: {error}") from None


def summary_value(summary: dict, key: str):
    """The value at a dotted ``key`` of a summary (``"k_fit.a"``, ``"pearson_by_s.5"``)."""
    value = summary
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(f"summary has no key {key!r} (missing {part!r})")
        value = value[part]
    return value
