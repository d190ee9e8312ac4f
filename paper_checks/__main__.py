"""``python -m paper_checks``: check every claim, write REPORT.md and results.json.

Exit status 0 when every verdict is the one recorded in the registry, 1 otherwise (the differing
records are printed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import report, summaries, tutorial_r
from .registry import REGISTRY


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


def run(records, out: Path | None = None, figures: Path | None = None) -> int:
    """Run ``records``, write the report and results, print a summary; the exit status."""
    if figures is not None:
        summaries.figures_dir = Path(figures)
    outcomes = report.run_records(records)
    report_path = (out / "REPORT.md") if out is not None else report.REPORT
    results_path = (out / "results.json") if out is not None else report.RESULTS
    report.write_outputs(outcomes, report_path, results_path)
    print(report.count_line(o.verdict for o in outcomes))
    differing = report.mismatches(outcomes)
    for o in differing:
        print(
            f"  {o.record.id}: {o.verdict} (recorded: {o.record.verdict}) {o.detail}",
            file=sys.stderr,
        )
    print(f"report: {report_path}\nresults: {results_path}")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    tutorial_r.rscript = None if args.no_r else args.rscript
    status = run(REGISTRY, out=args.out, figures=args.figures)
    if args.readme and report.update_readme(REGISTRY):
        print(f"README results section updated: {report.README}")
    return status


if __name__ == "__main__":
    sys.exit(main())
