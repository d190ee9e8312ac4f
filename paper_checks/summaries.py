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

from experiments.paths import FIGURES

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


def load_summary(
    name: str,
    command: str,
    *,
    figures: Path | None = None,
    run: Callable[[str, Path], None] = run_experiment,
) -> dict:
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
    dict
        The parsed ``summary.json``.
    """
    figures = Path(figures) if figures is not None else figures_dir
    path = figures / name / "summary.json"
    if not path.exists():
        run(command, figures)
        if not path.exists():
            raise RuntimeError(f"`python -m experiments {command}` did not write {path}")
    return json.loads(path.read_text())


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
    return pd.read_csv(figures / name / filename)


def summary_value(summary: dict, key: str):
    """The value at a dotted ``key`` of a summary (``"k_fit.a"``, ``"pearson_by_s.5"``)."""
    value = summary
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(f"summary has no key {key!r} (missing {part!r})")
        value = value[part]
    return value
