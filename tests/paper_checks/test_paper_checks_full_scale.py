"""The paper checks at full scale: every experiment rerun from scratch, every record against it.

One run of each command of ``python -m experiments all`` at its defaults (the papers' scale),
each in its own interpreter as a user would type it, writes into a temporary figures directory
(about a minute on a shared 2-core machine). Then:

- every record of the registry, reading the fresh summaries, measures its recorded value and
  verdict (the per-record tests in test_paper_checks.py read the committed ones);
- the committed outputs under ``figures/`` are the fresh ones (paper_checks.freshness: every
  value but the timings), so a stale committed summary, table or figure list fails here;
- the figure gallery (figures/README.md) lists exactly the figures the experiments write, each
  under the command that writes it.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from experiments.paths import FIGURES
from experiments.registry import EXPERIMENTS
from paper_checks import freshness, report, summaries
from paper_checks.registry import REGISTRY

#: reruns every experiment at the papers' scale (minutes)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """Run every command ``all`` runs into one new directory; the files each command wrote."""
    out = tmp_path_factory.mktemp("figures")
    written = {}
    for command in (e.command for e in EXPERIMENTS if e.in_all):
        before = freshness.output_files(out)
        subprocess.run(
            [sys.executable, "-m", "experiments", command, "--out", str(out), "--quiet"],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        written[command] = freshness.output_files(out) - before
    return out, written


def test_every_experiment_writes_its_summary(fresh):
    _, written = fresh
    for command, files in written.items():
        assert any(f.endswith("/summary.json") for f in files), (command, sorted(files))


def test_every_record_measures_its_recorded_value_on_a_fresh_run(fresh, monkeypatch):
    out, _ = fresh
    monkeypatch.setattr(summaries, "figures_dir", out)
    outcomes = report.run_records(REGISTRY)
    changed = [
        f"{o.record.id}: {o.verdict} {o.measured!r} (recorded {o.record.verdict} "
        f"{o.record.measured!r}) {o.detail}"
        for o in outcomes
        if not o.as_recorded
    ]
    assert not changed, "\n".join(changed)


def test_committed_outputs_are_those_of_a_fresh_run(fresh):
    out, _ = fresh
    stale = freshness.compare_outputs(FIGURES, out)
    assert not stale, "rerun `python -m experiments all` and commit figures/:\n" + "\n".join(
        stale[:50]
    )


def test_the_readme_gallery_shows_every_figure_under_the_command_that_makes_it(fresh):
    _, written = fresh
    made = {
        (command, f"figures/{name}")
        for command, files in written.items()
        for name in files
        if name.endswith(".png")
    }
    assert made == {  # the figures of the commands that `all` runs (the coverage's is not)
        (e.command, f"figures/{e.folder}/{f.file}")
        for e in EXPERIMENTS
        if e.in_all
        for f in e.figures
    }
