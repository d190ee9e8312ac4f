"""``python -m paper_checks``: check every claim, write REPORT.md, results.json, the README's
results section and figures/README.md, all from one run.

Exit status 0 when every verdict is the expected one (the recorded one, or "not checkable" where
an optional program a record requires is absent); 1 otherwise (the differing records are
printed), or when the outputs cannot be written; 2 for a bad argument or a missing experiment
output (named, with the command that writes it); 128 + the signal number when SIGINT (130) or
SIGTERM (143) stops it. The outputs are replaced all together or not at all: an interruption
leaves the previous ones.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from cenmcc.commands.arguments import HelpFormatter, check_destination, directory, output_root
from cenmcc.runtime.files import write_atomic_all
from cenmcc.runtime.signals import Interrupted, interrupts_raise, signals_deferred
from cenmcc.runtime.staging import NotReplaceable, check_replaceable, staged_directory
from experiments import __main__ as experiments_main
from experiments.paths import FIGURES

from . import report, summaries, tutorial_r
from .registry import REGISTRY

DESCRIPTION = """Check every numeric and analytic claim of the five sources (the two papers of
Jurman et al., Grandini et al.'s white paper, a blog tutorial and a blog post on the MCC)
against what cenmcc and the experiments compute, with a verdict for each: reproduced, differs
or not checkable. Writes paper_checks/REPORT.md (every claim, its source, tolerance and why it
holds or not), paper_checks/results.json, the results section of README.md and the figure
gallery figures/README.md, all from the same run."""

EPILOG = """The experiments' outputs must be there already (python -m experiments all writes
them all, then runs this); a missing one is named with the command that writes it, and
--run-missing runs it first. The claims of the blog tutorial's R code need R and pROC (apt-get
install --no-install-recommends r-base-core r-cran-proc); without them those six claims are not
checkable."""


def program(text: str) -> str:
    """A program to run: the path of an executable file, or a name on the PATH; its path.

    Anything else is refused (status 2) naming it, before any claim is checked: R's records
    would otherwise be "not checkable", as if R were not installed.
    """
    found = shutil.which(text) if text else None
    if found is not None:
        return found
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError("expected a program, got an empty path")
    if os.sep not in text:  # a name, looked for on the PATH only, as subprocess does
        reason = "is not a program on the PATH (a file elsewhere needs its path, ./NAME here)"
    elif not path.exists():
        reason = "does not exist"
    elif path.is_dir():
        reason = "is a directory, not a program"
    else:
        reason = "is not executable"
    raise argparse.ArgumentTypeError(f"{text} {reason}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m paper_checks",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--out",
        type=output_root,
        default=None,
        metavar="DIR",
        help="write REPORT.md and results.json in DIR, and leave the README alone; DIR is "
        "replaced whole, so it must be new, empty or an earlier output of cenmcc (default: "
        "paper_checks/ and the README)",
    )
    parser.add_argument(
        "--figures",
        type=directory,
        default=None,
        metavar="DIR",
        help="read the experiments' outputs from DIR (default: figures/)",
    )
    parser.add_argument(
        "--run-missing",
        action="store_true",
        help="first run, at its defaults, each experiment whose outputs are missing",
    )
    parser.add_argument(
        "--rscript",
        type=program,
        default=tutorial_r.rscript,
        metavar="PROGRAM",
        help="the Rscript that runs the blog tutorial's R code: a path, or a name on the PATH "
        f"(default: Rscript on the PATH, {tutorial_r.rscript or 'none found'})",
    )
    parser.add_argument(
        "--no-r",
        action="store_true",
        help="do not run R: the claims that need it are not checkable",
    )
    return parser


def run(
    records,
    out: Path | None = None,
    figures: Path | None = None,
    *,
    stage: list[str] | None = None,
) -> int:
    """Run ``records``, write what they found (:func:`report.output_texts`), print a summary.

    Without ``out``, the files are written in paper_checks/ and the README, all together or
    not at all; ``out`` is an output directory of its own, swapped in whole when written
    (:func:`~cenmcc.runtime.staging.staged_directory`), and refused, before any claim is
    checked, if it is a directory that no run wrote.

    Returns the exit status. ``stage[0]``, if given, is kept up to date with what the run is
    doing (for the message of an interruption).
    """
    stage = stage if stage is not None else [""]
    if out is not None:
        check_replaceable(out)
    if figures is not None:
        summaries.figures_dir = Path(figures)

    def checking(i, record):
        stage[0] = f"checking claim {i + 1} of {len(records)} ({record.id})"

    outcomes = report.run_records(records, on_record=checking)
    for problem, ids in report.unusable_inputs(outcomes).items():
        print(f"paper_checks: {problem}; {len(ids)} claims not checked", file=sys.stderr)
    if out is None:  # the committed paper_checks/ files and the README's results section
        texts = report.output_texts(outcomes)
        names = ", ".join(path.name for path in texts)
        stage[0] = f"writing {names}"
        with signals_deferred():  # a signal lands before any file is replaced or after all are
            write_atomic_all(texts)
            stage[0] = f"finishing, after writing {names}"
    else:  # an output directory of its own, replaced whole like every command's
        stage[0] = f"writing {out}"
        with staged_directory(out) as staged:
            texts = write_atomic_all(report.output_texts(outcomes, staged))
        stage[0] = f"finishing, after writing {out}"
        texts = [out / path.name for path in texts]
    print(report.count_line(o.verdict for o in outcomes))
    differing = report.mismatches(outcomes)
    for o in differing:
        print(
            f"  {o.record.id}: {o.verdict} (expected: {o.expected_verdict}) {o.detail}",
            file=sys.stderr,
        )
    print("written: " + ", ".join(map(str, texts)))
    return 1 if differing else 0


def run_missing(parser: argparse.ArgumentParser, figures: Path, allowed: bool, stage) -> int:
    """Run each experiment whose outputs are missing under ``figures``, if ``allowed``.

    Otherwise refuse through ``parser.error`` (status 2), naming each missing one and the
    command that writes it. Returns 0, or the status of the first experiment that failed.
    """
    missing = summaries.missing_experiments(figures)
    if missing and not allowed:
        commands = "; ".join(summaries.command_line(e, figures) for e in missing)
        parser.error(
            f"argument --figures: {figures} lacks the outputs of "
            f"{', '.join(e.command for e in missing)}: run {commands}, or pass --run-missing"
        )
    for experiment in missing:
        stage[0] = f"running the missing experiment {experiment.command}"
        status = experiments_main.run([experiment.command, "--out", str(figures)])
        if status:
            print(
                f"paper_checks: `{summaries.command_line(experiment, figures)}` failed "
                f"(status {status}); no claim was checked",
                file=sys.stderr,
            )
            return status
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    stage = ["starting"]
    with interrupts_raise():
        try:
            args = parser.parse_args(argv)
            if args.out is not None:
                check_destination(parser, args.out)
            tutorial_r.rscript = None if args.no_r else args.rscript
            figures = args.figures if args.figures is not None else FIGURES
            status = run_missing(parser, figures, args.run_missing, stage)
            return status or run(REGISTRY, out=args.out, figures=figures, stage=stage)
        except Interrupted as err:
            kept = "" if stage[0].startswith("finishing") else "; no output was replaced"
            print(
                f"paper_checks: interrupted by {err.name} while {stage[0]}{kept}",
                file=sys.stderr,
            )
            return err.status
        except (OSError, NotReplaceable) as err:  # a full disk (WriteError), a folder swapped in
            print(f"paper_checks failed: {err}; no output was replaced", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
