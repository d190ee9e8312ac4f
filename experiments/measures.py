"""Measures shared by the experiments that go beyond cenmcc's public functions."""

from __future__ import annotations

import numpy as np

import cenmcc


def mcc_counting_fills(M) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cenmcc.mcc` of a stack, and where it is 0/0 (filled with 0).

    The MCC is 0/0 exactly when every sample is predicted as one class or belongs to one class
    (a column or a row holds everything). cenmcc fills those with 0, as the papers do, and warns;
    here they are found first, exactly, and set to 0, and cenmcc computes the others only, with
    NaN as its fill value: a NaN among them would mean the two disagree, and raises. No warning
    is emitted or caught, so this is safe in threads (``warnings.catch_warnings`` is not).

    Returns
    -------
    values : ndarray, shape (n,)
    undefined : ndarray of bool, shape (n,)

    Raises
    ------
    RuntimeError
        If cenmcc finds a 0/0 MCC that the exact test did not.
    """
    # One class holds every sample exactly when the sum of squared class sizes is s².
    m = M if isinstance(M, cenmcc.Counts) else cenmcc.Counts(M)
    t, p = m.true, m.pred
    s2 = m.total**2
    undefined = (np.einsum("...i,...i->...", t, t) == s2) | (
        np.einsum("...j,...j->...", p, p) == s2
    )
    values = np.zeros(undefined.shape)
    if undefined.any():
        values[~undefined] = cenmcc.mcc(m.C[~undefined], zero_division=np.nan)
    else:
        values[...] = cenmcc.mcc(m, zero_division=np.nan)
    if np.isnan(values).any():
        raise RuntimeError(
            f"cenmcc.mcc is 0/0 for {int(np.isnan(values).sum())} matrices that have two "
            "classes with samples and two predicted classes"
        )
    return values, undefined
