"""Mergeable statistics: what a chunk of a simulation keeps, and how chunks combine.

A simulation of 10⁸ matrices cannot hold them; each chunk is reduced, in its worker, to a few
numbers that merge exactly or stably with those of the other chunks:

- :class:`Moments`: count, means, co-moments and third central moments of a few columns,
  merged with the pairwise formulas of Chan, Golub & LeVeque (1979) and Pébay (2008);
  :class:`KeyedMoments` holds one such set per key (the number of classes K), as arrays;
- :class:`Histogram2D`: counts on a fixed grid (integers: exact and associative);
- :class:`PoissonBootstrap`: each resample's weighted sums, per key, with the weights drawn per
  block of matrices from the chunk's own stream (Hanley & MacGibbon 2006; Chamandy et al. 2012).

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

import itertools
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Generic, TypeVar

import numpy as np

T = TypeVar("T")


@dataclass(frozen=True)
class Moments:
    """Count, means, co-moments and third central moments of ``d`` columns.

    Every field may carry leading batch axes (one set of moments per key, see
    :class:`KeyedMoments`); the formulas apply to each batch element alike.

    Attributes
    ----------
    n : int or ndarray of int, shape (...)
        Number of rows.
    mean : ndarray, shape (..., d)
    comoment : ndarray, shape (..., d, d)
        ``Σ (x_i - mean)(x_i - mean)ᵀ`` (n - 1 times the sample covariance).
    third : ndarray, shape (..., d)
        ``Σ (x_ij - mean_j)³`` of each column.
    """

    n: int | np.ndarray
    mean: np.ndarray
    comoment: np.ndarray
    third: np.ndarray

    @classmethod
    def of(cls, x) -> Moments:
        """The moments of the rows of ``x`` (shape ``(n, d)``, n >= 0), in two passes.

        The centred products are summed with ``numpy.sum`` over the rows, never by BLAS, so the
        result is the same on any machine and any number of threads. No rows give n = 0 and
        zeros.
        """
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 2:
            raise ValueError(f"x must be a 2-D array of rows, got shape {x.shape}")
        if x.shape[0] == 0:
            return cls.empty(x.shape[1])
        mean = x.mean(axis=0)
        dev = x - mean
        comoment = (dev[:, :, None] * dev[:, None, :]).sum(axis=0)
        cube = dev * dev  # twice multiplied, not dev**3: NumPy's power calls pow, 50 times slower
        cube *= dev
        return cls(x.shape[0], mean, comoment, cube.sum(axis=0))

    @classmethod
    def empty(cls, d: int, shape: tuple = ()) -> Moments:
        """No rows: n = 0, zero means and moments (the identity of :meth:`merge`)."""
        n = np.zeros(shape, dtype=np.int64) if shape else 0
        return cls(n, np.zeros((*shape, d)), np.zeros((*shape, d, d)), np.zeros((*shape, d)))

    def merge(self, other: Moments) -> Moments:
        """The moments of both sets of rows (Chan et al. 1979, Eq. 2.1; Pébay 2008, Eq. 2.6).

        With ``δ = mean_b - mean_a``: ``mean = mean_a + δ n_b / n``,
        ``M2 = M2_a + M2_b + δ δᵀ n_a n_b / n`` and, per column,
        ``M3 = M3_a + M3_b + δ³ n_a n_b (n_a - n_b) / n² + 3 δ (n_a M2_b - n_b M2_a) / n``.
        Merging with no rows returns the other side unchanged.
        """
        na, nb = np.asarray(self.n), np.asarray(other.n)
        n = na + nb
        safe = np.maximum(n, 1).astype(np.float64)  # n = 0: both empty, every term is 0
        share_a, share_b = na / safe, nb / safe
        wa, wb = share_a[..., None], share_b[..., None]  # shape (..., 1)
        delta = other.mean - self.mean
        m2a = np.diagonal(self.comoment, axis1=-2, axis2=-1)
        m2b = np.diagonal(other.comoment, axis1=-2, axis2=-1)
        # n_a n_b / n and n_a n_b (n_a - n_b) / n² from the shares, in floats: the products of
        # the integer counts overflow int64 beyond about 2·10⁶ rows a side.
        cross = safe * share_a * share_b
        merged = Moments(
            n if n.ndim else int(n),
            self.mean + delta * wb,
            self.comoment
            + other.comoment
            + delta[..., :, None] * delta[..., None, :] * cross[..., None, None],
            self.third
            + other.third
            + delta**3 * (cross * (share_a - share_b))[..., None]
            + 3.0 * delta * (wa * m2b - wb * m2a),
        )
        if n.ndim == 0:  # one set: either side empty is the other, bit for bit
            return other if na == 0 else self if nb == 0 else merged
        return merged

    def scaled(self, factor) -> Moments:
        """The moments of the columns multiplied by ``factor`` (a scalar or one per column)."""
        f = np.broadcast_to(np.asarray(factor, dtype=np.float64), self.mean.shape)
        return Moments(
            self.n,
            self.mean * f,
            self.comoment * f[..., :, None] * f[..., None, :],
            self.third * f**3,
        )

    def variance(self, ddof: int = 1) -> np.ndarray:
        """Variance of each column (NaN with fewer than ``ddof + 1`` rows)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.diagonal(self.comoment, axis1=-2, axis2=-1) / (
                np.asarray(self.n, dtype=np.float64)[..., None] - ddof
            )

    def correlation(self, i: int, j: int):
        """Pearson correlation of columns ``i`` and ``j`` (NaN where a column is constant)."""
        c = self.comoment
        with np.errstate(divide="ignore", invalid="ignore"):
            r = c[..., i, j] / np.sqrt(c[..., i, i] * c[..., j, j])
        return float(r) if np.ndim(r) == 0 else r

    def combined(self) -> Moments:
        """The batch (the first axis) merged into one set of moments, pairwise: elements 2i and
        2i + 1 merged together, all pairs in one batched merge, then the pairs' merges likewise,
        an odd last element joining the next level as it is (log2 of the batch's length merges,
        rather than one per element; the order depends on the length only)."""
        level = self
        while (size := np.shape(level.n)[0]) > 1:
            even = size - size % 2
            pairs = level[0:even:2].merge(level[1:even:2])
            level = pairs if even == size else pairs.concatenated(level[even:])
        return level[0] if np.shape(level.n)[0] else Moments.empty(self.mean.shape[-1])

    def concatenated(self, other: Moments) -> Moments:
        """The batch of ``self`` followed by that of ``other`` (both with one batch axis)."""
        return Moments(
            *(np.concatenate([getattr(self, f.name), getattr(other, f.name)]) for f in fields(self))
        )

    def __getitem__(self, index) -> Moments:
        n = np.asarray(self.n)[index]
        return Moments(
            n if n.ndim else int(n), self.mean[index], self.comoment[index], self.third[index]
        )


