"""Benchmark the metric kernels against the floor of one ``np.log`` over every cell.

Every timing is the median of several repetitions on the same stack of random count matrices,
measured in one run, and reported as a ratio to the floor measured in that run: machines are
shared and noisy, ratios within one run are what compare.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import cenmcc

from .cli import add_output_arguments
from .outputs import markdown_table, write_atomic, write_table
from .paths import output_dir


def random_counts(n: int, K: int, seed: int = 0) -> np.ndarray:
    """A stack of ``n`` random ``K x K`` integer count matrices, entries uniform in [0, 999]."""
    return np.random.default_rng(seed).integers(0, 1000, size=(n, K, K))


def median_seconds(fn, repeats: int) -> float:
    """Median wall time of ``fn()`` over ``repeats`` calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _log_cells(C: np.ndarray) -> np.ndarray:
    """The floor: one natural logarithm of every cell (log 0 = -inf is fine here)."""
    with np.errstate(divide="ignore"):
        return np.log(C)


def kernel_implementations(C: np.ndarray) -> dict:
    """The timed callables on one stack: the floor first, then cenmcc's kernels."""
    return {
        "floor: np.log over the cells": lambda: _log_cells(C),
        "cenmcc: cen + mcc + accuracy": lambda: (
            cenmcc.cen(C),
            cenmcc.mcc(C),
            cenmcc.accuracy(C),
        ),
        "cenmcc: cen": lambda: cenmcc.cen(C),
        "cenmcc: mcc": lambda: cenmcc.mcc(C),
        "cenmcc: accuracy": lambda: cenmcc.accuracy(C),
        "cenmcc: tmcc": lambda: cenmcc.tmcc(C),
    }


def measure_kernels(n: int, sizes: list[int], repeats: int, seed: int = 0) -> pd.DataFrame:
    """Throughput of each implementation for each K, with its ratio to the floor."""
    rows = []
    for K in sizes:
        C = random_counts(n, K, seed)
        timings = {
            name: median_seconds(fn, repeats) for name, fn in kernel_implementations(C).items()
        }
        floor = next(iter(timings.values()))
        for name, seconds in timings.items():
            rows.append(
                {
                    "K": K,
                    "implementation": name,
                    "n_matrices": n,
                    "seconds": seconds,
                    "matrices_per_second": n / seconds,
                    "ratio_to_floor": seconds / floor,
                }
            )
    return pd.DataFrame(rows)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=100_000, help="matrices per stack")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[10], help="numbers of classes K to measure"
    )
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per timing")
    add_output_arguments(parser)


def main(args: argparse.Namespace) -> int:
    table = measure_kernels(args.n, args.sizes, args.repeats)
    out = output_dir(args.out, "benchmark")
    write_table(out / "kernels.csv", table)
    text = markdown_table(table)
    write_atomic(out / "kernels.md", lambda tmp: tmp.write_text(text + "\n"))
    print(text)
    return 0
