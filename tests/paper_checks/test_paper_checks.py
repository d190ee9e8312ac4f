"""paper_checks: every record measures its recorded value and verdict; the runner and README agree.

Each record is its own test (its id is the test id): a change in cenmcc, in an experiment or in a
record that moves a measured value or flips a verdict fails here, by name.
"""

import json
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm

import cenmcc
from experiments import __main__ as experiments_main
from experiments.registry import EXPERIMENTS
from paper_checks import freshness, report, summaries
from paper_checks.__main__ import run
from paper_checks.iris import SPECIES, gaussian_naive_bayes, load_iris, random_splits
from paper_checks.record import (
    DIFFERS,
    NOT_CHECKABLE,
    REPRODUCED,
    UNMEASURED,
    Measured,
    NotCheckable,
    Published,
    Record,
    bound,
    evaluate,
    fill,
    half_unit,
    holds,
    printed,
    same_value,
    scientific,
)
from paper_checks.registry import REGISTRY, check_registry
from paper_checks.tutorial import _dollar, _r_not_equal

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("record", REGISTRY, ids=[r.id for r in REGISTRY])
def test_record_measures_its_value_and_verdict_in_results_json(record):
    """A fresh evaluation gives the verdict and (within RECORDED_RTOL/ATOL) the value that the
    committed results.json holds: the regression test of every claim."""
    if record.warns:
        with pytest.warns(cenmcc.UndefinedMetricWarning):
            outcome = evaluate(record)
    else:
        outcome = evaluate(record)  # any warning is an error here (filterwarnings = error)
    # Without the optional program a record requires (R), "not checkable" is expected.
    assert outcome.verdict == outcome.expected_verdict, outcome.detail
    if outcome.verdict == record.verdict:
        assert same_value(outcome.measured, record.measured), (outcome.measured, record.measured)
        # Every number the reason and note quote from the measurement, the measurement gives.
        assert UNMEASURED not in outcome.reason + outcome.note
    else:
        assert record.requires in outcome.detail


def test_reasons_and_notes_quote_the_facts_of_the_measurement():
    record = Record(
        id="plos2012-x",
        source="s",
        claim="c",
        published=printed("0.5"),
        compute=lambda: Measured(0.25, "d", {"r": 0.123456, "pairs": 1234567, "se": "7·10⁻⁵"}),
        verdict=DIFFERS,
        measured=0.25,
        reason="r = {r:.3f} over {pairs:,} pairs, SE {se}; {{braces}} stay",
        note="{r:.1f} and {missing:.2f}",
    )
    outcome = evaluate(record)
    assert outcome.reason == "r = 0.123 over 1,234,567 pairs, SE 7·10⁻⁵; {braces} stay"
    assert outcome.note == f"0.1 and {UNMEASURED}"
    assert fill("no fields {{here}}", {}) == "no fields {here}"
    assert scientific(0.000123456, 3) == "1.23·10⁻⁴"
    assert scientific(2.0e10) == "2.0·10¹⁰"


def test_registry_is_large_unique_and_covers_every_source():
    check_registry(REGISTRY)
    assert len(REGISTRY) > 40
    prefixes = {r.id.split("-")[0] for r in REGISTRY}
    assert prefixes == {
        "plos2012",
        "arxiv2010",
        "grandini2020",
        "tutorial",
        "mccpost",
        "gosgens2021",
    }
    assert {r.verdict for r in REGISTRY} == {REPRODUCED, DIFFERS, NOT_CHECKABLE}


def test_check_registry_rejects_duplicates_and_unknown_sources():
    with pytest.raises(ValueError, match="duplicated"):
        check_registry([REGISTRY[0], REGISTRY[0]])
    with pytest.raises(ValueError, match="must start with"):
        check_registry([_record(id="nature1999-x")])


def test_printed_tolerance_is_half_a_unit_of_the_last_digit():
    assert half_unit("0.408") == pytest.approx(0.0005)
    assert half_unit("1") == pytest.approx(0.5)
    p = printed("88.9%")
    assert p.value == pytest.approx(0.889)
    assert p.tolerance == pytest.approx(0.0005)
    assert printed("1").tolerance == printed("0").tolerance == 1e-12  # a bare integer is exact
    assert printed("1").why.startswith("an exact value")
    table = printed("0.5625000", "0.2")
    assert table.value == (0.5625, 0.2)
    assert table.tolerance == pytest.approx(0.05)


