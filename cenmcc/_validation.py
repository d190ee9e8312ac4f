"""Input checks shared by every public entry point of cenmcc.

Each check returns the validated array or raises ``TypeError``/``ValueError`` naming the
problem and, where there is one, the first offending index or value. Nothing is silently
coerced: integer counts stay integers (sums are exact), floats are computed in float64.
"""

from __future__ import annotations

import numpy as np

#: Tolerance for "sums to 1" checks of probabilities and weights.
SUM_TOLERANCE = 1e-8


def _first_index(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def check_counts(C, *, name: str = "C") -> tuple[np.ndarray, float]:
    """Validate a stack of confusion matrices of shape ``(..., K, K)``.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Counts (integer) or weighted counts (float); rows are true classes, columns predicted.
    name : str
        Name used in error messages.

    Returns
    -------
    C : numpy.ndarray
        ``C`` as ``int64`` (integer input) or ``float64`` (float input), without a copy when it
        already has that dtype.
    max_count : int or float
        The largest count (0 for an empty stack).

    Raises
    ------
    TypeError
        If the counts are not integer or real floating point (booleans, complex, objects).
    ValueError
        If ``C`` has fewer than 2 dimensions, is not square in its last two axes, has K < 2, or
        holds negative, NaN or infinite values, or integers so large that sums would overflow.
    """
    C = np.asarray(C)
    if C.dtype == np.bool_ or not (
        np.issubdtype(C.dtype, np.integer) or np.issubdtype(C.dtype, np.floating)
    ):
        raise TypeError(f"{name} must hold integer or real float counts, got dtype {C.dtype}")
    if C.ndim < 2:
        raise ValueError(f"{name} must have at least 2 dimensions (..., K, K), got shape {C.shape}")
    if C.shape[-1] != C.shape[-2]:
        raise ValueError(f"{name} must be square in its last two axes, got shape {C.shape}")
    K = C.shape[-1]
    if K < 2:
        raise ValueError(f"{name} must have K >= 2 classes, got K = {K}")
    floating = C.dtype.kind == "f"
    if C.size == 0:
        return C.astype(np.float64 if floating else np.int64, copy=False), 0
    lo, hi = C.min(), C.max()
    if floating:
        C = C.astype(np.float64, copy=False)
        if not (np.isfinite(lo) and np.isfinite(hi)):
            idx = _first_index(~np.isfinite(C))
            raise ValueError(f"{name} must be finite, found {C[idx]} at index {idx}")
    elif int(hi) > np.iinfo(np.int64).max // (K * K):
        # Sums of K*K cells must stay exact in int64.
        raise ValueError(
            f"{name} holds a count of {int(hi)}, too large to sum {K}x{K} cells exactly in int64"
        )
    if lo < 0:
        idx = _first_index(C < 0)
        raise ValueError(f"{name} must be non-negative, found {C[idx]} at index {idx}")
    if not floating:
        C = C.astype(np.int64, copy=False)
        hi = int(hi)
    return C, hi


def check_nonempty(total: np.ndarray, *, name: str = "C") -> None:
    """Raise ``ValueError`` if any matrix of the stack has no samples (all cells zero)."""
    empty = total == 0
    if np.any(empty):
        where = _first_index(empty) if np.ndim(empty) else ()
        raise ValueError(
            f"{name} has a matrix with no samples (all counts zero)"
            + (f" at stack index {where}" if where else "")
            + "; the metric needs at least one sample"
        )


def check_weights(weights, K: int, *, name: str = "weights", sum_to_one: bool) -> np.ndarray:
    """Validate class weights of shape ``(..., K)``: finite, non-negative, summing to 1 if asked.

    With ``sum_to_one=False`` the weights must have a positive sum instead.
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim < 1 or w.shape[-1] != K:
        raise ValueError(f"{name} must have shape (..., {K}) for K = {K} classes, got {w.shape}")
    if not np.all(np.isfinite(w)):
        idx = _first_index(~np.isfinite(w))
        raise ValueError(f"{name} must be finite, found {w[idx]} at index {idx}")
    if np.any(w < 0):
        idx = _first_index(w < 0)
        raise ValueError(f"{name} must be non-negative, found {w[idx]} at index {idx}")
    total = w.sum(axis=-1)
    if sum_to_one:
        bad = np.abs(total - 1.0) > SUM_TOLERANCE
        if np.any(bad):
            value = total[_first_index(bad)] if total.ndim else total
            raise ValueError(f"{name} must sum to 1 (within {SUM_TOLERANCE:g}), got {value!r}")
    elif np.any(total <= 0):
        raise ValueError(f"{name} must have a positive sum")
    return w


def check_labels(y_true, y_pred, *, names: tuple[str, str] = ("y_true", "y_pred")):
    """Validate two 1-D label arrays of the same, non-zero length."""
    a, b = np.asarray(y_true), np.asarray(y_pred)
    for arr, nm in ((a, names[0]), (b, names[1])):
        if arr.ndim != 1:
            raise ValueError(f"{nm} must be 1-D, got shape {arr.shape}")
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same length, "
            f"got {a.shape[0]} and {b.shape[0]}"
        )
    if a.shape[0] == 0:
        raise ValueError(f"{names[0]} and {names[1]} are empty; at least one sample is needed")
    return a, b
