"""The matrices and values of one audit (:class:`_Audit`) and the result of one property
(:class:`Result`); the properties themselves are in :mod:`cenmcc.properties._checks`."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable

import numpy as np

from .._marginals import Counts
from .._metric import Measure, _bind, call_user_measure, metric_call
from ..enumeration import matrices_with_total
from ..exceptions import UndefinedMetricWarning

#: Relative tolerance of every equality between two values (see the module docstring).
TOLERANCE = 1e-12

#: The most matrices :func:`audit` enumerates by default: every matrix of 1 to n items for the
#: largest n that keeps within it (n = 12 for K = 3).
EXHAUSTIVE_BUDGET = 300_000

#: The most ordered triples of labelings the distance check enumerates by default.
TRIPLE_BUDGET = 20_000_000

#: The cells (K² per matrix) of one block of the audit's work: the random matrices drawn, the
#: matrices a check transforms and evaluates, the sampled tables of a constant baseline, each
#: block at a time (2^22 cells: 32 MiB of counts), so that only the audit's own matrices and
#: values grow with their number (:func:`footprint`). The random matrices of a block have their
#: own seed (spawned from the audit's): the same matrices on every machine.
BLOCK_CELLS = 2**22


def block_rows(K: int) -> int:
    """The matrices of one block of :data:`BLOCK_CELLS` cells (at least one)."""
    return max(1, BLOCK_CELLS // (K * K))


def footprint(K: int, n_exhaustive: int, n_random: int, n_items: int) -> int:
    """About the most memory an audit holds at once, in bytes.

    Its matrices as 8-byte counts, the exhaustive ones twice (enumerated, and stored) and the
    random ones once (drawn in order into the stack); per matrix, its value and the values of
    its corrections (:func:`~cenmcc.properties._checks._monotone`: at most one per
    misclassified cell, so at most ``min(K(K-1), largest total)``); the values of the constant
    baseline's sampled predictions (as many as random matrices); and a few blocks of
    :data:`BLOCK_CELLS` cells (the Gamma rates, the multinomial draws, a transformed block and
    its evaluation: 8 blocks of 8-byte cells). Within twice the measured peak (1.2 rather
    than 0.72 GiB at K = 20, 10^5 random matrices).
    """
    cells = 8 * K * K * (2 * n_exhaustive + n_random)
    corrections = min(K * (K - 1), 2 * _largest_mean(n_items))
    per_matrix = 8 * (1 + corrections) * (n_exhaustive + n_random) + 8 * n_random
    return cells + per_matrix + 8 * 8 * BLOCK_CELLS


def _largest_mean(n_items: int) -> int:
    """The largest mean total of the random matrices (:func:`_random_totals`)."""
    return max(4 * n_items, 50)


@dataclasses.dataclass(frozen=True)
class Result:
    """The audit of one property.

    Attributes
    ----------
    holds : bool or None
        True: no counterexample found (a proof within the exhaustive range, evidence beyond);
        False: a counterexample; None: the property has no meaning for this measure (or, for
        the constant baseline, cannot be decided within the exhaustive range).
    counterexample : dict or None
        The first counterexample found: its matrices (nested lists, rows = true class) or
        labelings, and the measure's values on them.
    method : str
        How it was decided: exhaustive up to how many items, random search of how many
        matrices, or exact computation, with the number of matrices left out (outside the
        domain, or where the measure is undefined).
    details : dict
        What else was found (the smallest and largest values, say).
    smallest : bool or None
        Whether the counterexample is the smallest: True where the exhaustive range (or the
        exact computation) found it, so none has fewer items; False where the random search
        (or the sampling) found it, so a smaller one may exist; None without a counterexample.
    """

    holds: bool | None
    counterexample: dict | None
    method: str
    details: dict = dataclasses.field(default_factory=dict)
    smallest: bool | None = None


class _Audit:
    """One measure, one K: the matrices, the measure's values, and the comparisons."""

    def __init__(
        self,
        measure: Measure,
        K: int,
        n_items: int,
        n_random: int,
        seed,
        tolerance,
        every_class_present: bool = False,
    ):
        self.measure, self.K, self.n_items, self.tolerance = measure, K, n_items, tolerance
        self.every_class_present, self.seed = every_class_present, seed
        self.sign = 1.0 if measure.greater_is_better else -1.0
        exhaustive = matrices_with_total(range(1, n_items + 1), K)
        self.n_exhaustive = len(exhaustive)
        seeds = np.random.SeedSequence(seed)
        totals = _random_totals(n_items, n_random, seeds)
        self.random_totals = (n_items + 1, int(totals[-1]) if len(totals) else n_items + 1)
        self.M = np.empty((self.n_exhaustive + len(totals), K, K), dtype=np.int64)
        self.M[: self.n_exhaustive] = exhaustive
        del exhaustive
        _random_cells(self.M[self.n_exhaustive :], totals, seeds)
        self.values = self.f(self.M)
        self.corrected = {}  # the values after each correction (see _monotone)
        outside = self.outside(self.M)
        self.left_out = [  # per segment: (outside the domain, undefined)
            (int(np.sum(outside[part])), int(np.sum(np.isnan(self.values[part]) & ~outside[part])))
            for part in (slice(0, self.n_exhaustive), slice(self.n_exhaustive, len(self.M)))
        ]
        if np.all(np.isnan(self.values[: self.n_exhaustive])):
            where = " with every class present" if every_class_present else ""
            raise ValueError(
                f"measure {measure.name!r} is undefined on every {K}×{K} matrix{where} of 1 to "
                f"{n_items} items"
            )

    def outside(self, M: np.ndarray) -> np.ndarray:
        """Which matrices of the stack ``M`` are outside the audited domain: with
        ``every_class_present``, those in which a class is never true or never predicted."""
        if not self.every_class_present:
            return np.zeros(len(M), dtype=bool)
        return (M.sum(axis=-1) == 0).any(axis=-1) | (M.sum(axis=-2) == 0).any(axis=-1)

    def f(self, M: np.ndarray) -> np.ndarray:
        """The measure's values of the stack ``M``: NaN where it is undefined (:func:`_values`)
        and outside the domain (:meth:`outside`), the matrices every check leaves out.
        Evaluated block by block (:func:`block_rows`)."""
        values = np.empty(len(M))
        size = block_rows(self.K)
        for start in range(0, len(M), size):
            values[start : start + size] = _values(self.measure, M[start : start + size])
        values[self.outside(M)] = np.nan
        return values

    def method(self, first: int | None = None) -> str:
        """How a check over the audit's matrices was decided (where its first failure was),
        with the matrices of each phase it left out."""
        exhaustive = (
            f"exhaustive: every {self.K}×{self.K} matrix of 1 to {self.n_items} items "
            f"({self.n_exhaustive} matrices; {self._left_out(0)})"
        )
        if (first is not None and first < self.n_exhaustive) or len(self.M) == self.n_exhaustive:
            return exhaustive
        low, high = self.random_totals
        return (
            f"{exhaustive}; random search: {len(self.M) - self.n_exhaustive} matrices of "
            f"{low} to {high} items ({self._left_out(1)})"
        )

    def _left_out(self, segment: int) -> str:
        """The matrices of a segment (0: exhaustive, 1: random) left out of every check."""
        outside, undefined = self.left_out[segment]
        where = f"{outside} without every class, " if self.every_class_present else ""
        return f"left out: {where}{undefined} undefined"

    def failure(self, i: int, example: dict, details: dict | None = None) -> Result:
        """The failed check whose counterexample is the audit's matrix ``i``: the smallest
        where ``i`` is in the exhaustive range."""
        return Result(False, example, self.method(i), details or {}, i < self.n_exhaustive)

    def slack(self, a, b) -> np.ndarray:
        """How far apart ``a`` and ``b`` may be and still be equal: ``tolerance`` times
        ``max(1, |a|, |b|)``, and 0 where either is infinite (an infinite value, the best of
        an unbounded measure, equals only itself: a relative slack would be infinite)."""
        scale = np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))
        return np.where(np.isinf(scale), 0.0, self.tolerance * scale)

    def equal(self, a, b) -> np.ndarray:
        """Whether ``a`` and ``b`` are equal within the tolerance (:meth:`slack`)."""
        with np.errstate(invalid="ignore"):  # inf - inf: equal only as a == b
            return (a == b) | (np.abs(a - b) <= self.slack(a, b))

    def better(self, a, b) -> np.ndarray:
        """Whether ``a`` is better than ``b`` beyond the tolerance (:meth:`slack`)."""
        with np.errstate(invalid="ignore"):  # inf - inf is NaN: not better
            return self.sign * (a - b) > self.slack(a, b)

    def phases(self) -> list[slice]:
        """The exhaustive matrices, then the random ones (none where ``n_random`` left none).
        A check that finds a failure among the first need not evaluate the second: every
        exhaustive matrix comes before every random one, so the first failure (the
        counterexample) is the same."""
        parts = (slice(0, self.n_exhaustive), slice(self.n_exhaustive, len(self.M)))
        return [part for part in parts if part.stop > part.start]

    def blocks(self, part: slice) -> list[slice]:
        """The slice ``part`` (of the audit's matrices, or of any rows) cut into blocks of
        :func:`block_rows` rows, in order."""
        size = block_rows(self.K)
        return [
            slice(start, min(start + size, part.stop))
            for start in range(part.start, part.stop, size)
        ]

    def segments(self) -> list[slice]:
        """The blocks of each phase (:meth:`phases`, :meth:`blocks`), in order. A check that
        finds a failure in one block need not evaluate the next: every matrix of a block comes
        before every matrix of the next, so the first failure (the counterexample) is the
        same."""
        return [block for part in self.phases() for block in self.blocks(part)]

    def compare(self, transform: Callable[[np.ndarray], np.ndarray], what: str) -> Result:
        """Invariance: the measure equal on each matrix ``C`` and on ``transform(C)``
        (``transform`` maps a stack to a stack), block by block (:meth:`segments`)."""
        for part in self.segments():
            values = self.values[part]
            other = self.f(transform(self.M[part]))
            kept = ~np.isnan(values) & ~np.isnan(other)
            failing = np.flatnonzero(kept & ~self.equal(values, other))
            if failing.size:
                i = part.start + int(failing[0])
                example = {
                    "matrices": [self.M[i].tolist(), transform(self.M[i : i + 1])[0].tolist()],
                    "values": [float(self.values[i]), float(other[failing[0]])],
                    "transform": what,
                }
                return self.failure(i, example)
        return Result(True, None, self.method())


