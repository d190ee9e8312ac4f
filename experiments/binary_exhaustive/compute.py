"""The binary experiment's run: every binary matrix enumerated, correlated and decided exactly."""

from __future__ import annotations

import time
from math import comb

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.families import BINARY_SYMMETRIC_CEN_ARGMAX, BINARY_SYMMETRIC_CEN_MAX

from ..measures import mcc_counting_fills
from .settings import CEN_BAND, PANELS, PRINTED_ABS_PEARSON, PRINTED_COUNT, PRINTED_RANGE, X_STAR


def count_matrices(s_min: int, s_max: int) -> int:
    """Number of 2×2 count matrices with total in ``s_min .. s_max``: ``sum_s C(s + 3, 3)``.

    In closed form (the hockey-stick identity), ``C(s_max + 4, 4) - C(s_min + 3, 4)``, so a
    range of any size is counted at once.

    Examples
    --------
    >>> count_matrices(2, 100), count_matrices(1, 100)
    (4598121, 4598125)
    """
    return comb(s_max + 4, 4) - comb(s_min + 3, 4)


#: Matrices per chunk of totals in :func:`enumerate_metrics`: the temporaries of a chunk stay
#: small and are reused, which makes the whole run about 1.5 times faster than one big stack.
CHUNK = 2**20


