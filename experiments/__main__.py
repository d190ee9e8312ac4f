"""``python -m experiments <command>``: run one experiment, the benchmark, or everything.

``python -m experiments all`` runs every experiment at paper scale, writes every figure and
summary under ``figures/`` and then runs the paper checks.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time
from pathlib import Path

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
ALL = ("families", "discriminancy", "binary", "random-matrices")


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
        "--out", type=Path, default=None, help="output directory (default: figures/)"
    )
    return parser


#: The final step of ``all``: the paper checks, in their own interpreter, because data flows one
#: way (paper_checks imports experiments, never the reverse).
CHECKS = (sys.executable, "-m", "paper_checks")


def run_all(parser: argparse.ArgumentParser, quiet: bool, out: Path | None = None) -> int:
    """Run every experiment of :data:`ALL` with its defaults, then the paper checks.

    With ``out``, every output (figures, summaries and the checks' report) goes under ``out``
    instead of ``figures/`` and ``paper_checks/``.
    """
    start = time.perf_counter()
    for name in ALL:
        argv = [name, *(["--quiet"] if quiet else []), *(["--out", str(out)] if out else [])]
        args = parser.parse_args(argv)
        print(f"== {name}", flush=True)
        status = args.module.main(args)
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "all":
        return run_all(parser, args.quiet, args.out)
    return args.module.main(args)


if __name__ == "__main__":
    sys.exit(main())
