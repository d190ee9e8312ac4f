"""The families experiment's run: every check, the exact and symbolic proofs, the examples."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

import cenmcc
from cenmcc import families as fam

from .checks import (
    b_rows,
    binary_rows,
    dice_rows,
    eq3_rows,
    exact_checks,
    special_rows,
    table_of,
    z_a_rows,
)
from .findings import verdicts
from .settings import A_GRID, B_F, BINARY_VALUES, LIMIT_A, N_GRID


def _example(box, case, C, printed_mcc=None, printed_cen=None, closed_cen=None, note="") -> dict:
    with warnings.catch_warnings():  # Box 1(c) is 0/0, filled with 0: said in its note
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        mcc = float(cenmcc.mcc(C))
    return {
        "box": box,
        "case": case,
        "N": int(C.shape[-1]),
        "matrix": str(C.tolist()),
        "ACC": float(cenmcc.accuracy(C)),
        "MCC": mcc,
        "CEN": float(cenmcc.cen(C)),
        "printed_MCC": printed_mcc,
        "printed_CEN": printed_cen,
        "closed_form_CEN": closed_cen,
        "note": note,
    }


def figure1_examples() -> list[dict]:
    """The worked examples of the journal's Fig. 1 that its text lets us rebuild.

    Box 1 is printed for "K = 4" (read N = 4). Box 2's values of N are not given (N = 3, 4, 5,
    10 shown), nor Box 3's N (taken as 4, like Box 1). Boxes 1(d) and 4 cannot be rebuilt.
    ``printed_*`` are the values the text states for the case (the range ends for 1(a) and 1(b),
    MCC = 0 and CEN ≈ 0.337 for 1(c), MCC = 0 for Box 2); ``closed_form_CEN`` is the printed or
    derived closed form.
    """
    ones = np.ones(4, dtype=np.int64)
    rows = [
        _example(
            "1(a)", "perfect classification (identity; any diagonal)", np.diag(ones), 1.0, 0.0
        ),
        _example(
            "1(b)",
            "complete misclassification (1 - δ_ij) F, F = 1",
            fam.complete_misclassification(4),
            None,
            1.0,
            note="MCC = -1/(N-1) for this matrix (not printed)",
        ),
        _example(
            "1(c)",
            "all samples predicted as one class, balanced classes (one constant column)",
            fam.single_column(ones),
            0.0,
            0.337,
            float(fam.cen_dice_limit_journal(4)),
            "MCC is 0/0 (filled with 0); (N-1)/(2N) log_{2N-2}(N+1) = 0.33684; see box1c_search",
        ),
    ]
    rows += [
        _example(
            f"2 (N = {N})",
            "constant C_ij = 1",
            fam.constant(N),
            0.0,
            None,
            fam.cen_constant(N).item(),
        )
        for N in (3, 4, 5, 10)
    ]
    rows += [
        _example(
            f"3 (A = {A})",
            "Z_A (N = 4 assumed)",
            fam.z_a(4, A),
            None,
            None,
            fam.cen_z_a(4, A).item(),
        )
        for A in (10, 100, 1000)
    ]
    for box, N, note in (
        ("1(d)", 4, "'misclassification case in a very unbalanced situation': matrix not given"),
        ("4", 2, "binary examples (the gray lines of Fig. 3): T/F values not given"),
    ):
        rows.append({"box": box, "case": "not rebuildable from the text", "N": N, "note": note})
    return rows


def single_column_search(max_entry: int = 10, N: int = 4) -> dict:
    """Every N x N single-column matrix with entries <= max_entry whose CEN rounds to 0.337."""
    columns = np.stack(np.meshgrid(*[np.arange(max_entry + 1)] * N, indexing="ij"), axis=-1)
    columns = columns.reshape(-1, N)[1:]  # not all zero
    hits = set()
    for k in range(N):
        cen = cenmcc.cen(fam.single_column(columns, k=k))
        hits |= {(tuple(c.tolist()), k) for c in columns[np.round(cen, 3) == 0.337]}
    size = sorted(hits, key=lambda h: (max(h[0]), sum(h[0])))
    non_constant = [h for h in size if len(set(h[0])) > 1]
    return {
        "max_entry": max_entry,
        "n_matrices": int(len(columns) * N),
        "n_rounding_to_0.337": len(hits),
        "smallest": {"column": list(size[0][0]), "k": size[0][1]},
        "constant_columns": sorted({h[0][0] for h in hits if len(set(h[0])) == 1}),
        "smallest_non_constant": {"column": list(non_constant[0][0]), "k": non_constant[0][1]},
    }


def run(seed: int = 0, symbolic: bool = True) -> tuple[pd.DataFrame, dict]:
    """Evaluate every formula on its grid; returns the tidy table and the summary.

    Parameters
    ----------
    seed : int
        Seed of the random matrices of the Eq. (3) and single-column checks.
    symbolic : bool
        Run the sympy proofs of :mod:`experiments.families_symbolic` (the ``symbolic`` extra).

    Returns
    -------
    table : pandas.DataFrame
        One row per (formula, point): parameters, printed and measured values, error,
        tolerance and ``ok``.
    summary : dict
        ``formulas`` (one verdict per id), ``examples`` (the journal's Fig. 1), the grid,
        the tolerance rule and timings in seconds.
    """
    timings = {}
    start = time.perf_counter()
    parts = z_a_rows() + dice_rows() + special_rows(seed) + b_rows() + eq3_rows(seed)
    table = table_of(parts + binary_rows())
    records = verdicts(table)
    timings["numeric"] = time.perf_counter() - start

    start = time.perf_counter()
    exact = exact_checks()
    timings["exact"] = time.perf_counter() - start

    proofs, symbolic_note = {}, "not run (--no-symbolic)"
    if symbolic:
        start = time.perf_counter()
        try:
            from .. import families_symbolic
        except ImportError:  # the optional extra is not installed
            symbolic_note = "not run: sympy is not installed (pip install -e '.[symbolic]')"
        else:
            proofs = families_symbolic.prove()
            symbolic_note = f"sympy {families_symbolic.sp.__version__}; per-N proofs for N = "
            symbolic_note += ", ".join(map(str, families_symbolic.SYMBOLIC_N))
        timings["symbolic"] = time.perf_counter() - start
    for record in records:
        proof = proofs.get(record["id"])
        record["exact_check"] = exact.get(record["id"])
        record["proven_symbolically"] = None if proof is None else proof.proven
        record["disproven_symbolically"] = None if proof is None else proof.disproven
        record["symbolic"] = None if proof is None else proof.how

    start = time.perf_counter()
    examples, search = figure1_examples(), single_column_search()
    timings["examples"] = time.perf_counter() - start
    summary = {
        "formulas": records,
        "examples": examples,
        "box1c_search": search,
        "n_formulas": len(records),
        "n_hold": sum(r["holds"] for r in records),
        "not_holding": [r["id"] for r in records if not r["holds"]],
        "grid": {
            "N": f"{N_GRID[0]}..{N_GRID[-1]} (2..30 where the claim covers N = 2)",
            "A": f"1..200 and 91 log-spaced integers to 1e9 ({len(A_GRID)} values)",
            "A_limits": LIMIT_A.tolist(),
            "B": {"F": list(B_F), "T/F": "0 and 51 log-spaced ratios in [1e-3, 100]"},
            "binary_values": list(BINARY_VALUES),
            "seed": seed,
        },
        "tolerance": (
            "4 x a first-order bound on the float64 rounding error of the metric's evaluation "
            "on the matrix (eps x number of terms x sum |terms| / |normalizer|); limits: "
            "|gap| <= N^2 (1 + ln A) / A at A = 1e6 and 1e9"
        ),
        "symbolic": symbolic_note,
        "timings_s": timings,
    }
    return table, summary