@dataclass(frozen=True)
class KeyedMoments:
    """One :class:`Moments` per integer key (the number of classes K), merged key by key.

    Attributes
    ----------
    keys : ndarray of int64, shape (k,)
        Increasing.
    moments : Moments
        With one batch axis of length k.
    """

    keys: np.ndarray
    moments: Moments

    @staticmethod
    def nbytes(keys: int, columns: int) -> int:
        """Bytes of the moments of ``columns`` values for ``keys`` keys."""
        return 8 * keys * (2 + 2 * columns + columns * columns)  # key, n, mean, third, comoment

    @classmethod
    def of_parts(cls, keys, parts: list[Moments]) -> KeyedMoments:
        """One set of moments per key: ``parts[i]`` of ``keys[i]``, the keys distinct and
        increasing. The same bits as merging the keys' moments one key at a time: a merge of
        disjoint keys only places each side's moments."""
        return cls(
            np.asarray(keys, dtype=np.int64).reshape(-1),
            Moments(
                np.array([m.n for m in parts], dtype=np.int64),
                np.stack([m.mean for m in parts]),
                np.stack([m.comoment for m in parts]),
                np.stack([m.third for m in parts]),
            ),
        )

    @classmethod
    def by_key(cls, groups: list[tuple[int, slice | np.ndarray]], x) -> KeyedMoments:
        """The moments of the rows of ``x`` (shape ``(n, d)``) of each group of
        :func:`key_groups`, each of its rows in their order (no key for no rows)."""
        x = np.asarray(x, dtype=np.float64)
        if not groups:
            return cls(np.zeros(0, np.int64), Moments.empty(x.shape[-1], (0,)))
        return cls.of_parts([k for k, _ in groups], [Moments.of(x[rows]) for _, rows in groups])

    def merge(self, other: KeyedMoments) -> KeyedMoments:
        """The moments of both, key by key (a key of one side only is kept as it is)."""
        if np.array_equal(self.keys, other.keys):  # as in most merges: nothing to align
            return KeyedMoments(self.keys, self.moments.merge(other.moments))
        keys = np.union1d(self.keys, other.keys)
        return KeyedMoments(keys, self.aligned(keys).merge(other.aligned(keys)))

    def aligned(self, keys: np.ndarray) -> Moments:
        """The moments on ``keys`` (a superset of this object's), empty where a key is absent."""
        if np.array_equal(keys, self.keys):
            return self.moments
        out = Moments.empty(self.moments.mean.shape[-1], (keys.size,))
        at = np.searchsorted(keys, self.keys)
        for f in fields(Moments):
            getattr(out, f.name)[at] = getattr(self.moments, f.name)
        return out

    def total(self) -> Moments:
        """The moments over every key, merged pairwise in increasing key order
        (:meth:`Moments.combined`)."""
        return self.moments.combined()

    def scaled(self, factors) -> KeyedMoments:
        """Each key's columns multiplied by its row of ``factors``, shape ``(k, d)`` or ``(k,)``."""
        f = np.asarray(factors, dtype=np.float64)
        return KeyedMoments(self.keys, self.moments.scaled(f if f.ndim == 2 else f[:, None]))


