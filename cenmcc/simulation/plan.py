"""A simulation and its plan: what to draw and measure, cut into chunks and batches of them.

A :class:`Simulation` names a generator, how many matrices to draw, the measures and optional
studies. Its run draws ``chunk_size`` matrices per chunk (:class:`Chunk`), chunk j from child j
of ``numpy.random.SeedSequence(seed)``, and hands the workers batches of consecutive chunks
(:class:`Batch`, :data:`MAX_TASKS` at most), which depend on the number of chunks only, never
on the workers. Ties follow :attr:`Simulation.ties` (:data:`TIE_RULES`). A simulation reports
the memory and disk its run needs (:meth:`Simulation.footprint`, from each part's own figure)
and refuses a run that would not fit (:meth:`Simulation.require_resources`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

import cenmcc
from cenmcc._validation import check_real
from cenmcc.ties import METRICS as EXACT_METRICS

from . import agreement
from .measures import resolve
from .pairs import GROUP, PAIR_COUNT_BYTES, ColumnStore
from .parallel import chunk_sizes, spawn_seeds
from .resources import ResourceError, gib, number, require_disk, require_memory
from .studies import check_study

#: Groups of whole chunks of the jackknife (fewer when a run has fewer tasks).
JACKKNIFE_GROUPS = 100

#: Tasks a run is cut into at most: each task is a batch of consecutive chunks, measured and
#: merged in its worker, so the main process receives and merges a few hundred states
#: whatever n (the batches depend on the number of chunks only, never on the workers).
MAX_TASKS = 256

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

#: Default relative tolerance of the tolerance rule (:attr:`Simulation.tie_rtol`), about 90
#: units of roundoff (2⁻⁵³): above the rounding by which one value computed along two paths
#: differs (every measure of :data:`cenmcc.MEASURES` of C and of 2C, 3C, 5C, 7C, 1000C, K = 2 to
#: 30, 10⁵ random matrices: at most 7.6e-16 relative, CEN's), and below the gaps between distinct
#: values met in practice (the smallest relative gap between two distinct tMCC values among the
#: papers' 200,000 random matrices is 8.6e-13, which a tolerance of 1e-12 merged into a tie).
TIE_RTOL = 1e-14

#: The rules a simulation may decide its ties by (:attr:`Simulation.ties`).
TIES = ("exact", "tolerance", "float")

#: What each rule of a measure means (written into every summary).
TIE_RULES = {
    "exact": (
        "values equal exactly when the exact values are: MCC, CEN (within one K) and accuracy "
        "of integer counts computed from their exact reduced values (cenmcc.ties.tie_values), "
        "so that equal values have equal bits, as cenmcc.tie_ranks decides; distinct values are "
        "ordered exactly unless closer than the bound of those floats (counted in 'undecided', "
        "expected 0). CEN of different K, overall, are compared as these floats"
    ),
    "tolerance": (
        "values tie within the relative tolerance rtol, chained as cenmcc.pair_counts(rtol=) "
        "chains them: sorted values split into groups where consecutive u, v differ by more "
        "than rtol * max(|u|, |v|), over the matrices counted together (overall, or one K)"
    ),
    "float": "values tie when they are equal as float64 (rounding decides)",
}


@dataclasses.dataclass(frozen=True)
class Simulation:
    """A simulation: a generator of confusion matrices, the measures and the studies to run.

    Attributes
    ----------
    generator : callable
        ``generator(rng, size)`` returns ``size`` confusion matrices drawn with the
        ``numpy.random.Generator`` ``rng``: one array of shape ``(size, K, K)``, or an iterable
        of arrays ``(m_i, K_i, K_i)`` with ``Σ m_i = size`` (one per number of classes, say; a
        generator that yields them keeps one stack at a time in the worker's memory).
        Non-negative integer (or finite float) counts, rows = true class. The matrices must
        be independent draws: one random draw shared by the matrices of a call (a chunk's),
        such as one set of class proportions for all of them, correlates them, and every
        standard error of the run is then too small
        (:func:`~cenmcc.simulation.validation.validate` finds it). It runs in the
        workers, so it must be picklable (any function, a closure or a lambda included: loky
        and dask pickle with cloudpickle).
    n_matrices : int
        Number of matrices.
    measures : tuple
        Names of :data:`cenmcc.MEASURES` (``"cen"``, ``"mcc"``, ``"cohen_kappa"``, ...) or
        :class:`cenmcc.Measure` objects of the user's own functions of a read-only ndarray of
        counts ``(m, K, K)`` (the contract: :class:`cenmcc.Measure`).
        The measures the studies need are added.
    studies : tuple
        Studies that add their own statistics (:mod:`cenmcc.simulation.studies`), as
        :class:`~cenmcc.simulation.studies.KRatio`, the papers' tMCC against k·CEN.
    pairs : tuple of (str, str), optional
        The pairs of measures whose agreement is summarized; every pair by default.
    density_pairs : tuple of (str, str), optional
        The pairs whose 2-D histograms are kept for density figures; by default the first pair
        of measures with finite bounds.
    seed : int
        Seed of the run.
    chunk_size : int
        Matrices per chunk (a chunk is one task; its matrices live only in its worker).
    replicates : int
        Chunks whose own pair statistics are counted, for the standard errors of the
        statistics of exact pair counts.
    histogram_bins : int
        Cells per axis of the density histograms.
    keep_table : bool
        Keep every measure of every matrix (``Result.table``).
    ties : {"exact", "tolerance", "float"}
        How the pair counts (consistency, discriminancy, τ_b) decide that two matrices tie on
        a measure (:data:`TIE_RULES`). ``"exact"``: exactly for ``"mcc"``, ``"cen"`` and
        ``"accuracy"`` of integer counts (their values are then computed from the exact ones,
        :func:`cenmcc.ties.tie_values`, within a few units in the last place of those of
        :func:`cenmcc.measures`), within ``tie_rtol`` for every other measure and the
        studies' columns, and for those three where some chunk's counts are floats or (CEN)
        totals exceed ``cenmcc.ties.CEN_MAX_SIEVE / 2``. ``"tolerance"``: within ``tie_rtol``
        for every measure. ``"float"``: equal floats, for every measure. The summary's
        ``ties`` states the rule each measure got.
    tie_rtol : float, default :data:`TIE_RTOL`
        The relative tolerance of the tolerance rule, as ``cenmcc.pair_counts(rtol=)``.
    """

    generator: Callable
    n_matrices: int
    measures: tuple = ("cen", "mcc")
    studies: tuple = ()
    pairs: tuple | None = None
    density_pairs: tuple | None = None
    seed: int = 0
    chunk_size: int = 10_000
    replicates: int = agreement.REPLICATES
    histogram_bins: int = 100
    keep_table: bool = False
    ties: str = "exact"
    tie_rtol: float = TIE_RTOL

    def __post_init__(self):
        integers = {
            "n_matrices": (self.n_matrices, 1),
            "seed": (self.seed, 0),
            "chunk_size": (self.chunk_size, 1),
            "replicates": (self.replicates, 0),
            "histogram_bins": (self.histogram_bins, 1),
        }
        for name, (value, low) in integers.items():
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise TypeError(f"{name} must be an integer, got {value!r}")
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if not isinstance(self.ties, str) or self.ties not in TIES:
            raise ValueError(f"ties must be one of {TIES}, got {self.ties!r}")
        check_real(self.tie_rtol, name="tie_rtol", low=0)
        if not callable(self.generator):
            raise TypeError(f"generator must be callable, got {self.generator!r}")
        if isinstance(self.measures, str | cenmcc.Measure):
            raise TypeError("measures must be a tuple of names or cenmcc.Measure objects")
        for study in self.studies:
            check_study(study)
        names = [s.name for s in self.studies]
        if len(set(names)) < len(names):
            raise ValueError(f"studies must have distinct names, got {names}")
        measures = self.resolved_measures
        known = {m.name for m in measures}
        for study in self.studies:
            for column in getattr(study, "added_columns", ()):
                if column == GROUP or column in known:
                    other, fix = (
                        ("the number of classes", "the study must name it otherwise")
                        if column == GROUP
                        else ("the measure", "give the measure another name")
                    )
                    raise ValueError(
                        f"study {study.name!r} adds a column {column!r} that would overwrite "
                        f"{other} {column!r}: {fix}"
                    )
        for field in ("pairs", "density_pairs"):
            for pair in getattr(self, field) or ():
                if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= known:
                    raise ValueError(
                        f"{field}: {pair!r} is not a pair of two of the measures {sorted(known)}"
                    )
        by_name = {m.name: m for m in measures}
        for pair in self.density_pairs or ():
            unbounded = [n for n in pair if not agreement.has_finite_bounds(by_name[n])]
            if unbounded:
                raise ValueError(
                    f"density_pairs: {unbounded} have no finite bounds for a histogram's grid"
                )

    @property
    def resolved_measures(self) -> tuple[cenmcc.Measure, ...]:
        """The measures as :class:`cenmcc.Measure`, the studies' added after the simulation's."""
        asked = list(self.measures)
        for study in self.studies:
            asked += [m for m in study.measures if _name(m) not in map(_name, asked)]
        return resolve(asked)

    @property
    def resolved_pairs(self) -> tuple[tuple[str, str], ...]:
        """The pairs whose agreement is summarized."""
        if self.pairs is not None:
            return tuple(tuple(p) for p in self.pairs)
        return agreement.all_pairs(self.resolved_measures)

    @property
    def resolved_density_pairs(self) -> tuple[tuple[str, str], ...]:
        if self.density_pairs is not None:
            return tuple(tuple(p) for p in self.density_pairs)
        by_name = {m.name: m for m in self.resolved_measures}
        bounded = [
            p
            for p in self.resolved_pairs
            if all(agreement.has_finite_bounds(by_name[n]) for n in p)
        ]
        return tuple(bounded[:1])

    @property
    def planned_ties(self) -> dict[str, str]:
        """The tie rule of each measure (:data:`TIE_RULES`), before the counts are seen: a
        measure planned ``"exact"`` takes the tolerance rule if some chunk cannot be exact."""
        if self.ties != "exact":
            return {m.name: self.ties for m in self.resolved_measures}
        return {
            m.name: "exact"
            if m.name in EXACT_METRICS and cenmcc.MEASURES[m.name] is m
            else "tolerance"
            for m in self.resolved_measures
        }

    def same_direction(self, f: str, g: str) -> bool:
        by_name = {m.name: m for m in self.resolved_measures}
        return by_name[f].greater_is_better == by_name[g].greater_is_better

    @property
    def n_chunks(self) -> int:
        """Chunks of the run (found without planning them)."""
        return -(-self.n_matrices // self.chunk_size)

    @property
    def _per_task(self) -> int:
        """Chunks in each task (batch) but the last."""
        return -(-self.n_chunks // MAX_TASKS)

    @property
    def n_tasks(self) -> int:
        """Tasks (batches) of the run, at most :data:`MAX_TASKS`."""
        return -(-self.n_chunks // self._per_task)

    @property
    def jackknife_groups(self) -> int:
        """Groups of tasks of the jackknife, at most :data:`JACKKNIFE_GROUPS`."""
        return min(self.n_tasks, JACKKNIFE_GROUPS)

    @property
    def dimensions(self) -> int:
        """How many numbers of classes the run's matrices may have, at most.

        The generator's ``k_range`` says (both ends included); a generator without one is
        assumed to give :data:`DIMENSIONS`. Never more than the run's matrices.
        """
        k_range = getattr(self.generator, "k_range", None)
        count = k_range[1] - k_range[0] + 1 if k_range is not None else DIMENSIONS
        return max(1, min(count, self.n_matrices))

    @property
    def _pair_columns(self) -> int:
        """The per-matrix values its studies add for their own pair counts (``pair_columns``)."""
        return sum(getattr(study, "pair_columns", 0) for study in self.studies)

    @property
    def disk_bytes(self) -> int:
        """Bytes of the run's per-matrix values on disk (:meth:`ColumnStore.disk_bytes`): K and
        each measure, and the values its studies add for their own pair counts."""
        return ColumnStore.disk_bytes(
            self.n_matrices, len(self.resolved_measures) + self._pair_columns
        )

    def footprint(
        self, *, jobs: int = -1, scheduler: str | None = None, table: bool | None = None
    ) -> list[Part]:
        """The parts of the run's peak memory here, in bytes.

        The plan (:data:`PLAN_BYTES_PER_CHUNK` a chunk); the ``2 G + 2`` states the jackknife
        holds at once (:func:`cenmcc.simulation.jackknife.jackknife`), each an agreement state
        (:func:`cenmcc.simulation.agreement.state_bytes`) and each study's (its ``footprint``),
        and a study's working memory in each worker; the pair counts, at most
        :data:`~cenmcc.simulation.pairs.PAIR_COUNT_BYTES` a matrix per task of one phase, one
        task per core (or ``jobs``); with ``table`` (by default :attr:`keep_table`), every
        value (:attr:`disk_bytes`).
        """
        cores = (os.cpu_count() or 1) if jobs < 0 else jobs
        ranked = {name for pair in self.resolved_pairs for name in pair}
        # the most tasks of one phase at once
        phase = max(2 * len(ranked), 2 * len(self.resolved_pairs), self._pair_columns)
        workers = 0 if scheduler else min(cores, self.n_tasks)
        held = 2 * self.jackknife_groups + 2
        kept = self.keep_table if table is None else table
        parts = [
            Part(self.n_chunks * PLAN_BYTES_PER_CHUNK, "the plan of its chunks", "chunk_size"),
            Part(
                held * agreement.state_bytes(self),
                f"{held} agreement states held by the jackknife",
                "chunk_size",
            ),
            Part(
                self.n_matrices * PAIR_COUNT_BYTES * (0 if scheduler else min(phase, cores)),
                "counting the pairs",
                "n_matrices",
            ),
            Part(self.disk_bytes if kept else 0, "the table", "n_matrices"),
        ]
        for study in self.studies:
            footprint = getattr(study, "footprint", None)
            if footprint is not None:
                state, reduce, setting = footprint(self)
                parts.append(
                    Part(
                        held * state + workers * reduce,
                        f"the states of study {study.name!r} ({held} held at once by the "
                        f"jackknife, and a chunk's in each of {workers} workers)",
                        setting,
                    )
                )
        return parts

    def require_resources(
        self,
        *,
        what: str | None = None,
        jobs: int = -1,
        scheduler: str | None = None,
        table: bool | None = None,
    ) -> None:
        """Refuse, before any work, a run that would not fit here.

        In this order: its values beyond the temporary directory's free space
        (:attr:`disk_bytes`), more than :data:`MAX_CHUNKS` chunks, then the sum of its
        :meth:`footprint` beyond the memory available. On a remote dask ``scheduler`` the
        workers' parts are not counted here.

        Parameters
        ----------
        what : str, optional
            What asks for the run, for the message (``"--n 2,000,000"``).
        jobs : int
            Workers on this machine; -1 for one per core.
        scheduler : str, optional
            A remote dask scheduler.
        table : bool, optional
            The caller also keeps every value in memory; by default :attr:`keep_table`.

        Raises
        ------
        cenmcc.simulation.resources.ResourceError
            A ValueError naming the sizes, the largest part and the setting to change.
        """
        what = what or f"a run of {number(self.n_matrices)} matrices"
        require_disk(self.disk_bytes, what)
        if self.n_chunks > MAX_CHUNKS:
            raise ResourceError(
                f"{what} in chunks of {number(self.chunk_size)} makes {number(self.n_chunks)} "
                f"chunks, more than the {number(MAX_CHUNKS)} a run may plan: raise chunk_size",
                "chunk_size",
            )
        parts = self.footprint(jobs=jobs, scheduler=scheduler, table=table)
        largest = max(parts)
        require_memory(
            sum(p.nbytes for p in parts),
            what,
            f", {gib(largest.nbytes)} of it for {largest.what}: "
            f"{'raise' if largest.setting == 'chunk_size' else 'lower'} {largest.setting}",
            largest.setting,
        )

    def batches(self) -> list[Batch]:
        """The tasks of a run: consecutive chunks, at most :data:`MAX_TASKS` batches of them."""
        chunks, per = self.chunks(), self._per_task
        return [Batch(i // per, tuple(chunks[i : i + per])) for i in range(0, len(chunks), per)]

    def chunks(self) -> list[Chunk]:
        """The tasks of a run: chunk j draws from child j of ``SeedSequence(seed)``.

        Chunk j's studies draw from child j of child ``n_chunks`` (the child after the
        chunks'), so they never overlap a chunk's matrices. The first ``replicates`` whole
        chunks are replicates.
        """
        n = self.n_chunks
        seeds = spawn_seeds(self.seed, n + 1)
        studies = seeds[-1].spawn(n)
        sizes = chunk_sizes(self.n_matrices, self.chunk_size)
        full = sum(s == self.chunk_size for s in sizes)
        return [
            Chunk(self, j, sizes[j], seeds[j], studies[j], j < min(self.replicates, full))
            for j in range(n)
        ]


def _name(measure) -> str:
    return measure if isinstance(measure, str) else getattr(measure, "name", repr(measure))


class Chunk(NamedTuple):
    """One task: chunk ``index`` of ``size`` matrices of ``simulation``, and its streams."""

    simulation: Simulation
    index: int
    size: int
    seed: np.random.SeedSequence
    study_seed: np.random.SeedSequence
    replicate: bool


class Batch(NamedTuple):
    """One task: consecutive chunks, measured in order and merged in the worker."""

    index: int
    chunks: tuple

    @property
    def size(self) -> int:
        return sum(c.size for c in self.chunks)


class Part(NamedTuple):
    """One part of a run's memory (:meth:`Simulation.footprint`)."""

    nbytes: int
    what: str
    setting: str
