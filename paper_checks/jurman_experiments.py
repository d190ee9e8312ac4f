"""Claims of the two Jurman et al. papers that an experiment backs.

Jurman & Furlanello (2010) and Jurman, Riccadonna & Furlanello (2012) support their claims with
four computations, each rerun at the papers' scale by one experiment:

- the 200,000 random matrices of Eq. (3): :mod:`experiments.random_matrices`
  (``python -m experiments random-matrices``);
- the degrees of discriminancy on small three-class problems: :mod:`experiments.discriminancy`;
- every binary confusion matrix on at most 100 samples: :mod:`experiments.binary_exhaustive`
  (``python -m experiments binary``);
- the closed forms of the Z_A, dice-rolling, B(T, F) and binary families, and the journal's
  Figure 1: :mod:`experiments.families`.

Each check reads the experiment's ``summary.json`` (or a small table beside it) from
:data:`paper_checks.summaries.figures_dir`, so ``python -m paper_checks --figures DIR`` checks
the outputs of any run. Where a summary lacks a
number a claim needs, the check computes it here from the experiment's own functions and says
so in its detail.

Tolerances. Printed decimals get half a unit of their last digit. A statistic of the random
matrices is also a Monte Carlo estimate: two independent runs of the same generator differ by
about ``√2`` times its standard error, so a published and a measured value agree when within
three such standard deviations; the larger of the two tolerances is used, and each record says
which.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import warnings
from statistics import NormalDist

import numpy as np

from cenmcc import K_PAPER
from cenmcc.simulation.papers import PaperGenerator
from cenmcc.simulation.result import describe
from experiments.protocol import N_PRINTED, THRESHOLD
from experiments.random_matrices import PRINTED, Config

from . import summaries
from .record import (
    DIFFERS,
    NOT_CHECKABLE,
    REPRODUCED,
    Measured,
    NotCheckable,
    Published,
    Record,
    bound,
    exact,
    identity,
    printed,
    scientific,
    unavailable,
)
from .search import mcc_defined
from .sources import JURMAN2010, JURMAN2012, both_papers
from .summaries import load_summary, load_table

# The output folder of each experiment (experiments.registry).
RANDOM = "random_matrices"
#: The random-matrix study rerun over 60 independent seeds (seeds 1 to 60; README, "Honest
#: standard errors"): committed, written by ``python -m cenmcc.simulation validate``, not by
#: ``python -m experiments all``.
VALIDATION = "papers-uniform-validation"
#: Statistics of the random-matrix summary, by their names in the validation.
VALIDATED = {
    "pearson_tmcc_kcen": "studies.k_ratio.pearson",
    "mean_ratio_tmcc_kcen": "studies.k_ratio.mean_ratio",
}
DISCRIMINANCY = "discriminancy"
BINARY = "binary"
FAMILIES = "families"

# --------------------------------------------------------------------------------------------
# Monte Carlo tolerances of the random-matrix statistics
# --------------------------------------------------------------------------------------------

#: Published values and their intervals (both papers print the same ones).
PEARSON_PRINTED = PRINTED["pearson_tmcc_kcen"]
MEAN_RATIO_PRINTED = PRINTED["mean_ratio_tmcc_kcen"]
CI_PRINTED = tuple(PRINTED["ci95_student"])
#: Decimals to which CEN and MCC are rounded for the rounded tie rules of the (2, 4, 3) case:
#: from far below float precision down to the four decimals a table might print.
TIE_DECIMALS = (10, 8, 6, 4)
#: The largest distance, in standard errors of the difference of two runs, within which a
#: printed Monte Carlo statistic counts as reproduced (the protocol study's rule).
MC_SIGMAS = THRESHOLD
#: Two independent runs of one generator differ by sqrt(2) standard errors; accept three.
MC_SPREAD = MC_SIGMAS * math.sqrt(2)
#: Standard errors of the refitted (a, b, c) of k(N) at paper scale (``k_fit.*_se`` of the
#: random-matrix summary, rounded up to two digits): the Monte Carlo error of fitted constants.
K_FIT_SE = (0.00043, 0.0024, 0.0030)


#: The journal's "about 6", read as a value that rounds to 6.
ABOUT_6 = Published(text="about 6", value=6.0, tolerance=0.5, why="'about 6': rounds to 6")


def monte_carlo(text: str, value, se: float | tuple[float, ...], what: str) -> Published:
    """A published statistic with the tolerance of two independent Monte Carlo runs."""
    return Published(
        text=text,
        value=value,
        tolerance=MC_SPREAD * se if np.ndim(se) == 0 else tuple(MC_SPREAD * s for s in se),
        why=f"Monte Carlo error: 3·√2 standard errors, {what}",
    )


def within_run_to_run_spread(printed_text: str) -> Published:
    """The claim that a measured statistic is within :data:`MC_SIGMAS` of the printed one."""
    return Published(
        text=f"{printed_text} within {MC_SIGMAS:g} standard errors of two runs",
        value=MC_SIGMAS,
        tolerance=0.0,
        why="measured: |ours - printed| / (√2 SE), SE from the run-to-run spread of independent "
        "seeds (summary.json standard_errors); √2: the printed value is another run's",
    )


def monte_carlo_distance(key: str, printed_value: float):
    """|measured - printed| of statistic ``key`` in standard errors of the difference of two runs.

    The standard error of one run comes from the summary's ``standard_errors`` (the run-to-run
    spread of independent replicates); the printed value is a Monte Carlo result of another run
    of the same size, so the difference has standard error ``sqrt(2) SE``.
    """
    s = _random()
    errors = s.get("standard_errors")
    if not isinstance(errors, dict) or key not in errors:
        return NotCheckable(
            f"{s.path} has no standard_errors[{key!r}] (the run-to-run spread of the statistic); "
            "rerun `python -m experiments random-matrices` with a version that writes it"
        )
    se = errors[key]
    if not (isinstance(se, int | float) and se > 0 and math.isfinite(se)):
        return NotCheckable(f"{s.path}: standard_errors[{key!r}] = {se!r} is not a positive number")
    z = (s[key] - printed_value) / (math.sqrt(2) * se)
    fitted = f"{key}_fitted"
    extra = ""
    if fitted in errors and fitted in s:
        z_fit = (s[fitted] - printed_value) / (math.sqrt(2) * errors[fitted])
        extra = f"; with k refitted {z_fit:+.1f}"
    facts = {
        "measured": s[key],
        "z": abs(z),
        "direction": "above" if z > 0 else "below",
        "se": scientific(se),
        "normal_se": scientific((1 - s[key] ** 2) / math.sqrt(s["n_matrices"])),
    }
    seeds = _over_seeds(s, VALIDATED[key])
    over_seeds = ""
    if seeds is not None:
        spread = math.sqrt(2) * seeds["seed_sd"]
        z_seeds, z_mean = ((x - printed_value) / spread for x in (s[key], seeds["mean"]))
        facts |= {
            "seeds": seeds["seeds"],
            "seed_sd": scientific(seeds["seed_sd"], 3),
            "seed_mean": seeds["mean"],
            "seed_claimed_se": scientific(seeds["claimed_se"], 3),
            "z_seeds": abs(z_seeds),
            "z_seed_mean": abs(z_mean),
        }
        over_seeds = (
            f"; over the {seeds['seeds']} seeds of {VALIDATION} (not this run's), its SD from "
            f"seed to seed is {seeds['seed_sd']:.2e} (this run's SE is "
            f"{se / seeds['seed_sd']:.2f} times it) and its mean {seeds['mean']:.6f}: with "
            f"that SD this run is {z_seeds:+.1f} standard errors of the difference of two runs "
            f"from the printed value, and the seeds' mean {z_mean:+.1f}"
        )
    return Measured(
        abs(z),
        f"{key} = {s[key]:.6f} against the printed {printed_value}: {z:+.1f} standard errors "
        f"of the difference of two runs (one run's SE {se:.1e}; "
        f"{s.get('standard_errors_method', 'method not stated')}){extra}{over_seeds}",
        facts,
    )


def _over_seeds(s, statistic: str) -> dict | None:
    """A statistic over the seeds of the committed validation of the same simulation
    (:data:`VALIDATION`: its mean, SD from seed to seed, mean claimed SE and number of
    seeds); None where there is none."""
    path = summaries.figures_dir / VALIDATION / "validation.json"
    try:
        validation = json.loads(path.read_text())
        stat = validation["statistics"][statistic]
        config = s["config"]
        generator = {f.name: config[f.name] for f in dataclasses.fields(PaperGenerator)}
        run = Config(
            n_matrices=s["n_matrices"],
            generator=PaperGenerator(
                **{name: tuple(v) if isinstance(v, list) else v for name, v in generator.items()}
            ),
            chunk_size=config["chunk_size"],
        )
        validated = validation["simulation"] | {"seed": None}  # its seeds are other seeds
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if describe(run.simulation()) | {"seed": None} != validated:
        return None
    return stat


def _random() -> dict:
    return load_summary(RANDOM)


def _per_k():
    return load_table(RANDOM, "k_per_dimension.csv")


def random_setup():
    s, per_k = _random(), _per_k()
    c = s["config"]
    return Measured(
        (
            int(per_k["n_matrices"].sum()),
            int(per_k["K"].min()),
            int(per_k["K"].max()),
            *c["diagonal_range"],
            c["off_diagonal_min"],
            c["off_diagonal_scale"],
            *c["rho_range"],
        ),
        f"matrices counted per dimension in k_per_dimension.csv ({len(per_k)} values of N, "
        f"{per_k['n_matrices'].min():,} to {per_k['n_matrices'].max():,} matrices each), then "
        "the generator's settings from summary.json: diagonal range, off-diagonal minimum and "
        f"scale, range of ρ (seed {s['seed']}, {s['n_chunks']} independent streams)",
    )


def random_pearson():
    s = _random()
    return Measured(
        s["pearson_tmcc_kcen"],
        f"Pearson r(tMCC, k·CEN) over the {s['n_matrices']:,} matrices with the printed k; "
        f"with k refitted to them it is {s['pearson_tmcc_kcen_fitted']:.6f}",
        _pearson_facts(s),
    )


def _pearson_facts(s) -> dict:
    r = s["pearson_tmcc_kcen"]
    facts = {
        "r": r,
        "r_fitted": s["pearson_tmcc_kcen_fitted"],
        "above": scientific(r - PEARSON_PRINTED),
    }
    seeds = _over_seeds(s, VALIDATED["pearson_tmcc_kcen"])
    if seeds is not None:
        facts |= {
            "seeds": seeds["seeds"],
            "seed_sd": scientific(seeds["seed_sd"], 3),
            "above_in_seed_sds": (r - PEARSON_PRINTED) / seeds["seed_sd"],
        }
    return facts


def random_pearson_monte_carlo():
    return monte_carlo_distance("pearson_tmcc_kcen", PEARSON_PRINTED)


def random_mean_ratio_monte_carlo():
    return monte_carlo_distance("mean_ratio_tmcc_kcen", MEAN_RATIO_PRINTED)


def random_consistency():
    s = _random()
    pairs = s["pairs_tmcc_kcen"]
    return Measured(
        s["consistency_tmcc_kcen"],
        f"degree of consistency over all {pairs['n_pairs']:,} pairs: {pairs['discordant']:,} "
        f"discordant ({pairs['discordant'] / pairs['n_pairs']:.2%}); with k refitted "
        f"{s['consistency_tmcc_kcen_fitted']:.6f}; CEN against MCC itself "
        f"{s['consistency_cen_mcc']:.6f}",
        {
            "consistency": s["consistency_tmcc_kcen"],
            "consistency_fitted": s["consistency_tmcc_kcen_fitted"],
            "discordant": pairs["discordant"],
            "n_pairs": scientific(pairs["n_pairs"]),
            "discordant_share": pairs["discordant"] / pairs["n_pairs"],
        },
    )


def random_no_ties():
    s = _random()
    pairs = s["pairs_tmcc_kcen"]
    return Measured(
        s["ties_tmcc_kcen"],
        f"pairs tied in tMCC or in k·CEN (float64 ==): |P| = {pairs['f_only']}, "
        f"|Q| = {pairs['g_only']}, both {pairs['both_tied']}, so the degree of discriminancy "
        f"|P|/|Q| is 0/0; with k refitted {s['ties_tmcc_kcen_fitted']} ties, CEN against MCC "
        f"{s['ties_cen_mcc']}",
    )


def random_mean_ratio():
    s, per_k = _random(), _per_k()
    ratio = per_k.set_index("K")["mean_ratio_paper"]
    last = per_k.iloc[-1]
    return Measured(
        s["mean_ratio_tmcc_kcen"],
        f"mean of tMCC/(k·CEN) over the {s['n_matrices']:,} matrices with the printed k; with "
        f"k refitted {s['mean_ratio_tmcc_kcen_fitted']:.6f}. Per dimension (k_per_dimension.csv) "
        f"the mean ratio goes from {ratio.min():.4f} (N = {ratio.idxmin()}) to "
        f"{ratio.max():.4f} (N = {ratio.idxmax()}); at N = {int(last['K'])} the empirical k "
        f"(mean tMCC/CEN) is {last['mean']:.4f} ± {last['sem']:.1e}, the printed k "
        f"{last['k_paper']:.4f}",
        _mean_ratio_facts(s, per_k),
    )


def _mean_ratio_facts(s, per_k) -> dict:
    """The mean ratio with the printed and the refitted k, how far from the printed mean and
    from 1 (in SDs from seed to seed), and the two k at the largest N."""
    mean, fitted = s["mean_ratio_tmcc_kcen"], s["mean_ratio_tmcc_kcen_fitted"]
    last = per_k.iloc[-1]
    ratio = per_k["mean_ratio_paper"]
    facts = {
        "mean": mean,
        "mean_fitted": fitted,
        "below": MEAN_RATIO_PRINTED - mean,
        "last_n": int(last["K"]),
        "last_k_printed": last["k_paper"],
        "last_k_empirical": last["mean"],
        "above_1_for": ", ".join(str(int(k)) for k in per_k.loc[ratio > 1, "K"]) or "no N",
    }
    seeds = _over_seeds(s, "studies.k_ratio.mean_ratio_fitted")
    if seeds is not None:
        facts |= {
            "fitted_seed_sd": scientific(seeds["seed_sd"], 1),
            "fitted_from_1_in_seed_sds": abs(fitted - 1) / seeds["seed_sd"],
        }
    return facts


def random_ci():
    s = _random()
    lo, hi = s["ci95_student"]
    z = NormalDist().inv_cdf(0.975)
    sd, sd_printed = ((b - a) / (2 * z) * math.sqrt(N_PRINTED) for a, b in ((lo, hi), CI_PRINTED))
    bca = ", ".join(f"{v:.6f}" for v in s["ci95_bca"])
    fitted = ", ".join(f"{v:.6f}" for v in s["ci95_student_fitted"])
    return Measured(
        (lo, hi),
        f"bootstrap-t interval ({s['bootstrap']['n_resamples']} resamples) with the printed k; "
        f"BCa ({bca}); with k refitted ({fitted}). Half-width {(hi - lo) / 2:.2e} against the "
        f"printed {(CI_PRINTED[1] - CI_PRINTED[0]) / 2:.2e}: the standard deviation of the "
        f"ratio is {sd:.4f} here and {sd_printed:.4f} in the papers' run",
        {
            "lo": lo,
            "hi": hi,
            "lo_fitted": s["ci95_student_fitted"][0],
            "hi_fitted": s["ci95_student_fitted"][1],
            "half_width": scientific((hi - lo) / 2),
            "half_width_printed": scientific((CI_PRINTED[1] - CI_PRINTED[0]) / 2),
            "sd": sd,
            "sd_printed": sd_printed,
            "sd_ratio": s["sd_ratio_tmcc_kcen"],
        },
    )


def eq3_underestimate():
    s, per_k = _random(), _per_k()
    ratio = per_k["mean_ratio_paper"]
    above = per_k.loc[ratio > 1, "K"].astype(int).tolist()
    return Measured(
        s["mean_ratio_tmcc_kcen"],
        f"mean of tMCC/(k·CEN) over the {s['n_matrices']:,} matrices, printed k; per dimension "
        f"from {ratio.min():.4f} to {ratio.max():.4f}, above 1 for N in {above}",
        _mean_ratio_facts(s, per_k),
    )


def k_constants():
    s, per_k = _random(), _per_k()
    fit = s["k_fit"]
    z = ((per_k["mean"] - per_k["k_paper"]) / per_k["sem"]).abs()
    return Measured(
        (fit["a"], fit["b"], fit["c"]),
        f"a, b, c of k(N) = a (1 + b/ln N + c/ln² N) refitted by weighted least squares to the "
        f"per-dimension means of tMCC/CEN (standard errors {fit['a_se']:.1e}, "
        f"{fit['b_se']:.1e}, {fit['c_se']:.1e}; reduced χ² {fit['chi2_reduced']:.2f} over "
        f"{fit['n_dimensions']} values of N). The printed k(N) is {z.min():.0f} to "
        f"{z.max():.0f} standard errors from the per-dimension means",
        {
            **{name: fit[name] for name in ("a", "b", "c", "a_se", "b_se", "c_se")},
            "chi2_reduced": fit["chi2_reduced"],
            # from the printed constants, in standard errors of the difference of two fits
            **{
                f"{name}_from_printed": abs(fit[name] - printed)
                / (math.sqrt(2) * fit[f"{name}_se"])
                for name, printed in zip("abc", K_PAPER, strict=True)
            },
        },
    )


def cen_mcc_correlation():
    s = _random()
    pairs = s["pairs_cen_mcc"]
    return Measured(
        abs(s["pearson_cen_mcc"]),
        f"|r(CEN, MCC)| over the {s['n_matrices']:,} random matrices (r = "
        f"{s['pearson_cen_mcc']:.4f}); degree of consistency of CEN and -MCC "
        f"{s['consistency_cen_mcc']:.4f}: {pairs['discordant'] / pairs['n_pairs']:.1%} of the "
        "pairs are ordered oppositely, so the relation is monotone as a trend, not pair by pair",
    )


# --------------------------------------------------------------------------------------------
# Degrees of discriminancy on small three-class problems
# --------------------------------------------------------------------------------------------


def _discriminancy() -> dict:
    return load_summary(DISCRIMINANCY)


@functools.cache
def _discriminancy_without_undefined(sizes: tuple[int, ...]) -> tuple[int, int]:
    """|P| and |Q| of CEN over MCC (exact ties) without the matrices whose MCC is 0/0."""
    import cenmcc

    M = cenmcc.matrices_with_row_sums(sizes)
    M = M[mcc_defined(M)]
    counts = cenmcc.pair_counts(cenmcc.tie_ranks(M, "cen"), cenmcc.tie_ranks(M, "mcc"))
    return counts.f_only, counts.g_only


def discriminancy_243():
    s = _discriminancy()
    case = s["paper_case"]
    orders = sorted(
        {round(o["discriminancy_cen_mcc_float_eq"], 2) for o in s["paper_case_by_order"]}
    )
    p, q = _discriminancy_without_undefined(tuple(case["sizes"]))
    return Measured(
        case["discriminancy_cen_mcc"],
        f"|P|/|Q| = {case['P_cen_mcc']}/{case['Q_cen_mcc']} over all {case['n_matrices']} "
        f"matrices with class sizes {tuple(case['sizes'])}, exact ties (cenmcc.tie_ranks). "
        f"Plain float ==: {case['P_cen_mcc_float_eq']}/{case['Q_cen_mcc_float_eq']} = "
        f"{case['discriminancy_cen_mcc_float_eq']:.4f} (over the orders of the class sizes: "
        f"{', '.join(map(str, orders))}); relative tolerance 1e-9: "
        f"{case['discriminancy_cen_mcc_rtol']:.4f}; exact ties without the "
        f"{case['n_mcc_undefined']} matrices whose MCC is 0/0: {p}/{q} = {p / q:.4f} "
        "(computed here)",
    )


def discriminancy_243_tie_rules():
    import cenmcc

    s = _discriminancy()
    case = s["paper_case"]
    M = cenmcc.matrices_with_row_sums(tuple(case["sizes"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)  # the 3 0/0 MCCs: 0
        cen, mcc = cenmcc.cen(M), cenmcc.mcc(M)
    rules = {
        "exact": case["discriminancy_cen_mcc"],
        "float ==": case["discriminancy_cen_mcc_float_eq"],
        "relative 1e-9": case["discriminancy_cen_mcc_rtol"],
    }
    for decimals in TIE_DECIMALS:
        rounded = cenmcc.degree_of_discriminancy(-np.round(cen, decimals), np.round(mcc, decimals))
        rules[f"rounded to 1e-{decimals}"] = rounded
    shown = ", ".join(f"{k} {v:.2f}" for k, v in rules.items())
    return Measured(
        (min(rules.values()), max(rules.values())),
        f"degree of discriminancy of CEN over MCC on the {len(M)} matrices by tie rule: {shown}",
    )


def cen_against_accuracy():
    s = _discriminancy()
    cases = [s["paper_case"], *s["cases"]]
    consistency = min(c["consistency_cen_acc"] for c in cases)
    discriminancy = min(c["discriminancy_cen_acc"] for c in cases)
    lo, hi = s["n_range"]
    return Measured(
        (consistency, discriminancy),
        f"smallest degree of consistency and of discriminancy of CEN over ACC (exact ties) "
        f"over the (2, 4, 3) case and every split of n = {lo}..{hi} samples into three classes "
        f"({len(s['cases'])} cases)",
    )


#: The summary key of Pearson's r(tMCC, k·CEN) per number of classes N (printed k).
PEARSON_BY_K = "pearson_tmcc_kcen_by_k"


def linear_regardless_of_dimension():
    s = _random()
    by_k = s.get(PEARSON_BY_K)
    if not isinstance(by_k, dict) or not by_k:
        return NotCheckable(
            f"{s.path} has no {PEARSON_BY_K} (r of tMCC and k·CEN for each N); the random-matrix "
            "experiment does not write it yet"
        )
    r = {int(k): float(v) for k, v in by_k.items()}
    worst = min(r, key=r.get)
    return Measured(
        (min(r.values()), max(r.values())),
        f"r(tMCC, k·CEN) for each N = {min(r)}..{max(r)} with the printed k: lowest "
        f"{r[worst]:.4f} at N = {worst}",
    )


def discriminancy_small_samples():
    s = _discriminancy()
    sweep = s["sweep"]
    exact_, floats = sweep["discriminancy_cen_mcc"], sweep["discriminancy_cen_mcc_float_eq"]
    lo, hi = s["n_range"]
    return Measured(
        exact_["min"],
        f"smallest degree of discriminancy of CEN over MCC (exact ties) over every split of "
        f"n = {lo}..{hi} samples into three non-empty classes ({s['n_cases']} cases, "
        f"{sweep['n_matrices_total']:,} matrices); above 1 in {sweep['cases_cen_over_mcc_above_1']}"
        f" of {s['n_cases']}; median {exact_['median']:.1f}, largest {exact_['max']:.0f}; with "
        f"float == from {floats['min']:.2f} to {floats['max']:.0f}",
    )


def wei_table6():
    s = _discriminancy()
    lo, hi = s["n_range"]
    return NotCheckable(
        "Wei et al. (2010), Table 6, which lists the 12 cases, is not available; "
        f"plos2012-discriminancy-small-samples covers all {s['n_cases']} splits of {lo}..{hi} "
        "samples into three non-empty classes, which contain them"
    )


# --------------------------------------------------------------------------------------------
# Every binary confusion matrix
# --------------------------------------------------------------------------------------------


def _binary() -> dict:
    return load_summary(BINARY)


@functools.cache
def _binary_printed_range() -> dict:
    """Pearson's r of CEN and MCC over the printed range 2 <= s <= 100, computed here.

    The binary summary reports r over 1 <= s <= 100 (the range whose count is the printed
    4,598,125); the printed range needs the four matrices with s = 1 left out, which the moments
    in the summary cannot do, so the matrices are enumerated again with the experiment's own
    :func:`experiments.binary_exhaustive.enumerate_metrics`.
    """
    from experiments.binary_exhaustive import PRINTED_RANGE, enumerate_metrics, pearson

    e = enumerate_metrics(*PRINTED_RANGE)
    defined = ~e["mcc_undefined"]
    return {
        "range": PRINTED_RANGE,
        "n": int(e["cen"].size),
        "n_undefined": int(np.count_nonzero(e["mcc_undefined"])),
        "r": pearson(e["cen"], e["mcc"]),
        "r_defined": pearson(e["cen"][defined], e["mcc"][defined]),
    }


def binary_pearson():
    s, printed_range = _binary(), _binary_printed_range()
    lo, hi = printed_range["range"]
    return Measured(
        abs(printed_range["r"]),
        f"|r(CEN, MCC)| over the {printed_range['n']:,} matrices with {lo} <= s <= {hi} "
        f"(computed here with the binary experiment's enumeration), MCC 0/0 set to 0 for "
        f"{printed_range['n_undefined']:,} of them; without those "
        f"{abs(printed_range['r_defined']):.4f}. Over {s['s_min']} <= s <= {s['s_max']} (the "
        f"binary summary, {s['n_matrices']:,} matrices): {s['abs_pearson_cen_mcc']:.4f}, "
        f"without the {s['n_mcc_undefined']:,} 0/0 MCCs "
        f"{abs(s['pearson_cen_mcc_defined_only']):.4f}",
    )


def binary_poorer_than_multiclass():
    s, multiclass = _binary(), _random()
    panels = {f"s = {k}": abs(v) for k, v in s["pearson_by_s"].items()}
    panels["all"] = abs(_binary_printed_range()["r"])
    defined = {f"s = {k}": abs(v) for k, v in s["pearson_by_s_defined_only"].items()}
    worst = max(panels, key=panels.get)
    r_multi = abs(multiclass["pearson_cen_mcc"])
    return Measured(
        panels[worst] - r_multi,
        f"largest |r(CEN, MCC)| of Figure 4's panels ({worst}: {panels[worst]:.4f}) minus "
        f"|r(CEN, MCC)| of the 200,000 multi-class random matrices ({r_multi:.4f}). Panels: "
        + ", ".join(f"{k} {v:.4f}" for k, v in panels.items())
        + "; without the 0/0 MCCs: "
        + ", ".join(f"{k} {v:.4f}" for k, v in defined.items()),
    )


def binary_cen_above_one_count():
    s = _binary()
    return Measured(
        s["n_cen_above_1"],
        f"binary matrices with {s['s_min']} <= s <= {s['s_max']} whose CEN exceeds 1, decided "
        f"exactly: {s['n_cen_above_1']:,} of {s['n_matrices']:,} ({s['share_cen_above_1']:.2%}); "
        f"{s['n_cen_equal_1']} have CEN = 1 exactly",
    )


def binary_cen_bound_at_t0():
    import cenmcc

    F = np.arange(1, 101)
    zero = np.zeros_like(F)
    at_t0 = cenmcc.cen(np.stack([np.stack([zero, F], -1), np.stack([F, zero], -1)], -2))
    s = _binary()
    return Measured(
        np.abs(at_t0 - 1).max(),
        "max |CEN([[0, F], [F, 0]]) - 1| for F = 1..100: the bound 1 is attained at T = 0; the "
        f"largest CEN, {s['cen_max']:.5f} (every binary matrix with s <= {s['s_max']}), is not "
        "attained there",
    )


# --------------------------------------------------------------------------------------------
# Closed forms of the families and the journal's Figure 1
# --------------------------------------------------------------------------------------------


def _families() -> dict:
    return load_summary(FAMILIES)


def _formula(formula_id: str) -> dict:
    for formula in _families()["formulas"]:
        if formula["id"] == formula_id:
            return formula
    raise KeyError(f"the families summary has no formula {formula_id!r}")


def _point(point: dict) -> str:
    shown = ", ".join(
        f"{k} = {v}" for k, v in point.items() if k not in ("printed", "measured", "abs_error")
    )
    return f"{shown}: printed {point['printed']:.6g}, computed {point['measured']:.6g}"


def _formula_detail(formula: dict, what: str) -> str:
    parts = [f"{what}, over {formula['n_points']:,} points of the families experiment's grid"]
    if formula["n_printed_infinite"]:
        parts.append(f"the printed form is infinite (a pole) at {formula['n_printed_infinite']}")
    parts.append(
        f"the experiment's per-point test fails at {formula['n_failing']:,} of them"
        if formula["n_failing"]
        else "the experiment's per-point test passes at every one"
    )
    if formula["counterexample"]:
        parts.append("smallest counterexample " + _point(formula["counterexample"]))
    parts += [x for x in (formula["exact_check"], formula["symbolic"], formula["note"]) if x]
    return "; ".join(parts)


def formula_gap(formula_id: str) -> Measured:
    """Largest |printed - computed| of a closed form over the families grid."""
    formula = _formula(formula_id)
    return Measured(
        formula["max_abs_error"], _formula_detail(formula, "largest |printed - computed|")
    )


def formula_wrong_way(formula_id: str) -> Measured:
    """Largest step against a stated monotonicity between consecutive grid points."""
    formula = _formula(formula_id)
    return Measured(
        formula["max_abs_error"],
        _formula_detail(formula, "largest step in the wrong direction between neighbours"),
    )


def formula_convergence(formula_id: str) -> Measured:
    """Largest gap to a stated limit, in units of the rate at which the exact forms converge."""
    formula = _formula(formula_id)
    return Measured(
        formula["max_error_over_tolerance"],
        _formula_detail(
            formula, f"largest gap to the limit ({formula['max_abs_error']:.3g}) over the rate"
        ),
    )


def converges(text: str, rate: str) -> Published:
    """A stated limit: the gap at the largest parameters must be within the exact forms' rate."""
    return Published(
        text=text,
        value=1.0,
        tolerance=0.0,
        why=f"the gap must shrink at the rate of the exact forms, {rate}",
    )


