"""paper_checks' inputs and outputs: an unusable summary.json is named with what is wrong, a
missing one is never rerun in its place, and a run stopped by SIGINT or SIGTERM exits 130 or 143
at once, leaving its previous outputs whole."""

import dataclasses
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from cenmcc.runtime.files import write_atomic_all
from cenmcc.runtime.staging import MARKER, staged_directory
from experiments import __main__ as experiments_main
from paper_checks import __main__ as paper_checks_main
from paper_checks import report, summaries
from paper_checks.__main__ import run
from paper_checks.jurman_experiments import RECORDS as EXPERIMENT_RECORDS
from paper_checks.protocol_checks import RECORDS as PROTOCOL_RECORDS
from paper_checks.record import (
    DIFFERS,
    NOT_CHECKABLE,
    REPRODUCED,
    Measured,
    Record,
    evaluate,
    printed,
)

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "figures"


def _write(figures: Path, name: str, text: str) -> Path:
    path = figures / name / "summary.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ('{"n_matrices": 200000, "pearson_cen', "is not valid JSON"),
        ("[1, 2, 3]", "holds a JSON list, not an object"),
        ('{"formulas": [], "examples": {}, "box1c_search": {}}', "looks like the families"),
        ('{"n_matrices": 5}', "another experiment's summary, or an older layout"),
    ],
    ids=["empty", "truncated", "not-an-object", "foreign", "older-layout"],
)
def test_an_unusable_summary_is_named_with_what_is_wrong(tmp_path, text, message):
    path = _write(tmp_path, "random_matrices", text)
    with pytest.raises(summaries.SummaryError, match=message) as caught:
        summaries.load_summary("random_matrices", figures=tmp_path)
    assert str(path) in str(caught.value)


def test_a_missing_nested_key_names_the_file_and_the_key(tmp_path):
    committed = json.loads((FIGURES / "random_matrices" / "summary.json").read_text())
    del committed["k_fit"]["a"]
    path = _write(tmp_path, "random_matrices", json.dumps(committed))
    s = summaries.load_summary("random_matrices", figures=tmp_path)
    with pytest.raises(summaries.SummaryError, match=r"has no key k_fit\.a") as caught:
        s["k_fit"]["a"]
    assert str(path) in str(caught.value)
    assert s["k_fit"]["b"] == committed["k_fit"]["b"]  # the rest reads as before


def test_an_unreadable_table_is_named(tmp_path):
    shutil.copytree(FIGURES / "random_matrices", tmp_path / "random_matrices")
    table = tmp_path / "random_matrices" / "k_per_dimension.csv"
    table.write_text("")
    with pytest.raises(summaries.SummaryError, match="cannot be read as a table") as caught:
        summaries.load_table("random_matrices", "k_per_dimension.csv", figures=tmp_path)
    assert str(table) in str(caught.value)


def test_the_report_says_which_claims_a_truncated_summary_left_unchecked(
    tmp_path, monkeypatch, capsys
):
    figures = tmp_path / "figures"
    shutil.copytree(FIGURES, figures, ignore=shutil.ignore_patterns("*.png", "*.pdf"))
    path = figures / "random_matrices" / "summary.json"
    path.write_text(path.read_text()[:500])
    monkeypatch.setattr(summaries, "figures_dir", figures)
    status = run(EXPERIMENT_RECORDS, out=tmp_path / "out")
    assert status == 1
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert first.startswith(f"paper_checks: {path} is not valid JSON")
    assert "claims not checked" in first
    assert "Traceback" not in err
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    unchecked = [r for r in saved["records"] if str(path) in r["detail"]]
    assert unchecked
    assert all(r["verdict"] == NOT_CHECKABLE for r in unchecked)
    assert "error" not in saved["counts"]
    assert str(path) in (tmp_path / "out" / "REPORT.md").read_text()


