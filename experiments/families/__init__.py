"""Closed-form families (Z_A, dice rolling, B(T, F), binary): every printed formula checked.

Each closed form that the preprint (Jurman & Furlanello 2010, arXiv:1008.2908) or the journal
version (Jurman, Riccadonna & Furlanello 2012, PLoS ONE 7(8): e41882) prints for a family of
confusion matrices is a function of :mod:`cenmcc.families` where it holds, of
:mod:`experiments.misprints` where it does not. Each is evaluated here on a grid of
parameters and compared with the metric cenmcc computes on the constructed matrix
(:func:`cenmcc.cen`, :func:`cenmcc.mcc`, :func:`cenmcc.accuracy`, :func:`cenmcc.tmcc`), giving
one verdict per formula id: holds, or does not hold, with the smallest counterexample (fewest
classes, then fewest samples) and the id of the corrected form, checked the same way.

Grid: ``N = 3 .. 30`` (``2 .. 30`` where the claim covers N = 2); every integer ``A = 1 .. 200``
and 91 log-spaced integers up to ``10^9``; ``T/F`` = 0 and 51 log-spaced ratios in
``[10^-3, 100]`` for ``F = 1, 2, 3, 10, 1000``; every binary matrix with entries in
{0, 1, 2, 3, 5, 10, 100, 10^4}; ``T, F <= 60`` for the symmetric binary case.

Tolerance. A closed form holds at a point when ``|closed - metric| <= 4 * bound``, where
``bound`` is a first-order bound on the float64 rounding error of the metric's own evaluation
on that matrix, ``eps * (number of summed terms) * sum |terms| / |normalizer|`` with
``eps = 2^-52``. It is relative to the conditioning of the computation, not to the value: for CEN
the terms are ``(d_j - 2 C_jj) ln d_j`` and ``2 C_jk ln C_jk`` over ``2 s ln(2N - 2)``; for MCC
they are ``c s``, ``sum t_k p_k``, ``s^2`` and ``sum p_k^2``, whose cancellation at ``A = 10^9``
(``s^2 ≈ 10^18 > 2^53``) costs the MCC about 8 of its 16 digits. The factor 4 covers the closed
form's own rounding, of the same order. Limits are checked at ``A = 10^6`` and ``10^9`` against
the rate the exact forms converge at, ``|gap| <= N^2 (1 + ln A) / A``; monotonicity between
consecutive grid points, allowing both points' bounds. The MCC and ACC identities are also
checked exactly in rational arithmetic over the integer grid, and
:mod:`experiments.families_symbolic` proves them symbolically for N = 3 .. 6.

The modules: :mod:`.settings` (grids, sources, the printed formulas), :mod:`.checks` (each formula
on its grid), :mod:`.findings` (the verdicts), :mod:`.compute` (the run), :mod:`.plots` (the
figures) and :mod:`.command` (``python -m experiments families``).
"""

from .compute import run
from .settings import FORMULAS

__all__ = ["FORMULAS", "run"]
