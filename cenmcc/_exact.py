"""Exact integer sums behind the MCC, Cohen's kappa, the expected accuracy, the tMCC and the
one-versus-rest measures (informedness, markedness, macro MCC).

These metrics are ratios of differences such as ``c s - sum_k t_k p_k`` and
``s^2 - sum_k p_k^2`` (Grandini et al. 2020, Eqs. (25) and (40)), which cancel catastrophically
in floating point: with a row sum above 2**53 the differences of 1 between the counts are lost
when they are converted to float64, and even below it the products ``t_k p_k`` are rounded
before they are subtracted. Here every such difference is computed exactly in integers and
rounded to float64 once, so each metric is within a few units in the last place of its exact
value (a relative error below 1e-15) for every count that validation accepts.

- Integer counts whose total ``s`` is below :data:`INT64_TOTAL_LIMIT` (2**31) take the fast,
  vectorized path: every product and sum below is smaller than ``2 s^2 < 2**63`` and so exact
  in ``int64``.
- Float counts are read exactly as integers: a matrix whose cells are all multiples of a power
  of two ``2**q`` is ``2**q`` times an integer matrix, and every metric here is invariant to
  that factor. When the integer matrix's total is below the limit it takes the fast path too.
- The other matrices (integer totals from 2**31 to 2**63, float cells spanning too many binary
  orders, as ``[[1e10, 0.1], ...]``) take an exact path in Python integers, one matrix at a
  time: correct, and slower, for the rare stacks that need it.

Each degree-2 term is returned in float64 divided by a power of two common to all terms of its
matrix (1 on the fast path), which keeps huge values finite and leaves every ratio unchanged.

The one-versus-rest measures (informedness, markedness, the macro MCC) are sums over the classes
of ratios of per-class degree-2 terms (:data:`_CLASS_TERMS`). :meth:`ExactSums.class_ratio`
rounds each such ratio of exact integers once to float64: a function of the rational number
alone, so a multiple ``a C`` of integer counts ``C`` gives the same bits as ``C``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

#: Totals of at most this many samples take the int64 path: then ``2 s^2 < 2**63``.
INT64_TOTAL_LIMIT = 2**31 - 1

#: Totals of at most this many samples have every per-class term (:data:`_CLASS_TERMS`, at most
#: ``s^2`` in magnitude) at most 2**53: exact in float64, so that their ratio is rounded once.
RATIO_FLOAT_TOTAL = math.isqrt(2**53)

#: On the Python-integer path, each matrix's terms are divided by ``2**(bits(s^2) - this)``
#: before rounding to float64, so that their products (at most 2**(2 * this)) stay finite.
_SCALED_BITS = 500


def _dot(a, b):
    if a.dtype == object:
        return (a * b).sum(axis=-1)
    return np.einsum("...k,...k->...", a, b)


#: The exact integer terms, from the total ``s``, its square ``ss``, the trace ``c``, row sums
#: ``t`` and column sums ``p`` of each matrix (Grandini et al. 2020, Sec. 5); all are
#: homogeneous of degree 2.
_TERMS = {
    "numerator": lambda s, ss, c, t, p: c * s - _dot(t, p),  # c s - sum t_k p_k
    "var_pred": lambda s, ss, c, t, p: ss - _dot(p, p),  # s^2 - sum p_k^2
    "var_true": lambda s, ss, c, t, p: ss - _dot(t, t),  # s^2 - sum t_k^2
    "kappa_den": lambda s, ss, c, t, p: ss - _dot(t, p),  # s^2 - sum t_k p_k
    "chance": lambda s, ss, c, t, p: _dot(t, p),  # sum t_k p_k
    "square": lambda s, ss, c, t, p: ss,
    # (var_pred + var_true) / 2 - numerator; sum (p_k - t_k)^2 is even since sum p_k = sum t_k.
    "spread": lambda s, ss, c, t, p: s * (s - c) - _dot(p - t, p - t) // 2,
    "var_difference": lambda s, ss, c, t, p: _dot(t, t) - _dot(p, p),  # var_pred - var_true
}


#: Exact integer terms of each class k, shape ``(n, K)``, from the total ``s`` (a column), the
#: diagonal ``d`` (``C_kk``), row sums ``t`` and column sums ``p``; all homogeneous of degree 2
#: and at most ``s^2`` in magnitude. Class k's one-versus-rest 2 x 2 table has the covariance
#: ``covariance / s^2`` (Powers 2011's ``dtp``) and the variances ``true_spread / s^2`` (of the
#: truth) and ``pred_spread / s^2`` (of the prediction).
_CLASS_TERMS = {
    "covariance": lambda s, d, t, p: s * d - t * p,  # s C_kk - t_k p_k
    "true_spread": lambda s, d, t, p: t * (s - t),  # t_k (s - t_k)
    "pred_spread": lambda s, d, t, p: p * (s - p),  # p_k (s - p_k)
    "true_rest": lambda s, d, t, p: s * (s - t),  # s (s - t_k)
    "pred_rest": lambda s, d, t, p: s * (s - p),  # s (s - p_k)
}


class ExactSums:
    """The exact sums of one block of validated matrices ``(n, K, K)``, computed on demand.

    Parameters
    ----------
    C : ndarray, shape (n, K, K)
        ``int64`` counts, or ``float64`` counts (any finite non-negative values, not scaled).
    true, pred, total, correct : ndarray or None
        The int64 marginals of integer ``C`` when already computed (they are reused); ignored
        for float ``C``.
    """

    def __init__(self, C: np.ndarray, true=None, pred=None, total=None, correct=None):
        if C.dtype.kind == "f":
            ints, exact = _dyadic_integers(C)
            true, pred = np.einsum("nij->ni", ints), np.einsum("nij->nj", ints)
            total, correct = np.einsum("ni->n", true), np.einsum("nii->n", ints)
            slow = ~exact | (total > INT64_TOTAL_LIMIT)
        else:
            ints, slow = C, total > INT64_TOTAL_LIMIT
        self._fast = (total, total * total, correct, true, pred)
        self._ints, self._slow = ints, slow  # int64 counts, of use where not slow
        self._rows = np.flatnonzero(slow)
        self._cache = {}
        if self._rows.size:
            big = _python_integers(C[self._rows])
            t, p = big.sum(axis=2), big.sum(axis=1)
            s = t.sum(axis=1)
            self._big = (s, s * s, np.trace(big, axis1=1, axis2=2), t, p)
            self._big_diag = np.diagonal(big, axis1=1, axis2=2)
            self._scale = [1 << max(0, 2 * int(x).bit_length() - _SCALED_BITS) for x in s]

    def term(self, name: str) -> np.ndarray:
        """The term ``name`` of :data:`_TERMS` in float64 (per-matrix scaled), shape ``(n,)``:
        one value per matrix of the block."""
        if name not in self._cache:
            self._cache[name] = self._term(name)
        return self._cache[name]

    def zero(self, name: str) -> np.ndarray:
        """Where the exact term ``name`` is 0, shape ``(n,)``.

        On the int64 path its float value is 0 exactly there; on the Python-integer path a
        scaled value can underflow to 0, so the exact integers say.
        """
        zero = self.term(name) == 0
        if self._rows.size:
            zero[self._rows] = _TERMS[name](*self._big) == 0
        return zero

    def _term(self, name: str) -> np.ndarray:
        values = _TERMS[name](*self._fast).astype(np.float64)
        if self._rows.size:
            big = _TERMS[name](*self._big)
            values[self._rows] = [x / d for x, d in zip(big, self._scale, strict=True)]
        return values

    def override(self, values: np.ndarray, formula) -> np.ndarray:
        """``values`` with each matrix of the Python-integer path replaced by ``formula(terms)``.

        ``terms`` maps every name of :data:`_TERMS` to that matrix's exact integer, so that
        ``formula`` can divide exact integers (Python's ``int / int`` is correctly rounded and
        neither overflows nor underflows before its result does). ``formula`` returns None to
        keep the value (a 0/0 already filled).
        """
        if self._rows.size:
            big = {name: f(*self._big) for name, f in _TERMS.items()}
            for i, row in enumerate(self._rows):
                value = formula({name: int(v[i]) for name, v in big.items()})
                if value is not None:
                    values[row] = value
        return values

    def class_ratio(self, num: str, den: str) -> tuple[np.ndarray, np.ndarray]:
        """The ratio of the per-class terms ``num / den`` of :data:`_CLASS_TERMS`, each rounded
        once from the exact integers to float64, shape ``(n, K)``, and where ``den`` is 0 (the
        ratio there is 0: every numerator of :data:`_CLASS_TERMS` is 0 where a denominator
        is, since a class never or always true or predicted has ``s C_kk = t_k p_k``).

        A function of the rational number alone: a multiple of integer counts gives the same
        bits. Both terms are exact in float64 while the total is at most
        :data:`RATIO_FLOAT_TOTAL`, so one float division rounds their ratio; above it, and on
        the Python-integer path, Python's ``int / int`` rounds it once (correctly, however
        large the integers), one ratio at a time.
        """
        a, b = self._class_term(num), self._class_term(den)
        zero = b == 0
        # Row-major whatever the layout of the terms, so that NumPy's sums over the classes
        # add in one order: a matrix then has the same bits in a stack of any size.
        values = np.divide(a, np.maximum(b, 1), out=np.empty(a.shape), dtype=np.float64)
        wide = np.flatnonzero((self._fast[0] > RATIO_FLOAT_TOTAL) & ~self._slow)
        if wide.size:  # the slow rows are overwritten below
            values[wide] = _python_ratios(a[wide], b[wide])
        if self._rows.size:
            a, b = self._big_class_term(num), self._big_class_term(den)
            values[self._rows] = _python_ratios(a, b)
            zero[self._rows] = b == 0
        return values, zero

    def _big_class_term(self, name: str) -> np.ndarray:
        """The term ``name`` of :data:`_CLASS_TERMS` of the slow rows, in Python integers."""
        key = ("big class", name)
        if key not in self._cache:
            terms = (self._big[0][:, None], self._big_diag, *self._big[3:])
            self._cache[key] = _CLASS_TERMS[name](*terms)
        return self._cache[key]

    def _class_term(self, name: str) -> np.ndarray:
        """The int64 term ``name`` of :data:`_CLASS_TERMS`, shape ``(n, K)`` laid out as the
        row sums (garbage in the slow rows)."""
        key = ("class", name)
        if key not in self._cache:
            terms = (self._fast[0][:, None], self._diag(), self._fast[3], self._fast[4])
            self._cache[key] = _CLASS_TERMS[name](*terms)
        return self._cache[key]

    def _diag(self) -> np.ndarray:
        """The int64 diagonal ``C_kk``, shape ``(n, K)``, laid out as the row sums."""
        if "diag" not in self._cache:
            diag = self._cache["diag"] = np.empty_like(self._fast[3])
            np.copyto(diag, np.einsum("nii->ni", self._ints))
        return self._cache["diag"]

    def _exact_class_sums(self, i: int) -> tuple:
        """``(s, d, t, p)`` of matrix ``i`` as Python integers (``d, t, p`` object arrays)."""
        j = int(np.searchsorted(self._rows, i))
        if j < self._rows.size and self._rows[j] == i:
            return self._big[0][j], self._big_diag[j], self._big[3][j], self._big[4][j]
        per_class = (x[i].astype(object) for x in (self._diag(), self._fast[3], self._fast[4]))
        return (int(self._fast[0][i]), *per_class)

    def class_ratio_sum(self, num: str, den: str) -> tuple[np.ndarray, np.ndarray]:
        """``sum_k num_k / den_k`` of each matrix, shape ``(n,)``, from the rounded ratios of
        :meth:`class_ratio` (summed in float64), 0 exactly where the exact sum is 0; and where
        a ``den_k`` is 0 (its ratio counts 0), shape ``(n, K)``.

        Ratios that cancel leave a float sum of a few units of roundoff where the exact sum is
        0 (up to 2.8e-17 for the informedness of 3 x 3 matrices of up to 7 items), which a
        relative tie tolerance cannot merge with the 0 of other matrices. The sum is within
        ``K u sum_k |ratio_k|`` of the exact one (``u = 2**-53``), so only a float sum inside
        twice that bound can be 0: those matrices are checked in exact fractions.
        """
        values, zero = self.class_ratio(num, den)
        sums = np.einsum("nk->n", values)
        bound = 2.0 * values.shape[-1] * 2.0**-53 * np.einsum("nk->n", np.abs(values))
        for i in np.flatnonzero((sums != 0) & (np.abs(sums) <= bound)):
            terms = self.class_terms(i)
            a, b = terms[num], terms[den]
            if sum(Fraction(x, y) for x, y in zip(a, b, strict=True) if y) == 0:
                sums[i] = 0.0
        return sums, zero

    @property
    def slow_rows(self) -> np.ndarray:
        """The matrices of the block on the Python-integer path (their indices, sorted)."""
        return self._rows

    def class_terms(self, i: int) -> dict:
        """Every term of :data:`_CLASS_TERMS` of matrix ``i``, exact: object arrays ``(K,)``
        of Python integers."""
        terms = self._exact_class_sums(i)
        return {name: f(*terms) for name, f in _CLASS_TERMS.items()}

    def log_error_rate(self) -> tuple[np.ndarray, np.ndarray]:
        """``ln(1 - ACC) = ln((s - c) / s)`` to a few units in the last place, and where ``c = s``.

        Where ``c = s`` the logarithm is -inf and 0 is returned in its place.
        """
        s, _, c = self._fast[:3]
        perfect = s == c
        # Both below 2**31 where used, so converted exactly; the slow rows are overwritten.
        values = np.log(np.divide(s - c, s, out=np.ones(s.shape), where=(s > 0) & ~perfect))
        if self._rows.size:
            s, _, c = self._big[:3]
            values[self._rows] = [_log_ratio(x - y, x) for x, y in zip(s, c, strict=True)]
            perfect[self._rows] = s == c
        return values, perfect


def _python_ratios(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b`` of integer arrays (``b >= 0``), each ratio of Python integers rounded once: 0
    where ``b`` is 0, and infinite where the ratio is beyond the largest float."""
    pairs = list(zip(a.ravel().tolist(), b.ravel().tolist(), strict=True))
    try:
        ratios = [x / y if y else 0.0 for x, y in pairs]  # correctly rounded
    except OverflowError:
        ratios = [_ratio(x, y) for x, y in pairs]
    return np.array(ratios, dtype=np.float64).reshape(a.shape)