def _random_totals(n_items: int, n_random: int, seeds: np.random.SeedSequence) -> np.ndarray:
    """The totals of the audit's random matrices, in increasing order: ``n_random`` draws, each
    Poisson with a mean uniform in ``[n_items + 1, max(4 n_items, 50))``, those of at most
    ``n_items`` items left out (the exhaustive range holds them). Sorted as the smallest
    unsigned integers that hold them (NumPy radix-sorts 8- and 16-bit integers)."""
    (child,) = seeds.spawn(1)
    rng = np.random.default_rng(child)
    totals = rng.poisson(rng.uniform(n_items + 1, _largest_mean(n_items), size=n_random))
    totals = np.sort(totals.astype(np.min_scalar_type(int(totals.max(initial=0)))))
    return totals[totals > n_items].astype(np.int64)


def _random_cells(out: np.ndarray, totals: np.ndarray, seeds: np.random.SeedSequence) -> None:
    """The random matrices with the given ``totals``, written into ``out`` (m, K, K): cells
    multinomial with Dirichlet(1/2) cell probabilities (normalised
    Gamma(1/2) rates), block by block (:func:`block_rows`), each block from its own generator.

    With its total Poisson (:func:`_random_totals`), each matrix's cells are independent
    Poisson counts with Dirichlet(1/2) rates; drawn as the total first, the matrices can be
    drawn already in the order of their totals, straight into the audit's stack: no second
    copy of them, and no float rates beyond a block.
    """
    K = out.shape[-1]
    size = block_rows(K)
    starts = range(0, len(totals), size)
    for start, child in zip(starts, seeds.spawn(len(starts)), strict=True):
        rng = np.random.default_rng(child)
        rows = slice(start, start + size)
        p = rng.standard_gamma(0.5, size=(len(totals[rows]), K * K))
        p /= p.sum(axis=-1, keepdims=True)
        out[rows] = rng.multinomial(totals[rows], p).reshape(-1, K, K)


