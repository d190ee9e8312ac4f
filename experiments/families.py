"""Closed-form families (Z_A, dice rolling, B(T, F), binary): every printed formula checked.

Each closed form that the preprint (Jurman & Furlanello 2010, arXiv:1008.2908) or the journal
version (Jurman, Riccadonna & Furlanello 2012, PLoS ONE 7(8): e41882) prints for a family of
confusion matrices is a function of :mod:`cenmcc.families` where it holds, of
:mod:`experiments.misprints` where it does not. Each is evaluated here on a grid of
parameters and compared with the metric cenmcc computes on the constructed matrix
(:func:`cenmcc.cen`, :func:`cenmcc.mcc`, :func:`cenmcc.accuracy`, :func:`cenmcc.tmcc`), giving
one verdict per formula id: holds, or does not hold, with the smallest counterexample (fewest
classes, then fewest samples) and the id of the corrected form, checked the same way.

Grid: ``N = 3 .. 30`` (``2 .. 30`` where the claim covers N = 2); every integer ``A = 1 .. 200``
and 91 log-spaced integers up to ``10^9``; ``T/F`` = 0 and 51 log-spaced ratios in
``[10^-3, 100]`` for ``F = 1, 2, 3, 10, 1000``; every binary matrix with entries in
{0, 1, 2, 3, 5, 10, 100, 10^4}; ``T, F <= 60`` for the symmetric binary case.

Tolerance. A closed form holds at a point when ``|closed - metric| <= 4 * bound``, where
``bound`` is a first-order bound on the float64 rounding error of the metric's own evaluation
on that matrix, ``eps * (number of summed terms) * sum |terms| / |normalizer|`` with
``eps = 2^-52``. It is relative to the conditioning of the computation, not to the value: for CEN
the terms are ``(d_j - 2 C_jj) ln d_j`` and ``2 C_jk ln C_jk`` over ``2 s ln(2N - 2)``; for MCC
they are ``c s``, ``sum t_k p_k``, ``s^2`` and ``sum p_k^2``, whose cancellation at ``A = 10^9``
(``s^2 ≈ 10^18 > 2^53``) costs the MCC about 8 of its 16 digits. The factor 4 covers the closed
form's own rounding, of the same order. Limits are checked at ``A = 10^6`` and ``10^9`` against
the rate the exact forms converge at, ``|gap| <= N^2 (1 + ln A) / A``; monotonicity between
consecutive grid points, allowing both points' bounds. The MCC and ACC identities are also
checked exactly in rational arithmetic over the integer grid, and
:mod:`experiments.families_symbolic` proves them symbolically for N = 3 .. 6.
"""

from __future__ import annotations

import argparse
import time
import warnings
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

import cenmcc
from cenmcc import families as fam
from cenmcc.simulation.cli import add_output_arguments
from cenmcc.simulation.figures import (
    COLUMN,
    PAGE,
    close,
    legend_key,
    ordered_colors,
    style,
    subplots,
)
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table

from . import misprints
from .registry import Computed

N_GRID = tuple(range(3, 31))
N_GRID_2 = tuple(range(2, 31))
A_GRID = np.union1d(np.arange(1, 201), np.round(np.logspace(0, 9, 91))).astype(np.int64)
#: The A values of the exact rational checks: 1..30 and the log-spaced grid.
EXACT_A = np.union1d(np.arange(1, 31), np.round(np.logspace(0, 9, 91))).astype(np.int64)
LIMIT_A = np.array([10**6, 10**9], dtype=np.int64)
B_F = (1, 2, 3, 10, 1000)
B_RATIOS = np.concatenate([[0.0], np.logspace(-3, 2, 51)])
BINARY_VALUES = (0, 1, 2, 3, 5, 10, 100, 10_000)
SYMMETRIC_MAX = 60
EPS = np.finfo(np.float64).eps
SAFETY = 4.0
FIGURES = ("z_a", "dice", "dice_limit", "b")

