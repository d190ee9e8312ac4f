"""The benchmark's measurements: the kernels, the chunks, the experiments and the scale table."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

import cenmcc

from .. import baselines, process_usage
from ..paths import REPO_ROOT
from ..registry import BY_COMMAND, EXPERIMENTS, TIMING
from .settings import (
    COMBINED,
    EIGHT_MEASURES,
    FLOOR,
    MEMORY_PASS,
    PEERS,
    SHARED,
    THROUGHPUT_CHUNKS,
    THROUGHPUT_MEASURES,
)


def random_counts(n: int, K: int, seed: int = 0) -> np.ndarray:
    """A stack of ``n`` random ``K x K`` integer count matrices, entries uniform in [0, 999]."""
    return np.random.default_rng(seed).integers(0, 1000, size=(n, K, K))


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    """Median CPU time of ``fn()`` over ``repeats`` calls, after one warm-up call.

    The kernels are single-threaded NumPy, so the CPU time of this process is their cost, and
    unlike wall time it does not count the time other processes of a shared machine take.
    """
    fn()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return float(np.median(times))


def _log_cells(cells: np.ndarray) -> np.ndarray:
    """One natural logarithm of each of ``cells`` (log 0 = -inf is fine here): NumPy casts the
    integer counts to float64 and writes a new array, as ``np.log(C)`` does."""
    with np.errstate(divide="ignore"):
        return np.log(cells)


def _shared(C: np.ndarray):
    """The three metrics of a stack validated and summed once (``cenmcc.Counts``)."""
    m = cenmcc.Counts(C)
    return cenmcc.cen(m), cenmcc.mcc(m), cenmcc.accuracy(m)


def kernel_implementations(C: np.ndarray) -> dict[str, tuple[Callable[[], object], str]]:
    """The timed callables on one whole stack, each with the name of its own floor.

    The floor of the issue's targets (:data:`FLOOR`) is one ``np.log`` over the K(K-1)
    off-diagonal cells of each matrix (gathered beforehand into a contiguous int64 array; the
    gathering is not timed) plus one memory pass (:data:`MEMORY_PASS`, ``C.sum`` over each
    matrix). It is the own floor of CEN and of every combination with it; the other metrics'
    and ``Counts`` validation's own floor is the memory pass alone.
    """
    K = C.shape[-1]
    off_diagonal = C.reshape(len(C), K * K)[:, ~np.eye(K, dtype=bool).ravel()]
    weighted = C.astype(np.float64) * 0.5  # float counts: the logarithm path of cen
    named = ["cen", "mcc", "accuracy"]
    return {
        FLOOR: (lambda: (_log_cells(off_diagonal), C.sum(axis=(-2, -1))), FLOOR),
        MEMORY_PASS: (lambda: C.sum(axis=(-2, -1)), MEMORY_PASS),
        COMBINED: (lambda: (cenmcc.cen(C), cenmcc.mcc(C), cenmcc.accuracy(C)), FLOOR),
        SHARED: (lambda: _shared(C), FLOOR),
        "cenmcc: measures(C, [cen, mcc, accuracy])": (lambda: cenmcc.measures(C, named), FLOOR),
        "cenmcc: cen": (lambda: cenmcc.cen(C), FLOOR),
        "cenmcc: cen (float counts)": (lambda: cenmcc.cen(weighted), FLOOR),
        "cenmcc: mcc": (lambda: cenmcc.mcc(C), MEMORY_PASS),
        "cenmcc: accuracy": (lambda: cenmcc.accuracy(C), MEMORY_PASS),
        "cenmcc: tmcc": (lambda: cenmcc.tmcc(C), MEMORY_PASS),
        "cenmcc: Counts validation": (lambda: cenmcc.Counts(C), MEMORY_PASS),
        "cenmcc: Counts validation, copy=False": (
            lambda: cenmcc.Counts(C, copy=False),
            MEMORY_PASS,
        ),
        "straightforward NumPy: cen + mcc + accuracy": (
            lambda: baselines.straightforward_numpy(C),
            FLOOR,
        ),
    }


def measure_kernels(sizes: list[int], cells: int, repeats: int, seed: int = 0) -> pd.DataFrame:
    """Throughput of every implementation for each K on stacks of about ``cells`` cells.

    Each row has its ratio to :data:`FLOOR` (``ratio_to_floor``), and to its own floor
    (``own_floor``, ``ratio_to_own_floor``: see :func:`kernel_implementations`; the peers'
    own floor is :data:`FLOOR`), both measured in the same run.
    """
    rows = []
    for K in sizes:
        n = max(cells // (K * K), 1)
        C = random_counts(n, K, seed)
        timings = {
            name: (median_seconds(fn, repeats), n, own)
            for name, (fn, own) in kernel_implementations(C).items()
        }
        for label, module, fn, size in PEERS:
            if baselines.peer_available(module):
                sub = C[: min(size, n)]
                timings[f"{label} (subsample of {len(sub)}, scaled)"] = (
                    median_seconds(lambda fn=fn, sub=sub: fn(sub), 1),
                    len(sub),
                    FLOOR,
                )
        floor_rate = n / timings[FLOOR][0]
        combined_rate = n / timings[COMBINED][0]
        for name, (seconds, count, own) in timings.items():
            rate = count / seconds
            rows.append(
                {
                    "K": K,
                    "implementation": name,
                    "matrices": count,
                    "seconds": seconds,
                    "matrices_per_second": rate,
                    "ratio_to_floor": floor_rate / rate,
                    "own_floor": own,
                    "ratio_to_own_floor": n / timings[own][0] / rate,
                    "cenmcc_combined_speedup": combined_rate / rate,
                }
            )
    return pd.DataFrame(rows)


def computation_seconds(out: Path, command: str) -> float:
    """The computation time (no start-up, figures or tables) a run recorded in its timing.json."""
    timing = Path(out) / BY_COMMAND[command].folder / TIMING
    return float(json.loads(timing.read_text())["computation_seconds"])


def run_measured(
    args: list[str], scratch: Path, module: str = "experiments"
) -> process_usage.Usage:
    """``python -m MODULE ARGS --out SCRATCH --quiet`` in a fresh process, measured."""
    usage = process_usage.measure(
        ["-m", module, *args, "--out", str(scratch), "--quiet"], cwd=REPO_ROOT
    )
    if usage.returncode:
        raise RuntimeError(
            f"`python -m {module} {' '.join(args)}` failed with status {usage.returncode}"
        )
    return usage


def experiment_commands() -> list[tuple[str, list[str]]]:
    """The experiment runs to time: each that ``all`` runs at its defaults, one larger, ``all``."""
    runs = [(e.command, [e.command]) for e in EXPERIMENTS if e.in_all]
    larger = ("random-matrices, 2,000,000 (memory)", ["random-matrices", "--n", "2000000"])
    return [*runs, larger, ("all", ["all"])]


def measure_experiments() -> pd.DataFrame:
    """Wall time and peak memory of each experiment command, outputs in a scratch directory.

    The scratch directory is removed however the benchmark ends (SIGINT and SIGTERM included:
    ``python -m experiments`` turns both into an exception).
    """
    rows = []
    with tempfile.TemporaryDirectory(prefix="cenmcc-benchmark-") as scratch:
        for label, args in experiment_commands():
            usage = run_measured(args, Path(scratch))
            rows.append(
                {
                    "experiment": label,
                    "wall_seconds": usage.wall_seconds,
                    "compute_seconds": computation_seconds(Path(scratch), args[0])
                    if args[0] in BY_COMMAND
                    else None,
                    "peak_memory_mib": usage.peak_mib,
                }
            )
    return pd.DataFrame(rows)


def measure_chunks(n_chunks: int = THROUGHPUT_CHUNKS, repeats: int = 3) -> pd.DataFrame:
    """CPU time of a chunk of the papers' generator, its parts, and their floors, in this process.

    The chunks are those of a run (chunk 100 on, past the replicate chunks, which count their
    own pairs too), measured as a worker measures them (:func:`measure_chunk`): drawing,
    validating and measuring CEN, MCC and tMCC, and reducing to the run's statistics. Beside
    them, on the same cells: the draws alone, the measures alone, and the floors, one memory
    pass (``sum``), one ``np.log`` of every cell, NumPy's bounded integers with one scalar
    bound (the cost of drawing that many integers) and with a bound per cell (what
    :func:`~cenmcc.simulation.generators.uniform_integers` replaces).

    Returns
    -------
    pandas.DataFrame
        One row per part: ``part``, ``ms_per_chunk`` (median over ``repeats`` passes over the
        chunks, each part timed on one chunk's matrices at a time, as a worker holds them),
        ``matrices_per_second`` (on one core) and ``ratio_to_chunk``.
    """
    from cenmcc.simulation import PaperGenerator, Simulation
    from cenmcc.simulation.chunks import measure_chunk

    size = 10_000
    sim = Simulation(PaperGenerator(), (100 + n_chunks) * size, measures=THROUGHPUT_MEASURES)
    chunks = sim.chunks()[100:]
    generator = sim.generator
    rng = np.random.default_rng(0)
    parts = {
        "chunk: draw, measure CEN, MCC and tMCC, reduce": lambda c, _: measure_chunk(c),
        "draw (papers' generator)": lambda c, _: list(
            generator(np.random.default_rng(c.seed), size)
        ),
        "measure CEN, MCC and tMCC (one Counts a K)": lambda _, stacks: [
            cenmcc.measures(s, THROUGHPUT_MEASURES) for s in stacks
        ],
        "floor: one memory pass": lambda _, stacks: [s.sum() for s in stacks],
        "floor: np.log of every cell": lambda _, stacks: [_log_cells(s) for s in stacks],
        "floor: bounded integers, one scalar bound": lambda _, stacks: [
            rng.integers(1, 1000, size=s.shape) for s in stacks
        ],
        "NumPy's bounded integers, a bound per matrix": lambda _, stacks: [
            rng.integers(1, rng.integers(2, 1000, size=(len(s), 1, 1)), size=s.shape)
            for s in stacks
        ],
    }
    times: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(repeats):
        seconds = dict.fromkeys(parts, 0.0)
        for chunk in chunks:  # one chunk's matrices at a time, as in a worker
            stacks = list(generator(np.random.default_rng(chunk.seed), size))
            for name, part in parts.items():
                start = time.process_time()
                part(chunk, stacks)
                seconds[name] += time.process_time() - start
        for name in parts:
            times[name].append(seconds[name])
    rows = []
    for name, values in times.items():
        ms = float(np.median(values)) / n_chunks * 1e3
        rows.append({"part": name, "ms_per_chunk": ms, "matrices_per_second": size / ms * 1e3})
    table = pd.DataFrame(rows)
    table["ratio_to_chunk"] = table["ms_per_chunk"] / table["ms_per_chunk"].iloc[0]
    return table


def jobs_series(cores: int) -> list[int]:
    """1, 2, 4, ... up to ``cores``, and ``cores`` itself.

    Examples
    --------
    >>> jobs_series(6)
    [1, 2, 4, 6]
    """
    series = [2**i for i in range(cores.bit_length()) if 2**i <= cores]
    return series if series[-1] == cores else [*series, cores]


def measure_scale(
    sizes: list[int], jobs_sizes: list[int], jobs: list[int], extra: tuple[str, ...] = ()
) -> pd.DataFrame:
    """``random-matrices`` at each of ``sizes`` (all cores), then at each of ``jobs_sizes``
    for each number of workers in ``jobs``.

    Each run is a fresh process writing into a scratch directory: its wall time, the time of
    its computation alone (from its ``timing.json``), the peak resident memory of its
    process tree, workers included, and a digest of the statistics it wrote, so that a
    table shows whether the same seed gave the same bits for every number of workers.
    ``extra`` is passed to every run (``--resamples 10``).

    Returns
    -------
    pandas.DataFrame
        One row per run: ``series`` ("size" or "jobs"), ``n``, ``jobs``, ``wall_seconds``,
        ``computation_seconds``, ``peak_memory_mib``, ``matrices_per_second`` (of the
        computation), ``serial_fraction`` (the main process's share of the run's CPU time),
        ``amdahl_speedup_16`` (what that share allows on 16 cores) and ``statistics_sha256``
        (the first 12 hexadecimal digits of the SHA-256 of its ``summary.json`` without the
        command that made it).
    """
    runs = [("size", n, -1) for n in sizes]
    runs += [("jobs", n, j) for n in jobs_sizes for j in jobs]
    rows = []
    with tempfile.TemporaryDirectory(prefix="cenmcc-scale-") as scratch:
        for series, n, j in runs:
            args = ["random-matrices", "--n", str(n), "--jobs", str(j), *extra]
            usage = run_measured(args, Path(scratch))
            folder = Path(scratch) / BY_COMMAND["random-matrices"].folder
            timing = json.loads((folder / TIMING).read_text())
            summary = json.loads((folder / "summary.json").read_text())
            del summary["run"]  # the command and its arguments, --jobs among them
            statistics = json.dumps(summary, sort_keys=True).encode()
            compute, serial = timing["computation_seconds"], timing["details"]["serial_fraction"]
            rows.append(
                {
                    "series": series,
                    "n": n,
                    "jobs": j if j > 0 else os.cpu_count(),
                    "wall_seconds": usage.wall_seconds,
                    "computation_seconds": compute,
                    "peak_memory_mib": usage.peak_mib,
                    "matrices_per_second": n / compute,
                    "serial_fraction": serial,
                    "amdahl_speedup_16": amdahl(serial, 16),
                    "statistics_sha256": hashlib.sha256(statistics).hexdigest()[:12],
                }
            )
            # A line a run: a long table leaves what it measured if it is stopped.
            print(f"{' '.join(args)}: {usage.wall_seconds:.1f} s", flush=True)
    return pd.DataFrame(rows)


def measure_measures(n: int) -> pd.DataFrame:
    """``python -m cenmcc.simulation simulate`` with CEN and MCC, then eight measures, at ``n``.

    Each run is a fresh process (all cores, no figures): its wall time and peak memory, and
    the ratio of each wall time to the first.
    """
    rows = []
    with tempfile.TemporaryDirectory(prefix="cenmcc-measures-") as scratch:
        for measures in ("cen,mcc", EIGHT_MEASURES):
            args = ["simulate", "--n", str(n), "--measures", measures, "--no-figures"]
            usage = run_measured(args, Path(scratch), module="cenmcc.simulation")
            rows.append(
                {
                    "measures": measures,
                    "pairs": len(measures.split(",")) * (len(measures.split(",")) - 1) // 2,
                    "n": n,
                    "wall_seconds": usage.wall_seconds,
                    "peak_memory_mib": usage.peak_mib,
                }
            )
    table = pd.DataFrame(rows)
    table["ratio_to_cen_mcc"] = table["wall_seconds"] / table["wall_seconds"].iloc[0]
    return table


def amdahl(serial_fraction: float, cores: int) -> float:
    """The speed-up on ``cores`` cores that Amdahl's law allows: 1 / (s + (1 - s) / cores).

    Examples
    --------
    >>> round(amdahl(0.05, 16), 2)
    9.14
    """
    return 1.0 / (serial_fraction + (1.0 - serial_fraction) / cores)
