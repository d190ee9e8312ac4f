"""Outputs are replaced as a whole or not at all; bad arguments fail before anything is touched."""

import argparse
import gzip
import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from cenmcc.simulation import cli, outputs, resources
from experiments import discriminancy
from experiments.__main__ import main

PREVIOUS = {"summary.json": '{"run": "previous"}\n', "figure.png": "previous figure"}


def _previous_run(destination):
    destination.mkdir(parents=True)
    for name, text in PREVIOUS.items():
        (destination / name).write_text(text)


def _contents(directory):
    return {p.name: p.read_text() for p in directory.iterdir()}


def _dead_pid() -> int:
    process = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(process.stdout)


def test_a_staged_run_replaces_the_previous_one_whole(tmp_path):
    destination = tmp_path / "binary"
    _previous_run(destination)
    with outputs.staged_directory(destination) as stage:
        assert stage.name == "binary"
        assert stage.parent.name.startswith(".binary.staging-")
        (stage / "summary.json").write_text("new")
        assert _contents(destination) == PREVIOUS  # nothing visible until the swap
    assert _contents(destination) == {"summary.json": "new"}
    assert [p.name for p in tmp_path.iterdir()] == ["binary"]


@pytest.mark.parametrize("error", [ValueError("bad"), KeyboardInterrupt()])
def test_a_failed_or_interrupted_run_leaves_the_previous_one(tmp_path, error):
    destination = tmp_path / "binary"
    _previous_run(destination)

    def run():
        with outputs.staged_directory(destination) as stage:
            outputs.write_json(stage / "summary.json", {"run": "new"})
            raise error

    with pytest.raises(type(error)):
        run()
    assert _contents(destination) == PREVIOUS
    assert [p.name for p in tmp_path.iterdir()] == ["binary"]


def test_an_update_keeps_the_files_it_does_not_rewrite_but_not_temporaries(tmp_path):
    destination = tmp_path / "benchmark"
    _previous_run(destination)
    (destination / ".summary.json.abcd.tmp").write_text("half")
    with outputs.staged_directory(destination, update=True) as stage:
        (stage / "figure.png").write_text("new figure")
    assert _contents(destination) == {
        "summary.json": PREVIOUS["summary.json"],
        "figure.png": "new figure",
    }


def test_leftovers_of_killed_runs_are_recovered_or_removed(tmp_path):
    dead, alive = (
        _dead_pid(),
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]),
    )
    try:
        destination = tmp_path / "binary"
        # Killed between the two renames of its swap: the previous run is set aside, the
        # destination missing; the next run moves it back before it starts.
        _previous_run(tmp_path / f".binary.previous-{dead}")
        (tmp_path / f".binary.staging-{dead}" / "binary").mkdir(parents=True)
        (tmp_path / f".binary.staging-{alive.pid}").mkdir()  # another run, still going
        (tmp_path / f".other.staging-{dead}").mkdir()  # another experiment's
        outputs.recover(destination)
        (destination / ".summary.json.x1y2.tmp").write_text("half")  # an unstaged writer's
        outputs.recover(destination)
        assert _contents(destination) == PREVIOUS
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            ["binary", f".binary.staging-{alive.pid}", f".other.staging-{dead}"]
        )
        # Killed after the swap, before deleting the previous run: the new one stays.
        _previous_run(tmp_path / f".binary.previous-{dead}")
        outputs.recover(destination)
        assert not (tmp_path / f".binary.previous-{dead}").exists()
        assert _contents(destination) == PREVIOUS
    finally:
        alive.kill()
        alive.wait()


def test_a_destination_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "binary").write_text("not a directory")
    with (
        pytest.raises(ValueError, match="not a directory"),
        outputs.staged_directory(tmp_path / "binary"),
    ):
        pass


def test_compressed_tables_carry_no_date_or_name(tmp_path):
    table = pd.DataFrame({"a": np.arange(5), "b": np.linspace(0, 1, 5)})
    first = outputs.write_table(tmp_path / "one.csv.gz", table).read_bytes()
    second = outputs.write_table(tmp_path / "two.csv.gz", table).read_bytes()
    assert first == second
    assert first[4:8] == b"\0\0\0\0"  # MTIME field of the gzip header
    assert first[3] & 0x08 == 0  # no FNAME flag
    assert gzip.decompress(first).decode() == table.to_csv(index=False)


