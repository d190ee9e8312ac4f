"""Degrees of discriminancy and consistency of CEN, MCC and accuracy on every small 3-class problem.

Jurman, Riccadonna & Furlanello (2012), "Relationships between CEN and MCC": for three classes
with 2, 4 and 3 samples, over every confusion matrix, "the degree of discriminancy of CEN over
MCC is about 6", and "similar results hold for all the 12 small sample size cases on three
classes listed in Tab. 6 of [Wei et al. 2010], ranging from 9 to 19 samples". That table is not
available, so the sweep covers every split of n = 9 .. 19 samples into three non-empty classes.

Each case enumerates every 3x3 matrix with the given class sizes
(:func:`cenmcc.matrices_with_row_sums`) and counts pairs (:func:`cenmcc.pair_counts`, Huang &
Ling 2005) under three tie conventions:

- ``exact`` (the default): ranks from :func:`cenmcc.tie_ranks`, equal exactly when the values
  are mathematically equal;
- ``float_eq``: plain float ``==`` on the values of :func:`cenmcc.cen`, :func:`cenmcc.mcc` and
  :func:`cenmcc.accuracy`;
- ``rtol``: the float values with a relative tolerance (chained, see :mod:`cenmcc.comparison`).

Orientation: CEN is lower-better, MCC and accuracy higher-better; every pair is compared as
(-CEN, MCC, ACC), so a degree of consistency above 1/2 means the two measures mostly agree on
which matrix is better. The degree of discriminancy ``|P| / |Q|`` does not depend on orientation.

The class sizes' order does not matter: swapping two classes in both rows and columns maps the
matrices with sizes (a, b, c) one-to-one onto those with sizes (b, a, c) and leaves every metric
unchanged. :func:`order_check` verifies it on the counts; the sweep then has one row per
unordered split (sizes in non-decreasing order) unless ``ordered=True``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import time

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.simulation import resources
from cenmcc.simulation.cli import (
    add_output_arguments,
    add_parallel_arguments,
    finite_non_negative_float,
    number,
    positive_int,
)
from cenmcc.simulation.figures import PAGE, close, legend_key, style, subplots
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table
from cenmcc.simulation.parallel import map_tasks

from .measures import mcc_counting_fills
from .registry import Computed

#: The case of Jurman et al. (2012), after Wei et al. (2010): class sizes 2, 4, 3.
PAPER_SIZES = (2, 4, 3)
#: "the degree of discriminancy of CEN over MCC is about 6" (Jurman et al. 2012).
PAPER_DISCRIMINANCY = 6.0
#: Sample sizes of Wei et al.'s Table 6 (Jurman et al. 2012: "ranging from 9 to 19 samples").
N_RANGE = (9, 19)
#: Default relative tolerance of the ``rtol`` convention: far above float64 rounding (~1e-16)
#: and far below the gaps between distinct values of these small problems.
RTOL = 1e-9

METRICS = ("cen", "mcc", "acc")
PAIRS = (("cen", "mcc"), ("cen", "acc"), ("mcc", "acc"))
CONVENTIONS = ("exact", "float_eq", "rtol")
_SUFFIX = {"exact": "", "float_eq": "_float_eq", "rtol": "_rtol"}


def splits(n_min: int, n_max: int, *, ordered: bool = False) -> list[tuple[int, int, int]]:
    """Every split of n samples into three non-empty classes, for ``n_min <= n <= n_max``.

    Unordered splits have non-decreasing sizes; ``ordered=True`` gives every composition.

    Examples
    --------
    >>> splits(5, 5)
    [(1, 1, 3), (1, 2, 2)]
    >>> len(splits(5, 5, ordered=True))
    6
    """
    out = []
    for n in range(n_min, n_max + 1):
        for a, b in itertools.product(range(1, n - 1), repeat=2):
            c = n - a - b
            if c >= 1 and (ordered or a <= b <= c):
                out.append((a, b, c))
    return out


def measure_values(M: np.ndarray) -> tuple[dict, int]:
    """The three measures oriented higher-is-better, per tie convention, and the 0/0 MCC count.

    ``exact`` holds tie ranks (negated for CEN); ``float_eq`` and ``rtol`` hold -CEN, MCC and ACC
    as floats (they differ only in the tolerance given to :func:`cenmcc.pair_counts`).
    """
    m = cenmcc.Counts(M)  # validated and summed once for the three float measures
    mcc, undefined = mcc_counting_fills(m)
    floats = {"cen": -cenmcc.cen(m), "mcc": mcc, "acc": cenmcc.accuracy(m)}
    exact = {
        "cen": -cenmcc.tie_ranks(M, "cen"),
        "mcc": cenmcc.tie_ranks(M, "mcc"),
        "acc": cenmcc.tie_ranks(M, "accuracy"),
    }
    return {"exact": exact, "float_eq": floats, "rtol": floats}, int(np.count_nonzero(undefined))


def evaluate_case(task: tuple[tuple[int, ...], float]) -> dict:
    """One row of the table: pair counts and degrees for one split of the samples.

    Parameters
    ----------
    task : (sizes, rtol)
        Class sizes, and the relative tolerance of the ``rtol`` convention.

    Returns
    -------
    dict
        ``sizes``, ``n``, ``n_matrices``, ``n_mcc_undefined``; per convention (suffix ``""``,
        ``"_float_eq"``, ``"_rtol"``) the number of distinct values of each measure
        (``distinct_cen`` ...) and, per pair ``f_g``, the counts ``R_f_g`` (concordant),
        ``S_f_g`` (discordant), ``P_f_g`` (f orders, g ties), ``Q_f_g`` (f ties, g orders),
        ``T_f_g`` (both tie), the degree of consistency ``consistency_f_g = R / (R + S)`` and
        the degree of discriminancy ``discriminancy_f_g = P / Q`` of f over g.
    """
    sizes, rtol = task
    M = cenmcc.matrices_with_row_sums(sizes)
    values, n_filled = measure_values(M)
    row = {
        "sizes": "-".join(map(str, sizes)),
        "n": int(sum(sizes)),
        "n_matrices": len(M),
        "n_mcc_undefined": n_filled,
    }
    ranks = {
        conv: {
            m: cenmcc.tie_groups(v, rtol=rtol if conv == "rtol" else 0.0)
            for m, v in values[conv].items()
        }
        for conv in CONVENTIONS
    }
    exact = {(f, g): cenmcc.pair_counts(ranks["exact"][f], ranks["exact"][g]) for f, g in PAIRS}
    for conv in CONVENTIONS:
        sfx = _SUFFIX[conv]
        same = all(np.array_equal(ranks[conv][m], ranks["exact"][m]) for m in METRICS)
        if conv != "exact":
            row[f"same_ties_as_exact{sfx}"] = same
        for metric in METRICS:
            row[f"distinct_{metric}{sfx}"] = int(ranks[conv][metric].max()) + 1
        # Identical ranks give identical counts: count again only where the ties differ.
        counts = (
            exact
            if same
            else {(f, g): cenmcc.pair_counts(ranks[conv][f], ranks[conv][g]) for f, g in PAIRS}
        )
        for (f, g), c in counts.items():
            pair = f"{f}_{g}{sfx}"
            row |= {
                f"R_{pair}": c.concordant,
                f"S_{pair}": c.discordant,
                f"P_{pair}": c.f_only,
                f"Q_{pair}": c.g_only,
                f"T_{pair}": c.both_tied,
                f"consistency_{pair}": c.consistency(),
                f"discriminancy_{pair}": c.discriminancy(),
            }
    return row


def _timed_case(task: tuple[tuple[int, ...], float]) -> tuple[dict, float]:
    """:func:`evaluate_case` and the CPU seconds it took in its worker."""
    start = time.process_time()
    row = evaluate_case(task)
    return row, time.process_time() - start


def _count_columns(conv: str) -> list[str]:
    """The count columns (R, S, P, Q, T, distinct values) of one tie convention."""
    sfx = _SUFFIX[conv]
    return [f"{x}_{f}_{g}{sfx}" for f, g in PAIRS for x in "RSPQT"] + [
        f"distinct_{m}{sfx}" for m in METRICS
    ]


def order_check(sizes_list, rtol: float, **parallel) -> dict:
    """Whether any count changes when the class sizes are permuted, per tie convention.

    Every distinct permutation of each split in ``sizes_list`` is evaluated; a convention is
    order-independent when all its counts (R, S, P, Q, T and distinct values) agree across the
    permutations of every split.
    """
    tasks = []
    for sizes in sizes_list:
        tasks += [(perm, rtol) for perm in sorted(set(itertools.permutations(sizes)))]
    table = pd.DataFrame(map_tasks(evaluate_case, tasks, desc="order check", **parallel))
    table["split"] = ["-".join(map(str, sorted(t[0]))) for t in tasks]
    result = {"splits": len(sizes_list), "permutations": len(tasks)}
    for conv in CONVENTIONS:
        cols = _count_columns(conv)
        varying = table.groupby("split")[cols].nunique().gt(1).any(axis=1)
        result[f"order_independent{_SUFFIX[conv]}"] = not bool(varying.any())
        result[f"splits_varying{_SUFFIX[conv]}"] = sorted(varying.index[varying])
    return result


#: Columns of each case in the summary (exact ties unless the name says otherwise).
CASE_KEYS = (
    "n_matrices",
    "P",
    "Q",
    "discriminancy_cen_mcc",
    "discriminancy_cen_mcc_float_eq",
    "discriminancy_cen_mcc_rtol",
    "consistency_cen_mcc",
    "consistency_cen_mcc_float_eq",
    "discriminancy_cen_acc",
    "consistency_cen_acc",
    "discriminancy_mcc_acc",
    "consistency_mcc_acc",
    "n_mcc_undefined",
)


def _case_summary(row: dict) -> dict:
    out = {"sizes": [int(x) for x in row["sizes"].split("-")]}
    for key in CASE_KEYS:
        out[key] = row[{"P": "P_cen_mcc", "Q": "Q_cen_mcc"}.get(key, key)]
    return out


def _spread(values: pd.Series) -> dict:
    v = values.to_numpy(dtype=float)
    return {"min": float(v.min()), "median": float(np.median(v)), "max": float(v.max())}


def run(
    n_min: int = N_RANGE[0],
    n_max: int = N_RANGE[1],
    *,
    ordered: bool = False,
    rtol: float = RTOL,
    order_check_max_n: int = 11,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> tuple[pd.DataFrame, dict]:
    """The (2, 4, 3) case, the order check and the sweep over every split of n_min..n_max.

    Parameters
    ----------
    n_min, n_max : int
        Range of sample sizes of the sweep (Jurman et al. 2012: 9 to 19).
    ordered : bool
        One row per ordered split instead of one per unordered split.
    rtol : float
        Relative tolerance of the ``rtol`` convention.
    order_check_max_n : int
        The order check covers every split with at most this many samples, and (2, 4, 3).
    jobs, backend, scheduler, quiet
        Passed to :func:`cenmcc.simulation.parallel.map_tasks` (one task per case).

    Returns
    -------
    table : pandas.DataFrame
        One row per case (see :func:`evaluate_case`).
    summary : dict
    """
    parallel = {"jobs": jobs, "backend": backend, "scheduler": scheduler, "quiet": quiet}
    start_all = time.perf_counter()
    paper = evaluate_case((PAPER_SIZES, rtol))
    by_order = [
        evaluate_case((perm, rtol)) for perm in sorted(set(itertools.permutations(PAPER_SIZES)))
    ]
    checked = sorted(set(splits(3, order_check_max_n)) | {tuple(sorted(PAPER_SIZES))})
    orders = order_check(checked, rtol, **parallel)
    tasks = [(sizes, rtol) for sizes in splits(n_min, n_max, ordered=ordered)]
    start = time.perf_counter()
    timed = map_tasks(_timed_case, tasks, desc="sweep", **parallel)
    seconds = time.perf_counter() - start
    table = pd.DataFrame([row for row, _ in timed])
    float_differs = table["discriminancy_cen_mcc"] != table["discriminancy_cen_mcc_float_eq"]
    rtol_differs = table["discriminancy_cen_mcc"] != table["discriminancy_cen_mcc_rtol"]
    summary = {
        "source": "Jurman, Riccadonna & Furlanello (2012), 'Relationships between CEN and MCC'",
        "orientation": (
            "CEN is lower-better, MCC and ACC higher-better; pairs are compared as (-CEN, MCC, "
            "ACC), so consistency = |R| / (|R| + |S|) counts agreement on which matrix is better"
        ),
        "conventions": {
            "exact": "cenmcc.tie_ranks: ties exactly when the values are mathematically equal",
            "float_eq": "plain float == on cenmcc.cen, cenmcc.mcc, cenmcc.accuracy",
            "rtol": f"float values, ties within relative tolerance {rtol:g} (chained)",
        },
        "printed": {"sizes": list(PAPER_SIZES), "discriminancy_cen_mcc": "about 6"},
        "paper_case": {"sizes": list(PAPER_SIZES)}
        | {k: v for k, v in paper.items() if k != "sizes"},
        "paper_case_by_order": [
            {
                "sizes": [int(x) for x in row["sizes"].split("-")],
                "discriminancy_cen_mcc": row["discriminancy_cen_mcc"],
                "discriminancy_cen_mcc_float_eq": row["discriminancy_cen_mcc_float_eq"],
                "P_float_eq": row["P_cen_mcc_float_eq"],
                "Q_float_eq": row["Q_cen_mcc_float_eq"],
            }
            for row in by_order
        ],
        "order_check": orders,
        "n_range": [n_min, n_max],
        "ordered": ordered,
        "n_cases": len(table),
        "cases": [_case_summary(row) for row in table.to_dict("records")],
        "sweep": {
            "discriminancy_cen_mcc": _spread(table["discriminancy_cen_mcc"]),
            "discriminancy_cen_mcc_float_eq": _spread(table["discriminancy_cen_mcc_float_eq"]),
            "consistency_cen_mcc": _spread(table["consistency_cen_mcc"]),
            "discriminancy_cen_acc": _spread(table["discriminancy_cen_acc"]),
            "discriminancy_mcc_acc": _spread(table["discriminancy_mcc_acc"]),
            "cases_cen_over_mcc_above_1": int((table["discriminancy_cen_mcc"] > 1).sum()),
            "cases_float_eq_differs_from_exact": int(float_differs.sum()),
            "cases_rtol_differs_from_exact": int(rtol_differs.sum()),
            "n_matrices_total": int(table["n_matrices"].sum()),
        },
        "timing": {
            "computation_seconds": round(seconds, 2),
            "seconds_sweep": round(seconds, 2),
            "cpu_seconds_sweep_cases": round(sum(cpu for _, cpu in timed), 2),
            "seconds_total": round(time.perf_counter() - start_all, 2),
            "jobs": jobs,
            "backend": backend,
            "note": (
                "wall time of the sweep (loky workers included) and the CPU time of its cases "
                "summed over workers, on a shared 2-core machine; noisy"
            ),
        },
    }
    return table, summary


def _side_by_side(n: np.ndarray, half_width: float = 0.34) -> np.ndarray:
    """x positions: the cases of each n spread evenly over ``n ± half_width``, in table order."""
    x = n.astype(float)
    for value in np.unique(n):
        at = np.flatnonzero(n == value)
        if len(at) > 1:
            x[at] += np.linspace(-half_width, half_width, len(at))
    return x


def _infinite_row(ax, x: np.ndarray, sizes: np.ndarray) -> None:
    """Cases with |Q| = 0 (an infinite degree) on a row of their own above the data, ticked ∞.

    The row is a decade above the axis' top, past a dotted break line; the cases are named
    (counted, when more than two).
    """
    lo, hi = ax.get_ylim()
    y_inf = hi * 10
    ticks = [t for t in ax.yaxis.get_major_locator().tick_values(lo, hi) if lo <= t <= hi]
    formatter = ax.yaxis.get_major_formatter()
    formatter.set_locs(ticks)
    ax.set_yticks([*ticks, y_inf], [*(formatter(t) for t in ticks), "$\\infty$"])
    ax.axhline(np.sqrt(hi * y_inf), color="C3", ls=":", lw=0.6)
    ax.set_ylim(lo, y_inf * 10)
    ax.scatter(x, np.full(len(x), y_inf), marker="^", s=18, color="C3", zorder=4)
    names = ", ".join(f"$({case.replace('-', ', ')})$" for case in sizes)
    ax.text(
        0.03,
        y_inf * 1.8,
        f"$|Q| = 0$, sizes {names}" if len(sizes) <= 2 else f"$|Q| = 0$: {len(sizes)} cases",
        transform=ax.get_yaxis_transform(),
        va="bottom",
        fontsize=7,
        color="C3",
    )


def plot(table: pd.DataFrame, *, paper_sizes=PAPER_SIZES):
    """Degree of discriminancy (log scale) against n, one point per case.

    Three panels: CEN over MCC, CEN over ACC and MCC over ACC, with ties decided exactly; in
    the first, a stick from each case's exact value up to its value with plain float ``==``
    ties. The cases of each n are spread side by side. The case of the paper is circled; the
    dashed line is its "about 6"; a case with |Q| = 0 (an infinite degree) is a triangle on
    a row of its own above the data, ticked ∞.
    """
    # The sweep lists unordered splits with sizes sorted; ordered runs list every order.
    paper = (
        table["sizes"]
        .isin({"-".join(map(str, p)) for p in itertools.permutations(paper_sizes)})
        .to_numpy()
    )
    x = _side_by_side(table["n"].to_numpy())
    panels = [
        ("cen_mcc", "(a) CEN over MCC"),
        ("cen_acc", "(b) CEN over accuracy"),
        ("mcc_acc", "(c) MCC over accuracy"),
    ]
    dot = {"s": 7, "color": "C0", "lw": 0, "zorder": 3}
    ring = {"s": 45, "facecolors": "none", "edgecolors": "k", "lw": 0.8, "zorder": 4}
    with style():
        fig, axes = subplots(1, 3, width=PAGE / 3, height=2.5, sharex=True)
        for ax, (pair, title) in zip(axes, panels, strict=True):
            exact = table[f"discriminancy_{pair}"].to_numpy(dtype=float)
            finite = np.isfinite(exact)
            if pair == "cen_mcc":
                flt = table[f"discriminancy_{pair}_float_eq"].to_numpy(dtype=float)
                ax.vlines(x, exact, flt, color="C1", lw=0.6, zorder=2)
                ax.scatter(x, flt, s=7, facecolors="none", edgecolors="C1", lw=0.6, zorder=3)
                ax.scatter(x[paper], flt[paper], **ring)
                ax.axhline(PAPER_DISCRIMINANCY, color="0.3", ls="--", lw=0.8, zorder=1)
            ax.scatter(x[finite], exact[finite], **dot)
            ax.scatter(x[paper & finite], exact[paper & finite], **ring)
            ax.set_yscale("log")
            if not finite.all():
                _infinite_row(ax, x[~finite], table["sizes"].to_numpy()[~finite])
            ax.set(title=title, xlabel="$n$, samples in three classes")
            ax.set_xticks(sorted(table["n"].unique()))
        axes[0].set_ylabel("degree of discriminancy $|P|\\,/\\,|Q|$")
        handles = [
            legend_key(
                "one split of the $n$ samples, ties decided exactly",
                ls="",
                marker="o",
                ms=2.6,
                mew=0,
                color="C0",
            ),
            legend_key(
                "(a) the same split with float == ties",
                ls="-",
                lw=0.6,
                marker="o",
                ms=2.6,
                mfc="none",
                mew=0.6,
                color="C1",
            ),
            legend_key(
                f"class sizes ${tuple(paper_sizes)}$, the paper's case",
                ls="",
                marker="o",
                ms=6,
                mfc="none",
                mew=0.8,
                color="k",
            ),
            legend_key(
                f"(a) printed: “about {PAPER_DISCRIMINANCY:g}”", ls="--", lw=0.8, color="0.3"
            ),
        ]
        fig.legend(handles=handles, loc="outside upper center", ncols=2)
    return fig


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n-min", type=positive_int, default=N_RANGE[0], help="smallest n of the sweep (>= 3)"
    )
    parser.add_argument(
        "--n-max", type=positive_int, default=N_RANGE[1], help="largest n of the sweep"
    )
    parser.add_argument("--ordered", action="store_true", help="one row per ordered split")
    parser.add_argument(
        "--rtol",
        type=finite_non_negative_float,
        default=RTOL,
        help="tolerance of the rtol convention",
    )
    parser.add_argument(
        "--order-check-max-n",
        type=positive_int,
        default=11,
        help="order check on every split up to this n",
    )
    add_output_arguments(parser)
    add_parallel_arguments(parser)


#: Peak memory per matrix of a case in its worker: 812 and 825 bytes measured for the sizes
#: (10, 10, 10) and (13, 13, 13) (287,496 and 1,157,625 matrices), rounded up.
BYTES_PER_MATRIX = 1024


def case_matrices(sizes) -> int:
    """Number of 3x3 count matrices with row sums ``sizes``: ``prod_k C(t_k + 2, 2)``."""
    return math.prod(math.comb(t + 2, 2) for t in sizes)


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, a range without splits, or cases too large for the memory.

    The estimate is the largest case (the most even split of the largest n, or of the order
    check's) times the number of cases in memory at once, one per worker.
    """
    if args.n_min < 3:
        parser.error(
            f"argument --n-min: must be at least 3 (three non-empty classes), got {args.n_min}"
        )
    if args.n_max < args.n_min:
        parser.error(f"argument --n-max: must be at least --n-min ({args.n_min}), got {args.n_max}")
    for flag, n in (("--n-max", args.n_max), ("--order-check-max-n", args.order_check_max_n)):
        if n < 3:
            continue
        largest = case_matrices((n // 3, (n + 1) // 3, (n + 2) // 3))
        workers = os.cpu_count() if args.jobs == -1 else args.jobs
        try:
            resources.require_memory(
                largest * BYTES_PER_MATRIX * workers,
                f"{flag} {number(n)} ({number(largest)} matrices in its largest case, "
                f"{workers} at once)",
            )
        except ValueError as err:
            parser.error(f"argument {flag}: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Run the case and the sweep, write the tables and figure into ``out``, report."""
    start = time.perf_counter()
    table, summary = run(
        args.n_min,
        args.n_max,
        ordered=args.ordered,
        rtol=args.rtol,
        order_check_max_n=args.order_check_max_n,
        jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler,
        quiet=args.quiet,
    )
    seconds = time.perf_counter() - start
    timing = summary.pop("timing")
    del timing["computation_seconds"]  # a part of the whole run()'s, timed here
    write_table(out / "cases.csv", table)
    brief = table[["sizes", "n", "n_matrices", "P_cen_mcc", "Q_cen_mcc", *CASE_KEYS[3:-1]]]
    write_atomic(out / "cases.md", lambda tmp: tmp.write_text(markdown_table(brief) + "\n"))
    fig = plot(table)
    save_figure(fig, out / "discriminancy.png")
    save_figure(fig, out / "discriminancy.pdf")
    close(fig)
    p = summary["paper_case"]
    print(
        f"sizes {PAPER_SIZES}: {p['n_matrices']} matrices, |P| = {p['P_cen_mcc']}, "
        f"|Q| = {p['Q_cen_mcc']}, CEN over MCC = {p['discriminancy_cen_mcc']:.3f} exact, "
        f"{p['discriminancy_cen_mcc_float_eq']:.3f} with float == (printed: about 6)"
    )
    print(f"sweep n = {args.n_min}..{args.n_max}: {len(table)} cases; {seconds:.1f} s in all")
    return Computed(summary, seconds, timing)
