"""Claims of the two Jurman et al. papers that an experiment backs.

Jurman & Furlanello (2010) and Jurman, Riccadonna & Furlanello (2012) support their claims with
four computations, each rerun at the papers' scale by one experiment (the claims are declared in
``jurman_experiments.toml``; those of the fourth, in :mod:`paper_checks.jurman_families`):

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
from .declarations import load
from .record import (
    Measured,
    NotCheckable,
    Published,
    scientific,
)
from .search import mcc_defined
from .summaries import load_summary, load_table

# The output folder of each experiment (experiments.registry).
RANDOM = "random_matrices"
#: The random-matrix study rerun over 60 independent seeds (seeds 1 to 60), which checks the
#: standard errors of ``cenmcc.simulation``: committed, written by ``python -m cenmcc.simulation
#: validate``, not by ``python -m experiments all``.
VALIDATION = "papers-uniform-validation"
#: Statistics of the random-matrix summary, by their names in the validation.
VALIDATED = {
    "pearson_tmcc_kcen": "studies.k_ratio.pearson",
    "mean_ratio_tmcc_kcen": "studies.k_ratio.mean_ratio",
}
DISCRIMINANCY = "discriminancy"
BINARY = "binary"

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
        f"pairs tied in tMCC or in k·CEN ({s['ties_rule']}): |P| = {pairs['f_only']}, "
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


#: The claims declared in jurman_experiments.toml, each measured by the check it names.
RECORDS = load(__name__)
