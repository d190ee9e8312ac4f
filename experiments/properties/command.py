"""``python -m experiments properties``: the command line."""

from __future__ import annotations

import argparse
import time

from cenmcc.commands.arguments import non_negative_int, positive_int
from cenmcc.runtime.files import write_atomic, write_table

from ..registry import Computed
from .compute import run, summarize
from .plots import markdown
from .settings import N_RANDOM, SEED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--classes", type=positive_int, nargs="+", default=[2, 3], help="the numbers of classes"
    )
    parser.add_argument(
        "--n-random",
        type=positive_int,
        default=N_RANDOM,
        help="random matrices per audit after the exhaustive range",
    )
    parser.add_argument("--seed", type=non_negative_int, default=SEED, help="seed of the matrices")


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if min(args.classes) < 2:
        parser.error(f"argument --classes: each K must be at least 2, got {min(args.classes)}")


def main(args: argparse.Namespace, out) -> Computed:
    """Audit every measure, write properties.csv and properties.md into ``out``, report."""
    start = time.perf_counter()
    table = run(tuple(args.classes), args.n_random, args.seed)
    seconds = time.perf_counter() - start
    write_table(out / "properties.csv", table)
    write_atomic(out / "properties.md", lambda tmp: tmp.write_text(markdown(table)))
    summary = summarize(table)
    summary["n_random"] = args.n_random
    print(f"{table['measure'].nunique()} measures audited, K = {args.classes}: {seconds:.1f} s")
    return Computed(summary, seconds, {"n_random": args.n_random, "classes": args.classes})
