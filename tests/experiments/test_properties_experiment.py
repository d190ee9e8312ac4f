"""The properties experiment: every named measure audited, the table of marks."""

from __future__ import annotations

import json

import cenmcc
from experiments.properties import compute, plots


def test_every_measure_is_audited_and_the_table_shows_marks_and_counterexamples():
    table = compute.run(classes=(2,), n_random=200, n_items=4)
    assert set(table["measure"]) == set(cenmcc.MEASURES)
    assert set(table["domain"]) == {"all", "present"}
    accuracy = table[(table["measure"] == "accuracy") & (table["domain"] == "all")]
    baseline = accuracy[accuracy["property"] == "constant_baseline"].iloc[0]
    assert baseline["holds"] is False or baseline["holds"] == False  # noqa: E712
    assert json.loads(baseline["counterexample"])["expected"] == [1.0, 0.0]
    text = plots.markdown(table)
    assert "| accuracy | 2 | all |" in text
    assert "✓" in text
    assert "✗" in text
    summary = compute.summarize(table)
    assert summary["holds"]["mcc|2|present"]["symmetry"] is True