def key_groups(key) -> list[tuple[int, slice | np.ndarray]]:
    """Each distinct value of ``key`` (1-D integers), increasing, with its rows in their order:
    a slice where the keys are sorted (as a generator's stacks by K leave them), else the
    indices of the rows."""
    key = np.asarray(key)
    order = None if np.all(key[1:] >= key[:-1]) else np.argsort(key, kind="stable")
    sorted_key = key if order is None else key[order]
    edges = [0, *(np.flatnonzero(np.diff(sorted_key)) + 1).tolist(), key.size]
    return [
        (int(sorted_key[a]), slice(a, b) if order is None else order[a:b])
        for a, b in itertools.pairwise(edges)
        if b > a
    ]


@dataclass(frozen=True)
class Histogram2D:
    """Counts of points on a fixed grid, with the number of points that fell outside it.

    Attributes
    ----------
    counts : ndarray of int64, shape (nx, ny)
    outside : int
        Points outside the grid (a point with a NaN coordinate, left out, is not counted).
    x_range, y_range : tuple of float
    """

    counts: np.ndarray
    outside: int
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    @classmethod
    def of(cls, x, y, x_range, y_range, bins: int) -> Histogram2D:
        """Counts of the points ``(x, y)`` in ``bins x bins`` equal cells of the ranges: the
        counts of ``numpy.histogram2d(x, y, bins, (x_range, y_range))``, several times faster."""
        ix, iy = _cells(x, x_range, bins), _cells(y, y_range, bins)
        inside = (ix >= 0) & (iy >= 0)
        flat = ix[inside] * bins + iy[inside]
        counts = np.bincount(flat, minlength=bins * bins).reshape(bins, bins).astype(np.int64)
        points = np.count_nonzero(~(np.isnan(x) | np.isnan(y)))
        return cls(counts, int(points - flat.size), tuple(x_range), tuple(y_range))

    def merge(self, other: Histogram2D) -> Histogram2D:
        """The counts of both sets of points (exact)."""
        if (self.x_range, self.y_range) != (other.x_range, other.y_range):
            raise ValueError("histograms on different grids cannot be merged")
        return Histogram2D(
            self.counts + other.counts, self.outside + other.outside, self.x_range, self.y_range
        )


