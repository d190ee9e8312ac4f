"""Generators of random confusion matrices, and exact uniform integers with per-cell bounds.

A generator is any callable ``generator(rng, size)`` returning ``size`` confusion matrices,
as one ``(size, K, K)`` array or an iterable of such stacks (one per K, say), each matrix an
independent draw (:class:`cenmcc.simulation.Simulation` says why); the ones here are
frozen dataclasses, so that their settings are recorded and they pickle by reference (the
papers' is :class:`cenmcc.simulation.papers.PaperGenerator`).

:func:`uniform_integers` draws exactly uniform integers, each in its own range, several times
faster than ``Generator.integers`` with array bounds (which handles each cell on its own):
Lemire's (2019) multiply-and-shift of 32-bit random words, vectorized, with its rejection of
the few words that would make the result uneven, so that every value of a range is exactly as
likely as every other.

References
----------
Lemire D. (2019). Fast random integer generation in an interval. ACM Transactions on Modeling
and Computer Simulation 29(1):3.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator

import numpy as np

from cenmcc._validation import check_integer, check_real

#: Bits of the random words that :func:`uniform_integers` scales.
WORD_BITS = 32


def uniform_integers(rng: np.random.Generator, low, span, shape=None) -> np.ndarray:
    """Independent integers uniform on ``low .. low + span - 1``, exactly, one per cell.

    Parameters
    ----------
    rng : numpy.random.Generator
        Its bit generator supplies the random words (two 32-bit words per 64-bit output).
    low, span : array_like of int
        Broadcast to the shape of the result, without being expanded (a span per matrix,
        shape ``(m, 1, 1)``, serves all its cells); ``1 <= span <= 2**32``.
    shape : tuple of int, optional
        The shape of the result; by default that of ``low`` and ``span`` broadcast together.

    Returns
    -------
    ndarray of int64

    Notes
    -----
    Lemire (2019): for a random word ``x`` of w = 32 bits, ``(x · span) >> w`` is in
    ``[0, span)``; the word is rejected, and drawn again, when the low w bits of the product
    are below ``2**w mod span``, which leaves exactly ``⌊2**w / span⌋`` words for each value
    (:func:`lemire`). At most ``span / 2**w`` of the words are rejected (2.3e-7 for a span
    of 1,000), and drawn again in their cells.
    """
    low = np.asarray(low, dtype=np.int64)
    span = np.asarray(span).astype(np.uint64)
    shape = np.broadcast_shapes(low.shape, span.shape, () if shape is None else tuple(shape))
    if span.size and (span.min() < 1 or span.max() > 2**WORD_BITS):
        raise ValueError(f"span must be in 1 .. 2**{WORD_BITS}, got {span.min()}..{span.max()}")
    n = int(np.prod(shape))
    words = _words(rng, n).reshape(shape)
    out, rejected = lemire(words, span, WORD_BITS)
    spans = np.broadcast_to(span, shape)
    while rejected.size:  # rare: each cell drawn again until accepted
        again, still = lemire(_words(rng, rejected.size), spans.flat[rejected], WORD_BITS)
        out.flat[rejected] = again
        rejected = rejected[still]
    values = out.view(np.int64)
    values += low
    return values


def _words(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` random 32-bit words: the halves of the bit generator's 64-bit outputs."""
    return rng.bit_generator.random_raw(-(-n // 2)).view(np.uint32)[:n]


def lemire(words: np.ndarray, span: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Lemire's mapping of ``bits``-bit ``words`` to ``[0, span)``: the values and the rejects.

    Returns ``(x · span) >> bits`` (uint64, the shape of ``words``; ``span`` broadcasts to it)
    and the flat indices of the words to draw again: those whose product has its low ``bits``
    bits below ``2**bits mod span``. That threshold is computed only for the products whose low
    bits are below ``span`` (the others are accepted at once), a fraction ``span / 2**bits``.
    """
    product = np.multiply(words, span, dtype=np.uint64)
    low_bits = product & np.uint64(2**bits - 1)
    maybe = np.flatnonzero(low_bits < span)
    if maybe.size:
        spans = np.broadcast_to(span, product.shape).flat[maybe]
        threshold = (np.uint64(2**bits) - spans) % spans
        maybe = maybe[low_bits.flat[maybe] < threshold]
    np.right_shift(product, np.uint64(bits), out=product)
    return product, maybe


def check_range(value, *, name: str, integer: bool) -> None:
    """Refuse a setting ``name`` that is not a pair ``(low, high)`` of finite real numbers
    (of integers with ``integer``), with a TypeError naming it; its order is checked by the
    generator that has it.

    Examples
    --------
    >>> check_range(2, name="k_range", integer=True)
    Traceback (most recent call last):
    ...
    TypeError: k_range must be a pair (low, high) of integers, got 2
    """
    kind = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if (
        not isinstance(value, tuple | list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, kind) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        what = "integers" if integer else "finite real numbers"
        raise TypeError(f"{name} must be a pair (low, high) of {what}, got {value!r}")


@dataclasses.dataclass(frozen=True)
class DirichletClassifier:
    """A classifier whose per-class error rates are Dirichlet-distributed, on imbalanced classes.

    Each matrix has K classes, K uniform on the integers of ``k_range``. Its ``n_samples``
    samples fall into the true classes with proportions drawn from a symmetric Dirichlet of
    parameter ``class_concentration`` (below 1, strongly imbalanced: a few large classes and
    many small or empty ones). The samples of true class i are predicted as class j with
    probabilities ``π_i``, a row drawn from a Dirichlet whose parameter is ``diagonal`` on the
    correct class and ``off_diagonal`` elsewhere (by default a classifier right about 9 times
    in 9 + K - 1, with errors spread at random), and counted by a multinomial draw.

    Attributes
    ----------
    k_range : tuple of int
        Smallest and largest number of classes, inclusive.
    n_samples : int
        Samples per matrix.
    class_concentration : float
        Dirichlet parameter of the class proportions (1: uniform on the simplex; 0.3: strongly
        imbalanced).
    diagonal, off_diagonal : float
        Dirichlet parameters of each row of prediction probabilities.

    Examples
    --------
    >>> gen = DirichletClassifier(k_range=(3, 4), n_samples=50)
    >>> stacks = list(gen(np.random.default_rng(0), 6))
    >>> [s.shape for s in stacks], [int(s.sum(axis=(1, 2)).min()) for s in stacks]
    ([(3, 3, 3), (3, 4, 4)], [50, 50])
    """

    k_range: tuple[int, int] = (3, 50)
    n_samples: int = 1000
    class_concentration: float = 0.3
    diagonal: float = 9.0
    off_diagonal: float = 1.0

    def __post_init__(self):
        check_range(self.k_range, name="k_range", integer=True)
        low, high = self.k_range
        if not 2 <= low <= high:
            raise ValueError(f"k_range must satisfy 2 <= low <= high, got {self.k_range}")
        check_integer(self.n_samples, name="n_samples", low=1)
        for name in ("class_concentration", "diagonal", "off_diagonal"):
            if not check_real(getattr(self, name), name=name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")

    def __call__(self, rng: np.random.Generator, size: int) -> Iterator[np.ndarray]:
        K = rng.integers(self.k_range[0], self.k_range[1], size=size, endpoint=True)
        for k in np.unique(K):
            yield self.draw(rng, int(k), int(np.count_nonzero(k == K)))

    def draw(self, rng: np.random.Generator, K: int, m: int) -> np.ndarray:
        """``m`` matrices of ``K`` classes, shape ``(m, K, K)``."""
        shares = rng.dirichlet(np.full(K, self.class_concentration), size=m)
        sizes = rng.multinomial(self.n_samples, shares)  # (m, K) samples per true class
        alpha = np.where(np.eye(K, dtype=bool), self.diagonal, self.off_diagonal)
        rates = rng.gamma(np.broadcast_to(alpha, (m, K, K)))
        rates /= rates.sum(axis=-1, keepdims=True)
        return rng.multinomial(sizes, rates)
