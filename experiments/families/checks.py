"""The families experiment's checks: each formula on its grid against the metric, with its bound."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd

import cenmcc
from cenmcc import families as fam

from .. import misprints
from .settings import (
    A_GRID,
    B_F,
    B_RATIOS,
    BINARY_VALUES,
    COLUMNS,
    EPS,
    EXACT_A,
    LIMIT_A,
    N_GRID,
    N_GRID_2,
    PARAMS,
    SAFETY,
    SYMMETRIC_MAX,
)


def _marginals(C) -> tuple[np.ndarray, ...]:
    """Float64 counts, row sums, column sums, total and trace."""
    C = np.asarray(C, dtype=np.float64)
    return C, C.sum(axis=-1), C.sum(axis=-2), C.sum(axis=(-2, -1)), np.einsum("...ii->...", C)


def cen_bound(C) -> np.ndarray:
    """First-order rounding bound of CEN: ``(K^2 + 2) eps sum |terms| / (2 s ln(2K - 2))``."""
    C, t, p, s, _ = _marginals(C)
    K = C.shape[-1]
    d = t + p
    cells = np.abs(C * np.log(C, out=np.zeros_like(C), where=C > 0))
    np.einsum("...ii->...i", cells)[...] = 0.0
    classes = np.abs((d - 2 * np.einsum("...ii->...i", C)) * np.log(d, where=d > 0, out=0 * d))
    terms = classes.sum(axis=-1) + 2.0 * cells.sum(axis=(-2, -1))
    return (K * K + 2) * EPS * terms / (2.0 * s * np.log(2.0 * K - 2.0))


def mcc_bound(C) -> np.ndarray:
    """First-order rounding bound of MCC from its marginal form; ``inf`` where MCC is 0/0.

    ``(K + 2) eps [(c s + sum t p) / r + |MCC| / 2 (S_p / v_p + S_t / v_t)]`` with
    ``r = sqrt(v_p v_t)``, ``S_p = s^2 + sum p^2`` and ``S_t = s^2 + sum t^2``: the cancellation
    in the numerator and in both variances.
    """
    C, t, p, s, c = _marginals(C)
    K = C.shape[-1]
    cross, pp, tt = (t * p).sum(axis=-1), (p * p).sum(axis=-1), (t * t).sum(axis=-1)
    vp, vt = s * s - pp, s * s - tt
    root = np.sqrt(vp * vt)
    defined = root > 0
    r = np.where(defined, root, 1.0)
    m = np.abs(c * s - cross) / r
    terms = (c * s + cross) / r + m / 2 * (
        (s * s + pp) / np.where(defined, vp, 1.0) + (s * s + tt) / np.where(defined, vt, 1.0)
    )
    return np.where(defined, (K + 2) * EPS * terms, np.inf)


def acc_bound(C) -> np.ndarray:
    """Rounding bound of ``trace / total`` (exact integer sums, one division)."""
    _, _, _, s, c = _marginals(C)
    return 2 * EPS * c / s


def _metrics(C) -> dict:
    """CEN, MCC and ACC of a stack and their rounding bounds."""
    return {
        "cen": cenmcc.cen(C),
        "acc": cenmcc.accuracy(C),
        "mcc": cenmcc.mcc(C),
        "cen_bound": cen_bound(C),
        "mcc_bound": mcc_bound(C),
        "acc_bound": acc_bound(C),
    }


Rows = dict[str, np.ndarray]  # one array per column of COLUMNS, all of the same length


def _rows(formula, params, C, printed, measured, bound, **extra) -> Rows:
    """Identity rows: ``ok`` when ``|printed - measured| <= 4 bound``.

    ``C`` gives the number of samples (``None`` for claims on a closed form alone); ``extra``
    columns (e.g. ``case``) are broadcast like ``params``. Missing parameters are NaN.
    """
    measured = np.asarray(measured, dtype=np.float64).ravel()
    n = measured.size
    printed = np.broadcast_to(np.asarray(printed, dtype=np.float64), n)
    tolerance = SAFETY * np.broadcast_to(np.asarray(bound, dtype=np.float64).ravel(), n)
    error = np.abs(printed - measured)
    rows = {k: np.full(n, np.nan) for k in PARAMS} | {"case": np.full(n, None, dtype=object)}
    rows |= {k: np.broadcast_to(np.ravel(v), n) for k, v in (params | extra).items()}
    samples = np.full(n, np.nan) if C is None else np.asarray(C).sum(axis=(-2, -1)).ravel()
    return rows | {
        "formula": np.full(n, formula, dtype=object),
        "n_samples": samples,
        "printed": printed,
        "measured": measured,
        "abs_error": error,
        "tolerance": tolerance,
        "ok": error <= tolerance,
    }


def _with_errors(rows: Rows, error, ok) -> Rows:
    """Replace the error and verdict of rows whose claim is not an identity."""
    return rows | {"abs_error": np.asarray(error, dtype=np.float64), "ok": np.asarray(ok, bool)}


def table_of(parts: list[Rows]) -> pd.DataFrame:
    """The tidy table: the row blocks concatenated, one DataFrame built once."""
    return pd.DataFrame({c: np.concatenate([p[c] for p in parts]) for c in COLUMNS})


def _monotone_rows(formula, params, C, values, bound, *, decreasing=True) -> Rows:
    """Monotonicity along the last axis: the error is the step in the wrong direction."""
    values = np.asarray(values, dtype=np.float64)
    bound = np.broadcast_to(bound, values.shape)
    step = np.diff(values, axis=-1) * (1 if decreasing else -1)
    wrong_way = np.concatenate([np.maximum(step, 0.0), np.zeros_like(values[..., :1])], axis=-1)
    allowed = np.concatenate([bound[..., 1:] + bound[..., :-1], bound[..., -1:]], axis=-1)
    rows = _rows(formula, params, C, np.nan, values, allowed / SAFETY)
    return _with_errors(rows, wrong_way.ravel(), wrong_way.ravel() <= rows["tolerance"])


def _limit_rows(formula, params, C, limit, measured, N, A) -> Rows:
    """A limit for A -> ∞: at large A the gap must be within ``N^2 (1 + ln A) / A``."""
    rate = np.asarray(N, dtype=np.float64) ** 2 * (1.0 + np.log(A)) / A
    return _rows(formula, params, C, limit, measured, rate / SAFETY)


def z_a_rows() -> list[Rows]:
    """Every Z_A claim for N = 3..30 on the A grid (A = 10^6, 10^9 for the limits)."""
    out = []
    for N in N_GRID:
        C = fam.z_a(N, A_GRID)
        m = _metrics(C)
        p = {"N": N, "A": A_GRID}
        out += [
            _rows("zA-acc", p, C, fam.acc_z_a(N, A_GRID), m["acc"], m["acc_bound"]),
            _rows("zA-mcc-journal", p, C, fam.mcc_z_a_journal(N, A_GRID), m["mcc"], m["mcc_bound"]),
            _rows(
                "zA-mcc-preprint",
                p,
                C,
                misprints.mcc_z_a_preprint(N, A_GRID),
                m["mcc"],
                m["mcc_bound"],
            ),
            _rows("zA-cen", p, C, fam.cen_z_a(N, A_GRID), m["cen"], m["cen_bound"]),
            _monotone_rows("zA-acc-decreasing", p, C, m["acc"], m["acc_bound"]),
            _monotone_rows("zA-mcc-decreasing", p, C, m["mcc"], m["mcc_bound"]),
            _monotone_rows("zA-cen-decreasing", p, C, m["cen"], m["cen_bound"]),
        ]
        C = fam.z_a(N, LIMIT_A)
        m = _metrics(C)
        p = {"N": N, "A": LIMIT_A}
        mcc_limits = {
            "zA-mcc-limit-preprint": misprints.mcc_z_a_limit_preprint(N),
            "zA-mcc-limit-journal": fam.mcc_z_a_limit_journal(N),
        }
        out += [_limit_rows("zA-acc-limit", p, C, 0.0, m["acc"], N, LIMIT_A)]
        out += [_limit_rows(k, p, C, v, m["mcc"], N, LIMIT_A) for k, v in mcc_limits.items()]
        out += [_limit_rows("zA-cen-limit", p, C, 0.0, m["cen"], N, LIMIT_A)]
    return out


def dice_rows() -> list[Rows]:
    """Every dice claim: CEN and MCC on the grid, the limits, and the limit as a function of N."""
    out = []
    for N in N_GRID:
        C = fam.dice(N, A_GRID)
        m = _metrics(C)
        p = {"N": N, "A": A_GRID}
        out += [
            _rows("dice-cen", p, C, fam.cen_dice(N, A_GRID), m["cen"], m["cen_bound"]),
            _rows("dice-mcc-zero", p, C, 0.0, m["mcc"], m["mcc_bound"]),
            _monotone_rows("dice-cen-decreasing", p, C, m["cen"], m["cen_bound"]),
        ]
    for N in N_GRID_2:
        C = fam.dice(N, LIMIT_A)
        cen = cenmcc.cen(C)
        p = {"N": N, "A": LIMIT_A}
        limits = {
            "dice-cen-limit-preprint": misprints.cen_dice_limit_preprint(N),
            "dice-cen-limit-journal": fam.cen_dice_limit_journal(N),
        }
        out += [_limit_rows(k, p, C, v, cen, N, LIMIT_A) for k, v in limits.items()]
    # Claims on the closed-form limit L(N) itself (proven to be the limit above and symbolically).
    n = np.union1d(np.arange(3, 1001), np.round(np.logspace(3, 9, 61))).astype(np.int64)
    out.append(
        _monotone_rows(
            "dice-limit-increasing",
            {"N": n},
            None,
            fam.cen_dice_limit_journal(n),
            8 * EPS,
            decreasing=False,
        )
    )
    n = 10 ** np.arange(1, 10)
    rate = np.log(2.0) / np.log(n)  # 1/2 - L(N) = ln 2 / (2 ln N) + O(1/ln^2 N)
    limit = fam.cen_dice_limit_journal(n)
    out.append(_rows("dice-limit-asymptote", {"N": n}, None, 0.5, limit, rate / SAFETY))
    return out


def special_rows(seed: int) -> list[Rows]:
    """Constant, complete misclassification, swapped pair and single-column matrices."""
    rng = np.random.default_rng(seed)
    F = np.array([1, 2, 7, 1000])
    G = np.array([1, 3, 1000, 2])
    out = []
    for N in N_GRID_2:
        p = {"N": N, "F": F}
        C = fam.constant(N, F)
        m = _metrics(C)
        out += [
            _rows("const-mcc-zero", p, C, 0.0, m["mcc"], m["mcc_bound"]),
            _rows("const-cen", p, C, fam.cen_constant(N), m["cen"], m["cen_bound"]),
        ]
        C = fam.complete_misclassification(N, F)
        out.append(_rows("misclass-cen-one", p, C, 1.0, cenmcc.cen(C), cen_bound(C)))
        C = fam.swapped_pair(N, F, G)
        mcc = cenmcc.mcc(C)
        out.append(_rows("pair-mcc-minus-one", p | {"T": G}, C, -1.0, mcc, mcc_bound(C)))
        C = fam.single_column(np.outer(F, np.ones(N, dtype=np.int64)))
        uniform = fam.cen_dice_limit_journal(N)
        out.append(_rows("onecol-cen-uniform", p, C, uniform, cenmcc.cen(C), cen_bound(C)))
        # Random single columns: MCC is 0/0 (one warning per call), CEN varies.
        C = fam.single_column(rng.integers(1, 100, size=(200, N)), k=int(rng.integers(N)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", cenmcc.UndefinedMetricWarning)
            mcc = cenmcc.mcc(C)
        filled = any(issubclass(w.category, cenmcc.UndefinedMetricWarning) for w in caught)
        rows = _rows("onecol-mcc-zero", {"N": N}, C, 0.0, mcc, 0.0)
        out.append(_with_errors(rows, rows["abs_error"], rows["ok"] & filled))
        distinct = len(np.unique(np.round(cenmcc.cen(C), 12)))
        rows = _rows("onecol-cen-varies", {"N": [N]}, None, np.nan, [distinct], 0.0)
        out.append(_with_errors(rows, [0.0], [distinct > 1]))
    return out


def b_grid() -> tuple[np.ndarray, np.ndarray]:
    """The (T, F) grid of B(T, F): ``T = round(F r)`` for the ratios r of B_RATIOS, each F."""
    T = [np.unique(np.round(F * B_RATIOS)).astype(np.int64) for F in B_F]
    F = [np.full(len(t), F, dtype=np.int64) for t, F in zip(T, B_F, strict=True)]
    return np.concatenate(T), np.concatenate(F)


def b_rows() -> list[Rows]:
    """B(T, F) for N = 2..30 over the (T, F) grid."""
    T, F = b_grid()
    out = []
    for N in N_GRID_2:
        C = fam.b_matrix(N, T, F)
        m = _metrics(C)
        p = {"N": N, "T": T, "F": F}
        identity = fam.cen_b_from_mcc(N, T, F, m["mcc"])  # uses cenmcc's MCC: its error counts
        out += [
            _rows("b-mcc", p, C, fam.mcc_b(N, T, F), m["mcc"], m["mcc_bound"]),
            _rows("b-cen", p, C, fam.cen_b(N, T, F), m["cen"], m["cen_bound"]),
            _rows("b-identity", p, C, identity, m["cen"], m["cen_bound"] + 2 * m["mcc_bound"]),
        ]
    return out


def eq3_rows(seed: int) -> list[Rows]:
    """First line of Eq. (3) against its second line (:func:`cenmcc.tmcc`), without 1/k."""
    rng = np.random.default_rng(seed)
    a, t = A_GRID[::10], np.arange(0, 50, 7)
    out = []
    for N in N_GRID:
        stacks = {
            "Z_A": (fam.z_a(N, a), [f"Z_A, A = {x}" for x in a]),
            "dice": (fam.dice(N, a), [f"dice, A = {x}" for x in a]),
            "B": (fam.b_matrix(N, t, 3), [f"B(T = {x}, F = 3)" for x in t]),
            "random": (rng.integers(0, 1000, size=(50, N, N)), ["uniform 0..999"] * 50),
        }
        C = np.concatenate([s[0] for s in stacks.values()])
        case = np.concatenate([s[1] for s in stacks.values()])
        line2 = cenmcc.tmcc(C)
        # Both lines use the same float MCC; they differ by log(s/X) against -log(X/s).
        bound = 8 * EPS * (1.0 + np.abs(line2)) / SAFETY
        for name, line1 in (
            ("eq3-line1-preprint", misprints.eq3_first_line_preprint(C)),
            ("eq3-line1-journal", fam.eq3_first_line_journal(C)),
        ):
            out.append(_rows(name, {"N": N}, C, line1, line2, bound, case=case))
    return out


def binary_rows() -> list[Rows]:
    """Binary MCC and CEN on every matrix with entries in BINARY_VALUES; symmetric claims."""
    v = np.array(BINARY_VALUES)
    TP, FN, FP, TN = (x.ravel()[1:] for x in np.meshgrid(v, v, v, v, indexing="ij"))  # not all 0
    C = fam.binary(TP, FN, FP, TN)
    p = {"N": 2, "TP": TP, "FN": FN, "FP": FP, "TN": TN}
    out = [_rows("binary-cen", p, C, fam.cen_binary(TP, FN, FP, TN), cenmcc.cen(C), cen_bound(C))]
    d = (TP + FP > 0) & (TP + FN > 0) & (TN + FP > 0) & (TN + FN > 0)  # MCC defined
    printed = fam.mcc_binary(TP[d], FN[d], FP[d], TN[d])
    q = {"N": 2, "TP": TP[d], "FN": FN[d], "FP": FP[d], "TN": TN[d]}
    out.append(_rows("binary-mcc", q, C[d], printed, cenmcc.mcc(C[d]), mcc_bound(C[d])))

    T, F = (x.ravel() for x in np.mgrid[0 : SYMMETRIC_MAX + 1, 1 : SYMMETRIC_MAX + 1])
    C = fam.binary(T, F, F, T)
    cen, bound = cenmcc.cen(C), cen_bound(C)
    p = {"N": 2, "T": T, "F": F}
    out.append(_rows("binary-sym-cen", p, C, fam.cen_binary_symmetric(T, F), cen, bound))
    # CEN > 1 iff 0 < T < F; CEN = 1 at T = 0 and T = F; CEN < 1 for T > F.
    rows = _rows("binary-sym-cen-gt1", p, C, 1.0, cen, bound)
    tol, gap = rows["tolerance"], cen - 1.0
    expected = np.select([(T > 0) & (T < F), (T == 0) | (T == F)], [1, 0], -1)
    ok = np.select([expected == 1, expected == 0], [gap > tol, np.abs(gap) <= tol], gap < -tol)
    out.append(_with_errors(rows, np.where(ok, 0.0, np.abs(gap)), ok))
    # "Attained for T = 0": no CEN above CEN(T = 0) = 1.
    rows = _rows("binary-sym-cen-max-at-t0", p, C, 1.0, cen, bound)
    excess = np.maximum(gap, 0.0)
    out.append(_with_errors(rows, excess, excess <= rows["tolerance"]))
    # The corrected maximum: never exceeded on the integer grid nor on a fine grid of real T/F
    # that contains e/2 - 1, where it must be attained (checked in _dynamic_note).
    ratio = np.union1d(np.linspace(0.0, 3.0, 3001), [fam.BINARY_SYMMETRIC_CEN_ARGMAX])
    real = fam.binary(ratio, 1.0, 1.0, ratio)
    for Cm, params in ((C, p), (real, {"N": 2, "T": ratio, "F": 1.0})):
        value = cenmcc.cen(Cm)
        rows = _rows(
            "binary-sym-cen-max", params, Cm, fam.BINARY_SYMMETRIC_CEN_MAX, value, cen_bound(Cm)
        )
        excess = np.maximum(value - fam.BINARY_SYMMETRIC_CEN_MAX, 0.0)
        out.append(_with_errors(rows, excess, excess <= rows["tolerance"]))
    return out


def _exact_marginals(C) -> tuple[np.ndarray, ...]:
    """Trace, total, row and column sums of an integer stack as Python integers."""
    C = np.asarray(C).astype(object)
    return np.einsum("...ii->...", C), C.sum(axis=(-2, -1)), C.sum(axis=-1), C.sum(axis=-2)


def exact_mcc_equals(C, a, r=1) -> np.ndarray:
    """Whether the MCC of each integer matrix equals ``a / sqrt(r)`` exactly (``r > 0``).

    With ``MCC = n / sqrt(v_p v_t)`` from the marginals, ``MCC = a / sqrt(r)`` iff ``n`` and
    ``a`` have the same sign and ``n^2 r = a^2 v_p v_t`` (Python integers and fractions, no
    rounding). A rational ``q`` is ``a = q, r = 1``; ``a = None`` (at a printed pole) is never
    equal.
    """
    c, s, t, p = _exact_marginals(C)
    num = c * s - (t * p).sum(axis=-1)
    vv = (s * s - (p * p).sum(axis=-1)) * (s * s - (t * t).sum(axis=-1))
    a = np.broadcast_to(np.asarray(a, dtype=object), num.shape).ravel()
    r = np.broadcast_to(np.asarray(r, dtype=object), num.shape).ravel()

    def same(n, x, r_, v) -> bool:
        sign = (n > 0) - (n < 0) == (x > 0) - (x < 0)
        return v > 0 and sign and n * n * r_ == x * x * v

    cases = zip(num.ravel(), a, r, vv.ravel(), strict=True)
    return np.array([x is not None and same(n, x, r_, v) for n, x, r_, v in cases])


def exact_checks() -> dict[str, str]:
    """The MCC and ACC identities checked exactly over integer grids: id -> outcome."""
    hits: dict[str, list] = {}

    def add(formula_id, equal):
        hits.setdefault(formula_id, []).append(np.ravel(equal))

    A = EXACT_A.tolist()
    for N in N_GRID:
        C = fam.z_a(N, EXACT_A)
        c, s, _, _ = _exact_marginals(C)
        acc = [
            Fraction(x, y) == Fraction(N, N * N + a - 1) for x, y, a in zip(c, s, A, strict=True)
        ]
        add("zA-acc", acc)
        add(
            "zA-mcc-journal",
            exact_mcc_equals(C, [Fraction(1 - a, (N - 1) * (N * N + 2 * a - 2)) for a in A]),
        )
        printed = [
            None if 2 * a + 2 == N * N else Fraction(1 - a, (N - 1) * (N * N - 2 * a - 2))
            for a in A
        ]
        add("zA-mcc-preprint", exact_mcc_equals(C, printed))
        add("dice-mcc-zero", exact_mcc_equals(fam.dice(N, EXACT_A), 0))
    T, F = b_grid()
    for N in N_GRID_2:
        add("const-mcc-zero", exact_mcc_equals(fam.constant(N, [1, 2, 7]), 0))
        add("pair-mcc-minus-one", exact_mcc_equals(fam.swapped_pair(N, [1, 2, 7], [5, 1, 1]), -1))
        printed = [
            Fraction(t * t + (N - 2) * t * f - (N - 1) * f * f, (t + (N - 1) * f) ** 2)
            for t, f in zip(T.tolist(), F.tolist(), strict=True)
        ]
        add("b-mcc", exact_mcc_equals(fam.b_matrix(N, T, F), printed))
    v = np.array(BINARY_VALUES, dtype=object)
    TP, FN, FP, TN = (x.ravel() for x in np.meshgrid(v, v, v, v, indexing="ij"))
    radicand = (TP + FP) * (TP + FN) * (TN + FP) * (TN + FN)
    d = radicand > 0
    C = fam.binary(*(x[d].astype(np.int64) for x in (TP, FN, FP, TN)))
    add("binary-mcc", exact_mcc_equals(C, (TP * TN - FP * FN)[d], radicand[d]))
    out = {}
    for formula_id, parts in hits.items():
        equal = np.concatenate(parts)
        verdict = "holds on all" if equal.all() else f"equal on {int(equal.sum())} of"
        out[formula_id] = f"exact rational check: {verdict} {equal.size} integer matrices"
    return out