def _cells(x, bounds: tuple[float, float], bins: int) -> np.ndarray:
    """The cell of each value among ``bins`` equal cells of ``bounds``, -1 outside (and NaN).

    The cells of ``numpy.histogram``: the edges ``numpy.linspace(low, high, bins + 1)``, each
    cell holding its left edge, the last its right edge too. A value's cell is first estimated
    by scaling, then moved by one where the estimate's rounding put it beside its edges (rather
    than a binary search of the edges, the cost of ``numpy.histogram2d``)."""
    x = np.asarray(x, dtype=np.float64)
    low, high = bounds
    edges = np.linspace(low, high, bins + 1)
    inside = (x >= low) & (x <= high)  # False for NaN
    estimate = np.floor((x - low) * (bins / (high - low)), where=inside, out=np.zeros(x.shape))
    cell = np.clip(estimate, 0, bins - 1).astype(np.intp)
    cell -= x < edges[cell]
    cell += (x >= edges[cell + 1]) & (cell < bins - 1)
    cell[~inside] = -1
    return cell


@dataclass(frozen=True)
class PoissonBootstrap:
    """Resampled sums of series, one series per integer key, one row per bootstrap resample.

    The observations are dealt at random into blocks, and in each resample every block gets an
    independent Poisson(1) weight w; ``sums[i, r]`` holds ``(Σ w n_b, Σ w Σ_b y, Σ w Σ_b y²)``
    over the blocks b of the series of ``keys[i]``. This is the Poisson bootstrap (Hanley &
    MacGibbon 2006) of blocks of independent observations, a valid bootstrap of their mean at
    ``n_resamples · n / block`` draws; the weights of a chunk come from the chunk's own stream,
    so resamples merge by addition across chunks and workers (Chamandy et al. 2012). Series that
    share the blocks and their weights (the per-K parts of one chunk) add up to the bootstrap of
    the whole series.

    Attributes
    ----------
    keys : ndarray of int64, shape (k,)
        Increasing.
    sums : ndarray, shape (k, n_resamples, 3)
    """

    keys: np.ndarray
    sums: np.ndarray

    @classmethod
    def of_series(cls, keys, series, weights) -> PoissonBootstrap:
        """The resampled sums of several series whose values share the same weighted blocks.

        Parameters
        ----------
        keys : sequence of int
            The key of each series, increasing.
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
        return cls(np.asarray(keys, dtype=np.int64), np.ascontiguousarray(sums.swapaxes(0, 1)))

    def merge(self, other: PoissonBootstrap) -> PoissonBootstrap:
        """The sums of both, key by key (:func:`add_by_key`)."""
        return PoissonBootstrap(*add_by_key(self.keys, self.sums, other.keys, other.sums))


def add_by_key(keys_a, a: np.ndarray, keys_b, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Arrays with one row per key (``a[i]`` of ``keys_a[i]``, keys increasing) added key by key.

    Returns the union of the keys and, for each, the sum of its rows, or its one row as it is
    where the other side lacks the key (never added to a zero, which could change a -0.0).
    """
    if np.array_equal(keys_a, keys_b):
        return keys_a, a + b
    keys = np.union1d(keys_a, keys_b)
    out = np.zeros((keys.size, *a.shape[1:]), dtype=np.result_type(a, b))
    out[np.searchsorted(keys, keys_a)] = a
    shared = np.isin(keys_b, keys_a)
    at_b = np.searchsorted(keys, keys_b)
    out[at_b[~shared]] = b[~shared]
    out[at_b[shared]] += b[shared]
    return keys, out


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

    @property
    def complete(self) -> bool:
        """Whether all n items have been given."""
        return self._next == self.n

    def result(self) -> T:
        """The merge of all n items (the right-most partial trees merged last)."""
        if not self.complete:
            raise ValueError(f"only {self._next} of {self.n} items were given")
        total = self._stack[-1][1]
        for _, left in reversed(self._stack[:-1]):
            total = self.merge(left, total)
        return total