def _one_record(value=2.0):
    return Record(
        id="grandini2020-demo",
        source="demo",
        claim="demo",
        published=printed("2.0"),
        compute=lambda: Measured(value),
        verdict="reproduced",
        measured=value,
    )


def test_outputs_are_replaced_all_together_or_not_at_all(tmp_path, monkeypatch):
    a, b = tmp_path / "a.md", tmp_path / "b.json"
    a.write_text("old a")
    b.write_text("old b")
    original = Path.write_text

    def fail_on_b(self, text, *args, **kwargs):
        if self.name.startswith(".b.json"):
            raise KeyboardInterrupt
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fail_on_b)
    with pytest.raises(KeyboardInterrupt):
        write_atomic_all({a: "new a", b: "new b"})
    monkeypatch.undo()
    assert (a.read_text(), b.read_text()) == ("old a", "old b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.json"]  # no temporaries


def test_a_signal_during_the_replacement_waits_until_every_file_is_replaced(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.json"
    received = []
    replace = os.replace

    def replace_then_signal(source, target):
        replace(source, target)
        if Path(target) == a:  # between the two renames
            os.kill(os.getpid(), signal.SIGTERM)

    previous = signal.signal(
        signal.SIGTERM, lambda signum, frame: received.append((a.read_text(), b.read_text()))
    )
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(os, "replace", replace_then_signal)
            write_atomic_all({a: "new a", b: "new b"})
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert received == [("new a", "new b")]  # held back until both were replaced


def test_a_non_finite_measured_value_is_reported_not_a_crash(tmp_path):
    assert [report.format_value(v) for v in (math.nan, math.inf, -math.inf)] == [
        "nan",
        "inf",
        "-inf",
    ]
    assert report.format_value((math.nan, 1.0)) == "(nan, 1)"
    nan = _one_record(math.nan)
    inf = Record(**{**vars(nan), "id": "grandini2020-inf", "compute": lambda: Measured("inf")})
    assert run([nan, inf], out=tmp_path) == 1  # two values that differ from 2.0, not a crash
    rows = [line for line in (tmp_path / "REPORT.md").read_text().splitlines() if "demo" in line]
    assert "| nan |" in rows[0]
    saved = json.loads((tmp_path / "results.json").read_text())["records"]
    assert [r["measured"] for r in saved] == ["nan", "inf"]


def test_bad_directories_are_refused_naming_the_argument(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    for argv, message in (
        (["--out", str(tmp_path / "file")], "argument --out: "),
        (["--figures", str(tmp_path / "file")], "argument --figures: "),
    ):
        with pytest.raises(SystemExit) as exit_info:
            paper_checks_main.main([*argv, "--no-r"])
        assert exit_info.value.code == 2
        assert f"{message}{tmp_path / 'file'} exists and is not a directory" in (
            capsys.readouterr().err
        )


def _copy_of_the_figures(tmp_path: Path) -> Path:
    figures = tmp_path / "figures"
    shutil.copytree(FIGURES, figures, ignore=shutil.ignore_patterns("*.png", "*.pdf"))
    return figures


def test_a_run_killed_in_its_swap_is_recovered_not_rerun(tmp_path, monkeypatch):
    figures = _copy_of_the_figures(tmp_path)
    (figures / "protocol" / "mine").write_text("the run to keep")
    root = Path(tempfile.mkdtemp(prefix=".protocol.staging-", dir=figures))
    os.rename(figures / "protocol", root / "protocol.previous")  # killed between the renames
    monkeypatch.setattr(paper_checks_main, "REGISTRY", PROTOCOL_RECORDS)
    monkeypatch.setattr(experiments_main, "run", _never_run)
    out = tmp_path / "out"
    assert paper_checks_main.main(["--figures", str(figures), "--out", str(out), "--no-r"]) == 0
    assert (figures / "protocol" / "mine").read_text() == "the run to keep"
    assert not list(figures.glob(".protocol.staging-*"))


def _never_run(argv):
    raise AssertionError(f"the experiment {argv} must not run")


def test_a_missing_experiment_is_named_and_run_only_when_asked(tmp_path, monkeypatch, capsys):
    figures = _copy_of_the_figures(tmp_path)
    shutil.rmtree(figures / "protocol")
    monkeypatch.setattr(paper_checks_main, "REGISTRY", PROTOCOL_RECORDS)
    monkeypatch.setattr(experiments_main, "run", _never_run)
    out = tmp_path / "out"
    argv = ["--figures", str(figures), "--out", str(out), "--no-r"]
    with pytest.raises(SystemExit) as exit_info:
        paper_checks_main.main(argv)
    assert exit_info.value.code == 2
    assert (
        f"argument --figures: {figures} lacks the outputs of protocol: run python -m "
        f"experiments protocol --out {figures}, or pass --run-missing"
    ) in capsys.readouterr().err
    assert not out.exists()

    ran = []

    def fake_run(argv):
        ran.append(argv)
        shutil.copytree(FIGURES / "protocol", figures / "protocol")
        return 0

    monkeypatch.setattr(experiments_main, "run", fake_run)
    assert paper_checks_main.main([*argv, "--run-missing"]) == 0
    assert ran == [["protocol", "--out", str(figures)]]


#: A paper_checks run whose one claim blocks until signalled (it writes "ready" first).
SLOW_RUN = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import paper_checks.__main__ as cli
    from paper_checks.record import Measured, Record, printed

    def slow():
        Path(sys.argv[1]).parent.joinpath("ready").write_text("")
        time.sleep(60)
        return Measured(2.0)

    cli.REGISTRY = (
        Record(id="grandini2020-slow", source="s", claim="c", published=printed("2.0"),
               compute=slow, verdict="reproduced", measured=2.0),
    )
    sys.exit(cli.main(["--out", sys.argv[1], "--no-r"]))
    """
)


def _previous_report(out: Path, texts: dict[str, str]) -> None:
    """An earlier ``python -m paper_checks --out out``'s files (as it marks them)."""
    with staged_directory(out) as stage:
        write_atomic_all({stage / name: text for name, text in texts.items()})


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_run_at_once_with_its_status_and_keeps_the_outputs(tmp_path, signum):
    out = tmp_path / "out"
    _previous_report(out, {"REPORT.md": "previous report", "results.json": "{}"})
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_RUN, str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (tmp_path / "ready").exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signum)
    _, err = process.communicate(timeout=30)  # the claim alone would take 60 s
    assert process.returncode == 128 + signum
    name = signal.Signals(signum).name
    assert err.splitlines() == [
        f"paper_checks: interrupted by {name} while checking claim 1 of 1 (grandini2020-slow); "
        "no output was replaced"
    ]
    assert (out / "REPORT.md").read_text() == "previous report"
    assert (out / "results.json").read_text() == "{}"
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "REPORT.md", "results.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "ready"]


def test_monte_carlo_distance_uses_the_run_to_run_standard_error(tmp_path, monkeypatch):
    from paper_checks import jurman_experiments as je

    fake = {
        "n_matrices": 10,
        "pearson_cen_mcc": -0.9,
        "pearson_tmcc_kcen": 0.9951,
        "pearson_tmcc_kcen_fitted": 0.9940,
        "k_fit": {},
    }
    _write(tmp_path, "random_matrices", json.dumps(fake))
    monkeypatch.setattr(summaries, "figures_dir", tmp_path)
    missing = je.monte_carlo_distance("pearson_tmcc_kcen", 0.9941477)
    assert "has no standard_errors['pearson_tmcc_kcen']" in missing.reason
    assert str(tmp_path / "random_matrices" / "summary.json") in missing.reason

    fake["standard_errors"] = {"pearson_tmcc_kcen": 1e-4, "pearson_tmcc_kcen_fitted": 2e-4}
    fake["standard_errors_method"] = "batch means over 4 chunks"
    _write(tmp_path, "random_matrices", json.dumps(fake))
    got = je.monte_carlo_distance("pearson_tmcc_kcen", 0.9941477)
    assert got.value == pytest.approx((0.9951 - 0.9941477) / (2**0.5 * 1e-4))
    assert f"{(0.9940 - 0.9941477) / (2**0.5 * 2e-4):+.1f}" in got.detail
    assert "batch means over 4 chunks" in got.detail
    record = next(r for r in je.RECORDS if r.id == "arxiv2010-random-pearson-monte-carlo")
    differs = evaluate(record)
    assert differs.verdict == DIFFERS  # 6.7 standard errors of two runs
    # The reason quotes this measurement, and says which of its numbers it lacks (no seeds).
    assert differs.reason.startswith("0.995100 is 6.7 standard errors of the difference of two ")
    assert "runs above 0.9941477 with this run's SE (1.0·10⁻⁴), and (not measured) with" in (
        differs.reason
    )
    fake["pearson_tmcc_kcen"] = 0.9941477 - 2 * 2**0.5 * 1e-4
    _write(tmp_path, "random_matrices", json.dumps(fake))
    within = evaluate(record)
    assert within.measured == pytest.approx(2.0)
    assert within.verdict == REPRODUCED

    fake["standard_errors"]["pearson_tmcc_kcen"] = -1
    _write(tmp_path, "random_matrices", json.dumps(fake))
    assert "is not a positive number" in je.monte_carlo_distance("pearson_tmcc_kcen", 0.99).reason


def test_monte_carlo_distance_adds_the_sd_over_seeds_of_the_same_simulation(tmp_path, monkeypatch):
    """With a committed validation of the same simulation, the detail gives the distance with
    the statistic's SD from seed to seed too; a validation of another simulation is ignored."""
    from cenmcc.simulation.papers import PaperGenerator
    from cenmcc.simulation.result import describe
    from experiments.random_matrices import Config
    from paper_checks import jurman_experiments as je

    config = json.loads(json.dumps(dataclasses.asdict(PaperGenerator()))) | {"chunk_size": 10}
    fake = {
        "n_matrices": 100,
        "pearson_cen_mcc": -0.9,
        "k_fit": {},
        "config": config,
        "pearson_tmcc_kcen": 0.9951,
        "standard_errors": {"pearson_tmcc_kcen": 1e-4},
    }
    _write(tmp_path, "random_matrices", json.dumps(fake))
    simulation = describe(Config(n_matrices=100, chunk_size=10).simulation())
    stat = {"mean": 0.9950, "seed_sd": 2e-4, "seeds": 7, "claimed_se": 1.5e-4}
    validation = {"simulation": simulation, "statistics": {"studies.k_ratio.pearson": stat}}
    (tmp_path / je.VALIDATION).mkdir()
    path = tmp_path / je.VALIDATION / "validation.json"
    path.write_text(json.dumps(validation))
    monkeypatch.setattr(summaries, "figures_dir", tmp_path)
    got = je.monte_carlo_distance("pearson_tmcc_kcen", 0.9941477)
    assert got.value == pytest.approx((0.9951 - 0.9941477) / (2**0.5 * 1e-4))  # its own SE
    run, mean = ((x - 0.9941477) / (2**0.5 * 2e-4) for x in (0.9951, 0.9950))
    assert f"over the 7 seeds of {je.VALIDATION}" in got.detail
    assert f"this run is {run:+.1f} standard errors" in got.detail
    assert f"the seeds' mean {mean:+.1f}" in got.detail
    assert "this run's SE is 0.50 times it" in got.detail
    assert got.facts["seed_sd"] == "2.00·10⁻⁴"
    assert got.facts["z_seeds"] == pytest.approx(run)
    assert got.facts["z_seed_mean"] == pytest.approx(mean)
    assert got.facts["seed_claimed_se"] == "1.50·10⁻⁴"
    for other in (
        {"n_matrices": 200},
        {"generator": repr(PaperGenerator(k_range=(3, 4)))},
        {"measures": ["cen", "mcc"]},
    ):
        path.write_text(json.dumps(validation | {"simulation": simulation | other}))
        other_run = je.monte_carlo_distance("pearson_tmcc_kcen", 0.9941477)
        assert "seeds" not in other_run.detail
        assert "seed_sd" not in other_run.facts


@pytest.mark.slow
def test_a_signal_while_a_missing_experiment_runs_stops_everything_at_once(tmp_path):
    figures, out = tmp_path / "figures", tmp_path / "out"
    _previous_report(out, {"REPORT.md": "previous report"})
    command = ["-m", "paper_checks", "--figures", str(figures), "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, *command, "--run-missing", "--no-r"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not list(figures.glob(".random_matrices.staging-*")):  # the first one is running
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)  # paper_checks alone, as a batch system would
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    # (loky's resource tracker, stopped with the run, may add a warning of its own)
    assert (
        "paper_checks: interrupted by SIGTERM while running the missing experiment "
        "random-matrices; no output was replaced"
    ) in err.splitlines()
    assert "Traceback" not in err
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "REPORT.md"]
    assert (out / "REPORT.md").read_text() == "previous report"
    assert list(figures.iterdir()) == []


