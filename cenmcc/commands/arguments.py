"""Command-line arguments shared by every command, checked when they are parsed, and their help.

Every check runs before any work starts and before any output is touched: a bad value makes
argparse exit with status 2 and a message that names the argument (``argument --jobs: ...``).
The ``type=`` functions check one value; :func:`check_parallel_arguments` checks what depends on
several (``--scheduler`` needs ``--backend dask``) and whether the scheduler answers;
:func:`check_destination` whether a command may replace its output directory.
:class:`HelpFormatter` makes ``--help`` read as help: docstring markup removed, lists kept,
every default shown.
"""

from __future__ import annotations

import argparse
import decimal
import importlib.util
import inspect
import math
import re
import socket
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from ..runtime.signals import Interrupted
from ..runtime.staging import NotReplaceable, check_replaceable

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


def directory(text: str) -> Path:
    """A directory, or a path where one can be made: not empty, not a file."""
    if not text:
        raise argparse.ArgumentTypeError("expected a directory, got an empty path")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a directory")
    return path


def folder_name(text: str) -> str:
    """The name of one folder inside ``--out``: one path component, not hidden.

    Examples
    --------
    >>> folder_name("exp1")
    'exp1'
    >>> folder_name("../x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be one folder name (no '/', not starting with '.'), got '../x'
    """
    if not text or text.startswith(".") or Path(text).name != text:
        raise argparse.ArgumentTypeError(
            f"must be one folder name (no '/', not starting with '.'), got {text!r}"
        )
    return text


def output_root(text: str) -> Path:
    """An output directory that is a directory (or can be created) and is writable."""
    path = directory(text)
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


def check_destination(
    parser: argparse.ArgumentParser, destination: Path, writes: Iterable[str] = ()
) -> None:
    """Refuse, through ``parser.error`` naming ``--out``, a destination a run may not replace.

    See :func:`cenmcc.runtime.staging.check_replaceable`: a mount point, a symbolic link, a
    file, a non-empty directory that no run wrote, or a user's file in the way of one of the
    files ``writes`` the run will write.
    """
    try:
        check_replaceable(destination, writes)
    except NotReplaceable as err:
        parser.error(f"argument --out: {err}")


def run_into(command: str, target: Path, work: Callable[[], object]) -> int:
    """Run ``work``, a command writing into ``target``; its exit status, said in one line.

    Returns 0 after printing where the outputs are, or 1 after printing why the command failed
    (a lost worker, a full disk, a destination it may not replace), ``target`` unchanged.
    SIGINT and SIGTERM propagate as :class:`~cenmcc.runtime.signals.Interrupted`, naming
    ``target``, which they leave as it was.
    """
    try:
        work()
    except Interrupted as err:
        raise Interrupted(err.signum, unchanged=target) from None
    except (*_worker_errors(), NotReplaceable, OSError) as err:
        print(f"{command} failed: {err}; {target} unchanged", file=sys.stderr)
        return 1
    print(f"{command}: outputs in {target}")
    return 0


def _worker_errors() -> tuple[type[Exception], ...]:
    """:class:`~cenmcc.simulation.ParallelError` where the simulation is imported: only it
    raises one, and a command that runs no worker (``python -m cenmcc report``) imports
    neither it nor joblib and tqdm, which it needs."""
    tasks = sys.modules.get("cenmcc.simulation.tasks")
    return (tasks.ParallelError,) if tasks else ()


def scheduler_address(text: str) -> str:
    """The address of a dask scheduler, ``tcp://HOST:PORT`` (or ``HOST:PORT``, ``tls://...``)."""
    try:  # urlsplit and its port raise ValueError for an unclosed [ or a bad port
        parts = urlsplit(text if "://" in text else f"tcp://{text}")
        host, port = parts.hostname, parts.port
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"bad address {text!r} ({err})") from None
    if parts.scheme not in ("tcp", "tls") or not host or port is None:
        raise argparse.ArgumentTypeError(f"expected tcp://HOST:PORT, got {text!r}")
    return text


