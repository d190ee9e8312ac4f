"""Benchmark the metric kernels against the floor and the peers, and time the experiments.

Kernels: on the same stack of random count matrices (entries uniform in [0, 999]) for each K,
the median CPU time of several repetitions of each implementation, and its ratio to the floor
(one ``np.log`` over every cell) measured in the same run; machines are shared and noisy, ratios
within one run are what compare. Slow peers (PyCM, scikit-learn) run on a subsample and are
scaled, and say so. Experiments: each ``python -m experiments`` command in a fresh process, with
its wall time and the peak resident memory of its process tree (workers included), and the
time of the computation alone as the experiment's summary reports it (generation, metrics and
statistics; no start-up, figures or tables).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import NullLocator

import cenmcc

from . import baselines, resources
from .cli import add_output_arguments
from .outputs import markdown_table, save_figure, write_atomic, write_table
from .paths import REPO_ROOT, output_dir
from .plotting import close, subplots

#: The output directory, ``<out>/benchmark``; a run rewrites only the tables it measures and
#: keeps the others (``--no-experiments`` keeps ``experiments.*``, ``--scale`` the kernels').
NAME = "benchmark"
UPDATES = True

FLOOR = "floor: np.log over the cells"
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


def _log_cells(C: np.ndarray) -> np.ndarray:
    """The floor: one natural logarithm of every cell (log 0 = -inf is fine here)."""
    with np.errstate(divide="ignore"):
        return np.log(C)


def _shared(C: np.ndarray):
    """The three metrics of a stack validated and summed once (``cenmcc.Counts``)."""
    m = cenmcc.Counts(C)
    return cenmcc.cen(m), cenmcc.mcc(m), cenmcc.accuracy(m)


def kernel_implementations(C: np.ndarray) -> dict[str, Callable[[], object]]:
    """The timed callables on one whole stack, the floor first."""
    weighted = C.astype(np.float64) * 0.5  # float counts: the logarithm path of cen
    return {
        FLOOR: lambda: _log_cells(C),
        COMBINED: lambda: (cenmcc.cen(C), cenmcc.mcc(C), cenmcc.accuracy(C)),
        SHARED: lambda: _shared(C),
        "cenmcc: cen": lambda: cenmcc.cen(C),
        "cenmcc: cen (float counts)": lambda: cenmcc.cen(weighted),
        "cenmcc: mcc": lambda: cenmcc.mcc(C),
        "cenmcc: accuracy": lambda: cenmcc.accuracy(C),
        "cenmcc: tmcc": lambda: cenmcc.tmcc(C),
        "straightforward NumPy: cen + mcc + accuracy": lambda: baselines.straightforward_numpy(C),
    }


def measure_kernels(sizes: list[int], cells: int, repeats: int, seed: int = 0) -> pd.DataFrame:
    """Throughput of every implementation for each K on stacks of about ``cells`` cells."""
    rows = []
    for K in sizes:
        n = max(cells // (K * K), 1)
        C = random_counts(n, K, seed)
        timings = {
            name: (median_seconds(fn, repeats), n) for name, fn in kernel_implementations(C).items()
        }
        for label, module, fn, size in PEERS:
            if baselines.peer_available(module):
                sub = C[: min(size, n)]
                timings[f"{label} (subsample of {len(sub)}, scaled)"] = (
                    median_seconds(lambda fn=fn, sub=sub: fn(sub), 1),
                    len(sub),
                )
        floor_rate = n / timings[FLOOR][0]
        combined_rate = n / timings[COMBINED][0]
        for name, (seconds, count) in timings.items():
            rate = count / seconds
            rows.append(
                {
                    "K": K,
                    "implementation": name,
                    "matrices": count,
                    "seconds": seconds,
                    "matrices_per_second": rate,
                    "ratio_to_floor": floor_rate / rate,
                    "cenmcc_combined_speedup": combined_rate / rate,
                }
            )
    return pd.DataFrame(rows)


#: Where an experiment's summary records the time of its computation alone (no imports,
#: figures or tables): the figure the targets of issues 3 and 4 are about.
COMPUTE_SECONDS = {
    "random-matrices": ("random_matrices", ("wall_seconds",)),
    "binary": ("binary", ("timing", "seconds_enumeration_metrics_correlations")),
    "discriminancy": ("discriminancy", ("timing", "seconds_sweep")),
}


def _compute_seconds(command: str, out: Path) -> float | None:
    """The computation time an experiment's summary reports, if it reports one."""
    if command not in COMPUTE_SECONDS:
        return None
    name, keys = COMPUTE_SECONDS[command]
    value = json.loads((out / name / "summary.json").read_text())
    for key in keys:
        value = value[key]
    return float(value)


def experiment_commands(available: set[str]) -> list[tuple[str, list[str]]]:
    """The experiment runs to time, limited to the commands that exist."""
    runs = [
        ("random-matrices, 200,000", ["random-matrices"]),
        ("random-matrices, 2,000,000 (memory)", ["random-matrices", "--n", "2000000"]),
        ("binary", ["binary"]),
        ("discriminancy", ["discriminancy"]),
        ("families", ["families"]),
    ]
    chosen = [(label, args) for label, args in runs if args[0] in available]
    return [*chosen, ("all", ["all"])]


def measure_experiments(available: set[str]) -> pd.DataFrame:
    """Wall time and peak memory of each experiment command, outputs in a scratch directory."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for label, args in experiment_commands(available):
            usage = resources.measure(
                ["-m", "experiments", *args, "--out", scratch, "--quiet"], cwd=REPO_ROOT
            )
            if usage.returncode:
                raise RuntimeError(f"`python -m experiments {' '.join(args)}` failed")
            rows.append(
                {
                    "experiment": label,
                    "wall_seconds": usage.wall_seconds,
                    "compute_seconds": _compute_seconds(args[0], Path(scratch)),
                    "peak_memory_mib": usage.peak_mib,
                }
            )
    return pd.DataFrame(rows)


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
        "--sizes", type=int, nargs="+", default=[3, 10, 30], help="numbers of classes K"
    )
    parser.add_argument(
        "--cells",
        type=int,
        default=10_000_000,
        help="cells per stack (100,000 matrices at K = 10)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per timing")
    parser.add_argument(
        "--no-experiments", action="store_true", help="time the kernels only, not the experiments"
    )
    add_output_arguments(parser)


def _write(out: Path, name: str, table: pd.DataFrame) -> str:
    write_table(out / f"{name}.csv", table)
    text = markdown_table(table)
    write_atomic(out / f"{name}.md", lambda tmp: tmp.write_text(text + "\n"))
    return text


def main(args: argparse.Namespace) -> int:
    from .__main__ import COMMANDS

    out = output_dir(args.out, NAME)
    kernels = measure_kernels(args.sizes, args.cells, args.repeats)
    print(_write(out, "kernels", kernels))
    fig = plot(kernels)
    save_figure(fig, out / "throughput.png")
    close(fig)
    if not args.no_experiments:
        print(_write(out, "experiments", measure_experiments(set(COMMANDS))))
    print(f"benchmark written to {out}")
    return 0
