"""The intervals that draw no resample: Wald's and Fisher's z intervals of the delta method
(written-out or numerical gradients in the cell proportions), Wilson's score interval and the
kappa variance of Fleiss, Cohen & Everitt.

The delta method's variance of a measure with gradient ``g`` in the cell proportions ``p`` of
``n`` items is the quadratic form of the multinomial covariance ``(diag(p) - p p^T) / n``:
``(sum p g^2 - (sum p g)^2) / n`` (:func:`delta_covariance`). Wald's interval is the estimate
``+/- z`` times its root; Fisher's z interval is the same on ``atanh``'s scale, mapped back with
``tanh`` (:func:`fisher_interval`), for measures whose range is [-1, 1].
"""

from __future__ import annotations

import numpy as np

# scipy.special is imported in the functions that use it: `import cenmcc`, which a
# simulation's workers do, loads numpy only (tests/experiments/test_random_matrices.py).
from ..registry import Measure
from .arguments import builtin
from .gradients import GRADIENTS
from .resampling import matrix_values, one_cell_changes

#: The measures that are the proportion of items on the diagonal, for Wilson's interval, and
#: the micro-averaged MCC, an increasing affine function of it.
PROPORTIONS = ("accuracy", "f1_micro", "precision_micro", "recall_micro", "micro_mcc")

#: Relative step of the central differences on the proportions, about eps^(1/3).
STEP = 6e-6

#: One-sided differences of a cell that differ by more than this share of the largest
#: (both per relative change of a cell) mean the measure has no gradient there.
KINK = 1e-2


#: The methods on Fisher's z scale: for measures whose range is [-1, 1].
FISHER_Z = ("fisher_z", "mover")


def check_closed_form(method: str, m: Measure) -> None:
    """Refuse a closed form asked for a measure it is not written for (by identity:
    :func:`.arguments.builtin`), or a method on Fisher's z scale for a measure whose range is
    not [-1, 1]."""
    if method == "wilson" and builtin(m) not in PROPORTIONS:
        raise ValueError(f"method 'wilson' is for {list(PROPORTIONS)}, not {describe(m)}")
    if method == "fce" and builtin(m) != "cohen_kappa":
        raise ValueError(f"method 'fce' is for 'cohen_kappa', not {describe(m)}")
    if method in FISHER_Z and m.bounds != (-1.0, 1.0):
        raise ValueError(
            f"method {method!r} (Fisher's z) is for measures whose range is [-1, 1], not "
            f"{describe(m)} (range {list(m.bounds)}); use 'wald'"
        )


def describe(m: Measure) -> str:
    """``'name'``, or ``a user's measure named 'name'`` where it is not the built-in one."""
    return repr(m.name) if builtin(m) == m.name else f"a user's measure named {m.name!r}"


def gradient(C: np.ndarray, m: Measure, undefined=None) -> np.ndarray:
    """The gradient ``(M, cells)`` of ``m`` in the cell proportions of each matrix of ``C``.

    Written out for the MCCs of :data:`.gradients.GRADIENTS` (NaN where the measure is
    0/0); otherwise central differences of relative step :data:`STEP`
    (:func:`.resampling.one_cell_changes`, in blocks), where an empty cell, whose proportion
    has no variance, gets 0, and a matrix flagged in ``undefined`` ``(M,)`` gets NaN. Raises
    ValueError where the one-sided differences of a cell disagree (a kink) or are not finite:
    the measure has no gradient there.
    """
    flat = C.reshape(C.shape[0], C.shape[1] * C.shape[2])
    name = builtin(m)
    if name in GRADIENTS:
        return GRADIENTS[name](C).reshape(flat.shape)
    M = C.shape[0]
    p = flat / flat.sum(axis=1, keepdims=True)
    skip = np.zeros(M, bool) if undefined is None else np.asarray(undefined, bool)
    h = np.where(skip[:, None], 0.0, STEP * p)
    values_of = matrix_values(C.shape[1:], [m])
    f0 = values_of(p[None])[0][m.name][0]
    group, cell, up = one_cell_changes(p, h, values_of)
    down = one_cell_changes(p, -h, values_of)[2]
    f1, f2, step, f = up[m.name], down[m.name], h[group, cell], f0[group]
    forward, backward = (f1 - f) / step, (f - f2) / step
    with np.errstate(invalid="ignore"):
        jump = (
            np.abs(forward - backward) * p[group, cell]
        )  # the change of slope, per relative change
        scale = np.zeros(M)
        np.maximum.at(scale, group, (np.abs(forward) + np.abs(backward)) * p[group, cell])
        noise = 1e-7 * (1 + np.abs(f))  # rounding of f, divided by the step
        kink = ~np.isfinite(forward + backward) | (jump > KINK * scale[group] + noise)
    if kink.any():
        first = np.flatnonzero(kink)[0]
        raise ValueError(
            f"measure {m.name!r} has no gradient in the cell proportions of matrix "
            f"{int(group[first])} (at cell {int(cell[first])}): use method='bca' or 'percentile'"
        )
    g = np.zeros_like(p)
    g[skip] = np.nan
    g[group, cell] = (f1 - f2) / (2 * step)
    return g


def delta_covariance(p: np.ndarray, g: np.ndarray, h: np.ndarray, n) -> np.ndarray:
    """``g^T (diag(p) - p p^T) h / n`` over the last axis: the delta method's covariance of two
    functions with gradients ``g`` and ``h`` in the proportions ``p`` of ``n`` items."""
    return ((p * g * h).sum(axis=-1) - (p * g).sum(axis=-1) * (p * h).sum(axis=-1)) / n


