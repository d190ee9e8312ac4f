"""Whether the committed experiment outputs are the ones a fresh run writes.

The README shows the figures and the registry reads the summaries committed under ``figures/``;
:func:`compare_outputs` compares them with the outputs of a fresh ``python -m experiments``
run, so stale committed outputs are caught. Per experiment directory, the same files (the bulky
per-matrix tables that git ignores left aside), each equal by the one comparison of a rerun
with committed results that ``python -m experiments all`` makes too
(:func:`experiments.rerun.compare`): numbers within its stated tolerance
(:data:`~experiments.rerun.RTOL`, :data:`~experiments.rerun.ATOL`), so that a rerun on another
machine, whose last bits may differ, is not reported as stale; figures equal where the numbers
they are drawn from are.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from experiments.registry import EXPERIMENTS
from experiments.rerun import compare

#: Files the experiments write but git ignores (see .gitignore): never committed.
UNTRACKED = ("*_table.csv", "*_table.csv.gz", "*.npz", "timing.json")
#: Directories under figures/ that ``python -m experiments all`` does not write: those of the
#: commands it leaves out (the benchmark's timings of the machine they ran on; the coverage
#: and property audits, minutes each), and the standard-error validations (``python -m
#: cenmcc.simulation validate``, 60 runs each, ``*-validation``), which are rerun by hand; and
#: the README's report figure, drawn by tests/test_readme.py from the README's example.
NOT_RESULTS = (*(e.folder for e in EXPERIMENTS if not e.in_all), "report")
VALIDATIONS = "*-validation"


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
    both = {n: ((committed / n).read_bytes(), (fresh / n).read_bytes()) for n in ours & theirs}
    return out + compare(both).lines()
