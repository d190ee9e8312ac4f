"""A finished simulation saved: tables, figures and summary, all or nothing."""

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cenmcc
from cenmcc.runtime import files, staging
from cenmcc.simulation import KRatio, Result, Simulation, run
from cenmcc.simulation.result import output_files


def counts(rng, size):
    K = rng.integers(3, 6, size=size)
    return [rng.integers(1, 40, size=(int(np.sum(k == K)), k, k)) for k in (3, 4, 5)]


@pytest.fixture(scope="module")
def result():
    sim = Simulation(
        counts,
        2000,
        measures=("cen", "mcc", "accuracy"),
        studies=(KRatio(n_resamples=40),),
        chunk_size=250,
    )
    return run(sim, jobs=1, quiet=True)


@pytest.mark.parametrize("as_text", [True, False])
def test_save_writes_the_summary_tables_and_figures(tmp_path, result, as_text):
    target = tmp_path / "run"
    written = result.save(str(target) if as_text else target)
    assert written == target
    assert _written(target) - {staging.MARKER} == set(output_files(result.simulation))
    names = sorted(p.name for p in target.iterdir())
    for expected in (
        "summary.json",
        "measures.csv",
        "pairs.csv",
        "k_ratio_per_k.csv",
        "agreement.png",
        "agreement.pdf",
        "density.png",
        "per_k.png",
        "k_ratio_per_dimension.png",
    ):
        assert expected in names
    summary = json.loads((target / "summary.json").read_text())
    assert summary["simulation"]["measures"] == ["cen", "mcc", "accuracy", "tmcc"]
    consistency = result.pair("cen", "mcc")["consistency"]
    assert summary["pairs"]["cen"]["mcc"]["consistency"] == files.stored(consistency)
    rows = (target / "pairs.csv").read_text().splitlines()
    assert rows[0].startswith("f,g,scope,K,pearson,pearson_se,kendall_tau_b")
    assert len(rows) == 1 + 6 * 5  # six pairs, overall, within K and three values of K


def test_a_second_save_replaces_the_first_whole(tmp_path, result):
    target = tmp_path / "run"
    result.save(target, figures=False)
    (target / "summary.json").write_text("{}")
    result.save(target, figures=False)
    assert json.loads((target / "summary.json").read_text())["n_matrices"] == 2000


def test_save_refuses_a_directory_it_did_not_write(tmp_path, result):
    target = tmp_path / "thesis"
    target.mkdir()
    (target / "thesis.tex").write_text("years of work")
    with pytest.raises(ValueError, match="thesis"):
        result.save(target)
    assert (target / "thesis.tex").read_text() == "years of work"


def test_a_failed_save_leaves_the_destination_and_the_result_intact(tmp_path, result, monkeypatch):
    target = tmp_path / "run"
    result.save(target, figures=False)
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    summary = json.dumps(result.summary)

    def full_disk(path, obj):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr("cenmcc.simulation.result.write_json", full_disk)
    with pytest.raises(OSError, match="No space left"):
        result.save(target, figures=False)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]  # no staging left behind
    assert json.dumps(result.summary) == summary
    monkeypatch.undo()
    other = Path(tmp_path / "elsewhere")
    result.save(other, figures=False)  # the result can still be saved
    assert (other / "summary.json").exists()


def test_the_tables_hold_every_measure_and_pair(result):
    tables = result.tables()
    assert {row["measure"] for row in tables["measures"]} == {"cen", "mcc", "accuracy", "tmcc"}
    assert {(r["f"], r["g"]) for r in tables["pairs"]} == set(result.pair_names())
    assert [row["K"] for row in tables["k_ratio_per_k"]] == [3, 4, 5]


def test_within_k_agreement_pools_the_pairs_of_equal_k_with_standard_errors(result):
    pair = result.pair("cen", "mcc")
    within = pair["within_k"]
    per_k = [part["pair_counts"] for part in pair["by_k"].values()]
    for field, value in within["pair_counts"].items():
        assert value == sum(counts[field] for counts in per_k)
    c, d = within["pair_counts"]["concordant"], within["pair_counts"]["discordant"]
    assert within["consistency"] == c / (c + d)
    for name in ("consistency", "kendall_tau_b"):
        assert 0 < within[f"{name}_se"] < 0.1
    assert "discriminancy_se" in within


