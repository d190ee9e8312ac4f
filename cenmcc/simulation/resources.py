"""Memory and disk a computation may use: what this machine has, checked before any work.

A simulation keeps per matrix only what its exact pair counts need (:mod:`.pairs`): in the
temporary directory, :data:`~cenmcc.simulation.pairs.STORE_BYTES` and
:data:`~cenmcc.simulation.pairs.STORE_BYTES_PER_MEASURE` for each measure; in a worker ranking
a column or counting a pair, :data:`PAIR_COUNT_BYTES` of working memory. :func:`require_run`
checks both before a run starts.
"""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

#: Peak working memory a matrix takes in a worker that ranks a column (the values, their
#: order, the ranks) or counts a pair (two rank arrays, the sort keys, the Fenwick tree's
#: arrays): measured peaks of 40 to 50 bytes, rounded up.
PAIR_COUNT_BYTES = 56


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


def require_run(
    n: int, columns: int, *, what: str, workers: int, jobs: int = -1, table: bool = False
) -> None:
    """Refuse, before any work, a run of ``n`` matrices whose values would not fit here.

    Parameters
    ----------
    n : int
        Matrices.
    columns : int
        Values kept per matrix for the pair counts (the measures, and any a study adds).
    what : str
        The argument as the user wrote it, for the message.
    workers : int
        Pair-count tasks that may run at once on this machine (0 on a remote cluster); at most
        ``jobs`` of them (-1: one per core).
    table : bool
        The caller also keeps every value in memory (``keep_table``).

    Raises
    ------
    ValueError
        If the values would not fit in the temporary directory, or the counting in memory.
    """
    from .pairs import STORE_BYTES, STORE_BYTES_PER_MEASURE

    disk = n * (STORE_BYTES + STORE_BYTES_PER_MEASURE * columns)
    cores = os.cpu_count() or 1
    at_once = min(workers, cores if jobs < 0 else jobs)
    require_disk(disk, what)
    require_memory(n * PAIR_COUNT_BYTES * at_once + (disk if table else 0), what)
