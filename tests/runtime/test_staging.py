"""Outputs are replaced as a whole or not at all; bad arguments fail before anything is touched."""

import errno
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from cenmcc.runtime import files, staging
from experiments.__main__ import main
from experiments.paths import FIGURES

PREVIOUS = {"summary.json": '{"run": "previous"}\n', "figure.png": "previous figure"}


def _previous_run(destination):
    """A run's outputs in ``destination``, marked as such (as staged_directory marks them)."""
    with staging.staged_directory(destination) as stage:
        for name, text in PREVIOUS.items():
            (stage / name).write_text(text)


def _contents(directory):
    return {p.name: p.read_text() for p in directory.iterdir() if p.name != staging.MARKER}


def test_a_staged_run_replaces_the_previous_one_whole(tmp_path):
    destination = tmp_path / "binary"
    _previous_run(destination)
    with staging.staged_directory(destination) as stage:
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
        with staging.staged_directory(destination) as stage:
            files.write_json(stage / "summary.json", {"run": "new"})
            raise error

    with pytest.raises(type(error)):
        run()
    assert _contents(destination) == PREVIOUS
    assert [p.name for p in tmp_path.iterdir()] == ["binary"]


def test_an_update_keeps_the_files_it_does_not_rewrite(tmp_path):
    destination = tmp_path / "benchmark"
    _previous_run(destination)
    with staging.staged_directory(destination, update=True) as stage:
        assert _contents(stage) == PREVIOUS  # the previous run's files, and only those
        (stage / "figure.png").write_text("new figure")
    assert _contents(destination) == {
        "summary.json": PREVIOUS["summary.json"],
        "figure.png": "new figure",
    }


#: What a user keeps in an output folder that looks like a leftover: files named as temporaries
#: of write_atomic, and empty folders, at the top and inside a folder.
KEPT = {".notes.md.tmp": "mine", "drafts/.x.tmp": "mine too", "empty": None, "drafts/old": None}


def _kept(path: Path) -> str | None:
    """A file's text, None for an empty folder."""
    return None if path.is_dir() and not any(path.iterdir()) else path.read_text()


@pytest.mark.parametrize("update", [False, True], ids=["replace", "update"])
def test_a_users_temporaries_and_empty_folders_are_kept_by_the_next_runs(tmp_path, update):
    destination = tmp_path / "exp1"
    _previous_run(destination)
    for name, text in KEPT.items():
        path = destination / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            path.mkdir()
        else:
            path.write_text(text)
    for _ in range(2):
        staging.recover(destination)  # what every reader does first
        with staging.staged_directory(destination, update=update) as stage:
            assert not any((stage / name).exists() for name in KEPT)  # never the run's
            (stage / "summary.json").write_text("new")
        assert staging.users_files(destination) == sorted(KEPT)
        assert {n: _kept(destination / n) for n in KEPT} == KEPT
    assert [p.name for p in tmp_path.iterdir()] == ["exp1"]


