"""Atomic writers: a temporary file in the target directory, then a rename.

An interrupted or failed run therefore never leaves a summary, table or figure that looks
complete but is not.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable
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
    """Write a pandas DataFrame as CSV (gzip-compressed if ``path`` ends in ``.gz``), atomically."""
    compression = "gzip" if str(path).endswith(".gz") else None
    return write_atomic(path, lambda tmp: table.to_csv(tmp, index=False, compression=compression))


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
