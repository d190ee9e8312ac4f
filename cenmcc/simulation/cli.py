"""Command-line arguments shared by the experiments, checked when they are parsed.

Every check runs before any work starts and before any output is touched: a bad value makes
argparse exit with status 2 and a message that names the argument (``argument --jobs: ...``).
The ``type=`` functions check one value; :func:`check_parallel_arguments` checks what depends on
several (``--scheduler`` needs ``--backend dask``) and whether the scheduler answers.
"""

from __future__ import annotations

import argparse
import decimal
import importlib.util
import math
import socket
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from .parallel import BACKENDS

#: Seconds to wait for a dask scheduler to accept a connection before refusing ``--scheduler``.
CONNECT_TIMEOUT = 3.0


def _integer(text: str) -> int:
    """An integer: written out (``20000000``, ``20_000_000``) or exactly as ``2e7``."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")
    return int(value)


def positive_int(text: str) -> int:
    """An integer of at least 1 (a count of matrices, samples, repetitions...)."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (a seed)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def jobs_count(text: str) -> int:
    """A number of workers: a positive integer, or -1 for all cores."""
    value = _integer(text)
    if value < 1 and value != -1:
        raise argparse.ArgumentTypeError(
            f"must be a positive number of workers or -1 (all cores), got {value}"
        )
    return value


def finite_non_negative_float(text: str) -> float:
    """A finite float of at least 0 (a tolerance)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


def output_root(text: str) -> Path:
    """An output directory that is a directory (or can be created) and is writable."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a directory")
    existing = path
    while not existing.exists():  # the nearest existing ancestor is where mkdir will write
        existing = existing.parent
    if not existing.is_dir():
        raise argparse.ArgumentTypeError(f"{existing} is not a directory, cannot create {text}")
    try:  # a probe, not os.access: root passes every access check, even on /proc
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as err:
        raise argparse.ArgumentTypeError(f"cannot write in {existing} ({err.strerror})") from None
    return path


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """``--out DIR`` (default ``figures/``) and ``--quiet``."""
    parser.add_argument(
        "--out", type=output_root, default=None, help="output directory (default: figures/)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--backend`` and ``--scheduler``."""
    parser.add_argument("--jobs", type=jobs_count, default=-1, help="workers, -1 for all cores")
    parser.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend")
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="address of a running dask.distributed scheduler (with --backend dask)",
    )


def add_seed_argument(parser: argparse.ArgumentParser, default: int = 0) -> None:
    """``--seed`` of the run's random streams."""
    parser.add_argument(
        "--seed", type=non_negative_int, default=default, help="seed of the run (an integer >= 0)"
    )


def _scheduler_problem(address: str) -> str | None:
    """Why ``address`` is not a dask scheduler this machine can reach, or None if it answers."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError as err:
        return f"bad address {address!r} ({err})"
    if parts.scheme not in ("tcp", "tls") or not host or port is None:
        return f"expected tcp://HOST:PORT, got {address!r}"
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            return None
    except OSError as err:
        return f"no scheduler answers at {address} within {CONNECT_TIMEOUT:g} s ({err})"


def check_parallel_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The checks of ``--backend`` and ``--scheduler`` that need both, or the network.

    ``--backend dask`` needs the ``dask`` extra; ``--scheduler`` needs ``--backend dask`` and a
    scheduler that accepts a connection within :data:`CONNECT_TIMEOUT` seconds. Exits through
    ``parser.error`` (status 2) naming the argument; does nothing for a command without them.
    """
    backend, scheduler = getattr(args, "backend", None), getattr(args, "scheduler", None)
    if backend == "dask" and importlib.util.find_spec("distributed") is None:
        parser.error(
            "argument --backend: 'dask' needs the optional extra: pip install -e '.[dask]'"
        )
    if scheduler is None:
        return
    if backend != "dask":
        parser.error("argument --scheduler: only used with --backend dask")
    problem = _scheduler_problem(scheduler)
    if problem:
        parser.error(f"argument --scheduler: {problem}")
