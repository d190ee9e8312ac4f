"""``python -m experiments binary``: its options and checks, and the run written into its folder."""

from __future__ import annotations

import argparse
import time

from cenmcc.commands.arguments import positive_int
from cenmcc.runtime.files import save_figures, write_table
from cenmcc.simulation import resources
from cenmcc.simulation.resources import number

from ..registry import Computed
from .compute import by_total, count_matrices, run
from .plots import plot_figure3, plot_figure4

#: Peak memory per matrix of a run, figures included: 139 bytes measured for s = 1..100
#: (4,598,125 matrices, the table and the exact decisions), with room for the figures' copies.
BYTES_PER_MATRIX = 256


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--s-min", type=positive_int, default=1, help="smallest total (default 1)")
    parser.add_argument(
        "--s-max", type=positive_int, default=100, help="largest total (default 100)"
    )
    parser.add_argument(
        "--save-matrices",
        action="store_true",
        help="also write every matrix with its CEN and MCC to matrices_table.csv.gz (slow, large)",
    )


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, a range that is empty or whose matrices would not fit in memory."""
    if args.s_min > args.s_max:
        parser.error(f"argument --s-max: must be at least --s-min ({args.s_min}), got {args.s_max}")
    n = count_matrices(args.s_min, args.s_max)
    try:
        resources.require_memory(
            n * BYTES_PER_MATRIX,
            f"--s-min {number(args.s_min)} --s-max {number(args.s_max)} ({number(n)} matrices)",
        )
    except ValueError as err:
        parser.error(f"argument --s-max: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Enumerate, write the tables and figures into ``out``, report."""
    start = time.perf_counter()
    table, summary = run(args.s_min, args.s_max)
    seconds = time.perf_counter() - start
    timing = summary.pop("timing")
    del timing["computation_seconds"]  # a part of the whole run()'s, timed here
    write_table(out / "by_total.csv", by_total(table))
    if args.save_matrices:
        write_table(out / "matrices_table.csv.gz", table)
    save_figures({"figure4": plot_figure4(table), "figure3": plot_figure3()}, out)
    print(
        f"s = {args.s_min}..{args.s_max}: {summary['n_matrices']:,} matrices (printed 4,598,125 "
        f"for 2..100; 2..100 gives {summary['n_matrices_by_range']['2..100']:,}), "
        f"{summary['n_mcc_undefined']:,} with MCC 0/0"
    )
    print(
        f"r(CEN, MCC) = {summary['pearson_cen_mcc']:.4f} (printed |r| ≈ 0.63), "
        f"{summary['pearson_cen_mcc_defined_only']:.4f} without the 0/0 MCCs; "
        f"CEN > 1 for {summary['share_cen_above_1']:.4%}; max CEN {summary['cen_max']:.6f}"
    )
    print(f"{seconds:.2f} s in all")
    return Computed(summary, seconds, timing)
