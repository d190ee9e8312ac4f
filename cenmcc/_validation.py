"""Input checks shared by every public entry point of cenmcc.

Each check returns the validated array or raises ``TypeError``/``ValueError`` naming the
problem and, where there is one, the first offending index or value. Nothing is silently
coerced: integer counts stay integers (sums are exact), floats are computed in float64.
"""

from __future__ import annotations

import numpy as np

#: Tolerance for "sums to 1" checks of probabilities and weights.
SUM_TOLERANCE = 1e-8


#: Largest valid cell seen as uint64: the largest int64, or the bits of the largest finite float.
_LARGEST = {
    "i": np.uint64(np.iinfo(np.int64).max),
    "f": np.array(np.finfo(np.float64).max).view(np.uint64),
}


def _first_index(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def is_integer(arr: np.ndarray) -> bool:
    """Whether ``arr`` holds integers: signed or unsigned, not booleans, not ``timedelta64``
    (which NumPy counts among the signed integers)."""
    return arr.dtype.kind in "iu"


def is_real(arr: np.ndarray) -> bool:
    """Whether ``arr`` holds integers (:func:`is_integer`) or floats that float64 holds exactly
    (at most 64 bits: a ``longdouble`` would be rounded)."""
    return is_integer(arr) or (arr.dtype.kind == "f" and arr.dtype.itemsize <= 8)


def as_array(values, *, name: str) -> np.ndarray:
    """``numpy.asarray(values)``, refusing masked arrays and ragged nested sequences clearly.

    A mask would be silently dropped by ``asarray``, so a ``numpy.ma.MaskedArray`` is a
    ``TypeError``; NumPy's own message for a ragged list ("inhomogeneous shape") becomes a
    ``ValueError`` naming the argument.
    """
    if isinstance(values, np.ma.MaskedArray):
        raise TypeError(
            f"{name} is a masked array; its mask would be ignored, so pass "
            f"{name}.filled(value) or {name}.compressed() explicitly"
        )
    try:
        return np.asarray(values)
    except ValueError as err:
        if "inhomogeneous" not in str(err):
            raise
        raise ValueError(
            f"{name} is ragged: its rows (or matrices) have different lengths"
        ) from None


def real_array(values, *, name: str) -> np.ndarray:
    """``values`` as float64, refusing masked, ragged, boolean, complex and non-numeric input."""
    arr = as_array(values, name=name)
    if not is_real(arr):
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64)


def check_real(value, *, name: str, low: float | None = None, integer: bool = False):
    """Validate one real number parameter: not bool, not complex, finite, ``>= low`` if given.

    Returns it as a Python ``int`` (with ``integer=True``, which also refuses non-integral
    values such as 2.5) or ``float``.
    """
    if isinstance(value, bool | np.bool_ | np.timedelta64) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if integer and value != int(value):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if low is not None and value < low:
        bound = "non-negative" if low == 0 else f"at least {low}"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    return int(value) if integer else float(value)


def check_integer(value, *, name: str, low: int) -> int:
    """Validate one integer parameter (a Python or NumPy integer, not a bool) ``>= low``."""
    if isinstance(value, bool | np.bool_ | np.timedelta64) or not isinstance(
        value, int | np.integer
    ):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return int(value)


