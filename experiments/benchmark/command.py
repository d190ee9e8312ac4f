"""``python -m experiments benchmark``: its options, and the tables written into its folder."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pandas as pd

from cenmcc.commands.arguments import positive_int
from cenmcc.runtime.files import markdown_table, save_figures, write_atomic, write_table

from ..registry import Computed
from .compute import (
    jobs_series,
    measure_chunks,
    measure_experiments,
    measure_kernels,
    measure_measures,
    measure_scale,
)
from .plots import plot
from .settings import SCALE_JOBS_N, SCALE_N


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
    save_figures({"throughput": plot(kernels)}, out, suffixes=(".png",))
    if not args.no_experiments:
        print(_write(out, "experiments", measure_experiments()))
    return Computed(None)
