"""``python -m experiments agreement``: its options and checks; the run written to its folder."""

from __future__ import annotations

import argparse
import time

from cenmcc.commands.arguments import parallel_options, positive_int
from cenmcc.runtime.files import markdown_table, save_figures, write_atomic, write_table
from cenmcc.simulation import Result
from cenmcc.simulation.resources import number

from ..registry import Computed
from .compute import overview, run, summarize, tables
from .plots import plot_by_k, plot_density, plot_matrices
from .settings import Config


def write_outputs(summary: dict, results: dict[str, Result], out) -> None:
    """The tables and the figures into ``out``."""
    for name, table in tables(results).items():
        write_table(out / f"{name}.csv", table)
    text = markdown_table(overview(summary)) + "\n"
    write_atomic(out / "agreement.md", lambda tmp: tmp.write_text(text))
    drawn = {
        "agreement_matrices": plot_matrices(summary),
        "consistency_by_k": plot_by_k(summary),
        "cen_mcc_density": plot_density(results),
    }
    save_figures(drawn, out)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Config()
    parser.add_argument(
        "--n",
        type=positive_int,
        default=defaults.n_matrices,
        help="number of matrices of each generator",
    )
    parser.add_argument(
        "--chunk-size",
        type=positive_int,
        default=defaults.chunk_size,
        help="matrices per chunk (task)",
    )


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, settings a simulation rejects or a run that would not fit."""
    config = Config(n_matrices=args.n, seed=args.seed, chunk_size=args.chunk_size)
    try:
        sim = config.simulation(0)
    except (ValueError, TypeError) as err:
        parser.error(f"argument --n/--chunk-size: {err}")
    try:  # the three simulations run one after the other, each of --n matrices
        sim.require_resources(
            what=f"--n {number(args.n)}", jobs=args.jobs, scheduler=args.scheduler
        )
    except ValueError as err:
        parser.error(f"argument --n: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Run the study, write its tables and figures into ``out``, report the findings."""
    config = Config(n_matrices=args.n, seed=args.seed, chunk_size=args.chunk_size)
    start = time.perf_counter()
    results, timing = run(config, **parallel_options(args))
    seconds = time.perf_counter() - start
    summary = summarize(config, results)
    write_outputs(summary, results, out)
    for line in summary["findings"]:
        print(f"- {line}")
    print(f"computation {seconds:.2f} s")
    return Computed(summary, seconds, timing)