def _example(box: str) -> dict:
    for example in _families()["examples"]:
        if example["box"] == box:
            return example
    raise KeyError(f"the families summary has no example for Box {box}")


def box1c_mcc():
    example, search = _example("1(c)"), _families()["box1c_search"]
    return Measured(
        example["MCC"],
        f"MCC of the rebuilt Box 1(c), {example['matrix']} (0/0, set to 0); its CEN is "
        f"{example['CEN']:.5f}. Of the {search['n_matrices']:,} single-column 4 x 4 matrices "
        f"with entries <= {search['max_entry']}, {search['n_rounding_to_0.337']} give CEN "
        f"rounding to 0.337, every constant column among them",
    )


def _not_rebuildable(box: str) -> NotCheckable:
    example = _example(box)
    return NotCheckable(
        f"Figure 1 is not in the text and Box {box} cannot be rebuilt from it: {example['note']}"
    )


def box1d():
    return _not_rebuildable("1(d)")


def box4():
    return _not_rebuildable("4")


def box3_examples():
    rows = [_example(f"3 (A = {A})") for A in (10, 100, 1000)]
    shown = "; ".join(
        f"A = {r['box'].split('= ')[1].rstrip(')')}: ACC {r['ACC']:.4f}, MCC {r['MCC']:.4f}, "
        f"CEN {r['CEN']:.4f}"
        for r in rows
    )
    return NotCheckable(
        "Figure 1 is not in the text, and neither is the N of Box 3; rebuilt with N = 4 (as Box 1) "
        f"by the families experiment: {shown}"
    )


