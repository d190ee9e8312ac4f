"""Outputs that are complete or absent, and never replace what a run did not write.

Three guarantees, one module:

- :func:`write_atomic` (and the writers built on it) writes a temporary file in the target
  directory, then renames it, so no single file ever looks complete but is not; a write that
  fails (a full disk) raises :class:`WriteError`, which names the file and the cause.
  :func:`write_atomic_all` does the same for several files at once: all of them or none.
- :func:`staged_directory` gives a run an empty staging directory next to its destination and
  swaps it in only when the run has written everything, so the destination always holds one
  whole run: the previous one after any failure, interrupt or kill, the new one after success.
  Leftovers of a killed run are recovered or removed by :func:`recover`, which every reader of
  an output directory calls first.
- A run replaces only a directory that a run wrote: each output directory holds a marker file,
  :data:`MARKER`, and :func:`check_replaceable` refuses anything else (a directory of the
  user's, a file, a symbolic link, a mount point) before any work starts. The marker lists
  the files the run wrote; a file the user adds to the directory later is carried over into
  the next run.
"""

from __future__ import annotations

import fcntl
import gzip
import io
import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .signals import signals_deferred


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


class WriteError(OSError):
    """An output could not be written: ``cannot write <path>: <reason>``.

    Attributes
    ----------
    path : pathlib.Path
        The file.
    reason : str
        Why, as the system says it (``No space left on device``).
    """

    def __init__(self, path: Path, reason: str):
        super().__init__(f"cannot write {path}: {reason}")
        self.path, self.reason = Path(path), reason


def _temporary_beside(path: Path) -> Path:
    """An empty temporary file next to ``path``, with the mode ``path`` has or would get."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o666 & ~_UMASK
    os.chmod(tmp, mode)  # mkstemp makes it private (0600)
    return Path(tmp)


def write_atomic(path: Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` then rename ``tmp`` to ``path``; remove the temporary on error.

    Raises
    ------
    WriteError
        If the temporary cannot be created, written or renamed (a full disk, a read-only
        directory): ``cannot write <path>: <cause>``. Nothing is left behind.
    """
    return write_atomic_all({Path(path): write})[0]


def write_atomic_all(writes: Mapping[Path, str | Callable[[Path], None]]) -> list[Path]:
    """Write several files, all of them or none (as far as a signal can tell).

    Parameters
    ----------
    writes : mapping of path to str or callable
        Each path's text, or a function ``write(tmp)`` that writes it to the temporary ``tmp``.

    Returns
    -------
    list of pathlib.Path
        The paths written.

    Notes
    -----
    Every file is first written to a temporary beside its path (removed if anything fails or a
    signal interrupts); the temporaries are then renamed over their paths with SIGINT and
    SIGTERM deferred, so an interruption lands before any file is replaced or after all are.
    """
    temporaries: dict[Path, Path] = {}
    try:
        for path, write in writes.items():
            path = Path(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = temporaries[path] = _temporary_beside(path)
                if isinstance(write, str):
                    tmp.write_text(write)
                else:
                    write(tmp)
            except OSError as err:
                raise WriteError(path, err.strerror or str(err)) from err
        with signals_deferred():
            for path, tmp in temporaries.items():
                os.replace(tmp, path)
    finally:
        for tmp in temporaries.values():
            tmp.unlink(missing_ok=True)
    return list(temporaries)


#: Significant digits of every float a run stores (JSON, CSV): the digits a rerun on another
#: processor reproduces. NumPy picks its SIMD kernels (``exp``, ``log``, sums) by processor, so
#: the same run differs between two x86-64 machines in the last bits of float64 (about 16
#: digits); the differences grow where a statistic cancels (a jackknife's standard error, a
#: fitted curve's parameters). Measured between an AMD EPYC (AVX2) and the machine that wrote
#: the committed results: at most 2.3e-11 relative, in the standard errors of the protocol's
#: refitted readings. 10 digits keep that below a unit of the last one stored (1e-9 relative
#: at worst, the tolerance at which paper_checks compares recorded values), and keep more than
#: the 7 digits any published value has. Outputs only: what a run computes and compares in
#: memory is never rounded.
SIGNIFICANT_DIGITS = 10


def stored(value: float) -> float:
    """``value`` as a run stores it: rounded to :data:`SIGNIFICANT_DIGITS` significant digits.

    The rounding is decimal and exact (through the decimal text), so two values that differ
    only beyond the stored digits store the same float, and its shortest text has at most
    :data:`SIGNIFICANT_DIGITS` digits. Non-finite values are returned as they are.

    Examples
    --------
    >>> stored(0.9949348814528318), stored(0.9949348814528316), stored(-3e-300)
    (0.9949348815, 0.9949348815, -3e-300)
    """
    return float(format(value, f".{SIGNIFICANT_DIGITS}g"))


def to_jsonable(obj):
    """Plain-JSON version of ``obj``: NumPy scalars and arrays become Python numbers and lists.

    Floats are rounded as a run stores them (:func:`stored`). Non-finite floats, which strict
    JSON cannot hold, become the strings ``"nan"``, ``"inf"`` and ``"-inf"``, so nothing is
    silently lost.
    """
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, float):
        if not math.isfinite(obj):
            return "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
        return stored(obj)
    return obj


