"""A simulation and its run: chunks drawn and measured in workers, merged, then summarized.

:func:`run` draws ``chunk_size`` matrices per chunk, chunk j from child j of
``numpy.random.SeedSequence(seed)``, measures and reduces each chunk in a worker (batches of
consecutive chunks, :data:`MAX_TASKS` at most) and merges the states along a tree fixed by
their number, so the bits never depend on the workers, backend or scheduler. Per matrix only K
and each measure's value are kept, on disk (:class:`~cenmcc.simulation.pairs.ColumnStore`), for
the exact pair counts. Ties follow :attr:`Simulation.ties` (:data:`TIE_RULES`); the values
planned exact are computed from their exact form (:func:`cenmcc.ties.tie_values`) in place of
their floats, at about the floats' cost.

Standard errors (:data:`STANDARD_ERRORS`): a smooth function of means is jackknifed over
:data:`JACKKNIFE_GROUPS` groups of whole chunks (Quenouille 1956, Tukey 1958, Kott 2001); a
statistic of pair counts from its spread over replicate chunks (Schmeiser 1982), or, within K
in a run of few chunks, from the U-statistic variance (Hoeffding 1948; :data:`WITHIN_K_ERRORS`).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import socket
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple, TypeVar

import numpy as np

import cenmcc
from cenmcc._validation import check_real
from cenmcc.ties import CEN_MAX_SIEVE, VALUE_BOUNDS, tie_values
from cenmcc.ties import METRICS as EXACT_METRICS

from . import agreement, resources
from .measures import describe, evaluate, resolve, undefined_rule, user_call
from .pairs import GROUP, ColumnStore, TieRule, count_pairs
from .parallel import CpuMeter, chunk_sizes, iter_tasks, spawn_seeds
from .result import Result
from .streaming import OrderedReducer
from .studies import ChunkData, check_study

T = TypeVar("T")

#: Groups of whole chunks of the jackknife (fewer when a run has fewer tasks).
JACKKNIFE_GROUPS = 100

#: Tasks a run is cut into at most: each task is a batch of consecutive chunks, measured and
#: merged in its worker, so the main process receives and merges a few hundred states
#: whatever n (the batches depend on the number of chunks only, never on the workers).
MAX_TASKS = 256

#: How each kind of standard error is obtained (written into every summary).
STANDARD_ERRORS = {
    "jackknife": (
        "delete-a-group jackknife over groups of whole chunks (each chunk an independent "
        "replicate from its own seed): the statistic recomputed on the run with each group left "
        "out, SE = sqrt((G - 1)/G * sum (theta_(g) - mean)^2); Quenouille (1956), Tukey (1958), "
        "Kott (2001). For means, SDs, correlations and mean ratios, k refitted included"
    ),
    "replicates": (
        "batch means over replicate chunks: the statistic counted in each of the first "
        "replicate chunks (independent, chunk_size matrices each), SD over them times "
        "sqrt(chunk_size / n); Schmeiser (1982). For the statistics of exact pair counts "
        "(consistency, discriminancy, Kendall's tau_b), U-statistics whose SD falls as 1/sqrt(n)"
    ),
}

#: How the within-K pair statistics' SEs are obtained in a run of fewer whole chunks than
#: :attr:`Simulation.replicates`, whose replicates are strided parts of its chunks (written into
#: its summary as ``standard_errors["within_k"]``; :func:`agreement.within_k_errors`).
WITHIN_K_ERRORS = (
    "U-statistic variance from each matrix's within-K pair counts in the replicates (the "
    "strided parts of the run's few chunks): the statistic's delta-method kernel h over pairs "
    "of matrices of equal K, Var = 4 sigma_1^2 / n with sigma_1^2 = E[h(X1,X2) h(X1,X3)] "
    "estimated without bias over distinct triples; Hoeffding (1948). For the within-K "
    "consistency, discriminancy and Kendall's tau_b, whose spread over small parts carries a "
    "second-order term that overstates the run's SE"
)

#: Default relative tolerance of the tolerance rule (:attr:`Simulation.tie_rtol`), about 90
#: units of roundoff (2⁻⁵³): above the rounding by which one value computed along two paths
#: differs (every measure of :data:`cenmcc.MEASURES` of C and of 2C, 3C, 5C, 7C, 1000C, K = 2 to
#: 30, 10⁵ random matrices: at most 7.6e-16 relative, CEN's), and below the gaps between distinct
#: values met in practice (the smallest relative gap between two distinct tMCC values among the
#: papers' 200,000 random matrices is 8.6e-13, which a tolerance of 1e-12 merged into a tie).
TIE_RTOL = 1e-14

#: The one warning of a run whose generator returned non-integer counts (allowed, but most
#: likely counts that were never drawn: probabilities or expected counts).
FRACTIONAL = (
    "the generator returned non-integer counts (fractional floats): they are measured as they "
    "are, but confusion matrices usually hold counts; draw them (rng.multinomial, "
    "rng.binomial) if these were probabilities or expected counts. Float counts have no exact "
    "ties and are slower"
)

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
        Non-negative integer (or finite float) counts, rows = true class. It runs in the
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


# --------------------------------------------------------------------------------------------
# One chunk, in a worker


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


class ChunkResult(NamedTuple):
    """What one chunk (or a batch of chunks, merged) leaves.

    Attributes
    ----------
    index : int
    process : tuple of (str, int)
        The host and process id it ran in.
    columns : dict of str to ndarray
        Per matrix: K and every measure.
    states : tuple
        The agreement state (:class:`cenmcc.simulation.agreement.State`) and each study's.
    warned : tuple of str
        What the user's measure functions warned about, and :data:`FRACTIONAL` if the
        generator returned non-integer counts.
    inexact : dict of str to str
        The measures planned ``"exact"`` that some stack could not give exactly, and why.
    """

    index: int
    process: tuple
    columns: dict
    states: tuple
    warned: tuple
    inexact: dict


def _stacks(chunk: Chunk) -> Iterator[np.ndarray]:
    """The generator's matrices for one chunk, a stack at a time, checked: each problem names
    the chunk. A generator that yields its stacks lazily keeps one of them in memory at a time.
    """
    where = f"generator output of chunk {chunk.index}"
    failed = f"the generator failed on chunk {chunk.index}"
    rng = np.random.default_rng(chunk.seed)
    out = user_call(failed, chunk.simulation.generator, rng, chunk.size)
    if isinstance(out, np.ndarray):
        out = [out]
    elif isinstance(out, str | bytes | Mapping) or not isinstance(out, Iterable) or _is_table(out):
        raise TypeError(
            f"{where}: got {describe(out)}, expected an array of shape ({chunk.size}, K, K) or "
            "an iterable of arrays (m, K, K)"
        )
    stacks, total = user_call(failed, iter, out), 0
    end = object()
    for i in itertools.count():
        stack = user_call(failed, next, stacks, end)  # a lazy generator runs here
        if stack is end:
            break
        if (
            _is_table(stack)
            or np.ma.isMaskedArray(stack)
            or not isinstance(stack, np.ndarray | list | tuple)
        ):
            raise TypeError(
                f"{where}: stack {i} is a {describe(stack)}, expected an array (m, K, K)"
            )
        stack = np.asarray(stack)
        if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] < 2:
            hint = (
                " (a list of 2-D matrices? stack them: np.stack(list))" if stack.ndim == 2 else ""
            )
            raise ValueError(
                f"{where}: stack {i} has shape {stack.shape}, expected (m, K, K) with K >= 2" + hint
            )
        if stack.shape[0] == 0:
            continue
        total += stack.shape[0]
        if total > chunk.size:
            raise ValueError(f"{where}: more than the {chunk.size} matrices expected")
        yield stack
    if total != chunk.size:
        raise ValueError(f"{where}: {total} matrices, expected {chunk.size}")


def _is_table(obj) -> bool:
    """A pandas object (it would be read as its values, columns and index lost)."""
    return type(obj).__module__.split(".")[0] == "pandas"


def measure_chunk(chunk: Chunk) -> ChunkResult:
    """Draw one chunk, measure it and reduce it (runs in a worker).

    Raises
    ------
    ValueError, TypeError
        If the generator's output is not a stack of valid confusion matrices of the expected
        number, or a user's measure returns other than one finite value per matrix, naming
        the chunk, the stack and the problem.
    """
    sim = chunk.simulation
    measures = sim.resolved_measures
    ks: list[np.ndarray] = []
    parts: dict[str, list[np.ndarray]] = {m.name: [] for m in measures}
    undefined_by_k: dict[int, dict[str, int]] = {}
    warned: list[str] = []
    planned, inexact = sim.planned_ties, {}
    for i, stack in enumerate(_stacks(chunk)):
        where = f"generator output of chunk {chunk.index}, stack {i}"
        try:
            counts = cenmcc.Counts(stack, copy=False)  # measured here, before the next stack
            counts.total  # noqa: B018 - a matrix without samples is refused here, named
        except (ValueError, TypeError) as err:
            err.add_note(where)
            raise
        if stack.dtype.kind == "f" and not np.array_equal(stack, np.round(stack)):
            warned.append(FRACTIONAL)
        exact = _exact_names(counts, planned, inexact)
        values, undefined, user_warnings = evaluate(
            tuple(m for m in measures if m.name not in exact), counts, where
        )
        for name in exact:
            values[name], undefined[name] = tie_values(counts, name, count_undefined=True)
        values = {m.name: values[m.name] for m in measures}
        K = counts.n_classes
        ks.append(np.full(len(stack), K, dtype=np.int16))
        for name, v in values.items():
            parts[name].append(v)
        per_k = undefined_by_k.setdefault(K, {})
        for name, count in undefined.items():
            per_k[name] = per_k.get(name, 0) + count
        warned += [f"a measure warned: {message}" for message in user_warnings]
    K = np.concatenate(ks)
    values = {name: np.concatenate(v) for name, v in parts.items()}
    rtol = {
        name: sim.tie_rtol if rule == "tolerance" or name in inexact else 0.0
        for name, rule in planned.items()
    }
    state = agreement.reduce(sim, K, values, undefined_by_k, chunk.replicate, rtol)
    rngs = [np.random.default_rng(s) for s in chunk.study_seed.spawn(len(sim.studies))]
    study_states = tuple(
        _study_call(
            study, "reduce", ChunkData(chunk.index, sim.n_matrices, K, values, rng, chunk.replicate)
        )
        for study, rng in zip(sim.studies, rngs, strict=True)
    )
    return ChunkResult(
        chunk.index,
        (socket.gethostname(), os.getpid()),
        {GROUP: K, **values},
        (state, *study_states),
        tuple(dict.fromkeys(warned)),
        inexact,
    )


def _exact_names(counts: cenmcc.Counts, planned: dict, inexact: dict) -> list[str]:
    """The measures planned ``"exact"`` that this stack's values are computed for from their
    exact values (:func:`cenmcc.ties.tie_values`, instead of their floats: not both); for the
    others, say in ``inexact`` why they cannot be."""
    names = []
    for name, rule in planned.items():
        if rule != "exact" or name in inexact:
            continue
        if not np.issubdtype(counts.C.dtype, np.integer):
            inexact[name] = f"float counts ({counts.C.dtype}) have no exact ties"
        elif name == "cen" and 2 * int(counts.total.max()) > CEN_MAX_SIEVE:
            inexact[name] = f"a total above {CEN_MAX_SIEVE // 2} (cenmcc.ties.CEN_MAX_SIEVE / 2)"
        else:
            names.append(name)
    return names


def measure_batch(batch: Batch) -> ChunkResult:
    """Measure the chunks of a batch in order and merge them, left to right (in a worker)."""
    merge = _merger(batch.chunks[0].simulation)
    columns: dict[str, list[np.ndarray]] = {}
    state, warned, inexact = None, {}, {}
    for chunk in batch.chunks:
        result = measure_chunk(chunk)
        state = result.states if state is None else merge(state, result.states)
        for name, values in result.columns.items():
            columns.setdefault(name, []).append(values)
        warned |= dict.fromkeys(result.warned)
        inexact = result.inexact | inexact  # the first reason
    return ChunkResult(
        batch.index,
        result.process,
        {name: np.concatenate(parts) for name, parts in columns.items()},
        state,
        tuple(warned),
        inexact,
    )


def _study_call(study, method: str, *args):
    """``study.<method>(*args)``, an error naming the study and the method if it fails."""
    return user_call(f"study {study.name!r}: {method} failed", getattr(study, method), *args)


# --------------------------------------------------------------------------------------------
# The run


def run(
    sim: Simulation,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> Result:
    """Run a simulation: draw, measure and reduce every chunk in parallel, then summarize.

    Parameters
    ----------
    sim : Simulation
    jobs, backend, scheduler, quiet
        As in :func:`cenmcc.simulation.parallel.iter_tasks`; none of them changes the result.
        ``quiet`` turns off the progress bar (drawn on a terminal only).

    Returns
    -------
    Result

    Warns
    -----
    cenmcc.UndefinedMetricWarning
        Once per measure that was 0/0 for some matrices, with their number (in this process;
        the workers never print).

    Raises
    ------
    cenmcc.simulation.resources.ResourceError
        Before any work, if the run would not fit this machine: too many chunks, its values
        beyond the temporary directory's free space, or its memory estimate beyond the memory
        available (:func:`cenmcc.simulation.resources.require_simulation`).
    cenmcc.simulation.parallel.ParallelError
        If a chunk fails (the message names it: a bad generator output, a measure returning
        bad values, a study failing) or a worker dies.
    """
    resources.require_simulation(sim, jobs=jobs, scheduler=scheduler)
    meter = CpuMeter()
    parallel = {
        "jobs": jobs,
        "backend": backend,
        "scheduler": scheduler,
        "quiet": quiet,
        "meter": meter,
    }
    start, cpu = time.perf_counter(), time.process_time()
    tasks = sim.batches()
    groups = _jackknife_groups(len(tasks))
    merge = _merger(sim)
    reducers = [OrderedReducer(len(members), merge) for members in groups]
    where = {j: (g, i) for g, members in enumerate(groups) for i, j in enumerate(members)}
    starts = np.cumsum([0, *(t.size for t in tasks)])
    processes: set = set()
    warned: dict[str, int] = {}
    inexact: dict[str, str] = {}
    store = ColumnStore(sim.n_matrices)
    try:
        by_value = [sim.generator, *(m.function for m in sim.resolved_measures), *sim.studies]
        for index, result in iter_tasks(
            measure_batch,
            tasks,
            desc="chunks",
            unit="matrices",
            sizes=[t.size for t in tasks],
            by_value=by_value,
            **parallel,
        ):
            store.write(int(starts[index]), result.columns)
            g, i = where[index]
            reducers[g].add(i, result.states)
            processes.add(result.process)
            for message in result.warned:
                warned[message] = warned.get(message, 0) + 1
            inexact = result.inexact | inexact
        chunk_seconds = time.perf_counter() - start
        context = _Context(sim, store, parallel, inexact)
        summary, states = _summarize(sim, [r.result() for r in reducers], context)
        table = None
        if sim.keep_table:  # K and the measures (not the values studies derived from them)
            names = [GROUP, *(m.name for m in sim.resolved_measures)]
            table = {name: np.array(store.read(name)) for name in names}
    finally:
        store.close()
    _warn(sim, summary, warned)
    main_cpu = time.process_time() - cpu
    in_process = {pid for _, pid in processes} == {os.getpid()} or backend == "threading"
    serial = main_cpu - meter.seconds if in_process else main_cpu
    timing = {
        "computation_seconds": time.perf_counter() - start,
        "chunk_seconds": chunk_seconds,
        "main_process_cpu_seconds": main_cpu,
        "task_cpu_seconds": meter.seconds,
        # The CPU the main process spent besides the tasks, over all the run's CPU.
        "serial_fraction": serial / (serial + meter.seconds) if serial + meter.seconds else 0.0,
        "jobs": jobs,
        "backend": backend,
    }
    return Result(sim, summary, states, table, tuple(sorted(processes)), timing)


def _merger(sim: Simulation) -> Callable[[tuple, tuple], tuple]:
    """How two runs of chunks merge: the agreement states, and each study's states by it."""

    def merge(a: tuple, b: tuple) -> tuple:
        studies = zip(sim.studies, a[1:], b[1:], strict=True)
        return (a[0].merge(b[0]), *(_study_call(s, "merge", x, y) for s, x, y in studies))

    return merge


