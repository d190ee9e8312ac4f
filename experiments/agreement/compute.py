"""The agreement experiment's run: the three simulations, and their summary and tables."""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import TYPE_CHECKING

import numpy as np

import cenmcc
from cenmcc.simulation import Result
from cenmcc.simulation import run as run_simulation

from .findings import findings, label, with_error
from .settings import (
    BALANCED,
    CASES,
    CLASS_BALANCE,
    IMBALANCED,
    MEASURES,
    STATISTICS,
    Config,
    pairs_of,
)

if TYPE_CHECKING:
    import pandas as pd


def run(
    config: Config | None = None,
    *,
    jobs: int = -1,
    backend: str = "loky",
    scheduler: str | None = None,
    quiet: bool = False,
) -> tuple[dict[str, Result], dict]:
    """Run the study on every generator of :data:`CASES`.

    Returns
    -------
    results : dict of str to Result
        By generator name.
    timing : dict
        Each run's seconds and the parallel settings (they never change the results).
    """
    config = config or Config()
    results, timing = {}, {"jobs": jobs, "backend": backend}
    for index, case in enumerate(CASES):
        with warnings.catch_warnings():
            # The undefined values are counted in each summary (``undefined``) and reported.
            warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
            result = run_simulation(
                config.simulation(index),
                jobs=jobs,
                backend=backend,
                scheduler=scheduler,
                quiet=quiet,
            )
        results[case.name] = result
        timing[f"{case.name}_seconds"] = round(result.timing["computation_seconds"], 3)
        timing[f"{case.name}_task_cpu_seconds"] = round(result.timing["task_cpu_seconds"], 3)
    return results, timing


def summarize(config: Config, results: dict[str, Result]) -> dict:
    """The summary: per generator, every pair's statistics and its consistency per K; findings."""
    first = next(iter(results.values())).summary
    generators = {}
    for index, case in enumerate(CASES):
        s = results[case.name].summary
        balance = s["measures"][CLASS_BALANCE.name]
        keys = list(balance["by_k"])
        pairs: dict = {}
        for f, g in pairs_of():
            p = results[case.name].pair(f, g)
            entry = {}
            for stat in STATISTICS:
                entry[stat] = p[stat]
                entry[f"{stat}_se"] = p[f"{stat}_se"]
            entry |= within_k(p, keys)
            entry["pair_counts"] = p["pair_counts"]
            entry["by_k"] = {
                "consistency": [p["by_k"][k]["consistency"] for k in keys],
                "consistency_se": [p["by_k"][k]["consistency_se"] for k in keys],
            }
            pairs.setdefault(f, {})[g] = entry
        generators[case.name] = {
            "title": case.title,
            "generator": type(case.generator).__name__,
            "settings": dataclasses.asdict(case.generator),
            "seed": len(CASES) * config.seed + index,
            "n_matrices": s["n_matrices"],
            "n_chunks": s["n_chunks"],
            "replicates": s["standard_errors"]["replicates"],
            "K": [int(k) for k in keys],
            "n_by_k": [balance["by_k"][k]["n"] for k in keys],
            "class_balance": {
                "mean": balance["mean"],
                "mean_se": balance["mean_se"],
                "by_k": [balance["by_k"][k]["mean"] for k in keys],
            },
            "undefined": {m: s["measures"][m]["undefined"] for m in MEASURES},
            # Classes without true samples: those balanced accuracy leaves out, over all classes.
            "empty_class_share": s["measures"]["balanced_accuracy"]["undefined"]
            / sum(int(k) * balance["by_k"][k]["n"] for k in keys),
            "pairs": pairs,
        }
    summary = {
        "question": (
            "which of eight measures rank random confusion matrices the same way, and how that "
            "changes with the number of classes K and with class imbalance"
        ),
        "measures": {
            m.name: {"label": m.label, "greater_is_better": m.greater_is_better}
            for m in (cenmcc.MEASURES[name] for name in MEASURES)
        },
        "n_matrices_per_generator": config.n_matrices,
        "seed": config.seed,
        "chunk_size": config.chunk_size,
        "class_concentration": {"imbalanced": IMBALANCED, "balanced": BALANCED},
        "orientation": first["orientation"],
        "undefined_values": (
            "per measure, the values that were 0/0 and filled with its documented value: for "
            "MCC, kappa and tMCC, matrices (set to 0); for balanced_accuracy, classes without "
            "true samples (left out of the mean); for f1_macro, classes with neither true nor "
            "predicted samples (their F1 set to 0 in the mean)"
        ),
        "class_balance": (
            "per matrix, the entropy of the true-class proportions over ln K (1: classes of "
            "equal size); its mean, and the share of classes without true samples "
            "(empty_class_share), describe each generator's imbalance"
        ),
        "standard_errors": {
            key: first["standard_errors"][key] for key in ("jackknife", "replicates")
        }
        | {
            "which": "consistency, discriminancy and Kendall's tau_b: replicates; Pearson and "
            "class balance: jackknife",
        },
        "generators": generators,
    }
    summary["findings"] = findings(summary)
    return summary


