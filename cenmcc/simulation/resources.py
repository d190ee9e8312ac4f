"""Memory and disk a run needs, checked against what this machine has before any work.

:func:`require_simulation` (which :func:`cenmcc.simulation.run` calls first) adds up the parts
of a run's peak memory (:func:`simulation_memory`) and its files (:func:`store_bytes`), from
the figures below and each study's own ``footprint``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple

#: Peak working memory a matrix takes in a worker that ranks a column (the values, their
#: order, the ranks) or counts a pair (two rank arrays, the sort keys, the Fenwick tree's
#: arrays): measured at 2·10⁷, 34 bytes to rank and 35 to 44 to count (about 48 where the
#: first column ties, with the sort keys), rounded up.
PAIR_COUNT_BYTES = 56

#: Bytes a run's column store (:class:`~cenmcc.simulation.pairs.ColumnStore`) holds on disk
#: per matrix (fewer than 2**31 matrices): K (int16), then per measure its value (float64)
#: and, once counted, its ranks overall (int32, with their rows, int32, where they are split
#: into bands), within its K (int32) and, for a tolerance, its chained groups (int32).
#: Measured unsplit, with the order by K (int32) that the store then held too and no
#: tolerance: 38 bytes a matrix for 2 measures, 134 for 8.
STORE_BYTES = 2
STORE_BYTES_PER_MEASURE = 8 + 4 + 4 + 4 + 4

#: Memory the plan of a run takes in the main process per chunk (its ``Chunk``, the chunk's
#: two ``SeedSequence`` objects, its place in a batch), held until the run ends: measured with
#: tracemalloc at 2·10⁵ and 10⁶ chunks, 864 to 892 bytes a chunk, rounded up (and 32 to 57 µs
#: a chunk to make, on two cores under a load of 5; 17 µs unloaded).
PLAN_BYTES_PER_CHUNK = 1024

#: Most chunks a run may be cut into: the plan of more takes over 10 GB and minutes before any
#: matrix is drawn (:data:`PLAN_BYTES_PER_CHUNK`).
MAX_CHUNKS = 10**7

#: Numbers of classes assumed of a generator that does not say (it has no ``k_range``):
#: K = 2 to 50. Statistics kept per K (moments, a bootstrap) grow with their number.
DIMENSIONS = 49


class ResourceError(ValueError):
    """A computation that would not fit this machine; ``setting`` is the one to change."""

    def __init__(self, message: str, setting: str = "n_matrices"):
        super().__init__(message)
        self.setting = setting


class Footprint(NamedTuple):
    """A study's memory in a run, in bytes: one of its states (the main process holds many, the
    jackknife's), a worker's while it reduces a chunk, and the setting that lowers them."""

    state: int
    reduce: int
    setting: str


def available_bytes() -> int:
    """Memory available to a new computation: ``MemAvailable`` of /proc/meminfo, in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("/proc/meminfo has no MemAvailable line (Linux 3.14 or later needed)")


def require_memory(nbytes: int, what: str, detail: str = "", setting: str = "n_matrices") -> None:
    """Refuse a computation whose peak memory ``nbytes`` exceeds the memory available.

    Raises
    ------
    ResourceError
        Naming ``what`` asks for it (``"--n 10**12"``), both figures and ``detail``.
    """
    available = available_bytes()
    if nbytes > available:
        raise ResourceError(
            f"{what} needs about {_gib(nbytes)} of memory, more than the {_gib(available)} "
            f"available on this machine{detail}",
            setting,
        )


def number(value: int) -> str:
    """An integer as a message shows it: ``2,000,000``, or ``1.00e+400`` from 10¹⁵ on.

    Examples
    --------
    >>> number(2 * 10**6), number(10**400)
    ('2,000,000', '1.00e+400')
    """
    return f"{value:,}" if abs(value) < 10**15 else f"{Decimal(value):.2e}"


def _gib(nbytes: int) -> str:
    """``nbytes`` for a message: in GiB, or in bytes as a power of ten beyond 2⁷⁰ (any size)."""
    return f"{nbytes / 2**30:,.1f} GiB" if nbytes < 2**70 else f"{Decimal(nbytes):.2e} bytes"


def _number(value: int) -> str:
    """``2,000,000``, or ``1.00e+400`` from 10¹⁵ on."""
    return f"{value:,}" if value < 10**15 else f"{Decimal(value):.2e}"


def dimensions(sim) -> int:
    """How many numbers of classes a run's matrices may have, at most.

    The generator's ``k_range`` says (both ends included); a generator without one is assumed
    to give :data:`DIMENSIONS`. Never more than the run's matrices.
    """
    k_range = getattr(sim.generator, "k_range", None)
    count = k_range[1] - k_range[0] + 1 if k_range is not None else DIMENSIONS
    return max(1, min(count, sim.n_matrices))


def moments_bytes(keys: int, columns: int) -> int:
    """Bytes of :class:`~cenmcc.simulation.streaming.KeyedMoments` of ``columns`` per key."""
    return 8 * keys * (2 + 2 * columns + columns * columns)  # key, n, mean, third, comoment