def test_tables_have_a_scope_and_an_integer_k(tmp_path, result):
    pd = pytest.importorskip("pandas")
    result.save(tmp_path / "run", figures=False)
    pairs = pd.read_csv(tmp_path / "run" / "pairs.csv")
    measures = pd.read_csv(tmp_path / "run" / "measures.csv")
    for table in (pairs, measures):
        assert table["K"].dtype.kind == "i"
        assert set(table.loc[table["scope"] == "per_k", "K"]) == {3, 4, 5}
        assert set(table.loc[table["scope"] != "per_k", "K"]) == {0}
    assert list(pairs.loc[pairs["f"].eq("cen") & pairs["g"].eq("mcc"), "scope"])[:2] == [
        "overall",
        "within_k",
    ]


@pytest.fixture(scope="module")
def kept():
    """A small run that keeps its table."""
    sim = Simulation(counts, 600, measures=("cen", "mcc"), chunk_size=200, keep_table=True)
    return run(sim, jobs=1, quiet=True)


def test_load_returns_what_save_wrote_with_its_provenance(tmp_path, kept):
    result = kept
    result.save(tmp_path / "run", figures=False)
    loaded = type(result).load(tmp_path / "run")
    saved = json.loads(json.dumps(files.to_jsonable(result.summary)).replace('"nan"', "NaN"))
    assert json.dumps(loaded.summary) == json.dumps(saved)  # every statistic, NaN included
    assert loaded.pair("cen", "mcc")["consistency"] == files.stored(
        result.pair("cen", "mcc")["consistency"]
    )
    for name, column in result.table.items():
        np.testing.assert_array_equal(loaded.table[name], column)
        assert loaded.table[name].dtype == column.dtype
    assert loaded.simulation["seed"] == 0
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert record["call"].startswith("cenmcc.simulation.run(Simulation(generator=<function")
    assert {"cenmcc", "numpy", "scipy"} <= set(record["versions"])
    assert [m["name"] for m in record["measures"]] == ["cen", "mcc"]
    timing = json.loads((tmp_path / "run" / "timing.json").read_text())
    assert timing["run"]["computation_seconds"] > 0


def _written(path: Path) -> set[str]:
    return {p.relative_to(path).as_posix() for p in path.rglob("*") if p.is_file()}


def test_every_file_a_save_of_a_table_writes_is_named_before_the_run(tmp_path, kept):
    path = kept.save(tmp_path / "run", figures=False)
    assert _written(path) - {staging.MARKER} == set(output_files(kept.simulation, figures=False))


def test_a_loaded_result_saved_again_keeps_where_it_came_from(tmp_path, kept):
    kept.save(tmp_path / "run", figures=False)
    ran = json.loads((tmp_path / "run" / "run.json").read_text())
    ran["versions"]["numpy"] = "1.0.0"  # as another machine had it
    (tmp_path / "run" / "run.json").write_text(json.dumps(ran))
    timing = json.loads((tmp_path / "run" / "timing.json").read_text())
    timing["machine"]["host"] = "elsewhere"
    (tmp_path / "run" / "timing.json").write_text(json.dumps(timing))
    loaded = Result.load(tmp_path / "run")
    assert loaded.simulation["call"] == ran["call"]
    loaded.save(tmp_path / "again", figures=False, call="my_script.py")
    record = json.loads((tmp_path / "again" / "run.json").read_text())
    (again,) = record.pop("saved_again")
    assert record == ran  # the call, the versions it ran with, the measures, the seed
    assert again["call"] == "my_script.py"
    assert again["versions"]["numpy"] == np.__version__
    assert again["versions_differ"] == ["numpy"]
    resaved = json.loads((tmp_path / "again" / "timing.json").read_text())
    assert resaved == timing  # the run's seconds, on the machine that ran it
    summary = json.loads((tmp_path / "again" / "summary.json").read_text())
    assert summary == json.loads((tmp_path / "run" / "summary.json").read_text())
    Result.load(tmp_path / "again").save(tmp_path / "third", figures=False)
    third = json.loads((tmp_path / "third" / "run.json").read_text())
    assert third["call"] == ran["call"]
    assert [s["call"] for s in third["saved_again"]] == [
        "my_script.py",
        "cenmcc.simulation.Result.save",
    ]


