"""Beyond the papers: which of eight measures rank confusion matrices alike, by K and imbalance.

The papers compare two measures, CEN and MCC, on one generator of random matrices. This
experiment compares eight, CEN, MCC, Cohen's κ, accuracy, balanced accuracy, macro F1, micro
F1 and tMCC, on three generators (:data:`CASES`):

- ``papers``: the papers' random matrices (:class:`cenmcc.simulation.PaperGenerator`, K = 3..30);
- ``imbalanced``: a classifier with Dirichlet-distributed error rates on strongly imbalanced
  classes (:class:`cenmcc.simulation.DirichletClassifier`, K = 3..50, class proportions from a
  symmetric Dirichlet of parameter :data:`IMBALANCED` = 0.3);
- ``balanced``: the same classifier on balanced classes (parameter :data:`BALANCED` = 100).

For every pair of measures, oriented so that higher is better (CEN and tMCC negated), the
engine (:func:`cenmcc.simulation.run`) counts every pair of matrices exactly, overall and within
each K, for Huang & Ling's (2005) degrees of consistency and discriminancy and Kendall's τ_b,
and jackknifes the Pearson correlation; every value has its standard error. A consistency of 1
means the two measures never order two matrices oppositely; 1/2, that they agree no more than
chance.

Accuracy and micro F1 are the same number for single-label multi-class matrices (micro
precision and micro recall both equal the trace over the total), so their consistency is 1 by
construction; the agreement matrices show it, and the findings say so, as a check of the counts.

``python -m experiments agreement`` writes to ``figures/agreement/``: ``summary.json`` (per
generator, every pair's statistics with standard errors and its consistency per K, and the
findings computed from them), ``pairs.csv`` (every pair, overall and per K), ``measures.csv``
(each measure's mean and SD, overall and per K, and its undefined values), ``agreement.md``
(the consistency and τ_b of every pair under each generator), and the figures
``agreement_matrices``, ``consistency_by_k`` and ``cen_mcc_density`` (.png, .pdf).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
import warnings
from typing import TYPE_CHECKING

import numpy as np

import cenmcc
from cenmcc.simulation import DirichletClassifier, PaperGenerator, Result, Simulation, resources
from cenmcc.simulation import figures as plots
from cenmcc.simulation import run as run_simulation
from cenmcc.simulation.cli import (
    add_output_arguments,
    add_parallel_arguments,
    add_seed_argument,
    number,
    positive_int,
)
from cenmcc.simulation.outputs import markdown_table, save_figure, write_atomic, write_table
from cenmcc.simulation.streaming import Histogram2D

from .registry import Computed

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

#: The eight measures compared (names of :data:`cenmcc.MEASURES`), in the order of the figures.
MEASURES = (
    "cen",
    "mcc",
    "cohen_kappa",
    "accuracy",
    "balanced_accuracy",
    "f1_macro",
    "f1_micro",
    "tmcc",
)

#: Short labels for the crowded axes of the agreement matrices.
SHORT = {
    "cen": "CEN",
    "mcc": "MCC",
    "cohen_kappa": "$\\kappa$",
    "accuracy": "ACC",
    "balanced_accuracy": "BA",
    "f1_macro": "$F_1^{\\rm M}$",
    "f1_micro": "$F_1^{\\mu}$",
    "tmcc": "tMCC",
}

#: The pairs drawn against K, fixed before any run (not picked from the results): the papers'
#: pair and its transformation, κ against MCC (Delgado & Tibau 2019), balanced accuracy against
#: MCC (Chicco, Tötsch & Jurman 2021) and against accuracy (what imbalance should separate),
#: and macro F1 against MCC.
PAIRS_BY_K = (
    ("cen", "mcc"),
    ("cen", "tmcc"),
    ("mcc", "cohen_kappa"),
    ("mcc", "balanced_accuracy"),
    ("accuracy", "balanced_accuracy"),
    ("mcc", "f1_macro"),
)

#: Class-proportion concentration of the imbalanced classifier. Below 1 a symmetric Dirichlet
#: puts its mass near the corners of the simplex: a few large classes and many small or empty
#: ones, more so as K grows (a class's share has coefficient of variation
#: ``sqrt((K - 1)/(K α + 1))``: 1.0 at K = 3, 1.75 at K = 50). 0.3 is the value
#: :class:`~cenmcc.simulation.DirichletClassifier` documents as strongly imbalanced, and its
#: default, as in the run that issue 19 reports; it was not tuned to these results.
IMBALANCED = 0.3
#: Class-proportion concentration of the balanced classifier: shares within about 10% of 1/K
#: at K = 50 (coefficient of variation 0.099), less than the multinomial noise of 1,000
#: samples in 50 classes (0.22).
BALANCED = 100.0


@dataclasses.dataclass(frozen=True)
class Case:
    """One generator of the study.

    Attributes
    ----------
    name : str
        Its key in the summary and the tables.
    short, detail : str
        The two lines of its panels' titles (mathtext).
    generator : callable
    """

    name: str
    short: str
    detail: str
    generator: object

    @property
    def title(self) -> str:
        """Its title in one line of plain text (the summary's)."""
        return f"{self.short}, {self.detail}".replace("$\\alpha$", "α").replace("$K$", "K")

    def panel_title(self, letter: str) -> str:
        return f"({letter}) {self.short}\n{self.detail}"


CASES = (
    Case("papers", "papers' generator", "$K$ = 3–30", PaperGenerator()),
    Case(
        "imbalanced",
        "Dirichlet classifier, imbalanced",
        f"$\\alpha$ = {IMBALANCED:g}, $K$ = 3–50",
        DirichletClassifier(k_range=(3, 50), class_concentration=IMBALANCED),
    ),
    Case(
        "balanced",
        "Dirichlet classifier, balanced",
        f"$\\alpha$ = {BALANCED:g}, $K$ = 3–50",
        DirichletClassifier(k_range=(3, 50), class_concentration=BALANCED),
    ),
)
BY_NAME = {case.name: case for case in CASES}


def class_balance(C: np.ndarray) -> np.ndarray:
    """How evenly the samples fall into the true classes: ``H(t / n) / ln K``, in [0, 1].

    The Shannon entropy of the true-class proportions (row sums over the total) over its
    largest value ``ln K``: 1 when every class has the same number of samples, 0 when one class
    has them all; an empty class adds nothing (0 ln 0 = 0).
    """
    true = C.sum(axis=-1, dtype=np.float64)
    p = true / true.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return -terms.sum(axis=-1) / math.log(C.shape[-1])


#: The class balance of each matrix: its mean per K describes each generator (not compared).
CLASS_BALANCE = cenmcc.Measure(
    "class_balance",
    class_balance,
    greater_is_better=True,
    label="class balance H(t)/ln K",
    bounds=(0.0, 1.0),
)


@dataclasses.dataclass(frozen=True)
class Config:
    """The study's settings.

    Attributes
    ----------
    n_matrices : int
        Matrices drawn from each generator.
    seed : int
        Seed of the run; generator i of :data:`CASES` runs with seed ``3 · seed + i``, so the
        three runs are independent and no two seeds share a stream.
    chunk_size : int
        Matrices per chunk; the first 64 whole chunks of each run are the replicates of the
        standard errors of the pair-count statistics.
    """

    n_matrices: int = 50_000
    seed: int = 0
    chunk_size: int = 2_500

    def simulation(self, index: int) -> Simulation:
        """The simulation of generator ``index`` of :data:`CASES`."""
        return Simulation(
            CASES[index].generator,
            self.n_matrices,
            measures=(*MEASURES, CLASS_BALANCE),
            pairs=tuple((f, g) for i, f in enumerate(MEASURES) for g in MEASURES[i + 1 :]),
            density_pairs=(("cen", "mcc"),),
            seed=len(CASES) * self.seed + index,
            chunk_size=self.chunk_size,
        )


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


# --------------------------------------------------------------------------------------------
# The summary


def pairs_of(measures=MEASURES) -> list[tuple[str, str]]:
    """Every pair of the measures, in their order."""
    return [(f, g) for i, f in enumerate(measures) for g in measures[i + 1 :]]


#: A pair's overall statistics in the summary, each with its standard error.
STATISTICS = ("consistency", "discriminancy", "kendall_tau_b", "pearson")


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
    return {
        "consistency_within_k": concordant / total if total else math.nan,
        "consistency_within_k_se": float(np.sqrt(np.sum((weights[used] * se[used]) ** 2))),
        "share_of_pairs_within_k": sum(c["n_pairs"] for c in counts)
        / pair["pair_counts"]["n_pairs"],
    }


def with_error(value: float, se: float) -> str:
    """``value ± se`` with the SE to two significant digits and the value to the same place.

    Examples
    --------
    >>> with_error(0.876123, 0.000388), with_error(1.0, 0.0), with_error(0.5, math.nan)
    ('0.87612 ± 0.00039', '1 ± 0', '0.5')
    """
    if not math.isfinite(value):
        return str(value)
    if not math.isfinite(se):
        return f"{value:.4g}"
    if se == 0:
        return f"{value:g} ± 0"
    digits = max(0, 1 - math.floor(math.log10(se)))
    return f"{value:.{digits}f} ± {se:.{digits}f}"


def _label(name: str) -> str:
    return cenmcc.MEASURES[name].label


def _pair_name(f: str, g: str) -> str:
    return f"{_label(f)}–{_label(g)}"


def _identical(entry: dict) -> bool:
    """Whether two measures order and tie every pair of matrices alike."""
    c = entry["pair_counts"]
    return c["discordant"] == 0 and c["f_only"] == 0 and c["g_only"] == 0


def _ends(entry: dict, keys: list[int], width: int = 5) -> tuple[float, float, float, float]:
    """Mean consistency (and its SE) over the ``width`` smallest and the ``width`` largest K."""
    c = np.asarray(entry["by_k"]["consistency"], dtype=float)
    se = np.asarray(entry["by_k"]["consistency_se"], dtype=float)

    def mean(part: slice) -> tuple[float, float]:
        return float(c[part].mean()), float(math.sqrt(np.sum(se[part] ** 2)) / c[part].size)

    return (*mean(slice(0, width)), *mean(slice(len(keys) - width, None)))


def findings(summary: dict) -> list[str]:
    """What the numbers say, in sentences computed from them (no conclusion is written in).

    Consistency "over all pairs" counts every pair of matrices; "within one K" only the pairs
    of matrices with the same number of classes (:func:`within_k`).
    """
    gens = summary["generators"]
    out = []

    def entry(name: str, f: str, g: str) -> dict:
        return gens[name]["pairs"][f][g]

    def show(name: str, f: str, g: str, stat: str = "consistency") -> str:
        e = entry(name, f, g)
        return with_error(e[stat], e[f"{stat}_se"])

    counts = {name: entry(name, "accuracy", "f1_micro")["pair_counts"] for name in gens}
    if all(_identical(entry(name, "accuracy", "f1_micro")) for name in gens):
        out.append(
            "Accuracy and micro F1 order and tie every pair of matrices alike under all three "
            "generators (consistency exactly 1, no pair told apart by one and tied by the "
            "other): for single-label multi-class matrices micro F1 equals accuracy."
        )
    else:
        out.append(f"Accuracy and micro F1 do not order every pair of matrices alike: {counts}.")
    for name, g in gens.items():
        # Micro F1 is accuracy again: its pairs would repeat accuracy's in the rankings.
        same_as_accuracy = _identical(entry(name, "accuracy", "f1_micro"))
        parts = []
        for stat, where in (
            ("consistency", "over all pairs"),
            ("consistency_within_k", "within one K"),
        ):
            ranked = sorted(
                (e[stat], f, h)
                for f, row in g["pairs"].items()
                for h, e in row.items()
                if not (same_as_accuracy and "f1_micro" in (f, h))
            )
            top = ", ".join(
                f"{_pair_name(f, h)} {show(name, f, h, stat)}" for _, f, h in ranked[:-3:-1]
            )
            low = ", ".join(
                f"{_pair_name(f, h)} {show(name, f, h, stat)}" for _, f, h in ranked[:2]
            )
            parts.append(f"{where}, most {top}; least {low}")
        out.append(
            f"{g['title']} (mean class balance {g['class_balance']['mean']:.3f}, "
            f"{100 * g['empty_class_share']:.1f}% of classes empty), degree of consistency "
            f"{parts[0]}; {parts[1]}."
        )
    share = {name: entry(name, "cen", "mcc")["share_of_pairs_within_k"] for name in gens}
    out.append(
        "Pairs of matrices with the same K are a small share of all pairs ("
        + ", ".join(f"{name} {100 * v:.1f}%" for name, v in share.items())
        + "): the consistency over all pairs mostly says whether two measures drift alike with "
        "K, the consistency within one K whether they rank the matrices of one problem alike."
    )
    lines = []
    for stat, where in (
        ("consistency", "over all pairs"),
        ("consistency_within_k", "within one K"),
    ):
        b, i = entry("balanced", "cen", "mcc"), entry("imbalanced", "cen", "mcc")
        diff = i[stat] - b[stat]
        diff_se = math.hypot(i[f"{stat}_se"], b[f"{stat}_se"])
        values = ", ".join(f"{name} {show(name, 'cen', 'mcc', stat)}" for name in gens)
        lines.append(
            f"{where}: {values}; imbalanced minus balanced {with_error(diff, diff_se)} "
            f"({diff / diff_se:+.1f} SE)"
        )
    out.append("CEN–MCC consistency " + "; ".join(lines) + ".")
    for name, g in gens.items():
        lo, lo_se, hi, hi_se = _ends(entry(name, "cen", "mcc"), g["K"])
        out.append(
            f"CEN–MCC consistency within one K, {name}: {with_error(lo, lo_se)} on average over "
            f"K = {g['K'][0]}–{g['K'][4]}, {with_error(hi, hi_se)} over K = {g['K'][-5]}–"
            f"{g['K'][-1]}."
        )
    stat = "consistency_within_k"
    changes = []
    for f, h in pairs_of():
        b, i = entry("balanced", f, h), entry("imbalanced", f, h)
        changes.append((i[stat] - b[stat], math.hypot(b[f"{stat}_se"], i[f"{stat}_se"]), f, h))
    changes.sort(key=lambda t: -abs(t[0]))
    text = "; ".join(
        f"{_pair_name(f, h)} {entry('balanced', f, h)[stat]:.4f} → "
        f"{entry('imbalanced', f, h)[stat]:.4f} ({with_error(d, d_se)})"
        for d, d_se, f, h in changes[:3]
    )
    out.append(
        f"Largest changes of the consistency within one K from balanced to imbalanced classes: "
        f"{text}."
    )
    below = [
        f"{_pair_name(f, h)} ({name}, {where} {entry(name, f, h)[stat]:.4f})"
        for name in gens
        for f, h in pairs_of()
        for stat, where in (("consistency", "all pairs"), ("consistency_within_k", "within K"))
        if entry(name, f, h)[stat] < 0.5
    ]
    out.append(
        "Pairs of measures that order more pairs of matrices oppositely than alike: "
        + ", ".join(below)
        + "."
        if below
        else "Every pair of measures orders more pairs of matrices alike than oppositely "
        "(consistency above 1/2), over all pairs and within one K, under every generator."
    )
    return out


# --------------------------------------------------------------------------------------------
# Tables


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
        row = {"pair": f"{_label(f)} – {_label(g)}"}
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


# --------------------------------------------------------------------------------------------
# Figures


#: The rows of the agreement matrices: which pairs of matrices each degree counts.
MATRIX_ROWS = (
    ("consistency", "all pairs of matrices"),
    ("consistency_within_k", "pairs with the same K"),
)

#: What the axis labels of the agreement matrices abbreviate.
ABBREVIATIONS = (
    "$\\kappa$ Cohen's kappa, ACC accuracy, BA balanced accuracy, $F_1^{\\rm M}$ macro F1, "
    "$F_1^{\\mu}$ micro F1; CEN and tMCC (lower is better) negated; 1 is exact, 1.000 rounded"
)


def plot_matrices(summary: dict) -> Figure:
    """The degree of consistency of every pair under each generator, its value in each cell.

    One column per generator; the first row counts every pair of matrices, the second only
    the pairs with the same K. Lower triangles (the degree is symmetric); cells coloured from
    1/2 (no agreement beyond chance) to 1; a 1 is exact, 1.000 rounded.
    """
    names = list(MEASURES)
    q = len(names)
    gens = summary["generators"]
    fig, axes = plots.subplots(
        len(MATRIX_ROWS), len(CASES), width=plots.PAGE / len(CASES), height=2.5
    )
    with plots.style():
        image = None
        for row, (stat, what) in enumerate(MATRIX_ROWS):
            for panel, case in enumerate(CASES):
                ax, gen = axes[row, panel], gens[case.name]
                grid = np.full((q, q), np.nan)
                for i, f in enumerate(names):
                    for j, g in enumerate(names[:i]):
                        grid[i, j] = gen["pairs"][g][f][stat]
                image = ax.imshow(grid, vmin=0.5, vmax=1.0, cmap="viridis", aspect="auto")
                for i in range(q):
                    for j in range(i):
                        value = grid[i, j]
                        text = "1" if value == 1 else f"{value:.3f}".removeprefix("0")
                        ax.text(
                            j,
                            i,
                            text,
                            ha="center",
                            va="center",
                            fontsize=6,
                            color="black" if value > 0.8 else "white",
                        )
                ax.set_xticks(range(q - 1), [SHORT[n] for n in names[:-1]], rotation=90)
                ax.set_yticks(range(1, q), [SHORT[n] for n in names[1:]])
                ax.set_xlim(-0.5, q - 1.5)
                ax.set_ylim(q - 0.5, 0.5)
                ax.tick_params(length=0, labelsize=6.5)
                ax.grid(False)
                for side in ("left", "bottom"):
                    ax.spines[side].set_visible(False)
                letter = "abcdef"[row * len(CASES) + panel]
                ax.set_title(case.panel_title(letter), fontsize=7)
            axes[row, 0].set_ylabel(what, fontsize=8, labelpad=6)
        fig.colorbar(image, ax=axes, shrink=0.6, aspect=30, label="degree of consistency")
        fig.supxlabel(ABBREVIATIONS, fontsize=6.5)
    return fig


def plot_by_k(summary: dict) -> Figure:
    """Consistency against K (±1 SE, shaded) of the pairs of :data:`PAIRS_BY_K`, per generator.

    Within one K, so each point counts only the pairs of matrices with that K.
    """
    gens = summary["generators"]
    fig, axes = plots.subplots(
        1, len(CASES), width=plots.PAGE / len(CASES), height=2.6, sharey=True
    )
    markers = "osD^vP"
    # CEN–tMCC (the second pair) nearly coincides with CEN–MCC: dashed, hollow, on top.
    looks = [
        {"ls": "--", "mfc": "none", "zorder": 9} if n == 1 else {"zorder": 3}
        for n in range(len(PAIRS_BY_K))
    ]
    with plots.style():
        for panel, (ax, case) in enumerate(zip(axes, CASES, strict=True)):
            gen = gens[case.name]
            K = np.asarray(gen["K"])
            for n, (f, g) in enumerate(PAIRS_BY_K):
                e = gen["pairs"][f][g]["by_k"]
                c = np.asarray(e["consistency"], dtype=float)
                se = np.asarray(e["consistency_se"], dtype=float)
                ax.fill_between(K, c - se, c + se, color=f"C{n}", alpha=0.3, lw=0)
                ax.plot(K, c, color=f"C{n}", marker=markers[n], ms=2, lw=0.8, **looks[n])
            ax.axhline(0.5, color="0.4", ls=":", lw=0.8)
            ax.set_title(case.panel_title("abc"[panel]), fontsize=7)
            ax.set_xlabel("$K$, number of classes")
        axes[0].set_ylabel("degree of consistency within $K$")
        handles = [
            plots.legend_key(
                _pair_name(f, g),
                color=f"C{n}",
                marker=markers[n],
                ms=3,
                lw=0.8,
                **{k: v for k, v in looks[n].items() if k != "zorder"},
            )
            for n, (f, g) in enumerate(PAIRS_BY_K)
        ]
        handles.append(plots.legend_key("1/2: no agreement beyond chance", color="0.4", ls=":"))
        fig.legend(handles=handles, loc="outside upper center", ncols=4)
    return fig


def plot_density(results: dict[str, Result]) -> Figure:
    """CEN against MCC under each generator, as densities (matrices per cell, log scale)."""
    panels = []
    for panel, case in enumerate(CASES):
        h = results[case.name].histograms["cen", "mcc"]
        panels.append(
            (
                Histogram2D(h.counts.T.copy(), h.outside, h.y_range, h.x_range),
                "MCC",
                "CEN",
                case.panel_title("abc"[panel]),
            )
        )
    fig = plots.density_panels(panels)
    fig.set_size_inches(plots.PAGE, 2.8)
    # One colour scale for the three panels (each is drawn on its own), the colour bar's.
    top = max(2, *(int(h.counts.max()) for h, *_ in panels))
    for ax in fig.axes[: len(panels)]:
        ax.title.set_fontsize(7)
        for mesh in ax.collections:
            mesh.set_clim(1, top)
    return fig


def write_outputs(summary: dict, results: dict[str, Result], out) -> None:
    """The tables and the figures into ``out``."""
    for name, table in tables(results).items():
        write_table(out / f"{name}.csv", table)
    text = markdown_table(overview(summary)) + "\n"
    write_atomic(out / "agreement.md", lambda tmp: tmp.write_text(text))
    drawn = (
        ("agreement_matrices", plot_matrices(summary)),
        ("consistency_by_k", plot_by_k(summary)),
        ("cen_mcc_density", plot_density(results)),
    )
    for name, fig in drawn:
        for suffix in (".png", ".pdf"):
            save_figure(fig, out / f"{name}{suffix}")
        plots.close(fig)


# --------------------------------------------------------------------------------------------
# Command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Config()
    parser.add_argument(
        "--n",
        type=positive_int,
        default=defaults.n_matrices,
        help="number of matrices of each generator",
    )
    parser.add_argument(
        "--chunk-size",
        type=positive_int,
        default=defaults.chunk_size,
        help="matrices per chunk (task)",
    )
    add_seed_argument(parser, default=defaults.seed)
    add_parallel_arguments(parser)
    add_output_arguments(parser)


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before any work, settings a simulation rejects or a run that would not fit."""
    config = Config(n_matrices=args.n, seed=args.seed, chunk_size=args.chunk_size)
    try:
        sim = config.simulation(0)
    except (ValueError, TypeError) as err:
        parser.error(f"argument --n/--chunk-size: {err}")
    try:  # the three simulations run one after the other, each of --n matrices
        resources.require_simulation(
            sim, what=f"--n {number(args.n)}", jobs=args.jobs, scheduler=args.scheduler
        )
    except ValueError as err:
        parser.error(f"argument --n: {err}")


def main(args: argparse.Namespace, out) -> Computed:
    """Run the study, write its tables and figures into ``out``, report the findings."""
    config = Config(n_matrices=args.n, seed=args.seed, chunk_size=args.chunk_size)
    start = time.perf_counter()
    results, timing = run(
        config, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, quiet=args.quiet
    )
    seconds = time.perf_counter() - start
    summary = summarize(config, results)
    write_outputs(summary, results, out)
    for line in summary["findings"]:
        print(f"- {line}")
    print(f"computation {seconds:.2f} s")
    return Computed(summary, seconds, timing)
