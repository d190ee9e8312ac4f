"""The families experiment's findings: one verdict per formula, from the checked points."""

from __future__ import annotations

import numpy as np
import pandas as pd

import cenmcc
from cenmcc import families as fam

from .settings import FORMULAS, PARAMS


def _point(row: pd.Series) -> dict:
    """A table row as a counterexample: the parameters that are set, and the two values."""
    point = {k: row[k] for k in PARAMS if pd.notna(row[k])}
    point = {k: int(v) if float(v).is_integer() else float(v) for k, v in point.items()}
    if pd.notna(row["case"]):
        point["case"] = row["case"]
    if pd.notna(row["n_samples"]):
        point["n_samples"] = int(row["n_samples"])
    return point | {k: float(row[k]) for k in ("printed", "measured", "abs_error")}


def _dynamic_note(formula_id: str, rows: pd.DataFrame) -> tuple[bool, str]:
    """What a row-wise test cannot say: ``(holds, note)`` for the few claims that need it."""
    if formula_id == "binary-sym-cen-max":  # the maximum must also be attained
        gap = (rows["printed"] - rows["measured"]).abs()
        i = gap.idxmin()
        attained = bool(gap[i] <= rows.loc[i, "tolerance"])
        where = rows.loc[i, "T"] / rows.loc[i, "F"]
        return attained, f"attained at T/F = {where:.6f}, CEN = {rows.loc[i, 'measured']:.12f}"
    if formula_id == "dice-limit-increasing":
        l2, l3 = (float(fam.cen_dice_limit_journal(n)) for n in (2, 3))
        return True, f"for N >= 3; not from N = 2 ({l2:.4f}) to N = 3 ({l3:.4f})"
    if formula_id == "zA-cen-decreasing":  # the papers take A an integer; real A differs
        a = np.linspace(1.0, 2.0, 2001)
        bumps = []
        for N in (3, 4, 10, 30):
            cen = cenmcc.cen(fam.z_a(N, a))
            i = int(np.argmax(cen))
            bumps.append(f"N = {N}: +{cen[i] - cen[0]:.2g} at A = {a[i]:.3f}")
        return True, "over real A it first increases above its A = 1 value: " + "; ".join(bumps)
    return True, ""


def verdicts(table: pd.DataFrame) -> list[dict]:
    """One record per formula id: max error, verdict and smallest counterexample."""
    records = []
    order = ["N", "n_samples", "A", "T", "F", "TP", "FN", "FP", "TN"]
    for formula in FORMULAS:
        rows = table[table["formula"] == formula.id]
        extra_ok, note = _dynamic_note(formula.id, rows)
        holds = bool(rows["ok"].all()) and extra_ok
        finite = rows[np.isfinite(rows["abs_error"])]
        ratio = (finite["abs_error"] / finite["tolerance"].where(finite["tolerance"] > 0)).max()
        failing = rows[~rows["ok"]].sort_values(order, na_position="first")
        records.append(
            {
                "id": formula.id,
                "source": formula.source,
                "statement": formula.statement,
                "holds": holds,
                "verdict": "holds" if holds else "does not hold",
                "max_abs_error": float(finite["abs_error"].max()),
                "n_printed_infinite": len(rows) - len(finite),  # points at a printed pole
                "max_error_over_tolerance": None if pd.isna(ratio) else float(ratio),
                "n_points": len(rows),
                "n_failing": int((~rows["ok"]).sum()),
                "counterexample": None if failing.empty else _point(failing.iloc[0]),
                "correction": formula.correction,
                "note": "; ".join(x for x in (formula.note, note) if x),
            }
        )
    return records
