"""paper_checks' R records: R runs the blog tutorial's code where it is installed, and where it
is not (or fails) the records say so instead of failing to run."""

import stat

import numpy as np
import pytest

from paper_checks import tutorial, tutorial_r
from paper_checks.__main__ import run
from paper_checks.record import NOT_CHECKABLE, REPRODUCED
from paper_checks.registry import REGISTRY
from paper_checks.report import mismatches, run_records

R_RECORDS = [r for r in REGISTRY if r.requires == tutorial_r.RSCRIPT]


def test_the_four_tutorial_records_once_not_checkable_need_r():
    ids = {r.id for r in R_RECORDS}
    assert {
        "tutorial-pr-curves-mean-auc",
        "tutorial-proc-multiclass-auc",
        "tutorial-hand-till-iris-0991",
        "tutorial-hand-till-iris-0988",
    } <= ids
    assert all(r.verdict == REPRODUCED for r in R_RECORDS)


def test_without_r_the_records_are_not_checkable_with_the_reason(monkeypatch, tmp_path):
    monkeypatch.setattr(tutorial_r, "rscript", None)
    outcomes = run_records(R_RECORDS)
    assert {o.verdict for o in outcomes} == {NOT_CHECKABLE}
    for o in outcomes:
        assert "Rscript is not installed" in o.detail
        assert "r-cran-proc" in o.detail
        assert o.as_recorded
    assert not mismatches(outcomes)
    assert run(R_RECORDS, out=tmp_path) == 0
    assert "Rscript absent" in (tmp_path / "REPORT.md").read_text()


def test_an_rscript_that_cannot_start_counts_as_absent(tmp_path):
    missing = tmp_path / "no-such-Rscript"
    result = tutorial_r.run_tutorial("Rejection", str(missing))
    assert result.missing == tutorial_r.RSCRIPT
    assert "could not run" in result.reason


def test_a_failing_r_script_is_a_fault_not_an_absent_r(monkeypatch, tmp_path):
    fake = tmp_path / "Rscript"
    fake.write_text("#!/bin/sh\necho 'Error: something broke' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(tutorial_r, "rscript", str(fake))
    result = tutorial_r.tutorial_run()
    assert result.missing == ""
    assert "something broke" in result.reason
    assert "status 1" in result.reason
    outcomes = run_records(R_RECORDS)
    assert len(mismatches(outcomes)) == len(R_RECORDS)
    assert run(R_RECORDS, out=tmp_path / "out") == 1


def _pair_fraction(a_scores, b_scores):
    """P(b-score > a-score) + 1/2 P(tie) over every (a, b) pair, by brute force."""
    diff = np.subtract.outer(b_scores, a_scores)
    return (np.sum(diff > 0) + 0.5 * np.sum(diff == 0)) / diff.size


def test_pairwise_aucs_are_oriented_as_proc_orients_them():
    rng = np.random.default_rng(7)
    levels = np.repeat(np.array(["1", "3", "10"]), [9, 12, 7])
    score = np.round(rng.normal(size=levels.size) - (levels == "10"), 1)  # ties, one flip
    names, aucs = tutorial._proc_pair_aucs(levels, score)
    assert names == ["1/3", "1/10", "3/10"]  # gos6's numeric level order, not string order
    for name, auc in zip(names, aucs, strict=True):
        a, b = name.split("/")
        up = _pair_fraction(score[levels == a], score[levels == b])
        lower_b = np.median(score[levels == a]) > np.median(score[levels == b])
        assert auc == pytest.approx(1 - up if lower_b else up)
    assert tutorial._proc_direction(np.array([3.0, 4]), np.array([1.0, 2])) == ">"
    assert tutorial._proc_direction(np.array([1.0, 2]), np.array([1.0, 2])) == "<"
