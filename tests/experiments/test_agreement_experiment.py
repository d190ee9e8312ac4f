"""The agreement experiment: eight measures on three generators, run as a user would."""

import json
import math

import pytest

from experiments.__main__ import main as cli_main
from experiments.agreement import settings
from experiments.registry import BY_COMMAND

#: its fixture runs the agreement study (tens of seconds)
pytestmark = pytest.mark.slow

#: Small and fast, with several chunks per generator so that the schedule could matter.
SMALL = ["--n", "3000", "--chunk-size", "500", "--seed", "4", "--quiet"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The command run with one worker and with two: their output directories."""
    out = {}
    for jobs in (1, 2):
        root = tmp_path_factory.mktemp(f"jobs{jobs}")
        assert cli_main(["agreement", *SMALL, "--jobs", str(jobs), "--out", str(root)]) == 0
        out[jobs] = root / "agreement"
    return out


@pytest.fixture(scope="module")
def summary(runs):
    return json.loads((runs[1] / "summary.json").read_text())


def test_the_summary_holds_every_generator_and_pair(summary):
    assert set(BY_COMMAND["agreement"].summary_keys) <= summary.keys()
    assert list(summary["generators"]) == [case.name for case in settings.CASES]
    assert list(summary["measures"]) == list(settings.MEASURES)
    for name, gen in summary["generators"].items():
        assert gen["n_matrices"] == 3000, name
        assert sum(gen["n_by_k"]) == 3000
        assert len(gen["K"]) == len(gen["n_by_k"]) == len(gen["class_balance"]["by_k"])
        pairs = [(f, g) for f, row in gen["pairs"].items() for g in row]
        assert pairs == settings.pairs_of()  # the 28 pairs of the eight measures
        for f, g in pairs:
            entry = gen["pairs"][f][g]
            for stat in settings.STATISTICS:
                assert stat in entry, (name, f, g, stat)
                assert f"{stat}_se" in entry, (name, f, g, stat)
            assert len(entry["by_k"]["consistency"]) == len(gen["K"])
            assert len(entry["by_k"]["consistency_se"]) == len(gen["K"])
    assert summary["generators"]["imbalanced"]["settings"]["class_concentration"] == 0.3
    assert summary["generators"]["imbalanced"]["settings"]["k_range"] == [3, 50]
    assert summary["generators"]["papers"]["settings"]["k_range"] == [3, 30]
    assert all(isinstance(line, str) and line for line in summary["findings"])


def test_accuracy_and_micro_f1_agree_exactly(summary):
    for name, gen in summary["generators"].items():
        entry = gen["pairs"]["accuracy"]["f1_micro"]
        assert entry["consistency"] == 1.0, name
        assert entry["consistency_within_k"] == 1.0, name
        assert entry["pair_counts"]["discordant"] == 0
        assert entry["pair_counts"]["f_only"] == entry["pair_counts"]["g_only"] == 0
    assert summary["findings"][0].startswith("Accuracy and micro F1 order and tie every pair")


def test_every_consistency_is_a_degree_with_a_standard_error(summary):
    for gen in summary["generators"].values():
        for row in gen["pairs"].values():
            for entry in row.values():
                for stat in ("consistency", "consistency_within_k"):
                    assert 0.0 <= entry[stat] <= 1.0
                    se = entry[f"{stat}_se"]
                    assert isinstance(se, float)
                    assert math.isfinite(se)
                    assert se >= 0.0
                for value in entry["by_k"]["consistency"]:
                    assert 0.0 <= value <= 1.0


def test_the_same_seed_gives_the_same_outputs_for_one_worker_and_two(runs):
    def without_run_record(directory):
        summary = json.loads((directory / "summary.json").read_text())
        del summary["run"]  # the command line, which names --jobs
        return json.dumps(summary, indent=2)

    assert without_run_record(runs[1]) == without_run_record(runs[2])
    for table in ("pairs.csv", "measures.csv", "agreement.md"):
        assert (runs[1] / table).read_bytes() == (runs[2] / table).read_bytes(), table


def test_the_declared_figures_are_written(runs):
    declared = [figure.file for figure in BY_COMMAND["agreement"].figures]
    assert declared
    for png in declared:
        for suffix in (".png", ".pdf"):
            path = runs[1] / png.replace(".png", suffix)
            assert path.stat().st_size > 1000, path


def test_it_runs_in_all_and_refuses_bad_settings(capsys):
    assert BY_COMMAND["agreement"].in_all
    with pytest.raises(SystemExit) as stop:
        cli_main(["agreement", "--n", "0"])
    assert stop.value.code == 2
    assert "argument --n" in capsys.readouterr().err


def test_a_run_of_one_matrix_says_its_degrees_are_undefined(tmp_path, capsys):
    # issue 45 item 12: no pairs of matrices, no share of them, no SE: NaN, never a crash
    assert (
        cli_main(["agreement", "--n", "1", "--jobs", "1", "--quiet", "--out", str(tmp_path)]) == 0
    )
    assert "degrees of consistency are undefined (no pairs of matrices" in capsys.readouterr().out