def _ratio(a: int, b: int) -> float:
    if not b:
        return 0.0
    try:
        return a / b
    except OverflowError:
        return math.inf if a > 0 else -math.inf


def _log_ratio(a: int, b: int) -> float:
    """``ln(a / b)`` of integers ``0 <= a <= b``, 0 for ``a = 0``; the quotient rounded once,
    or, where it is below the normal floats, the difference of two logarithms (which then
    cannot cancel)."""
    if a == 0:
        return 0.0
    quotient = a / b  # correctly rounded
    return math.log(quotient) if quotient > 2.0**-1000 else math.log(a) - math.log(b)


def _lowest_bits(C: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each float cell as ``M * 2**e`` (``M`` an int64 below 2**53), and per matrix the smallest
    ``e`` at which every non-zero cell is an integer multiple of ``2**e`` (``q``)."""
    fraction, exponent = np.frexp(C)
    M = np.ldexp(fraction, 53).astype(np.int64)  # exact: 53-bit significands
    zeros = np.frexp((M & -M).astype(np.float64))[1].astype(np.int64) - 1  # trailing zeros
    e = exponent.astype(np.int64) - 53 + zeros
    M >>= np.maximum(zeros, 0)  # odd, so that C = M * 2**e
    q = np.where(M > 0, e, np.iinfo(np.int64).max).min(axis=(-2, -1))
    return M, e, q


def _dyadic_integers(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Float matrices as exact int64 multiples of their ``2**q``, and which ones fit.

    A matrix fits when its largest cell over ``2**q`` is below ``2**63 / K^2``, so that its sums
    are exact in int64; the others are returned as zeros (``exact`` is False).
    """
    K = C.shape[-1]
    _, _, q = _lowest_bits(C)
    top = np.frexp(C.max(axis=(-2, -1)))[1].astype(np.int64)  # max < 2**top
    exact = top - q <= 63 - (K * K).bit_length()
    scaled = np.ldexp(C, np.where(exact, -q, 0)[:, None, None])
    scaled[~exact] = 0.0
    return scaled.astype(np.int64), exact


def _python_integers(C: np.ndarray) -> np.ndarray:
    """Matrices as object arrays of Python ints: int64 counts as they are, float counts as their
    exact integer multiples of ``2**q`` (any span of binary orders)."""
    if C.dtype.kind != "f":
        return C.astype(object)
    M, e, q = _lowest_bits(C)
    shift = np.where(M > 0, e - q[:, None, None], 0)
    return M.astype(object) << shift.astype(object)
