"""``python -m experiments families``: the summary, its verdicts, the proofs and the figures.

The CLI runs once (with the sympy proofs) into a temporary directory; the tests read what it
wrote. The expected verdicts are the ones derived by hand in cenmcc.families' docstrings.
"""

import json

import pytest

from experiments.__main__ import main
from experiments.families.settings import FIGURES, FORMULAS
from experiments.registry import BY_COMMAND

#: its fixture runs the families experiment with its proofs
pytestmark = pytest.mark.slow

#: Formula ids are referenced by paper_checks: they must stay stable.
IDS = {
    "zA-acc",
    "zA-acc-decreasing",
    "zA-acc-limit",
    "zA-mcc-preprint",
    "zA-mcc-journal",
    "zA-mcc-decreasing",
    "zA-mcc-limit-preprint",
    "zA-mcc-limit-journal",
    "zA-cen",
    "zA-cen-decreasing",
    "zA-cen-limit",
    "dice-cen",
    "dice-cen-decreasing",
    "dice-cen-limit-preprint",
    "dice-cen-limit-journal",
    "dice-limit-increasing",
    "dice-limit-asymptote",
    "dice-mcc-zero",
    "const-mcc-zero",
    "const-cen",
    "misclass-cen-one",
    "pair-mcc-minus-one",
    "onecol-mcc-zero",
    "onecol-cen-varies",
    "onecol-cen-uniform",
    "b-mcc",
    "b-cen",
    "b-identity",
    "eq3-line1-preprint",
    "eq3-line1-journal",
    "binary-mcc",
    "binary-cen",
    "binary-sym-cen",
    "binary-sym-cen-gt1",
    "binary-sym-cen-max-at-t0",
    "binary-sym-cen-max",
}

#: The printed claims that do not hold, each with the corrected form that does.
NOT_HOLDING = {
    "zA-mcc-preprint": "zA-mcc-journal",
    "zA-mcc-limit-preprint": "zA-mcc-limit-journal",
    "dice-cen-limit-preprint": "dice-cen-limit-journal",
    "eq3-line1-preprint": "eq3-line1-journal",
    "binary-sym-cen-max-at-t0": "binary-sym-cen-max",
}

#: Claims about orderings or counts, checked numerically only.
NUMERIC_ONLY = {
    "zA-cen-decreasing",
    "dice-cen-decreasing",
    "dice-limit-increasing",
    "onecol-cen-varies",
}


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    out = tmp_path_factory.mktemp("families")
    assert main(["families", "--out", str(out), "--quiet"]) == 0
    directory = out / "families"
    data = json.loads((directory / "summary.json").read_text())
    data["_directory"] = directory
    return data


@pytest.fixture(scope="module")
def formulas(summary):
    return {f["id"]: f for f in summary["formulas"]}


def test_registered_in_the_cli_and_in_all():
    assert BY_COMMAND["families"].module == "experiments.families.command"
    assert BY_COMMAND["families"].in_all


def test_ids_are_stable_unique_and_all_reported(formulas):
    assert len({f.id for f in FORMULAS}) == len(FORMULAS)
    assert set(formulas) == IDS


def test_summary_schema(formulas):
    for record in formulas.values():
        assert {"id", "source", "max_abs_error", "holds", "proven_symbolically"} <= set(record)
        assert record["source"].startswith(("preprint", "journal", "derived"))


def test_verdicts(formulas):
    assert {k for k, f in formulas.items() if not f["holds"]} == set(NOT_HOLDING)
    for formula_id, correction in NOT_HOLDING.items():
        assert formulas[formula_id]["correction"] == correction
        assert formulas[formula_id]["counterexample"] is not None
        assert formulas[correction]["holds"]


def test_smallest_counterexamples(formulas):
    za = formulas["zA-mcc-preprint"]["counterexample"]
    assert (za["N"], za["A"]) == (3, 2)
    assert za["measured"] == pytest.approx(-1 / 22)
    binary = formulas["binary-sym-cen-max-at-t0"]["counterexample"]
    assert (binary["T"], binary["F"]) == (1, 2)
    eq3 = formulas["eq3-line1-preprint"]["counterexample"]
    assert eq3["N"] == 3
    assert eq3["abs_error"] == pytest.approx(1 / 3)


def test_tolerances_are_not_vacuous(formulas):
    # Identities that hold agree with the metrics to float precision (the loosest is the MCC at
    # A = 10^9, where s^2 - sum p^2 cancels 8 digits).
    for formula_id in (
        "zA-acc",
        "zA-cen",
        "dice-cen",
        "const-cen",
        "b-cen",
        "b-identity",
        "binary-cen",
    ):
        assert formulas[formula_id]["max_abs_error"] < 1e-13
    assert formulas["zA-mcc-journal"]["max_abs_error"] < 1e-8
    for formula_id in NOT_HOLDING:
        assert formulas[formula_id]["max_abs_error"] > 0.05


def test_symbolic_proofs(formulas):
    for formula_id, record in formulas.items():
        if formula_id in NOT_HOLDING:
            assert record["proven_symbolically"] is False
            assert record["disproven_symbolically"] is True, formula_id
        elif formula_id in NUMERIC_ONLY:
            assert record["proven_symbolically"] is None
        else:
            assert record["proven_symbolically"] is True, formula_id


def test_exact_rational_checks(formulas):
    assert formulas["zA-mcc-journal"]["exact_check"].startswith("exact rational check: holds")
    assert formulas["binary-mcc"]["exact_check"].startswith("exact rational check: holds")
    assert "equal on 28 of" in formulas["zA-mcc-preprint"]["exact_check"]  # A = 1 only


def test_figure1_examples(summary):
    boxes = {row["box"]: row for row in summary["examples"]}
    # Box 1(c): the text prints MCC = 0 and CEN ≈ 0.337 (journal, "Relationships between CEN
    # and MCC"); a constant single column gives exactly that.
    assert boxes["1(c)"]["MCC"] == 0.0
    assert round(boxes["1(c)"]["CEN"], 3) == 0.337
    assert boxes["1(b)"]["CEN"] == pytest.approx(1.0)
    assert boxes["1(a)"]["MCC"] == 1.0
    assert {"3 (A = 10)", "3 (A = 100)", "3 (A = 1000)", "1(d)", "4"} <= set(boxes)
    search = summary["box1c_search"]
    assert search["smallest"]["column"] == [1, 1, 1, 1]


def test_outputs_written(summary):
    directory = summary["_directory"]
    for name in (*FIGURES,):
        assert (directory / f"{name}.png").stat().st_size > 10_000
        assert (directory / f"{name}.pdf").read_bytes().startswith(b"%PDF")
    for name in ("formulas.csv", "formulas.md", "examples.csv"):
        assert (directory / name).exists()
    assert not (directory / "checks_table.csv.gz").exists()  # only with --table