def add_output_arguments(parser: argparse.ArgumentParser, default: str = "figures/") -> None:
    """``--out DIR`` (``None`` when not given: the command's ``default``) and ``--quiet``."""
    parser.add_argument(
        "--out",
        type=output_root,
        default=None,
        metavar="DIR",
        help=f"write the outputs under DIR/<name> (default: {default})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--backend`` and ``--scheduler``."""
    from cenmcc.simulation.parallel import BACKENDS  # the simulation extra, for these only

    parser.add_argument("--jobs", type=jobs_count, default=-1, help="workers, -1 for all cores")
    parser.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend")
    parser.add_argument(
        "--scheduler",
        type=scheduler_address,
        default=None,
        metavar="ADDRESS",
        help="address of a running dask.distributed scheduler (with --backend dask)",
    )


def parallel_options(args: argparse.Namespace) -> dict:
    """What :func:`add_parallel_arguments` and ``--quiet`` set, as keyword arguments of a run.

    ``jobs``, ``backend``, ``scheduler`` and ``quiet``, as :func:`cenmcc.simulation.run` and
    every experiment's ``run`` take them.
    """
    return {
        "jobs": args.jobs,
        "backend": args.backend,
        "scheduler": args.scheduler,
        "quiet": args.quiet,
    }


def add_seed_argument(parser: argparse.ArgumentParser, default: int = 0) -> None:
    """``--seed`` of the run's random streams."""
    parser.add_argument(
        "--seed", type=non_negative_int, default=default, help="seed of the run (an integer >= 0)"
    )


def add_option_groups(
    parser: argparse.ArgumentParser, groups: tuple[str, ...], *, out: str = "figures/"
) -> None:
    """Add the option ``groups`` that commands share to ``parser``, in their order.

    ``seed`` (:func:`add_seed_argument`), ``parallel`` (:func:`add_parallel_arguments`) and
    ``output`` (:func:`add_output_arguments`, ``--out`` defaulting to ``out``).
    """
    adders = {
        "seed": add_seed_argument,
        "parallel": add_parallel_arguments,
        "output": lambda parser: add_output_arguments(parser, default=out),
    }
    for group in groups:
        adders[group](parser)


def _scheduler_problem(address: str) -> str | None:
    """Why ``address`` (see :func:`scheduler_address`) does not answer, or None if it does."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=CONNECT_TIMEOUT):
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


#: Sphinx roles (``:func:`~a.b` `` and the like) and literals (````x````) in docstrings.
_ROLE = re.compile(r":[a-z]+:`(~?)([^`<]*?)(?:\s*<[^>]*>)?`")
_LITERAL = re.compile(r"``([^`]+)``")


def _plain(text: str) -> str:
    """``text`` without Sphinx markup: ``:func:`~a.b` `` becomes ``b``, ````x```` becomes ``x``."""
    text = _ROLE.sub(lambda m: m[2].rsplit(".", 1)[-1] if m[1] else m[2], text)
    return _LITERAL.sub(r"\1", text)


def help_text(text: str, width: int = 79, indent: str = "") -> str:
    """A docstring-like text as help: markup removed, paragraphs and bullet lists wrapped.

    Paragraphs are separated by blank lines; a line starting with ``- `` starts a list item
    (its continuation lines are joined to it); a paragraph whose first line is indented (an
    example command) is kept as it is.

    Examples
    --------
    >>> print(help_text("Uses :func:`~cenmcc.cen` and ``--n``.\\n\\n- one\\n  item\\n- two", 30))
    Uses cen and --n.
    <BLANKLINE>
    - one item
    - two
    """
    blocks = []
    for block in re.split(r"\n\s*\n", inspect.cleandoc(_plain(text))):
        lines = block.splitlines()
        if lines[0].startswith((" ", "\t")):
            blocks.append("\n".join(indent + line for line in lines))
            continue
        items = re.split(r"\n(?=- )", block) if block.startswith("- ") else [block]
        blocks.append(
            "\n".join(
                textwrap.fill(
                    " ".join(item.split()),
                    width,
                    initial_indent=indent,
                    subsequent_indent=indent + ("  " if item.startswith("- ") else ""),
                )
                for item in items
            )
        )
    return "\n\n".join(blocks)


class HelpFormatter(argparse.HelpFormatter):
    """``--help`` that reads as help: :func:`help_text` for descriptions, every default shown.

    An option's default is appended to its help (``(default: 200000)``) unless the help says it
    already or there is none to show (None, False for a flag, nothing yet for a repeatable one).
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return help_text(text, width, indent)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = _plain(action.help or "")
        default = action.default
        nothing = default is None or default is False or default in ([], argparse.SUPPRESS)
        if action.option_strings and not nothing and "default" not in text:
            text += " (default: %(default)s)"
        return text
