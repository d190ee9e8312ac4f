"""``python -m experiments <command>``: run one experiment, the benchmark, or everything.

``python -m experiments all`` runs every experiment at paper scale, writes every figure and
summary under ``figures/`` and then runs the paper checks.

Every command writes its outputs into a staging directory next to its destination
``<out>/<name>`` and swaps the whole set in only when it has written all of it
(:func:`cenmcc.simulation.outputs.staged_directory`): after a failure, an interrupt or a kill the
destination still holds the previous run. With the outputs go ``run.json``, the record of the
run (command line, package version, arguments; no date), also stored in ``summary.json`` under
``run``, and ``timing.json``, the timings and the machine, which a rerun never reproduces: the
summary's timing keys move there, so the results of two runs compare equal byte for byte.

SIGINT (Ctrl-C) and SIGTERM stop a command within about a second, workers included: it prints
one line saying what was interrupted and exits with status 128 + the signal number (130 for
SIGINT, 143 for SIGTERM), its destination unchanged.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from cenmcc.simulation.cli import check_parallel_arguments, output_root
from cenmcc.simulation.outputs import staged_directory, write_json
from cenmcc.simulation.parallel import ParallelError

from .paths import FIGURES, REPO_ROOT

#: Command name -> module. Each module has ``add_arguments(parser)`` and ``main(args) -> int``.
COMMANDS = {
    "benchmark": "experiments.benchmark",
    "families": "experiments.families",
    "discriminancy": "experiments.discriminancy",
    "binary": "experiments.binary_exhaustive",
    "random-matrices": "experiments.random_matrices",
    "protocol": "experiments.protocol",
}

#: The commands ``all`` runs, in order, with their defaults (the papers' settings).
ALL = ("families", "discriminancy", "binary", "random-matrices", "protocol")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m experiments", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        summary = (module.__doc__ or name).strip().splitlines()[0]
        command = sub.add_parser(name, help=summary, description=module.__doc__)
        module.add_arguments(command)
        command.set_defaults(module=module)
    everything = sub.add_parser("all", help="every experiment at paper scale, then the checks")
    everything.add_argument("--quiet", action="store_true", help="no progress bars")
    everything.add_argument(
        "--out", type=output_root, default=None, help="output directory (default: figures/)"
    )
    return parser


#: The signals that stop a command cleanly.
INTERRUPTS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived; carries the signal's number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_interrupted(signum: int, frame) -> None:
    raise Interrupted(signum)


@contextmanager
def interrupts_raise():
    """SIGINT and SIGTERM raise :class:`Interrupted` in the main thread while the block runs.

    Installed explicitly, since a process started in the background by a shell inherits SIGINT
    ignored, and Python then never raises KeyboardInterrupt.
    """
    previous = {sig: signal.signal(sig, _raise_interrupted) for sig in INTERRUPTS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: Summary keys that hold timings: moved to ``timing.json``, away from the results.
TIMING_KEYS = ("timing", "timings_s", "wall_seconds")
#: Arguments that say where or how quietly a run writes, not what it computes.
NOT_RECORDED = ("out", "quiet", "module", "command")


def run_record(args: argparse.Namespace, argv: list[str]) -> dict:
    """What made a run: its command line, the package's version and every argument.

    Neither the date nor where the outputs went (``--out``) nor ``--quiet`` is recorded, so a
    rerun of the same command records the same, wherever it writes.
    """
    line, skip = [], False
    for word in argv:  # the command line without --out DIR and --quiet
        if skip or word == "--out":
            skip = not skip and word == "--out"
            continue
        if word.startswith("--out=") or word == "--quiet":
            continue
        line.append(word)
    arguments = {
        key: (str(value) if isinstance(value, Path) else value)
        for key, value in sorted(vars(args).items())
        if key not in NOT_RECORDED
    }
    return {
        "command": " ".join(["python -m experiments", *line]),
        "package": "cenmcc",
        "package_version": version("cenmcc"),
        "arguments": arguments,
    }


def machine() -> dict:
    """Where and when a run was timed."""
    return {
        "utc_date": datetime.now(UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }


def finish_outputs(stage: Path, record: dict, seconds: float) -> None:
    """Write ``run.json``, add the record to the summary and move its timings to ``timing.json``.

    A ``timing.json`` the command wrote itself is kept and completed. Its
    ``computation_seconds`` is the time of the computation alone (no start-up, figures or
    tables): the summary's ``timing.computation_seconds``, or its ``wall_seconds``
    (random_matrices, which times exactly that).
    """
    timing_path, summary_path = stage / "timing.json", stage / "summary.json"
    timing = json.loads(timing_path.read_text()) if timing_path.exists() else {}
    if summary_path.exists():
        summary = json.loads(summary_path.read_text())
        timing |= {key: summary.pop(key) for key in TIMING_KEYS if key in summary}
        write_json(summary_path, summary | {"run": record})
    computation = timing.get("timing", {}).pop("computation_seconds", timing.get("wall_seconds"))
    if computation is not None and "computation_seconds" not in timing:
        timing = {"computation_seconds": computation} | timing
    timing |= {"command_seconds": round(seconds, 3), "machine": machine()}
    write_json(stage / "run.json", record)
    write_json(timing_path, timing)


def destination(args: argparse.Namespace) -> Path:
    """The directory a command's outputs belong in: ``<out>/<name>``."""
    return (args.out if args.out is not None else FIGURES) / args.module.NAME