def store_bytes(sim) -> int:
    """Bytes of a run's per-matrix values: K and each measure, and the values its studies add
    for their own pair counts (a study's ``pair_columns``)."""
    added = sum(getattr(study, "pair_columns", 0) for study in sim.studies)
    columns = len(sim.resolved_measures) + added
    return sim.n_matrices * (STORE_BYTES + STORE_BYTES_PER_MEASURE * columns)


class Part(NamedTuple):
    """One part of a run's memory (:func:`simulation_memory`)."""

    nbytes: int
    what: str
    setting: str


def simulation_memory(
    sim, *, jobs: int = -1, scheduler: str | None = None, table: bool | None = None
) -> list[Part]:
    """The parts of a run's peak memory here, in bytes.

    The plan (:data:`PLAN_BYTES_PER_CHUNK` a chunk); the ``2 G + 2`` states the jackknife holds
    at once (:func:`cenmcc.simulation.jackknife.jackknife`), each an agreement state (moments per
    number of classes, :func:`dimensions`, and the histograms) and each study's (its
    ``footprint``), and a study's working memory in each worker; the pair counts, at most
    :data:`PAIR_COUNT_BYTES` a matrix per task of one phase, one task per core (or ``jobs``);
    with ``table``, every value.
    """
    added = sum(getattr(study, "pair_columns", 0) for study in sim.studies)
    cores = (os.cpu_count() or 1) if jobs < 0 else jobs
    ranked = {name for pair in sim.resolved_pairs for name in pair}
    phase = max(2 * len(ranked), 2 * len(sim.resolved_pairs), added)  # its most tasks at once
    workers = 0 if scheduler else min(cores, sim.n_tasks)
    held = 2 * sim.jackknife_groups + 2
    keys = dimensions(sim)
    measures = len(sim.resolved_measures)
    agreement = moments_bytes(keys, measures) + 8 * keys * measures  # and the undefined counts
    agreement += 8 * sim.histogram_bins**2 * len(sim.resolved_density_pairs)
    kept = sim.keep_table if table is None else table
    parts = [
        Part(sim.n_chunks * PLAN_BYTES_PER_CHUNK, "the plan of its chunks", "chunk_size"),
        Part(held * agreement, f"{held} agreement states held by the jackknife", "chunk_size"),
        Part(
            sim.n_matrices * PAIR_COUNT_BYTES * (0 if scheduler else min(phase, cores)),
            "counting the pairs",
            "n_matrices",
        ),
        Part(
            store_bytes(sim) if kept else 0,
            "the table",
            "n_matrices",
        ),
    ]
    for study in sim.studies:
        footprint = getattr(study, "footprint", None)
        if footprint is not None:
            state, reduce, setting = footprint(sim)
            parts.append(
                Part(
                    held * state + workers * reduce,
                    f"the states of study {study.name!r} ({held} held at once by the "
                    f"jackknife, and a chunk's in each of {workers} workers)",
                    setting,
                )
            )
    return parts


def require_simulation(
    sim,
    *,
    what: str | None = None,
    jobs: int = -1,
    scheduler: str | None = None,
    table: bool | None = None,
) -> None:
    """Refuse, before any work, a simulation that would not fit here.

    In this order: its values beyond the temporary directory's free space (:func:`store_bytes`),
    more than :data:`MAX_CHUNKS` chunks, then the sum of :func:`simulation_memory` beyond the
    memory available. On a remote dask ``scheduler`` the workers' parts are not counted here.

    Parameters
    ----------
    sim : Simulation
    what : str, optional
        What asks for the run, for the message (``"--n 2,000,000"``).
    jobs : int
        Workers on this machine; -1 for one per core.
    scheduler : str, optional
        A remote dask scheduler.
    table : bool, optional
        The caller also keeps every value in memory; by default ``sim.keep_table``.

    Raises
    ------
    ResourceError
        A ValueError naming the sizes, the largest part and the setting to change.
    """
    what = what or f"a run of {_number(sim.n_matrices)} matrices"
    where = tempfile.gettempdir()
    free = shutil.disk_usage(where).free
    if store_bytes(sim) > free:
        raise ResourceError(
            f"{what} needs about {_gib(store_bytes(sim))} of disk in {where}, more than the "
            f"{_gib(free)} free there (set TMPDIR to a larger disk)"
        )
    if sim.n_chunks > MAX_CHUNKS:
        raise ResourceError(
            f"{what} in chunks of {_number(sim.chunk_size)} makes {_number(sim.n_chunks)} "
            f"chunks, more than the {_number(MAX_CHUNKS)} a run may plan: raise chunk_size",
            "chunk_size",
        )
    parts = simulation_memory(sim, jobs=jobs, scheduler=scheduler, table=table)
    largest = max(parts)
    require_memory(
        sum(p.nbytes for p in parts),
        what,
        f", {_gib(largest.nbytes)} of it for {largest.what}: "
        f"{'raise' if largest.setting == 'chunk_size' else 'lower'} {largest.setting}",
        largest.setting,
    )
