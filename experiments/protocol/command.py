"""``python -m experiments protocol``: its options and checks; the run written to its folder."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cenmcc.commands.arguments import non_negative_int, parallel_options, positive_int
from cenmcc.runtime.files import (
    markdown_table,
    save_figures,
    stored_table,
    write_atomic,
    write_table,
)
from cenmcc.simulation.resources import number

from .. import random_matrices
from ..registry import Computed
from .compute import run
from .plots import plot
from .settings import N_MIN, N_PRINTED, READINGS_BY_NAME, SE_METHOD, TARGETS, chunk_size

if TYPE_CHECKING:
    import pandas as pd


def write_outputs(table: pd.DataFrame, summary: dict, out) -> None:
    """CSV, Markdown and the figure."""
    import pandas as pd

    write_table(out / "readings.csv", table)
    overview = pd.DataFrame(
        [
            {
                "reading": name,
                "description": v["description"],
                "reproduced": f"{v['reproduced']} of {len(TARGETS)}",
                "max |distance|": v["max_abs_distance"],
            }
            for name, v in summary["readings"].items()
        ]
    )
    text = "\n\n".join(
        [
            f"# Protocol readings: n = {summary['n_matrices']:,}, seed {summary['seed']}",
            summary["verdict"],
            markdown_table(overview),
            SE_METHOD,
            markdown_table(table, floatfmt=".7g"),
        ]
    )
    write_atomic(out / "readings.md", lambda tmp: tmp.write_text(text + "\n"))
    # plotted from the values readings.csv holds: the same vectors on any machine
    save_figures({"protocol": plot(stored_table(table))}, out)


def _reading_names(text: str) -> tuple[str, ...]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in READINGS_BY_NAME]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown readings {unknown}; choose from {list(READINGS_BY_NAME)}"
        )
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise argparse.ArgumentTypeError(f"readings named more than once: {repeated}")
    return tuple(names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n",
        type=positive_int,
        default=N_PRINTED,
        help=f"matrices per reading, at least {N_MIN:,}",
    )
    parser.add_argument("--resamples", type=positive_int, default=999, help="bootstrap resamples")
    parser.add_argument(
        "--readings",
        type=_reading_names,
        default=tuple(READINGS_BY_NAME),
        help="comma-separated reading names (default: all, " + ", ".join(READINGS_BY_NAME) + ")",
    )
    parser.add_argument(
        "--validation-seeds",
        type=non_negative_int,
        default=5,
        help="extra seeds of the printed reading that check the batch SEs (0 or 1: none)",
    )
    parser.add_argument(
        "--validation-n",
        type=positive_int,
        default=None,
        help="matrices per extra seed (default: n/4)",
    )


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, an n too small for the statistics or too large for the machine.

    The simulations run one after the other, each keeping what its pair counts need until it
    ends: the footprint of one random-matrices run of ``--n`` matrices.
    """
    if args.n < N_MIN:
        parser.error(
            f"argument --n: must be at least {N_MIN:,} ({N_MIN // chunk_size(N_MIN)} chunks of "
            f"{chunk_size(N_MIN):,} matrices, for the batch standard errors and the refitted "
            f"k), got {number(args.n)}"
        )
    try:
        random_matrices.Config(n_matrices=args.n).simulation().require_resources(
            what=f"--n {number(args.n)}",
            jobs=args.jobs,
            scheduler=args.scheduler,
        )
    except ValueError as err:
        parser.error(f"argument --n: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Run the grid at the command line's settings, write the tables and figure, report."""
    table, summary, timing = run(
        tuple(READINGS_BY_NAME[name] for name in args.readings),
        n=args.n,
        seed=args.seed,
        n_resamples=args.resamples,
        validation_seeds=args.validation_seeds,
        validation_n=args.validation_n,
        **parallel_options(args),
    )
    write_outputs(table, summary, out)
    for name, v in summary["readings"].items():
        print(
            f"{name:28s} reproduced {v['reproduced']}/{len(TARGETS)}  "
            f"max |d| {v['max_abs_distance']:.3g}"
        )
    print(summary["verdict"])
    seconds = timing.pop("wall_seconds")
    print(f"{seconds:.1f} s wall, {timing['main_process_cpu_seconds']:.1f} s CPU (main process)")
    return Computed(summary, seconds, timing)