# --------------------------------------------------------------------------------------------
# The claims
# --------------------------------------------------------------------------------------------

PREPRINT = "preprint (Jurman & Furlanello 2010, arXiv:1008.2908)"
JOURNAL = "journal (Jurman, Riccadonna & Furlanello 2012, PLoS ONE 7(8): e41882)"


def _source(where_preprint: str | None, where_journal: str | None) -> str:
    """Where a claim is printed: ``"preprint ..., Sec. 2; journal ..., <section>"``."""
    parts = []
    if where_preprint:
        parts.append(f"{PREPRINT}, {where_preprint}")
    if where_journal:
        parts.append(f"{JOURNAL}, {where_journal}")
    return "; ".join(parts)


ZA = '"Comparison on the Z_A family"'
DICE = '"The dice rolling case"'
REL = '"Relationships between CEN and MCC"'
MCCSEC = 'Methods, "Matthews Correlation Coefficient (MCC)"'
BIN = '"The binary case"'
Z_BOTH = _source("Sec. 2", ZA)
DICE_BOTH = _source("Sec. 2", DICE)
REL_BOTH = _source("Sec. 2", REL)
BIN_BOTH = _source("Sec. 2.1", BIN)


@dataclass(frozen=True)
class Formula:
    """One printed claim: its id, where it is printed, what it says, and notes on the verdict."""

    id: str
    source: str
    statement: str
    correction: str | None = None  # id of the corrected form, for a claim that does not hold
    note: str = ""


