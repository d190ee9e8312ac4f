"""``python -m cenmcc report``: a CSV or Parquet file of labels and predictions made a report.

Reads a file with a column of true labels and a column of predicted labels per classifier,
computes the report of :func:`cenmcc.report` (every measure with its interval, per-class
scores with Wilson's intervals, every two classifiers compared, with Holm's adjustment) and
writes it into DIR:

- report.md, report.html: the report as a page (the HTML page holds its figure);
- scores.csv, per_class.csv, comparisons.csv: its tables, one row per number;
- report.png (or report.pdf): each measure's intervals and the confusion matrices.

It prints the Markdown page. It needs pandas and matplotlib (pip install 'cenmcc[figures]'),
pyarrow too for a Parquet file; with --no-figure, pandas alone. The simulations are
python -m cenmcc.simulation.

Example:

    python -m cenmcc report predictions.csv --truth label --pred forest --pred logistic
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import cenmcc
from cenmcc.reporting import DEFAULT_MEASURES

from ..runtime.files import save_figure, write_atomic, write_table
from ..runtime.signals import run_command_line
from ..runtime.staging import staged_directory
from .arguments import (
    HelpFormatter,
    check_destination,
    non_negative_int,
    output_root,
    positive_int,
    run_into,
)

PROG = "python -m cenmcc"

EPILOG = """DIR is replaced only once the new report is written whole, and only if a report or
another command of cenmcc wrote it; files you add to it are kept."""

#: The tables a report writes as CSV, by the Report attribute they hold.
TABLES = ("scores", "per_class", "comparisons")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Commands of cenmcc; the simulations are python -m cenmcc.simulation.",
        formatter_class=HelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    text = "evaluate and compare classifiers from a file of labels and predictions"
    command = sub.add_parser(
        "report",
        help=text,
        description=__doc__.split("\n\n", 1)[1],
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    command.set_defaults(parser=command)
    command.add_argument("file", type=Path, metavar="FILE", help="a .csv or .parquet file")
    command.add_argument(
        "--truth", required=True, metavar="COLUMN", help="the column of true labels"
    )
    command.add_argument(
        "--pred",
        required=True,
        action="append",
        metavar="COLUMN",
        help="a column of predicted labels, named as its classifier (repeat for several)",
    )
    command.add_argument(
        "--measures",
        type=_measures,
        default=DEFAULT_MEASURES,
        metavar="NAMES",
        help=f"comma-separated names of cenmcc.MEASURES (default: {', '.join(DEFAULT_MEASURES)})",
    )
    command.add_argument(
        "--level", type=_level, default=0.95, help="confidence level of every interval"
    )
    command.add_argument("--resamples", type=positive_int, default=9999, help="bootstrap resamples")
    command.add_argument(
        "--seed",
        type=non_negative_int,
        default=0,
        help="seed of the resamples (the same report each run)",
    )
    command.add_argument(
        "--figure", choices=("png", "pdf"), default="png", help="the figure's format"
    )
    command.add_argument(
        "--no-figure", action="store_true", help="no figure (then pandas alone is needed)"
    )
    command.add_argument(
        "--out",
        type=output_root,
        default=Path("report"),
        metavar="DIR",
        help="the folder to write the report into",
    )
    return parser


def _measures(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in names if name not in cenmcc.MEASURES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown measures {unknown}; choose from {', '.join(cenmcc.MEASURES)}"
        )
    return names


def _level(text: str) -> float:
    try:
        level = float(text)
    except ValueError:
        level = float("nan")
    if not 0 < level < 1:
        raise argparse.ArgumentTypeError(f"expected a level in (0, 1), such as 0.95, got {text!r}")
    return level


def outputs(args: argparse.Namespace) -> list[str]:
    """The files the report writes into DIR."""
    figure = [] if args.no_figure else [f"report.{args.figure}"]
    return ["report.md", "report.html", *(f"{t}.csv" for t in TABLES), *figure]


def read_columns(parser: argparse.ArgumentParser, args: argparse.Namespace):
    """The table of ``args.file`` with the columns asked for, or an error naming those it has."""
    import pandas as pd

    suffix = args.file.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        parser.error(f"argument FILE: {args.file} is not .csv or .parquet")
    if suffix != ".csv" and importlib.util.find_spec("pyarrow") is None:
        parser.error("argument FILE: reading Parquet needs pyarrow (pip install pyarrow)")
    try:
        table = pd.read_csv(args.file) if suffix == ".csv" else pd.read_parquet(args.file)
    except (OSError, ValueError) as err:
        parser.error(f"argument FILE: cannot read {args.file}: {err}")
    for option, names in (("--truth", [args.truth]), ("--pred", args.pred)):
        missing = [name for name in names if name not in table.columns]
        if missing:
            parser.error(
                f"argument {option}: {args.file} has no column {missing[0]!r}; its columns are "
                + ", ".join(map(repr, map(str, table.columns)))
            )
    if len(set(args.pred)) < len(args.pred):
        parser.error("argument --pred: a column is named twice")
    return table


def main(argv: list[str] | None = None) -> int:
    """The command line: parse and check ``argv`` before any work, then run it; its status."""
    return run_command_line(PROG, _parse_and_run, argv)


def _parse_and_run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    parser = args.parser
    needed = ["pandas"] + ([] if args.no_figure else ["matplotlib"])
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        parser.error(
            f"report needs {' and '.join(missing)}: pip install 'cenmcc[figures]'"
            + ("" if args.no_figure else " (or pass --no-figure)")
        )
    writes = outputs(args)
    check_destination(parser, args.out, writes)  # before reading or computing anything
    table = read_columns(parser, args)
    try:
        report = cenmcc.report(
            table[args.truth],
            {name: table[name] for name in args.pred},
            measures=args.measures,
            level=args.level,
            n_resamples=args.resamples,
            random_state=args.seed,
        )
    except (ValueError, TypeError) as err:
        parser.error(f"{args.file}: {err}")

    def write():
        page = report.to_markdown()
        with staged_directory(args.out, writes=writes) as stage:
            write_atomic(stage / "report.md", lambda tmp: tmp.write_text(page))
            html = report.to_html(figure=not args.no_figure)
            write_atomic(stage / "report.html", lambda tmp: tmp.write_text(html))
            for name in TABLES:
                write_table(stage / f"{name}.csv", getattr(report, name))
            if not args.no_figure:
                save_figure(report.plot(), stage / f"report.{args.figure}", bbox_inches="tight")
        print(page)

    return run_into("report", args.out, write)
