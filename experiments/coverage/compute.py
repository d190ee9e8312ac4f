"""The coverage experiment's run: the grid's cells, and the speed comparison."""

from __future__ import annotations

import itertools
import time
import warnings

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.intervals import auto

from .settings import (
    ALPHA,
    CLOSED_FORMS,
    DESIGNS,
    FISHER_Z,
    FLAG,
    LEVEL,
    MEASURES,
    METHODS,
    PAIRED_MEASURES,
    PAIRED_METHODS,
    PAIRED_N,
    RECALL,
    RESAMPLES,
    SPEED_MEASURES,
    TIE,
    paired_scenarios,
    population,
)


def cell(K, n, balance, classifier, test_sets, seed) -> list[dict]:
    """Coverage and mean width of every method and measure for one population of the grid."""
    return measured(population(K, balance, classifier), n, test_sets, seed, balance, classifier)


def mean_regime(draws: np.ndarray) -> dict:
    """What :func:`cenmcc.intervals.auto` reads of a test set, averaged over the cell's: the
    smallest true class (mean count) and the classes never predicted (mean number)."""
    return {
        "smallest": float(draws.sum(axis=-1).min(axis=-1).mean()),
        "unpredicted": float((draws.sum(axis=-2) == 0).sum(axis=-1).mean()),
    }


def measured(P, n, test_sets, seed, classes, classifier) -> list[dict]:
    """Coverage and mean width of every method and measure on test sets of ``n`` items drawn
    from the expected confusion matrix ``P`` (``classes`` and ``classifier`` name it)."""
    rng = np.random.default_rng(seed)
    K = P.shape[0]
    truth = cenmcc.measures(P, list(MEASURES))
    draws = rng.multinomial(n, P.ravel(), size=test_sets).reshape(-1, K, K)
    results = {}
    bootstrap_seed = rng.integers(2**63)
    for method in METHODS:  # the two bootstrap methods share their resamples (one seed)
        results[method] = cenmcc.confidence_interval(
            draws,
            list(MEASURES),
            level=LEVEL,
            method=method,
            n_resamples=RESAMPLES,
            random_state=bootstrap_seed,
        )
    results["fisher_z"] = cenmcc.confidence_interval(
        draws, list(FISHER_Z), level=LEVEL, method="fisher_z"
    )
    for method in dict.fromkeys(CLOSED_FORMS.values()):  # one call per closed form
        names = [name for name, m in CLOSED_FORMS.items() if m == method]
        results[method] = cenmcc.confidence_interval(draws, names, level=LEVEL, method=method)
    features = mean_regime(draws)
    rows = []
    for method, by_measure in results.items():
        for name, r in by_measure.items():
            low, high = r.confidence_interval
            value = float(truth[name])
            covered = (low <= value + TIE) & (value - TIE <= high)
            rows.append(
                {
                    "K": K,
                    "n": n,
                    "classes": classes,
                    "classifier": classifier,
                    **features,
                    "measure": name,
                    "method": method,
                    "population_value": value,
                    **shares(covered),
                    "mean_width": float(np.nanmean(high - low)) if (~r.undefined).any() else np.nan,
                    "undefined_sets": int(r.undefined.sum()),
                }
            )
    return rows


def shares(covered: np.ndarray) -> dict:
    """The coverage of a cell, its binomial standard error, its test sets and its flag."""
    share = float(covered.mean())
    return {
        "coverage": share,
        "coverage_se": np.sqrt(share * (1 - share) / covered.size),
        "test_sets": covered.size,
        "flag": bool(share < FLAG),
    }


#: The columns of the paired table.
PAIRED_COLUMNS = [
    "scenario", "K", "n", "smallest", "unpredicted", "measure", "method", "difference", "null",
    "coverage", "coverage_se", "test_sets", "flag", "mean_width", "rejected",
]  # fmt: skip


