"""How measures agree: the statistics every simulation gives for its measures and their pairs.

For every measure, per number of classes K and overall: count, mean and SD, and how many values
were 0/0 (filled with the measure's documented value, or, for a measure whose
``Measure.undefined`` is ``"omit"``, left out: its moments skip those matrices, and each of
its pairs is counted over the matrices defined for both measures, its ``left_out`` saying how
many matrices were not). For every pair of measures (f, g),
overall and per K: the Pearson correlation, Kendall's τ_b, and Huang & Ling's (2005) degrees of
consistency and discriminancy, the last three from one exact count of concordant, discordant
and tied pairs of matrices (:mod:`cenmcc.simulation.pairs`); and ``within_k``, the last three
over the pairs of matrices of equal K pooled (the per-K counts added), which compares the
measures where K does not differ.

Ties are decided by the run's rule (:attr:`cenmcc.simulation.Simulation.ties`): each
measure's values are ranked by float equality (exact for the values of
:func:`cenmcc.ties.tie_values`) or within a relative tolerance, chained as
:func:`cenmcc.pair_counts` chains them, over the matrices counted together (within each K,
over that K's alone).

Every pair statistic compares the measures *oriented* so that higher is better (CEN and tMCC,
lower-is-better, are negated): a positive correlation, a τ_b above 0 or a consistency above
1/2 says that the two measures agree on which matrices are better. Discriminancy is
``|P|/|Q|``, the pairs that f tells apart and g ties over the reverse.

Standard errors: the means, SDs and correlations are jackknifed over groups of whole chunks
(:func:`cenmcc.simulation.jackknife.jackknife`); the pair-count statistics, which need every
matrix, come from the spread of the same statistics over the first :data:`REPLICATES` chunks
(independent replicates of ``chunk_size`` matrices), scaled to the run's size (batch means,
Schmeiser 1982; they are U-statistics, whose SD falls as 1/√n). A run of fewer whole chunks
than that cuts them into strided parts (:func:`replicate_splits`); there the within-K
statistics' SEs come from each matrix's within-K pair counts in the parts, the U-statistic
variance (:func:`~cenmcc.simulation.within_k.within_k_errors`, Hoeffding 1948), which does not
depend on the parts' size.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from cenmcc.comparison import PairCounts, counts_from_ranks
from cenmcc.comparison import _dense_ranks as tie_group_ranks

from .streaming import Histogram2D, KeyedMoments, Moments, add_by_key, key_groups
from .within_k import (
    PAIR_COUNT_STATISTICS,
    WithinKTerms,
    group_counts,
    object_counts,
    within_group_counts,
    within_k_errors,
)

#: Chunks whose own pair statistics are counted as replicates for the standard errors.
REPLICATES = 64


@dataclass(frozen=True)
class KeyedCounts:
    """Integer counts per key (K): ``counts[i]`` belongs to ``keys[i]``; merged by adding."""

    keys: np.ndarray
    counts: np.ndarray

    def merge(self, other: KeyedCounts) -> KeyedCounts:
        return KeyedCounts(*add_by_key(self.keys, self.counts, other.keys, other.counts))


@dataclass(frozen=True)
class Replicate:
    """The pair statistics of one whole chunk (an independent replicate).

    Attributes
    ----------
    n : int
        Matrices of the chunk.
    n_by_k : dict of int to int
    statistics : dict of (str, str) to dict
        Per pair: each of :data:`PAIR_COUNT_STATISTICS` overall, and ``by_k``: per K.
    within_k_terms : dict of (str, str) to WithinKTerms
        Of a strided part of a chunk (a run of few chunks, :func:`replicate_splits`): per pair,
        the sums of its matrices' within-K pair counts for :func:`within_k_errors`; else empty.
    """

    n: int
    n_by_k: dict
    statistics: dict
    within_k_terms: dict = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class State:
    """What a chunk (or a merge of chunks) leaves of its measures.

    Attributes
    ----------
    moments : KeyedMoments
        Per K, of the measures' values, in the simulation's order, each measure's multiplied by
        ``2**-exponents[i]``.
    exponents : ndarray of int64, shape (d,)
        Of each measure, the binary exponent of its largest absolute value in the rows merged
        (0 if all are 0), so that the moments are of values within [-1, 1]: their squares and
        cubes neither overflow nor underflow whatever the measure's scale (a user's measure near
        1e300 or 1e-300). A power of two scales exactly, so every statistic has the bits that
        unscaled moments would give wherever those neither overflow nor underflow (any ordinary
        run). One exponent per measure for every K: a measure whose values at two K differ by
        more than about 2**500 loses the moments of the smaller ones.
    undefined : KeyedCounts
        Per K, how many values of each measure were 0/0.
    histograms : dict of (str, str) to Histogram2D
        Of the values of the density pairs (f on the first axis), on the measures' bounds.
    replicates : tuple of Replicate
        Of the replicate chunks (or their strided parts, :func:`replicate_splits`) among
        those merged, in chunk order.
    subgroups : tuple of State
        With :func:`moment_subgroups` S > 0: the moments (and ``defined``) of rows ``s::S`` of
        every chunk merged, for each s (scaled as ``moments``), the groups of the jackknife of
        the moment statistics in a run of too few tasks; else empty.
    defined : dict of tuple of int to KeyedMoments
        For the measures whose undefined values are left out (:func:`defined_columns`): per
        K, the moments of each such measure's column (key ``(i,)``) and of each pair's two
        columns (``(i, j)``) over the rows where they are all defined (scaled as
        ``moments``, whose columns of those measures hold NaN); empty if there are none.
    """

    moments: KeyedMoments
    exponents: np.ndarray
    undefined: KeyedCounts
    histograms: dict
    replicates: tuple
    subgroups: tuple = ()
    defined: dict = dataclasses.field(default_factory=dict)

    def merge(self, other: State) -> State:
        exponents = np.maximum(self.exponents, other.exponents)
        return State(
            self._rescaled(self.moments, exponents).merge(
                other._rescaled(other.moments, exponents)
            ),
            exponents,
            self.undefined.merge(other.undefined),
            {key: h.merge(other.histograms[key]) for key, h in self.histograms.items()},
            self.replicates + other.replicates,
            tuple(a.merge(b) for a, b in zip(self.subgroups, other.subgroups, strict=True)),
            {
                key: self._rescaled(m, exponents, key).merge(
                    other._rescaled(other.defined[key], exponents, key)
                )
                for key, m in self.defined.items()
            },
        )

    def _rescaled(
        self, moments: KeyedMoments, exponents: np.ndarray, columns: tuple | None = None
    ) -> KeyedMoments:
        """``moments`` of this state's values (of ``columns``) times ``2**-exponents`` (at
        least this state's)."""
        if np.array_equal(exponents, self.exponents):
            return moments
        shift = np.ldexp(1.0, self.exponents - exponents)
        shift = shift if columns is None else shift[list(columns)]
        return KeyedMoments(moments.keys, moments.moments.scaled(shift))

    def subgroup_states(self) -> list[State]:
        """The states of :attr:`subgroups` (moments only), for the jackknife."""
        return list(self.subgroups)


