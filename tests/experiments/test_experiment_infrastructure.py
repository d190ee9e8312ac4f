"""The shared machinery of the experiments: parallel map, atomic outputs, the rerun check."""

import json
import os
import signal
import stat
import subprocess
import time

import numpy as np
import pandas as pd
import pytest

from cenmcc.runtime.files import to_jsonable, write_atomic, write_json
from cenmcc.runtime.staging import MARKER
from cenmcc.simulation import parallel
from experiments import discriminancy, rerun
from experiments.__main__ import main
from experiments.paths import REPO_ROOT
from experiments.registry import EXPERIMENTS


def _fail_on_three(task):
    if task == 3:
        raise ValueError("bad task")
    return task * 2


@pytest.mark.parametrize(("backend", "jobs"), [("loky", 1), ("loky", 2), ("threading", 2)])
def test_map_tasks_keeps_order_and_names_the_failing_task(backend, jobs):
    assert parallel.map_tasks(lambda t: t * 2, range(5), backend="threading", jobs=jobs) == [
        0,
        2,
        4,
        6,
        8,
    ]
    failed = r"demo: task 3 of 6 failed \(ValueError: bad task\)"
    with pytest.raises(parallel.ParallelError, match=failed):
        parallel.map_tasks(_fail_on_three, range(6), jobs=jobs, backend=backend, desc="demo")


def test_map_tasks_rejects_bad_arguments():
    with pytest.raises(ValueError, match="backend"):
        parallel.map_tasks(abs, [1], backend="mpi")
    with pytest.raises(ValueError, match="scheduler"):
        parallel.map_tasks(abs, [1], scheduler="tcp://x:1")
    with pytest.raises(ValueError, match="jobs"):
        parallel.map_tasks(abs, [1], jobs=0)


def test_seeds_depend_only_on_the_seed_and_the_task():
    a = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(7, 4)]
    b = [np.random.default_rng(s).random() for s in parallel.spawn_seeds(7, 6)[:4]]
    assert a == b
    assert parallel.chunk_sizes(25, 10) == [10, 10, 5]


def test_atomic_write_leaves_nothing_on_failure_and_a_normal_mode_on_success(tmp_path):
    target = tmp_path / "summary.json"

    def broken(tmp):
        tmp.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomic(target, broken)
    assert list(tmp_path.iterdir()) == []
    write_json(target, {"x": np.float64(1.5), "nan": float("nan"), "a": np.arange(2)})
    assert (
        target.read_text() == '{\n  "x": 1.5,\n  "nan": "nan",\n  "a": [\n    0,\n    1\n  ]\n}\n'
    )
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def _die_on_three(task):
    if task == 3:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
    time.sleep(0.05)
    return task


def test_a_killed_worker_names_the_lost_chunk_and_the_cause():
    with pytest.raises(parallel.ParallelError, match=r"demo: task [0-3] of 8 was lost") as err:
        parallel.map_tasks(_die_on_three, range(8), jobs=2, desc="demo")
    assert "SIGKILL" in str(err.value)
    # The next run gets fresh workers.
    assert parallel.map_tasks(abs, [-1, -2], jobs=2) == [1, 2]


def _worker_pid(task):
    time.sleep(0.2)
    return os.getpid()


def test_closing_the_generator_early_stops_the_workers():
    results = parallel.iter_tasks(_worker_pid, range(50), jobs=2)
    _, pid = next(results)
    results.close()  # no warning about the cancelled tasks: pytest turns warnings into errors
    for _ in range(100):  # loky kills its workers on abort; give the kernel a moment
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"worker {pid} still runs after the generator was closed")


def _results(verdicts):
    return json.dumps(
        {"records": [{"id": i, "verdict": v} for i, v in verdicts.items()]}, indent=2
    ).encode()


def test_rerun_comparison_detects_a_changed_verdict():
    committed = _results({"a": "reproduced", "b": "differs"})
    files = {"paper_checks/results.json": (committed, _results({"a": "differs", "b": "differs"}))}
    line = rerun.compare(files).line()
    assert line.startswith("rerun differs from the committed results: verdict changed for 1 of")
    assert "a: reproduced -> differs" in line
    assert "results.json (.records[0].verdict: 'reproduced' committed, 'differs' now)" in line
    assert rerun.compare({"paper_checks/results.json": (committed, committed)}).line() == (
        "rerun matches the committed results: the same 2 claims and verdicts; every stored "
        "number within the tolerance (relative 1e-08, absolute 1e-12) in the 1 files "
        "compared, all of them byte for byte"
    )


