"""What :func:`cenmcc.confidence_interval` returns: the ends of an interval, and the result."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np


class ConfidenceInterval(NamedTuple):
    """The ends of an interval, as in :func:`scipy.stats.bootstrap`."""

    low: np.ndarray
    high: np.ndarray


@dataclasses.dataclass(frozen=True)
class IntervalResult:
    """An interval of a measure for every matrix of a stack (``scipy.stats.bootstrap``'s names).

    Attributes
    ----------
    statistic : ndarray, shape (...)
        The measure of each matrix (NaN where it is undefined).
    confidence_interval : ConfidenceInterval
        ``low`` and ``high``, each of shape (...); NaN where the measure is undefined.
    standard_error : ndarray, shape (...)
        The bootstrap standard deviation (``ddof=1``), or the asymptotic standard error.
    n_undefined : ndarray of int, shape (...)
        Bootstrap resamples whose measure was 0/0: kept at the measure's fill value, or left
        out of the interval, the standard error and the p-value where the measure omits its
        undefined values; 0 for the methods that draw no resample.
    undefined : ndarray of bool, shape (...)
        Where the measure of the matrix itself is 0/0: no interval there.
    method : str or ndarray of str
        The method used; with ``method="auto"`` the one chosen, an array of shape (...) where
        the matrices of a stack got different ones.
    level : float
    n_resamples : int
        Resamples per matrix (0 where no method used draws any).
    """

    statistic: np.ndarray
    confidence_interval: ConfidenceInterval
    standard_error: np.ndarray
    n_undefined: np.ndarray
    undefined: np.ndarray
    method: str | np.ndarray
    level: float
    n_resamples: int
