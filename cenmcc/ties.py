"""Exact ties and exact order of MCC, CEN and accuracy over integer confusion matrices.

Counting ties (Huang & Ling's degree of discriminancy, :mod:`cenmcc.comparison`) on float values
lets rounding decide: two matrices with the same MCC can get values one ulp apart, and two with
different values can round to the same float. For integer counts every value here is an exact
algebraic object, so :func:`tie_ranks` decides equality and order exactly.

The exact values
----------------
- **Accuracy** is the fraction ``c / s`` (trace over total), kept reduced.
- **MCC** is ``num / sqrt(den)`` with the integers ``num = c s - sum_k t_k p_k`` and
  ``den = (s² - sum_k p_k²)(s² - sum_k t_k²)`` (:func:`cenmcc.mcc`). It is identified by its
  sign and the reduced fraction ``num² / den``; where ``den = 0`` the MCC is the documented fill
  value 0 of :func:`cenmcc.mcc`. Both ``num²`` and ``den`` are at most ``s⁴``, so they are
  exact in int64 while every total is at most :data:`MCC_INT64_MAX_TOTAL` (55 108). Above it the
  fractions are built from Python integers (object arrays of :class:`fractions.Fraction`),
  which are sorted exactly but at Python speed.
- **CEN**: with ``d_j = t_j + p_j`` and base ``b = 2(K - 1)``, the identity of
  :mod:`cenmcc.entropy` gives ``2 s ln(b) CEN = ln R`` with the rational
  ``R = prod_j d_j^(d_j - 2 C_jj) / prod_{j != k} C_jk^(2 C_jk)``. For one K, CEN is therefore
  ``ln R / s`` up to a positive constant, and ``ln R = sum_p e_p ln p`` over the prime exponent
  vector ``e`` of R. Since the logarithms of the primes are linearly independent over the
  rationals (unique factorization), two matrices have equal CEN exactly when ``e / s`` agree,
  whatever their totals. The vectors are built from a table of prime valuations of every value
  that occurs (a smallest-prime-factor sieve up to ``2 max(s)``). Different K have different
  bases ``ln 2(K-1)``, and this argument does not apply: :func:`tie_ranks` refuses to mix them.

The order
---------
Equal values get one class (a canonical integer key per matrix, then :func:`numpy.unique`).
Classes are sorted by a float64 approximation ``a`` of their value with a proven bound
``|a - v| <= B`` for every class. Two classes whose approximations differ by more than ``2B``
are in the right order; so the sorted approximations are cut wherever consecutive ones differ
by more than ``2B``, and within each remaining run of close classes the order is settled by an
exact comparison in Python integers. The bounds (``u = 2^-53``, the unit roundoff):

- accuracy, ``a = c / s``: two conversions to float and one division, relative error
  ``<= 3u``; values lie in [0, 1], so ``B = 4u``;
- MCC, ``a = sign · sqrt(num²/g / (den/g))``: two conversions, a division and a correctly
  rounded square root give relative error ``<= 2.5u``; ``|MCC| <= 1``, so ``B = 4u``;
- CEN, ``a = (e · ln p) / s`` (``ln R / s``): a dot product of m terms, each a product of an
  exact integer and ``ln p`` (NumPy's ``log`` is taken to be within 4 ulp, i.e. ``8u``), has
  error at most ``(m + 9) u sum_p |e_p| ln p`` for any summation order; the division adds
  ``u |a|``. ``B = (m + 16) 2u max_class(sum_p |e_p| ln p / s)``, about twice that.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cmp_to_key
from math import isqrt, prod

import numpy as np

from ._marginals import Counts
from ._validation import as_array

#: Largest total s with s⁴ < 2⁶³: up to it MCC's ``num²`` and ``den`` (both <= s⁴) are exact in
#: int64; above it :func:`tie_ranks` works with Python integers.
MCC_INT64_MAX_TOTAL = 55108

#: Largest ``2 s`` for which the CEN prime sieve is built (an int64 array of that length).
CEN_MAX_SIEVE = 2**26

#: Largest number of int64 entries (matrices x (distinct primes + 1)) of the CEN keys (1 GiB).
CEN_MAX_KEY_ENTRIES = 2**27

METRICS = ("mcc", "cen", "accuracy")

_U = 2.0**-53  # unit roundoff of float64


def tie_ranks(C, metric: str) -> np.ndarray:
    """Dense ranks of integer confusion matrices by the exact value of a metric.

    Parameters
    ----------
    C : array_like of int, shape (..., K, K), or list of such NumPy arrays
        Integer counts, rows = true class; the stack is flattened to n matrices. A list of
        NumPy arrays is read as several stacks (their K and totals may differ) ranked together,
        in the order given.
    metric : {"mcc", "cen", "accuracy"}
        The metric whose values are ranked: :func:`cenmcc.mcc` (with its fill value 0 where it
        is 0/0), :func:`cenmcc.cen` or :func:`cenmcc.accuracy`.

    Returns
    -------
    ndarray of int64, shape (n,)
        Rank 0 for the smallest value, then consecutive integers. Two matrices have the same
        rank exactly when their metric values are mathematically equal, and ranks are ordered
        exactly as the values. CEN is lower-better, MCC and accuracy higher-better: orient the
        ranks (e.g. ``-ranks``) before a degree of consistency.

    Raises
    ------
    TypeError
        If the counts are not integers (weighted counts have no exact ties: use
        :func:`cenmcc.tie_groups` with a tolerance).
    ValueError
        For an unknown metric, invalid counts, a matrix without samples, CEN over matrices with
        different numbers of classes, or CEN with totals above ``CEN_MAX_SIEVE / 2`` or keys
        larger than ``CEN_MAX_KEY_ENTRIES``.

    Notes
    -----
    See the module docstring for the exact representation of each value and for the float
    bounds used to sort. Memory is ``O(n m)`` for CEN, with m the number of distinct primes
    dividing some ``d_j`` or ``C_jk``.

    Examples
    --------
    The first two matrices are one another with the classes swapped (MCC -1/3 for both); the
    third has MCC 0 and the same accuracy 1/2 as the first two:

    >>> C = [[[2, 1], [1, 0]], [[0, 1], [1, 2]], [[1, 1], [1, 1]], [[3, 0], [0, 1]]]
    >>> tie_ranks(C, "mcc").tolist()
    [0, 0, 1, 2]
    >>> tie_ranks(C, "accuracy").tolist()
    [0, 0, 0, 1]
    >>> tie_ranks(C, "cen").tolist()  # CEN 0.896, 0.896, 1, 0
    [1, 1, 2, 0]
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    stacks = _stacks(C)
    if sum(m.total.size for m in stacks) == 0:
        return np.zeros(0, dtype=np.int64)
    if metric == "mcc":
        return _mcc_ranks(stacks)
    if metric == "cen":
        return _dense_ranks(*_cen_classes(stacks))
    return _dense_ranks(*_accuracy_classes(stacks))