# --------------------------------------------------------------------------------------------
# The records
# --------------------------------------------------------------------------------------------

RANDOM_SOURCE = both_papers("Sec. 2", "'Relationships between CEN and MCC'")
ZA = both_papers("Sec. 2", "'Comparison on the Z_A family'")
ZA_2010 = f"{JURMAN2010}, Sec. 2"
ZA_2012 = f"{JURMAN2012}, 'Comparison on the Z_A family'"
DICE = both_papers("Sec. 2", "'The dice rolling case'")
DICE_2012 = f"{JURMAN2012}, 'The dice rolling case'"
B = both_papers("Sec. 2", "'Relationships between CEN and MCC'")
BINARY_SOURCE = both_papers("Sec. 2.1", "'The binary case'")
BINARY_2012 = f"{JURMAN2012}, 'The binary case'"
FIG1 = f"{JURMAN2012}, 'Relationships between CEN and MCC'; Fig. 1"


RECORDS = (
    # ---- The 200,000 random matrices (Eq. (3)) ----
    Record(
        id="plos2012-random-setup",
        source=RANDOM_SOURCE,
        claim="200,000 random confusion matrices of dimension N = 3..30: each diagonal entry a "
        "random integer in [1, 1000], each off-diagonal entry of matrix i a random integer in "
        "[1, ⌊1000 ρ_i⌋], ρ_i uniform in [0.01, 1].",
        published=Published(
            text="200,000; N = 3..30; C_jj in 1..1000; C_ij in 1..⌊1000 ρ⌋; ρ in [0.01, 1]",
            value=(200_000, 3, 30, 1, 1000, 1, 1000, 0.01, 1.0),
            tolerance=0.0,
            why="the setup as printed, exactly",
        ),
        compute=random_setup,
        kind="definition",
        verdict=REPRODUCED,
        measured=(200000.0, 3.0, 30.0, 1.0, 1000.0, 1.0, 1000.0, 0.01, 1.0),
        headline=True,
        note="Read as: N uniform on 3..30 per matrix and every entry independent (the papers "
        "give no more detail). Measured: (matrices, smallest N, largest N, diagonal range, "
        "off-diagonal minimum, off-diagonal scale, range of ρ) of the run behind every "
        "random-matrix record below. A definition: the experiment is configured from these "
        "printed settings, so this confirms the run used them and tests nothing of the paper.",
    ),
    Record(
        id="arxiv2010-random-pearson",
        source=f"{JURMAN2010}, Sec. 2",
        claim="The correlation between tMCC and k·CEN over the 200,000 random matrices is "
        "0.9941477.",
        published=printed("0.9941477"),
        compute=random_pearson,
        verdict=DIFFERS,
        measured=0.9953071549123491,
        headline=True,
        reason="Measured {r:.6f} ({r_fitted:.6f} with k refitted), {above} above 0.9941477, "
        "{above_in_seed_sds:.1f} times the SD of r from seed to seed ({seed_sd} over {seeds} "
        "seeds; arxiv2010-random-pearson-monte-carlo gives the distance in standard errors): "
        "matrices generated as described are not the authors' (plos2012-k-constant, "
        "plos2012-random-ci).",
        note="Tolerance: the printed precision; the Monte Carlo error is judged separately, from "
        "the run-to-run spread (arxiv2010-random-pearson-monte-carlo). Convention: k as printed "
        "(Eq. (3)); the detail gives r with k refitted, which does not reach it either.",
    ),
    Record(
        id="arxiv2010-random-pearson-monte-carlo",
        source=f"{JURMAN2010}, Sec. 2",
        claim="The printed r = 0.9941477 is what another run of the described simulation gives, "
        "up to its Monte Carlo error.",
        published=within_run_to_run_spread("0.9941477"),
        compute=random_pearson_monte_carlo,
        verdict=DIFFERS,
        measured=11.773313328258396,
        relation="<=",
        reason="{measured:.6f} is {z:.1f} standard errors of the difference of two runs "
        "{direction} 0.9941477 with this run's SE ({se}), and {z_seeds:.1f} with the SD of r "
        "from seed to seed ({seed_sd} over {seeds} other seeds); the mean r over those seeds, "
        "{seed_mean:.6f}, is {z_seed_mean:.1f} away: matrices generated as described are not "
        "the authors'.",
        note="The SE of r is jackknifed over groups of the run's independent chunks. For a "
        "correlation of heavy-tailed values it varies from run to run: {se} in this run, "
        "{seed_claimed_se} on average over the {seeds} seeds of `python -m cenmcc.simulation "
        "validate` (figures/papers-uniform-validation), whose SD of r from seed to seed is "
        "{seed_sd}. The measured distance uses this run's SE, as every Monte Carlo claim does; "
        "the detail gives it with the SD from seed to seed too, the steadier yardstick here "
        "({z_seeds:.1f} against {z:.1f}). Both are far above the normal-theory SE "
        "(1 - r²)/√n = {normal_se} used before.",
    ),
    Record(
        id="plos2012-random-pearson",
        source=f"{JURMAN2012}, 'Relationships between CEN and MCC'",
        claim="For such data the Pearson correlation between tMCC and k·CEN is about 0.994.",
        published=printed("0.994", label="about 0.994"),
        compute=random_pearson,
        verdict=DIFFERS,
        measured=0.9953071549123491,
        reason="r = {r:.5f} rounds to {r:.3f} ({r_fitted:.5f} with k refitted), not 0.994 "
        "(arxiv2010-random-pearson).",
        note="Tolerance: the printed precision, larger than the Monte Carlo error (see "
        "arxiv2010-random-pearson). Convention: k as printed; the detail gives r with k refitted.",
    ),
    Record(
        id="plos2012-random-consistency",
        source=RANDOM_SOURCE,
        claim="The degree of consistency of tMCC and k·CEN over the random matrices is 1 - 10⁻⁷.",
        published=Published(
            text="1 - 10⁻⁷",
            value=1 - 1e-7,
            tolerance=0.5e-7,
            why="the printed precision: 1 - c = 10⁻⁷ to one significant digit",
        ),
        compute=random_consistency,
        verdict=DIFFERS,
        measured=0.9665880962904815,
        headline=True,
        reason="{discordant:,} of the {n_pairs} pairs ({discordant_share:.1%}) are ordered "
        "oppositely by tMCC and k·CEN: c = {consistency:.4f} ({consistency_fitted:.4f} with k "
        "refitted), not 1 - 10⁻⁷.",
        note="Consistency = |R|/(|R| + |S|) over all pairs (Huang & Ling 2005), tMCC and k·CEN "
        "both lower-better. Convention: k as printed; the detail gives the refitted k.",
    ),
    Record(
        id="plos2012-random-no-ties",
        source=RANDOM_SOURCE,
        claim="The degree of discriminancy of tMCC and k·CEN is undefined since no ties occurred.",
        published=exact(0, "no tied pairs"),
        compute=random_no_ties,
        verdict=REPRODUCED,
        measured=0.0,
        headline=True,
        note="Ties decided by float64 equality, the rule of the random-matrix summary "
        "(mathematically equal values with different roundings are not searched for).",
    ),
    Record(
        id="plos2012-random-mean-ratio",
        source=RANDOM_SOURCE,
        claim="The average ratio between tMCC and k·CEN is 1.000508.",
        published=printed("1.000508"),
        compute=random_mean_ratio,
        verdict=DIFFERS,
        measured=0.9886927977426502,
        headline=True,
        reason="With the printed k the mean ratio is {mean:.5f}, {below:.4f} below 1.000508, "
        "far beyond the printed interval's half-width (1.9·10⁻⁴): the printed k is too large "
        "for these matrices (N = {last_n}: {last_k_printed:.4f} against the empirical "
        "{last_k_empirical:.4f}); refitted, {mean_fitted:.5f}.",
        note="Tolerance: the printed precision; the Monte Carlo error is judged separately "
        "(plos2012-random-mean-ratio-monte-carlo). Convention: k as printed; with k refitted "
        "to the same matrices the mean ratio is 1 within its error (detail), so Eq. (3)'s form "
        "fits but not its printed constants (plos2012-k-constant).",
    ),
    Record(
        id="plos2012-random-mean-ratio-monte-carlo",
        source=RANDOM_SOURCE,
        claim="The printed mean ratio 1.000508 is what another run of the described simulation "
        "gives, up to its Monte Carlo error.",
        published=within_run_to_run_spread("1.000508"),
        compute=random_mean_ratio_monte_carlo,
        verdict=DIFFERS,
        measured=147.5655941628477,
        relation="<=",
        reason="{measured:.5f} is {z:.0f} standard errors of the difference of two runs "
        "{direction} 1.000508 with this run's SE ({se}), and {z_seeds:.0f} with the SD of the "
        "mean ratio from seed to seed ({seed_sd} over {seeds} other seeds).",
        note="With the run-to-run SE of the mean ratio ({se}, jackknifed over independent "
        "chunks) the printed 1.000508 is {z:.0f} standard errors of the difference of two runs "
        "away: the printed k is too large for matrices generated as described "
        "(plos2012-k-constant, plos2012-random-protocol-readings).",
    ),
    Record(
        id="plos2012-random-ci",
        source=RANDOM_SOURCE,
        claim="The 95% bootstrap Student confidence interval of the average ratio is "
        "(1.000328, 1.000711).",
        published=printed("1.000328", "1.000711", label="(1.000328, 1.000711)"),
        compute=random_ci,
        verdict=DIFFERS,
        measured=(0.988578863649552, 0.9888111326345815),
        headline=True,
        reason="The interval follows the mean, ({lo:.5f}, {hi:.5f}) with the printed k "
        "(({lo_fitted:.5f}, {hi_fitted:.5f}) refitted); it is also narrower (half-width "
        "{half_width} against {half_width_printed}): the ratio spreads less here (SD "
        "{sd_ratio:.3f}; {sd:.3f} as its interval implies) than in the authors' run "
        "({sd_printed:.3f} as theirs implies).",
        note="Student read as the bootstrap-t interval; the detail gives the BCa interval and "
        "the refitted k.",
    ),
    Record(
        id="plos2012-eq3-underestimate",
        source=both_papers("Sec. 2, Eq. (3)", "'Relationships between CEN and MCC', Eq. (3)"),
        claim="The generalization of Eq. (3), CEN ≈ tMCC/k, slightly underestimates CEN.",
        published=bound("mean tMCC/(k·CEN) < 1", 1.0),
        compute=eq3_underestimate,
        verdict=REPRODUCED,
        measured=0.9886927977426502,
        headline=True,
        relation="<",
        note="The source contradicts itself: its own mean ratio tMCC/(k·CEN), 1.000508 "
        "(plos2012-random-mean-ratio), is above 1, i.e. on its matrices k·CEN underestimates "
        "tMCC and CEN ≈ tMCC/k overestimates CEN. The verdict depends on the reading of k: "
        "measured here is the mean ratio with the printed k read with natural logarithms, "
        "{mean:.5f} < 1, only because that k is too large for matrices generated as described "
        "(plos2012-k-constant); with k refitted to the same matrices the mean ratio is "
        "{mean_fitted:.5f}, {fitted_from_1_in_seed_sds:.1f} of its standard errors from 1 "
        "({fitted_seed_sd} from seed to seed), which supports the claim no more than the "
        "source's does. Per dimension it is above 1 for N = {above_1_for} (detail).",
    ),
    Record(
        id="plos2012-k-constant",
        source=both_papers("Sec. 2, Eq. (3)", "Eq. (3)"),
        claim="k = 1.012 (1 + 0.18924/ln N - 0.06694/ln² N) relates tMCC to CEN (tMCC ≈ k·CEN) on "
        "the random matrices.",
        published=monte_carlo(
            "(1.012, 0.18924, -0.06694)",
            (1.012, 0.18924, -0.06694),
            K_FIT_SE,
            "per constant, from the refit's standard errors at paper scale "
            + ", ".join(f"{x:.1e}" for x in K_FIT_SE),
        ),
        compute=k_constants,
        verdict=DIFFERS,
        measured=(1.008928097495573, 0.12673954285494704, 0.022822338504999644),
        headline=True,
        reason="Refitted to the per-dimension means of tMCC/CEN, the constants are ({a:.4f}, "
        "{b:.3f}, {c:.3f}) ± ({a_se:.4f}, {b_se:.3f}, {c_se:.3f}) with a reduced χ² of "
        "{chi2_reduced:.2f}; b and c are {b_from_printed:.0f} and {c_from_printed:.0f} "
        "combined standard errors from the printed 0.18924 and -0.06694.",
        note="The printed constants are compared with the same three refitted to the "
        "per-dimension means of tMCC/CEN (k_per_dimension.csv; figures/random_matrices/"
        "k_per_dimension.png shows both curves).",
    ),
    Record(
        id="plos2012-cen-mcc-strongly-correlated",
        source=both_papers("Abstract; Sec. 1", "Abstract; Introduction; Fig. 2(a)"),
        claim="CEN and MCC are strongly correlated (a strong, monotone relation) on the "
        "multi-class random matrices.",
        published=bound("|r| above the binary case's 0.63, which the journal calls poor", 0.63),
        compute=cen_mcc_correlation,
        verdict=REPRODUCED,
        measured=0.9728581900081708,
        relation=">",
        note="'Strong' has no printed number; the journal's own yardstick is the binary "
        "|r| ≈ 0.63, called poor in contrast with the multi-class case.",
    ),
    # ---- Degrees of discriminancy on three small classes ----
    Record(
        id="plos2012-discriminancy-243",
        source=both_papers("Sec. 2", "'Relationships between CEN and MCC'"),
        claim="Over every confusion matrix of three classes with 2, 4 and 3 samples, the degree "
        "of discriminancy of CEN over MCC is about 6.",
        published=ABOUT_6,
        compute=discriminancy_243,
        verdict=DIFFERS,
        measured=5.377326565143824,
        headline=True,
        reason="Over the 900 matrices, exact ties give |P|/|Q| = 3178/591 = 5.38 and float == "
        "ties 3165/435 = 7.28 (7.06 to 7.31 for other orders of the class sizes; 5.25 without "
        "the three 0/0 MCCs): none rounds to 6, though 6 lies inside the range the tie rules "
        "span (plos2012-discriminancy-243-tie-rules).",
        note="Convention: exact ties (two matrices tie when their values are mathematically "
        "equal); the detail gives float ==, a relative tolerance and the exclusion of the 0/0 "
        "MCCs. Degree of discriminancy |P|/|Q| (Huang & Ling 2005).",
    ),
    Record(
        id="plos2012-discriminancy-243-tie-rules",
        source=both_papers("Sec. 2", "'Relationships between CEN and MCC'"),
        claim="'About 6' is a degree of discriminancy of CEN over MCC on the (2, 4, 3) matrices "
        "under some reasonable rule for when two floating-point values tie.",
        published=ABOUT_6,
        compute=discriminancy_243_tie_rules,
        verdict=REPRODUCED,
        measured=(5.044444444444444, 7.275862068965517),
        relation="covers",
        note="The figure depends on the tie rule: exact, relative 1e-9 and rounding to 6-10 "
        "decimals give 5.38, float == 7.28, rounding to 4 decimals 5.04 (another "
        "implementation's float values gave 3156/457 = 6.91). 6 is inside that range, so "
        "'about 6' is plausible for some float tie rule, but not reproducible to the rule.",
    ),
    Record(
        id="plos2012-cen-more-discriminant-consistent-than-acc",
        source=both_papers("Sec. 1 (citing Wei et al. 2010)", "Introduction (citing Wei et al.)"),
        claim="CEN is superior to accuracy in discriminancy and consistency (Wei et al.): "
        "statistically consistent with it (degree of consistency > 1/2) and more discriminant "
        "(degree of discriminancy > 1).",
        published=bound("consistency > 1/2 and discriminancy > 1", (0.5, 1.0)),
        compute=cen_against_accuracy,
        verdict=REPRODUCED,
        measured=(0.5716818922352319, 236.1767955801105),
        relation=">",
        note="Huang & Ling's (2005) criterion, on every three-class case of 9 to 19 samples "
        "(Wei et al.'s Tab. 6 is not available; every case it can contain is covered). "
        "Measured: the smallest consistency and the smallest discriminancy over the cases.",
    ),
    Record(
        id="arxiv2010-linear-regardless-of-dimension",
        source=f"{JURMAN2010}, Sec. 4 (Conclusions)",
        claim="There is a strong linear relation between CEN and a logarithmic function of MCC "
        "(tMCC ≈ k·CEN) regardless of the dimension N.",
        published=bound("r(tMCC, k·CEN) in [0.9, 1] for every N", (0.9, 1.0)),
        compute=linear_regardless_of_dimension,
        verdict=REPRODUCED,
        measured=(0.9603169958017456, 0.9997605100521352),
        relation="in",
        note="'Strong linear' read as Pearson's r of at least 0.9 within each N (r per N from "
        "the random-matrix run, pearson_tmcc_kcen_by_k): the lowest is 0.957 at N = 3, and r "
        "rises with N.",
    ),
    Record(
        id="plos2012-discriminancy-small-samples",
        source=both_papers("Sec. 2", "'Relationships between CEN and MCC'"),
        claim="Similar results (CEN more discriminant than MCC) hold for all 12 small-sample "
        "three-class cases of Wei et al. (2010), Tab. 6, ranging from 9 to 19 samples.",
        published=bound("discriminancy of CEN over MCC > 1 in every case", 1.0),
        compute=discriminancy_small_samples,
        verdict=REPRODUCED,
        measured=4.4735376044568245,
        relation=">",
        headline=True,
        note="'Similar' read as CEN over MCC above 1, as in the (2, 4, 3) case; as magnitudes "
        "the degrees are not all about 6 (detail). Convention: exact ties; float == is in the "
        "detail.",
    ),
    Record(
        id="plos2012-wei-table6-cases",
        source=both_papers("Sec. 2", "'Relationships between CEN and MCC'"),
        claim="Wei et al. (2010), Tab. 6, lists 12 small-sample cases on three classes, from 9 "
        "to 19 samples.",
        published=unavailable("12 cases, 9 to 19 samples"),
        compute=wei_table6,
        verdict=NOT_CHECKABLE,
        measured=None,
        note="Which 12 class-size triples they are cannot be known here.",
    ),
    # ---- Every binary confusion matrix ----
    Record(
        id="plos2012-binary-pearson",
        source=f"{BINARY_2012}; Fig. 4",
        claim="Over all binary confusion matrices with 2 <= s <= 100 samples, the (absolute) "
        "Pearson correlation between CEN and MCC is only r ≈ 0.63.",
        published=printed("0.63", label="|r| ≈ 0.63"),
        compute=binary_pearson,
        verdict=REPRODUCED,
        measured=0.6260319883812667,
        headline=True,
        note="Tolerance: the printed precision; the enumeration is exhaustive, no Monte Carlo "
        "error. Convention: the printed range 2 <= s <= 100, MCC 0/0 set to 0 as the papers "
        "do; the detail gives 1 <= s <= 100 (the range of the printed count) and the exclusion "
        "of the 0/0 MCCs, all rounding to 0.63.",
    ),
    Record(
        id="plos2012-fig4-binary-poorly-correlated",
        source=f"{BINARY_2012}; Fig. 4",
        claim="Differently from the multi-class case, CEN and MCC are poorly correlated for two "
        "classes (Fig. 4: s = 5, 10, 25, 50, 75 and all 2 <= s <= 100).",
        published=bound("every panel's |r| below the multi-class |r|", 0.0),
        compute=binary_poorer_than_multiclass,
        verdict=REPRODUCED,
        measured=-0.3163181813287961,
        relation="<",
        note="Measured: the largest binary |r| of the panels minus the multi-class |r(CEN, MCC)| "
        "of the random matrices; Fig. 4's values are not in the text. Convention: MCC 0/0 set "
        "to 0; without those matrices the small panels correlate more (detail), still below "
        "the multi-class |r|.",
    ),
    Record(
        id="plos2012-binary-cen-above-one-count",
        source=f"{JURMAN2012}, 'Results and Discussion'",
        claim="In the binary case CEN even gets values larger than one.",
        published=bound("some binary CEN > 1", 0.0),
        compute=binary_cen_above_one_count,
        verdict=REPRODUCED,
        measured=473080.0,
        relation=">",
        note="Measured: how many binary matrices with at most 100 samples have CEN > 1.",
    ),
    Record(
        id="arxiv2010-binary-cen-max-at-t0",
        source=f"{JURMAN2010}, Sec. 2.1",
        claim="The matrices [[T, F], [F, T]] with 0 < T < F have a confusion entropy larger than "
        "1, 'attained for the totally misclassified case T = 0' (read: the bound 1 is attained "
        "at T = 0).",
        published=identity("CEN(T = 0) = 1, the bound"),
        compute=binary_cen_bound_at_t0,
        verdict=REPRODUCED,
        measured=0.0,
        headline=True,
        note="Re-judged (issue 12): CEN(T = 0) = 1 is not 'larger than 1', so what T = 0 attains "
        "is the bound 1 (the limit of 0 < T < F as T -> 0), the reading the journal makes "
        "explicit ('the bound is attained for T = 0'). The other reading, that the largest CEN "
        "is at T = 0, fails: the maximum is 2/(e ln 2) = 1.0615 at T/F = e/2 - 1 "
        "(plos2012-binary-cen-above-one-count, figures/binary).",
    ),
    # ---- The journal's Figure 1 ----
    Record(
        id="plos2012-box1c-mcc",
        source=f"{FIG1}, Box 1(c)",
        claim="N = 4, all samples classified as one class (Box 1(c)): MCC = 0 while CEN ≈ 0.337.",
        published=identity("MCC = 0"),
        compute=box1c_mcc,
        verdict=REPRODUCED,
        measured=0.0,
        note="The MCC is 0/0 here and 0 is the papers' fill value; the CEN half of the claim is "
        "plos2012-box1c-cen.",
    ),
    Record(
        id="plos2012-box1d",
        source=f"{FIG1}, Box 1(d)",
        claim="Box 1(d): a misclassification case in a very unbalanced situation, N = 4.",
        published=unavailable("in Figure 1 only"),
        compute=box1d,
        verdict=NOT_CHECKABLE,
        measured=None,
        note="Boxes 1(a) and 1(b) are the range ends (plos2012-perfect-classification, "
        "plos2012-cen-complete-misclassification); Box 2 is plos2012-cen-constant.",
    ),
    Record(
        id="plos2012-box3-za-examples",
        source=f"{JURMAN2012}, 'Comparison on the Z_A family'; Fig. 1, Box 3",
        claim="Box 3 presents three numerical examples of Z_A for A = 10, 100, 1000.",
        published=unavailable("in Figure 1 only"),
        compute=box3_examples,
        verdict=NOT_CHECKABLE,
        measured=None,
        note="The rebuilt values follow the Z_A closed forms checked below.",
    ),
    Record(
        id="plos2012-box4-binary-examples",
        source=f"{BINARY_2012}; Fig. 1, Box 4; Fig. 3",
        claim="Box 4 gives numerical binary examples (the gray lines of Fig. 3).",
        published=unavailable("in Figures 1 and 3 only"),
        compute=box4,
        verdict=NOT_CHECKABLE,
        measured=None,
        note="Fig. 3's curves are rebuilt in figures/binary/figure3.png.",
    ),
    # ---- Closed forms: the Z_A family ----
    Record(
        id="plos2012-za-acc",
        source=ZA,
        claim="ACC(Z_A) = N/(N² + A - 1), where Z_A is all ones but A in the lower-left corner.",
        published=identity("N/(N² + A - 1)"),
        compute=functools.partial(formula_gap, "zA-acc"),
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="plos2012-za-acc-decreasing",
        source=ZA,
        claim="ACC(Z_A) decreases for increasing A.",
        published=bound("no increase", 0.0),
        compute=functools.partial(formula_wrong_way, "zA-acc-decreasing"),
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="plos2012-za-acc-limit",
        source=ZA,
        claim="ACC(Z_A) decreases towards zero as A grows.",
        published=converges("ACC(Z_A) -> 0", "N²(1 + ln A)/A at A = 10⁶ and 10⁹"),
        compute=functools.partial(formula_convergence, "zA-acc-limit"),
        verdict=REPRODUCED,
        measured=0.022498763399605794,
        relation="<=",
    ),
    Record(
        id="arxiv2010-za-mcc",
        source=ZA_2010,
        claim="MCC(Z_A) = -(A - 1)/((N - 1)(N² - 2A - 2)).",
        published=identity("-(A - 1)/((N - 1)(N² - 2A - 2))"),
        compute=functools.partial(formula_gap, "zA-mcc-preprint"),
        verdict=DIFFERS,
        measured=9.95827538247566,
        headline=True,
        reason="The sign of 2A is wrong: at N = 3, A = 2 the MCC is -1/22 where the formula "
        "gives -1/6 (with a pole at A = N²/2 - 1); the journal's N² + 2A - 2 holds "
        "(plos2012-za-mcc).",
    ),
    Record(
        id="plos2012-za-mcc",
        source=ZA_2012,
        claim="MCC(Z_A) = -(A - 1)/((N - 1)(N² + 2A - 2)).",
        published=identity("-(A - 1)/((N - 1)(N² + 2A - 2))"),
        compute=functools.partial(formula_gap, "zA-mcc-journal"),
        verdict=REPRODUCED,
        measured=0.0,
        headline=True,
    ),
    Record(
        id="plos2012-za-mcc-decreasing",
        source=ZA,
        claim="MCC(Z_A) is monotonically decreasing for increasing A.",
        published=bound("no increase", 0.0),
        compute=functools.partial(formula_wrong_way, "zA-mcc-decreasing"),
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="arxiv2010-za-mcc-limit",
        source=ZA_2010,
        claim="MCC(Z_A) tends to -1/(N - 1) as A -> ∞.",
        published=converges("-1/(N - 1)", "N²(1 + ln A)/A at A = 10⁶ and 10⁹"),
        compute=functools.partial(formula_convergence, "zA-mcc-limit-preprint"),
        verdict=DIFFERS,
        measured=1278710.950336666,
        relation="<=",
        headline=True,
        reason="The limit is -1/(2(N - 1)) (N = 3: -1/4, printed -1/2), as the journal prints; "
        "-1/(N - 1) is not even the limit of the preprint's own formula, +1/(2(N - 1)).",
    ),
    Record(
        id="plos2012-za-mcc-limit",
        source=ZA_2012,
        claim="MCC(Z_A) tends to -1/(2(N - 1)) as A -> ∞.",
        published=converges("-1/(2(N - 1))", "N²(1 + ln A)/A at A = 10⁶ and 10⁹"),
        compute=functools.partial(formula_convergence, "zA-mcc-limit-journal"),
        verdict=REPRODUCED,
        measured=0.00843707424129037,
        relation="<=",
    ),
    Record(
        id="plos2012-za-cen",
        source=ZA,
        claim="CEN(Z_A) = [(N - 2)(N - 1) log(2N) + (2N + A - 3) log(2N + A - 1) - A log A] / "
        "(N² + A - 1), logarithms to base 2N - 2.",
        published=identity("closed form of CEN(Z_A)"),
        compute=functools.partial(formula_gap, "zA-cen"),
        verdict=REPRODUCED,
        measured=3.2110815742503185e-15,
    ),
    Record(
        id="plos2012-za-cen-decreasing",
        source=ZA,
        claim="CEN(Z_A) is a decreasing function of increasing A (the opposite of MCC and ACC "
        "in behaviour, since lower CEN is better).",
        published=bound("no increase", 0.0),
        compute=functools.partial(formula_wrong_way, "zA-cen-decreasing"),
        verdict=REPRODUCED,
        measured=0.0,
        note="For integer A, as the papers take it; over real A, CEN first rises slightly "
        "above its A = 1 value (detail).",
    ),
    Record(
        id="plos2012-za-cen-limit",
        source=ZA,
        claim="CEN(Z_A) moves asymptotically towards zero, the minimal entropy case.",
        published=converges("CEN(Z_A) -> 0", "N²(1 + ln A)/A at A = 10⁶ and 10⁹"),
        compute=functools.partial(formula_convergence, "zA-cen-limit"),
        verdict=REPRODUCED,
        measured=0.2706530347893307,
        relation="<=",
    ),
    # ---- Closed forms: dice rolling ----
    Record(
        id="plos2012-dice-cen",
        source=DICE,
        claim="For all ones but a last row of A's (random classification, unbalanced), CEN = "
        "(N - 1)/(2N(N + A - 1)) [(2N + A - 3) log(2N + A - 1) - 2A log A + (A + 1) "
        "log(N + NA + A - 1)], logarithms to base 2N - 2.",
        published=identity("closed form of CEN(dice)"),
        compute=functools.partial(formula_gap, "dice-cen"),
        verdict=REPRODUCED,
        measured=2.0539125955565396e-15,
    ),
    Record(
        id="plos2012-dice-cen-decreasing",
        source=DICE,
        claim="CEN of the dice-rolling matrices is a decreasing function of growing A.",
        published=bound("no increase", 0.0),
        compute=functools.partial(formula_wrong_way, "dice-cen-decreasing"),
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="arxiv2010-dice-limit",
        source=f"{JURMAN2010}, Sec. 2",
        claim="The dice-rolling CEN tends to (N - 1)/(2N) log_{2N-2} N + 1 as A -> ∞.",
        published=converges("(N - 1)/(2N) log_{2N-2} N + 1", "N²(1 + ln A)/A at A = 10⁶ and 10⁹"),
        compute=functools.partial(formula_convergence, "dice-cen-limit-preprint"),
        verdict=DIFFERS,
        measured=9825402.92372539,
        relation="<=",
        headline=True,
        reason="With + 1 outside the logarithm the printed limit exceeds 1 (N = 3: 1 + "
        "log_4(3)/3 = 1.26 against the true 1/3); the journal's (N - 1)/(2N) log_{{2N-2}}(N + 1) "
        "holds (plos2012-dice-limit).",
    ),
    Record(
        id="plos2012-dice-limit",
        source=DICE_2012,
        claim="The dice-rolling CEN tends to (N - 1)/(2N) log_{2N-2}(N + 1) as A -> ∞.",
        published=converges("(N - 1)/(2N) log_{2N-2}(N + 1)", "N²(1 + ln A)/A at A = 10⁶ and 10⁹"),
        compute=functools.partial(formula_convergence, "dice-cen-limit-journal"),
        verdict=REPRODUCED,
        measured=0.18845146273358304,
        relation="<=",
    ),
    Record(
        id="plos2012-dice-limit-increasing",
        source=DICE,
        claim="As a function of N, the limit is increasing.",
        published=bound("no decrease", 0.0),
        compute=functools.partial(formula_wrong_way, "dice-limit-increasing"),
        verdict=REPRODUCED,
        measured=0.0,
        note="Checked on the journal's limit for N >= 3 (the multi-class case); the preprint's "
        "printed limit grows towards 3/2, not 1/2 (arxiv2010-dice-limit).",
    ),
    Record(
        id="plos2012-dice-limit-to-half",
        source=DICE,
        claim="As a function of N, the limit grows asymptotically towards 1/2.",
        published=converges("-> 1/2 as N -> ∞", "ln 2/ln N at N = 10..10⁹"),
        compute=functools.partial(formula_convergence, "dice-limit-asymptote"),
        verdict=REPRODUCED,
        measured=0.483817396983109,
        relation="<=",
    ),
    Record(
        id="plos2012-dice-mcc-zero",
        source=DICE_2012,
        claim="It is easy to see that MCC -> 0 for A -> ∞ in the dice-rolling case.",
        published=identity("MCC = 0"),
        compute=functools.partial(formula_gap, "dice-mcc-zero"),
        verdict=REPRODUCED,
        measured=0.0,
        note="Measured: the largest |MCC| at every A of the grid: it is 0 for every A, not "
        "only in the limit.",
    ),
    # ---- Closed forms: B(T, F) ----
    Record(
        id="plos2012-b-mcc",
        source=B,
        claim="For B with T on the diagonal and F elsewhere, MCC = (T² + (N - 2)TF - (N - 1)F²)"
        "/[T + (N - 1)F]².",
        published=identity("(T² + (N - 2)TF - (N - 1)F²)/[T + (N - 1)F]²"),
        compute=functools.partial(formula_gap, "b-mcc"),
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="plos2012-b-cen",
        source=B,
        claim="For B, CEN = (N - 1)F/(T + (N - 1)F) log_{2N-2}(2[T + (N - 1)F]/F).",
        published=identity("(N - 1)F/(T + (N - 1)F) log_{2N-2}(2[T + (N - 1)F]/F)"),
        compute=functools.partial(formula_gap, "b-cen"),
        verdict=REPRODUCED,
        measured=5.551115123125783e-16,
    ),
    Record(
        id="plos2012-b-identity",
        source=B,
        claim="For B, CEN = (1 - MCC)(1 + log_{2N-2}((T + (N - 1)F)/((N - 1)F)))(1 - 1/N).",
        published=identity("CEN = (1 - MCC)(1 + log_{2N-2}(...))(1 - 1/N)"),
        compute=functools.partial(formula_gap, "b-identity"),
        verdict=REPRODUCED,
        measured=6.661338147750939e-16,
        headline=True,
        note="The exact case behind Eq. (3): tMCC = CEN with k = 1.",
    ),
    # ---- Closed forms: the binary case ----
    Record(
        id="plos2012-binary-mcc",
        source=BINARY_SOURCE,
        claim="MCC = (TP·TN - FP·FN)/√((TP + FP)(TP + FN)(TN + FP)(TN + FN)).",
        published=identity("(TP·TN - FP·FN)/√(...)"),
        compute=functools.partial(formula_gap, "binary-mcc"),
        verdict=REPRODUCED,
        measured=0.0,
    ),
    Record(
        id="plos2012-binary-cen",
        source=BINARY_SOURCE,
        claim="CEN = (FN + FP) log2((TP + TN + FP + FN)² - (TP - TN)²)/(2(TP + TN + FP + FN)) - "
        "(FN log2 FN + FP log2 FP)/(TP + TN + FP + FN).",
        published=identity("closed form of the binary CEN"),
        compute=functools.partial(formula_gap, "binary-cen"),
        verdict=REPRODUCED,
        measured=5.586676954383307e-15,
    ),
    Record(
        id="plos2012-binary-cen-tf",
        source=BINARY_SOURCE,
        claim="For TP = TN = T and FP = FN = F, CEN = F/(T + F) log2(2(T + F)/F).",
        published=identity("F/(T + F) log2(2(T + F)/F)"),
        compute=functools.partial(formula_gap, "binary-sym-cen"),
        verdict=REPRODUCED,
        measured=6.661338147750939e-16,
    ),
)
