"""Shared algebra of a confusion-matrix stack, computed once and only when a metric needs it.

Every metric of cenmcc is a function of the row sums, column sums, diagonal and total of the
counts (plus, for CEN, a function of each cell). :class:`Counts` validates the input once and
computes each of these on first use. Sums are taken in the dtype of the validated counts, so
they are exact for integer input. Every metric accepts a :class:`Counts` in place of an array,
so several metrics of one stack share the validation and the sums.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ._validation import check_counts, check_nonempty


class Counts:
    """Validated confusion matrices ``C`` of shape ``(..., K, K)`` with their marginals.

    Pass a ``Counts`` to several metrics to validate the stack and compute its marginals once.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Rows = true class, columns = predicted class.
    name : str
        Name used in error messages.

    Attributes
    ----------
    C : ndarray, shape (..., K, K)
        The counts, ``int64`` or ``float64``.
    max_count : int or float
        The largest count.
    true, pred, diag : ndarray, shape (..., K)
        Row sums ``t_k`` (samples of true class k), column sums ``p_k`` (samples predicted as
        class k) and diagonal ``C_kk``.
    total, correct : ndarray, shape (...)
        Number of samples ``s`` and trace ``c``.

    Raises
    ------
    TypeError, ValueError
        For invalid counts (see :func:`check_counts`) or a matrix without samples.

    Examples
    --------
    >>> import cenmcc
    >>> m = cenmcc.Counts([[5, 1, 0], [2, 6, 1], [0, 1, 7]])
    >>> round(float(cenmcc.cen(m)), 4), round(float(cenmcc.mcc(m)), 4)
    (0.3863, 0.6743)
    """

    def __init__(self, C, *, name: str = "C"):
        self.C, self.max_count = check_counts(C, name=name)
        check_nonempty(self.total, name=name)

    @property
    def n_classes(self) -> int:
        return self.C.shape[-1]

    @cached_property
    def total(self) -> np.ndarray:
        return np.einsum("...ij->...", self.C)

    @cached_property
    def correct(self) -> np.ndarray:
        return np.einsum("...ii->...", self.C)

    @cached_property
    def true(self) -> np.ndarray:
        return np.einsum("...ij->...i", self.C)

    @cached_property
    def pred(self) -> np.ndarray:
        return np.einsum("...ij->...j", self.C)

    @cached_property
    def diag(self) -> np.ndarray:
        return np.einsum("...ii->...i", self.C)


def as_counts(C) -> Counts:
    """``C`` itself if it is a :class:`Counts`, else ``Counts(C)`` (validated)."""
    return C if isinstance(C, Counts) else Counts(C)
