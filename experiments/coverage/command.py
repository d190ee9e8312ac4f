"""``python -m experiments coverage``: the command line."""

from __future__ import annotations

import argparse
import time

from cenmcc.commands.arguments import positive_int
from cenmcc.runtime.files import markdown_table, save_figures, write_atomic, write_table

from ..paths import REPO_ROOT
from ..registry import Computed
from .compute import coverage_module, run, speed
from .plots import coverage_markdown, plot, plot_default
from .settings import FLAG, FULL, REDUCED

#: The table ``method="auto"`` reads, written by every run of the grid.
TABLE_MODULE = REPO_ROOT / "cenmcc" / "intervals" / "_coverage_table.py"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--full",
        action="store_true",
        help="the whole grid: K = 2, 3, 5, 10 and n up to 5,000, 1,728 cells of 8 measures "
        "(about half an hour, one core)",
    )
    parser.add_argument("--jobs", type=positive_int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--speed",
        action="store_true",
        help="only time BCa of 8 measures (the first six, t-MCC, macro precision) against "
        "scikit-learn (speed.csv, speed.md)",
    )


def main(args: argparse.Namespace, out) -> Computed:
    """Run the grid (or the speed comparison) and write its tables and figure into ``out``."""
    if args.speed:
        table = speed(seed=args.seed)
        write_table(out / "speed.csv", table)
        write_atomic(
            out / "speed.md",
            lambda tmp: tmp.write_text(
                "# BCa intervals: cenmcc against scikit-learn per resample\n\n"
                "CPU seconds on one core, `python -m experiments coverage --speed`.\n\n"
                + markdown_table(table, ".3g")
                + "\n"
            ),
        )
        print(markdown_table(table, ".3g"))
        return Computed(None)
    grid = FULL if args.full else REDUCED
    start = time.perf_counter()
    table, paired, summary = run(grid, args.seed, args.jobs)
    seconds = time.perf_counter() - start
    command = "python -m experiments coverage" + (" --full" if args.full else "")
    write_table(out / "coverage.csv", table)
    write_table(out / "paired.csv", paired)
    module = coverage_module(table, paired, command)
    write_atomic(TABLE_MODULE, lambda tmp: tmp.write_text(module))
    text = coverage_markdown(table, paired, command)
    write_atomic(out / "coverage.md", lambda tmp: tmp.write_text(text))
    save_figures({"coverage": plot(table), "default": plot_default(table)}, out, suffixes=(".png",))
    print(
        f"{len(table)} cells x methods; {summary['n_flagged']} below {FLAG}: "
        f"{summary['flagged_by_method']}; {seconds:.1f} s"
    )
    return Computed(summary, seconds, {"grid": grid})