def within_k(pair: dict, keys: list[str]) -> dict:
    """A pair's degree of consistency over the pairs of matrices with the same K, and its SE.

    ``Σ_K |R_K| / Σ_K (|R_K| + |S_K|)`` from the exact counts within each K: the overall
    degree also counts the pairs of matrices with different K (most of them, with many K), whose
    order mixes how each measure drifts with K into how it ranks matrices of one problem. Its
    SE combines the per-K SEs (disjoint matrices, independent) with the per-K weights
    ``(|R_K| + |S_K|) / Σ (|R| + |S|)`` taken as fixed: ``sqrt(Σ w_K² SE_K²)``.
    """
    counts = [pair["by_k"][k]["pair_counts"] for k in keys]
    ordered = np.array([c["concordant"] + c["discordant"] for c in counts], dtype=float)
    concordant = sum(c["concordant"] for c in counts)
    total = int(ordered.sum())
    se = np.array([pair["by_k"][k]["consistency_se"] for k in keys], dtype=float)
    weights = ordered / total if total else ordered
    used = weights > 0
    n_pairs = pair["pair_counts"]["n_pairs"]  # 0 in a run of one matrix: no share
    return {
        "consistency_within_k": concordant / total if total else math.nan,
        "consistency_within_k_se": (
            float(np.sqrt(np.sum((weights[used] * se[used]) ** 2))) if total else math.nan
        ),
        "share_of_pairs_within_k": (
            sum(c["n_pairs"] for c in counts) / n_pairs if n_pairs else math.nan
        ),
    }


def tables(results: dict[str, Result]) -> dict[str, pd.DataFrame]:
    """``pairs`` and ``measures`` (:meth:`Result.tables`, a generator column first)."""
    import pandas as pd

    out = {}
    for name in ("pairs", "measures"):
        rows = [
            {"generator": generator, **row}
            for generator, result in results.items()
            for row in result.tables()[name]
        ]
        out[name] = pd.DataFrame(rows)
    return out


def overview(summary: dict) -> pd.DataFrame:
    """One row per pair: its consistency (over all pairs of matrices and within one K) and τ_b
    under each generator, ± SE (agreement.md)."""
    import pandas as pd

    rows = []
    for f, g in pairs_of():
        row = {"pair": f"{label(f)} – {label(g)}"}
        for stat, short in (
            ("consistency", "consistency"),
            ("consistency_within_k", "consistency within K"),
            ("kendall_tau_b", "tau_b"),
        ):
            for name, gen in summary["generators"].items():
                e = gen["pairs"][f][g]
                row[f"{short}, {name}"] = with_error(e[stat], e[f"{stat}_se"])
        rows.append(row)
    return pd.DataFrame(rows)
