"""``python -m experiments discriminancy``: its options and checks; the run written out."""

from __future__ import annotations

import argparse
import math
import os
import time

from cenmcc.commands.arguments import finite_non_negative_float, parallel_options, positive_int
from cenmcc.runtime.files import markdown_table, save_figures, write_atomic, write_table
from cenmcc.simulation import resources
from cenmcc.simulation.resources import number

from ..registry import Computed
from .compute import CASE_KEYS, run
from .plots import plot
from .settings import N_RANGE, PAPER_SIZES, RTOL


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n-min", type=positive_int, default=N_RANGE[0], help="smallest n of the sweep (>= 3)"
    )
    parser.add_argument(
        "--n-max", type=positive_int, default=N_RANGE[1], help="largest n of the sweep"
    )
    parser.add_argument("--ordered", action="store_true", help="one row per ordered split")
    parser.add_argument(
        "--rtol",
        type=finite_non_negative_float,
        default=RTOL,
        help="tolerance of the rtol convention",
    )
    parser.add_argument(
        "--order-check-max-n",
        type=positive_int,
        default=11,
        help="order check on every split up to this n",
    )


#: Peak memory per matrix of a case in its worker: 812 and 825 bytes measured for the sizes
#: (10, 10, 10) and (13, 13, 13) (287,496 and 1,157,625 matrices), rounded up.
BYTES_PER_MATRIX = 1024


def case_matrices(sizes) -> int:
    """Number of 3x3 count matrices with row sums ``sizes``: ``prod_k C(t_k + 2, 2)``."""
    return math.prod(math.comb(t + 2, 2) for t in sizes)


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, a range without splits, or cases too large for the memory.

    The estimate is the largest case (the most even split of the largest n, or of the order
    check's) times the number of cases in memory at once, one per worker.
    """
    if args.n_min < 3:
        parser.error(
            f"argument --n-min: must be at least 3 (three non-empty classes), got {args.n_min}"
        )
    if args.n_max < args.n_min:
        parser.error(f"argument --n-max: must be at least --n-min ({args.n_min}), got {args.n_max}")
    for flag, n in (("--n-max", args.n_max), ("--order-check-max-n", args.order_check_max_n)):
        if n < 3:
            continue
        largest = case_matrices((n // 3, (n + 1) // 3, (n + 2) // 3))
        workers = os.cpu_count() if args.jobs == -1 else args.jobs
        try:
            resources.require_memory(
                largest * BYTES_PER_MATRIX * workers,
                f"{flag} {number(n)} ({number(largest)} matrices in its largest case, "
                f"{workers} at once)",
            )
        except ValueError as err:
            parser.error(f"argument {flag}: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Run the case and the sweep, write the tables and figure into ``out``, report."""
    start = time.perf_counter()
    table, summary = run(
        args.n_min,
        args.n_max,
        ordered=args.ordered,
        rtol=args.rtol,
        order_check_max_n=args.order_check_max_n,
        **parallel_options(args),
    )
    seconds = time.perf_counter() - start
    timing = summary.pop("timing")
    del timing["computation_seconds"]  # a part of the whole run()'s, timed here
    write_table(out / "cases.csv", table)
    brief = table[["sizes", "n", "n_matrices", "P_cen_mcc", "Q_cen_mcc", *CASE_KEYS[3:-1]]]
    write_atomic(out / "cases.md", lambda tmp: tmp.write_text(markdown_table(brief) + "\n"))
    save_figures({"discriminancy": plot(table)}, out)
    p = summary["paper_case"]
    print(
        f"sizes {PAPER_SIZES}: {p['n_matrices']} matrices, |P| = {p['P_cen_mcc']}, "
        f"|Q| = {p['Q_cen_mcc']}, CEN over MCC = {p['discriminancy_cen_mcc']:.3f} exact, "
        f"{p['discriminancy_cen_mcc_float_eq']:.3f} with float == (printed: about 6)"
    )
    print(f"sweep n = {args.n_min}..{args.n_max}: {len(table)} cases; {seconds:.1f} s in all")
    return Computed(summary, seconds, timing)
