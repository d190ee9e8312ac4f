"""The random confusion matrices of Jurman et al. (2010, 2012), as a simulation generator.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012), "Relationships
between CEN and MCC", draw 200,000 random matrices of dimension 3 to 30: every diagonal entry a
uniform random integer in [1, 1000], every off-diagonal entry a uniform random integer in
[1, ⌊1000·ρ_i⌋] with ρ_i uniform in [0.01, 1]. :class:`PaperGenerator` draws them for a
:class:`~cenmcc.simulation.Simulation`: its defaults are that printed protocol, and its other
fields the other readings of the same text (how K is drawn, what one ρ applies to, whether the
ranges' upper ends are included, ...; ``python -m experiments protocol`` runs them all).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator

import numpy as np

from cenmcc._validation import check_integer, check_real

from .generators import check_range, uniform_integers

#: How the number of classes of each matrix can be drawn (:attr:`PaperGenerator.k_scheme`).
K_SCHEMES = ("uniform", "balanced")
#: What one ratio ρ applies to (:attr:`PaperGenerator.rho_scope`).
RHO_SCOPES = ("matrix", "row", "entry")


@dataclasses.dataclass(frozen=True)
class PaperGenerator:
    """The papers' random confusion matrices; the defaults are the printed protocol.

    Matrix i has ``K_i`` classes, drawn uniformly from the integers of ``k_range`` (both ends
    included; the papers say only "dimensions ranging from 3 to 30", and uniform per matrix is
    the natural reading), and a ratio ``ρ_i`` drawn uniformly from ``rho_range``. Its diagonal
    entries are uniform random integers in ``diagonal_range`` and its off-diagonal entries
    uniform random integers in ``[off_diagonal_min, ⌊off_diagonal_scale·ρ_i⌋]``, all independent
    and both ends included. The fields after ``off_diagonal_min`` are other readings of the
    same text; their defaults are the reading above.

    Calling it with ``(rng, size)`` draws the dimensions and ratios of the ``size`` matrices
    first, then yields one stack per distinct K, in increasing K, each drawn when it is asked
    for (so a chunk holds one stack at a time; the draws are the same either way).

    Attributes
    ----------
    k_range : tuple of int
        Smallest and largest number of classes K, inclusive.
    diagonal_range : tuple of int
        Smallest and largest diagonal entry, inclusive.
    rho_range : tuple of float
        Interval of the uniform distribution of ρ.
    off_diagonal_scale : float
        The off-diagonal entries of matrix i are at most ``⌊off_diagonal_scale·ρ_i⌋``.
    off_diagonal_min : int
        Smallest off-diagonal entry (1 in the papers; with 0 a matrix can be diagonal, and its
        CEN and tMCC are then 0).
    k_scheme : {"uniform", "balanced"}
        ``"uniform"``: each K_i uniform and independent; ``"balanced"``: every chunk holds as
        many matrices of each K as it can, the remainder drawn uniformly, in a random order.
    rho_scope : {"matrix", "row", "entry"}
        One ρ per matrix (printed), one per row, or one per off-diagonal entry.
    upper_inclusive : bool
        Whether the upper ends of the integer ranges are included (printed "in [1, 1000]") or
        excluded (as in R's ``sample(a:b - 1)`` or Python's ``randrange``).

    Examples
    --------
    >>> gen = PaperGenerator(k_range=(3, 5))
    >>> stacks = list(gen(np.random.default_rng(0), 10))
    >>> [s.shape[1] for s in stacks], sum(len(s) for s in stacks)
    ([3, 4, 5], 10)
    """

    k_range: tuple[int, int] = (3, 30)
    diagonal_range: tuple[int, int] = (1, 1000)
    rho_range: tuple[float, float] = (0.01, 1.0)
    off_diagonal_scale: float = 1000.0
    off_diagonal_min: int = 1
    k_scheme: str = "uniform"
    rho_scope: str = "matrix"
    upper_inclusive: bool = True

    def __post_init__(self):
        check_range(self.k_range, name="k_range", integer=True)
        check_range(self.diagonal_range, name="diagonal_range", integer=True)
        check_range(self.rho_range, name="rho_range", integer=False)
        check_real(self.off_diagonal_scale, name="off_diagonal_scale")
        check_integer(self.off_diagonal_min, name="off_diagonal_min", low=0)
        if not isinstance(self.upper_inclusive, bool | np.bool_):
            raise TypeError(f"upper_inclusive must be True or False, got {self.upper_inclusive!r}")
        k_min, k_max = self.k_range
        d_min, d_max = self.diagonal_range
        r_min, r_max = self.rho_range
        excluded = 0 if self.upper_inclusive else 1  # 1: the largest value is one below high
        checks = [
            (
                2 <= k_min <= k_max,
                f"k_range must hold numbers of classes 2 <= low <= high, got {self.k_range}",
            ),
            (
                0 <= d_min <= d_max - excluded and d_max >= 1,
                f"diagonal_range must satisfy 0 <= low <= high (high > low when the upper end "
                f"is excluded) and high >= 1, got {self.diagonal_range}",
            ),
            (
                0 < r_min <= r_max,
                f"rho_range must satisfy 0 < low <= high, got {self.rho_range}",
            ),
            (
                math.floor(self.off_diagonal_scale * r_min) - excluded >= self.off_diagonal_min,
                "the largest off-diagonal value at the smallest rho, floor(off_diagonal_scale * "
                f"rho_range[0]) = floor({self.off_diagonal_scale} * {r_min}), must be at least "
                f"off_diagonal_min = {self.off_diagonal_min}",
            ),
            (self.k_scheme in K_SCHEMES, f"k_scheme must be one of {K_SCHEMES}"),
            (self.rho_scope in RHO_SCOPES, f"rho_scope must be one of {RHO_SCOPES}"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)

    def __call__(self, rng: np.random.Generator, size: int) -> Iterator[np.ndarray]:
        n_classes, rho = draw_parameters(self, size, rng)
        return (draw_matrices(self, int(K), rho[n_classes == K], rng) for K in np.unique(n_classes))


def draw_parameters(config: PaperGenerator, size: int, rng: np.random.Generator):
    """Draw the dimension ``K_i`` and the ratio ``ρ_i`` of ``size`` matrices.

    Returns
    -------
    K : ndarray of int64, shape (size,)
        Uniform on the integers ``k_range[0] .. k_range[1]``, both included (or balanced, see
        :attr:`PaperGenerator.k_scheme`).
    rho : ndarray of float64, shape (size,)
        Uniform on ``rho_range``; with ``rho_scope`` "row" or "entry" the ratios are drawn
        later, with the matrices, and this is unused.
    """
    low, high = config.k_range
    if config.k_scheme == "uniform":
        n_classes = rng.integers(low, high, size=size, endpoint=True)
    else:
        values = np.arange(low, high + 1)
        rest = rng.integers(low, high, size=size % values.size, endpoint=True)
        n_classes = rng.permutation(np.concatenate([np.repeat(values, size // values.size), rest]))
    rho = rng.uniform(config.rho_range[0], config.rho_range[1], size=size)
    return n_classes, rho


def draw_matrices(config: PaperGenerator, K: int, rho, rng: np.random.Generator) -> np.ndarray:
    """Draw one ``K x K`` confusion matrix for each ratio in ``rho``, as the papers describe.

    Parameters
    ----------
    config : PaperGenerator
    K : int
        Number of classes of every matrix of the stack.
    rho : array_like of float, shape (m,)
        The ratio ``ρ_i`` of each matrix (used when ``rho_scope`` is "matrix"; otherwise one
        ratio per row or per entry is drawn here, after the matrix's).
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64, shape (m, K, K)
        Diagonal entries uniform in ``diagonal_range``, off-diagonal entries of matrix i uniform
        in ``[off_diagonal_min, ⌊off_diagonal_scale·ρ⌋]``; every entry independent, drawn
        exactly uniform in one pass with a per-cell range
        (:func:`cenmcc.simulation.generators.uniform_integers`).
    """
    rho = np.asarray(rho, dtype=np.float64)
    m = rho.size
    if config.rho_scope == "row":
        rho = rng.uniform(*config.rho_range, size=(m, K))[:, :, None]
    elif config.rho_scope == "entry":
        rho = rng.uniform(*config.rho_range, size=(m, K, K))
    else:
        rho = rho[:, None, None]
    top = 1 if config.upper_inclusive else 0  # the upper end counted in each span
    off_max = np.floor(config.off_diagonal_scale * rho).astype(np.int64)
    # Every cell drawn in the off-diagonal range of its matrix (or row, or entry), then the
    # diagonal drawn again in its own range, in place (its first draws are discarded).
    off_span = off_max - config.off_diagonal_min + top
    C = uniform_integers(rng, config.off_diagonal_min, off_span, shape=(m, K, K))
    low, high = config.diagonal_range
    np.einsum("...ii->...i", C)[...] = uniform_integers(rng, low, high - low + top, shape=(m, K))
    return C
