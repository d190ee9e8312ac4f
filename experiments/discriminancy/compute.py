"""The discriminancy experiment's run: each case's matrices enumerated, their pairs counted."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.simulation.parallel import map_tasks

from ..measures import mcc_counting_fills
from .settings import CONVENTIONS, METRICS, N_RANGE, PAIRS, PAPER_SIZES, RTOL, SUFFIX


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
        sfx = SUFFIX[conv]
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
    sfx = SUFFIX[conv]
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
        result[f"order_independent{SUFFIX[conv]}"] = not bool(varying.any())
        result[f"splits_varying{SUFFIX[conv]}"] = sorted(varying.index[varying])
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
