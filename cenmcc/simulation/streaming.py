"""Mergeable statistics: what a chunk of a simulation keeps, and how chunks combine.

A simulation of 10⁸ matrices cannot hold them; each chunk is reduced, in its worker, to a few
numbers that merge exactly or stably with those of the other chunks:

- :class:`Moments`: count, means, co-moments and third central moments of a few columns,
  merged with the pairwise formulas of Chan, Golub & LeVeque (1979) and Pébay (2008);
- :class:`Histogram2D`: counts on a fixed grid (integers: exact and associative);
- :class:`PoissonBootstrap`: each resample's weighted sums, with the weights drawn per block of
  matrices from the chunk's own stream (Hanley & MacGibbon 2006; Chamandy et al. 2012).

Chunk results are combined by :class:`OrderedReducer` along a binary tree that depends only on
the number of chunks, never on the order in which the workers finish, so a run gives the same
bits for any number of workers, backend or scheduler.

References
----------
Chan T. F., Golub G. H., LeVeque R. J. (1979). Updating formulae and a pairwise algorithm for
computing sample variances. Technical Report STAN-CS-79-773, Stanford University.

Pébay P. (2008). Formulas for robust, one-pass parallel computation of covariances and
arbitrary-order statistical moments. Technical Report SAND2008-6212, Sandia National
Laboratories.

Hanley J. A., MacGibbon B. (2006). Creating non-parametric bootstrap samples using Poisson
frequencies. Computer Methods and Programs in Biomedicine 83(1):57-62.

Chamandy N., Muralidharan O., Najmi A., Naidu S. (2012). Estimating uncertainty for massive
data streams. Technical report, Google.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

T = TypeVar("T")


@dataclass(frozen=True)
class Moments:
    """Count, means, co-moments and third central moments of ``d`` columns.

    Attributes
    ----------
    n : int
        Number of rows.
    mean : ndarray, shape (d,)
    comoment : ndarray, shape (d, d)
        ``Σ (x_i - mean)(x_i - mean)ᵀ`` (n - 1 times the sample covariance).
    third : ndarray, shape (d,)
        ``Σ (x_ij - mean_j)³`` of each column.
    """

    n: int
    mean: np.ndarray
    comoment: np.ndarray
    third: np.ndarray

    @classmethod
    def of(cls, x) -> Moments:
        """The moments of the rows of ``x`` (shape ``(n, d)``), in two passes.

        The centred products are summed with ``numpy.sum`` over the rows, never by BLAS, so the
        result is the same on any machine and any number of threads.
        """
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 2 or x.shape[0] == 0:
            raise ValueError(f"x must be a non-empty 2-D array of rows, got shape {x.shape}")
        mean = x.mean(axis=0)
        dev = x - mean
        comoment = (dev[:, :, None] * dev[:, None, :]).sum(axis=0)
        return cls(x.shape[0], mean, comoment, (dev**3).sum(axis=0))

    def merge(self, other: Moments) -> Moments:
        """The moments of both sets of rows (Chan et al. 1979, Eq. 2.1; Pébay 2008, Eq. 2.6).

        With ``δ = mean_b - mean_a``: ``mean = mean_a + δ n_b / n``,
        ``M2 = M2_a + M2_b + δ δᵀ n_a n_b / n`` and, per column,
        ``M3 = M3_a + M3_b + δ³ n_a n_b (n_a - n_b) / n² + 3 δ (n_a M2_b - n_b M2_a) / n``.
        """
        na, nb = self.n, other.n
        n = na + nb
        delta = other.mean - self.mean
        m2a, m2b = np.diagonal(self.comoment), np.diagonal(other.comoment)
        return Moments(
            n,
            self.mean + delta * (nb / n),
            self.comoment + other.comoment + np.outer(delta, delta) * (na * nb / n),
            self.third
            + other.third
            + delta**3 * (na * nb * (na - nb) / n**2)
            + 3.0 * delta * (na * m2b - nb * m2a) / n,
        )

    def scaled(self, factor) -> Moments:
        """The moments of the columns multiplied by ``factor`` (a scalar or one per column)."""
        f = np.broadcast_to(np.asarray(factor, dtype=np.float64), self.mean.shape)
        return Moments(self.n, self.mean * f, self.comoment * np.outer(f, f), self.third * f**3)

    def variance(self, ddof: int = 1) -> np.ndarray:
        """Variance of each column."""
        return np.diagonal(self.comoment) / (self.n - ddof)

    def correlation(self, i: int, j: int) -> float:
        """Pearson correlation of columns ``i`` and ``j``."""
        c = self.comoment
        return float(c[i, j] / math.sqrt(c[i, i] * c[j, j]))


def merge_keyed(a: dict, b: dict) -> dict:
    """``a`` and ``b`` merged key by key with each value's ``merge``; keys of one side kept."""
    out = dict(a)
    for key, value in b.items():
        out[key] = out[key].merge(value) if key in out else value
    return dict(sorted(out.items()))


def combine(parts: Iterable[Moments]) -> Moments:
    """Merge the non-empty :class:`Moments` of ``parts``, left to right (the caller's order)."""
    parts = [p for p in parts if p.n]
    if not parts:
        raise ValueError("no rows to combine")
    total = parts[0]
    for part in parts[1:]:
        total = total.merge(part)
    return total


