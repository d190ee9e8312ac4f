"""The parameters of the families, checked, and the base ``2N - 2`` of CEN's logarithm.

One place for the checks that every constructor and closed form of :mod:`cenmcc.families`
applies to its parameters.
"""

from __future__ import annotations

import numpy as np

from .._validation import _first_index, as_array, is_integer, is_real, real_array


def check_parameters(minimum: float, *, strict: bool = False, **values) -> list[np.ndarray]:
    """Broadcast named real parameters, check them finite and ``>= minimum`` (``>`` if strict).

    Returns the arrays in the order given, all ``int64`` if every parameter is integer and all
    ``float64`` otherwise.
    """
    arrays = {}
    for name, value in values.items():
        a = as_array(value, name=name)
        if not is_real(a):
            raise TypeError(f"{name} must be integer or real, got dtype {a.dtype}")
        if not np.all(np.isfinite(a)):
            idx = _first_index(~np.isfinite(np.atleast_1d(a)))
            raise ValueError(f"{name} must be finite, found {np.atleast_1d(a)[idx]} at {idx}")
        bad = np.atleast_1d(a <= minimum if strict else a < minimum)
        if np.any(bad):
            idx = _first_index(bad)
            relation = ">" if strict else ">="
            raise ValueError(f"{name} must be {relation} {minimum}, got {np.atleast_1d(a)[idx]}")
        arrays[name] = a
    integer = all(is_integer(a) for a in arrays.values())
    dtype = np.int64 if integer else np.float64
    return [a.astype(dtype) for a in np.broadcast_arrays(*arrays.values())]


def as_classes(N) -> np.ndarray:
    """``N`` (scalar or array of integers >= 2) as float64 for the closed forms."""
    n = as_array(N, name="N")
    if not is_integer(n):
        raise TypeError(f"N must be an integer number of classes, got {N!r}")
    if np.any(n < 2):
        raise ValueError(f"N must be at least 2, got {N!r}")
    return n.astype(np.float64)


def classes_and_corner(N, A) -> tuple[np.ndarray, np.ndarray]:
    """``N`` (:func:`as_classes`) and the family's entry ``A`` as float64, for the closed forms
    of the ``Z_A`` and dice families."""
    return as_classes(N), real_array(A, name="A")


def log_b(x, n, log=np.log):
    """``log_{2N-2}(x)``, the logarithm of CEN (Eq. (1)); ``log`` is the natural logarithm of
    the arithmetic at hand (``np.log`` for float arrays, ``sympy.log`` for symbols)."""
    return log(x) / log(2 * n - 2)