def _values(measure: Measure, M: np.ndarray) -> np.ndarray:
    """The values of ``measure`` on the stack ``M`` (n, K, K), NaN where it is undefined.

    A metric of cenmcc (or a partial of one) is computed block by block through its
    definition (:class:`cenmcc._metric.Definition`), whose mask says where it met a 0/0: every
    such matrix is undefined, whether the metric fills a value there (the MCC's 0, the
    informedness's ``B_k = 0``) or leaves the 0/0 term out of a mean (``fill="excluded"``: the
    balanced accuracy's classes without true samples), the matrices its
    ``UndefinedMetricWarning`` counts. A user's function is called once on ``M``, and its NaN
    values are its undefined ones.
    """
    call = metric_call(measure.function)
    if call is None:  # a user's function of the counts: its NaN are where it is undefined
        with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)  # filled values are values
            returned = call_user_measure(measure, Counts._for_one_call(M).C)
            values = np.array(returned, np.float64)  # a copy: the audit never writes into it
        if values.shape != M.shape[:1]:
            raise ValueError(
                f"measure {measure.name!r} returned shape {values.shape} for {len(M)} matrices: "
                "one value per matrix"
            )
        return values
    definition, options = _bind(*call)
    m = Counts._for_one_call(M)  # the audit's own matrices: validated without a copy
    if definition.prepare:
        options = definition.prepare(m, **options)
    parts = []
    for block in m.blocks():
        values, undefined = definition.compute(block, **options)
        values = np.array(values, dtype=np.float64)
        if undefined is not None:
            values[undefined.reshape(len(values), -1).any(axis=-1)] = np.nan
        parts.append(values)
    return np.concatenate(parts)
