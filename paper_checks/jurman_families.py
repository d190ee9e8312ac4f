"""Claims of the two Jurman et al. papers about closed forms, checked by the families experiment.

The closed forms of the Z_A, dice-rolling, B(T, F) and binary families, and the examples of the
journal's Figure 1 (Boxes 1-4), as :mod:`experiments.families` (``python -m experiments
families``) evaluates them: each check reads that experiment's ``summary.json`` from
:data:`paper_checks.summaries.figures_dir`.
"""

from __future__ import annotations

from .declarations import load
from .record import Measured, NotCheckable, Published
from .summaries import load_summary

FAMILIES = "families"


def _families() -> dict:
    return load_summary(FAMILIES)


def _formula(formula_id: str) -> dict:
    for formula in _families()["formulas"]:
        if formula["id"] == formula_id:
            return formula
    raise KeyError(f"the families summary has no formula {formula_id!r}")


def _point(point: dict) -> str:
    shown = ", ".join(
        f"{k} = {v}" for k, v in point.items() if k not in ("printed", "measured", "abs_error")
    )
    return f"{shown}: printed {point['printed']:.6g}, computed {point['measured']:.6g}"


def _formula_detail(formula: dict, what: str) -> str:
    parts = [f"{what}, over {formula['n_points']:,} points of the families experiment's grid"]
    if formula["n_printed_infinite"]:
        parts.append(f"the printed form is infinite (a pole) at {formula['n_printed_infinite']}")
    parts.append(
        f"the experiment's per-point test fails at {formula['n_failing']:,} of them"
        if formula["n_failing"]
        else "the experiment's per-point test passes at every one"
    )
    if formula["counterexample"]:
        parts.append("smallest counterexample " + _point(formula["counterexample"]))
    parts += [x for x in (formula["exact_check"], formula["symbolic"], formula["note"]) if x]
    return "; ".join(parts)


def formula_gap(formula_id: str) -> Measured:
    """Largest |printed - computed| of a closed form over the families grid."""
    formula = _formula(formula_id)
    return Measured(
        formula["max_abs_error"], _formula_detail(formula, "largest |printed - computed|")
    )


def formula_wrong_way(formula_id: str) -> Measured:
    """Largest step against a stated monotonicity between consecutive grid points."""
    formula = _formula(formula_id)
    return Measured(
        formula["max_abs_error"],
        _formula_detail(formula, "largest step in the wrong direction between neighbours"),
    )


def formula_convergence(formula_id: str) -> Measured:
    """Largest gap to a stated limit, in units of the rate at which the exact forms converge."""
    formula = _formula(formula_id)
    return Measured(
        formula["max_error_over_tolerance"],
        _formula_detail(
            formula, f"largest gap to the limit ({formula['max_abs_error']:.3g}) over the rate"
        ),
    )


def converges(text: str, rate: str) -> Published:
    """A stated limit: the gap at the largest parameters must be within the exact forms' rate."""
    return Published(
        text=text,
        value=1.0,
        tolerance=0.0,
        why=f"the gap must shrink at the rate of the exact forms, {rate}",
    )


def _example(box: str) -> dict:
    for example in _families()["examples"]:
        if example["box"] == box:
            return example
    raise KeyError(f"the families summary has no example for Box {box}")


def box1c_mcc():
    example, search = _example("1(c)"), _families()["box1c_search"]
    return Measured(
        example["MCC"],
        f"MCC of the rebuilt Box 1(c), {example['matrix']} (0/0, set to 0); its CEN is "
        f"{example['CEN']:.5f}. Of the {search['n_matrices']:,} single-column 4 x 4 matrices "
        f"with entries <= {search['max_entry']}, {search['n_rounding_to_0.337']} give CEN "
        f"rounding to 0.337, every constant column among them",
    )


def _not_rebuildable(box: str) -> NotCheckable:
    example = _example(box)
    return NotCheckable(
        f"Figure 1 is not in the text and Box {box} cannot be rebuilt from it: {example['note']}"
    )


def box1d():
    return _not_rebuildable("1(d)")


def box4():
    return _not_rebuildable("4")


def box3_examples():
    rows = [_example(f"3 (A = {A})") for A in (10, 100, 1000)]
    shown = "; ".join(
        f"A = {r['box'].split('= ')[1].rstrip(')')}: ACC {r['ACC']:.4f}, MCC {r['MCC']:.4f}, "
        f"CEN {r['CEN']:.4f}"
        for r in rows
    )
    return NotCheckable(
        "Figure 1 is not in the text, and neither is the N of Box 3; rebuilt with N = 4 (as Box 1) "
        f"by the families experiment: {shown}"
    )


#: The claims declared in jurman_families.toml, each measured by the check it names.
RECORDS = load(__name__)
