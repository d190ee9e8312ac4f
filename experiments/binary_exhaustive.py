"""CEN and MCC of every binary confusion matrix on s samples (Figures 3 and 4 of the journal paper).

Jurman, Riccadonna & Furlanello (2012), "The binary case": MCC and CEN of "all the 4 598 125
possible confusion matrices for a binary classification task on s samples (2 ≤ s ≤ 100)",
shown for s = 5, 10, 25, 50, 75 and cumulatively (Figure 4), where "the (absolute) Pearson
correlation between the two metrics is only r ≈ 0.63"; and the curves of CEN and MCC of
[[T, F], [F, T]] against T/F (Figure 3), with CEN > 1 when T < F.

There are C(s + 3, 3) binary matrices on s samples, so 4 598 125 is the count for
1 ≤ s ≤ 100 (the range 2 ≤ s ≤ 100 has 4 598 121): the default range is 1 .. 100 and both
counts are reported.

Conventions, stated because the paper does not:

- The MCC is 0/0 when a row or a column of the matrix is empty (one true or one predicted
  class only); :func:`cenmcc.mcc` fills it with 0 (the papers' convention) and warns once. The
  warning is expected here and checked against our own count; Pearson's r is reported with
  those matrices (as filled) and, as a sensitivity check, without them.
- "CEN > 1" and the maximum of CEN are decided exactly: float values within
  :data:`CEN_BAND` of 1 (or of the maximum) are compared with :func:`cenmcc.tie_ranks`.

Figure 3 is analytic: for [[T, F], [F, T]] with ``x = F / (T + F)``,
``MCC = 1 - 2x`` and ``CEN = x (1 - log2 x)``, whose derivative ``1 - log2 x - 1/ln 2`` vanishes
at ``x* = 2^(1 - 1/ln 2) = 2/e``: the maximum is ``CEN(x*) = x*/ln 2 = 2/(e ln 2) ≈ 1.0615``, at
``T/F = (1 - x*)/x* = e/2 - 1 ≈ 0.359``. ``CEN = 1`` at x = 1/2 (T = F) and x = 1 (T = 0), and
CEN > 1 exactly for 1/2 < x < 1, i.e. 0 < T < F.
"""

from __future__ import annotations

import argparse
import time
from math import comb

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.families import BINARY_SYMMETRIC_CEN_ARGMAX, BINARY_SYMMETRIC_CEN_MAX
from cenmcc.simulation import resources
from cenmcc.simulation.cli import add_output_arguments, number, positive_int
from cenmcc.simulation.figures import COLUMN, PAGE, close, legend_key, style, subplots
from cenmcc.simulation.outputs import save_figure, write_table

from .measures import mcc_counting_fills
from .registry import Computed

#: The paper's range and count: "4 598 125 ... (2 ≤ s ≤ 100)" (Jurman et al. 2012).
PRINTED_COUNT = 4_598_125
PRINTED_RANGE = (2, 100)
#: "the (absolute) Pearson correlation between the two metrics is only r ≈ 0.63".
PRINTED_ABS_PEARSON = 0.63
#: Totals shown in Figure 4.
PANELS = (5, 10, 25, 50, 75)

#: Half-width of the band around 1 (and below the maximum) where CEN is decided exactly.
#: cenmcc.cen sums a handful of terms of size at most ~2 s ln(2s) and divides by 2 s ln 2, so
#: its rounding error is a few ulp of ln(2s)/ln 2, below 1e-13 for s <= 10^4; the band is four
#: orders of magnitude wider.
CEN_BAND = 1e-9

#: Where Figure 3's maximum is, ``x* = F / (T + F)``, derived in the module docstring (the
#: maximum and its T/F are :data:`cenmcc.families.BINARY_SYMMETRIC_CEN_MAX` and ``_ARGMAX``).
X_STAR = 2 / np.e


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