def test_relations():
    assert holds(0.4082, printed("0.408"), "=")
    assert not holds(0.6667, printed("0.66"), "=")
    assert holds((-1.0, -0.4), bound("[-1, 0]", (-1.0, 0.0)), "in")
    assert not holds((-1.0, 0.1), bound("[-1, 0]", (-1.0, 0.0)), "in")
    assert not holds(1.0, bound("< 1", 1.0), "<")
    assert holds(1.0 + 1e-13, bound("<= 1", 1.0), "<=")
    assert holds((0.0, 1.0), bound("[0, 1]", (0.0, 1.0)), "=")


def test_a_record_cannot_differ_without_a_reason():
    with pytest.raises(ValueError, match="reason"):
        _record(verdict=DIFFERS)
    with pytest.raises(ValueError, match="note"):
        _record(verdict=NOT_CHECKABLE)


def test_not_checkable_comes_from_the_check():
    record = _record(compute=lambda: NotCheckable("no data"), verdict=NOT_CHECKABLE, note="x")
    outcome = evaluate(record)
    assert (outcome.verdict, outcome.measured, outcome.detail) == (NOT_CHECKABLE, None, "no data")


def _record(**changes) -> Record:
    fields = {
        "id": "grandini2020-test",
        "source": "test",
        "claim": "1 + 1 = 2",
        "published": printed("2"),
        "compute": lambda: Measured(1 + 1),
        "verdict": REPRODUCED,
        "measured": 2.0,
    }
    fields.update(changes)
    return Record(**fields)


def test_runner_exits_1_and_names_a_record_whose_verdict_changed(tmp_path, capsys):
    right = _record()
    wrong = _record(id="grandini2020-wrong", compute=lambda: Measured(3.0), measured=3.0)
    assert run([right], out=tmp_path) == 0
    assert run([right, wrong], out=tmp_path) == 1
    assert "grandini2020-wrong: differs (expected: reproduced)" in capsys.readouterr().err
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["all_as_recorded"] is False
    assert [r["verdict"] for r in saved["records"]] == [REPRODUCED, DIFFERS]


def test_runner_reports_a_check_that_raises_and_keeps_going(tmp_path):
    def broken():
        raise ZeroDivisionError("oops")

    assert run([_record(id="grandini2020-broken", compute=broken), _record()], out=tmp_path) == 1
    text = (tmp_path / "REPORT.md").read_text()
    assert "ZeroDivisionError: oops" in text
    assert "2 claims: 1 reproduced, 0 differ, 0 not checkable, 1 failed to run" in text


def test_report_has_the_counts_and_one_row_per_record(tmp_path):
    records = REGISTRY[:3] + tuple(r for r in REGISTRY if r.warns)[:1]
    assert run(records, out=tmp_path) == 0
    text = (tmp_path / "REPORT.md").read_text()
    assert f"**{len(records)} claims: " in text
    for r in records:
        assert f"| `{r.id}` |" in text
    assert "Warned: UndefinedMetricWarning" in text  # the warning is reported, not hidden
    saved = json.loads((tmp_path / "results.json").read_text())
    assert [r["id"] for r in saved["records"]] == [r.id for r in records]


def test_readme_report_results_and_registry_agree():
    """The committed README section, REPORT.md and results.json come from one run of the
    registry as it is (rerun `python -m paper_checks` after changing a declaration)."""
    data = json.loads(report.RESULTS.read_text())
    assert [r["id"] for r in data["records"]] == [r.id for r in REGISTRY]
    outcomes = report.outcomes_from_results(data, REGISTRY)
    assert report.REPORT.read_text() == report.render_report(outcomes)
    assert report.results_text(outcomes) == report.RESULTS.read_text()
    current = report.readme_current((ROOT / "README.md").read_text())
    assert current == report.readme_section(outcomes), "run `python -m paper_checks`"
    assert report.GALLERY.read_text() == report.gallery_page(), "run `python -m paper_checks`"


