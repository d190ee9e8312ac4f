"""Closed forms of the dice-rolling family (:func:`cenmcc.families.dice`): its CEN and the CEN's
limit, each with the expression of numbers or symbols it evaluates."""

from __future__ import annotations

import numpy as np

from ._parameters import as_classes, classes_and_corner, log_b


def cen_dice(N, A) -> np.ndarray:
    """CEN of the dice-rolling matrix, as printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Entries of the last row, ``A >= 1``.

    Returns
    -------
    ndarray
        ``(N-1)/(2N(N+A-1)) [(2N+A-3) log(2N+A-1) - 2A log A + (A+1) log(N+NA+A-1)]`` with
        ``log = log_{2N-2}``; decreasing in ``A`` towards :func:`cen_dice_limit_journal`.

    Notes
    -----
    Preprint, Sec. 2; journal, "The dice rolling case" (``CEN ~ N{1 / 2N(NzA{1)
    [(2NzA{3) log2N{2 (2NzA{1) {2A log2N{2 Az(Az1) log2N{2 (NzNAzA{1)]``). Holds:
    ``d_j = 2N + A - 1`` for the first N - 1 classes, ``d_N = NA + N + A - 1`` with
    ``d_N - 2 C_NN = (N - 1)(A + 1)``, and N - 1 off-diagonal cells equal to ``A``.

    Examples
    --------
    >>> from cenmcc.families import dice
    >>> from cenmcc.reference import cen
    >>> round(float(cen_dice(3, 10)), 6), round(cen(dice(3, 10)), 6)
    (0.606479, 0.606479)
    """
    return cen_dice_expression(*classes_and_corner(N, A))


def cen_dice_expression(n, a, log=np.log):
    """:func:`cen_dice` on float arrays, or on sympy symbols with ``log=sympy.log``, unvalidated.

    Examples
    --------
    >>> import sympy
    >>> sympy.simplify(cen_dice_expression(sympy.Integer(2), sympy.Integer(1), sympy.log))
    1
    """
    bracket = (
        (2 * n + a - 3) * log_b(2 * n + a - 1, n, log)
        - 2 * a * log_b(a, n, log)
        + (a + 1) * log_b(n + n * a + a - 1, n, log)
    )
    return (n - 1) / (2 * n * (n + a - 1)) * bracket


def cen_dice_limit_journal(N) -> np.ndarray:
    """The journal's limit of the dice CEN for ``A -> ∞``: ``(N-1)/(2N) log_{2N-2}(N + 1)``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.

    Returns
    -------
    ndarray
        In [1/3, 1/2) for ``N >= 3``: increasing in ``N >= 3`` towards 1/2 (as ``1/2 -
        ln 2 / (2 ln N)`` to first order). At ``N = 2`` it is ``log2(3)/4 ≈ 0.396``, above its
        value 1/3 at ``N = 3``.

    Notes
    -----
    Journal, "The dice rolling case" (``N{1 / 2N log2N{2 (Nz1)``). Holds. It is also the CEN of
    any matrix whose samples are all predicted as one class with balanced true classes
    (:func:`single_column` with a constant column), because CEN is invariant under
    transposition and scaling and ``dice(N, A) / A`` tends to a single constant row: for
    ``N = 4`` it is 0.33684, the "CEN ≈ 0.337" of the journal's Fig. 1, Box 1(c).

    Examples
    --------
    >>> round(float(cen_dice_limit_journal(4)), 5)
    0.33684
    """
    return cen_dice_limit_expression(as_classes(N))


def cen_dice_limit_expression(n, log=np.log):
    """:func:`cen_dice_limit_journal` on float arrays, or on sympy symbols with ``log=sympy.log``.

    Examples
    --------
    >>> import sympy
    >>> cen_dice_limit_expression(sympy.Integer(3), sympy.log)
    1/3
    """
    return (n - 1) / (2 * n) * log_b(n + 1, n, log)