def _jackknife_groups(n_tasks: int) -> list[list[int]]:
    """Task indices in :data:`JACKKNIFE_GROUPS` groups of consecutive tasks (fewer if fewer)."""
    g = min(n_tasks, JACKKNIFE_GROUPS)
    members: list[list[int]] = [[] for _ in range(g)]
    for j in range(n_tasks):
        members[j * g // n_tasks].append(j)
    return members


class _Context:
    """What a study's summary can ask of the finished run (:class:`studies.RunContext`).

    ``inexact``: the measures planned ``"exact"`` that take the tolerance rule, and why.
    """

    def __init__(self, sim: Simulation, store: ColumnStore, parallel: dict, inexact: dict):
        self.simulation, self._store, self._parallel = sim, store, parallel
        self.inexact = inexact
        self.rules = {
            name: "tolerance" if name in inexact else rule
            for name, rule in sim.planned_ties.items()
        }
        self._ties = {name: self._tie_rule(rule, name) for name, rule in self.rules.items()}

    def _tie_rule(self, rule: str, name: str | None = None) -> TieRule:
        if rule == "exact":
            return TieRule(bound=VALUE_BOUNDS[name])
        return TieRule(rtol=self.simulation.tie_rtol if rule == "tolerance" else 0.0)

    def column(self, name: str, rows: slice | None = None) -> np.ndarray:
        return self._store.read(name, rows)

    def count_pairs(self, columns: dict, pairs: list) -> dict:
        """Pair counts of the columns a study derives, tied by the run's rule for other
        measures (within the tolerance, but with ``ties="float"``)."""
        taken = sorted({GROUP, *(m.name for m in self.simulation.resolved_measures)} & {*columns})
        if taken:
            raise ValueError(
                f"a study's columns {taken} would overwrite the run's columns of the same names "
                "(K and the measures): name them otherwise, and list them in the study's "
                "added_columns so that a clash is refused before the run"
            )
        for name, values in columns.items():
            self._store.add(name, values)
        rule = self._tie_rule("float" if self.simulation.ties == "float" else "tolerance")
        ties = {**dict.fromkeys(columns, rule), **self._ties}
        counted = count_pairs(self._store, pairs, by_group=False, ties=ties, **self._parallel)
        return {pair: c.overall for pair, c in counted.items()}

    def count_measure_pairs(self) -> dict:
        omit = [m.name for m in self.simulation.resolved_measures if m.omits]
        return count_pairs(
            self._store,
            self.simulation.resolved_pairs,
            ties=self._ties,
            omit=omit,
            **self._parallel,
        )

    def ties_summary(self) -> dict:
        """The rule each measure's ties were decided by, for the summary."""
        sim = self.simulation
        return {
            "rule": sim.ties,
            "rtol": sim.tie_rtol,
            "measures": self.rules,
            "study_columns": "float" if sim.ties == "float" else "tolerance",
            "not_exact": dict(self.inexact),
            "undecided": {
                name: self._store.undecided.get(name, 0)
                for name, rule in self.rules.items()
                if rule == "exact"
            },
            "rules": {rule: TIE_RULES[rule] for rule in dict.fromkeys(self.rules.values())},
        }


def _summarize(sim: Simulation, groups: list[tuple], context: _Context) -> tuple[dict, tuple]:
    """The summary of a run from the merged states of its jackknife groups."""

    def statistics(s: tuple) -> dict:
        """Every jackknifed statistic: the agreement's and each study's."""
        return {
            "agreement": agreement.statistics(sim, s[0]),
            "studies": {
                study.name: study.statistics(s[i], context)
                for i, study in enumerate(sim.studies, start=1)
            },
        }

    total, jackknifed = jackknife(statistics, groups, _merger(sim))
    subgroups = total[0].subgroup_states()
    if subgroups:  # too few tasks: the moments' jackknife over strided parts of every chunk
        _, jackknifed["agreement"] = jackknife(
            lambda state: agreement.statistics(sim, state), subgroups, agreement.State.merge
        )
    summary: dict = {
        "n_matrices": sim.n_matrices,
        "seed": sim.seed,
        "chunk_size": sim.chunk_size,
        "n_chunks": sim.n_chunks,
        "orientation": (
            "pair statistics compare the measures oriented so that higher is better (lower-is-"
            "better measures negated): positive correlations, a tau_b above 0 or a consistency "
            "above 1/2 mean the measures agree on which matrices are better"
        ),
    }
    counted = context.count_measure_pairs()
    summary["ties"] = {}  # once the studies have counted theirs too
    summary |= _nested_merge(jackknifed["agreement"], agreement.summarize(sim, total[0], counted))
    summary["studies"] = {
        study.name: {
            **jackknifed.get("studies", {}).get(study.name, {}),
            **_study_call(study, "summarize", total[i], context),
        }
        for i, study in enumerate(sim.studies, start=1)
    }
    summary["ties"] = context.ties_summary()
    summary["standard_errors"] = {
        **STANDARD_ERRORS,
        "jackknife_groups": len(groups),
        "moment_jackknife_groups": len(subgroups) or len(groups),
        "replicates": len(total[0].replicates),
        "replicate_size": sim.chunk_size // agreement.replicate_splits(sim),
        "not_honest": _dishonest(sim, len(groups), len(subgroups), len(total[0].replicates)),
    }
    if agreement.replicate_splits(sim) > 1:
        summary["standard_errors"]["within_k"] = WITHIN_K_ERRORS
    return _plain(summary), total


def _dishonest(sim: Simulation, groups: int, subgroups: int, replicates: int) -> dict:
    """The standard errors of the run that cannot be honest, each with the reason."""
    out = {}
    few = agreement.MIN_JACKKNIFE_GROUPS
    if max(groups, subgroups) < few:
        out["moments"] = (
            f"{max(groups, subgroups)} jackknife groups (fewer than {few}): a run of "
            f"{sim.n_matrices:,} matrices in chunks of {sim.chunk_size:,}"
        )
    if sim.studies and groups < few:
        out["studies"] = (
            f"the studies' statistics are jackknifed over {groups} groups of whole tasks "
            f"(fewer than {few}): use a chunk size of at most {sim.n_matrices // few:,}"
        )
    if replicates < few:
        out["pairs"] = (
            f"{replicates} replicates of the pair statistics (fewer than {few}): use more "
            f"matrices, a smaller chunk size, or more replicates (now {sim.replicates})"
        )
    return out


def jackknife(
    statistics: Callable[[T], dict], groups: list[T], merge: Callable[[T, T], T]
) -> tuple[T, dict]:
    """The merge of ``groups`` and ``statistics`` of it, each value with its jackknife SE.

    The run without group g is the merge of the groups before it (merged left to right, as
    the run is) with those after it (merged right to left). Those after are merged as g goes
    down, and each run without a group is measured and dropped at once: the process holds the
    groups, their prefix merges and two more states, not every run without a group.

    With g groups left out in turn, ``SE = sqrt((g - 1)/g Σ (θ_(i) - θ̄)²)`` over the groups
    whose statistic is finite (in the order of the groups); NaN with fewer than two groups, or
    where the run's value is NaN. ``statistics`` returns a nested dict of numbers; so does the
    result, with ``<name>_se`` next to each ``<name>``.

    Returns
    -------
    total : T
        The merge of every group, left to right.
    dict
        ``statistics(total)``, with the SEs.
    """
    prefix = [None]
    for state in groups:
        prefix.append(state if prefix[-1] is None else merge(prefix[-1], state))
    total = prefix.pop()
    replicates: list = [None] * len(groups) if len(groups) >= 2 else []
    suffix = None
    for g in reversed(range(len(replicates))):
        left = prefix.pop()
        without = left if suffix is None else suffix if left is None else merge(left, suffix)
        replicates[g] = _flatten(statistics(without))
        if g:
            suffix = groups[g] if suffix is None else merge(groups[g], suffix)
    out = {}
    for path, value in _flatten(statistics(total)).items():
        theta = np.array([r.get(path, math.nan) for r in replicates], dtype=float)
        theta = theta[np.isfinite(theta)]
        g = theta.size
        se = _root_sum_squares(theta - theta.mean(), (g - 1) / g) if g >= 2 else math.nan
        out[path] = value
        out[(*path[:-1], f"{path[-1]}_se")] = se if math.isfinite(value) else math.nan
    return total, _unflatten(out)


def _root_sum_squares(dev: np.ndarray, factor: float) -> float:
    """``sqrt(factor Σ dev²)``, the deviations scaled by a power of two near the largest so that
    their squares neither overflow nor underflow (the bits of the unscaled formula wherever it
    does neither)."""
    exponent = int(np.frexp(np.max(np.abs(dev), initial=0.0))[1])
    scaled = float(np.sum(np.ldexp(dev, -exponent) ** 2))
    return math.ldexp(math.sqrt(factor * scaled), exponent)


def _flatten(tree: dict, path: tuple = ()) -> dict:
    out = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out |= _flatten(value, (*path, key))
        else:
            out[(*path, key)] = float(value)
    return out


def _unflatten(flat: dict) -> dict:
    out: dict = {}
    for path, value in flat.items():
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    return out


def _nested_merge(a: dict, b: dict) -> dict:
    """``a`` and ``b`` merged key by key, recursively (b's leaves win)."""
    out = dict(a)
    for key, value in b.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _nested_merge(out[key], value)
        else:
            out[key] = value
    return out


def _plain(tree):
    """Keys as strings in order, NumPy scalars as Python numbers (a JSON-able summary)."""
    if isinstance(tree, dict):
        return {str(k): _plain(v) for k, v in tree.items()}
    if isinstance(tree, list | tuple):
        return [_plain(v) for v in tree]
    if isinstance(tree, np.generic):
        return tree.item()
    return tree


def _warn(sim: Simulation, summary: dict, warned: dict[str, int]) -> None:
    """One warning per measure that was 0/0 somewhere, and per message of a user's measure."""
    for m in sim.resolved_measures:
        count = summary["measures"][m.name]["undefined"]
        if count:
            warnings.warn(
                f"{m.label} was undefined (0/0) for {count:,} of {sim.n_matrices:,} matrices, "
                f"{undefined_rule(m)}; the summary counts them per K "
                f"(measures.{m.name}.by_k)",
                cenmcc.UndefinedMetricWarning,
                stacklevel=3,
            )
    dishonest = summary["standard_errors"]["not_honest"]
    if dishonest:
        warnings.warn(
            "standard errors that are not honest (summary standard_errors.not_honest): "
            + "; ".join(f"{what}: {why}" for what, why in dishonest.items()),
            UserWarning,
            stacklevel=3,
        )
    undecided = {n: c for n, c in summary["ties"]["undecided"].items() if c}
    if undecided:
        warnings.warn(
            "ties: neighbouring values closer than the proven bound of their exact floats, "
            f"whose order is not certain: {undecided} (summary ties.undecided)",
            UserWarning,
            stacklevel=3,
        )
    for message, chunks in warned.items():
        warnings.warn(f"{message} (in {chunks} chunk(s))", UserWarning, stacklevel=3)