def defined_columns(sim) -> tuple[tuple[int, ...], ...]:
    """The columns whose moments :attr:`State.defined` keeps over the rows where they are
    defined: each measure whose undefined values are left out (``Measure.undefined`` is
    ``"omit"``) alone, and each summarized pair with such a measure."""
    measures = sim.resolved_measures
    index = {m.name: i for i, m in enumerate(measures)}
    omits = {m.name for m in measures if m.omits}
    pairs = [(index[f], index[g]) for f, g in sim.resolved_pairs if omits & {f, g}]
    return (*((index[n],) for n in index if n in omits), *pairs)


def all_pairs(measures) -> tuple[tuple[str, str], ...]:
    """Every pair of the measures, in their order."""
    names = [m.name for m in measures]
    return tuple((f, g) for i, f in enumerate(names) for g in names[i + 1 :])


def reduce(
    sim, K: np.ndarray, values: dict, undefined_by_k: dict, replicate: bool, rtol: dict
) -> State:
    """The state of one chunk: ``values[name]`` per matrix, ``undefined_by_k[K][name]`` counts;
    ``rtol[name]`` the relative tolerance of each measure's ties (0: equal floats)."""
    measures = sim.resolved_measures
    names = [m.name for m in measures]
    groups = key_groups(K)
    keys = np.array([k for k, _ in groups])
    x = np.stack([values[n] for n in names], axis=-1)
    exponents = np.frexp(np.fmax.reduce(np.abs(x), axis=0, initial=0.0))[1].astype(np.int64)
    columns = defined_columns(sim)
    undefined = KeyedCounts(
        keys.astype(np.int64),
        np.array([[undefined_by_k.get(int(k), {}).get(n, 0) for n in names] for k in keys]),
    )
    by_name = {m.name: m for m in measures}
    histograms = {
        (f, g): Histogram2D.of(
            values[f], values[g], by_name[f].bounds, by_name[g].bounds, bins=sim.histogram_bins
        )
        for f, g in sim.resolved_density_pairs
    }
    replicates = ()
    if replicate:
        splits = replicate_splits(sim)
        replicates = tuple(
            _replicate(sim, K[rows], {n: v[rows] for n, v in values.items()}, rtol, terms=True)
            if splits > 1
            else _replicate(sim, K, values, rtol)
            for rows in (np.arange(s, K.size, splits) for s in range(splits))
        )
    S = moment_subgroups(sim)
    subgroups = tuple(_moments(K[s::S], x[s::S], exponents, columns) for s in range(S))
    return dataclasses.replace(
        _moments(K, x, exponents, columns, groups),
        undefined=undefined,
        histograms=histograms,
        replicates=replicates,
        subgroups=subgroups,
    )


