"""Gradients of the MCCs in the cell proportions, for the delta method's closed forms.

The delta method's variance of a measure ``f`` of the proportions ``pi`` of a multinomial table
of ``n`` items is ``(sum pi g^2 - (sum pi g)^2) / n`` with ``g`` the gradient of ``f``
(:func:`.asymptotic.delta_variance`). Each function here writes ``f`` with the total set
to 1 (``sum pi = 1``) and differentiates it in the ``K^2`` proportions ``pi_ij`` (row ``i`` the
true class, column ``j`` the predicted one), with ``t_i`` the row sums and ``p_j`` the column
sums. Two functions equal on the simplex ``sum pi = 1`` have gradients that differ by a multiple
of the vector of ones, which the variance ignores: any such form gives the same variance.

The derivations are ours (the product and chain rules); the tests check each against the
numerical central differences of :func:`.asymptotic.gradient`, the binary MCC's variance
against the spread of simulated test sets, and the intervals' coverage by simulation. Where
the measure is 0/0 the gradient is NaN (the interval of such a matrix is NaN anyway).
"""

from __future__ import annotations

import numpy as np


def proportions(C) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The proportions ``pi`` ``(..., K, K)`` of counts ``C``, their row and column sums."""
    C = np.asarray(C, dtype=np.float64)
    pi = C / C.sum(axis=(-2, -1), keepdims=True)
    return pi, pi.sum(axis=-1), pi.sum(axis=-2)


def mcc_gradient(C) -> np.ndarray:
    """The gradient ``(..., K, K)`` of the MCC (Gorodkin's R_K) in the cell proportions.

    With ``N = sum_k pi_kk - sum_k t_k p_k``, ``A = 1 - sum_k p_k^2``, ``B = 1 - sum_k t_k^2``
    and ``R = N / sqrt(A B)``: ``dN/dpi_ij = [i = j] - p_i - t_j``, ``dA/dpi_ij = -2 p_j``,
    ``dB/dpi_ij = -2 t_i``, so
    ``dR/dpi_ij = ([i = j] - p_i - t_j) / sqrt(A B) + R (p_j / A + t_i / B)``.
    For K = 2 it is the binary MCC's.
    """
    pi, t, p = proportions(C)
    K = pi.shape[-1]
    A = (1 - (p**2).sum(axis=-1))[..., None, None]
    B = (1 - (t**2).sum(axis=-1))[..., None, None]
    N = (np.trace(pi, axis1=-2, axis2=-1) - (t * p).sum(axis=-1))[..., None, None]
    dN = np.eye(K) - p[..., :, None] - t[..., None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(A * B)
        return dN / root + N / root * (p[..., None, :] / A + t[..., :, None] / B)


def macro_mcc_gradient(C) -> np.ndarray:
    """The gradient ``(..., K, K)`` of the macro-averaged MCC in the cell proportions.

    The MCC of class k against the rest is ``phi_k = (a - x y) / D`` with ``a = pi_kk``,
    ``x = t_k``, ``y = p_k`` and ``D = sqrt(x (1 - x) y (1 - y))``; ``dphi_k/da = 1 / D``,
    ``dphi_k/dx = -y / D - phi_k (1 - 2x) / (2 x (1 - x))`` and symmetrically in ``y``. Cell
    ``(i, j)`` moves ``a`` if ``i = j = k``, ``x`` if ``i = k`` and ``y`` if ``j = k``; the
    gradient is the mean over k.
    """
    pi, x, y = proportions(C)
    K = pi.shape[-1]
    a = np.diagonal(pi, axis1=-2, axis2=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        D = np.sqrt(x * (1 - x) * y * (1 - y))
        phi = (a - x * y) / D
        da = 1 / D
        dx = -y / D - phi * (1 - 2 * x) / (2 * x * (1 - x))
        dy = -x / D - phi * (1 - 2 * y) / (2 * y * (1 - y))
        eye = np.eye(K)  # inf * 0 where a class is 0/0: NaN, as the docstring of the module says
        g = da[..., :, None] * eye + dx[..., :, None] + dy[..., None, :]  # (i, j): [i=j] da_i + ...
    return g / K


def micro_mcc_gradient(C) -> np.ndarray:
    """The gradient ``(..., K, K)`` of the micro-averaged MCC ``(K sum_k pi_kk - 1) / (K - 1)``:
    ``K / (K - 1)`` on the diagonal, 0 elsewhere."""
    C = np.asarray(C)
    K = C.shape[-1]
    return np.broadcast_to(np.eye(K) * K / (K - 1), C.shape).copy()


#: The measures whose gradient is written out, by name in :data:`cenmcc.MEASURES`.
GRADIENTS = {"mcc": mcc_gradient, "macro_mcc": macro_mcc_gradient, "micro_mcc": micro_mcc_gradient}