def delta_variance(p: np.ndarray, g: np.ndarray, n) -> np.ndarray:
    """``g^T (diag(p) - p p^T) g / n`` over the last axis: the delta method's variance."""
    return np.maximum(delta_covariance(p, g, g, n), 0.0)


def fisher_interval(theta, se, z):
    """``tanh(atanh(theta) +/- z se / (1 - theta^2))``: the interval of Fisher's z of a measure
    in (-1, 1) with standard error ``se``; the point ``theta`` where ``|theta| = 1`` (the slope
    of ``atanh`` is infinite there and the delta method's variance 0)."""
    theta, se = np.asarray(theta, dtype=np.float64), np.asarray(se, dtype=np.float64)
    inside = np.abs(theta) < 1
    with np.errstate(divide="ignore", invalid="ignore"):
        centre = np.arctanh(np.where(inside, theta, 0.0))
        half = z * se / (1 - theta**2)
        low = np.where(inside, np.tanh(centre - half), theta)
        high = np.where(inside, np.tanh(centre + half), theta)
    return low, high


def analytic(C, m: Measure, theta, level, method, undefined):
    """Wald, Fisher's z or closed-form intervals of each matrix, as :func:`bootstrap` gives
    them (``undefined`` ``(M,)``: the matrices whose measure is 0/0, with no interval)."""
    from scipy.special import ndtri

    C = C.astype(np.float64)  # products of counts such as n**3 overflow int64 within its limit
    M = C.shape[0]
    flat = C.reshape(M, C.shape[1] * C.shape[2])
    n = flat.sum(axis=1)
    z = ndtri((1 + level) / 2)
    if method == "wilson":
        correct = np.trace(C, axis1=-2, axis2=-1)
        low, high = wilson_interval(correct, n, level)
        se = np.sqrt(correct * (n - correct) / n**3)
        if builtin(m) == "micro_mcc":  # (K accuracy - 1) / (K - 1), increasing in the accuracy
            K = C.shape[-1]
            low, high, se = (K * low - 1) / (K - 1), (K * high - 1) / (K - 1), K * se / (K - 1)
    else:
        if method == "fce":
            se = kappa_standard_error(C)
        else:
            g = gradient(C, m, undefined)
            se = np.sqrt(delta_variance(flat / n[:, None], g, n))
        if method == "fisher_z":
            low, high = fisher_interval(theta, se, z)
        else:
            low, high = theta - z * se, theta + z * se
        low, high = np.clip(low, *m.bounds), np.clip(high, *m.bounds)
    return {"low": low, "high": high, "standard_error": se, "n_undefined": np.zeros(M, int)}


def wilson_interval(successes, n, level: float = 0.95):
    """Wilson's score interval of a binomial proportion ``successes / n``.

    Notes
    -----
    Wilson (1927), *J. Amer. Statist. Assoc.* 22:209, the interval as Agresti & Coull (1998)
    Eq. (2) write it: ``(x + z^2/2) / (n + z^2) +/- z sqrt(x (n - x) / n + z^2/4) / (n + z^2)``
    with ``z = Phi^-1((1 + level) / 2)``; the tests check it against
    :meth:`scipy.stats.binomtest`'s ``proportion_ci(method="wilson")``.

    Examples
    --------
    >>> [round(float(x), 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    from scipy.special import ndtri

    x, n = np.asarray(successes, dtype=np.float64), np.asarray(n, dtype=np.float64)
    z = ndtri((1 + level) / 2)
    center = (x + z**2 / 2) / (n + z**2)
    half = z * np.sqrt(x * (n - x) / n + z**2 / 4) / (n + z**2)
    return center - half, center + half


def kappa_standard_error(C) -> np.ndarray:
    """The large-sample standard error of Cohen's kappa (Fleiss, Cohen & Everitt 1969).

    Notes
    -----
    With proportions ``p_ij``, row sums ``p_i.``, column sums ``p_.j``, ``p_o = sum p_ii``,
    ``p_e = sum p_i. p_.i`` and kappa ``k``:
    ``var(k) = [sum_i p_ii (1 - (p_i. + p_.i)(1 - k))^2 + (1 - k)^2 sum_{i != j} p_ij
    (p_.i + p_j.)^2 - (k - p_e (1 - k))^2] / (n (1 - p_e)^2)``, the variance of Fleiss, Cohen
    & Everitt (1969), *Psychological Bulletin* 72(5):323-327, as Fleiss, Levin & Paik (2003,
    *Statistical Methods for Rates and Proportions*, Sec. 18.1) print it; we could not check
    the equation's number in the 1969 paper. The tests check it against the numerical delta
    method (it is the delta method's variance, written out). NaN where kappa is 0/0.

    Examples
    --------
    >>> round(float(kappa_standard_error([[40, 10], [5, 45]])), 4)
    0.0711
    """
    C = np.asarray(C, dtype=np.float64)
    n = C.sum(axis=(-2, -1))
    p = C / n[..., None, None]
    row, col = p.sum(axis=-1), p.sum(axis=-2)
    diag = np.diagonal(p, axis1=-2, axis2=-1)
    po, pe = diag.sum(axis=-1), (row * col).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (po - pe) / (1 - pe)
        k1 = (1 - k)[..., None]
        on = (diag * (1 - (row + col) * k1) ** 2).sum(axis=-1)
        spread = col[..., :, None] + row[..., None, :]  # p_.i + p_j. at (i, j)
        off_diagonal = 1 - np.eye(C.shape[-1])
        off = (1 - k) ** 2 * (p * spread**2 * off_diagonal).sum(axis=(-2, -1))
        var = (on + off - (k - pe * (1 - k)) ** 2) / (n * (1 - pe) ** 2)
    return np.sqrt(np.maximum(var, 0.0))