def plot_figure4(table: pd.DataFrame, *, panels=PANELS, gridsize: int = 80):
    """CEN against MCC: one scatter per total in ``panels``, then a hexbin of every matrix.

    Matrices whose MCC is 0/0 (plotted at the fill value 0) are drawn as red crosses; the
    dashed line is CEN = 1. Scatters and hexbin are rasterized, the rest of a PDF is vector.
    """
    with style():
        fig, axes = subplots(2, 3, width=PAGE / 3, height=2.2, sharex=True, sharey=True)
        axes = axes.ravel()
        for ax, s, letter in zip(axes, panels, "abcde", strict=False):
            sub = table[table["s"] == s]
            undefined = sub["mcc_undefined"].to_numpy()
            ok, bad = sub[~undefined], sub[undefined]
            size, alpha = (8, 0.5) if len(sub) < 1000 else (1.5, 0.3)
            ax.scatter(ok["mcc"], ok["cen"], s=size, alpha=alpha, lw=0, color="C0", rasterized=True)
            ax.scatter(bad["mcc"], bad["cen"], s=10, marker="x", color="C3", lw=0.6)
            r = pearson(sub["cen"].to_numpy(), sub["mcc"].to_numpy())
            ax.set_title(f"({letter}) $s = {s}$: {len(sub):,} matrices\n$r = {r:.3f}$")
        ax = axes[len(panels)]
        hb = ax.hexbin(
            table["mcc"], table["cen"], gridsize=gridsize, bins="log", mincnt=1, rasterized=True
        )
        fig.colorbar(hb, ax=ax, label="matrices per cell")
        r = pearson(table["cen"].to_numpy(), table["mcc"].to_numpy())
        lo, hi = table["s"].min(), table["s"].max()
        ax.set_title(f"(f) $s = {lo}, \\ldots, {hi}$: {len(table):,} matrices\n$r = {r:.3f}$")
        for ax in axes:
            ax.axhline(1.0, color="0.3", lw=0.8, ls="--")
        for ax in axes[3:]:
            ax.set_xlabel("MCC")
        for ax in axes[::3]:
            ax.set_ylabel("CEN")
        handles = [
            legend_key("one binary matrix", ls="", marker="o", ms=3, color="C0"),
            legend_key(
                "$\\mathrm{MCC} = 0/0$ (an empty row or column), plotted at 0",
                ls="",
                marker="x",
                ms=4,
                mew=0.8,
                color="C3",
            ),
            legend_key("$\\mathrm{CEN} = 1$", ls="--", lw=0.8, color="0.3"),
        ]
        fig.legend(handles=handles, loc="outside upper center", ncols=3)
    return fig


def plot_figure3(ratio_range=(1e-3, 1e3), n_points: int = 2001, F: int = 1000):
    """CEN and MCC of [[T, F], [F, T]] against T/F (log axis), with CEN = 1 and CEN's maximum.

    Lines are the closed forms of the module docstring; markers are :func:`cenmcc.cen` and
    :func:`cenmcc.mcc` on integer matrices with ``F`` = 1000 off the diagonal.
    """
    ratio = np.geomspace(*ratio_range, n_points)
    x = 1 / (1 + ratio)  # F / (T + F)
    cen_closed, mcc_closed = x * (1 - np.log2(x)), 1 - 2 * x
    T = np.unique(np.round(np.geomspace(F * ratio_range[0], F * ratio_range[1], 25)).astype(int))
    C = np.stack([np.stack([T, np.full_like(T, F)], -1), np.stack([np.full_like(T, F), T], -1)], -2)
    marker = {"ls": "", "ms": 3.5, "mfc": "none", "mew": 0.8}
    with style():
        fig, ax = subplots(1, 1, width=COLUMN, height=3.4)
        ax.fill_between(ratio, 1, cen_closed, where=cen_closed > 1, color="C0", alpha=0.25, lw=0)
        # Legend order, two columns: CEN's entries, then MCC's.
        ax.plot(ratio, cen_closed, color="C0", label="CEN, closed form $x\\,(1 - \\log_2 x)$")
        ax.plot(T / F, cenmcc.cen(C), marker="o", color="C0", label="CEN, computed", **marker)
        ax.axhline(1.0, color="0.3", ls="--", lw=0.8, label="$\\mathrm{CEN} = 1$")
        ax.plot(ratio, mcc_closed, color="C1", label="MCC, closed form $1 - 2x$")
        ax.plot(T / F, cenmcc.mcc(C), marker="s", color="C1", label="MCC, computed", **marker)
        ax.plot([BINARY_SYMMETRIC_CEN_ARGMAX], [BINARY_SYMMETRIC_CEN_MAX], "k*", ms=7, zorder=4)
        ax.annotate(
            "maximum $\\mathrm{CEN} = 2/(e\\,\\ln 2)$\n"
            f"$\\approx {BINARY_SYMMETRIC_CEN_MAX:.4f}$, at\n"
            f"$T/F = e/2 - 1 \\approx {BINARY_SYMMETRIC_CEN_ARGMAX:.3f}$",
            (BINARY_SYMMETRIC_CEN_ARGMAX, BINARY_SYMMETRIC_CEN_MAX),
            xytext=(1.5e-3, 0.1),
            fontsize=7,
            va="bottom",
            arrowprops={"arrowstyle": "->", "lw": 0.6, "shrinkB": 4, "relpos": (0.9, 1.0)},
        )
        ax.set(
            xscale="log",
            xlabel="$T/F$",
            ylabel="CEN or MCC",
            title="$[[T, F], [F, T]]$: $\\mathrm{CEN} > 1$ exactly when $0 < T < F$",
        )
        fig.legend(
            loc="outside lower center",
            ncols=2,
            title=f"$x = F/(T + F)$; computed: cenmcc on integer matrices, $F = {F}$",
            title_fontsize=7,
        )
    return fig


