"""``python -m cenmcc report``: a CSV of labels and predictions in, the report's files out,
staged and marked; what it may not replace refused before the work; bad columns named."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import cenmcc
from cenmcc.commands import report as command
from cenmcc.runtime.staging import MARKER

WRITES = ["comparisons.csv", "per_class.csv", "report.html", "report.md", "report.png"]
WRITES.append("scores.csv")


@pytest.fixture
def predictions(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.choice(["cat", "dog", "owl"], 90)
    table = pd.DataFrame(
        {
            "truth": y,
            "good": np.where(rng.random(90) < 0.8, y, "owl"),
            "poor": np.where(rng.random(90) < 0.5, y, "dog"),
        }
    )
    path = tmp_path / "predictions.csv"
    table.to_csv(path, index=False)
    return path, table


def run(path, out, *extra):
    return command.main(
        [
            *("report", str(path), "--truth", "truth", "--pred", "good", "--pred", "poor"),
            *("--measures", "mcc,accuracy", "--resamples", "199", "--out", str(out), *extra),
        ]
    )


def test_a_csv_becomes_the_report_files(predictions, tmp_path, capsys):
    path, table = predictions
    out = tmp_path / "report"
    assert run(path, out) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, *WRITES])
    assert sorted(json.loads((out / MARKER).read_text())["files"]) == sorted(WRITES)
    expected = cenmcc.report(
        table["truth"],
        table[["good", "poor"]],
        measures=["mcc", "accuracy"],
        n_resamples=199,
        random_state=0,
    )
    printed = capsys.readouterr().out
    assert expected.to_markdown() in printed
    assert (out / "report.md").read_text() == expected.to_markdown()
    scores = pd.read_csv(out / "scores.csv", keep_default_na=False)
    np.testing.assert_allclose(scores["value"], expected.scores["value"], rtol=1e-9)
    comparisons = pd.read_csv(out / "comparisons.csv", keep_default_na=False)
    np.testing.assert_allclose(comparisons["pvalue_holm"], expected.comparisons["pvalue_holm"])
    assert (out / "report.png").read_bytes()[:4] == b"\x89PNG"


def test_a_clash_is_refused_before_the_work(predictions, tmp_path, capsys, monkeypatch):
    path, _ = predictions
    out = tmp_path / "report"
    assert run(path, out, "--no-figure") == 0
    (out / "report.png").write_bytes(b"the user's")  # in the way of the figure

    def work(*args, **kwargs):
        raise AssertionError("the report was computed")

    monkeypatch.setattr(cenmcc, "report", work)
    with pytest.raises(SystemExit) as exit_:
        run(path, out)
    assert exit_.value.code == 2
    assert "report.png was not written by a run" in capsys.readouterr().err
    assert (out / "report.png").read_bytes() == b"the user's"


@pytest.mark.parametrize(
    ("option", "value"), [("--truth", "label"), ("--pred", "forest")], ids=["truth", "pred"]
)
def test_a_missing_column_is_named_with_the_columns_there_are(
    predictions, tmp_path, capsys, option, value
):
    path, _ = predictions
    argv = [
        "report",
        str(path),
        "--truth",
        "truth",
        "--pred",
        "good",
        "--out",
        str(tmp_path / "out"),
    ]
    argv[argv.index(option) + 1] = value
    with pytest.raises(SystemExit) as exit_:
        command.main(argv)
    assert exit_.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(
        f"argument {option}: {path} has no column {value!r}; its columns are "
        "'truth', 'good', 'poor'"
    )


def test_help_names_the_files_and_needs_no_simulation_extra():
    code = (
        "import sys; from cenmcc.commands.report import build_parser; "
        "build_parser().parse_args(['report', '--help'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code + "\n"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    for name in WRITES:
        assert name in done.stdout
    code = (
        "import sys, cenmcc.commands.report; "
        "print(sorted({'joblib', 'tqdm', 'cenmcc.simulation'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_python_m_cenmcc_runs_the_report(predictions, tmp_path):
    path, _ = predictions
    argv = ["report", str(path), "--truth", "truth", "--pred", "good", "--measures", "accuracy"]
    argv += ["--resamples", "99", "--no-figure", "--out", str(tmp_path / "out")]
    done = subprocess.run(
        [sys.executable, "-m", "cenmcc", *argv],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| good |" in done.stdout