def check_counts(C, *, name: str = "C", copy: bool = True) -> tuple[np.ndarray, float]:
    """Validate a stack of confusion matrices of shape ``(..., K, K)``.

    One pass over the cells finds every invalid value and the largest count.

    Parameters
    ----------
    C : array_like, shape (..., K, K)
        Counts (integer) or weighted counts (float); rows are true classes, columns predicted.
    name : str
        Name used in error messages.
    copy : bool, default True
        Whether to validate a private copy. With False, a C-contiguous ``int64`` or ``float64``
        array is validated in place and returned as a read-only view of it, so that changing
        the caller's array later changes what was validated; other input is converted (a copy).

    Returns
    -------
    C : numpy.ndarray
        ``C`` as a read-only C-contiguous ``int64`` (integer input) or ``float64`` (float input)
        array: a copy, or with ``copy=False`` possibly a view.
    max_count : int or float
        The largest count (0 for an empty stack).

    Raises
    ------
    TypeError
        If the counts are not integers or real floats of at most 64 bits (booleans, complex,
        objects, ``timedelta64``, ``datetime64`` and ``longdouble`` are refused), or are a
        masked array.
    ValueError
        If ``C`` is ragged (rows of different lengths), has fewer than 2 dimensions, is not
        square in its last two axes, has K < 2, or holds negative, NaN or infinite values, or
        integers so large that sums would overflow.
    """
    C = as_array(C, name=name)
    if not is_real(C):
        raise TypeError(f"{name} must hold integer or real float counts, got dtype {C.dtype}")
    if C.ndim < 2:
        raise ValueError(
            f"{name} must have at least 2 dimensions (..., K, K), got shape {C.shape}; for label "
            "vectors use cenmcc.confusion_matrix(y_true, y_pred) or cenmcc.from_labels"
        )
    if C.shape[-1] != C.shape[-2]:
        raise ValueError(f"{name} must be square in its last two axes, got shape {C.shape}")
    K = C.shape[-1]
    if K < 2:
        raise ValueError(f"{name} must have K >= 2 classes, got K = {K}")
    floating = C.dtype.kind == "f"
    if C.dtype == np.uint64 and C.size and C.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds a count of {int(C.max())}, too large for int64 sums")
    # Read-only, and a private copy unless asked otherwise: the caller changing its array later
    # cannot change what was validated.
    C = (np.array if copy else np.asarray)(C, dtype=np.float64 if floating else np.int64, order="C")
    C = C.view()
    C.flags.writeable = False
    if C.size == 0:
        return C, 0
    # One pass finds the largest count and any invalid value: seen as unsigned 64-bit integers,
    # negative numbers (sign bit set), infinities and NaNs (exponent all ones) are all larger
    # than the largest finite non-negative value.
    top = C.view(np.uint64).max()
    if top > _LARGEST[C.dtype.kind]:
        if floating and not np.all(np.isfinite(C)):
            idx = _first_index(~np.isfinite(C))
            raise ValueError(f"{name} must be finite, found {C[idx]} at index {idx}")
        if np.any(C < 0):
            idx = _first_index(C < 0)
            raise ValueError(f"{name} must be non-negative, found {C[idx]} at index {idx}")
        top = np.abs(C).view(np.uint64).max()  # only negative zeros: harmless
    hi = top.view(C.dtype).item()
    if not floating:
        _check_int64_sums(hi, K, name)
    return C, hi


def _check_int64_sums(largest: int, K: int, name: str, why: str = "") -> None:
    """Refuse integer counts whose sums of K*K cells could overflow int64."""
    if largest > np.iinfo(np.int64).max // (K * K):
        raise ValueError(
            f"{name} holds a count of {largest}, too large to sum {K}x{K} cells exactly in "
            f"int64{why}"
        )


def as_items(C: np.ndarray, *, name: str) -> np.ndarray:
    """Counts validated by :func:`check_counts` as ``int64`` numbers of items, for resampling.

    Resampling (:func:`cenmcc.confidence_interval`) draws items one by one, as integers: float
    counts must be whole numbers, and are held to the limit of integer counts (every cell at
    most ``(2**63 - 1) // K**2``) before they are converted, which would overflow beyond it.
    """
    if C.dtype.kind != "f":
        return C
    why = ": resampling draws items, counted as integers"
    if not np.array_equal(C, np.round(C)):
        raise ValueError(f"{name} must be whole numbers (one item per count){why}")
    if C.size:
        _check_int64_sums(int(C.max()), C.shape[-1], name, why)
    return C.astype(np.int64)