#: A run that enters staged_directory, writes "started", then waits to be killed.
HOLDING = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from cenmcc.runtime.staging import staged_directory

    with staged_directory(Path(sys.argv[1]) / "binary") as stage:
        (stage / "summary.json").write_text("unfinished")
        Path(sys.argv[2]).write_text("")
        time.sleep(60)
    """
)


def _holding_run(tmp_path: Path, name: str) -> subprocess.Popen:
    started = tmp_path / f"{name}.started"
    process = subprocess.Popen([sys.executable, "-c", HOLDING, str(tmp_path), str(started)])
    deadline = time.monotonic() + 30
    while not started.exists():
        assert process.poll() is None
        assert time.monotonic() < deadline
        time.sleep(0.05)
    started.unlink()
    return process


def _staging_roots(parent: Path) -> list[Path]:
    return sorted(parent.glob(".binary.staging-*"))


def test_recover_knows_a_live_run_from_a_killed_one_without_process_ids(tmp_path):
    destination = tmp_path / "binary"
    _previous_run(destination)
    alive = _holding_run(tmp_path, "alive")
    try:
        killed = _holding_run(tmp_path, "killed")  # it left the live run's staging alone
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        assert len(_staging_roots(tmp_path)) == 2
        staging.recover(destination)
        (live,) = _staging_roots(tmp_path)  # the killed run's is gone, the live one's kept
        assert (live / "binary" / "summary.json").read_text() == "unfinished"
        assert _contents(destination) == PREVIOUS
    finally:
        alive.kill()
        alive.wait()
    staging.recover(destination)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary"]


def test_a_run_killed_between_the_two_renames_of_its_swap_is_put_back(tmp_path):
    destination = tmp_path / "binary"
    _previous_run(destination)
    root = Path(tempfile.mkdtemp(prefix=".binary.staging-", dir=tmp_path))
    os.rename(destination, root / "binary.previous")  # the first rename, then SIGKILL
    (root / "binary").mkdir()
    staging.recover(destination)
    assert _contents(destination) == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary"]
    (destination / ".summary.json.x1y2.tmp").write_text("a user's")  # no run writes here
    staging.recover(destination)
    assert (destination / ".summary.json.x1y2.tmp").read_text() == "a user's"


def test_a_failed_second_rename_of_the_swap_puts_the_previous_run_back(tmp_path, monkeypatch):
    destination = tmp_path / "binary"
    _previous_run(destination)
    rename, calls = os.rename, []

    def second_fails(source, target):
        calls.append(Path(target))
        if len(calls) == 2:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        rename(source, target)

    monkeypatch.setattr(os, "rename", second_fails)
    with (
        pytest.raises(OSError, match="Input/output error"),
        staging.staged_directory(destination) as stage,
    ):
        (stage / "summary.json").write_text("new")
    assert calls[1] == destination
    assert _contents(destination) == PREVIOUS
    assert [p.name for p in tmp_path.iterdir()] == ["binary"]


def test_stale_siblings_named_with_this_process_id_break_nothing(tmp_path):
    """Containers reuse process ids: leftovers named after ours must not stop a run."""
    destination = tmp_path / "binary"
    _previous_run(destination)
    for kind in ("staging", "previous"):
        (tmp_path / f".binary.{kind}-{os.getpid()}" / "binary").mkdir(parents=True)
    with staging.staged_directory(destination) as stage:
        (stage / "summary.json").write_text("new")
    assert _contents(destination) == {"summary.json": "new"}


def _user_directory(path: Path) -> None:
    (path / "src").mkdir(parents=True)
    (path / "thesis.tex").write_text("thesis")
    (path / ".thesis.tex.swp.tmp").write_text("an editor's")
    (path / "src" / "main.c").write_text("code")


def _file(path: Path) -> None:
    path.write_text("not a directory")


def _dangling_link(path: Path) -> None:
    path.symlink_to(path.parent / "nowhere")


def _link_to_a_run(path: Path) -> None:
    _previous_run(path.parent / "elsewhere")
    path.symlink_to(path.parent / "elsewhere")


NOT_OURS = {
    "user-directory": (_user_directory, "is a directory that no run wrote"),
    "file": (_file, "exists and is not a directory"),
    "dangling-link": (_dangling_link, "is a symbolic link"),
    "link": (_link_to_a_run, "is a symbolic link"),
}


def _snapshot(root: Path) -> dict:
    return {
        p.relative_to(root).as_posix(): (os.readlink(p) if p.is_symlink() else p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_symlink() or p.is_file()
    }


@pytest.mark.parametrize("kind", NOT_OURS)
def test_a_command_never_replaces_what_no_run_wrote(tmp_path, capsys, kind):
    make, why = NOT_OURS[kind]
    make(tmp_path / "binary")
    before = _snapshot(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["binary", "--s-max", "3", "--quiet", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    (message,) = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert f"argument --out: {tmp_path / 'binary'} {why}" in message
    assert _snapshot(tmp_path) == before
    with (
        pytest.raises(staging.NotReplaceable, match=re.escape(str(tmp_path / "binary"))),
        staging.staged_directory(tmp_path / "binary"),
    ):
        pass  # the library's own check, at the start
    staging.recover(tmp_path / "binary")  # what every reader does first
    assert _snapshot(tmp_path) == before


@pytest.mark.slow
def test_an_empty_directory_or_a_marked_run_is_replaced(tmp_path):
    (tmp_path / "binary").mkdir()
    for _ in range(2):  # empty, then the first run's
        assert main(["binary", "--s-max", "3", "--quiet", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "binary" / "summary.json").exists()


def test_a_destination_replaced_by_the_user_during_the_run_is_kept(tmp_path):
    destination = tmp_path / "binary"

    def run():
        with staging.staged_directory(destination) as stage:
            (stage / "summary.json").write_text("new")
            _user_directory(destination)

    with pytest.raises(staging.NotReplaceable):
        run()
    assert sorted(_snapshot(destination)) == [".thesis.tex.swp.tmp", "src/main.c", "thesis.tex"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary"]


def test_the_committed_outputs_can_be_replaced_by_a_fresh_clone():
    for directory in FIGURES.iterdir():
        if directory.is_dir():
            staging.check_replaceable(directory)
            assert (directory / staging.MARKER).exists(), directory
            # every file is the run's, but the benchmark's measurement history, written by
            # hand beside its tables and carried over by each rerun as a user's file
            kept = [Path("HISTORY.md")] if directory.name == "benchmark" else []
            assert [Path(f) for f in staging.users_files(directory)] == kept, directory


#: Arguments refused before any work, and the message (a regular expression).
BAD_ARGUMENTS = [
    (["binary", "--s-max", "100000"], "argument --s-max: .* matrices.* GiB"),
    (["binary", "--s-min", "5", "--s-max", "4"], "argument --s-max: must be at least"),
    (["binary", "--s-max", "0"], "argument --s-max: must be at least 1"),
    (["binary", "--s-max", "1e400"], r"argument --s-max: .*1\.00e\+400 .* bytes"),
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
    (["random-matrices", "--seed", "-1"], "argument --seed: must be a non-negative"),
    (["families", "--seed", "1"], "unrecognized arguments: --seed 1"),
    (["random-matrices", "--seed", "x"], "argument --seed: expected an integer"),
    (["random-matrices", "--n", "2.5e0"], "argument --n: expected an integer"),
    (["random-matrices", "--n", "inf"], "argument --n: expected an integer"),
    (["random-matrices", "--n", "1e400"], r"argument --n: --n 1\.00e\+400 needs .* bytes"),
    (
        ["random-matrices", "--backend", "dask", "--scheduler", "tcp://[::1"],
        "argument --scheduler: bad address",
    ),
    (["protocol", "--n", "2"], "argument --n: must be at least 20,000 .* got 2$"),
    (["protocol", "--n", "3"], "argument --n: must be at least 20,000"),
    (["protocol", "--n", "10"], "argument --n: must be at least 20,000"),
    (["protocol", "--readings", "printed,printed"], "argument --readings: .*more than once"),
    (["protocol", "--validation-n", "0"], "argument --validation-n: must be at least 1"),
    (["benchmark", "--repeats", "0"], "argument --repeats: must be at least 1"),
    (["benchmark", "--sizes", "1"], "argument --sizes: must be at least 2"),
]


@pytest.mark.parametrize(
    ("argv", "message"), BAD_ARGUMENTS, ids=[" ".join(argv) for argv, _ in BAD_ARGUMENTS]
)
def test_bad_arguments_fail_before_anything_is_touched(tmp_path, capsys, argv, message):
    destination = tmp_path / {"random-matrices": "random_matrices"}.get(argv[0], argv[0])
    _previous_run(destination)
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert re.search(message, capsys.readouterr().err, re.M)
    assert _contents(destination) == PREVIOUS
    assert [p.name for p in tmp_path.iterdir()] == [destination.name]


def test_an_empty_output_path_is_refused_not_read_as_the_current_directory(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["binary", "--s-max", "3", "--out", ""])
    assert exit_info.value.code == 2
    assert "argument --out: expected a directory, got an empty path" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_full_disk_is_one_line_naming_the_file_and_keeps_the_previous_run(
    tmp_path, monkeypatch, capsys
):
    destination = tmp_path / "binary"
    _previous_run(destination)
    write_text = Path.write_text

    def disk_full(self, *args, **kwargs):
        if self.name.startswith(".summary.json."):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", disk_full)
    assert main(["binary", "--s-max", "3", "--quiet", "--out", str(tmp_path)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"binary failed: cannot write {destination / 'summary.json'}: No space left on device; "
        f"{destination} unchanged"
    ]
    assert _contents(destination) == PREVIOUS
    assert [p.name for p in tmp_path.iterdir()] == ["binary"]


@pytest.mark.parametrize("name", [".", "..", "../x", "/tmp/x", "a/b", "", ".hidden"])
def test_a_name_that_is_not_one_folder_is_refused_before_any_work(tmp_path, capsys, name):
    from cenmcc.commands import simulate as command

    (tmp_path / "R" / "keepme").mkdir(parents=True)
    before = _snapshot(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        command.main(
            ["simulate", "--n", "10", "--quiet", "--out", str(tmp_path / "R"), "--name", name]
        )
    assert exit_info.value.code == 2
    assert (
        f"argument --name: must be one folder name (no '/', not starting with '.'), got {name!r}"
        in capsys.readouterr().err
    )
    assert _snapshot(tmp_path) == before
    assert [p.name for p in tmp_path.rglob("*")] == ["R", "keepme"]


@pytest.fixture
def tmpfs(tmp_path):
    """A tmpfs mounted at ``tmp_path / "binary"`` (needs root and a working ``mount``)."""
    point = tmp_path / "binary"
    point.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(point)], capture_output=True
    )
    if mounted.returncode:
        pytest.skip(f"mount failed: {mounted.stderr.decode().strip()}")
    yield point
    subprocess.run(["umount", str(point)], check=True)


def _refuses_a_mount_point(tmp_path, capsys, point):
    with pytest.raises(SystemExit) as exit_info:
        main(["binary", "--s-max", "3", "--quiet", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert f"argument --out: {point} is a mount point, which a run cannot replace" in (
        capsys.readouterr().err
    )
    with pytest.raises(staging.NotReplaceable, match="write into a folder inside it"):
        staging.check_replaceable(point)
    assert list(point.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["binary"]


def test_a_mount_point_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    point = tmp_path / "binary"
    point.mkdir()
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda path: Path(path) == point or real(path))
    _refuses_a_mount_point(tmp_path, capsys, point)


@pytest.mark.slow
def test_a_mounted_tmpfs_is_refused_before_any_work(tmp_path, capsys, tmpfs):
    _refuses_a_mount_point(tmp_path, capsys, tmpfs)
    assert main(["binary", "--s-max", "3", "--quiet", "--out", str(tmpfs)]) == 0  # inside it
    assert (tmpfs / "binary" / "summary.json").exists()


def _marked_files(directory):
    return json.loads((directory / staging.MARKER).read_text())["files"]


@pytest.mark.parametrize("update", [False, True], ids=["replace", "update"])
def test_files_a_user_adds_to_an_output_are_carried_over_into_the_next_run(tmp_path, update):
    destination = tmp_path / "exp1"
    _previous_run(destination)
    assert _marked_files(destination) == sorted(PREVIOUS)
    (destination / "notes.md").write_text("my notes")
    (destination / "mine").mkdir()
    (destination / "mine" / "data.txt").write_text("my data")
    for run in range(2):
        with staging.staged_directory(destination, update=update) as stage:
            assert not (stage / "notes.md").exists()  # never the run's
            (stage / "summary.json").write_text(f"run {run}")
        assert _snapshot(destination) == {
            staging.MARKER: (destination / staging.MARKER).read_bytes(),
            "mine/data.txt": b"my data",
            "notes.md": b"my notes",
            "summary.json": f"run {run}".encode(),
            **({"figure.png": b"previous figure"} if update else {}),
        }
        assert _marked_files(destination) == ["figure.png", "summary.json"][1 - update :]
    assert [p.name for p in tmp_path.iterdir()] == ["exp1"]


def test_a_users_file_named_like_a_new_output_is_refused_and_kept(tmp_path):
    destination = tmp_path / "exp1"
    _previous_run(destination)
    (destination / "table.csv").write_text("mine")
    before = _snapshot(tmp_path)
    clash = re.escape(f"{destination / 'table.csv'} was not written by a run and is in the way")
    with (
        pytest.raises(staging.NotReplaceable, match=clash),
        staging.staged_directory(destination) as stage,
    ):
        (stage / "table.csv").write_text("the run's")
    assert _snapshot(tmp_path) == before


#: A user's file or folder in the way of what a run writes, and the path refused.
IN_THE_WAY = [
    ("table.csv", ["table.csv"], "table.csv"),  # the same name
    ("table", ["table/K.npy"], "table"),  # a file where the run needs a folder
    ("run.json/notes.md", ["run.json"], "run.json/notes.md"),  # under a file the run writes
]


@pytest.mark.parametrize(("mine", "writes", "refused"), IN_THE_WAY)
def test_a_users_file_in_the_way_of_a_run_is_refused_before_the_run(
    tmp_path, mine, writes, refused
):
    destination = tmp_path / "exp1"
    _previous_run(destination)
    (destination / mine).parent.mkdir(parents=True, exist_ok=True)
    (destination / mine).write_text("mine")
    (destination / "table2").mkdir()  # a folder of the user's where the run writes is no clash
    before = _snapshot(tmp_path)
    with pytest.raises(staging.NotReplaceable, match=re.escape(f"{destination / refused} was")):
        staging.check_replaceable(destination, [*writes, "table2/K.npy"])
    with (
        pytest.raises(staging.NotReplaceable, match=re.escape(str(destination / refused))),
        staging.staged_directory(destination, writes=writes),
    ):
        pytest.fail("the block ran")  # refused before it
    assert _snapshot(tmp_path) == before
    assert [p.name for p in tmp_path.iterdir()] == ["exp1"]


def test_a_command_refuses_a_users_file_named_like_one_of_its_outputs_before_the_run(
    tmp_path, monkeypatch, capsys
):
    from cenmcc.commands import simulate as command

    argv = ["simulate", "--n", "20", "--chunk-size", "10", "--jobs", "1", "--quiet"]
    argv += ["--out", str(tmp_path), "--name", "exp1"]
    assert command.main([*argv, "--no-figures"]) == 0
    (tmp_path / "exp1" / "agreement.pdf").write_text("my figure")
    before = _snapshot(tmp_path)
    monkeypatch.setattr(command, "run", lambda *args, **kwargs: pytest.fail("it ran"))
    with pytest.raises(SystemExit) as exit_info:
        command.main(argv)  # with the figures
    assert exit_info.value.code == 2
    (message,) = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert message.endswith(
        f"argument --out: {tmp_path / 'exp1' / 'agreement.pdf'} was not written by a run and is "
        "in the way of a file this run writes: not replaced (move or rename it, then rerun)"
    )
    assert _snapshot(tmp_path) == before


def test_a_rerun_of_a_command_keeps_the_notes_added_to_its_folder(tmp_path):
    from cenmcc.commands import simulate as command

    argv = ["simulate", "--n", "20", "--chunk-size", "10", "--jobs", "1", "--no-figures"]
    argv += ["--quiet", "--out", str(tmp_path), "--name", "exp1"]
    assert command.main(argv) == 0
    (tmp_path / "exp1" / "notes.md").write_text("my notes")
    written = sorted(p.name for p in (tmp_path / "exp1").iterdir())
    assert command.main(argv) == 0
    assert sorted(p.name for p in (tmp_path / "exp1").iterdir()) == written
    assert (tmp_path / "exp1" / "notes.md").read_text() == "my notes"


def test_an_earlier_versions_marker_still_marks_a_run_whose_files_are_all_its_own(tmp_path):
    destination = tmp_path / "exp1"
    destination.mkdir()
    (destination / staging.MARKER).write_text('{"package": "cenmcc", "output": "exp1"}\n')
    (destination / "summary.json").write_text("old")
    staging.check_replaceable(destination)
    assert staging.users_files(destination) == []
    with staging.staged_directory(destination) as stage:
        (stage / "table.csv").write_text("new")
    assert sorted(_snapshot(destination)) == [staging.MARKER, "table.csv"]