def paired_cell(scenario, n, test_sets, seed) -> list[dict]:
    """Coverage of the difference, and the rejection rate at :data:`ALPHA`, of every paired
    method and measure on test sets of ``n`` items drawn from a scenario's joint table."""
    rng = np.random.default_rng(seed)
    p = paired_scenarios()[scenario]
    K = p.shape[0]
    a, b = (cenmcc.measures(p.sum(axis=axis), list(PAIRED_MEASURES)) for axis in (2, 1))
    truth = {name: float(a[name] - b[name]) for name in PAIRED_MEASURES}
    draws = rng.multinomial(n, p.ravel(), size=test_sets)
    seeds = rng.integers(2**63, size=test_sets)
    cells = np.argwhere(np.ones(p.shape, bool))
    found = {}  # (measure, method) -> lists of covered, rejected
    smallest, unpredicted = [], []
    for counts, bootstrap_seed in zip(draws, seeds, strict=True):
        y, pa, pb = np.repeat(cells, counts, axis=0).T
        T = counts.reshape(p.shape)
        smallest.append(T.sum(axis=(1, 2)).min())
        unpredicted.append(max((T.sum(axis=(0, 2)) == 0).sum(), (T.sum(axis=(0, 1)) == 0).sum()))
        for method in PAIRED_METHODS:
            names = paired_measures(method)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
                results = cenmcc.compare_classifiers(
                    y, pa, pb, names, level=LEVEL, method=method,
                    n_resamples=RESAMPLES, random_state=bootstrap_seed,
                )  # fmt: skip
            for name, r in results.items():
                low, high = r.confidence_interval
                d = truth[name]
                covered = bool(low <= d + TIE and d - TIE <= high)
                rejected = bool(r.pvalue < ALPHA)
                found.setdefault((name, method), []).append((covered, rejected, high - low))
    rows = []
    for (name, method), pairs in found.items():
        covered, rejected, width = np.array(pairs).T
        rows.append(
            {
                "scenario": scenario,
                "K": K,
                "n": n,
                "smallest": float(np.mean(smallest)),
                "unpredicted": float(np.mean(unpredicted)),
                "measure": name,
                "method": method,
                "difference": truth[name],
                "null": abs(truth[name]) < 1e-12,
                **shares(covered.astype(bool)),
                "mean_width": float(np.nanmean(width)) if np.isfinite(width).any() else np.nan,
                "rejected": float(rejected.mean()),
            }
        )
    return rows


def paired_measures(method: str) -> list[str]:
    """The paired measures a method is for."""
    if method in ("mcnemar", "mcnemar-exact"):
        return ["accuracy"]
    if method == "mover":
        return [m for m in PAIRED_MEASURES if cenmcc.MEASURES[m].bounds == (-1.0, 1.0)]
    return list(PAIRED_MEASURES)


def tasks(grid: dict) -> tuple[list[tuple], list[str]]:
    """Every cell of a grid as ``(function, arguments)``, without their seeds (the published
    designs where ``grid["designs"]``, the paired scenarios where ``grid["paired_sets"]``), and
    the names of the designs' cells in order."""
    single = [
        (cell, (*c, grid["test_sets"]))
        for c in itertools.product(grid["K"], grid["n"], ("balanced", "imbalanced"), RECALL)
    ]
    published = DESIGNS if grid.get("designs") else {}
    designs = [
        (measured, (P, n, grid["test_sets"])) for P, sizes in published.values() for n in sizes
    ]
    paired = [
        (paired_cell, (scenario, n, grid["paired_sets"]))
        for scenario in (paired_scenarios() if grid.get("paired_sets") else ())
        for n in next(v for k, v in PAIRED_N.items() if scenario.startswith(k))
    ]
    return single + designs + paired, [name for name in published for _ in published[name][1]]