def _perturbed(text: str, relative: float) -> str:
    """``text`` with every number that is not an integer times ``1 + relative``, written in
    full: the same file as another machine might write it."""
    return rerun.NUMBER.sub(
        lambda m: m[0] if m[0].isdigit() else repr(float(m[0]) * (1 + relative)), text
    )


def _committed_clone(root):
    """A git clone whose commit holds one experiment's outputs, as ``all`` writes them."""
    folder = root / "figures" / "x"
    folder.mkdir(parents=True)
    write_json(folder / "summary.json", {"r": 0.1234567891, "n": 50_000, "note": "r = 0.25"})
    (folder / "t.csv").write_text("K,mean,sd\n3,0.5,1.25e-05\n4,-0.75,3.5\n")
    (folder / "figure.png").write_bytes(b"png drawn from the committed numbers")
    (folder / "timing.json").write_text("{}")  # not committed: left out
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "figures/x/summary.json", "figures/x/t.csv"], cwd=root, check=True)
    subprocess.run([*git, "add", "figures/x/figure.png"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "results"], cwd=root, check=True)
    return folder


def _rerun_on_another_machine(folder, relative):
    """Rewrite the outputs with their numbers perturbed and the figure redrawn."""
    for name in ("summary.json", "t.csv"):
        path = folder / name
        path.write_text(_perturbed(path.read_text(), relative))
    (folder / "figure.png").write_bytes(b"png drawn from the rerun's numbers")
    written = [(p, f"figures/x/{p.name}") for p in sorted(folder.iterdir()) if p.is_file()]
    return rerun.settle(written, root=folder.parents[1])


def test_a_rerun_within_the_tolerance_matches_and_keeps_the_committed_bytes(tmp_path):
    folder = _committed_clone(tmp_path)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    found = _rerun_on_another_machine(folder, 1e-12)
    assert found.matches
    assert found.reproduced == ("figures/x/summary.json", "figures/x/t.csv", "figures/x/figure.png")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == ""
    assert rerun.rerun_line([found]) == (
        "rerun matches the committed results: every stored number within the tolerance "
        "(relative 1e-08, absolute 1e-12) in the 3 files compared, 3 of them within it but "
        "not byte for byte, whose committed bytes are kept"
    )


def test_a_rerun_beyond_the_tolerance_differs_names_the_numbers_and_keeps_its_files(tmp_path):
    folder = _committed_clone(tmp_path)
    found = _rerun_on_another_machine(folder, 1e-3)
    written = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert not found.matches
    now = {x: repr(float(x) * 1.001) for x in ("0.25", "0.1234567891", "0.5", "1.25e-05")}
    now |= {x: repr(float(x) * 1.001) for x in ("-0.75", "3.5")}
    assert found.differences == {
        "figures/x/figure.png": ("a figure drawn from numbers that differ",),
        "figures/x/summary.json": (
            f".note: 0.25 committed, {now['0.25']} now",
            f".r: 0.1234567891 committed, {now['0.1234567891']} now",
        ),
        "figures/x/t.csv": tuple(
            f"line {i}: {x} committed, {now[x]} now"
            for i, x in ((2, "0.5"), (2, "1.25e-05"), (3, "-0.75"), (3, "3.5"))
        ),
    }
    line = rerun.rerun_line([found])
    assert line.startswith("rerun differs from the committed results: 3 of 3 files differ")
    assert f"figures/x/t.csv (line 2: 0.5 committed, {now['0.5']} now; " in line
    assert "; and 1 more)" in line
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == written  # kept as written


def test_integers_are_compared_exactly_and_json_by_value():
    files = {"figures/x/t.csv": (b"n,r\n50000,0.5\n", b"n,r\n50001,0.5\n")}
    assert rerun.compare(files).differences == {
        "figures/x/t.csv": ("line 2: 50000 committed, 50001 now",)
    }
    same = {"figures/x/s.json": (b'{"a": 1, "b": [0.5]}', b'{\n "b": [0.5], "a": 1.0}')}
    assert rerun.compare(same).reproduced == ("figures/x/s.json",)
    volatile = {"figures/x/s.json": (b'{"symbolic": "sympy 1.12"}', b'{"symbolic": "sympy 1.13"}')}
    assert rerun.compare(volatile).matches
    marker = {"figures/x/.cenmcc-output": (b"a", b"b"), "figures/x/f.png": (b"a", b"b")}
    assert rerun.compare(marker).differences == {"figures/x/.cenmcc-output": ("the bytes differ",)}


def test_a_changed_14th_digit_is_not_stored_so_the_rerun_matches():
    here, there = 0.12345678901234, 0.12345678901235
    files = {
        "figures/x/summary.json": tuple(
            json.dumps(to_jsonable({"r": v})).encode() for v in (here, there)
        )
    }
    assert rerun.compare(files).identical == ("figures/x/summary.json",)


