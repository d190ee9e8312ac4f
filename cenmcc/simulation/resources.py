"""Memory a computation may use: what this machine has available, checked before any work."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path


def available_bytes() -> int:
    """Memory available to a new computation: ``MemAvailable`` of /proc/meminfo, in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("/proc/meminfo has no MemAvailable line (Linux 3.14 or later needed)")


def require_memory(nbytes: int, what: str) -> None:
    """Refuse, before any work starts, a computation whose memory estimate does not fit.

    Parameters
    ----------
    nbytes : int
        The estimated peak memory of the computation, in bytes.
    what : str
        What asks for it, as the user wrote it (``"--n 1000000000000"``); the message names it.

    Raises
    ------
    ValueError
        If ``nbytes`` exceeds the memory now available (``MemAvailable``), with both figures.
    """
    available = available_bytes()
    if nbytes > available:
        raise ValueError(
            f"{what} needs about {_gib(nbytes)} of memory, more than the {_gib(available)} "
            "available on this machine"
        )


def _gib(nbytes: int) -> str:
    """``nbytes`` for a message: in GiB, or in bytes as a power of ten beyond 2⁷⁰ (any size)."""
    return f"{nbytes / 2**30:,.1f} GiB" if nbytes < 2**70 else f"{Decimal(nbytes):.2e} bytes"


def require_disk(nbytes: int, what: str, directory=None) -> None:
    """Refuse, before any work, a run whose files would not fit in the temporary directory.

    Raises
    ------
    ValueError
        If ``nbytes`` exceeds the free space of ``directory`` (default: the temporary
        directory, where a run's per-matrix values go), with both figures.
    """
    import shutil
    import tempfile

    where = directory or tempfile.gettempdir()
    free = shutil.disk_usage(where).free
    if nbytes > free:
        raise ValueError(
            f"{what} needs about {_gib(nbytes)} of disk in {where}, more than the {_gib(free)} "
            "free there (set TMPDIR to a larger disk)"
        )
