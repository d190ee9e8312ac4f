"""The coverage experiment's run: the grid's cells, and the speed comparison."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pandas as pd

import cenmcc

from .settings import (
    CLOSED_FORMS,
    FLAG,
    LEVEL,
    MEASURES,
    METHODS,
    RECALL,
    RESAMPLES,
    SPEED_MEASURES,
    TIE,
    population,
)


def cell(K, n, balance, classifier, test_sets, seed) -> list[dict]:
    """Coverage and mean width of every method and measure for one population and n."""
    rng = np.random.default_rng(seed)
    P = population(K, balance, classifier)
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
    for method in dict.fromkeys(CLOSED_FORMS.values()):  # one call per closed form
        names = [name for name, m in CLOSED_FORMS.items() if m == method]
        results[method] = cenmcc.confidence_interval(draws, names, level=LEVEL, method=method)
    rows = []
    for method, by_measure in results.items():
        for name, r in by_measure.items():
            low, high = r.confidence_interval
            value = float(truth[name])
            covered = (low <= value + TIE) & (value - TIE <= high)
            share = covered.mean()
            rows.append(
                {
                    "K": K,
                    "n": n,
                    "classes": balance,
                    "classifier": classifier,
                    "measure": name,
                    "method": method,
                    "population_value": value,
                    "coverage": share,
                    "coverage_se": np.sqrt(share * (1 - share) / covered.size),
                    "mean_width": float(np.nanmean(high - low)) if (~r.undefined).any() else np.nan,
                    "undefined_sets": int(r.undefined.sum()),
                    "test_sets": covered.size,
                    "flag": bool(share < FLAG),
                }
            )
    return rows


def run(grid: dict, seed: int = 0, jobs: int = 1) -> tuple[pd.DataFrame, dict]:
    """Every cell of the grid; one seed per cell from ``SeedSequence(seed).spawn``."""
    cells = list(itertools.product(grid["K"], grid["n"], ("balanced", "imbalanced"), RECALL))
    seeds = np.random.SeedSequence(seed).spawn(len(cells))
    args = [(*c, grid["test_sets"], s) for c, s in zip(cells, seeds, strict=True)]
    if jobs == 1:
        parts = [cell(*a) for a in args]
    else:
        from joblib import Parallel, delayed  # optional: only for --jobs > 1

        parts = Parallel(n_jobs=jobs)(delayed(cell)(*a) for a in args)
    table = pd.DataFrame([row for part in parts for row in part])
    flagged = table[table["flag"]]
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
    }
    return table, summary


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
    for label, measures in (("cenmcc BCa, 8 measures", names), ("cenmcc BCa, MCC", ["mcc"])):
        start = time.process_time()
        cenmcc.confidence_interval(C, measures, n_resamples=resamples, random_state=seed)
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