def test_a_report_folder_that_no_run_wrote_is_refused_before_any_check(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "REPORT.md").write_text("my own report")
    (mine / "results.json").write_text("[1, 2]")
    for main, argv, refused in (
        (paper_checks_main.main, ["--out", str(mine), "--no-r"], mine),
        (experiments_main.main, ["all", "--out", str(tmp_path)], mine.parent / "paper_checks"),
    ):
        if refused != mine:
            mine.rename(refused)
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        assert f"argument --out: {refused} is a directory that no run wrote" in (
            capsys.readouterr().err
        )
        assert (refused / "REPORT.md").read_text() == "my own report"
        assert (refused / "results.json").read_text() == "[1, 2]"
        assert [p.name for p in tmp_path.iterdir()] == [refused.name]


def test_a_report_folder_is_written_whole_and_replaced_by_the_next_run(tmp_path, monkeypatch):
    out = tmp_path / "out"
    for records in (PROTOCOL_RECORDS, PROTOCOL_RECORDS[:1]):
        assert run(records, out=out, figures=FIGURES) == 0
        assert sorted(p.name for p in out.iterdir()) == [MARKER, "REPORT.md", "results.json"]
        assert len(json.loads((out / "results.json").read_text())["records"]) == len(records)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_an_rscript_that_is_not_a_program_is_refused_before_any_check(
    tmp_path, monkeypatch, capsys
):
    def no_check(*args, **kwargs):
        raise AssertionError("a claim was checked")

    monkeypatch.setattr(report, "run_records", no_check)
    not_executable = tmp_path / "Rscript.txt"
    not_executable.write_text("")
    not_executable.chmod(0o644)
    out = tmp_path / "out"
    for given, reason in (
        (tmp_path / "no" / "Rscript", "does not exist"),
        (tmp_path, "is a directory, not a program"),
        (not_executable, "is not executable"),
        ("no-such-Rscript", "is not a program on the PATH"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            paper_checks_main.main(["--rscript", str(given), "--out", str(out)])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert f"error: argument --rscript: {given} {reason}" in err
        assert not out.exists()


def test_an_rscript_is_a_path_or_a_name_on_the_path(tmp_path, monkeypatch):
    fake = tmp_path / "Rscript"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    parser = paper_checks_main.build_parser()
    assert parser.parse_args(["--rscript", str(fake)]).rscript == str(fake)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert parser.parse_args(["--rscript", "Rscript"]).rscript == str(fake)
