"""Memory and disk a computation may use: what this machine has, checked before any work.

A simulation keeps per matrix only what its exact pair counts need (:mod:`.pairs`): in the
temporary directory, :data:`~cenmcc.simulation.pairs.STORE_BYTES` and
:data:`~cenmcc.simulation.pairs.STORE_BYTES_PER_MEASURE` for each measure; in a worker ranking
a column or counting a pair, :data:`PAIR_COUNT_BYTES` of working memory. :func:`require_simulation`
checks both before a run starts.
"""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

#: Peak working memory a matrix takes in a worker that ranks a column (the values, their
#: order, the ranks) or counts a pair (two rank arrays, the sort keys, the Fenwick tree's
#: arrays): measured at 2·10⁷, 34 bytes to rank and 35 to 44 to count (about 48 where the
#: first column ties, with the sort keys), rounded up.
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


def require_simulation(
    sim, *, what: str, jobs: int = -1, scheduler: str | None = None, table: bool = False
) -> None:
    """Refuse, before any work, a simulation whose per-matrix values would not fit here.

    The run's store holds K and each measure, and the values its studies add for their own
    pair counts (a study's ``pair_columns``, each counted against one more column). Each task
    of the pair counts (:func:`cenmcc.simulation.pairs.count_pairs`: two per column to rank and
    two per pair to count, overall and within K; one for each study column) needs at most
    :data:`PAIR_COUNT_BYTES` a matrix of working memory, and the tasks of one phase run at
    once, at most one per core (or ``jobs``). Large counts are split into more tasks
    (:func:`cenmcc.simulation.pairs.splits`) only as far as the memory available then holds.

    Parameters
    ----------
    sim : Simulation
    what : str
        The argument as the user wrote it, for the message (``"--n 2,000,000"``).
    jobs : int
        Workers on this machine; -1 for one per core.
    scheduler : str, optional
        A remote dask scheduler: the pairs are counted there, not in this machine's memory.
    table : bool
        The caller also keeps every value in memory (``keep_table``).

    Raises
    ------
    ValueError
        If the values would not fit in the temporary directory, or the counting in memory.
    """
    from .pairs import STORE_BYTES, STORE_BYTES_PER_MEASURE

    added = sum(getattr(study, "pair_columns", 0) for study in sim.studies)
    columns = len(sim.resolved_measures) + added
    ranked = {name for pair in sim.resolved_pairs for name in pair}
    phase = max(2 * len(ranked), 2 * len(sim.resolved_pairs), added)  # its most tasks at once
    tasks = 0 if scheduler else phase
    disk = sim.n_matrices * (STORE_BYTES + STORE_BYTES_PER_MEASURE * columns)
    at_once = min(tasks, (os.cpu_count() or 1) if jobs < 0 else jobs)
    require_disk(disk, what)
    require_memory(sim.n_matrices * PAIR_COUNT_BYTES * at_once + (disk if table else 0), what)
