"""Coverage of the confidence intervals of :func:`cenmcc.confidence_interval`, measured.

For each population of the grid (K classes; balanced classes or strongly imbalanced ones, the
largest class 20 times the smallest; a good classifier, recall 0.9 in every class, or a poor
one, recall 0.6, its errors spread evenly over the other classes), draw many test sets of n
items (multinomial draws of the expected confusion matrix ``P``), compute a 95% interval of
each measure by each method, and count the intervals that contain the population's value, the
measure of ``P`` itself. A cell covers well if that share is near 0.95; one below 0.93 is
flagged. An undefined interval (the measure is 0/0 on the test set) counts as a miss.

The bootstrap methods use B = 999 resamples here (the library's default is 9,999): coverage
depends little on B, the cost linearly. The default grid is reduced (277 s measured on one core
of a shared machine); ``--full`` runs the issue's grid (K = 2, 3, 5, 10; n = 50, 200, 1,000,
5,000), estimated at half an hour or more on one core from the time per cell, not run yet
(``--jobs`` spreads the cells over processes).

``--speed`` instead times BCa intervals of eight measures of one 10-class matrix of 10,000
items with 10,000 resamples on one core, against resampling the labels and calling
scikit-learn's ``matthews_corrcoef`` per resample (on fewer resamples, scaled).
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import pandas as pd

import cenmcc
from cenmcc.simulation.cli import add_output_arguments, add_seed_argument, positive_int
from cenmcc.simulation.figures import PAGE, close, style, subplots
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table

from .registry import Computed

MEASURES = ("mcc", "cen", "cohen_kappa", "accuracy", "balanced_accuracy", "f1_macro")
#: Methods for every measure, and the closed forms of some.
METHODS = ("bca", "percentile", "delta")
CLOSED_FORMS = {"accuracy": "wilson", "cohen_kappa": "fce"}
LEVEL = 0.95
#: Coverage below this is flagged.
FLAG = 0.93
#: Resamples of the bootstrap methods in this experiment.
RESAMPLES = 999
#: Ratio of the largest class to the smallest in the imbalanced populations.
IMBALANCE = 20.0
RECALL = {"good": 0.9, "poor": 0.6}

FULL = {"K": (2, 3, 5, 10), "n": (50, 200, 1000, 5000), "test_sets": 2000}
REDUCED = {"K": (2, 3), "n": (50, 200, 1000), "test_sets": 2000}


def population(K: int, balance: str, classifier: str) -> np.ndarray:
    """The expected confusion matrix ``P`` (proportions) of a population of the grid."""
    if balance == "balanced":
        prior = np.full(K, 1 / K)
    else:
        prior = IMBALANCE ** -(np.arange(K) / (K - 1))
        prior /= prior.sum()
    recall = RECALL[classifier]
    P = np.full((K, K), (1 - recall) / (K - 1))
    np.fill_diagonal(P, recall)
    return prior[:, None] * P


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
    for name, method in CLOSED_FORMS.items():
        results[method] = {
            name: cenmcc.confidence_interval(draws, name, level=LEVEL, method=method)
        }
    rows = []
    for method, by_measure in results.items():
        for name, r in by_measure.items():
            low, high = r.confidence_interval
            value = float(truth[name])
            covered = (low <= value) & (value <= high)
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


def coverage_markdown(table: pd.DataFrame, command: str) -> str:
    """The results table: coverage (± binomial SE) per cell and method, flags in bold."""
    shown = table.copy()
    shown["coverage"] = [
        f"**{c:.3f}** ± {s:.3f}" if f else f"{c:.3f} ± {s:.3f}"
        for c, s, f in zip(shown["coverage"], shown["coverage_se"], shown["flag"], strict=True)
    ]
    wide = shown.pivot_table(
        index=["measure", "K", "n", "classes", "classifier"],
        columns="method",
        values="coverage",
        aggfunc="first",
    ).reset_index()
    widths = table.pivot_table(
        index=["measure", "K", "n", "classes", "classifier"], columns="method", values="mean_width"
    )
    wide["mean width (bca / delta)"] = [
        f"{widths.loc[tuple(r)]['bca']:.3f} / {widths.loc[tuple(r)]['delta']:.3f}"
        for r in wide[["measure", "K", "n", "classes", "classifier"]].to_numpy()
    ]
    wide = wide.fillna("")
    return (
        f"# Coverage of 95% intervals\n\nWritten by `{command}`. Share of "
        f"{int(table['test_sets'].iloc[0]):,} test sets per cell whose interval contains the "
        f"population's value, ± its binomial standard error; **bold**: below {FLAG}. "
        f"Bootstrap: B = {RESAMPLES} resamples. An undefined interval counts as a miss.\n\n"
        + markdown_table(wide)
        + "\n"
    )


def plot(table: pd.DataFrame):
    """Coverage against n, one panel per measure, one marker per method."""
    with style():
        fig, axes = subplots(2, 3, width=PAGE / 3, height=2.2, sharex=True, sharey=True)
        for ax, name in zip(axes.ravel(), MEASURES, strict=True):
            sub = table[table["measure"] == name]
            for i, (method, part) in enumerate(sub.groupby("method")):
                jitter = 1 + 0.06 * (i - 2)
                ax.plot(part["n"] * jitter, part["coverage"], "o", ms=2, alpha=0.6, label=method)
            ax.axhline(LEVEL, color="0.3", lw=0.8)
            ax.axhline(FLAG, color="C3", lw=0.8, ls="--")
            ax.set(xscale="log", title=cenmcc.MEASURES[name].label)
        for ax in axes[1]:
            ax.set_xlabel("test set size n")
        for ax in axes[:, 0]:
            ax.set_ylabel("coverage of 95% intervals")
        handles, labels = axes[0, 0].get_legend_handles_labels()
        for ax in axes.ravel()[1:]:
            for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
        fig.legend(handles, labels, loc="outside upper center", ncols=len(labels))
    return fig


def speed(resamples: int = 10_000, sklearn_resamples: int = 200, seed: int = 0) -> pd.DataFrame:
    """CPU seconds of BCa intervals of 8 measures of one 10-class matrix of 10,000 items.

    Against resampling the 10,000 labels and calling scikit-learn's ``matthews_corrcoef`` per
    resample (``sklearn_resamples`` of them, scaled to ``resamples``), the MCC alone.
    """
    from sklearn.metrics import matthews_corrcoef  # test and benchmark dependency

    rng = np.random.default_rng(seed)
    P = population(10, "imbalanced", "good")
    C = rng.multinomial(10_000, P.ravel()).reshape(10, 10)
    names = [*MEASURES, "tmcc", "precision_macro"]
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--full",
        action="store_true",
        help="the whole grid: K = 2, 3, 5, 10 and n up to 5,000 (about half an hour, one core)",
    )
    parser.add_argument("--jobs", type=positive_int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--speed",
        action="store_true",
        help="only time BCa of 8 measures against scikit-learn (speed.csv, speed.md)",
    )
    add_seed_argument(parser)
    add_output_arguments(parser)


def main(args: argparse.Namespace, out) -> Computed:
    """Run the grid (or the speed comparison) and write its tables and figure into ``out``."""
    if args.speed:
        table = speed(seed=args.seed)
        write_table(out / "speed.csv", table)
        write_atomic(
            out / "speed.md",
            lambda tmp: tmp.write_text(
                "# BCa intervals: cenmcc against scikit-learn per resample\n\n"
                "CPU seconds on one core, `python -m experiments coverage --speed`.\n\n"
                + markdown_table(table, ".3g")
                + "\n"
            ),
        )
        print(markdown_table(table, ".3g"))
        return Computed(None)
    grid = FULL if args.full else REDUCED
    start = time.perf_counter()
    table, summary = run(grid, args.seed, args.jobs)
    seconds = time.perf_counter() - start
    command = "python -m experiments coverage" + (" --full" if args.full else "")
    write_table(out / "coverage.csv", table)
    text = coverage_markdown(table, command)
    write_atomic(out / "coverage.md", lambda tmp: tmp.write_text(text))
    fig = plot(table)
    save_figure(fig, out / "coverage.png")
    close(fig)
    print(
        f"{len(table)} cells x methods; {summary['n_flagged']} below {FLAG}: "
        f"{summary['flagged_by_method']}; {seconds:.1f} s"
    )
    return Computed(summary, seconds, {"grid": grid})
