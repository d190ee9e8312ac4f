"""Experiment summaries for the records that an experiment backs.

An experiment writes ``<figures>/<name>/summary.json``. :func:`load_summary` reads it and, when it
is missing, first runs the experiment with its defaults (the papers' settings), exactly as
``python -m experiments <command> --out <figures>`` would. Data flows one way: paper_checks
imports experiments, never the reverse.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from experiments.paths import FIGURES, REPO_ROOT

#: Where summaries are read (``python -m paper_checks --figures DIR`` changes it).
figures_dir: Path = FIGURES


def run_experiment(command: str, figures: Path) -> None:
    """Run ``python -m experiments <command> --out <figures>`` in this process.

    Raises
    ------
    LookupError
        If the experiment is not registered in ``experiments.__main__.COMMANDS``.
    RuntimeError
        If the experiment exits with a non-zero status.
    """
    from experiments.__main__ import COMMANDS, main

    if command not in COMMANDS:
        raise LookupError(f"experiment {command!r} is not available (not in experiments.COMMANDS)")
    status = main([command, "--out", str(figures)])
    if status:
        raise RuntimeError(f"`python -m experiments {command}` exited with status {status}")


class SummaryError(ValueError):
    """An experiment's summary that cannot be used: missing, not JSON, or not the expected one.

    The message names the file and what is wrong with it; :func:`paper_checks.report.run_record`
    turns it into a "not checkable" outcome of each record that reads the file.
    """


#: Top-level keys that identify each experiment's summary (a few each; every record's own key
#: is checked where it is read, see :class:`Summary`).
SIGNATURES = {
    "random_matrices": ("n_matrices", "pearson_cen_mcc", "pearson_tmcc_kcen", "k_fit"),
    "discriminancy": ("paper_case", "cases", "sweep"),
    "binary": ("pearson_by_s", "share_cen_above_1", "figure3"),
    "families": ("formulas", "examples", "box1c_search"),
}


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
    """Parse the summary at ``path``, checking it is a JSON object (of experiment ``name``).

    Raises
    ------
    SummaryError
        If the file is missing or unreadable, is not valid JSON (a truncated write), is not a
        JSON object, or lacks the keys of :data:`SIGNATURES` ``[name]`` (another experiment's
        summary, or an older layout); the message names the file.
    """
    path = shown(path)
    try:
        text = (REPO_ROOT / path).read_text()
    except FileNotFoundError:
        raise SummaryError(f"{path} does not exist") from None
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
    expected = SIGNATURES.get(name, ())
    missing = [k for k in expected if k not in data]
    if missing:
        like = [other for other, keys in SIGNATURES.items() if set(keys) <= set(data)]
        guess = (
            f"it looks like the {like[0]} experiment's summary"
            if like
            else "another experiment's summary, or an older layout"
        )
        raise SummaryError(f"{path} is not a {name} summary: it lacks {missing} ({guess})")
    return Summary(data, path)


def load_summary(
    name: str,
    command: str,
    *,
    figures: Path | None = None,
    run: Callable[[str, Path], None] = run_experiment,
) -> Summary:
    """The summary of experiment ``name``, running ``command`` first if it is missing.

    Parameters
    ----------
    name : str
        Output directory of the experiment under ``figures`` (e.g. ``"random_matrices"``).
    command : str
        Its ``python -m experiments`` command (e.g. ``"random-matrices"``).
    figures : Path, optional
        The figures directory; default :data:`figures_dir`.
    run : callable, optional
        ``run(command, figures)`` runs the experiment; default :func:`run_experiment`.

    Returns
    -------
    Summary
        The parsed ``summary.json`` (see :func:`read_summary`).

    Raises
    ------
    SummaryError
        If the experiment does not write it, or it is not a usable summary of ``name``.
    """
    figures = Path(figures) if figures is not None else figures_dir
    path = figures / name / "summary.json"
    if not path.exists():
        run(command, figures)
        if not path.exists():
            raise SummaryError(f"`python -m experiments {command}` did not write {shown(path)}")
    return read_summary(path, name)


def load_table(name: str, command: str, filename: str, *, figures: Path | None = None):
    """A small table (CSV) that experiment ``name`` writes next to its summary.

    The summary marks a complete run, so it is loaded first (running ``command`` if it is
    missing, see :func:`load_summary`); the table is then read from the same directory.

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    figures = Path(figures) if figures is not None else figures_dir
    load_summary(name, command, figures=figures)
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