#: Peak memory per matrix of a run, figures included: 139 bytes measured for s = 1..100
#: (4,598,125 matrices, the table and the exact decisions), with room for the figures' copies.
BYTES_PER_MATRIX = 256


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--s-min", type=positive_int, default=1, help="smallest total (default 1)")
    parser.add_argument(
        "--s-max", type=positive_int, default=100, help="largest total (default 100)"
    )
    parser.add_argument(
        "--save-matrices",
        action="store_true",
        help="also write every matrix with its CEN and MCC to matrices_table.csv.gz (slow, large)",
    )
    add_output_arguments(parser)


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, a range that is empty or whose matrices would not fit in memory."""
    if args.s_min > args.s_max:
        parser.error(f"argument --s-max: must be at least --s-min ({args.s_min}), got {args.s_max}")
    n = count_matrices(args.s_min, args.s_max)
    try:
        resources.require_memory(
            n * BYTES_PER_MATRIX,
            f"--s-min {number(args.s_min)} --s-max {number(args.s_max)} ({number(n)} matrices)",
        )
    except ValueError as err:
        parser.error(f"argument --s-max: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Enumerate, write the tables and figures into ``out``, report."""
    start = time.perf_counter()
    table, summary = run(args.s_min, args.s_max)
    seconds = time.perf_counter() - start
    timing = summary.pop("timing")
    del timing["computation_seconds"]  # a part of the whole run()'s, timed here
    write_table(out / "by_total.csv", by_total(table))
    if args.save_matrices:
        write_table(out / "matrices_table.csv.gz", table)
    for name, fig in (("figure4", plot_figure4(table)), ("figure3", plot_figure3())):
        save_figure(fig, out / f"{name}.png")
        save_figure(fig, out / f"{name}.pdf")
        close(fig)
    print(
        f"s = {args.s_min}..{args.s_max}: {summary['n_matrices']:,} matrices (printed 4,598,125 "
        f"for 2..100; 2..100 gives {summary['n_matrices_by_range']['2..100']:,}), "
        f"{summary['n_mcc_undefined']:,} with MCC 0/0"
    )
    print(
        f"r(CEN, MCC) = {summary['pearson_cen_mcc']:.4f} (printed |r| ≈ 0.63), "
        f"{summary['pearson_cen_mcc_defined_only']:.4f} without the 0/0 MCCs; "
        f"CEN > 1 for {summary['share_cen_above_1']:.4%}; max CEN {summary['cen_max']:.6f}"
    )
    print(f"{seconds:.2f} s in all")
    return Computed(summary, seconds, timing)
