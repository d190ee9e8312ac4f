"""The preprint's closed forms that do not hold, transcribed literally (not part of the library).

Jurman & Furlanello (2010), arXiv:1008.2908, Sec. 2, prints four formulas that the journal
version (Jurman, Riccadonna & Furlanello 2012, PLoS ONE 7(8): e41882) corrects. They are claims
about a source: the families experiment (:mod:`experiments.families`) evaluates them on its grid
and :mod:`experiments.families_symbolic` disproves them exactly, so that ``paper_checks`` can
say where the text is wrong. The forms that hold are in :mod:`cenmcc.families`.

The first three are expressions of numbers, NumPy arrays or sympy symbols (pass
``log=sympy.log`` for the logarithm): one transcription serves the numeric grid and the exact
disproof. Parameters are not validated; the experiment passes its own grid.
"""

from __future__ import annotations

import numpy as np

import cenmcc


def mcc_z_a_preprint(n, a):
    """The preprint's MCC of ``Z_A``: ``-(A - 1) / ((N - 1)(N^2 - 2A - 2))``, which does not hold.

    Parameters
    ----------
    n : int, array_like or sympy expression
        Number of classes.
    a : int, array_like or sympy expression
        Corner entry, ``A >= 1``.

    Returns
    -------
    ndarray or sympy expression
        The printed expression; for NumPy values ``±inf`` at its pole ``A = N^2/2 - 1`` (no
        warning).

    Notes
    -----
    The sign of ``2A`` in the second factor of the denominator is wrong: the journal prints
    ``N^2 + 2A - 2``, which is what the definition gives (:func:`cenmcc.families.mcc_z_a_journal`).
    Smallest counterexample: ``N = 3, A = 2`` gives -1/6 instead of -1/22.

    Examples
    --------
    >>> round(float(mcc_z_a_preprint(3, np.float64(2))), 6)
    -0.166667
    """
    with np.errstate(divide="ignore", invalid="ignore"):  # the pole: ±inf (nan if also A = 1)
        return -(a - 1) / ((n - 1) * (n**2 - 2 * a - 2))


def mcc_z_a_limit_preprint(n):
    """The preprint's limit of MCC(Z_A) for ``A -> ∞``, ``-1/(N - 1)``: twice the true one.

    Neither the limit of the true MCC(Z_A), ``-1/(2(N-1))``
    (:func:`cenmcc.families.mcc_z_a_limit_journal`), nor of the preprint's own formula
    :func:`mcc_z_a_preprint` (``+1/(2(N-1))``).

    Examples
    --------
    >>> float(mcc_z_a_limit_preprint(np.float64(3)))
    -0.5
    """
    return -1 / (n - 1)


def cen_dice_limit_preprint(n, log=np.log):
    """The preprint's limit of the dice CEN, ``(N-1)/(2N) log_{2N-2}(N) + 1``, above 1.

    Notes
    -----
    Preprint, Sec. 2 prints ``\\frac{N-1}{2N} \\log_{2N-2} N + 1``, read literally with ``+ 1``
    outside the logarithm; the other literal grouping ``(N-1)/(2N) (log N + 1)`` is also wrong
    (0.833 at N = 3 against 1/3). The journal prints ``log_{2N-2}(N + 1)``
    (:func:`cenmcc.families.cen_dice_limit_journal`), which is the limit: the preprint's formula
    is most likely that one with its parentheses lost.

    Examples
    --------
    >>> round(float(cen_dice_limit_preprint(np.float64(3))), 6)  # 1/3 log_4(3) + 1
    1.26416
    """
    return (n - 1) / (2 * n) * (log(n) / log(2 * n - 2)) + 1


def eq3_first_line_preprint(C, *, zero_division: float = 0.0) -> np.ndarray:
    """The preprint's first line of Eq. (3), without ``1/k``, which is not its second line.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class.
    zero_division : float, default 0.0
        MCC used where the MCC is 0/0 (see :func:`cenmcc.mcc`).

    Returns
    -------
    ndarray, shape (...)
        ``(1 - MCC) (1 + log_{2K-2}(sum_ij C_ij / K)) (1 - 1/K)``.

    Notes
    -----
    The argument of the logarithm is ``sum_ij C_ij / N``. It is not invariant under scaling of
    the matrix, unlike the second line ``(1 - MCC)(1 - log_{2N-2}(1 - ACC))(1 - 1/N)``
    (:func:`cenmcc.tmcc`), and equals it only where ``N`` samples are misclassified. The
    journal's argument (:func:`cenmcc.families.eq3_first_line_journal`) makes the two lines
    equal.

    Examples
    --------
    >>> C = [[5, 1, 1], [1, 5, 1], [1, 1, 5]]
    >>> round(float(eq3_first_line_preprint(C)), 6)  # (3/7)(1 + log_4(21/3))(2/3)
    0.686765
    """
    mcc = cenmcc.mcc(C, zero_division=zero_division)  # validates C
    C = np.asarray(C)
    K = C.shape[-1]
    total = C.sum(axis=(-2, -1), dtype=np.float64)
    return (1.0 - mcc) * (1.0 + np.log(total / K) / np.log(2.0 * K - 2.0)) * (1.0 - 1.0 / K)