def test_the_readme_section_is_replaced_alone_and_shows_the_run(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{report.README_START}\nold\n{report.README_END}\noutro\n")
    outcomes = [evaluate(r) for r in REGISTRY[:2]]
    drifted = replace(outcomes[0], measured=(-3.3e-16, 1.0))
    text = report.readme_text([drifted, outcomes[1]], readme)
    assert text.startswith("intro\n")
    assert text.endswith("\noutro\n")
    assert "| (-3.3e-16, 1) |" in report.readme_current(text)  # measured now, not as recorded


def test_a_missing_summary_is_named_with_its_command_and_never_run(tmp_path):
    with pytest.raises(summaries.SummaryError, match="does not exist") as caught:
        summaries.load_summary("binary", figures=tmp_path)
    assert f"`python -m experiments binary --out {tmp_path}`" in str(caught.value)
    assert list(tmp_path.iterdir()) == []
    missing = summaries.missing_experiments(tmp_path)
    assert [e.command for e in missing] == [e.command for e in EXPERIMENTS if e.summary_keys]
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "summary.json").write_text('{"k_fit": {"a": 1.5}}')
    summary = summaries.load_summary("demo", figures=tmp_path)
    assert summaries.summary_value(summary, "k_fit.a") == 1.5
    with pytest.raises(KeyError, match=r"k_fit\.b"):
        summaries.summary_value(summary, "k_fit.b")


def test_run_all_runs_the_checks_last_in_their_own_interpreter(monkeypatch, capsys):
    monkeypatch.setattr(experiments_main, "EXPERIMENTS", ())
    checks = (sys.executable, "-c", "import sys; print(sys.argv[1:]); sys.exit(1)")
    monkeypatch.setattr(experiments_main, "CHECKS", checks)
    parser = experiments_main.build_parser()
    args = parser.parse_args(["all", "--quiet"])
    assert experiments_main.run_all(parser, args) == 1  # the checks' status is returned
    assert "REPORT.md" in capsys.readouterr().out


def test_all_passes_its_options_to_the_experiments_that_take_them(tmp_path):
    parser = experiments_main.build_parser()
    args = parser.parse_args(["all", "--seed", "3", "--jobs", "1", "--out", str(tmp_path)])
    steps = experiments_main.planned_steps(parser, args)
    assert [argv for _, argv in steps] == [
        ["random-matrices", "--seed", "3", "--jobs", "1", "--out", str(tmp_path)],
        ["protocol", "--seed", "3", "--jobs", "1", "--out", str(tmp_path)],
        ["discriminancy", "--jobs", "1", "--out", str(tmp_path)],
        ["binary", "--out", str(tmp_path)],
        ["families", "--out", str(tmp_path)],
        ["agreement", "--seed", "3", "--jobs", "1", "--out", str(tmp_path)],
    ]
    defaults = experiments_main.planned_steps(parser, parser.parse_args(["all"]))
    assert [argv for _, argv in defaults] == [[e.command] for e in EXPERIMENTS if e.in_all]


def test_experiments_never_import_paper_checks():
    for path in (ROOT / "experiments").rglob("*.py"):
        assert "import paper_checks" not in path.read_text(), path
        assert "from paper_checks" not in path.read_text(), path


def test_r_semantics_behind_the_tutorial_micro_f1():
    cm = {"positive": "A", "table": None}
    assert _dollar(cm, "positive") == "A"
    assert _dollar(cm, "posit") == "A"  # a unique prefix matches partially, as in R
    assert _dollar(cm, "positie") is None  # the tutorial's typo matches nothing: NULL
    assert _r_not_equal(np.array(["A", "B"]), None).size == 0  # logical(0): no row selected


def test_the_checks_run_silently_outside_pytest():
    """The runner itself catches the warnings it reports (none leak to the console)."""
    record = next(r for r in REGISTRY if r.warns)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        outcome = report.run_record(record)
    assert outcome.warnings
    assert outcome.as_recorded


def test_shipped_iris_is_scikit_learns():
    from sklearn.datasets import load_iris as sklearn_iris

    X, y = load_iris()
    reference = sklearn_iris()
    np.testing.assert_array_equal(X, reference.data)
    np.testing.assert_array_equal(y, reference.target)
    assert tuple(reference.target_names) == SPECIES