def _moments(K, x, exponents, columns, groups=None) -> State:
    """The state of the moments of the rows ``x`` (their values times ``2**-exponents``), of
    each ``columns`` (:func:`defined_columns`) over the rows where they are defined too."""
    defined = {}
    for key in columns:
        part = x[:, list(key)]
        rows = np.flatnonzero(~np.isnan(part).any(axis=1))
        defined[key] = KeyedMoments.by_key(
            key_groups(K[rows]), np.ldexp(part[rows], -exponents[list(key)])
        )
    moments = KeyedMoments.by_key(
        key_groups(K) if groups is None else groups, np.ldexp(x, -exponents)
    )
    none = KeyedCounts(np.zeros(0, np.int64), np.zeros((0, x.shape[1]), np.int64))
    return State(moments, exponents, none, {}, (), (), defined)


#: Replicates a run's pair statistics aim at; a run with fewer whole chunks splits each of
#: them into strided parts (rows ``s::p``) of at least :data:`MIN_REPLICATE_SIZE` matrices.
MIN_REPLICATE_SIZE = 200

#: Jackknife groups below which the moment statistics are jackknifed over
#: :data:`MOMENT_SUBGROUPS` strided parts of every chunk instead of groups of whole tasks.
MIN_JACKKNIFE_GROUPS = 20

#: Strided parts of every chunk of a run with too few tasks (see :data:`MIN_JACKKNIFE_GROUPS`).
MOMENT_SUBGROUPS = 40