def test_require_memory_names_the_argument_and_both_figures():
    available = resources.available_bytes()
    resources.require_memory(available // 2, "--n 10")
    with pytest.raises(ValueError, match=r"--n 10\*\*18 needs about .* GiB .* GiB available"):
        resources.require_memory(2 * available, "--n 10**18")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["binary", "--s-max", "100000"], "argument --s-max: .* matrices.* GiB"),
        (["binary", "--s-min", "5", "--s-max", "4"], "argument --s-max: must be at least"),
        (["binary", "--s-max", "0"], "argument --s-max: must be at least 1"),
        (["discriminancy", "--n-max", "2000"], "argument --n-max: .* GiB"),
        (["discriminancy", "--rtol", "nan"], "argument --rtol: must be a finite"),
        (["discriminancy", "--n-min", "2"], "argument --n-min: must be at least 3"),
        (["discriminancy", "--jobs", "0"], "argument --jobs: must be a positive"),
        (["discriminancy", "--jobs", "-2"], "argument --jobs: must be a positive"),
        (["discriminancy", "--scheduler", "tcp://127.0.0.1:1"], "argument --scheduler: only"),
        (
            ["discriminancy", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"],
            "argument --scheduler: no scheduler answers",
        ),
        (["families", "--seed", "-1"], "argument --seed: must be a non-negative"),
        (["random-matrices", "--seed", "x"], "argument --seed: expected an integer"),
        (["random-matrices", "--n", "2.5e0"], "argument --n: expected an integer"),
        (["random-matrices", "--n", "inf"], "argument --n: expected an integer"),
        (["benchmark", "--repeats", "0"], "argument --repeats: must be at least 1"),
        (["benchmark", "--sizes", "1"], "argument --sizes: must be at least 2"),
    ],
)
def test_bad_arguments_fail_before_anything_is_touched(tmp_path, capsys, argv, message):
    destination = tmp_path / {"random-matrices": "random_matrices"}.get(argv[0], argv[0])
    _previous_run(destination)
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert re.search(message, capsys.readouterr().err)
    assert _contents(destination) == PREVIOUS
    assert [p.name for p in tmp_path.iterdir()] == [destination.name]


@pytest.mark.parametrize(
    ("text", "value"), [("20000000", 20_000_000), ("20_000_000", 20_000_000), ("2e7", 20_000_000)]
)
def test_counts_can_be_written_in_powers_of_ten(text, value):
    assert cli.positive_int(text) == value


def test_an_output_directory_that_cannot_be_written_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(argparse.ArgumentTypeError, match="not a directory"):
        cli.output_root(str(tmp_path / "file"))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write in /proc"):
        cli.output_root("/proc/new")
    assert cli.output_root(str(tmp_path / "a" / "b")) == tmp_path / "a" / "b"
    assert not (tmp_path / "a").exists()  # checked, not created


def test_reruns_are_byte_identical_and_record_the_run(tmp_path):
    for name in ("one", "two"):
        assert main(["binary", "--s-max", "6", "--quiet", "--out", str(tmp_path / name)]) == 0
    one, two = tmp_path / "one" / "binary", tmp_path / "two" / "binary"
    files = sorted(p.name for p in one.iterdir())
    assert files == sorted(p.name for p in two.iterdir())
    assert {"run.json", "timing.json", "summary.json", "figure4.pdf"} <= set(files)
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
    assert timing["computation_seconds"] >= 0
    assert {"command_seconds", "machine", "timing"} <= set(timing)


@pytest.mark.parametrize("backend", ["loky", "threading", "dask"])
def test_every_backend_gives_the_same_discriminancy_sweep(backend):
    kwargs = {"order_check_max_n": 6, "quiet": True}
    reference, _ = discriminancy.run(6, 8, jobs=1, backend="loky", **kwargs)
    table, summary = discriminancy.run(6, 8, jobs=2, backend=backend, **kwargs)
    pd.testing.assert_frame_equal(table, reference)
    assert summary["order_check"]["order_independent"]