def _stacks(C) -> list[Counts]:
    """Validated integer stacks (a list of NumPy arrays is several stacks)."""
    several = isinstance(C, list | tuple) and len(C) > 0
    several = several and all(isinstance(part, np.ndarray) for part in C)
    stacks = []
    for i, part in enumerate(C if several else [C]):
        name = f"C[{i}]" if several else "C"
        arr = as_array(part, name=name)
        if arr.dtype.kind == "f":
            raise TypeError(
                f"{name} holds float counts (dtype {arr.dtype}); exact ties need integer "
                "counts: use cenmcc.tie_groups with a tolerance for weighted counts"
            )
        stacks.append(Counts(arr, name=name))
    return stacks


def _flat(stacks: list[Counts], attr: str) -> np.ndarray:
    """A marginal of every matrix of every stack, as one int64 array of shape (n,) or (n, K)."""
    parts = []
    for m in stacks:
        value = getattr(m, attr)
        parts.append(
            value.reshape(-1) if attr in ("total", "correct") else value.reshape(-1, m.n_classes)
        )
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def _dense_ranks(
    inverse: np.ndarray, approx: np.ndarray, bound: float, compare: Callable[[int, int], int]
) -> np.ndarray:
    """Ranks of n objects from their classes, sorted by approximations refined exactly.

    ``inverse`` maps each object to its class; ``approx[c]`` is within ``bound`` of the exact
    value of class c (all classes distinct); ``compare(i, j)`` is the exact sign of
    ``value[i] - value[j]``. Runs of classes closer than ``2 * bound`` are sorted by
    ``compare``; every other pair is ordered by the approximations, which is then exact.
    """
    order = np.argsort(approx, kind="stable")
    close = np.diff(approx[order]) <= 2.0 * bound
    if close.any():
        edges = np.diff(np.concatenate(([0], close.astype(np.int8), [0])))
        starts = np.flatnonzero(edges == 1)
        stops = np.flatnonzero(edges == -1) + 1
        for a, b in zip(starts, stops, strict=True):
            order[a:b] = sorted(order[a:b].tolist(), key=cmp_to_key(compare))
    rank_of_class = np.empty(order.size, dtype=np.int64)
    rank_of_class[order] = np.arange(order.size)
    return rank_of_class[inverse]