FORMULAS = (
    Formula("zA-acc", Z_BOTH, "ACC(Z_A) = N / (N^2 + A - 1)"),
    Formula("zA-acc-decreasing", Z_BOTH, "ACC(Z_A) decreases in A"),
    Formula("zA-acc-limit", Z_BOTH, "ACC(Z_A) -> 0 as A -> ∞"),
    Formula(
        "zA-mcc-preprint",
        _source("Sec. 2", None),
        "MCC(Z_A) = -(A - 1) / ((N - 1)(N^2 - 2A - 2))",
        correction="zA-mcc-journal",
        note="the sign of 2A is wrong; pole at A = N^2/2 - 1 (those points fail, error inf)",
    ),
    Formula("zA-mcc-journal", _source(None, ZA), "MCC(Z_A) = -(A - 1) / ((N - 1)(N^2 + 2A - 2))"),
    Formula("zA-mcc-decreasing", Z_BOTH, "MCC(Z_A) decreases monotonically in A"),
    Formula(
        "zA-mcc-limit-preprint",
        _source("Sec. 2", None),
        "MCC(Z_A) -> -1/(N - 1) as A -> ∞",
        correction="zA-mcc-limit-journal",
        note="twice the true limit; not even the limit of the preprint's own formula (+1/(2(N-1)))",
    ),
    Formula("zA-mcc-limit-journal", _source(None, ZA), "MCC(Z_A) -> -1/(2(N - 1)) as A -> ∞"),
    Formula(
        "zA-cen",
        Z_BOTH,
        "CEN(Z_A) = [(N-2)(N-1) log(2N) + (2N+A-3) log(2N+A-1) - A log A] / (N^2+A-1)",
    ),
    Formula("zA-cen-decreasing", Z_BOTH, "CEN(Z_A) decreases in A (A a positive integer)"),
    Formula("zA-cen-limit", Z_BOTH, "CEN(Z_A) -> 0 as A -> ∞"),
    Formula(
        "dice-cen",
        DICE_BOTH,
        "CEN = (N-1)/(2N(N+A-1)) [(2N+A-3) log(2N+A-1) - 2A log A + (A+1) log(N+NA+A-1)]",
    ),
    Formula("dice-cen-decreasing", DICE_BOTH, "CEN(dice) decreases in A"),
    Formula(
        "dice-cen-limit-preprint",
        _source("Sec. 2", None),
        "CEN(dice) -> (N-1)/(2N) log_{2N-2} N + 1 as A -> ∞ (read: + 1 outside the log)",
        correction="dice-cen-limit-journal",
        note="most likely log_{2N-2}(N + 1) with its parentheses lost, as the journal prints it",
    ),
    Formula(
        "dice-cen-limit-journal",
        _source(None, DICE),
        "CEN(dice) -> (N-1)/(2N) log_{2N-2}(N + 1) as A -> ∞",
    ),
    Formula(
        "dice-limit-increasing",
        DICE_BOTH,
        "the limit (N-1)/(2N) log_{2N-2}(N + 1) increases with N",
    ),
    Formula("dice-limit-asymptote", DICE_BOTH, "the limit tends to 1/2 as N -> ∞"),
    Formula(
        "dice-mcc-zero",
        _source(None, DICE),
        "MCC(dice) -> 0 as A -> ∞",
        note="MCC = 0 for every A, not only in the limit",
    ),
    Formula("const-mcc-zero", REL_BOTH, "MCC = 0 for the constant matrix C_ij = F"),
    Formula("const-cen", REL_BOTH, "CEN(C_ij = F) = (1 - 1/N) log_{2N-2}(2N)"),
    Formula(
        "misclass-cen-one",
        _source("Sec. 2", 'Methods, "Confusion Entropy (CEN)"'),
        "CEN((1 - δ_ij) F) = 1 for N > 2",
        note="1 for N = 2 as well; what fails at N = 2 is that 1 is the largest CEN",
    ),
    Formula(
        "pair-mcc-minus-one",
        _source("Sec. 2", MCCSEC),
        "MCC = -1 for all zeros but two symmetric entries (journal: 'asymptotically reached')",
        note="exactly -1 for every N and any two positive entries: 'asymptotically' is not needed",
    ),
    Formula(
        "onecol-mcc-zero",
        _source("Sec. 2", MCCSEC),
        "MCC = 0 when all samples are predicted as one class",
        note="MCC is 0/0 there; 0 is the papers' (and cenmcc's) fill value, not a computed value",
    ),
    Formula(
        "onecol-cen-varies",
        _source("Sec. 2", None),
        "with a single non-zero column, CEN takes many values depending on the column",
        note="measured: number of distinct CEN values among 200 random columns per N",
    ),
    Formula(
        "onecol-cen-uniform",
        "derived here; explains the journal's Fig. 1, Box 1(c) (CEN ≈ 0.337 for N = 4)",
        "CEN(single constant column) = (N-1)/(2N) log_{2N-2}(N + 1), the dice limit",
    ),
    Formula("b-mcc", REL_BOTH, "MCC(B) = (T^2 + (N-2) T F - (N-1) F^2) / (T + (N-1) F)^2"),
    Formula("b-cen", REL_BOTH, "CEN(B) = (N-1) F / (T + (N-1) F) log_{2N-2}(2 (T + (N-1) F) / F)"),
    Formula(
        "b-identity",
        REL_BOTH,
        "CEN(B) = (1 - MCC)(1 + log_{2N-2}((T + (N-1) F) / ((N-1) F)))(1 - 1/N)",
    ),
    Formula(
        "eq3-line1-preprint",
        _source("Eq. (3)", None),
        "(1-MCC)(1 + log_{2N-2}(sum C_ij / N))(1-1/N) = (1-MCC)(1 - log_{2N-2}(1-ACC))(1-1/N)",
        correction="eq3-line1-journal",
        note="not scale invariant; equal only where exactly N samples are misclassified",
    ),
    Formula(
        "eq3-line1-journal",
        _source(None, "Eq. (3)"),
        "(1-MCC)(1 + log_{2N-2}(sum C_ij / sum_{i≠j} C_ij))(1-1/N) = "
        "(1-MCC)(1 - log_{2N-2}(1-ACC))(1-1/N)",
    ),
    Formula("binary-mcc", BIN_BOTH, "MCC = (TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))"),
    Formula(
        "binary-cen",
        BIN_BOTH,
        "CEN = (FN+FP) log2(s^2 - (TP-TN)^2) / (2s) - (FN log2 FN + FP log2 FP) / s",
    ),
    Formula("binary-sym-cen", BIN_BOTH, "TP = TN = T, FP = FN = F: CEN = F/(T+F) log2(2(T+F)/F)"),
    Formula(
        "binary-sym-cen-gt1",
        BIN_BOTH,
        "CEN > 1 when T/F < 1 (0 < T < F)",
        note="checked as: CEN > 1 iff 0 < T < F; CEN = 1 exactly at T = 0 and at T = F",
    ),
    Formula(
        "binary-sym-cen-max-at-t0",
        BIN_BOTH,
        "the CEN above 1 is 'attained for the totally misclassified case T = 0' (read: maximum)",
        correction="binary-sym-cen-max",
        note="CEN(T = 0) = 1 exactly, so '1 is attained at T = 0' is true; as a maximum it is not",
    ),
    Formula(
        "binary-sym-cen-max",
        "derived here (correction of binary-sym-cen-max-at-t0)",
        "max CEN = 2/(e ln 2) ≈ 1.0615 at T/F = e/2 - 1 ≈ 0.359",
    ),
)

