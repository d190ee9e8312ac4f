"""Output directories that hold one whole run, and never replace what a run did not write.

- :func:`staged_directory` gives a run an empty staging directory next to its destination and
  swaps it in only when the run has written everything, so the destination always holds one
  whole run: the previous one after any failure, interrupt or kill, the new one after success.
  Leftovers of a killed run are recovered or removed by :func:`recover`, which every reader of
  an output directory calls first.
- A run replaces only a directory that a run wrote: each output directory holds a marker file,
  :data:`MARKER`, and :func:`check_replaceable` refuses anything else (a directory of the
  user's, a file, a symbolic link, a mount point) before any work starts. The marker lists
  the files (and empty folders) the run wrote; anything else the user keeps in the directory,
  whatever its name, is carried over into the next run, and a user's file in the way of a
  file the next run writes is refused before any work (``writes`` of
  :func:`check_replaceable`).

The files themselves are written whole by :mod:`cenmcc.runtime.files`.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path, PurePosixPath

from .files import WriteError, write_atomic_all
from .signals import signals_deferred

#: The file that marks a directory as a run's outputs (see :func:`check_replaceable`), and
#: lists the files and empty folders the run wrote (:func:`staged_directory`): the others are
#: the user's.
MARKER = ".cenmcc-output"


class NotReplaceable(ValueError):
    """A destination that a run may not replace; the message names it and says why."""


def _marker_text(name: str, files: Iterable[str] | None = None) -> str:
    record = {"package": "cenmcc", "output": name}
    if files is not None:
        record["files"] = sorted(files)
    return json.dumps(record, indent=1) + "\n"


def _marker(directory: Path) -> dict | None:
    """The marker of an output named like ``directory``, or None if it holds none."""
    try:
        record = json.loads((directory / MARKER).read_text())
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    ours = isinstance(record, dict) and record.get("package") == "cenmcc"
    return record if ours and record.get("output") == directory.name else None


def _entries(directory: Path) -> set[str]:
    """The files (symbolic links included) and empty folders under ``directory``, as relative
    paths, its marker aside."""
    return {
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*")
        if path.name != MARKER
        and (path.is_symlink() or path.is_file() or (path.is_dir() and not any(path.iterdir())))
    }


def users_files(directory: Path) -> list[str]:
    """The files and empty folders a user keeps in the output ``directory``: those its run did
    not write, whatever their names.

    Relative paths, sorted; none for a directory that is not an output, or whose marker lists
    no files (written by an earlier version of cenmcc, which did not record them).
    """
    record = _marker(Path(directory)) if Path(directory).is_dir() else None
    if record is None or not isinstance(record.get("files"), list):
        return []
    return sorted(_entries(Path(directory)) - set(record["files"]))


def _clashes(directory: Path, writes: Iterable[str]) -> list[str]:
    """The user's files and folders in ``directory`` (:func:`users_files`) in the way of the
    files ``writes`` (relative paths) a run writes: of the same path, under a path the run
    writes as a file, or a file where the run needs a folder."""
    writes = set(writes)
    folders = {p.as_posix() for w in writes for p in PurePosixPath(w).parents}
    return [
        name
        for name in users_files(directory)
        if name in writes
        or any(p.as_posix() in writes for p in PurePosixPath(name).parents)
        or (name in folders and ((directory / name).is_symlink() or (directory / name).is_file()))
    ]


def _refuse_clashes(directory: Path, writes: Iterable[str]) -> None:
    """Raise :class:`NotReplaceable` naming the first of :func:`_clashes`, if any."""
    clashes = _clashes(directory, writes)
    if clashes:
        more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
        raise NotReplaceable(
            f"{directory / clashes[0]}{more} was not written by a run and is in the way of a "
            "file this run writes: not replaced (move or rename it, then rerun)"
        )


def check_replaceable(destination: Path, writes: Iterable[str] = ()) -> None:
    """Refuse a destination that a run did not write, before any work starts.

    A run may replace ``destination`` when it does not exist, is an empty directory, or is a
    directory holding :data:`MARKER` (written by :func:`staged_directory` into every run),
    and is not a mount point.

    Parameters
    ----------
    destination : path
    writes : iterable of str
        The files the run will write, as paths relative to ``destination`` (all it may
        write, where that depends on what it finds): a file or folder of the user's in the way
        of one of them is refused now, not after the work.

    Raises
    ------
    NotReplaceable
        For a mount point (which cannot be renamed), a symbolic link (dangling or not),
        anything that is not a directory, a non-empty directory without the marker, or a
        user's file in the way of one of ``writes``: a one-line message that names it.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "notes").write_text("mine")
    >>> check_replaceable(root / "new")
    >>> try:
    ...     check_replaceable(root / "notes")
    ... except NotReplaceable as err:
    ...     print(err)  # doctest: +ELLIPSIS
    /.../notes exists and is not a directory: not replaced (a run replaces only an output ...)
    """
    destination = Path(destination)
    if os.path.ismount(destination):  # a volume or a tmpfs: os.rename fails with EBUSY
        raise NotReplaceable(
            f"{destination} is a mount point, which a run cannot replace (it swaps in a new "
            "directory): write into a folder inside it"
        )
    if destination.is_symlink():
        why = "is a symbolic link"
    elif not destination.exists():
        return
    elif not destination.is_dir():
        why = "exists and is not a directory"
    elif _marker(destination) is not None:
        _refuse_clashes(destination, writes)
        return
    elif not any(destination.iterdir()):
        return
    else:
        why = f"is a directory that no run wrote (it has no {MARKER})"
    raise NotReplaceable(
        f"{destination} {why}: not replaced (a run replaces only an output directory it wrote)"
    )


#: A run's staging root, ``<parent>/.<name>.staging-<unique>``: it holds the run being written
#: (in its subdirectory ``<name>``) and, during the swap, the previous run
#: (``<name>.previous``). The run holds a lock on it (``fcntl.flock``) for its lifetime.
_STAGING = ".{name}.staging-"


@contextmanager
def locked(directory: Path, *, blocking: bool = True) -> Iterator[bool]:
    """Hold an exclusive ``flock`` on ``directory``; yields False if taken and not blocking.

    A lock dies with the process that holds it, so a directory whose lock is free has lost
    the run that locked it (:func:`recover`, :class:`~cenmcc.simulation.pairs.ColumnStore`).
    The directory itself is locked, not a lock file beside it as ``filelock`` makes (with the
    same ``flock`` underneath): a lock file would be one more leftover of a killed run to
    recover, and, inside an output, a file that is neither the run's nor the user's.
    """
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def _recover(destination: Path) -> None:
    """:func:`recover`, with the lock on the parent directory held."""
    prefix = _STAGING.format(name=destination.name)
    for root in destination.parent.iterdir():
        if not root.name.startswith(prefix) or not root.is_dir() or root.is_symlink():
            continue
        with locked(root, blocking=False) as owner_gone:
            if not owner_gone:
                continue  # a run still writing it
            previous = root / f"{destination.name}.previous"
            if previous.is_dir() and not os.path.lexists(destination):
                os.rename(previous, destination)  # killed between the two renames of a swap
            shutil.rmtree(root, ignore_errors=True)


def recover(destination: Path) -> None:
    """Put right what a killed run left next to ``destination``; call before reading it.

    The staging root of a run that no longer holds its lock is removed; if the run was killed
    between the two renames of its swap (the previous run set aside, ``destination`` missing),
    the previous run is first moved back. Staging roots of live runs are left alone, and
    nothing inside ``destination`` is touched.
    """
    destination = Path(destination)
    if not destination.parent.is_dir():
        return
    with locked(destination.parent):
        _recover(destination)


def _carry_over(destination: Path, stage: Path, written: set[str]) -> None:
    """Put in ``stage`` the files and empty folders a user keeps in ``destination``
    (:func:`users_files`).

    Each file is hard-linked (copied where the file system cannot link), so ``destination``
    keeps it until the swap; a file or folder of the user's in the way of one the run wrote is
    refused (:class:`NotReplaceable`), and the run's outputs are discarded.
    """
    _refuse_clashes(destination, written)
    for name in users_files(destination):
        source, target = destination / name, stage / name
        if source.is_dir() and not source.is_symlink():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target, follow_symlinks=False)
        except OSError:
            shutil.copy2(source, target, follow_symlinks=False)


@contextmanager
def staged_directory(
    destination: Path, *, update: bool = False, writes: Iterable[str] = ()
) -> Iterator[Path]:
    """A directory to write a run into, swapped in as ``destination`` when the block succeeds.

    Parameters
    ----------
    destination : path
        The directory the run's outputs belong in, for example ``figures/binary``. It need not
        exist; its parent is created. If it exists it must be replaceable
        (:func:`check_replaceable`).
    update : bool, default False
        Start from a copy of the files the previous run wrote in ``destination``, for a run
        that rewrites only some of them; by default the staging directory starts empty and the
        new run replaces the previous run's files entirely.
    writes : iterable of str
        The files the block will write (paths relative to ``destination``), checked against
        the user's files before the block starts (:func:`check_replaceable`).

    Yields
    ------
    pathlib.Path
        ``<parent>/.<name>.staging-<unique>/<name>``, holding :data:`MARKER`: write every
        output here.

    Raises
    ------
    NotReplaceable
        If ``destination`` is not replaceable, or a file of the user's is in the way of one of
        ``writes``, when the block starts; or either, for the files the block wrote, when it
        ends (then the run's outputs are discarded and ``destination`` is untouched).
    WriteError
        If the block fails to write a file, named by its place in ``destination``.

    Notes
    -----
    What a user keeps in ``destination`` is kept: :data:`MARKER` lists the files and empty
    folders the run wrote, and any other file or empty folder in ``destination`` when the block
    ends, whatever its name, is carried over into the new run (:func:`users_files`), unless it
    is in the way of a file the new run wrote, which is refused. Markers of earlier versions
    of cenmcc list no files: all their files are taken as the run's.

    The staging root is unique to the run and locked (``fcntl.flock``) for its lifetime, so
    :func:`recover` knows a killed run from a live one without looking at process ids. On
    success ``destination`` is renamed into the staging root, the new run renamed in its place
    (SIGINT and SIGTERM are held between the two renames), and the staging root deleted with
    the previous run in it; if the second rename fails, the first is undone. On any exception,
    KeyboardInterrupt included, the staging root is deleted and ``destination`` is untouched.
    A SIGKILL leaves the staging root, which :func:`recover` puts right; ``destination``
    itself always holds one whole run.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> with staged_directory(root / "demo") as stage:
    ...     _ = (stage / "summary.json").write_text("{}")
    >>> sorted(p.name for p in root.iterdir()), sorted(p.name for p in (root / "demo").iterdir())
    (['demo'], ['.cenmcc-output', 'summary.json'])
    """
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    with ExitStack() as held:  # unwound last to first: the root removed, then unlocked
        # No other run recovers or swaps meanwhile, and a signal waits until the root is locked.
        with locked(destination.parent), signals_deferred():
            _recover(destination)
            check_replaceable(destination, writes)
            prefix = _STAGING.format(name=destination.name)
            root = Path(tempfile.mkdtemp(prefix=prefix, dir=destination.parent))
            held.enter_context(locked(root))
            held.callback(shutil.rmtree, root, ignore_errors=True)
        stage = root / destination.name
        if update and destination.is_dir():
            ours = _entries(destination) - set(users_files(destination))  # users': at the end
            ours |= {p.as_posix() for name in ours for p in PurePosixPath(name).parents}

            def aside(directory: str, names: list[str]) -> list[str]:
                where = Path(directory).relative_to(destination)
                return [n for n in names if (where / n).as_posix() not in ours]

            shutil.copytree(destination, stage, ignore=aside)
        else:
            stage.mkdir()
        write_atomic_all({stage / MARKER: _marker_text(destination.name)})
        try:
            yield stage
        except WriteError as err:  # named where the file belongs, not in the staging root
            if not err.path.is_relative_to(stage):
                raise
            raise WriteError(destination / err.path.relative_to(stage), err.reason) from err
        written = _entries(stage)
        write_atomic_all({stage / MARKER: _marker_text(destination.name, written)})
        with locked(destination.parent), signals_deferred():
            check_replaceable(destination)
            _carry_over(destination, stage, written)
            previous = root / f"{destination.name}.previous"
            if destination.exists():
                os.rename(destination, previous)
            try:
                os.rename(stage, destination)
            except BaseException:
                if previous.exists():
                    os.rename(previous, destination)
                raise