def replicate_splits(sim) -> int:
    """Strided parts each replicate chunk is cut into, so that a run with fewer whole chunks
    than ``sim.replicates`` still has about that many replicates of pair statistics (1: whole
    chunks). Each part keeps the chunk's mix of K (rows ``s::p``), a small chunk of the same
    design, so the spread of its statistics scaled by ``sqrt(size / n)`` is the run's SE."""
    whole = min(sim.replicates, sim.n_matrices // sim.chunk_size)
    if whole == 0 or whole >= sim.replicates:
        return 1
    return max(1, min(-(-sim.replicates // whole), sim.chunk_size // MIN_REPLICATE_SIZE))


def moment_subgroups(sim) -> int:
    """Groups of the jackknife of the moment statistics when a run has fewer than
    :data:`MIN_JACKKNIFE_GROUPS` tasks: :data:`MOMENT_SUBGROUPS` strided parts of every
    chunk (rows ``s::S`` of each, merged over the chunks); 0 otherwise (groups of tasks).
    Never more than half the matrices of the largest chunk (a run of 39 matrices has 19 parts
    of two or three), so that no part is empty."""
    if sim.jackknife_groups >= MIN_JACKKNIFE_GROUPS:
        return 0
    return min(MOMENT_SUBGROUPS, min(sim.chunk_size, sim.n_matrices) // 2)


def has_finite_bounds(measure) -> bool:
    """Whether both of the measure's bounds are finite (a histogram's grid)."""
    return all(math.isfinite(b) for b in measure.bounds)


def _replicate(
    sim, K: np.ndarray, values: dict, rtol: dict, pairs=None, terms: bool = False
) -> Replicate:
    """The pair statistics of one chunk, overall and per K (exact counts of its pairs), and
    with ``terms`` each pair's :class:`WithinKTerms` (a strided part of a chunk).

    Each measure is ranked once (and within each K again where its ties have a tolerance,
    whose chains depend on the values counted together); overall, each pair is counted from
    the ranks (:func:`cenmcc.comparison.counts_from_ranks`), and within each K every pair at
    once from the signs of the differences (:func:`within_group_counts`), so that a chunk of
    many measures and many K is not a few hundred small counts a pair; with ``terms``, from
    the sums of each object's counts (:func:`object_counts`, :func:`group_counts`), which the
    terms need anyway. A pair with NaN
    (values left out) is counted over the rows where both its measures are defined.
    """
    groups = key_groups(K)
    n_by_k = dict(zip(*(a.tolist() for a in np.unique(K, return_counts=True)), strict=True))
    nan = {name: np.isnan(v) for name, v in values.items() if np.isnan(v).any()}
    stats, within_terms = {}, {}
    pairs = sim.resolved_pairs if pairs is None else pairs
    for f, g in [p for p in pairs if nan.keys() & set(p)]:
        rows = np.flatnonzero(~(nan.get(f, False) | nan.get(g, False)))
        part = {f: values[f][rows], g: values[g][rows]}
        defined = _replicate(sim, K[rows], part, rtol, [(f, g)], terms)
        stats |= defined.statistics
        within_terms |= defined.within_k_terms
    pairs = [p for p in pairs if p not in stats]
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    index = {name: i for i, name in enumerate(names)}
    ranks = {name: tie_group_ranks(values[name], rtol[name], 0.0) for name in names}
    same = {pair: sim.same_direction(*pair) for pair in pairs}
    by_k: dict = {pair: {} for pair in pairs}
    row_counts = {pair: np.zeros((K.size, 4), np.int64) for pair in pairs} if terms else {}
    for k, rows in groups if names else ():
        grouped = np.stack(
            [
                tie_group_ranks(values[name][rows], rtol[name], 0.0)
                if rtol[name]
                else ranks[name][rows]
                for name in names
            ]
        )
        if terms:  # each object's counts, whose sums are the group's: counted once
            objects = object_counts(grouped, pairs, index)
            counted = {pair: group_counts(v) for pair, v in objects.items()}
            for pair, v in objects.items():
                row_counts[pair][rows] = v if same[pair] else v[:, [1, 0, 2, 3]]
        else:
            counted = within_group_counts(grouped, pairs, index)
        for pair, counts in counted.items():
            by_k[pair][k] = _oriented(same[pair], counts)
    for pair, v in row_counts.items():
        within_terms[pair] = WithinKTerms(K.size, v.sum(axis=0), v.T @ v)
    for f, g in pairs:
        counts = counts_from_ranks(ranks[f], ranks[g])
        stats[f, g] = {
            **pair_count_statistics(_oriented(same[f, g], counts)),
            "within_k": pair_count_statistics(PairCounts.total(by_k[f, g].values())),
            "by_k": {k: pair_count_statistics(c) for k, c in by_k[f, g].items()},
        }
    return Replicate(K.size, n_by_k, stats, within_terms)


def _oriented(same_direction: bool, counts: PairCounts) -> PairCounts:
    return counts if same_direction else counts.reversed()


def pair_count_statistics(counts: PairCounts) -> dict[str, float]:
    """τ_b, consistency and discriminancy of (oriented) pair counts."""
    return {
        "kendall_tau_b": counts.tau_b(),
        "consistency": counts.consistency(),
        "discriminancy": counts.discriminancy(),
    }


# --------------------------------------------------------------------------------------------
# Summaries (in the caller's process)


def statistics(sim, state: State) -> dict:
    """The moment statistics (jackknifed for their standard errors): means, SDs, correlations.

    Correlations are of the oriented measures (see the module docstring). Each statistic is
    computed for every K at once, from the per-K moments: those of :attr:`State.defined`
    where a measure's undefined values are left out.
    """
    measures = sim.resolved_measures
    names = [m.name for m in measures]
    index = {n: i for i, n in enumerate(names)}
    keys = state.moments.keys.tolist()
    total, per_k = state.moments.total(), state.moments.moments
    mean, sd = _described(total, state.exponents)
    mean_k, sd_k = _described(per_k, state.exponents)
    for (i, *pair), moments in state.defined.items():
        if not pair:  # a measure's values where defined
            (mean[i],), (sd[i],) = _described(moments.total(), state.exponents[[i]])
            means, sds = _described(moments.aligned(state.moments.keys), state.exponents[[i]])
            for q in range(len(keys)):
                (mean_k[q][i],), (sd_k[q][i],) = means[q], sds[q]
    out = {
        "measures": {
            n: {
                "mean": mean[i],
                "sd": sd[i],
                "by_k": {k: {"mean": mean_k[q][i], "sd": sd_k[q][i]} for q, k in enumerate(keys)},
            }
            for i, n in enumerate(names)
        },
        "pairs": {},
    }
    for f, g in sim.resolved_pairs:
        i, j = index[f], index[g]
        sign = 1.0 if sim.same_direction(f, g) else -1.0
        both, every, a, b = total, per_k, i, j
        if (i, j) in state.defined:  # over the matrices where both are defined
            moments, a, b = state.defined[i, j], 0, 1
            both, every = moments.total(), moments.aligned(state.moments.keys)
        pearson_k = _oriented_correlation(every, a, b, sign)
        out["pairs"].setdefault(f, {})[g] = {
            "pearson": _oriented_correlation(both, a, b, sign),
            "by_k": {k: {"pearson": pearson_k[q]} for q, k in enumerate(keys)},
        }
    return out


def _described(m: Moments, exponents: np.ndarray) -> tuple[list, list]:
    """Each column's mean (NaN without rows) and SD (NaN under two rows) of moments ``m`` of
    values times ``2**-exponents``, as (nested) lists."""
    n = np.asarray(m.n)[..., None]
    with np.errstate(invalid="ignore"):
        sd = np.sqrt(m.variance())
    mean, sd = np.ldexp(m.mean, exponents), np.ldexp(sd, exponents)
    return np.where(n >= 1, mean, np.nan).tolist(), np.where(n >= 2, sd, np.nan).tolist()


def _oriented_correlation(m: Moments, i: int, j: int, sign: float):
    """``sign`` times the correlation of columns i and j of moments ``m`` (NaN under three
    rows), a float or a list of one per batch element."""
    return np.where(np.asarray(m.n) >= 3, sign * m.correlation(i, j), np.nan).tolist()


def summarize(sim, state: State, counted: dict) -> dict:
    """Counts, undefined values and pair-count statistics with their replicate SEs.

    ``counted`` maps each pair to its :class:`cenmcc.simulation.pairs.Counted` (raw values).
    A measure whose undefined values are left out, and each pair with one, say how many
    matrices were (``left_out``).
    """
    measures = sim.resolved_measures
    keys = [int(k) for k in state.moments.keys]
    n_by_k = dict(zip(keys, np.asarray(state.moments.moments.n).tolist(), strict=True))
    undefined = dict(zip(keys, state.undefined.counts.tolist(), strict=True))
    out = {
        "measures": {
            m.name: {
                "label": m.label,
                "greater_is_better": m.greater_is_better,
                "n": sim.n_matrices,
                "undefined": int(sum(undefined[k][i] for k in keys)),
                "by_k": {k: {"n": n_by_k[k], "undefined": int(undefined[k][i])} for k in keys},
            }
            | ({"left_out": int(sum(undefined[k][i] for k in keys))} if m.omits else {})
            for i, m in enumerate(measures)
        },
        "pairs": {},
    }
    omits = {m.name for m in measures if m.omits}
    for f, g in sim.resolved_pairs:
        result = counted[f, g]
        same = sim.same_direction(f, g)
        overall = _oriented(same, result.overall)
        by_k = {k: _oriented(same, c) for k, c in result.by_group.items()}
        se = _replicate_errors(sim, state.replicates, f, g, n_by_k)
        within = PairCounts.total(by_k.values())
        entry = {
            **_with_errors(pair_count_statistics(overall), se["overall"]),
            "pair_counts": overall._asdict(),
            "within_k": {
                **_with_errors(pair_count_statistics(within), se["within_k"]),
                "pair_counts": within._asdict(),
            },
            "by_k": {
                k: {
                    **_with_errors(pair_count_statistics(c), se["by_k"].get(k, {})),
                    "pair_counts": c._asdict(),
                }
                for k, c in by_k.items()
            },
        }
        if omits & {f, g}:
            entry["left_out"] = result.left_out
        out["pairs"].setdefault(f, {})[g] = entry
    return out


def _with_errors(values: dict, errors: dict) -> dict:
    out = {}
    for name, value in values.items():
        out[name] = value
        out[f"{name}_se"] = errors.get(name, math.nan)
    return out


def _replicate_errors(sim, replicates, f: str, g: str, n_by_k: dict) -> dict:
    """Batch-means SEs of a pair's count statistics at the run's size, overall, within K (the
    pairs of equal K pooled) and per K."""
    overall, within, by_k = {}, {}, {}
    if len(replicates) >= 2:
        sizes = np.array([r.n for r in replicates], dtype=float)
        stats = [r.statistics[f, g] for r in replicates]
        for name in PAIR_COUNT_STATISTICS:
            overall[name] = batch_means_se([s[name] for s in stats], sizes.mean(), sim.n_matrices)
            within[name] = batch_means_se(
                [s["within_k"][name] for s in stats], sizes.mean(), sim.n_matrices
            )
        terms = [r.within_k_terms[f, g] for r in replicates if (f, g) in r.within_k_terms]
        if terms:  # strided parts of few chunks: the U-statistic variance instead
            counted = sum(t.m for t in terms) / float(sizes.sum())
            within = within_k_errors(terms, sim.n_matrices * counted)
        for k, n_k in n_by_k.items():
            rows = [r for r in replicates if k in r.statistics[f, g]["by_k"]]
            if len(rows) < 2:
                continue
            m_k = float(np.mean([r.n_by_k[k] for r in rows]))
            by_k[k] = {
                name: batch_means_se([r.statistics[f, g]["by_k"][k][name] for r in rows], m_k, n_k)
                for name in PAIR_COUNT_STATISTICS
            }
    return {"overall": overall, "within_k": within, "by_k": by_k}


def batch_means_se(values, m: float, n: float) -> float:
    """Batch-means SE at n matrices: the SD of the finite replicate values (each of m
    matrices) times ``sqrt(m / n)`` (Schmeiser 1982); NaN with fewer than two."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2:
        return math.nan
    return float(np.std(v, ddof=1) * math.sqrt(m / n))


def state_bytes(sim) -> int:
    """Bytes of a run's :class:`State`: the moments and undefined counts of its measures per
    number of classes (:attr:`~cenmcc.simulation.Simulation.dimensions`), and the histograms."""
    keys, measures = sim.dimensions, len(sim.resolved_measures)
    nbytes = KeyedMoments.nbytes(keys, measures) + 8 * keys * measures  # and the undefined counts
    return nbytes + 8 * sim.histogram_bins**2 * len(sim.resolved_density_pairs)


def oriented_pair(summary: dict, f: str, g: str) -> tuple[dict, bool]:
    """The summary of the pair (f, g) of measures, stored in either order, and whether it is
    stored as (g, f).

    Raises
    ------
    KeyError
        If the summary has no such pair (the message lists its pairs).
    """
    pairs = summary["pairs"]
    if g in pairs.get(f, {}):
        return pairs[f][g], False
    if f in pairs.get(g, {}):
        return pairs[g][f], True
    names = [(a, b) for a, row in pairs.items() for b in row]
    raise KeyError(f"no pair ({f}, {g}) in this run; its pairs: {names}")