def test_a_loaded_result_says_what_it_cannot_provide_and_draws_the_rest(tmp_path, kept):
    pytest.importorskip("matplotlib")
    kept.save(tmp_path / "run", figures=False)
    loaded = Result.load(tmp_path / "run")
    assert loaded.states == ()
    assert loaded.processes == ()
    with pytest.raises(ValueError, match="a loaded Result has no histograms"):
        loaded.histograms  # noqa: B018
    assert loaded.labels() == kept.labels() == {"cen": "CEN", "mcc": "MCC"}
    loaded.save(tmp_path / "again")
    figures = set(output_files(kept.simulation)) - set(output_files(kept.simulation, figures=False))
    assert figures >= {"agreement.pdf", "per_k.png", "density.png"}
    assert _written(tmp_path / "again") & figures == figures - {"density.png", "density.pdf"}


def _damage(directory: Path, name: str, change) -> None:
    path = directory / name
    if name.endswith(".npy"):
        np.save(path, change(np.load(path)))
    elif callable(change):
        path.write_text(json.dumps(change(json.loads(path.read_text()))))
    else:
        path.write_text(change)


#: A damage to a saved result, and what the error says (after the file's path).
DAMAGES = {
    "truncated summary": ("summary.json", '{"n_matrices": 6', "is damaged: not JSON"),
    "no simulation": (
        "summary.json",
        lambda s: {k: v for k, v in s.items() if k != "simulation"},
        "is damaged: its 'simulation' is missing or not a dict",
    ),
    "no by_k": (
        "summary.json",
        lambda s: s | {"measures": s["measures"] | {"mcc": {}}},
        "is damaged: a measure or pair without its 'by_k' object",
    ),
    "run.json not an object": ("run.json", "[1, 2]", "is damaged: a JSON list, not an object"),
    "timing run not an object": (
        "timing.json",
        lambda t: t | {"run": 3},
        "is damaged: its 'run' is missing or not a dict",
    ),
    "short column": (
        "table/mcc.npy",
        lambda c: c[:-1],
        r"is damaged: shape \(599,\), not the 600 values of n_matrices",
    ),
    "missing column": (
        "table/columns.json",
        lambda c: [*c, "gone"],
        "is damaged: it lists 'gone', and gone.npy is missing",
    ),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_file_is_one_error_naming_it(tmp_path, kept, damage):
    name, change, says = DAMAGES[damage]
    kept.save(tmp_path / "run", figures=False)
    _damage(tmp_path / "run", name, change)
    with pytest.raises(ValueError, match=re.escape(str(tmp_path / "run" / name)) + " " + says):
        Result.load(tmp_path / "run")


#: Saves a loaded result over its folder and is killed (SIGKILL) between the two renames of
#: the swap, the previous run set aside and the new one not yet in place.
KILLED_IN_THE_SWAP = textwrap.dedent(
    """
    import os, signal, sys
    from cenmcc.simulation import Result

    rename, calls = os.rename, []

    def killed_at_the_second(source, target):
        calls.append(target)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        rename(source, target)

    os.rename = killed_at_the_second
    Result.load(sys.argv[1]).save(sys.argv[1], figures=False)
    """
)


def test_load_recovers_a_save_killed_between_the_two_renames_of_its_swap(tmp_path, kept):
    target = tmp_path / "run"
    kept.save(target, figures=False)
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    summary = json.dumps(Result.load(target).summary)
    env = os.environ | {"PYTHONPATH": os.getcwd()}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_IN_THE_SWAP, str(target)], env=env, timeout=120
    )
    assert killed.returncode == -9
    assert not target.exists()  # set aside, in the staging root the killed run left
    assert json.dumps(Result.load(target).summary) == summary
    assert {p: p.read_bytes() for p in target.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["run"]


def test_the_command_records_its_command_line(tmp_path):
    from cenmcc.commands import simulate as command

    argv = ["simulate", "--generator", "dirichlet", "--n", "400", "--chunk-size", "200"]
    argv += ["--jobs", "1", "--no-figures", "--quiet", "--name", "d", "--out", str(tmp_path)]
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="MCC"):
        assert command.main(argv) == 0
    record = json.loads((tmp_path / "d" / "run.json").read_text())
    assert record["call"].startswith("python -m cenmcc.simulation simulate --generator dirichlet")
    assert record["seed"] == 0
    assert (tmp_path / "d" / "timing.json").is_file()