def run_command(args: argparse.Namespace, argv: list[str]) -> int:
    """Run one command into a staging directory and swap it in if it succeeds.

    Returns the command's status; on SIGINT or SIGTERM, prints what was interrupted and returns
    128 + the signal number, the destination untouched.
    """
    target = destination(args)
    start = time.perf_counter()
    try:
        with staged_directory(target, update=getattr(args.module, "UPDATES", False)) as stage:
            args.out = stage.parent
            status = args.module.main(args)
            if status:
                raise _Failed(status)
            finish_outputs(stage, run_record(args, argv), time.perf_counter() - start)
        print(f"{args.command}: outputs in {target}")
    except _Failed as failed:
        print(
            f"{args.command} failed (status {failed.status}); {target} unchanged",
            file=sys.stderr,
        )
        return failed.status
    except ParallelError as err:
        print(f"{args.command} failed: {err}; {target} unchanged", file=sys.stderr)
        return 1
    except Interrupted as err:
        return interrupted(err, f"`python -m experiments {' '.join(argv)}`", start, target)
    return 0


def interrupted(err: Interrupted, what: str, start: float, target: Path | None = None) -> int:
    """Say in one line what a signal interrupted; the exit status 128 + its number."""
    kept = f"; {target} unchanged (no partial outputs)" if target is not None else ""
    print(
        f"{signal.Signals(err.signum).name}: interrupted {what} after "
        f"{time.perf_counter() - start:.1f} s{kept}",
        file=sys.stderr,
        flush=True,
    )
    return 128 + err.signum


class _Failed(Exception):
    """A command returned a non-zero status: its outputs are not swapped in."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


#: The final step of ``all``: the paper checks, in their own interpreter, because data flows one
#: way (paper_checks imports experiments, never the reverse).
CHECKS = (sys.executable, "-m", "paper_checks")


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The checks that need several arguments, or the machine: before any work or output.

    The shared ones (:func:`cenmcc.simulation.cli.check_parallel_arguments`), then the command's own
    ``check_arguments(parser, args)`` if its module has one. Each exits through
    ``parser.error`` (status 2) with a message naming the argument.
    """
    check_parallel_arguments(parser, args)
    module = getattr(args, "module", None)
    if hasattr(module, "check_arguments"):
        module.check_arguments(parser, args)


def run_all(parser: argparse.ArgumentParser, quiet: bool, out: Path | None = None) -> int:
    """Run every experiment of :data:`ALL` with its defaults, then the paper checks.

    With ``out``, every output (figures, summaries and the checks' report) goes under ``out``
    instead of ``figures/`` and ``paper_checks/``.
    """
    start = time.perf_counter()
    for name in ALL:
        argv = [name, *(["--quiet"] if quiet else []), *(["--out", str(out)] if out else [])]
        args = parser.parse_args(argv)
        check_arguments(parser, args)
        print(f"== {name}", flush=True)
        status = run_command(args, argv)
        if status:
            return status
    print("== paper checks", flush=True)
    checks = [
        *CHECKS,
        *(["--figures", str(out), "--out", str(out / "paper_checks")] if out else []),
    ]
    status = subprocess.run(checks, cwd=REPO_ROOT, check=False).returncode
    figures = out or FIGURES
    report = (out / "paper_checks") if out else REPO_ROOT / "paper_checks"
    print(
        f"all done in {time.perf_counter() - start:.1f} s; figures and summaries in {figures}, "
        f"claim-by-claim report in {report / 'REPORT.md'}"
    )
    return status


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    start = time.perf_counter()
    with interrupts_raise():
        try:
            parser = build_parser()
            args = parser.parse_args(argv)
            check_arguments(parser, args)
            if args.command == "all":
                return run_all(parser, args.quiet, args.out)
            return run_command(args, argv)
        except Interrupted as err:  # while starting, between commands of `all`, in its checks
            return interrupted(err, f"`python -m experiments {' '.join(argv)}`", start)


if __name__ == "__main__":
    sys.exit(main())
