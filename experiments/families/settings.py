"""The families experiment's settings: the grids, the sources and every printed formula."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
