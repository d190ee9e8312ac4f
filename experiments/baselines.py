"""The implementations cenmcc is benchmarked against (never used to compute results).

- a straightforward NumPy version: vectorized over matrices, but following Eq. (1) literally,
  with the misclassification probabilities P^j_jk and P^j_kj materialized per class;
- PyCM through its public ``ConfusionMatrix`` and through its internal CEN/MCC functions;
- scikit-learn's ``matthews_corrcoef`` with the counts passed as sample weights.

PyCM and scikit-learn are test-only dependencies: :func:`peer_available` says whether they are
installed, and the benchmark reports them as missing otherwise.
"""

from __future__ import annotations

import importlib.util

import numpy as np
from scipy.special import xlogy


def straightforward_numpy(C: np.ndarray):
    """CEN, MCC and accuracy the textbook way: per-class probability arrays, then weighted sums."""
    C = C.astype(np.float64)
    K = C.shape[-1]
    total = C.sum(axis=(-2, -1))
    rows, cols = C.sum(axis=-1), C.sum(axis=-2)
    d = rows + cols
    off = 1.0 - np.eye(K)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_out = np.nan_to_num(C / d[..., :, None]) * off  # P^j_jk, class j = row
        p_in = np.nan_to_num(C / d[..., None, :]) * off  # P^j_kj, class j = column
    h = -(xlogy(p_out, p_out).sum(axis=-1) + xlogy(p_in, p_in).sum(axis=-2)) / np.log(2 * K - 2)
    cen = ((d / (2 * total[..., None])) * h).sum(axis=-1)
    correct = np.trace(C, axis1=-2, axis2=-1)
    cov_xy = correct * total - (rows * cols).sum(axis=-1)
    cov_xx = total**2 - (cols**2).sum(axis=-1)
    cov_yy = total**2 - (rows**2).sum(axis=-1)
    den = np.sqrt(cov_xx * cov_yy)
    mcc = np.divide(cov_xy, den, out=np.zeros_like(den), where=den > 0)
    return cen, mcc, correct / total


def peer_available(name: str) -> bool:
    """Whether the optional peer library ``name`` ("pycm" or "sklearn") is installed."""
    return importlib.util.find_spec(name) is not None


def pycm_public(C: np.ndarray):
    """Overall CEN and MCC of each matrix through PyCM's public ``ConfusionMatrix``."""
    from pycm import ConfusionMatrix

    out = []
    for c in C:
        cm = ConfusionMatrix(matrix={i: dict(enumerate(map(int, row))) for i, row in enumerate(c)})
        out.append((cm.overall_stat["Overall CEN"], cm.overall_stat["Overall MCC"]))
    return out


def pycm_functions(C: np.ndarray):
    """Overall CEN and MCC of each matrix through PyCM's internal functions only."""
    from pycm.class_funcs import CEN_calc
    from pycm.overall_funcs import overall_CEN_calc, overall_MCC_calc

    out = []
    classes = list(range(C.shape[-1]))
    for c in C:
        table = {i: {j: int(c[i, j]) for j in classes} for i in classes}
        P = {i: int(c[i].sum()) for i in classes}
        TOP = {i: int(c[:, i].sum()) for i in classes}
        TP = {i: int(c[i, i]) for i in classes}
        cen_j = {i: CEN_calc(classes, table, TOP[i], P[i], i) for i in classes}
        out.append(
            (overall_CEN_calc(classes, TP, TOP, P, cen_j), overall_MCC_calc(classes, table, TOP, P))
        )
    return out


def sklearn_mcc(C: np.ndarray):
    """scikit-learn's ``matthews_corrcoef`` of each matrix, counts passed as sample weights."""
    from sklearn.metrics import matthews_corrcoef

    K = C.shape[-1]
    y_true, y_pred = np.repeat(np.arange(K), K), np.tile(np.arange(K), K)
    return [matthews_corrcoef(y_true, y_pred, sample_weight=c.ravel()) for c in C]
