"""``python -m experiments <command>``: run one experiment, the benchmark, or everything.

The commands are the experiments of :data:`experiments.registry.EXPERIMENTS`. ``python -m
experiments all`` runs every experiment at paper scale, writes every figure and summary under
``figures/`` and then runs the paper checks.

Every command writes its outputs into a staging directory next to its destination
``<out>/<folder>`` and swaps the whole set in only when it has written all of it
(:func:`cenmcc.runtime.staging.staged_directory`): after a failure, an interrupt or a kill the
destination still holds the previous run, and a destination that no run wrote is refused before
any work. The experiment's ``main(args, out)`` writes its tables and figures into ``out`` and
returns a :class:`~experiments.registry.Computed`; the runner then writes ``summary.json`` with
the record of the run (command line, package version, arguments; no date) under ``run``, the
record alone in ``run.json``, and the timings and the machine in ``timing.json``, which git
ignores: the results of two runs compare equal byte for byte.

SIGINT (Ctrl-C) and SIGTERM stop a command within about a second, workers included: it prints
one line saying what was interrupted and exits with status 128 + the signal number (130 for
SIGINT, 143 for SIGTERM), its destination unchanged. A failure (a lost worker, a full disk) is
one line too, with status 1.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from cenmcc.commands.arguments import (
    HelpFormatter,
    add_option_groups,
    check_destination,
    check_parallel_arguments,
    run_into,
)
from cenmcc.runtime.files import write_json
from cenmcc.runtime.signals import Interrupted, run_command_line
from cenmcc.runtime.staging import staged_directory

from .paths import FIGURES, REPO_ROOT
from .registry import EXPERIMENTS, TIMING, Computed
from .rerun import rerun_line, settle

PROG = "python -m experiments"

DESCRIPTION = """Rerun the experiments of Jurman, Riccadonna and Furlanello on CEN and MCC, one
command each, or all of them with `all`, which then checks every claim of the papers against
what they computed (python -m paper_checks)."""

EPILOG = """Each command writes under DIR/<folder> (default: figures/<folder>) and replaces the
previous outputs there only once it has written all of its own; files you add to the folder are
kept, carried over into each new run. Ctrl-C or SIGTERM stops it
within about a second (exit status 130 or 143), leaving the previous outputs as they were.
`python -m experiments COMMAND --help` describes a command and its options."""

ALL_DESCRIPTION = """Run every experiment at the papers' settings, in order (random-matrices,
protocol, discriminancy, binary, families, agreement), then the paper checks, which write
paper_checks/REPORT.md, paper_checks/results.json, the results section of README.md and
figures/README.md (with --out, DIR/paper_checks/ and neither README). A little over a minute on
two cores. The last line says whether the results match the committed ones, every stored
number within a stated tolerance (last-digit differences between machines); a file that
matches keeps its committed bytes, one that does not is kept as written and its numbers that
differ are named. The options below are passed on to the experiments that take them."""

#: Options of ``all`` passed on to the experiments that take them.
PASSED_ON = ("seed", "jobs", "backend", "scheduler")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=HelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for experiment in EXPERIMENTS:
        command = sub.add_parser(
            experiment.command,
            help=experiment.summary,
            description=experiment.description,
            epilog=experiment.epilog,
            formatter_class=HelpFormatter,
        )
        experiment.load().add_arguments(command)
        add_option_groups(command, experiment.options)
        command.set_defaults(experiment=experiment, parser=command)
    everything = sub.add_parser(
        "all",
        help="every experiment at the papers' settings, then the paper checks",
        description=ALL_DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    everything.set_defaults(parser=everything)
    add_option_groups(everything, ("seed", "parallel", "output"))
    return parser


#: Arguments that say where or how quietly a run writes, not what it computes.
NOT_RECORDED = ("out", "quiet", "experiment", "command", "parser")


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
        "command": " ".join([PROG, *line]),
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


def write_run(stage: Path, computed: Computed, record: dict, seconds: float) -> None:
    """Write ``summary.json`` (with the record under ``run``), ``run.json`` and the timings."""
    if computed.summary is not None:
        write_json(stage / "summary.json", computed.summary | {"run": record})
    write_json(stage / "run.json", record)
    timing = {
        "computation_seconds": computed.seconds,
        "command_seconds": round(seconds, 3),
        "details": computed.details,
        "machine": machine(),
    }
    write_json(stage / TIMING, timing)


def destination(args: argparse.Namespace) -> Path:
    """The directory a command's outputs belong in: ``<out>/<folder>``."""
    return (args.out if args.out is not None else FIGURES) / args.experiment.folder


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The checks that need several arguments, the machine or the disk: before any work.

    The shared ones (:func:`cenmcc.commands.arguments.check_parallel_arguments`, and whether the
    destination may be replaced: a user's file there with the name of a file the run may
    write, :attr:`~experiments.registry.Experiment.writes`, is refused now, not after the
    run), then the command's own ``check_arguments(parser, args)`` if its module has one. Each
    exits through ``parser.error`` (status 2) naming the argument.
    """
    check_parallel_arguments(parser, args)
    check_destination(parser, destination(args), args.experiment.writes)
    module = args.experiment.load()
    if hasattr(module, "check_arguments"):
        module.check_arguments(parser, args)


def run_command(args: argparse.Namespace, argv: list[str]) -> int:
    """Run one checked command into a staging directory and swap it in if it succeeds.

    Returns 0, or 1 after printing in one line why the command failed (a lost worker, a full
    disk), the destination untouched. SIGINT and SIGTERM propagate as
    :class:`~cenmcc.runtime.signals.Interrupted`, naming the destination left unchanged.
    """
    target = destination(args)
    start = time.perf_counter()

    def work():
        writes = args.experiment.writes
        with staged_directory(target, update=args.experiment.updates, writes=writes) as stage:
            computed = args.experiment.load().main(args, stage)
            write_run(stage, computed, run_record(args, argv), time.perf_counter() - start)

    return run_into(args.command, target, work)


def planned_steps(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> list[tuple[argparse.Namespace, list[str]]]:
    """Every experiment ``all`` runs, parsed and checked before any runs: (args, argv) each.

    The options of :data:`PASSED_ON` go to the experiments that take them, and only where they
    differ from the experiment's own default, so its recorded command line stays the shortest.
    """
    steps = []
    for experiment in EXPERIMENTS:
        if not experiment.in_all:
            continue
        own = vars(parser.parse_args([experiment.command]))
        argv = [experiment.command]
        for key in PASSED_ON:
            value = getattr(args, key)
            if key in own and value != own[key]:
                argv += [f"--{key}", str(value)]
        if args.quiet:
            argv.append("--quiet")
        if args.out is not None:
            argv += ["--out", str(args.out)]
        step = parser.parse_args(argv)
        check_arguments(args.parser, step)
        steps.append((step, argv))
    if args.out is not None:
        check_destination(args.parser, args.out / "paper_checks")
    return steps


#: The final step of ``all``: the paper checks, in their own interpreter, because data flows one
#: way (paper_checks imports experiments, never the reverse).
CHECKS = (sys.executable, "-m", "paper_checks")


def run_checks(out: Path | None) -> int:
    """Run the paper checks on ``out`` (default: figures/); their exit status.

    SIGINT or SIGTERM is passed on to them, and raised here once they have stopped.
    """
    command = list(CHECKS)
    if out is not None:
        command += ["--figures", str(out), "--out", str(out / "paper_checks")]
    process = subprocess.Popen(command, cwd=REPO_ROOT)
    try:
        return process.wait()
    except Interrupted as err:
        process.send_signal(err.signum)
        process.wait()
        raise


def step_files(step: argparse.Namespace) -> list[tuple[Path, str]]:
    """Each file an experiment of ``all`` wrote, with the path of its committed counterpart in
    the clone: ``figures/<folder>/<name>`` (``<out>/<folder>/<name>`` stands for it)."""
    folder = destination(step)
    return [
        (path, f"figures/{step.experiment.folder}/{path.relative_to(folder).as_posix()}")
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    ]


def check_files(out: Path | None) -> list[tuple[Path, str]]:
    """Each file the paper checks of ``all`` wrote, with its committed counterpart.

    With ``--out``, ``<out>/paper_checks/<name>`` stands for ``paper_checks/<name>``; without
    it, every file is its own counterpart, the two READMEs included.
    """
    report = out / "paper_checks" if out else REPO_ROOT / "paper_checks"
    pairs = [(report / name, f"paper_checks/{name}") for name in ("REPORT.md", "results.json")]
    if out is None:
        pairs.append((REPO_ROOT / "README.md", "README.md"))
        pairs.append((FIGURES / "README.md", "figures/README.md"))
    return pairs


def run_all(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run every experiment ``all`` runs, then the paper checks; the first failing status.

    With ``--out``, every output (figures, summaries and the checks' report) goes under it
    instead of ``figures/`` and ``paper_checks/``. Each step's files are compared with the
    committed ones as soon as it has written them, and those it reproduced within the
    tolerance keep their committed bytes (:func:`experiments.rerun.settle`), so that the paper
    checks read the committed numbers. The last line says whether the run matches the
    committed results (:func:`experiments.rerun.rerun_line`).
    """
    start = time.perf_counter()
    steps = planned_steps(parser, args)
    comparisons = []
    for step, argv in steps:
        print(f"== {step.command}", flush=True)
        status = run_command(step, argv)
        if status:
            return status
        comparisons.append(settle(step_files(step)))
    print("== paper checks", flush=True)
    status = run_checks(args.out)
    comparisons.append(settle(check_files(args.out)))
    report = args.out / "paper_checks" if args.out else REPO_ROOT / "paper_checks"
    print(
        f"all done in {time.perf_counter() - start:.1f} s; figures and summaries in "
        f"{args.out or FIGURES}, claim-by-claim report in {report / 'REPORT.md'}"
    )
    print(rerun_line(comparisons))
    return status


def run(argv: list[str]) -> int:
    """Parse and check ``argv``, then run it; its exit status.

    For a caller that handles interruptions itself (paper_checks): SIGINT and SIGTERM, when
    they raise :class:`~cenmcc.runtime.signals.Interrupted`, propagate.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "all":
        return run_all(parser, args)
    check_arguments(args.parser, args)
    return run_command(args, argv)


def main(argv: list[str] | None = None) -> int:
    """The command line ``argv`` (by default the process's), run; its exit status."""
    return run_command_line(PROG, run, argv)


if __name__ == "__main__":
    sys.exit(main())
