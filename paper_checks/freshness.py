"""Whether the committed experiment outputs are the ones a fresh run writes.

The README shows the figures and the registry reads the summaries committed under ``figures/``;
:func:`compare_outputs` compares them with the outputs of a fresh ``python -m experiments``
run, so stale committed outputs are caught. Per experiment directory:

- the same files (the bulky per-matrix tables that git ignores left aside);
- ``summary.json`` equal value by value, except the keys of :data:`VOLATILE`;
- the small tables (``.csv``) and their Markdown renderings (``.md``) equal as text, numbers
  compared as numbers;
- figures (``.png``, ``.pdf``) present, not compared: their bytes depend on the matplotlib and
  font versions, not only on the results.

Integers must be equal; other numbers equal within the registry's regression tolerance
(:data:`~paper_checks.record.RECORDED_RTOL`, :data:`~paper_checks.record.RECORDED_ATOL`), so a
rerun on another machine, whose last bits may differ, is not reported as stale.
"""

from __future__ import annotations

import fnmatch
import json
import math
import re
from pathlib import Path

from experiments.registry import EXPERIMENTS

from .record import RECORDED_ATOL, RECORDED_RTOL

#: Top-level summary keys left out of the comparison, and why: they change from machine to
#: machine while every result stays the same (timings are not in the summaries: they go to
#: timing.json, which git ignores).
VOLATILE = {
    "symbolic": "the sympy version that ran the proofs (families); each proof's outcome is "
    "compared, under formulas",
}

#: Files the experiments write but git ignores (see .gitignore): never committed.
UNTRACKED = ("*_table.csv", "*_table.csv.gz", "*.npz", "timing.json")
#: Directories under figures/ that ``python -m experiments all`` does not write: those of the
#: commands it leaves out (the benchmark's timings of the machine they ran on; the coverage
#: and property audits, minutes each), and the standard-error validations (``python -m
#: cenmcc.simulation validate``, 60 runs each, ``*-validation``), which are rerun by hand.
NOT_RESULTS = tuple(e.folder for e in EXPERIMENTS if not e.in_all)
VALIDATIONS = "*-validation"
#: Files compared as text (numbers as numbers).
TEXT = (".csv", ".md")

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\bnan\b|\binf\b", re.I)


def output_files(directory: Path) -> set[str]:
    """Relative paths of the outputs under ``directory`` (``experiment/file``), untracked aside."""
    directory = Path(directory)
    return {
        p.relative_to(directory).as_posix()
        for p in directory.glob("*/*")
        if p.is_file()
        and p.parent.name not in NOT_RESULTS
        and not fnmatch.fnmatch(p.parent.name, VALIDATIONS)
        and not any(fnmatch.fnmatch(p.name, u) for u in UNTRACKED)
    }


def _same_number(a: str, b: str) -> bool:
    if re.fullmatch(r"[-+]?\d+", a) and re.fullmatch(r"[-+]?\d+", b):
        return int(a) == int(b)
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=RECORDED_RTOL, abs_tol=RECORDED_ATOL)


def same_text(a: str, b: str) -> bool:
    """Equal text, where the numbers in it are compared as numbers (see the module docstring)."""
    numbers_a, numbers_b = _NUMBER.findall(a), _NUMBER.findall(b)
    return (
        _NUMBER.split(a) == _NUMBER.split(b)
        and len(numbers_a) == len(numbers_b)
        and all(_same_number(x, y) for x, y in zip(numbers_a, numbers_b, strict=True))
    )


def compare_values(a, b, where: str = "") -> list[str]:
    """Where two parsed JSON values differ (integers exactly, floats within tolerance)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{where}.{k}: only in one of them" for k in sorted(set(a) ^ set(b))]
        for key in sorted(set(a) & set(b)):
            out += compare_values(a[key], b[key], f"{where}.{key}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items against {len(b)}"]
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in compare_values(x, y, f"{where}[{i}]")
        ]
    numbers = (int, float)
    if (
        isinstance(a, numbers)
        and isinstance(b, numbers)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
    ):
        same = _same_number(json.dumps(a), json.dumps(b))
    elif isinstance(a, str) and isinstance(b, str):
        same = same_text(a, b)
    else:
        same = a == b
    return [] if same else [f"{where}: {a!r} against {b!r}"]


def compare_summaries(committed: dict, fresh: dict) -> list[str]:
    """Where two summaries differ, the keys of :data:`VOLATILE` left out."""
    keep = [{k: v for k, v in s.items() if k not in VOLATILE} for s in (committed, fresh)]
    return compare_values(*keep)


def compare_outputs(committed: Path, fresh: Path) -> list[str]:
    """Every difference between committed outputs and a fresh run's, one line each.

    Parameters
    ----------
    committed, fresh : Path
        Two figures directories (``figures/`` and a fresh ``--out``).

    Returns
    -------
    list of str
        Empty when the committed outputs are the fresh ones.
    """
    committed, fresh = Path(committed), Path(fresh)
    ours, theirs = output_files(committed), output_files(fresh)
    out = [f"{name}: not committed" for name in sorted(theirs - ours)]
    out += [
        f"{name}: committed, but the experiments no longer write it"
        for name in sorted(ours - theirs)
    ]
    for name in sorted(ours & theirs):
        a, b = committed / name, fresh / name
        if a.name == "summary.json":
            found = compare_summaries(json.loads(a.read_text()), json.loads(b.read_text()))
            out += [f"{name}{d}" for d in found]
        elif a.suffix in TEXT and not same_text(a.read_text(), b.read_text()):
            out.append(f"{name}: the text differs")
    return out