PARAMS = ("N", "A", "T", "F", "TP", "FN", "FP", "TN")
COLUMNS = (
    "formula",
    *PARAMS,
    "case",
    "n_samples",
    "printed",
    "measured",
    "abs_error",
    "tolerance",
    "ok",
)


# --------------------------------------------------------------------------------------------
# Rounding-error bounds of the metrics (the tolerances)
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Rows of the tidy table: one per (formula, point)
# --------------------------------------------------------------------------------------------


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


def _table(parts: list[Rows]) -> pd.DataFrame:
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


# --------------------------------------------------------------------------------------------
# The checks, family by family
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Exact rational checks (MCC and ACC are rational in the counts)
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# The journal's Figure 1, as far as its text describes it
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Run, plot, CLI
# --------------------------------------------------------------------------------------------


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
    table = _table(parts + binary_rows())
    records = verdicts(table)
    timings["numeric"] = time.perf_counter() - start

    start = time.perf_counter()
    exact = exact_checks()
    timings["exact"] = time.perf_counter() - start

    proofs, symbolic_note = {}, "not run (--no-symbolic)"
    if symbolic:
        start = time.perf_counter()
        try:
            from . import families_symbolic
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


def _curve(table: pd.DataFrame, formula: str, N: int, x: str = "A", **where):
    rows = table[(table["formula"] == formula) & (table["N"] == N)]
    for column, value in where.items():
        rows = rows[rows[column] == value]
    rows = rows.sort_values(x)
    return rows[x].to_numpy(dtype=float), rows["measured"].to_numpy(dtype=float)


#: The numbers of classes drawn in the figures (N = 2 only where the family covers it).
PLOT_N = (3, 4, 5, 10, 30)
PLOT_N_B = (2, 3, 5, 10, 30)


def _n_handles(Ns, colors) -> list:
    """Legend entries for the curves of each N."""
    return [legend_key(f"$N = {N}$", color=c) for N, c in zip(Ns, colors, strict=True)]


def _plot_z_a(table: pd.DataFrame):
    fig, axes = subplots(1, 3, width=PAGE / 3, height=2.3)
    colors = ordered_colors(len(PLOT_N))
    panels = (
        ("zA-acc", "ACC", "(a) accuracy"),
        ("zA-mcc-journal", "MCC", "(b) MCC"),
        ("zA-cen", "CEN", "(c) CEN"),
    )
    for ax, (formula, measure, title) in zip(axes, panels, strict=True):
        for N, color in zip(PLOT_N, colors, strict=True):
            ax.plot(*_curve(table, formula, N), color=color)
            if measure == "MCC":
                limit = float(fam.mcc_z_a_limit_journal(N))
                ax.axhline(limit, ls=":", lw=0.9, color=color)
        ax.set(xscale="log", xlabel="$A$", ylabel=f"{measure}$(Z_A)$", title=title)
    limit = legend_key("MCC limit,\n$-1/(2N-2)$", ls=":", lw=0.9, color="0.3")
    fig.legend(handles=[*_n_handles(PLOT_N, colors), limit], loc="outside right upper")
    return fig


