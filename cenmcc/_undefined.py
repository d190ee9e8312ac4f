"""The one rule for undefined values (0/0) shared by every metric of cenmcc.

Where a ratio is 0/0 the metric returns a documented fill value (its ``zero_division`` argument,
or the value its docstring names) and the call emits a single
:class:`~cenmcc.exceptions.UndefinedMetricWarning` saying how many values were filled. A ratio
whose denominator is 0 is never silently turned into NaN or infinity.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np

from .exceptions import UndefinedMetricWarning


def divide(num, den, fill: float, undefined=None) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise ``num / den`` in float64 with ``fill`` where ``den == 0``.

    ``undefined``, if given, says where the denominator is exactly 0 (for a ``den`` rounded
    from exact integers). Returns the quotient and where it was filled (undefined), of the
    quotient's shape; the caller counts them and warns once.
    """
    den = np.asarray(den)
    if undefined is None:
        undefined = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):  # where undefined: replaced below
        out = np.divide(num, den, dtype=np.float64)
    undefined = np.broadcast_to(undefined, out.shape)
    if undefined.any():
        out[undefined] = fill
    return out, undefined


def warn_undefined(n_undefined: int, n_total: int, what: str, fill: float) -> None:
    """Warn once that ``n_undefined`` of ``n_total`` values of ``what`` were set to ``fill``."""
    if n_undefined:
        message = (
            f"{what} is undefined (0/0) for {n_undefined} of {n_total} value(s); set to {fill}"
        )
        warnings.warn(UndefinedMetricWarning(message, n_undefined), stacklevel=caller_stacklevel())


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside cenmcc, for its caller's ``warnings.warn``.

    A warning then points at the line of the user's code that called the public function,
    however deep inside cenmcc it was raised.
    """
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.dirname(frame.f_code.co_filename) == _PACKAGE:
        frame, level = frame.f_back, level + 1
    return level