def write_json(path: Path, obj) -> Path:
    """Write ``obj`` as indented strict JSON (:func:`to_jsonable`), atomically."""
    text = json.dumps(to_jsonable(obj), indent=2, allow_nan=False) + "\n"
    return write_atomic(path, lambda tmp: tmp.write_text(text))


def stored_table(table):
    """A copy of the pandas DataFrame ``table`` with every float as a run stores it.

    Float columns, and floats in columns of mixed objects, are rounded by :func:`stored`; the
    figures a run writes plot these values, so a rerun draws the same vectors.
    """
    return table.map(lambda v: stored(v) if isinstance(v, float | np.floating) else v)


def write_table(path: Path, table) -> Path:
    """Write a pandas DataFrame as CSV (gzip-compressed if ``path`` ends in ``.gz``), atomically.

    Floats are written as a run stores them (:func:`stored_table`). The gzip header carries
    no file name and a zero modification time, so rerunning an experiment reproduces the
    compressed file byte for byte.
    """
    table = stored_table(table)
    if not str(path).endswith(".gz"):
        return write_atomic(path, lambda tmp: table.to_csv(tmp, index=False))

    def write(tmp: Path) -> None:
        with (
            tmp.open("wb") as raw,
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed,
            io.TextIOWrapper(packed, encoding="utf-8", newline="") as text,
        ):
            table.to_csv(text, index=False)

    return write_atomic(path, write)


#: Metadata that would make every rerun's file differ (PDF and SVG embed a creation date).
_NO_DATE = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}


def save_figure(fig, path: Path, *, dpi: int = 150) -> Path:
    """Save a matplotlib Figure to ``path`` (format from its suffix), atomically.

    No creation date is embedded, so rerunning an experiment reproduces its files byte for byte.
    """
    path = Path(path)
    fmt = path.suffix[1:]
    return write_atomic(
        path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=dpi, metadata=_NO_DATE.get(fmt))
    )


def save_figures(figures: Mapping, directory: Path, suffixes=(".png", ".pdf")) -> None:
    """Save each matplotlib Figure of ``figures`` (by file name) in every format, then close it.

    ``directory / (name + suffix)`` for each suffix (:func:`save_figure`); a figure's memory is
    released once it is saved.
    """
    import matplotlib.pyplot as plt  # the figures extra, which made the figures

    for name, fig in figures.items():
        for suffix in suffixes:
            save_figure(fig, Path(directory) / f"{name}{suffix}")
        plt.close(fig)


def markdown_table(table, floatfmt: str = ".3g") -> str:
    """A pandas DataFrame as a GitHub Markdown table (numbers formatted with ``floatfmt``)."""

    def cell(value) -> str:
        if isinstance(value, float | np.floating):
            return format(value, floatfmt)
        return str(value)

    header = "| " + " | ".join(map(str, table.columns)) + " |"
    rule = "| " + " | ".join("---" for _ in table.columns) + " |"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *body])


#: The file that marks a directory as a run's outputs (see :func:`check_replaceable`), and
#: lists the files the run wrote (:func:`staged_directory`): the others are the user's.
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


def _is_output(directory: Path) -> bool:
    """Whether ``directory`` holds the marker of an output named like it."""
    return _marker(directory) is not None


def _files(directory: Path) -> set[str]:
    """The files under ``directory`` (relative paths), its marker and temporaries aside."""
    return {
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*")
        if (path.is_file() or path.is_symlink())
        and path.name != MARKER
        and not _is_temporary("", [path.name])
    }


def users_files(directory: Path) -> list[str]:
    """The files a user added to the output ``directory``: those its run did not write.

    Relative paths, sorted; none for a directory that is not an output, or whose marker lists
    no files (written by an earlier version of cenmcc, which did not record them).
    """
    record = _marker(Path(directory)) if Path(directory).is_dir() else None
    if record is None or not isinstance(record.get("files"), list):
        return []
    return sorted(_files(Path(directory)) - set(record["files"]))