def _plot_dice(table: pd.DataFrame):
    fig, axes = subplots(
        1, 2, width=PAGE / 2, height=2.4, sharex=True, gridspec_kw={"width_ratios": [3, 2]}
    )
    colors = ordered_colors(len(PLOT_N))
    for N, color in zip(PLOT_N, colors, strict=True):
        axes[0].plot(*_curve(table, "dice-cen", N), color=color)
        axes[0].axhline(float(fam.cen_dice_limit_journal(N)), ls=":", lw=0.9, color=color)
        axes[1].plot(*_curve(table, "dice-mcc-zero", N), color=color)
    axes[0].set(xscale="log", xlabel="$A$", ylabel="CEN", title="(a) CEN of dice rolling")
    axes[1].set(
        xscale="log", xlabel="$A$", ylabel="MCC", ylim=(-1, 1), title="(b) MCC of dice rolling"
    )
    axes[1].text(
        0.5,
        0.3,
        "$\\mathrm{MCC} = 0$ for every $A$ and $N$\n(the curves coincide)",
        transform=axes[1].transAxes,
        ha="center",
    )
    limit = legend_key("CEN limit,\n$A \\to \\infty$", ls=":", lw=0.9, color="0.3")
    fig.legend(handles=[*_n_handles(PLOT_N, colors), limit], loc="outside right upper")
    return fig


def _plot_dice_limit(table: pd.DataFrame):
    fig, ax = subplots(1, 1, width=COLUMN, height=3.0)
    at_1e9 = table[(table["formula"] == "dice-cen-limit-journal") & (table["A"] == LIMIT_A[-1])]
    at_1e9 = at_1e9.sort_values("N")
    # The closed form over the points' range and beyond: its printed value at N = 2, then the
    # values checked for N = 3 .. 10^9 (where the claim "increasing" holds).
    rising = table[table["formula"] == "dice-limit-increasing"].sort_values("N")
    first = at_1e9.iloc[0]
    N = np.concatenate([[first["N"]], rising["N"]]).astype(float)
    limit = np.concatenate([[first["printed"]], rising["measured"]])
    ax.plot(N, limit, color="C0", label=r"$L(N) = (N-1)/(2N) \cdot \log_{2N-2}(N+1)$", zorder=2)
    ax.plot(
        at_1e9["N"],
        at_1e9["measured"],
        "o",
        ms=3,
        mfc="none",
        mew=0.8,
        color="C1",
        label="CEN(dice) at $A = 10^9$, $N = 2, \\ldots, 30$",
        zorder=3,
    )
    ax.axhline(0.5, ls="--", color="0.3", lw=0.8, label="$1/2$, the limit of $L(N)$")
    arrow = {"arrowstyle": "->", "lw": 0.6, "shrinkB": 3}
    ax.annotate(
        "$N = 2$: $L = (\\log_2 3)/4$",
        (first["N"], first["printed"]),
        xytext=(1.6, 0.462),
        fontsize=7,
        arrowprops=arrow,
    )
    ax.annotate(
        "$N = 3$: $L = 1/3$, the minimum;\n$L$ increases from here",
        (3, 1 / 3),
        xytext=(14, 0.337),
        fontsize=7,
        va="center",
        arrowprops=arrow,
    )
    ax.set(
        xscale="log",
        xlim=(1.5, 3e9),
        ylim=(0.32, 0.51),
        xlabel="$N$, number of classes",
        ylabel="CEN(dice) as $A \\to \\infty$",
        title="Limit of the dice-rolling CEN",
    )
    fig.legend(loc="outside lower center")
    return fig


