"""Which properties each named measure has: the audit of :mod:`cenmcc.properties` as a table.

Every measure of :data:`cenmcc.MEASURES` is audited for K = 2 and K = 3 (``--classes``), on
every matrix (``all``) and on the matrices in which every class is true and predicted
(``present``, the domain of Gösgens et al. 2021). The table has one row per measure, K, domain
and property, with the verdict, the smallest counterexample found and how it was decided;
``properties.md`` shows ✓ (holds), ✗ (fails) and – (no meaning) per measure and property, then
the counterexamples.
"""

from __future__ import annotations

import argparse
import json
import time

import pandas as pd

import cenmcc
from cenmcc.simulation.cli import add_output_arguments, non_negative_int, positive_int
from cenmcc.simulation.outputs import markdown_table, write_atomic, write_table

from .registry import Computed

#: The random matrices checked after the exhaustive range, per measure and K (the audit's
#: default is 10**6; 10**5 keeps the whole table to a few minutes on one core).
N_RANDOM = 10**5
SEED = 2021
DOMAINS = {"all": False, "present": True}
MARK = {True: "✓", False: "✗", None: "–"}


def run(
    classes=(2, 3), n_random: int = N_RANDOM, seed: int = SEED, n_items: int | None = None
) -> pd.DataFrame:
    """One row per measure, K, domain and property: the audit's verdict and counterexample
    (``n_items``: the audit's exhaustive range, its default if None)."""
    rows = []
    for name in cenmcc.MEASURES:
        for K in classes:
            for domain, present in DOMAINS.items():
                report = cenmcc.properties.audit(
                    name,
                    K,
                    n_items=n_items,
                    n_random=n_random,
                    seed=seed,
                    every_class_present=present,
                )
                for prop, result in report.items():
                    rows.append(
                        {
                            "measure": name,
                            "K": K,
                            "domain": domain,
                            "property": prop,
                            "holds": result.holds,
                            "counterexample": json.dumps(result.counterexample),
                            "method": result.method,
                        }
                    )
    return pd.DataFrame(rows)


def wide(table: pd.DataFrame) -> pd.DataFrame:
    """The measure × property table of marks, one row per measure, K and domain."""
    marks = table.assign(mark=table["holds"].map(MARK))
    grid = marks.pivot_table(
        index=["measure", "K", "domain"], columns="property", values="mark", aggfunc="first"
    )
    order = [p for p in cenmcc.properties.PROPERTIES if p in grid.columns]
    grid = grid[order].fillna("")
    measures = {name: i for i, name in enumerate(cenmcc.MEASURES)}
    grid = grid.reset_index()
    return grid.sort_values(
        ["measure", "K", "domain"],
        key=lambda c: c.map(measures.get) if c.name == "measure" else c,
        kind="stable",
    )


def markdown(table: pd.DataFrame) -> str:
    """The marks, then each counterexample of the domain of every class present."""
    lines = [markdown_table(wide(table)), "", "Counterexamples (every class present):", ""]
    failing = table[(table["holds"] == False) & (table["domain"] == "present")]  # noqa: E712
    for row in failing.itertuples():
        lines.append(f"- {row.measure}, K = {row.K}, {row.property}: {row.counterexample}")
    return "\n".join(lines) + "\n"


def summarize(table: pd.DataFrame) -> dict:
    holds = {}
    for row in table.itertuples():
        key = f"{row.measure}|{row.K}|{row.domain}"
        holds.setdefault(key, {})[row.property] = row.holds
    return {"holds": holds, "n_random": N_RANDOM}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--classes", type=positive_int, nargs="+", default=[2, 3], help="the numbers of classes"
    )
    parser.add_argument(
        "--n-random",
        type=positive_int,
        default=N_RANDOM,
        help="random matrices per audit after the exhaustive range",
    )
    parser.add_argument("--seed", type=non_negative_int, default=SEED, help="seed of the matrices")
    add_output_arguments(parser)


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if min(args.classes) < 2:
        parser.error(f"argument --classes: each K must be at least 2, got {min(args.classes)}")


def main(args: argparse.Namespace, out) -> Computed:
    """Audit every measure, write properties.csv and properties.md into ``out``, report."""
    start = time.perf_counter()
    table = run(tuple(args.classes), args.n_random, args.seed)
    seconds = time.perf_counter() - start
    write_table(out / "properties.csv", table)
    write_atomic(out / "properties.md", lambda tmp: tmp.write_text(markdown(table)))
    summary = summarize(table)
    summary["n_random"] = args.n_random
    print(f"{table['measure'].nunique()} measures audited, K = {args.classes}: {seconds:.1f} s")
    return Computed(summary, seconds, {"n_random": args.n_random, "classes": args.classes})
