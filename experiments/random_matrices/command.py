"""``python -m experiments random-matrices``: its options and checks; the run written out."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import numpy as np

from cenmcc.commands.arguments import parallel_options, positive_int
from cenmcc.runtime.files import markdown_table, save_figures, write_atomic, write_table
from cenmcc.simulation import Result
from cenmcc.simulation.resources import number

from ..registry import Computed
from .compute import run
from .findings import report
from .plots import plot, plot_k
from .settings import Config

if TYPE_CHECKING:
    import pandas as pd


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Config()
    parser.add_argument(
        "--n", type=positive_int, default=defaults.n_matrices, help="number of matrices"
    )
    parser.add_argument(
        "--resamples", type=positive_int, default=defaults.n_resamples, help="bootstrap resamples"
    )
    parser.add_argument(
        "--chunk-size",
        type=positive_int,
        default=defaults.chunk_size,
        help="matrices per chunk (task)",
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="also write every matrix's measures to matrices.npz (40 bytes a matrix)",
    )


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, settings the Config rejects or a run that would not fit."""
    try:
        config = Config(n_matrices=args.n, n_resamples=args.resamples, chunk_size=args.chunk_size)
    except (ValueError, TypeError) as err:
        parser.error(f"argument --n/--resamples/--chunk-size: {err}")
    try:
        config.simulation().require_resources(
            what=f"--n {number(args.n)}",
            jobs=args.jobs,
            scheduler=args.scheduler,
            table=args.table,
        )
    except ValueError as err:
        parser.error(f"argument --n: {err}")


def save_columns(path, table: pd.DataFrame) -> None:
    """Write each column of ``table`` as an uncompressed ``.npy`` member of the zip ``path``.

    NumPy's ``.npz`` layout (``numpy.load`` reads it), with a fixed member date so that reruns
    write the same bytes.
    """
    import io
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name in table.columns:
            buffer = io.BytesIO()
            np.save(buffer, table[name].to_numpy())
            archive.writestr(
                zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), buffer.getvalue()
            )


def write_outputs(result: Result, out) -> None:
    """Write the per-K table, the figures and (if kept) the per-matrix table."""
    write_table(out / "k_per_dimension.csv", result.per_k)
    save_figures({"figure2": plot(result), "k_per_dimension": plot_k(result)}, out)
    if result.table is not None:
        write_atomic(out / "matrices.npz", lambda tmp: save_columns(tmp, result.table))


def main(args: argparse.Namespace, out) -> Computed:
    """Run at the command line's settings, write the tables and figures into ``out``, report."""
    config = Config(
        n_matrices=args.n, seed=args.seed, n_resamples=args.resamples, chunk_size=args.chunk_size
    )
    result, timing = run(
        config,
        **parallel_options(args),
        keep_table=args.table,
    )
    write_outputs(result, out)
    summary = result.summary
    print(markdown_table(report(summary)))
    fit = summary["k_fit"]
    if fit is not None:
        print(
            f"fitted k: a={fit['a']:.5f}±{fit['a_se']:.5f}, b={fit['b']:.5f}±{fit['b_se']:.5f}, "
            f"c={fit['c']:.5f}±{fit['c_se']:.5f}"
        )
    seconds = timing.pop("computation_seconds")
    print(f"computation {seconds:.2f} s")
    return Computed(summary, seconds, timing)