def _plot_b(table: pd.DataFrame, F: int = 1000):
    fig, axes = subplots(1, 2, width=PAGE / 2, height=2.4)
    colors = ordered_colors(len(PLOT_N_B))
    for N, color in zip(PLOT_N_B, colors, strict=True):
        for ax, formula in zip(axes, ("b-cen", "b-mcc"), strict=True):
            T, value = _curve(table, formula, N, x="T", F=F)
            ax.plot(T[T > 0] / F, value[T > 0], color=color)
    axes[0].axhline(1.0, ls="--", color="0.3", lw=0.8)
    axes[0].plot(
        fam.BINARY_SYMMETRIC_CEN_ARGMAX, fam.BINARY_SYMMETRIC_CEN_MAX, "k*", ms=7, zorder=3
    )
    for ax, measure, letter in zip(axes, ("CEN", "MCC"), "ab", strict=True):
        ax.set(
            xscale="log",
            xlabel=f"$T/F$ ($F = {F}$)",
            ylabel=measure,
            title=f"({letter}) {measure} of $B(T, F)$",
        )
    handles = _n_handles(PLOT_N_B, colors)
    handles[0].set_label("$N = 2$ (binary)")
    handles += [
        legend_key("$\\mathrm{CEN} = 1$", ls="--", color="0.3", lw=0.8),
        legend_key("CEN maximum,\n$N = 2$: $2/(e\\,\\ln 2)$", ls="", marker="*", ms=7, color="k"),
    ]
    fig.legend(handles=handles, loc="outside right upper")
    return fig


_PLOTS = {"z_a": _plot_z_a, "dice": _plot_dice, "dice_limit": _plot_dice_limit, "b": _plot_b}


def plot(table: pd.DataFrame, which: str):
    """One figure from the tidy table: ``"z_a"``, ``"dice"``, ``"dice_limit"`` or ``"b"``."""
    if which not in _PLOTS:
        raise ValueError(f"unknown figure {which!r}; expected one of {FIGURES}")
    with style():
        return _PLOTS[which](table)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-symbolic", action="store_true", help="skip the sympy proofs")
    parser.add_argument(
        "--table", action="store_true", help="also write every checked point (checks_table.csv.gz)"
    )
    add_output_arguments(parser)


def main(args: argparse.Namespace, out) -> Computed:
    """Check every formula, write the tables and figures into ``out``, report.

    The random matrices among the checked points are always the same (``run``'s seed 0): the
    verdicts are closed-form facts, not statistics.
    """
    start = time.perf_counter()
    table, summary = run(symbolic=not args.no_symbolic)
    seconds = time.perf_counter() - start
    timing = summary.pop("timings_s")
    for which in FIGURES:
        fig = plot(table, which)
        for suffix in (".png", ".pdf"):
            save_figure(fig, out / f"{which}{suffix}")
        close(fig)
    formulas = pd.DataFrame(summary["formulas"])
    write_table(out / "formulas.csv", formulas)
    write_table(out / "examples.csv", pd.DataFrame(summary["examples"]))
    if args.table:
        write_table(out / "checks_table.csv.gz", table)
    columns = [
        "id",
        "holds",
        "max_abs_error",
        "proven_symbolically",
        "correction",
        "counterexample",
    ]
    text = markdown_table(formulas[columns].fillna(""))
    write_atomic(out / "formulas.md", lambda tmp: tmp.write_text(text + "\n"))
    if not args.quiet:
        print(text)
        print(f"{summary['n_hold']} of {summary['n_formulas']} hold; not: {summary['not_holding']}")
        print("timings (s):", {k: round(v, 2) for k, v in timing.items()})
    return Computed(summary, seconds, timing)