def enumerate_metrics(s_min: int, s_max: int) -> dict:
    """Every binary matrix with total in the range, with its total, CEN, MCC and 0/0 flag.

    The totals are processed in consecutive groups of about :data:`CHUNK` matrices (a loop over
    groups of totals, not over matrices).

    Returns
    -------
    dict of arrays, one entry per matrix, grouped by total in increasing order:
        ``C`` (N, 2, 2), ``s``, ``cen``, ``mcc``, ``mcc_undefined``; and ``start``, the index
        of the first matrix of each total (length ``s_max - s_min + 2``).
    """
    totals = np.arange(s_min, s_max + 1)
    sizes = [comb(int(t) + 3, 3) for t in totals]
    start = np.concatenate([[0], np.cumsum(sizes)])
    n = int(start[-1])
    out = {
        "C": np.empty((n, 2, 2), dtype=np.int64),
        "s": np.repeat(totals, sizes),
        "cen": np.empty(n),
        "mcc": np.empty(n),
        "mcc_undefined": np.empty(n, dtype=bool),
        "start": start,
    }
    group = start[:-1] // CHUNK
    for g in np.unique(group):
        first, last = np.flatnonzero(group == g)[[0, -1]]
        part = slice(start[first], start[last + 1])
        C = out["C"][part]
        C[...] = cenmcc.matrices_with_total(totals[first : last + 1], 2)
        counts = cenmcc.Counts(C)  # validated and summed once for both metrics
        out["mcc"][part], out["mcc_undefined"][part] = mcc_counting_fills(counts)
        out["cen"][part] = cenmcc.cen(counts)
    return out


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r of two arrays (NaN for fewer than 2 values)."""
    return float(np.corrcoef(x, y)[0, 1]) if x.size > 1 else float("nan")


def pearson_by_group(x: np.ndarray, y: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """Pearson's r of x and y within each group 0 .. n_groups-1 (NaN for fewer than 2 points).

    Centred sums by ``bincount`` (group means first), so no loop over groups.
    """
    n = np.bincount(group, minlength=n_groups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.bincount(group, x, n_groups) / n
        my = np.bincount(group, y, n_groups) / n
        dx, dy = x - mx[group], y - my[group]
        sxy = np.bincount(group, dx * dy, n_groups)
        sxx = np.bincount(group, dx * dx, n_groups)
        syy = np.bincount(group, dy * dy, n_groups)
        r = sxy / np.sqrt(sxx * syy)
    return np.where(n >= 2, r, np.nan)


def exact_sign(C: np.ndarray, cen: np.ndarray, reference: np.ndarray, level: float) -> np.ndarray:
    """The exact sign of ``CEN(C) - level`` for every matrix, where ``reference`` has CEN = level.

    Outside ``level ± CEN_BAND`` the float sign is right (see :data:`CEN_BAND`); inside, the
    matrices are ranked together with ``reference`` by :func:`cenmcc.tie_ranks`.
    """
    sign = np.sign(cen - level).astype(np.int8)
    inside = np.flatnonzero(np.abs(cen - level) <= CEN_BAND)
    ranks = cenmcc.tie_ranks(np.concatenate([C[inside], reference[None]]), "cen")
    sign[inside] = np.sign(ranks[:-1] - ranks[-1])
    return sign


def exact_argmax(C: np.ndarray, cen: np.ndarray) -> np.ndarray:
    """Indices of every matrix whose CEN equals the maximum exactly."""
    near = np.flatnonzero(cen >= cen.max() - CEN_BAND)
    ranks = cenmcc.tie_ranks(C[near], "cen")
    return near[ranks == ranks.max()]


def figure3_check(max_ratio: int = 200) -> dict:
    """Figure 3's formulas against cenmcc on integer [[T, F], [F, T]], and the maximum numerically.

    Every T, F in ``0 .. max_ratio`` (not both 0) is compared with ``x (1 - log2 x)`` and
    ``1 - 2x``; the maximum of the formula is found on a fine grid of x.
    """
    T, F = np.meshgrid(np.arange(max_ratio + 1), np.arange(max_ratio + 1))
    keep = (T + F) > 0
    T, F = T[keep], F[keep]
    C = np.stack([np.stack([T, F], -1), np.stack([F, T], -1)], -2)
    x = F / (T + F)
    with np.errstate(divide="ignore", invalid="ignore"):
        formula = np.where(x > 0, x * (1 - np.log2(x)), 0.0)
    mcc, _ = mcc_counting_fills(C)
    grid = np.linspace(1e-6, 1, 2_000_001)
    values = grid * (1 - np.log2(grid))
    i = int(values.argmax())
    cen = cenmcc.cen(C)
    above = (cen > 1 + CEN_BAND) == ((T > 0) & (T < F))
    return {
        "x_star": X_STAR,
        "t_over_f_star": BINARY_SYMMETRIC_CEN_ARGMAX,
        "cen_max": BINARY_SYMMETRIC_CEN_MAX,
        "grid_x_at_max": float(grid[i]),
        "grid_cen_max": float(values[i]),
        "max_abs_diff_cen_formula_vs_cenmcc": float(np.abs(cen - formula).max()),
        "max_abs_diff_mcc_formula_vs_cenmcc": float(np.abs(mcc - (1 - 2 * x)).max()),
        "cen_above_1_iff_0_lt_T_lt_F": bool(above.all()),
        "n_checked": int(T.size),
    }


def by_total(table: pd.DataFrame) -> pd.DataFrame:
    """One row per total s: counts, Pearson r (with and without 0/0 MCCs), CEN > 1, CEN max."""
    s = table["s"].to_numpy()
    s_min, n_groups = int(s.min()), int(s.max() - s.min()) + 1
    group = s - s_min
    cen, mcc = table["cen"].to_numpy(), table["mcc"].to_numpy()
    undefined = table["mcc_undefined"].to_numpy()
    defined = ~undefined
    n = np.bincount(group, minlength=n_groups)
    return pd.DataFrame(
        {
            "s": np.arange(s_min, s_min + n_groups),
            "n_matrices": n,
            "n_mcc_undefined": np.bincount(group, undefined, n_groups).astype(np.int64),
            "pearson_cen_mcc": pearson_by_group(cen, mcc, group, n_groups),
            "pearson_cen_mcc_defined_only": pearson_by_group(
                cen[defined], mcc[defined], group[defined], n_groups
            ),
            "share_cen_above_1": np.bincount(group, table["cen_above_1"], n_groups) / n,
            "cen_max": table.groupby("s")["cen"].max().to_numpy(),
        }
    )


def run(s_min: int = 1, s_max: int = 100, *, panels=PANELS) -> tuple[pd.DataFrame, dict]:
    """Enumerate, measure, correlate; decide CEN > 1 and the maximum exactly.

    Returns
    -------
    table : pandas.DataFrame
        One row per matrix ``[[TP, FN], [FP, TN]]`` (rows = true class): ``s, TP, FN, FP, TN,
        cen, mcc, mcc_undefined, cen_above_1`` (the last decided exactly).
    summary : dict
    """
    if not 1 <= s_min <= s_max:
        raise ValueError(f"need 1 <= s_min <= s_max, got {s_min} and {s_max}")
    start, cpu_start = time.perf_counter(), time.process_time()
    e = enumerate_metrics(s_min, s_max)
    defined = ~e["mcc_undefined"]
    r_all = pearson(e["cen"], e["mcc"])
    r_defined = pearson(e["cen"][defined], e["mcc"][defined])
    shown = [p for p in panels if s_min <= p <= s_max]
    r_shown, r_shown_defined = {}, {}
    for p in shown:  # the matrices of one total are contiguous
        part = slice(e["start"][p - s_min], e["start"][p - s_min + 1])
        ok = defined[part]
        r_shown[str(p)] = pearson(e["cen"][part], e["mcc"][part])
        r_shown_defined[str(p)] = pearson(e["cen"][part][ok], e["mcc"][part][ok])
    seconds_core = time.perf_counter() - start
    cpu_core = time.process_time() - cpu_start

    C, cen = e["C"], e["cen"]
    start = time.perf_counter()
    sign = exact_sign(C, cen, np.array([[1, 1], [1, 1]]), 1.0)  # [[1, 1], [1, 1]]: CEN = 1
    at_max = exact_argmax(C, cen)
    seconds_exact = time.perf_counter() - start

    table = pd.DataFrame(
        {
            "s": e["s"],
            "TP": C[:, 0, 0],
            "FN": C[:, 0, 1],
            "FP": C[:, 1, 0],
            "TN": C[:, 1, 1],
            "cen": cen,
            "mcc": e["mcc"],
            "mcc_undefined": e["mcc_undefined"],
            "cen_above_1": sign > 0,
        }
    )
    summary = {
        "source": "Jurman, Riccadonna & Furlanello (2012), 'The binary case', Figures 3 and 4",
        "s_min": s_min,
        "s_max": s_max,
        "n_matrices": int(C.shape[0]),
        "printed": {
            "n_matrices": PRINTED_COUNT,
            "range": list(PRINTED_RANGE),
            "abs_pearson_cen_mcc": PRINTED_ABS_PEARSON,
        },
        "n_matrices_by_range": {f"{a}..100": count_matrices(a, 100) for a in (0, 1, 2)},
        "n_matrices_s_ge_2": int(np.count_nonzero(e["s"] >= 2)),
        "n_mcc_undefined": int(np.count_nonzero(e["mcc_undefined"])),
        "mcc_undefined_rule": "MCC 0/0 (an empty row or column) is set to 0, as in cenmcc.mcc",
        "pearson_cen_mcc": r_all,
        "abs_pearson_cen_mcc": abs(r_all),
        "pearson_cen_mcc_defined_only": r_defined,
        "pearson_by_s": r_shown,
        "pearson_by_s_defined_only": r_shown_defined,
        "share_cen_above_1": float(np.mean(sign > 0)),
        "n_cen_above_1": int(np.count_nonzero(sign > 0)),
        "n_cen_equal_1": int(np.count_nonzero(sign == 0)),
        "n_cen_within_band_of_1": int(np.count_nonzero(np.abs(cen - 1.0) <= CEN_BAND)),
        "share_cen_above_1_float_gt": float(np.mean(cen > 1)),
        "cen_band": CEN_BAND,
        "cen_max": float(cen[at_max[0]]),
        "cen_max_at": [
            {"s": int(e["s"][i]), "matrix": C[i].tolist(), "mcc": float(e["mcc"][i])}
            for i in at_max
        ],
        "figure3": figure3_check(),
        "timing": {
            "computation_seconds": round(seconds_core, 3),
            "seconds_enumeration_metrics_correlations": round(seconds_core, 3),
            "cpu_seconds_enumeration_metrics_correlations": round(cpu_core, 3),
            "seconds_exact_decisions": round(seconds_exact, 3),
            "note": "one cold run on a shared 2-core machine (wall and CPU time); noisy",
        },
    }
    return table, summary