def _classes(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of integer ``keys`` (lexicographic order) and the class of each row.

    The same as ``numpy.unique(keys, axis=0, return_inverse=True)``, several times faster: one
    ``lexsort`` of the columns instead of a sort of the rows as raw bytes.
    """
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    new = np.concatenate(([True], (ordered[1:] != ordered[:-1]).any(axis=1)))
    inverse = np.empty(keys.shape[0], dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _sign(x) -> int:
    return (x > 0) - (x < 0)


def _accuracy_classes(stacks):
    c, s = _flat(stacks, "correct"), _flat(stacks, "total")
    g = np.gcd(c, s)
    keys, inverse = _classes(np.stack([c // g, s // g], axis=1))
    approx = keys[:, 0] / keys[:, 1]
    k = keys.tolist()

    def compare(i: int, j: int) -> int:
        return _sign(k[i][0] * k[j][1] - k[j][0] * k[i][1])

    return inverse, approx, 4 * _U, compare


def _mcc_terms(stacks, dtype) -> tuple[np.ndarray, np.ndarray]:
    """``num = c s - t·p`` and ``den = (s² - p·p)(s² - t·t)`` per matrix, in ``dtype``."""
    nums, dens = [], []
    for m in stacks:
        t = m.true.reshape(-1, m.n_classes).astype(dtype)
        p = m.pred.reshape(-1, m.n_classes).astype(dtype)
        s = t.sum(axis=1)
        nums.append(m.correct.reshape(-1).astype(dtype) * s - (t * p).sum(axis=1))
        dens.append((s * s - (p * p).sum(axis=1)) * (s * s - (t * t).sum(axis=1)))
    return np.concatenate(nums), np.concatenate(dens)


def _mcc_ranks(stacks) -> np.ndarray:
    """MCC ranks: int64 keys up to MCC_INT64_MAX_TOTAL, exact Fractions above."""
    s_max = max(int(m.total.max()) for m in stacks if m.total.size)
    if s_max > MCC_INT64_MAX_TOTAL:
        num, den = _mcc_terms(stacks, object)
        undefined = den == 0
        signed = np.where(undefined, 0, np.sign(num) * num * num)
        # sign(MCC) num²/den is increasing in the MCC; Fractions are reduced and compare exactly.
        q = np.frompyfunc(Fraction, 2, 1)(signed, np.where(undefined, 1, den))
        return np.unique(q, return_inverse=True)[1].reshape(-1).astype(np.int64)
    num, den = _mcc_terms(stacks, np.int64)
    zero = (num == 0) | (den == 0)
    sq = num * num
    g = np.gcd(sq, den)
    g[zero] = 1
    keys = np.stack([np.sign(num), sq // g, np.where(zero, 1, den // g)], axis=1)
    keys[zero, 1] = 0
    keys, inverse = _classes(keys)
    approx = keys[:, 0] * np.sqrt(keys[:, 1] / keys[:, 2])
    k = keys.tolist()

    def compare(i: int, j: int) -> int:
        (si, ai, bi), (sj, aj, bj) = k[i], k[j]
        return _sign(si * ai * bj - sj * aj * bi)

    return _dense_ranks(inverse, approx, 4 * _U, compare)


def _smallest_prime_factors(n: int) -> np.ndarray:
    """``spf[x]`` = smallest prime factor of x for ``2 <= x <= n`` (sieve of Eratosthenes)."""
    spf = np.zeros(n + 1, dtype=np.int64)
    for p in range(2, isqrt(n) + 1):
        if spf[p] == 0:
            multiples = spf[p * p :: p]
            multiples[multiples == 0] = p
    unmarked = np.flatnonzero(spf == 0)
    spf[unmarked] = unmarked  # primes (and 0, 1, never looked up)
    return spf


def _valuations(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Prime valuations of sorted distinct non-negative ``values``.

    Returns ``V`` of shape ``(len(values), m)`` with ``V[i, q] = v_{primes[q]}(values[i])`` (0 for
    the values 0 and 1) and the m primes that divide some value. One vectorized division per
    prime factor, at most ``log2(max(values))`` rounds.
    """
    spf = _smallest_prime_factors(int(values[-1]))
    rows, factors = [], []
    index = np.flatnonzero(values > 1)
    x = values[index]
    while x.size:
        p = spf[x]
        rows.append(index)
        factors.append(p)
        x = x // p
        keep = x > 1
        index, x = index[keep], x[keep]
    if not factors:
        return np.zeros((values.size, 0), dtype=np.int64), np.zeros(0, dtype=np.int64)
    primes, column = np.unique(np.concatenate(factors), return_inverse=True)
    V = np.zeros((values.size, primes.size), dtype=np.int64)
    np.add.at(V, (np.concatenate(rows), column.reshape(-1)), 1)
    return V, primes


def _cen_classes(stacks):
    """Classes of equal CEN from the prime exponents of R (module docstring) over the total."""
    ks = sorted({m.n_classes for m in stacks})
    if len(ks) > 1:
        raise ValueError(
            f"CEN of matrices with different numbers of classes (K = {ks}) cannot be compared "
            "exactly: their logarithm bases 2(K-1) differ; rank each K separately"
        )
    K = ks[0]
    C = np.concatenate([m.C.reshape(-1, K, K) for m in stacks])
    diag, d = _flat(stacks, "diag"), _flat(stacks, "true") + _flat(stacks, "pred")
    s = _flat(stacks, "total")
    if 2 * int(s.max()) > CEN_MAX_SIEVE:
        raise ValueError(
            f"exact CEN ranks sieve primes up to 2s; a total of {int(s.max())} exceeds the "
            f"limit of {CEN_MAX_SIEVE // 2}"
        )
    off = C.copy()
    np.einsum("nii->ni", off)[...] = 0
    values = np.unique(np.concatenate([d.reshape(-1), off.reshape(-1)]))
    V, primes = _valuations(values)
    n, m = C.shape[0], primes.size
    if n * (m + 1) > CEN_MAX_KEY_ENTRIES:
        raise ValueError(
            f"exact CEN ranks of {n} matrices need {n} x {m + 1} integer keys ({m} distinct "
            f"primes), above the limit of {CEN_MAX_KEY_ENTRIES} entries; rank fewer matrices"
        )
    keys = np.empty((n, m + 1), dtype=np.int64)
    keys[:, m] = s
    w = d - 2 * diag
    idx_d, idx_off = np.searchsorted(values, d), np.searchsorted(values, off)
    chunk = max(1, 2**22 // max(1, K * K * m))  # bounds the gathered valuations in memory
    for a in range(0, n, chunk):  # e(R) = sum_j w_j v(d_j) - 2 sum_{j != k} C_jk v(C_jk)
        b = slice(a, a + chunk)
        keys[b, :m] = np.einsum("nj,njq->nq", w[b], V[idx_d[b]])
        keys[b, :m] -= 2 * np.einsum("njk,njkq->nq", off[b], V[idx_off[b]])
    keys //= np.gcd.reduce(keys, axis=1)[:, None]  # canonical e/s: equal CEN <=> equal rows
    keys, inverse = _classes(keys)
    log_p = np.log(primes.astype(np.float64))
    e_cls, s_cls = keys[:, :-1], keys[:, -1]
    approx = (e_cls @ log_p) / s_cls
    scale = float(((np.abs(e_cls) @ log_p) / s_cls).max(initial=0.0))
    bound = (primes.size + 16) * 2 * _U * scale
    e_list, s_list, p_list = e_cls.tolist(), s_cls.tolist(), primes.tolist()

    def compare(i: int, j: int) -> int:
        # sign of ln R_i / s_i - ln R_j / s_j = sign of ln prod_p p^(e_i s_j - e_j s_i)
        diff = [a * s_list[j] - b * s_list[i] for a, b in zip(e_list[i], e_list[j], strict=True)]
        up = prod(p**x for p, x in zip(p_list, diff, strict=True) if x > 0)
        down = prod(p**-x for p, x in zip(p_list, diff, strict=True) if x < 0)
        return _sign(up - down)

    return inverse, approx, bound, compare
