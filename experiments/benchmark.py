"""Benchmark the metric kernels against the floor and the peers, and time the experiments.

Kernels: on the same stack of random count matrices (entries uniform in [0, 999]) for each K,
the median CPU time of several repetitions of each implementation, and its ratio to the floor
(``np.log`` over the off-diagonal cells and one memory pass) and to its own floor, measured in
the same run; machines are shared and noisy, ratios
within one run are what compare. Slow peers (PyCM, scikit-learn) run on a subsample and are
scaled, and say so. Experiments: each ``python -m experiments`` command in a fresh process, with
its wall time and the peak resident memory of its process tree (workers included), and the
time of the computation alone as the run's ``timing.json`` reports it (generation, metrics and
statistics; no start-up, figures or tables). Scale (``--scale``): the random-matrix experiment
at 2·10⁵, 2·10⁶, 2·10⁷ and 10⁸ matrices (about 10 minutes on two cores), and at 2·10⁶ (or
each ``--scale-jobs-n``) with 1, 2, 4, ... workers up to the cores, each in a fresh process, in
``scale.csv`` and ``scale.md``, with a digest of each run's statistics (the same for every
number of workers).

Chunks: the CPU time of one chunk of the papers' generator (draws, CEN, MCC and tMCC, the
reduction) and of its parts against their floors, in ``chunks.csv``. Measures (with
``--scale``): the agreement study of eight measures against CEN and MCC alone, at 2·10⁶, in
``measures.csv``.

Every run writes into a scratch directory, removed however the benchmark ends.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import NullLocator

import cenmcc
from cenmcc.simulation.cli import add_output_arguments, positive_int
from cenmcc.simulation.figures import close, subplots
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table

from . import baselines, process_usage
from .paths import REPO_ROOT
from .registry import BY_COMMAND, EXPERIMENTS, TIMING, Computed

FLOOR = "floor: np.log over the off-diagonal cells + one memory pass"
MEMORY_PASS = "floor: one memory pass (C.sum over each matrix)"
COMBINED = "cenmcc: cen + mcc + accuracy"
SHARED = "cenmcc: cen + mcc + accuracy of one Counts"

#: Peers too slow for a whole stack: (label, function, subsample size).
PEERS = (
    ("PyCM ConfusionMatrix (public API)", "pycm", baselines.pycm_public, 100),
    ("PyCM CEN/MCC functions", "pycm", baselines.pycm_functions, 1000),
    ("scikit-learn matthews_corrcoef", "sklearn", baselines.sklearn_mcc, 200),
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


#: Chunks of the papers' generator timed by :func:`measure_chunks` (10,000 matrices each).
THROUGHPUT_CHUNKS = 20
#: The measures of the chunk throughput (issue 20: CEN, MCC and tMCC).
THROUGHPUT_MEASURES = ("cen", "mcc", "tmcc")


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
    from cenmcc.simulation.allocator import reuse_freed_memory
    from cenmcc.simulation.engine import measure_chunk

    reuse_freed_memory()  # as in a worker: freed arrays reused, not returned to the kernel
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


#: Sizes of the scale table (``--scale``), and the size of its ``--jobs`` series.
SCALE_N = (200_000, 2_000_000, 20_000_000, 100_000_000)
SCALE_JOBS_N = 2_000_000


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


#: The measures of the eight-measure agreement study (issue 19), against CEN and MCC alone.
EIGHT_MEASURES = "cen,mcc,cohen_kappa,accuracy,balanced_accuracy,f1_macro,f1_micro,tmcc"


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


def plot(kernels: pd.DataFrame):
    """Throughput against K (log scales), one line per implementation, the floor dashed.

    cenmcc's kernels are solid lines, the peers dotted squares, each in its own colour.
    """
    fig, ax = subplots(width=9.0, height=4.2)
    ours = iter(plt.get_cmap("tab10").colors)
    peers = iter(plt.get_cmap("Dark2").colors)
    for name in dict.fromkeys(kernels["implementation"]):
        group = kernels[kernels["implementation"] == name]
        if name == FLOOR:
            style = {"linestyle": "--", "color": "black", "linewidth": 2}
        elif name.startswith("cenmcc"):
            style = {"marker": "o", "color": next(ours)}
        else:
            style = {"marker": "s", "linestyle": ":", "color": next(peers)}
        ax.plot(group["K"], group["matrices_per_second"], label=name, **style)
    sizes = sorted(kernels["K"].unique())
    ax.set(xscale="log", yscale="log", xlabel="number of classes K", ylabel="matrices per second")
    ax.set_title("Throughput on one core (CPU time)")
    ax.set_xticks(sizes, labels=[str(k) for k in sizes])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sizes", type=classes, nargs="+", default=[3, 10, 30], help="numbers of classes K"
    )
    parser.add_argument(
        "--cells",
        type=positive_int,
        default=10_000_000,
        help="cells per stack (100,000 matrices at K = 10)",
    )
    parser.add_argument("--repeats", type=positive_int, default=5, help="repetitions per timing")
    parser.add_argument(
        "--no-experiments", action="store_true", help="time the kernels only, not the experiments"
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="only the scale table: random-matrices at each --scale-n, and a --jobs series",
    )
    parser.add_argument(
        "--scale-n",
        type=positive_int,
        nargs="+",
        default=list(SCALE_N),
        help="numbers of matrices of the scale table (default 2e5 2e6 2e7 1e8)",
    )
    parser.add_argument(
        "--scale-jobs-n",
        type=positive_int,
        nargs="+",
        default=[SCALE_JOBS_N],
        help="numbers of matrices of the --jobs series (default 2e6); the eight-measure study"
        " runs at the smallest",
    )
    add_output_arguments(parser)


def classes(text: str) -> int:
    """A number of classes K, at least 2."""
    value = positive_int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"must be at least 2 classes, got {value}")
    return value


def _write(out: Path, name: str, table: pd.DataFrame) -> str:
    write_table(out / f"{name}.csv", table)
    text = markdown_table(table)
    write_atomic(out / f"{name}.md", lambda tmp: tmp.write_text(text + "\n"))
    return text


def main(args: argparse.Namespace, out: Path) -> Computed:
    """Measure what the arguments ask for and write its tables (and figure) into ``out``."""
    if args.scale:
        scale = measure_scale(args.scale_n, args.scale_jobs_n, jobs_series(os.cpu_count()))
        print(_write(out, "scale", scale))
        print(_write(out, "measures", measure_measures(min(args.scale_jobs_n))))
        return Computed(None)
    kernels = measure_kernels(args.sizes, args.cells, args.repeats)
    print(_write(out, "kernels", kernels))
    print(_write(out, "chunks", measure_chunks(repeats=args.repeats)))
    fig = plot(kernels)
    save_figure(fig, out / "throughput.png")
    close(fig)
    if not args.no_experiments:
        print(_write(out, "experiments", measure_experiments()))
    return Computed(None)
