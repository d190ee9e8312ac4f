"""Output files written whole, and the same bytes on every rerun.

- :func:`write_atomic` (and every writer here) writes a temporary file beside its target,
  then renames it, so no file ever looks complete but is not; a write that fails (a full disk)
  raises :class:`WriteError`, which names the file and the cause. :func:`write_atomic_all`
  writes several files at once: all of them or none.
- Floats are stored at :data:`SIGNIFICANT_DIGITS` (:func:`stored`), compressed tables and
  figures carry no date, so a rerun on another machine writes the same bytes.

Whole directories of outputs are :mod:`cenmcc.runtime.staging`'s.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import tempfile
from collections.abc import Callable, Mapping
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


def save_figure(fig, path: Path, *, dpi: int = 150, bbox_inches=None) -> Path:
    """Save a matplotlib Figure to ``path`` (format from its suffix), atomically.

    No creation date is embedded, so rerunning an experiment reproduces its files byte for byte.
    ``bbox_inches`` is :meth:`matplotlib.figure.Figure.savefig`'s (``"tight"``: the page fitted
    to what is drawn, for a figure whose layout cannot fit its tick labels).
    """
    path = Path(path)
    fmt = path.suffix[1:]
    metadata = _NO_DATE.get(fmt)
    return write_atomic(
        path,
        lambda tmp: fig.savefig(
            tmp, format=fmt, dpi=dpi, metadata=metadata, bbox_inches=bbox_inches
        ),
    )


#: The formats of every figure a run writes (:func:`save_figures`).
FIGURE_SUFFIXES = (".png", ".pdf")


def save_figures(figures: Mapping, directory: Path, suffixes=FIGURE_SUFFIXES) -> None:
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
