"""Outputs that are complete or absent: atomic files, and directories swapped in as a whole.

Two levels of the same guarantee:

- :func:`write_atomic` (and the writers built on it) writes a temporary file in the target
  directory, then renames it, so no single file ever looks complete but is not;
- :func:`staged_directory` gives a run an empty staging directory next to its destination and
  swaps it in only when the run has written everything, so the destination always holds one
  whole run: the previous one after any failure, interrupt or kill, the new one after success.
  Leftovers of a killed run (its staging directory, or the previous run set aside during a swap)
  are recovered or removed by the next run into the same destination.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def write_atomic(path: Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` then rename ``tmp`` to ``path``; remove the temporary on error."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes it private (0600): give it the usual mode
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def to_jsonable(obj):
    """Plain-JSON version of ``obj``: NumPy scalars and arrays become Python numbers and lists.

    Non-finite floats, which strict JSON cannot hold, become the strings ``"nan"``, ``"inf"`` and
    ``"-inf"``, so nothing is silently lost.
    """
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    return obj


def write_json(path: Path, obj) -> Path:
    """Write ``obj`` as indented strict JSON, atomically."""
    text = json.dumps(to_jsonable(obj), indent=2, allow_nan=False) + "\n"
    return write_atomic(path, lambda tmp: tmp.write_text(text))


def write_table(path: Path, table) -> Path:
    """Write a pandas DataFrame as CSV (gzip-compressed if ``path`` ends in ``.gz``), atomically.

    The gzip header carries no file name and a zero modification time, so rerunning an
    experiment reproduces the compressed file byte for byte.
    """
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


#: Names of a destination's hidden siblings: ``.<name>.staging-<pid>`` holds a run being written
#: (the run's files are in its subdirectory ``<name>``), ``.<name>.previous-<pid>`` the previous
#: run during the swap.
_SIBLING = re.compile(r"\.(?P<name>.+)\.(?P<kind>staging|previous)-(?P<pid>\d+)")


def _is_temporary(directory: str, names: list[str]) -> list[str]:
    """The half-written files of :func:`write_atomic` among ``names`` (never copied)."""
    return [name for name in names if name.startswith(".") and name.endswith(".tmp")]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (then its staging directory may still be in use)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def recover(destination: Path) -> None:
    """Put right what a killed run left next to ``destination``.

    A staging directory of a process that no longer exists is removed. A previous run set aside
    by a swap that was killed halfway is moved back if ``destination`` is missing (the swap
    never completed), and removed otherwise (the swap completed). Directories of live processes
    are left alone. Temporaries of :func:`write_atomic` in ``destination`` itself, which only a
    writer killed before outputs were staged can have left, are removed.
    """
    destination = Path(destination)
    if not destination.parent.is_dir():
        return
    if destination.is_dir():  # half-written files of writers killed before runs were staged
        for name in _is_temporary(str(destination), [p.name for p in destination.iterdir()]):
            (destination / name).unlink()
    for entry in destination.parent.iterdir():
        match = _SIBLING.fullmatch(entry.name)
        if not match or match["name"] != destination.name or _alive(int(match["pid"])):
            continue
        if match["kind"] == "previous" and not destination.exists():
            os.rename(entry, destination)
        else:
            shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends, then deliver them (main thread only).

    For steps that must not be cut in two: the two renames of a swap, the start of a dask
    cluster and its client. A signal that arrives meanwhile is raised again when the block ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = {
        sig: signal.signal(sig, lambda signum, frame: received.append(signum))
        for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in received:
            signal.raise_signal(sig)


@contextmanager
def staged_directory(destination: Path, *, update: bool = False) -> Iterator[Path]:
    """A directory to write a run into, swapped in as ``destination`` when the block succeeds.

    Parameters
    ----------
    destination : path
        The directory the run's outputs belong in, for example ``figures/binary``. It need not
        exist; its parent is created.
    update : bool, default False
        Start from a copy of the files now in ``destination`` (half-written temporaries left
        aside), for a run that rewrites only some of them; by default the staging directory
        starts empty and the new run replaces the old one entirely.

    Yields
    ------
    pathlib.Path
        ``<parent>/.<name>.staging-<pid>/<name>``: write every output here.

    Notes
    -----
    On success the destination is renamed aside to ``.<name>.previous-<pid>``, the staging
    directory renamed in its place (SIGINT and SIGTERM are held between the two renames), and
    the previous run deleted. On any exception, KeyboardInterrupt included, the staging
    directory is deleted and ``destination`` is untouched. A SIGKILL leaves hidden siblings that
    :func:`recover` puts right when the next run starts; ``destination`` itself always holds one
    whole run.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> with staged_directory(root / "demo") as stage:
    ...     _ = (stage / "summary.json").write_text("{}")
    >>> sorted(p.name for p in root.iterdir()), (root / "demo" / "summary.json").exists()
    (['demo'], True)
    """
    destination = Path(destination)
    if destination.exists() and not destination.is_dir():
        raise ValueError(f"output directory {destination} exists and is not a directory")
    destination.parent.mkdir(parents=True, exist_ok=True)
    recover(destination)
    pid = os.getpid()
    root = destination.parent / f".{destination.name}.staging-{pid}"
    previous = destination.parent / f".{destination.name}.previous-{pid}"
    root.mkdir()
    try:
        stage = root / destination.name
        if update and destination.is_dir():
            shutil.copytree(destination, stage, ignore=_is_temporary)
        else:
            stage.mkdir()
        yield stage
        with signals_deferred():
            if destination.exists():
                os.rename(destination, previous)
            os.rename(stage, destination)
        shutil.rmtree(previous, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
