"""One chunk in a worker: its matrices drawn, checked, measured and reduced.

:func:`measure_batch` measures the chunks of a batch in order (:func:`measure_chunk`) and
merges their states (:func:`merger`); per matrix it keeps only K and each measure's value, for
the run's column store. The values planned exact are computed from their exact form
(:func:`cenmcc.ties.tie_values`) in place of their floats, at about the floats' cost.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple

import numpy as np

import cenmcc
from cenmcc.ties import CEN_MAX_SIEVE, tie_values

from . import agreement
from .measures import describe, evaluate, user_call
from .pairs import GROUP
from .plan import Batch, Chunk, Simulation
from .studies import ChunkData

#: The one warning of a run whose generator returned non-integer counts (allowed, but most
#: likely counts that were never drawn: probabilities or expected counts).
FRACTIONAL = (
    "the generator returned non-integer counts (fractional floats): they are measured as they "
    "are, but confusion matrices usually hold counts; draw them (rng.multinomial, "
    "rng.binomial) if these were probabilities or expected counts. Float counts have no exact "
    "ties and are slower"
)


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
        study_call(
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
    merge = merger(batch.chunks[0].simulation)
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


def merger(sim: Simulation) -> Callable[[tuple, tuple], tuple]:
    """How two runs of chunks merge: the agreement states, and each study's states by it."""

    def merge(a: tuple, b: tuple) -> tuple:
        studies = zip(sim.studies, a[1:], b[1:], strict=True)
        return (a[0].merge(b[0]), *(study_call(s, "merge", x, y) for s, x, y in studies))

    return merge


def study_call(study, method: str, *args):
    """``study.<method>(*args)``, an error naming the study and the method if it fails."""
    return user_call(f"study {study.name!r}: {method} failed", getattr(study, method), *args)