def test_gaussian_naive_bayes_against_a_literal_product_of_normal_densities():
    X, y = load_iris()
    train, test = next(random_splits(0, 1))
    posterior = gaussian_naive_bayes(X[train], y[train], X[test], 3)
    for row, x in zip(posterior, X[test], strict=True):
        joint = []
        for k in range(3):
            members = X[train][y[train] == k]
            density = norm.pdf(x, members.mean(axis=0), members.std(axis=0, ddof=1)).prod()
            joint.append(density * len(members) / len(train))
        np.testing.assert_allclose(row, np.array(joint) / sum(joint), rtol=1e-9, atol=1e-300)


def test_hand_till_auc_on_the_iris_reconstruction_is_scikit_learns_one_vs_one_auc():
    from sklearn.metrics import roc_auc_score

    X, y = load_iris()
    for train, test in random_splits(1, 20):
        posterior = gaussian_naive_bayes(X[train], y[train], X[test], 3)
        ours = cenmcc.hand_till_auc(y[test], posterior, labels=np.arange(3))
        assert ours == pytest.approx(roc_auc_score(y[test], posterior, multi_class="ovo"))


def test_a_tolerance_per_element():
    published = Published("(1, 2)", (1.0, 2.0), (0.1, 0.001), "test")
    assert holds((1.05, 2.0005), published, "=")
    assert not holds((1.05, 2.005), published, "=")  # the second element has its own tolerance
    assert holds((0.0, 1.0), published, "<=")
    with pytest.raises(ValueError, match="differ in size"):
        holds((1.0, 2.0, 3.0), published, "=")
    with pytest.raises(ValueError, match="per element"):
        holds((1.0, 2.0), published, "<")


def test_load_table_reads_beside_the_summary_of_the_given_directory(tmp_path):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "summary.json").write_text("{}")
    (tmp_path / "demo" / "t.csv").write_text("K,mean\n3,1.5\n")
    table = summaries.load_table("demo", "t.csv", figures=tmp_path)
    assert table.to_dict("list") == {"K": [3], "mean": [1.5]}


def test_freshness_is_the_comparison_of_a_rerun_with_its_tolerance(tmp_path):
    committed, fresh = tmp_path / "committed", tmp_path / "fresh"
    summary = {"r": 0.5, "n": 10**10, "symbolic": "sympy 1.12", "cases": [{"P": 3}]}
    for root, changes in ((committed, {}), (fresh, {"r": 0.5000000001, "symbolic": "sympy 1.13"})):
        (root / "exp").mkdir(parents=True)
        (root / "exp" / "summary.json").write_text(json.dumps(summary | changes))
        (root / "exp" / "t.csv").write_text(
            "s,r\n5,0.25\n" if root == committed else "s,r\n5,0.2500000001\n"
        )
        (root / "exp" / "figure.png").write_bytes(root.name.encode())  # another matplotlib
    assert freshness.compare_outputs(committed, fresh) == []
    (fresh / "exp" / "summary.json").write_text(
        json.dumps(summary | {"n": 10**10 + 1, "cases": [{"P": 4}], "new": 1})
    )
    assert freshness.compare_outputs(committed, fresh) == [
        "exp/figure.png: a figure drawn from numbers that differ",
        "exp/summary.json: .new: only in one of them",
        "exp/summary.json: .cases[0].P: 3 committed, 4 now",
        "exp/summary.json: .n: 10000000000 committed, 10000000001 now",
    ]


