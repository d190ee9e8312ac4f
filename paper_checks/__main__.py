"""``python -m paper_checks``: check every claim, write REPORT.md and results.json.

Exit status 0 when every verdict is the expected one (the recorded one, or "not checkable" where
an optional program a record requires is absent), 1 otherwise (the differing records are
printed), 130 when interrupted by SIGINT (Ctrl-C) or SIGTERM. The outputs are replaced all
together or not at all: an interruption leaves the previous ones.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from . import report, summaries, tutorial_r
from .registry import REGISTRY

#: Exit status of a run stopped by SIGINT or SIGTERM (as a shell reports Ctrl-C).
INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m paper_checks", description=__doc__)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="directory for REPORT.md and results.json (default: paper_checks/)",
    )
    parser.add_argument(
        "--figures",
        type=Path,
        default=None,
        help="where the experiments' summaries are read, and written if missing "
        "(default: figures/)",
    )
    parser.add_argument(
        "--rscript",
        default=tutorial_r.rscript,
        help="the Rscript that runs the blog tutorial's R code (default: Rscript on the PATH, "
        f"{tutorial_r.rscript or 'none found'}); without R and pROC ({tutorial_r.INSTALL}) "
        "those claims are not checkable",
    )
    parser.add_argument(
        "--no-r",
        action="store_true",
        help="do not run R: the claims that need it are not checkable",
    )
    parser.add_argument(
        "--readme",
        action="store_true",
        help="also regenerate the README's results section from the registry",
    )
    return parser


class Interrupted(KeyboardInterrupt):
    """Raised in the main thread by SIGINT or SIGTERM."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.name = signal.Signals(signum).name


def _interrupt(signum, frame):
    raise Interrupted(signum)


def run(
    records,
    out: Path | None = None,
    figures: Path | None = None,
    *,
    readme: bool = False,
    stage: list[str] | None = None,
) -> int:
    """Run ``records``, write the report and results (and README), print a summary; the status.

    ``stage[0]``, if given, is kept up to date with what the run is doing (for the message of an
    interruption).
    """
    stage = stage if stage is not None else [""]
    if figures is not None:
        summaries.figures_dir = Path(figures)

    def checking(i, record):
        stage[0] = f"checking claim {i + 1} of {len(records)} ({record.id})"

    outcomes = report.run_records(records, on_record=checking)
    for problem, ids in report.unusable_inputs(outcomes).items():
        print(f"paper_checks: {problem}; {len(ids)} claims not checked", file=sys.stderr)
    report_path = (out / "REPORT.md") if out is not None else report.REPORT
    results_path = (out / "results.json") if out is not None else report.RESULTS
    texts = report.output_texts(outcomes, report_path, results_path)
    readme_changed = False
    if readme:
        updated = report.readme_text(REGISTRY)
        if updated is not None:
            texts[report.README] = updated
            readme_changed = True
    stage[0] = "writing " + ", ".join(p.name for p in texts)

    def written():
        stage[0] = "finishing, after writing " + ", ".join(p.name for p in texts)

    report.replace_all(texts, done=written)
    print(report.count_line(o.verdict for o in outcomes))
    differing = report.mismatches(outcomes)
    for o in differing:
        print(
            f"  {o.record.id}: {o.verdict} (expected: {o.expected_verdict}) {o.detail}",
            file=sys.stderr,
        )
    print(f"report: {report_path}\nresults: {results_path}")
    if readme_changed:
        print(f"README results section updated: {report.README}")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    tutorial_r.rscript = None if args.no_r else args.rscript
    stage = ["starting"]
    previous = {s: signal.signal(s, _interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return run(REGISTRY, out=args.out, figures=args.figures, readme=args.readme, stage=stage)
    except Interrupted as interruption:
        kept = "" if stage[0].startswith("finishing") else "; no output was replaced"
        print(
            f"paper_checks: interrupted by {interruption.name} while {stage[0]}{kept}",
            file=sys.stderr,
        )
        return INTERRUPTED
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


if __name__ == "__main__":
    sys.exit(main())
