"""The first line of Eq. (3) of the journal, which equals its second line, the TMCC."""

from __future__ import annotations

import numpy as np

from .._marginals import Counts
from ..correlation import mcc


def eq3_first_line_journal(C, *, zero_division: float = 0.0) -> np.ndarray:
    """First line of Eq. (3) as the journal prints it, without ``1/k``: equals the second line.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class.
    zero_division : float, default 0.0
        MCC used where the MCC is 0/0 (see :func:`cenmcc.mcc`).

    Returns
    -------
    ndarray, shape (...)
        ``(1 - MCC) (1 + log_{2K-2}(sum_ij C_ij / sum_{i != j} C_ij)) (1 - 1/K)``, 0 where no
        sample is misclassified (the limit, as for :func:`cenmcc.tmcc`).

    Notes
    -----
    Journal, Eq. (3), first line, ``1z log2N{2 (sum_{i,j} Cij / sum_{i,j, i=j} Cij)`` with the
    extracted ``=`` read as ``≠``. Since ``1 - ACC = sum_{i != j} C_ij / sum_ij C_ij`` it is
    identically the second line, :func:`cenmcc.tmcc`; on ``B(T, F)`` it is exactly the CEN
    (:func:`cen_b_from_mcc`).

    Examples
    --------
    >>> C = [[5, 1, 1], [1, 5, 1], [1, 1, 5]]
    >>> round(float(eq3_first_line_journal(C)), 6)  # = CEN of this B(5, 1)
    0.543908
    """
    m = Counts(C)
    K = m.n_classes
    values = mcc(m, zero_division=zero_division)
    wrong = m.total - m.correct  # exact for integer counts
    log_ratio = np.log(np.divide(m.total, wrong, out=np.ones(wrong.shape), where=wrong > 0))
    out = (1.0 - values) * (1.0 + log_ratio / np.log(2.0 * K - 2.0)) * (1.0 - 1.0 / K)
    return np.where(wrong == 0, 0.0, out)  # no sample misclassified: the limit, 0