def test_freshness_reports_missing_extra_and_changed_files(tmp_path):
    committed, fresh = tmp_path / "committed", tmp_path / "fresh"
    for root in (committed, fresh):
        (root / "exp").mkdir(parents=True)
        (root / "exp" / "summary.json").write_text('{"r": 0.5, "symbolic": "sympy 1.12"}')
        (root / "exp" / "t.csv").write_text("s,r\n5,0.25\n")
        (root / "exp" / "big_table.csv.gz").write_bytes(b"untracked")
    (committed / "exp" / "big_table.csv.gz").unlink()  # untracked files are left aside
    assert freshness.compare_outputs(committed, fresh) == []
    (fresh / "exp" / "figure.png").write_bytes(b"png")
    (committed / "exp" / "old.png").write_bytes(b"png")
    (fresh / "exp" / "t.csv").write_text("s,r\n5,0.26\n")
    (fresh / "exp" / "summary.json").write_text('{"r": 0.6, "symbolic": "sympy 1.13"}')
    assert freshness.compare_outputs(committed, fresh) == [
        "exp/figure.png: not committed",
        "exp/old.png: committed, but the experiments no longer write it",
        "exp/summary.json: .r: 0.5 committed, 0.6 now",
        "exp/t.csv: line 2: 0.25 committed, 0.26 now",
    ]


def test_the_gallery_shows_every_committed_figure_under_its_command():
    # Every figure of an experiment; the benchmark's are in the README's performance section,
    # the report's (tests/test_readme.py writes it) in its first section.
    committed = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "figures").glob("*/*.png")
        if p.parent.name not in ("benchmark", "report")
    }
    declared = {(e.command, e.folder, f) for e in EXPERIMENTS for f in e.figures}
    assert committed == {f"figures/{folder}/{f.file}" for _, folder, f in declared}
    page, run = report.gallery_page(), "python -m experiments"
    for command, folder, figure in declared:
        # its section: the title, the command that writes it, the image
        assert (
            f"## {figure.title}\n\n`python -m experiments {command}`: {figure.caption}\n\n"
            f"![{figure.title}]({folder}/{figure.file})"
        ) in page
        row = next(line for line in page.splitlines() if line.startswith(f"| `{run} {command}`"))
        assert f"[{figure.title}](#{report._anchor(figure.title)})" in row
        assert (report.GALLERY.parent / folder / figure.file).is_file()
    assert "](figures/README.md)" in "\n".join(report.gallery_section())


def test_gallery_anchors_are_githubs():
    assert report._anchor("Figure 3: CEN and MCC of [[T, F], [F, T]]") == (
        "figure-3-cen-and-mcc-of-t-f-f-t"
    )
    assert report._anchor("The constant k of Eq. (3) per number of classes") == (
        "the-constant-k-of-eq-3-per-number-of-classes"
    )


def test_report_shows_each_tolerance_and_why(tmp_path):
    strict = _record(id="grandini2020-strict", published=bound("> 1", 1.0), relation=">")
    assert run([_record(), strict], out=tmp_path) == 0
    text = (tmp_path / "REPORT.md").read_text()
    assert "| = ±1.0e-12: an exact value (printed without decimals) |" in text
    assert "| > (strict, no tolerance) |" in text


def test_a_transposed_matrix_fails_the_exact_fig9_recall():
    from paper_checks.grandini import RECORDS
    from paper_checks.sources import FIG9

    record = next(r for r in RECORDS if r.id == "grandini2020-fig9-recall")
    assert evaluate(record).verdict == REPRODUCED
    with pytest.warns(cenmcc.UndefinedMetricWarning):  # the transpose's second class is empty
        recall_of_transpose = cenmcc.recall(FIG9.C.T)[0]
    transposed = replace(record, compute=lambda: Measured(recall_of_transpose))
    assert evaluate(transposed).verdict == DIFFERS


def test_checks_without_test_power_are_labelled_in_the_report(tmp_path):
    weak = _record(id="grandini2020-definition", kind="definition")
    assert run([_record(), weak], out=tmp_path) == 0
    text = (tmp_path / "REPORT.md").read_text()
    assert "| reproduced (definition) |" in text
    assert "Of the reproduced, 1 have no test power" in text
    assert report.weak_line([_record()]) == ""
    with pytest.raises(ValueError, match="kind must be one of"):
        _record(kind="theorem")


def test_a_gap_that_is_rounding_is_reported_as_its_bound_the_same_on_every_processor():
    from paper_checks import tutorial

    # Two processors' gaps between the rebuilt and R's iris posteriors (measured: 5.1e-14, 2e-14).
    assert tutorial._rounding_gap(5.1e-14) == tutorial._rounding_gap(2e-14) == "less than 1e-12"
    assert tutorial._rounding_gap(3e-6) == "at most 3.0e-06"