def run(grid: dict, seed: int = 0, jobs: int = 1) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Every cell of the grid, the published designs and the paired scenarios; one seed per
    cell from ``SeedSequence(seed).spawn``. Returns the single table, the paired one and the
    summary."""
    work, design_names = tasks(grid)
    seeds = np.random.SeedSequence(seed).spawn(len(work))
    calls = []
    names = iter(design_names)
    for (function, args), s in zip(work, seeds, strict=True):
        extra = (next(names), "published design") if function is measured else ()
        calls.append((function, (*args, s, *extra)))
    if jobs == 1:
        parts = [function(*args) for function, args in calls]
    else:
        from joblib import Parallel, delayed  # optional: only for --jobs > 1

        parts = Parallel(n_jobs=jobs)(delayed(function)(*args) for function, args in calls)
    rows = [row for part in parts for row in part]
    table = pd.DataFrame([r for r in rows if "scenario" not in r])
    paired = pd.DataFrame([r for r in rows if "scenario" in r], columns=PAIRED_COLUMNS)
    flagged = table[table["flag"]]
    nulls = paired[paired["null"].astype(bool) & paired["n"].isin((200, 1000))]
    summary = {
        "grid": dict(grid),
        "level": LEVEL,
        "resamples": RESAMPLES,
        "flag_below": FLAG,
        "n_rows": len(table),
        "n_flagged": len(flagged),
        "flagged_by_method": flagged.groupby("method").size().to_dict(),
        "median_coverage_by_method": table.groupby("method")["coverage"].median().to_dict(),
        "worst": table.nsmallest(5, "coverage")[
            ["K", "n", "classes", "classifier", "measure", "method", "coverage"]
        ].to_dict("records"),
        "paired_rows": len(paired),
        "type_I_error_at_200_and_1000": {
            method: [float(part["rejected"].min()), float(part["rejected"].max())]
            for method, part in nulls.groupby("method")
        },
    }
    return table, paired, summary


def speed(resamples: int = 10_000, sklearn_resamples: int = 200, seed: int = 0) -> pd.DataFrame:
    """CPU seconds of BCa intervals of 8 measures of one 10-class matrix of 10,000 items.

    Against resampling the 10,000 labels and calling scikit-learn's ``matthews_corrcoef`` per
    resample (``sklearn_resamples`` of them, scaled to ``resamples``), the MCC alone.
    """
    from sklearn.metrics import matthews_corrcoef  # test and benchmark dependency

    rng = np.random.default_rng(seed)
    P = population(10, "imbalanced", "good")
    C = rng.multinomial(10_000, P.ravel()).reshape(10, 10)
    names = list(SPEED_MEASURES)
    rows = []
    for label, measures, method in (
        ("cenmcc BCa, 8 measures", names, "bca"),
        ("cenmcc BCa, MCC", ["mcc"], "bca"),
        ("cenmcc auto (the default), 8 measures", names, "auto"),
    ):
        start = time.process_time()
        cenmcc.confidence_interval(
            C, measures, method=method, n_resamples=resamples, random_state=seed
        )
        rows.append((label, resamples, time.process_time() - start))
    cells = np.repeat(np.arange(100), C.ravel())
    y_true, y_pred = cells // 10, cells % 10
    start = time.process_time()
    for _ in range(sklearn_resamples):
        i = rng.integers(0, cells.size, cells.size)
        matthews_corrcoef(y_true[i], y_pred[i])
    seconds = (time.process_time() - start) * resamples / sklearn_resamples
    rows.append(("scikit-learn matthews_corrcoef per resample, MCC", sklearn_resamples, seconds))
    table = pd.DataFrame(rows, columns=["implementation", "resamples_timed", "seconds"])
    table["seconds_for_10000_resamples"] = table["seconds"]
    table["ratio_to_cenmcc_8_measures"] = table["seconds"] / table["seconds"].iloc[0]
    return table.drop(columns="seconds")


def table_entries(frame: pd.DataFrame, keys: list[str]) -> dict:
    """For each measure of a coverage table, its cells' regimes
    (:func:`cenmcc.intervals.auto.regime`) and each method's coverage and mean width there:
    the form of :mod:`cenmcc.intervals._coverage_table`."""
    out = {}
    for name, part in frame.groupby("measure", sort=True):
        wide = part.pivot_table(
            index=keys, columns="method", values=["coverage", "mean_width"], aggfunc="first"
        )
        index = wide.index.to_frame(index=False)
        where = auto.regime(index["n"], 1, index["smallest"], index["unpredicted"])
        where[:, 1] = np.log2(index["K"])
        out[name] = {
            "regime": [tuple(round(float(x), 4) for x in row) for row in where],
            "coverage": {
                m: [round(float(x), 4) for x in wide["coverage"][m]]
                for m in wide["coverage"].columns
            },
            "width": {
                m: [round(float(x), 4) for x in wide["mean_width"][m]]
                for m in wide["mean_width"].columns
            },
        }
    return out


#: The columns that tell the cells of each table apart.
SINGLE_KEYS = ["K", "n", "classes", "classifier", "smallest", "unpredicted"]
PAIRED_KEYS = ["scenario", "K", "n", "smallest", "unpredicted"]


def coverage_module(table: pd.DataFrame, paired: pd.DataFrame, command: str) -> str:
    """The source of :mod:`cenmcc.intervals._coverage_table` (:func:`table_entries`)."""
    single = table_entries(table, SINGLE_KEYS)
    both = table_entries(paired, PAIRED_KEYS)
    return (
        '"""Coverage of 95% intervals measured by the coverage experiment, for\n'
        f'``method="auto"``. Generated by ``{command}`` (experiments/coverage): do not edit.\n'
        "For each measure, the\n"
        "cells' regimes (:func:`cenmcc.intervals.auto.regime`: log2 n, log2 K, log2(1 + smallest\n"
        "class), classes never predicted) and each method's coverage and mean width there.\n"
        '"""\n\n# ruff: noqa\n# fmt: off\n\nnan = float("nan")\n\n'
        f"SINGLE = {single!r}\n\nPAIRED = {both!r}\n"
    )