def check_replaceable(destination: Path) -> None:
    """Refuse a destination that a run did not write, before any work starts.

    A run may replace ``destination`` when it does not exist, is an empty directory, or is a
    directory holding :data:`MARKER` (written by :func:`staged_directory` into every run),
    and is not a mount point.

    Raises
    ------
    NotReplaceable
        For a mount point (which cannot be renamed), a symbolic link (dangling or not),
        anything that is not a directory, or a non-empty directory without the marker: a
        one-line message that names ``destination``.

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
    elif _is_output(destination) or not any(destination.iterdir()):
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


def _is_temporary(directory: str, names: list[str]) -> list[str]:
    """The half-written files of :func:`write_atomic` among ``names`` (never copied)."""
    return [name for name in names if name.startswith(".") and name.endswith(".tmp")]


@contextmanager
def locked(directory: Path, *, blocking: bool = True) -> Iterator[bool]:
    """Hold an exclusive ``flock`` on ``directory``; yields False if taken and not blocking.

    A lock dies with the process that holds it, so a directory whose lock is free has lost
    the run that locked it (:func:`recover`, :class:`~cenmcc.simulation.pairs.ColumnStore`).
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
    if not destination.is_symlink() and _is_output(destination):  # never a user's files
        for name in _is_temporary(str(destination), [p.name for p in destination.iterdir()]):
            (destination / name).unlink()
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
    the previous run is first moved back. Staging roots of live runs are left alone.
    Temporaries of :func:`write_atomic` in ``destination`` itself, which only a writer killed
    before outputs were staged can have left, are removed if a run wrote ``destination``
    (:data:`MARKER`).
    """
    destination = Path(destination)
    if not destination.parent.is_dir():
        return
    with locked(destination.parent):
        _recover(destination)


def _carry_over(destination: Path, stage: Path, written: set[str]) -> None:
    """Put in ``stage`` the files a user added to ``destination`` (:func:`users_files`).

    Each is hard-linked (copied where the file system cannot link), so ``destination`` keeps
    it until the swap; a file of the user's that has the name of one the run wrote is
    refused (:class:`NotReplaceable`), and the run's outputs are discarded.
    """
    users = users_files(destination)
    for name in users:
        if name in written:
            raise NotReplaceable(
                f"{destination / name} is a file a run did not write, and the new run writes "
                f"one of that name: not replaced (move or rename yours, then rerun)"
            )
    for name in users:
        source, target = destination / name, stage / name
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target, follow_symlinks=False)
        except OSError:
            shutil.copy2(source, target, follow_symlinks=False)


@contextmanager
def staged_directory(destination: Path, *, update: bool = False) -> Iterator[Path]:
    """A directory to write a run into, swapped in as ``destination`` when the block succeeds.

    Parameters
    ----------
    destination : path
        The directory the run's outputs belong in, for example ``figures/binary``. It need not
        exist; its parent is created. If it exists it must be replaceable
        (:func:`check_replaceable`).
    update : bool, default False
        Start from a copy of the files the previous run wrote in ``destination``
        (half-written temporaries left aside), for a run that rewrites only some of them; by
        default the staging directory starts empty and the new run replaces the previous
        run's files entirely.

    Yields
    ------
    pathlib.Path
        ``<parent>/.<name>.staging-<unique>/<name>``, holding :data:`MARKER`: write every
        output here.

    Raises
    ------
    NotReplaceable
        If ``destination`` is not replaceable, when the block starts or when it ends (then
        the run's outputs are discarded and ``destination`` is untouched).
    WriteError
        If the block fails to write a file, named by its place in ``destination``.

    Notes
    -----
    Files a user added to ``destination`` are kept: :data:`MARKER` lists the files the run
    wrote, and any other file in ``destination`` when the block ends is carried over into the
    new run (:func:`users_files`), unless the new run wrote a file of the same name, which
    is refused. Markers of earlier versions of cenmcc list no files: all their files are
    taken as the run's.

    The staging root is unique to the run and locked (``fcntl.flock``) for its lifetime, so
    :func:`recover` knows a killed run from a live one without looking at process ids. On
    success ``destination`` is renamed into the staging root, the new run renamed in its place
    (SIGINT and SIGTERM are held between the two renames), and the staging root deleted with
    the previous run in it. On any exception, KeyboardInterrupt included, the staging root is
    deleted and ``destination`` is untouched. A SIGKILL leaves the staging root, which
    :func:`recover` puts right; ``destination`` itself always holds one whole run.

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
    root = lock = None
    try:
        # No other run recovers or swaps meanwhile, and a signal waits until the root is locked.
        with locked(destination.parent), signals_deferred():
            _recover(destination)
            check_replaceable(destination)
            prefix = _STAGING.format(name=destination.name)
            root = Path(tempfile.mkdtemp(prefix=prefix, dir=destination.parent))
            lock = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
            fcntl.flock(lock, fcntl.LOCK_EX)
        stage = root / destination.name
        if update and destination.is_dir():
            users = set(users_files(destination))  # carried over at the end, as always

            def aside(directory: str, names: list[str]) -> list[str]:
                where = Path(directory).relative_to(destination)
                return _is_temporary(directory, names) + [
                    name for name in names if (where / name).as_posix() in users
                ]

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
        written = _files(stage)
        write_atomic_all({stage / MARKER: _marker_text(destination.name, written)})
        with locked(destination.parent), signals_deferred():
            check_replaceable(destination)
            _carry_over(destination, stage, written)
            if destination.exists():
                os.rename(destination, root / f"{destination.name}.previous")
            os.rename(stage, destination)
    finally:
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)
        if lock is not None:
            os.close(lock)