@dataclass(frozen=True)
class Histogram2D:
    """Counts of points on a fixed grid, with the number of points that fell outside it.

    Attributes
    ----------
    counts : ndarray of int64, shape (nx, ny)
    outside : int
    x_range, y_range : tuple of float
    """

    counts: np.ndarray
    outside: int
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    @classmethod
    def of(cls, x, y, x_range, y_range, bins: int) -> Histogram2D:
        """Counts of the points ``(x, y)`` in ``bins x bins`` equal cells of the ranges."""
        counts, _, _ = np.histogram2d(x, y, bins=bins, range=(x_range, y_range))
        counts = counts.astype(np.int64)
        return cls(counts, int(np.size(x) - counts.sum()), tuple(x_range), tuple(y_range))

    def merge(self, other: Histogram2D) -> Histogram2D:
        """The counts of both sets of points (exact)."""
        if (self.x_range, self.y_range) != (other.x_range, other.y_range):
            raise ValueError("histograms on different grids cannot be merged")
        return Histogram2D(
            self.counts + other.counts, self.outside + other.outside, self.x_range, self.y_range
        )


@dataclass(frozen=True)
class PoissonBootstrap:
    """Resampled sums of a series, one row per bootstrap resample.

    The observations are dealt at random into blocks, and in each resample every block gets an
    independent Poisson(1) weight w; ``sums[r]`` holds ``(Σ w n_b, Σ w Σ_b y, Σ w Σ_b y²)``
    over the blocks b. This is the Poisson bootstrap (Hanley & MacGibbon 2006) of blocks of
    independent observations, a valid bootstrap of their mean at ``n_resamples · n / block``
    draws; the weights of a chunk come from the chunk's own stream, so resamples merge by
    addition across chunks and workers (Chamandy et al. 2012). Series that share the blocks and
    their weights (the per-K parts of one chunk) add up to the bootstrap of the whole series.

    Attributes
    ----------
    sums : ndarray, shape (n_resamples, 3)
    """

    sums: np.ndarray

    @classmethod
    def of_series(cls, series, weights) -> list[PoissonBootstrap]:
        """The resampled sums of several series whose values share the same weighted blocks.

        Parameters
        ----------
        series : sequence of (y, blocks)
            Values ``y`` and the block of each value, in ``0 .. n_blocks - 1``.
        weights : ndarray, shape (n_resamples, n_blocks)
            The weight of each block in each resample (:func:`poisson_weights`).
        """
        n_blocks = weights.shape[1]
        per_block = np.stack(
            [
                np.stack(
                    [
                        np.bincount(blocks, minlength=n_blocks).astype(np.float64),
                        np.bincount(blocks, y, minlength=n_blocks),
                        np.bincount(blocks, np.square(y), minlength=n_blocks),
                    ],
                    axis=-1,
                )
                for y, blocks in series
            ],
            axis=1,
        )
        # einsum, not a BLAS product: the same sums in any process and on any machine.
        sums = np.einsum("rb,bgs->rgs", weights, per_block)
        return [cls(sums[:, g]) for g in range(sums.shape[1])]

    def merge(self, other: PoissonBootstrap) -> PoissonBootstrap:
        return PoissonBootstrap(self.sums + other.sums)


def random_blocks(rng: np.random.Generator, size: int, block: int) -> np.ndarray:
    """Deal ``size`` observations at random into blocks of ``block`` (the last may be smaller).

    Returns the block of each observation, in ``0 .. ceil(size / block) - 1``.
    """
    return rng.permutation(size) // block


def poisson_weights(rng: np.random.Generator, n_resamples: int, n_blocks: int) -> np.ndarray:
    """Independent Poisson(1) weights, shape ``(n_resamples, n_blocks)``, as float64."""
    return rng.poisson(1.0, size=(n_resamples, n_blocks)).astype(np.float64)


class OrderedReducer(Generic[T]):
    """Merge items indexed 0 .. n - 1 along a fixed binary tree, whatever order they come in.

    Item i is merged with its neighbour as soon as both are there (a binary counter over the
    indices), so at most about ``log2(n)`` merged items are held besides those that arrived
    early. The tree, and so every floating-point operation, depends only on ``n``.

    Parameters
    ----------
    n : int
        Number of items.
    merge : callable
        ``merge(left, right)``; associative in exact arithmetic.
    """

    def __init__(self, n: int, merge: Callable[[T, T], T]):
        if n < 1:
            raise ValueError(f"need at least one item, got n={n}")
        self.n, self.merge = n, merge
        self._early: dict[int, T] = {}
        self._next = 0
        self._stack: list[tuple[int, T]] = []  # (size of the subtree, merged value)

    def add(self, index: int, item: T) -> None:
        """Give item ``index``; each index exactly once."""
        if not 0 <= index < self.n or index < self._next or index in self._early:
            raise ValueError(f"item {index} is out of range or was already given")
        self._early[index] = item
        while self._next in self._early:
            self._push(self._early.pop(self._next))
            self._next += 1

    def _push(self, item: T) -> None:
        size = 1
        while self._stack and self._stack[-1][0] == size:
            left_size, left = self._stack.pop()
            item, size = self.merge(left, item), left_size + size
        self._stack.append((size, item))

    def result(self) -> T:
        """The merge of all n items (the right-most partial trees merged last)."""
        if self._next != self.n:
            raise ValueError(f"only {self._next} of {self.n} items were given")
        total = self._stack[-1][1]
        for _, left in reversed(self._stack[:-1]):
            total = self.merge(left, total)
        return total