def test_rerun_line_outside_a_git_clone_has_nothing_to_compare(tmp_path):
    written = tmp_path / "summary.json"
    written.write_text("{}")
    found = rerun.settle([(written, "figures/x/summary.json")], root=tmp_path)
    assert found is None
    line = rerun.rerun_line([found], root=tmp_path)
    assert line.startswith("rerun: no committed results to compare")


#: What every experiment package holds (experiments/__init__.py): findings only where it has any.
ANATOMY = {"__init__", "settings", "compute", "plots", "command"}
#: The most lines a module of experiments/ may have (issue 37).
MAX_LINES = 600


def test_every_experiment_is_a_package_of_settings_compute_plots_and_its_command():
    for experiment in EXPERIMENTS:
        package, _, last = experiment.module.rpartition(".")
        assert last == "command", experiment.module
        folder = REPO_ROOT.joinpath(*package.split("."))
        assert {path.stem for path in folder.glob("*.py")} >= ANATOMY, package


def test_no_module_of_the_experiments_is_over_600_lines():
    for path in (REPO_ROOT / "experiments").rglob("*.py"):
        assert len(path.read_text().splitlines()) <= MAX_LINES, path


@pytest.mark.slow
def test_reruns_are_byte_identical_and_record_the_run(tmp_path):
    for name in ("one", "two"):
        assert main(["binary", "--s-max", "6", "--quiet", "--out", str(tmp_path / name)]) == 0
    one, two = tmp_path / "one" / "binary", tmp_path / "two" / "binary"
    files = sorted(p.name for p in one.iterdir())
    assert files == sorted(p.name for p in two.iterdir())
    assert {"run.json", "timing.json", "summary.json", "figure4.pdf", MARKER} <= set(files)
    for name in files:
        if name != "timing.json":
            assert (one / name).read_bytes() == (two / name).read_bytes(), name
    record = json.loads((one / "run.json").read_text())
    assert record["command"] == "python -m experiments binary --s-max 6"
    assert record["arguments"]["s_max"] == 6
    summary = json.loads((one / "summary.json").read_text())
    assert summary["run"] == record
    assert "timing" not in summary
    timing = json.loads((one / "timing.json").read_text())
    assert set(timing) == {"computation_seconds", "command_seconds", "details", "machine"}
    assert 0 < timing["computation_seconds"] < timing["command_seconds"]


def test_timings_are_kept_out_of_git():
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "figures/binary/timing.json"],
        cwd=REPO_ROOT,
        check=False,
    )
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["loky", "threading", "dask"])
def test_every_backend_gives_the_same_discriminancy_sweep(backend):
    kwargs = {"order_check_max_n": 6, "quiet": True}
    reference, _ = discriminancy.run(6, 8, jobs=1, backend="loky", **kwargs)
    table, summary = discriminancy.run(6, 8, jobs=2, backend=backend, **kwargs)
    pd.testing.assert_frame_equal(table, reference)
    assert summary["order_check"]["order_independent"]


def test_every_file_a_committed_run_wrote_is_declared():
    """What an experiment writes is declared (``Experiment.writes``), so that a user's file in
    the way is refused before the run: every file its committed run listed in its marker is
    (an experiment that updates keeps files of earlier runs, of other names: not checked)."""
    for experiment in EXPERIMENTS:
        marker = REPO_ROOT / "figures" / experiment.folder / MARKER
        if experiment.updates or not marker.is_file():
            continue
        written = set(json.loads(marker.read_text())["files"])
        assert written <= set(experiment.writes), experiment.command


def test_an_experiment_refuses_a_users_file_named_like_one_of_its_outputs_before_the_run(
    tmp_path, monkeypatch, capsys
):
    """Issue 45 item 14: a user's file with the name of an output the previous run did not
    write (a figure's PDF, say) was refused only after the whole run."""
    from cenmcc.runtime.staging import staged_directory
    from experiments.registry import BY_COMMAND

    folder = tmp_path / "binary"
    with staged_directory(folder) as stage:  # a previous run that wrote only its summary
        write_json(stage / "summary.json", {})
    (folder / "figure3.pdf").write_text("my figure")
    module = BY_COMMAND["binary"].load()
    monkeypatch.setattr(module, "main", lambda *args: pytest.fail("it ran"))
    with pytest.raises(SystemExit) as exit_info:
        main(["binary", "--s-max", "4", "--quiet", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    (message,) = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert message.endswith(
        f"argument --out: {folder / 'figure3.pdf'} was not written by a run and is in the way "
        "of a file this run writes: not replaced (move or rename it, then rerun)"
    )
    assert (folder / "figure3.pdf").read_text() == "my figure"
