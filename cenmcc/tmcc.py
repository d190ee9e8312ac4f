"""The transformed MCC (tMCC) and the constant k that relates it to CEN (tMCC ≈ k·CEN)."""

from __future__ import annotations

import numpy as np

from ._marginals import Counts
from ._metric import count_metric
from ._validation import as_array, check_real, is_real
from .correlation import exact_mcc, mcc

#: ``(a, b, c)`` of ``k(K) = a (1 + b / ln K + c / ln^2 K)``, printed with Eq. (3) of Jurman &
#: Furlanello (2010) and Jurman, Riccadonna & Furlanello (2012).
K_PAPER = (1.012, 0.18924, -0.06694)


def k_factor(K, a: float = K_PAPER[0], b: float = K_PAPER[1], c: float = K_PAPER[2]):
    """The constant k of Eq. (3): ``k(K) = a (1 + b / ln K + c / ln^2 K)``.

    Parameters
    ----------
    K : int or array_like of int
        Number of classes, at least 2. A real K between integers evaluates the fitted curve
        (the experiments draw it); NaN, infinities, booleans and complex numbers are refused.
    a, b, c : float
        Coefficients, finite; the defaults are the printed ones, :data:`K_PAPER`.

    Returns
    -------
    float or ndarray
        ``k(K)``, with the natural logarithm (``log`` in the papers).

    Notes
    -----
    Jurman & Furlanello (2010), Eq. (3); Jurman, Riccadonna & Furlanello (2012), Eq. (3).

    Examples
    --------
    >>> round(float(k_factor(3)), 6)
    1.130193
    """
    K = as_array(K, name="K")
    if not is_real(K):
        raise TypeError(f"K must be a real number of classes, got {K!r}")
    bad = ~np.isfinite(K) | (K < 2) if K.dtype.kind == "f" else K < 2
    if np.any(bad):
        raise ValueError(f"K must be a finite number of classes >= 2, got {K[bad].ravel()[0]!r}")
    a, b, c = (check_real(x, name=n) for x, n in ((a, "a"), (b, "b"), (c, "c")))
    ln = np.log(K.astype(np.float64))
    return a * (1.0 + b / ln + c / ln**2)


@count_metric("MCC", label="tMCC", greater_is_better=False, bounds=(0.0, np.inf))
def tmcc(m: Counts, *, zero_division: float = 0.0) -> np.ndarray:
    """Transformed MCC: the right member of Eq. (3) without the ``1/k`` factor, so tMCC ≈ k·CEN.

    Lower is better, like CEN; 0 for perfect classification.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Confusion matrices, rows = true class, columns = predicted class.
    zero_division : float, default 0.0
        MCC used where the MCC is 0/0 (see :func:`cenmcc.mcc`); counted in one warning.

    Returns
    -------
    ndarray, shape (...)
        ``tMCC = (1 - MCC) (1 - log_{2K-2}(1 - ACC)) (1 - 1/K)``, non-negative; 0 when ACC = 1
        (the limit, since then MCC = 1 and ``(1 - ACC) log(1 - ACC) -> 0``).

    Notes
    -----
    Eq. (3), Jurman & Furlanello 2010 and Jurman, Riccadonna & Furlanello 2012::

        CEN ≈ (1/k) (1 - MCC) (1 + log_{2N-2}(sum_ij C_ij / X)) (1 - 1/N)
            = (1/k) (1 - MCC) (1 - log_{2N-2}(1 - ACC)) (1 - 1/N)

    The journal version prints ``X = sum_{i != j} C_ij`` and the preprint prints ``X = N``; only
    the journal's equals ``1/(1 - ACC)`` and so the second line, which is what this function
    computes. For the matrices ``B(T, F)`` (T on the diagonal, F elsewhere) the relation is
    exact with k = 1.

    Accepted range and precision: see the package docstring (:mod:`cenmcc`); the sums are exact
    integers (:mod:`cenmcc._exact`).

    Examples
    --------
    >>> C = [[5, 1, 1], [1, 5, 1], [1, 1, 5]]  # B(T=5, F=1): tMCC equals CEN exactly
    >>> from cenmcc import cen
    >>> bool(abs(tmcc(C) - cen(C)) < 1e-12)
    True
    """
    K = m.n_classes
    one_minus, undefined = _one_minus_mcc(m, zero_division)
    log_error, perfect = m.exact.log_error_rate()  # ln(1 - ACC)
    out = one_minus * (1.0 - log_error / np.log(2.0 * K - 2.0)) * (1.0 - 1.0 / K)
    return np.where(perfect, 0.0, out), undefined


def _one_minus_mcc(m: Counts, zero_division: float) -> tuple[np.ndarray, np.ndarray]:
    """``1 - MCC`` to a few units in the last place, also where the MCC is close to 1.

    With ``D = sqrt(V_p V_t)`` (the MCC's denominator, :func:`cenmcc.mcc`) and
    ``N`` its numerator, ``1 - MCC = (D - N) / D`` and ``D - N = A - B``, where
    ``A = (V_p + V_t)/2 - N = s (s - c) - sum_k (p_k - t_k)^2 / 2`` is an exact integer and
    ``B = (V_p + V_t)/2 - D = (V_p - V_t)^2 / (2 (sqrt V_p + sqrt V_t)^2) >= 0``. Where
    MCC > 1/2, ``B <= (D - N)/2`` (because ``N <= min(V_p, V_t)``), so ``A - B`` does not
    cancel; elsewhere ``1 - MCC`` itself does not.
    """
    mcc_, undefined = mcc.definition.compute(m, zero_division=zero_division)
    var_pred, var_true = m.exact.term("var_pred"), m.exact.term("var_true")
    spread, difference = m.exact.term("spread"), m.exact.term("var_difference")
    root_pred, root_true = np.sqrt(var_pred), np.sqrt(var_true)
    near_one = mcc_ > 0.5  # 0/0 fills included: their A and B are 0/0 too, so they are excluded
    near_one &= root_pred * root_true > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        b = 0.5 * np.square(difference / (root_pred + root_true))
        accurate = (spread - b) / (root_pred * root_true)
    values = np.where(near_one, accurate, 1.0 - mcc_)
    return m.exact.override(values, _exact_one_minus_mcc), undefined


def _exact_one_minus_mcc(terms: dict) -> float | None:
    """``1 - MCC`` from exact integers: ``(1 - MCC^2) / (1 + MCC)``, with ``1 - MCC^2`` one
    correctly rounded quotient ``(V_p V_t - N^2) / (V_p V_t)``; None where the MCC is 0/0."""
    mcc = exact_mcc(terms)
    if mcc is None or mcc <= 0:
        return None if mcc is None else 1.0 - mcc
    product = terms["var_pred"] * terms["var_true"]
    return (product - terms["numerator"] ** 2) / product / (1.0 + mcc)