MINE = """
import numpy as np
import cenmcc


def draw(rng, size):
    return rng.integers(1, 30, size=(size, 3, 3))


def gwet_ac1(C):
    n = C.sum(axis=(-2, -1))
    observed = np.trace(C, axis1=-2, axis2=-1) / n
    pi = (C.sum(axis=-1) + C.sum(axis=-2)) / (2 * n[..., None])
    chance = (pi * (1 - pi)).sum(axis=-1) / (C.shape[-1] - 1)
    return (observed - chance) / (1 - chance)


AC1 = cenmcc.Measure("gwet_ac1", gwet_ac1, True, "Gwet's AC1", bounds=(-1.0, 1.0))
"""


def test_the_command_takes_a_users_measure(tmp_path, monkeypatch, capsys):
    from cenmcc.commands import simulate as command

    (tmp_path / "mine_study.py").write_text(MINE)
    monkeypatch.chdir(tmp_path)
    argv = ["simulate", "--generator", "mine_study:draw", "--n", "400", "--chunk-size", "200"]
    argv += ["--measures", "cen", "--measure", "mine_study:AC1", "--jobs", "1", "--no-figures"]
    assert command.main([*argv, "--quiet", "--name", "d", "--out", "runs"]) == 0
    summary = json.loads((tmp_path / "runs" / "d" / "summary.json").read_text())
    assert summary["simulation"]["measures"] == ["cen", "gwet_ac1"]
    out = capsys.readouterr().out
    assert "cen vs gwet_ac1" in out
    assert "(within one K: " in out
    with pytest.raises(SystemExit) as exit_info:
        command.main([*argv[:-1], "--measure", "mine_study:draw", "--out", "runs"])
    assert exit_info.value.code == 2
    assert "expected a cenmcc.Measure" in capsys.readouterr().err


@pytest.mark.parametrize("n_measures", [3, 8, 17])
def test_the_per_k_figure_stays_legible_for_many_measures(n_measures, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from cenmcc.simulation import figures

    names = list(cenmcc.MEASURES)[:n_measures]
    measures = {name: {"by_k": {}} for name in names}
    pair = {"by_k": {str(k): {"kendall_tau_b": 0.5, "consistency": 0.7} for k in (3, 4, 5)}}
    pairs = {f: dict.fromkeys(names[i + 1 :], pair) for i, f in enumerate(names)}
    summary = {"measures": measures, "pairs": pairs, "n_matrices": 10}
    fig = figures.agreement_by_k(summary, {})
    fig.savefig(tmp_path / "per_k.png")  # warnings are errors: no collapsed layout
    lines = fig.axes[0].get_lines()
    drawn = min(n_measures * (n_measures - 1) // 2, figures.MAX_PAIRS)
    drawn = drawn if n_measures <= 8 else n_measures - 1
    looks = {(str(ln.get_color()), ln.get_marker(), ln.get_linestyle()) for ln in lines}
    assert len(looks) == len(lines) == drawn
    legend = fig.legends[0].get_window_extent()
    assert min(legend.x0, legend.y0) >= 0
    assert legend.x1 <= fig.bbox.width
    plt.close(fig)


@pytest.mark.parametrize("n_measures", [3, 8])
def test_the_agreement_figure_shows_within_k_below_the_diagonal(n_measures, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from cenmcc.simulation import figures

    names = list(cenmcc.MEASURES)[:n_measures]
    pair = {"kendall_tau_b": 0.25, "consistency": 0.5, "discriminancy": 4.0}
    pair["within_k"] = {"kendall_tau_b": 0.75, "consistency": 0.875, "discriminancy": 2.0}
    pairs = {f: dict.fromkeys(names[i + 1 :], pair) for i, f in enumerate(names)}
    fig = figures.agreement_matrix(
        {"measures": dict.fromkeys(names), "pairs": pairs, "n_matrices": 9}, {}
    )
    fig.savefig(tmp_path / "agreement.png")  # warnings are errors: no collapsed layout
    for ax, above, below in zip(
        fig.axes[:3], ["0.250", "0.500", "4.000"], ["0.750", "0.875", "0.500"], strict=True
    ):
        cells = {
            (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts
        }
        assert len(cells) == n_measures * (n_measures - 1)
        assert all(text == (above if r < c else below) for (r, c), text in cells.items())
    plt.close(fig)