def check_nonempty(
    total: np.ndarray, *, name: str = "C", first: int = 0, stack_shape: tuple = ()
) -> None:
    """Raise ``ValueError`` if a matrix has no samples (all cells zero).

    ``total`` holds the totals of the matrices ``first, first + 1, ...`` of a flattened stack of
    shape ``stack_shape``; the error names the matrix's index in that stack.
    """
    empty = np.flatnonzero(np.ravel(total) == 0)
    if empty.size:
        where = np.unravel_index(first + int(empty[0]), stack_shape) if stack_shape else ()
        raise ValueError(
            f"{name} has a matrix with no samples (all counts zero)"
            + (f" at stack index {tuple(int(i) for i in where)}" if where else "")
            + "; the metric needs at least one sample"
        )


def check_weights(weights, K: int, *, name: str = "weights", sum_to_one: bool) -> np.ndarray:
    """Validate class weights of shape ``(..., K)``: finite, non-negative, summing to 1 if asked.

    With ``sum_to_one=False`` the weights must have a positive sum instead, and are returned
    scaled by a power of two (exactly) so that the largest of each row is in [1/2, 1): their
    sums cannot overflow, and a weighted mean does not depend on that factor.
    """
    w = real_array(weights, name=name)
    if w.ndim < 1 or w.shape[-1] != K:
        raise ValueError(f"{name} must have shape (..., {K}) for K = {K} classes, got {w.shape}")
    if not np.all(np.isfinite(w)):
        idx = _first_index(~np.isfinite(w))
        raise ValueError(f"{name} must be finite, found {w[idx]} at index {idx}")
    if np.any(w < 0):
        idx = _first_index(w < 0)
        raise ValueError(f"{name} must be non-negative, found {w[idx]} at index {idx}")
    if not sum_to_one:
        w = np.ldexp(w, -np.frexp(w.max(axis=-1, keepdims=True))[1])
    total = w.sum(axis=-1)
    if sum_to_one:
        bad = np.abs(total - 1.0) > SUM_TOLERANCE
        if np.any(bad):
            value = total[_first_index(bad)] if total.ndim else total
            raise ValueError(f"{name} must sum to 1 (within {SUM_TOLERANCE:g}), got {value!r}")
    elif np.any(total <= 0):
        raise ValueError(f"{name} must have a positive sum")
    return w


def check_scores(scores, n_samples: int, *, name: str = "scores") -> np.ndarray:
    """Validate a score matrix ``(n_samples, K)`` for the ``n_samples`` labels of ``y_true``.

    Returns the real, finite scores with one row per sample and ``K >= 2`` columns; floats as
    ``float64``, integers unchanged (their order and ties are exact).
    """
    s = as_array(scores, name=name)
    if not is_real(s):
        raise TypeError(f"{name} must hold real numbers, got dtype {s.dtype}")
    if s.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, K), got shape {s.shape}")
    if s.shape[0] != n_samples:
        raise ValueError(
            f"{name} must have one row per sample: y_true has {n_samples} samples, "
            f"{name} has {s.shape[0]} rows"
        )
    if s.shape[1] < 2:
        raise ValueError(f"{name} must have K >= 2 columns (one per class), got {s.shape[1]}")
    if s.dtype.kind == "f":
        s = s.astype(np.float64, copy=False)
        if not np.all(np.isfinite(s)):
            idx = _first_index(~np.isfinite(s))
            raise ValueError(f"{name} must be finite, found {s[idx]} at index {idx}")
    return s


def check_probabilities(proba, n_samples: int, *, name: str = "proba") -> np.ndarray:
    """Validate class probabilities: :func:`check_scores`, then rows on the simplex.

    The probabilities must be non-negative and each row must sum to 1 within
    :data:`SUM_TOLERANCE`; the error names the first offending entry or row and its sum.
    Returns the probabilities as ``float64``.
    """
    p = check_scores(proba, n_samples, name=name)
    p = p.astype(np.float64, copy=False)
    if np.any(p < 0):
        idx = _first_index(p < 0)
        raise ValueError(f"{name} must be non-negative, found {p[idx]} at index {idx}")
    total = p.sum(axis=1)
    bad = np.abs(total - 1.0) > SUM_TOLERANCE
    if np.any(bad):
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"each row of {name} must sum to 1 (within {SUM_TOLERANCE:g}); "
            f"row {row} sums to {float(total[row])!r}"
        )
    return p
