"""``python -m experiments families``: its options, and the run written into its folder."""

from __future__ import annotations

import argparse
import time

import pandas as pd

from cenmcc.runtime.files import markdown_table, save_figures, write_atomic, write_table

from ..registry import Computed
from .compute import run
from .plots import plot
from .settings import FIGURES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-symbolic", action="store_true", help="skip the sympy proofs")
    parser.add_argument(
        "--table", action="store_true", help="also write every checked point (checks_table.csv.gz)"
    )


def main(args: argparse.Namespace, out) -> Computed:
    """Check every formula, write the tables and figures into ``out``, report.

    The random matrices among the checked points are always the same (``run``'s seed 0): the
    verdicts are closed-form facts, not statistics.
    """
    start = time.perf_counter()
    table, summary = run(symbolic=not args.no_symbolic)
    seconds = time.perf_counter() - start
    timing = summary.pop("timings_s")
    save_figures({which: plot(table, which) for which in FIGURES}, out)
    formulas = pd.DataFrame(summary["formulas"])
    write_table(out / "formulas.csv", formulas)
    write_table(out / "examples.csv", pd.DataFrame(summary["examples"]))
    if args.table:
        write_table(out / "checks_table.csv.gz", table)
    columns = [
        "id",
        "holds",
        "max_abs_error",
        "proven_symbolically",
        "correction",
        "counterexample",
    ]
    text = markdown_table(formulas[columns].fillna(""))
    write_atomic(out / "formulas.md", lambda tmp: tmp.write_text(text + "\n"))
    if not args.quiet:
        print(text)
        print(f"{summary['n_hold']} of {summary['n_formulas']} hold; not: {summary['not_holding']}")
        print("timings (s):", {k: round(v, 2) for k, v in timing.items()})
    return Computed(summary, seconds, timing)
