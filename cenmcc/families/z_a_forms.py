"""Closed forms of the ``Z_A`` family (:func:`cenmcc.families.z_a`): its accuracy, MCC, the
MCC's limit and its CEN, each with the expression of numbers or symbols it evaluates."""

from __future__ import annotations

import numpy as np

from ._parameters import as_classes, classes_and_corner, log_b


def acc_z_a(N, A) -> np.ndarray:
    """Accuracy of ``Z_A`` as printed (identically) in both papers: ``N / (N^2 + A - 1)``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray
        ``N / (N^2 + A - 1)``, in (0, 1/N]; decreasing towards 0 as ``A`` grows.

    Notes
    -----
    Preprint, Sec. 2 (``ACC(Z_A) = N/(N^2 + A - 1)``); journal, "Comparison on the Z_A family"
    (``ACC(ZA)~N=(N2zA{1)``). Holds: the trace is N and the total ``N^2 - 1 + A``.

    Examples
    --------
    >>> float(acc_z_a(3, 2))
    0.3
    """
    return acc_z_a_expression(*classes_and_corner(N, A))


def acc_z_a_expression(n, a):
    """:func:`acc_z_a` on numbers, float arrays or sympy symbols, unvalidated: ``n/(n^2 + a - 1)``.

    Examples
    --------
    >>> import sympy
    >>> acc_z_a_expression(sympy.Integer(3), sympy.Integer(2))
    3/10
    """
    return n / (n**2 + a - 1)


def mcc_z_a_journal(N, A) -> np.ndarray:
    """MCC of ``Z_A`` as the journal prints it: ``-(A - 1) / ((N - 1)(N^2 + 2A - 2))``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray
        In ``(-1/(2(N-1)), 0]``: 0 at ``A = 1``, decreasing in ``A`` towards
        :func:`mcc_z_a_limit_journal`.

    Notes
    -----
    Journal, "Comparison on the Z_A family": ``MCC(ZA)~{ A{1 / (N{1)(N2z2A{2)`` read as
    ``-(A-1)/((N-1)(N^2+2A-2))``. Holds: with trace N, total ``s = N^2 + A - 1``, one row and
    one column summing to ``N - 1 + A`` and the others to N, the numerator of the MCC is
    ``c s - sum_k t_k p_k = -N (A - 1)`` and both factors of the denominator are
    ``N (N - 1)(N^2 + 2A - 2)``.

    Examples
    --------
    >>> round(float(mcc_z_a_journal(3, 2)), 6)
    -0.045455
    """
    return mcc_z_a_expression(*classes_and_corner(N, A))


def mcc_z_a_expression(n, a):
    """:func:`mcc_z_a_journal` on numbers, float arrays or sympy symbols, unvalidated.

    Examples
    --------
    >>> import sympy
    >>> mcc_z_a_expression(sympy.Integer(3), sympy.Integer(2))
    -1/22
    """
    return -(a - 1) / ((n - 1) * (n**2 + 2 * a - 2))


def mcc_z_a_limit_journal(N) -> np.ndarray:
    """The journal's limit of MCC(Z_A) for ``A -> ∞``: ``-1/(2(N - 1))``.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.

    Returns
    -------
    ndarray
        ``-1/(2(N-1))``, the infimum of MCC(Z_A) over ``A >= 1``.

    Notes
    -----
    Journal, "Comparison on the Z_A family" (``with limit { 1 / 2(N{1) for A??``). Holds: the
    limit of :func:`mcc_z_a_journal`.

    Examples
    --------
    >>> float(mcc_z_a_limit_journal(3))
    -0.25
    """
    return mcc_z_a_limit_expression(as_classes(N))


def mcc_z_a_limit_expression(n):
    """:func:`mcc_z_a_limit_journal` on numbers, float arrays or sympy symbols: ``-1/(2(n-1))``.

    Examples
    --------
    >>> import sympy
    >>> mcc_z_a_limit_expression(sympy.Integer(3))
    -1/4
    """
    return -1 / (2 * (n - 1))


def cen_z_a(N, A) -> np.ndarray:
    """CEN of ``Z_A`` as printed (identically) in both papers.

    Parameters
    ----------
    N : array_like of int
        Number of classes, at least 2.
    A : array_like
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray
        ``[(N-2)(N-1) log(2N) + (2N+A-3) log(2N+A-1) - A log A] / (N^2 + A - 1)`` with
        ``log = log_{2N-2}``; the constant-matrix CEN at ``A = 1`` and 0 in the limit.

    Notes
    -----
    Preprint, Sec. 2; journal, "Comparison on the Z_A family" (``CEN(ZA) ~ 1/(N2zA{1)
    [(N{2)(N{1) log2N{2 (2N) z(2NzA{3) log2N{2 (2NzA{1){A log2N{2 (A)]``). Holds: by the
    identity of :mod:`cenmcc.entropy`, ``2 s CEN = sum_j (d_j - 2 C_jj) log d_j
    - 2 sum_{j != k} C_jk log C_jk`` with ``d_j = 2N + A - 1`` for classes 1 and N,
    ``d_j = 2N`` for the other N - 2, and one off-diagonal cell ``A``. Decreasing over the
    integers ``A >= 1`` as the papers say (they take A an integer), but as a function of a real
    ``A`` it first increases on ``(1, ≈ 1.41)`` for ``N = 3``.

    Examples
    --------
    >>> from cenmcc.families import z_a
    >>> from cenmcc.reference import cen
    >>> round(float(cen_z_a(3, 10)), 6), round(cen(z_a(3, 10)), 6)
    (0.631673, 0.631673)
    """
    return cen_z_a_expression(*classes_and_corner(N, A))


def cen_z_a_expression(n, a, log=np.log):
    """:func:`cen_z_a` on float arrays, or on sympy symbols with ``log=sympy.log``, unvalidated.

    Examples
    --------
    >>> import sympy
    >>> sympy.simplify(cen_z_a_expression(sympy.Integer(2), sympy.Integer(1), sympy.log))
    1
    """
    bracket = (
        (n - 2) * (n - 1) * log_b(2 * n, n, log)
        + (2 * n + a - 3) * log_b(2 * n + a - 1, n, log)
        - a * log_b(a, n, log)
    )
    return bracket / (n**2 + a - 1)
