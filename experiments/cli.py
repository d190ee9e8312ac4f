"""Command-line arguments shared by the experiments."""

from __future__ import annotations

import argparse
from pathlib import Path

from .parallel import BACKENDS


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """``--out DIR`` (default ``figures/``) and ``--quiet``."""
    parser.add_argument(
        "--out", type=Path, default=None, help="output directory (default: figures/)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--backend`` and ``--scheduler``."""
    parser.add_argument("--jobs", type=int, default=-1, help="workers, -1 for all cores")
    parser.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend")
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="address of a running dask.distributed scheduler (with --backend dask)",
    )


def add_seed_argument(parser: argparse.ArgumentParser, default: int = 0) -> None:
    """``--seed`` of the run's random streams."""
    parser.add_argument("--seed", type=int, default=default, help="seed of the run")
