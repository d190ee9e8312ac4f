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
  value 0 of :func:`cenmcc.mcc`. With ``den = A B`` (``A = s² - sum_k p_k²``, ``B = s² -
  sum_k t_k²``), four gcds cancel the common factors and leave the reduced fraction as
  products ``(u v) / (w z)`` of factors of ``|num|``, A and B (:func:`_mcc_factors`), each at
  most ``s²``: exact in int64 and float64 while every total is at most
  :data:`MCC_FACTOR_MAX_TOTAL` (94 906 265). The products themselves, ``num²`` and ``den``
  reduced, are at most ``s⁴`` and exact in int64 up to :data:`MCC_INT64_MAX_TOTAL` (55 108).
  Above that :func:`tie_ranks` builds them from Python integers (object arrays of
  :class:`fractions.Fraction`), which are sorted exactly but at Python speed.
- **CEN**: with ``d_j = t_j + p_j`` and base ``b = 2(K - 1)``, the identity of
  :mod:`cenmcc.entropy` gives ``2 s ln(b) CEN = ln R`` with the rational
  ``R = prod_j d_j^(d_j - 2 C_jj) / prod_{j != k} C_jk^(2 C_jk)``. For one K, CEN is therefore
  ``ln R / s`` up to a positive constant, and ``ln R = sum_p e_p ln p`` over the prime exponent
  vector ``e`` of R. Since the logarithms of the primes are linearly independent over the
  rationals (unique factorization), two matrices have equal CEN exactly when ``e / s`` agree,
  whatever their totals. The vectors are built, sparse, from the prime factors of every value
  that occurs (a smallest-prime-factor sieve up to ``2 max(s)``). Different K have different
  bases ``ln 2(K-1)``, and this argument does not apply: :func:`tie_ranks` refuses to mix them.

The floats
----------
:func:`tie_values` gives each matrix a float that is a function of its exact value only (so
equal values get the same bits), and sorts distinct values correctly but where they are
closer than its bound. With ``u = 2^-53`` the unit roundoff, ``|a - v| <= rel |v| + abs``
(:data:`VALUE_BOUNDS`):

- accuracy, ``a = fl(c') / fl(s')`` of the reduced fraction: two conversions and one
  division, ``rel = 3u``, stated as ``4u``;
- MCC, ``a = sign · sqrt(fl(a') / fl(b'))`` of the reduced ``num² / den = a' / b'``: two
  roundings of integers, a division and a correctly rounded square root, ``rel = 2.5u``, stated
  as ``4u``. ``fl(a')`` is computed as the product ``fl(u) · fl(v)`` of exact floats, which
  IEEE 754 rounds correctly, and above :data:`MCC_FACTOR_MAX_TOTAL` as the conversion of the
  Python integer ``a'``: both round ``a'`` to nearest, ties to even, so every path gives the
  same bits;
- CEN: ``T = sum_p e_p L_p`` with ``L_p = round(2^73 ln p)`` (within 1; :func:`_fixed_logs`)
  is summed exactly in three int64 limbs of 26 bits, through ``L(x) = sum_p v_p(x) L_p`` of
  every cell and class sum (tables per process: :func:`_log_table`, and :func:`_cell_table` of
  ``x L(x)`` for the cells while totals are below 2^23, the same integer); ``T / s`` is a function
  of ``e / s`` only, is reduced by ``gcd(T mod s, s)``, and rounded: relative error ``3u``
  whatever the cancellation. The ``L_p`` add at most ``2^-73 sum_p |e_p| / s`` to
  ``ln R / s``, and ``sum_p |e_p| <= 4 s log2(2s)``, so at most ``2^-66`` to CEN; the
  division by ``s' · 2 ln b`` (NumPy's ``log`` taken to be within 4 ulp) adds ``6u``:
  ``rel = 9u``, stated as ``10u``, and ``abs = 2^-64``. The limbs stay below ``2^61`` for
  ``2s <= CEN_MAX_SIEVE``.

The order
---------
Equal values get one class (a canonical integer key per matrix, then :func:`numpy.unique`).
Classes are sorted by the floats of :func:`tie_values`. Two classes whose floats differ by
more than ``2 (rel max|a| + abs)`` (:func:`undecided`) are in the right order; within each run
of closer classes the order is settled by an exact comparison in Python integers.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Context, Decimal
from fractions import Fraction
from functools import cmp_to_key
from math import isqrt, prod

import numpy as np

from ._marginals import Counts
from ._validation import as_array

#: Largest total s with s⁴ < 2⁶³: up to it MCC's ``num²`` and ``den`` (both <= s⁴) are exact in
#: int64; above it :func:`tie_ranks` works with Python integers.
MCC_INT64_MAX_TOTAL = 55108

#: Largest total s with s² < 2⁵³: up to it the factors of MCC's reduced ``num² / den``
#: (:func:`_mcc_factors`, each <= s²) are exact in int64 and float64, and :func:`tie_values`
#: needs no Python integers.
MCC_FACTOR_MAX_TOTAL = 94906265

#: Largest ``2 s`` for which the CEN prime sieve is built (an int64 array of that length).
CEN_MAX_SIEVE = 2**26

#: Largest number of int64 entries (matrices x (distinct primes + 1)) of the CEN keys (1 GiB).
CEN_MAX_KEY_ENTRIES = 2**27

METRICS = ("mcc", "cen", "accuracy")

_U = 2.0**-53  # unit roundoff of float64

#: ``(rel, abs)`` per metric: the float :func:`tie_values` gives for an exact value v is within
#: ``rel |v| + abs`` of it (proven in the module docstring).
VALUE_BOUNDS = {"accuracy": (4 * _U, 0.0), "mcc": (4 * _U, 0.0), "cen": (10 * _U, 2.0**-64)}


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


def tie_values(C, metric: str, *, count_undefined: bool = False):
    """Float values of a metric, computed from the exact value: equal exactly where it is equal.

    Parameters
    ----------
    C : array_like of int, shape (..., K, K), cenmcc.Counts, or list of such NumPy arrays
        Integer counts, rows = true class, as in :func:`tie_ranks` (the stacks may have
        different K, for CEN too).
    metric : {"mcc", "cen", "accuracy"}
    count_undefined : bool, default False
        If True, return the number of values that are 0/0 and filled as well (as
        :func:`cenmcc.measures` counts them: MCCs with ``den = 0``; CEN and accuracy are never
        0/0), so that a caller needs no float evaluation of the metric.

    Returns
    -------
    values : ndarray of float64, shape (n,)
        The metric of each matrix (MCC with its fill value 0 where it is 0/0), within
        ``rel |v| + abs`` of its exact value v (:data:`VALUE_BOUNDS`), and a function of that
        exact value only: two matrices with mathematically equal values (MCC of C and of 3C,
        say) get the same bits, whatever their totals or the other matrices. Two values whose
        floats differ by more than twice the bound (:func:`undecided`) are in the right order.
    undefined : int
        Only with ``count_undefined=True``: how many of the values are 0/0, filled.

    Raises
    ------
    TypeError, ValueError
        As :func:`tie_ranks` (CEN of any mix of K is allowed here: each value is CEN's).

    Notes
    -----
    Accuracy is ``fl(c') / fl(s')`` and MCC ``sign sqrt(fl(a) / fl(b))`` of the reduced
    fractions ``c'/s'`` and ``a/b = num²/den``; CEN is computed from the reduced exponents
    ``e/s`` with an exact integer sum (module docstring). Cost: a few vectorized passes over
    the stack; MCC above :data:`MCC_FACTOR_MAX_TOTAL` reduces its fractions in Python
    integers.

    Examples
    --------
    >>> C = np.array([[[5, 1, 0], [2, 6, 1], [0, 1, 7]]])
    >>> import cenmcc
    >>> bool(cenmcc.cen(C)[0] == cenmcc.cen(3 * C)[0])  # rounded differently
    False
    >>> v = tie_values([C, 3 * C], "cen")
    >>> bool(v[0] == v[1]), bool(abs(v[0] - cenmcc.cen(C)[0]) < 1e-15)
    (True, True)
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    stacks = [m for m in _stacks(C) if m.total.size]
    undefined = 0
    if not stacks:
        values = np.zeros(0)
    elif metric == "mcc":
        values, zero = _mcc_values(stacks)
        undefined = int(np.count_nonzero(zero))
    elif metric == "accuracy":
        values = _accuracy_values(_accuracy_keys(stacks))
    else:
        values = np.concatenate([_cen_values(m) for m in stacks])
    return (values, undefined) if count_undefined else values


def _stacks(C) -> list[Counts]:
    """Validated integer stacks (a list of NumPy arrays is several stacks)."""
    if isinstance(C, Counts):  # validated already
        if C.C.dtype.kind == "f":
            raise TypeError(f"float counts (dtype {C.C.dtype}) have no exact ties")
        return [C]
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
    inverse: np.ndarray,
    approx: np.ndarray,
    bound: tuple[float, float],
    compare: Callable[[int, int], int],
) -> np.ndarray:
    """Ranks of n objects from their classes, sorted by approximations refined exactly.

    ``inverse`` maps each object to its class; ``approx[c]`` is within ``rel |v| + abs`` of the
    exact value v of class c, with ``bound = (rel, abs)`` (all classes distinct);
    ``compare(i, j)`` is the exact sign of ``value[i] - value[j]``. Runs of classes that
    :func:`undecided` finds close are sorted by ``compare``; every other pair is ordered by the
    approximations, which is then exact.
    """
    order = np.argsort(approx, kind="stable")
    close = undecided(approx[order], bound, equal=True)
    if close.any():
        edges = np.diff(np.concatenate(([0], close.astype(np.int8), [0])))
        starts = np.flatnonzero(edges == 1)
        stops = np.flatnonzero(edges == -1) + 1
        for a, b in zip(starts, stops, strict=True):
            order[a:b] = sorted(order[a:b].tolist(), key=cmp_to_key(compare))
    rank_of_class = np.empty(order.size, dtype=np.int64)
    rank_of_class[order] = np.arange(order.size)
    return rank_of_class[inverse]


def undecided(
    ordered: np.ndarray, bound: tuple[float, float], *, equal: bool = False
) -> np.ndarray:
    """Which consecutive sorted approximations are too close for their order to be proven.

    Parameters
    ----------
    ordered : ndarray, shape (n,)
        Increasing floats, each within ``rel |v| + abs`` of its exact value v.
    bound : (float, float)
        ``(rel, abs)``, as :data:`VALUE_BOUNDS`.
    equal : bool
        Count equal neighbours too (for approximations of distinct values); by default only
        neighbours that differ are undecided (equal ones are taken to be the same value).

    Returns
    -------
    ndarray of bool, shape (n - 1,)
        True where ``0 < a_{i+1} - a_i <= 2 (rel' max(|a_i|, |a_{i+1}|) + abs)``, with
        ``rel' = rel / (1 - rel)`` bounding the error relative to the approximations: only
        there can the two exact values be in the other order.
    """
    rel, absolute = bound
    gap = np.diff(ordered)
    within = gap <= 2 * (
        rel / (1 - rel) * np.maximum(np.abs(ordered[1:]), np.abs(ordered[:-1])) + absolute
    )
    return within if equal else within & (gap > 0)


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


def _accuracy_keys(stacks) -> np.ndarray:
    """The reduced fraction ``c / s`` of each matrix, shape (n, 2)."""
    c, s = _flat(stacks, "correct"), _flat(stacks, "total")
    g = np.gcd(c, s)
    return np.stack([c // g, s // g], axis=1)


def _accuracy_values(keys: np.ndarray) -> np.ndarray:
    return keys[:, 0] / keys[:, 1]


def _accuracy_classes(stacks):
    keys, inverse = _classes(_accuracy_keys(stacks))
    k = keys.tolist()

    def compare(i: int, j: int) -> int:
        return _sign(k[i][0] * k[j][1] - k[j][0] * k[i][1])

    return inverse, _accuracy_values(keys), VALUE_BOUNDS["accuracy"], compare


def _mcc_terms(stacks, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``num = c s - t·p``, ``A = s² - p·p`` and ``B = s² - t·t`` per matrix (``den = A B``),
    in ``dtype``."""
    nums, As, Bs = [], [], []
    for m in stacks:
        t = m.true.reshape(-1, m.n_classes).astype(dtype)
        p = m.pred.reshape(-1, m.n_classes).astype(dtype)
        s = t.sum(axis=1)
        nums.append(m.correct.reshape(-1).astype(dtype) * s - (t * p).sum(axis=1))
        As.append(s * s - (p * p).sum(axis=1))
        Bs.append(s * s - (t * t).sum(axis=1))
    return np.concatenate(nums), np.concatenate(As), np.concatenate(Bs)


def _mcc_factors(num, A, B) -> tuple[np.ndarray, ...]:
    """``sign(num)`` and the reduced ``num² / den = (u v) / (w z)`` of each matrix, in the dtype
    of the terms.

    With ``den = A B`` (:func:`_mcc_terms`), the common factors of ``num²`` and ``den`` are
    cancelled in four steps, each ``x, y -> x / g, y / g`` with ``g = gcd(x, y)``: one copy of
    ``|num|`` against A (giving u), the other against what is left of A (giving v and w),
    then u and v in turn against B (giving z). For a prime with exponents α in ``|num|`` and
    β in A, the first two steps cancel ``min(α, β) + min(α, β - min(α, β)) = min(2α, β)`` of
    it, so that it is left in ``u v`` or in w, not both; the last two do the same with B, and
    w is left alone: ``gcd(u v, w z) = 1``. Every factor divides ``|num|``, A or B, all at
    most ``s²`` (Cauchy-Schwarz), so for totals up to :data:`MCC_FACTOR_MAX_TOTAL` they are
    exact in int64 and in float64. An MCC of 0 or 0/0 (``den = 0`` forces ``num = 0``) gets
    ``(0, 0, 0, 1, 1)``.
    """
    zero = num == 0
    u = v = abs(num)
    A, B = np.where(zero, 1, A), np.where(zero, 1, B)
    g = np.gcd(u, A)
    u, A = u // g, A // g
    g = np.gcd(v, A)
    v, A = v // g, A // g
    g = np.gcd(u, B)
    u, B = u // g, B // g
    g = np.gcd(v, B)
    v, B = v // g, B // g
    return np.sign(num), u, v, A, B


def _mcc_keys(stacks) -> np.ndarray:
    """``(sign(num), num²/g, den/g)`` of each matrix, the fraction reduced (``(0, 0, 1)`` for
    an MCC of 0 or 0/0): int64 up to :data:`MCC_INT64_MAX_TOTAL`, Python integers above it."""
    s_max = max(int(m.total.max()) for m in stacks if m.total.size)
    dtype = np.int64 if s_max <= MCC_FACTOR_MAX_TOTAL else object
    sign, u, v, w, z = _mcc_factors(*_mcc_terms(stacks, dtype))
    if s_max > MCC_INT64_MAX_TOTAL:
        sign, u, v, w, z = (x.astype(object) for x in (sign, u, v, w, z))
    return np.stack([sign, u * v, w * z], axis=1)


def _mcc_values(stacks) -> tuple[np.ndarray, np.ndarray]:
    """``sign sqrt(fl(a) / fl(b))`` of the reduced ``a / b = num² / den``, and where ``den = 0``.

    Each integer is rounded once to float64, to nearest, ties to even: up to
    :data:`MCC_FACTOR_MAX_TOTAL` as ``fl(a) = fl(u) fl(v)``, the product of two exact floats
    correctly rounded (:func:`_mcc_factors`), above it by NumPy's conversion of the Python
    integer ``a``, which rounds alike.
    """
    s_max = max(int(m.total.max()) for m in stacks)
    num, A, B = _mcc_terms(stacks, np.int64 if s_max <= MCC_FACTOR_MAX_TOTAL else object)
    sign, u, v, w, z = _mcc_factors(num, A, B)
    if u.dtype == object:
        a, b = (u * v).astype(np.float64), (w * z).astype(np.float64)
    else:
        a = u.astype(np.float64) * v.astype(np.float64)
        b = w.astype(np.float64) * z.astype(np.float64)
    return sign.astype(np.float64) * np.sqrt(a / b), (A == 0) | (B == 0)


def _mcc_ranks(stacks) -> np.ndarray:
    """MCC ranks: int64 keys up to MCC_INT64_MAX_TOTAL, exact Fractions above."""
    keys = _mcc_keys(stacks)
    if keys.dtype == object:
        # sign(MCC) num²/den is increasing in the MCC; Fractions compare exactly.
        q = np.frompyfunc(Fraction, 2, 1)(keys[:, 0] * keys[:, 1], keys[:, 2])
        return np.unique(q, return_inverse=True)[1].reshape(-1).astype(np.int64)
    keys, inverse = _classes(keys)
    approx = np.empty(keys.shape[0])
    approx[inverse] = _mcc_values(stacks)[0]  # equal in a class
    k = keys.tolist()

    def compare(i: int, j: int) -> int:
        (si, ai, bi), (sj, aj, bj) = k[i], k[j]
        return _sign(si * ai * bj - sj * aj * bi)

    return _dense_ranks(inverse, approx, VALUE_BOUNDS["mcc"], compare)


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


def _prime_factors(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The prime factors of sorted distinct ``values`` (each at least 2), with multiplicity.

    Returns ``owner`` and ``factor``, one entry per prime factor: ``values[owner[i]]`` is
    divisible by ``factor[i]``, and the entries of each value multiply to it; sorted by owner.
    One vectorized division per prime factor, at most ``log2(max(values))`` rounds.
    """
    spf = _sieve(int(values[-1]) if values.size else 1)
    owners, factors = [], []
    index = np.arange(values.size)
    x = values
    while x.size:
        p = spf[x]
        owners.append(index)
        factors.append(p)
        x = x // p
        keep = x > 1
        index, x = index[keep], x[keep]
    if not factors:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    owner, factor = np.concatenate(owners), np.concatenate(factors)
    order = np.argsort(owner, kind="stable")
    return owner[order], factor[order]


def _cen_exponents(stacks) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The prime exponent vector e of R of each matrix (module docstring), sparse, and s.

    Returns
    -------
    rows, columns, exponents : ndarray of int64
        The non-zero exponents, ``e[rows[i], columns[i]] = exponents[i]``, sorted by row then
        column.
    primes : ndarray of int64, shape (m,)
        The prime of each column, increasing.
    s : ndarray of int64, shape (n,)
        The totals.

    Memory is linear in the number of prime factors of the cells and classes' sums, at most
    ``K (K + 1) log2(2 s)`` a matrix.
    """
    K = stacks[0].n_classes
    C = np.concatenate([m.C.reshape(-1, K, K) for m in stacks]).astype(np.int64)
    diag, d = _flat(stacks, "diag"), _flat(stacks, "true") + _flat(stacks, "pred")
    s = _flat(stacks, "total")
    if 2 * int(s.max()) > CEN_MAX_SIEVE:
        raise ValueError(
            f"exact CEN sieves primes up to 2s; a total of {int(s.max())} exceeds the "
            f"limit of {CEN_MAX_SIEVE // 2}"
        )
    n = s.size
    off = C.copy()
    np.einsum("nii->ni", off)[...] = 0
    # e(R) = sum_j w_j v(d_j) - 2 sum_{j != k} C_jk v(C_jk), with w_j = d_j - 2 C_jj
    value = np.concatenate([d.reshape(-1), off.reshape(-1)])
    weight = np.concatenate([(d - 2 * diag).reshape(-1), -2 * off.reshape(-1)])
    row = np.concatenate([np.repeat(np.arange(n), K), np.repeat(np.arange(n), K * K)])
    keep = (weight != 0) & (value > 1)
    value, weight, row = value[keep], weight[keep], row[keep]
    distinct, index = np.unique(value, return_inverse=True)
    owner, factor = _prime_factors(distinct)
    primes, column = np.unique(factor, return_inverse=True)
    count = np.bincount(owner, minlength=distinct.size)
    first = np.cumsum(count) - count
    per_cell = count[index]
    cell = np.repeat(np.arange(index.size), per_cell)
    entry = first[index][cell] + np.arange(cell.size) - (np.cumsum(per_cell) - per_cell)[cell]
    keys, where = np.unique(row[cell] * primes.size + column[entry], return_inverse=True)
    # |e| <= 4 s log2(2s) < 2**53: the float sums are exact
    e = np.bincount(where.reshape(-1), weights=weight[cell], minlength=keys.size)
    nonzero = e != 0
    keys = keys[nonzero]
    return keys // primes.size, keys % primes.size, e[nonzero].astype(np.int64), primes, s


#: Bits after the point of the fixed-point logarithms of primes behind CEN's values, and the
#: bits of each of their three int64 limbs (module docstring).
_LOG_BITS, _LIMB = 73, 26

#: Bits after the point of the logarithms of primes as they are computed (:func:`_fixed_logs`).
_GUARD_BITS = 100

_LOGS: dict[int, tuple[int, int]] = {}  # prime -> (ln p 2**100, bound on its error in units)
_SIEVE = np.zeros(0, dtype=np.int64)  # the largest sieve built in this process
_LOG_TABLE = np.zeros((3, 0), dtype=np.int64)  # the largest table of L(x) in this process
_CELL_TABLE = np.zeros((2, 0), dtype=np.int64)  # the largest table of x L(x) in this process

#: Totals below which CEN's cell terms come from :func:`_cell_table` (two gathers, no products,
#: instead of three of each), and the bits of the lower of its two limbs.
CEN_CELL_TABLE_TOTAL, _CELL_BITS = 2**23, 40


def _log_table(n: int) -> np.ndarray:
    """``L(x) = sum_p v_p(x) L_p`` for every ``0 <= x <= n`` (0 for 0 and 1), as three int64
    limbs of shape (3, n + 1), each below ``2**26.3 log2(n)``: built once per process as it
    grows, so that a stack's CEN takes two gathers a limb. Its cost is mostly the logarithms
    of the primes up to n (:func:`_fixed_logs`, about 30 µs a prime): 0.12 s up to the
    largest ``d_j`` of the papers' matrices (37 423, 3 962 primes), 6.6 s up to their
    ``2 max(s)`` (939 368, 135 000 primes)."""
    global _LOG_TABLE
    if _LOG_TABLE.shape[1] <= n:
        size = max(n, 2 * _LOG_TABLE.shape[1], 1024)
        spf = _sieve(size)
        primes = np.flatnonzero(spf[: size + 1] == np.arange(size + 1))[2:]
        of_prime = np.zeros((3, size + 1), dtype=np.int64)
        of_prime[:, primes] = _fixed_logs(primes)
        table = np.zeros((3, size + 1), dtype=np.int64)
        x = np.arange(2, size + 1)
        index = x.copy()
        while x.size:  # one prime factor of every x a round (each index once a round)
            p = spf[x]
            for limb in range(3):
                table[limb, index] += of_prime[limb, p]
            x = x // p
            keep = x > 1
            index, x = index[keep], x[keep]
        _LOG_TABLE = table
    return _LOG_TABLE


def _cell_table(n: int) -> np.ndarray:
    """``F(x) = x L(x)`` for every ``0 <= x <= n < 2**23`` as the limbs ``(F mod 2**40,
    F >> 40)``, int64 of shape (2, m) with ``m > n``, built once per process as it grows
    (:func:`_log_table`).

    With ``L(x) <= 2**73 ln x + log2 x < 2**77`` (:func:`_fixed_logs`) and its limbs carried
    to ``l0 + l1 2**26 + l2 2**52`` (``l0, l1 < 2**26``, ``l2 < 2**25``), the products ``x l``
    stay below ``2**49`` and ``F >> 40 = (x l0 + (x l1 mod 2**14) 2**26) >> 40 + (x l1 >> 14)
    + x l2 2**12`` below ``2**61``.
    """
    global _CELL_TABLE
    if _CELL_TABLE.shape[1] <= n:
        size = min(max(n, 2 * _CELL_TABLE.shape[1], 1024), CEN_CELL_TABLE_TOTAL - 1)
        l0, l1, l2 = _log_table(size)[:, : size + 1].copy()
        l1 += l0 >> _LIMB
        l2 += l1 >> _LIMB
        l0 &= (1 << _LIMB) - 1
        l1 &= (1 << _LIMB) - 1
        x = np.arange(size + 1)
        split = _CELL_BITS - _LIMB
        low = x * l0 + ((x * l1 & ((1 << split) - 1)) << _LIMB)
        high = (low >> _CELL_BITS) + (x * l1 >> split) + (x * l2 << (2 * _LIMB - _CELL_BITS))
        _CELL_TABLE = np.stack([low & ((1 << _CELL_BITS) - 1), high])
    return _CELL_TABLE


def _sieve(n: int) -> np.ndarray:
    """:func:`_smallest_prime_factors` up to at least n, built once per process as it grows."""
    global _SIEVE
    if _SIEVE.size <= n:
        _SIEVE = _smallest_prime_factors(max(n, 2 * _SIEVE.size))
    return _SIEVE


def _fixed_logs(primes: np.ndarray) -> np.ndarray:
    """``round(ln(p) 2**73)`` of increasing primes, within 1, as int64 limbs of shape (3, m).

    Primes below 1024 from a 40-digit :mod:`decimal` logarithm; each larger p from the
    smaller primes of ``p - 1`` (which are all below p/2): ``ln p = sum v_q ln q +
    ln(1 + 1/(p - 1))``, the series in integers at 2**-100, with its error bound carried
    along (a few µs a prime, in Python integers; the same on every machine). Kept for the
    process.
    """
    missing = [int(p) for p in primes if int(p) not in _LOGS]
    if missing:
        spf = _sieve(max(missing))
        for p in sorted(missing):
            _LOGS[p] = _log_of_prime(p, spf)
    known = [_LOGS[p] for p in primes.tolist()]
    worst = max((error for _, error in known), default=0)
    if worst >= 1 << (_GUARD_BITS - _LOG_BITS - 2):  # never below 2**27 (a test checks)
        raise ArithmeticError(f"a logarithm of a prime carries an error bound of {worst}")
    half, shift, mask = (
        1 << (_GUARD_BITS - _LOG_BITS - 1),
        _GUARD_BITS - _LOG_BITS,
        (1 << _LIMB) - 1,
    )
    fixed = [(value + half) >> shift for value, _ in known]
    return np.array(
        [
            [x & mask for x in fixed],
            [(x >> _LIMB) & mask for x in fixed],
            [x >> 2 * _LIMB for x in fixed],
        ],
        dtype=np.int64,
    ).reshape(3, len(fixed))


def _log_of_prime(p: int, spf: np.ndarray) -> tuple[int, int]:
    """``(ln(p) 2**100, its error bound in units)``, the primes of ``p - 1`` known."""
    if p < 1024:
        context = Context(prec=40)
        value = context.multiply(context.ln(Decimal(p)), Decimal(1 << _GUARD_BITS))
        return int(value.to_integral_value()), 1
    value = error = 0
    x = p - 1
    while x > 1:
        q = int(spf[x])
        x //= q
        if q not in _LOGS:
            _LOGS[q] = _log_of_prime(q, spf)  # q <= p/2: at most log2(p) deep
        value, error = value + _LOGS[q][0], error + _LOGS[q][1]
    # ln(1 + t) = t - t²/2 + t³/3 - ..., t = 1/(p - 1) <= 2**-10: each term floors once (1 unit)
    t = (1 << _GUARD_BITS) // (p - 1)
    power, k, series = t, 1, 0
    while power:
        series += power // k if k % 2 else -(power // k)
        power = (power * t) >> _GUARD_BITS
        k += 1
    return value + series, error + 2 * k + 1


def _cen_values(m: Counts) -> np.ndarray:
    """CEN of each matrix of one stack, from the reduced fraction ``T / s`` (module docstring).

    ``T = sum_j w_j L(d_j) - 2 sum_{j != k} C_jk L(C_jk)``, with ``L(x) = sum_p v_p(x) L_p``
    the fixed-point logarithm of each value summed from its primes' (so that ``T = sum_p e_p
    L_p`` exactly, a function of R only), in three int64 limbs; then ``T / s`` is reduced by
    ``gcd(T mod s, s)`` with a long division of the limbs, and rounded.

    While every total is below :data:`CEN_CELL_TABLE_TOTAL` (``2**23``), twice the cells' sum
    ``S = sum C_jk L(C_jk)`` is gathered from :func:`_cell_table` in two limbs,
    ``2 S = H 2**40 + E`` with ``E = 2 sum (F mod 2**40)`` and ``H = 2 sum (F >> 40)``, and
    subtracted from the three: a cell of 0 or 1 adds ``F = 0``, so at most ``s / 2`` cells add
    to E, ``E < s 2**40 < 2**63``, and ``H <= 2 s L(s) / 2**40 < 2**61``. Above it, each limb
    of ``L(C_jk)`` is gathered and multiplied by ``C_jk``. Both give the same integer T, so
    the same bits.
    """
    K = m.n_classes
    diag, s = m.diag.reshape(-1, K), m.total.reshape(-1)
    d = m.true.reshape(-1, K) + m.pred.reshape(-1, K)
    if 2 * int(s.max()) > CEN_MAX_SIEVE:
        raise ValueError(
            f"exact CEN sieves primes up to 2s; a total of {int(s.max())} exceeds the "
            f"limit of {CEN_MAX_SIEVE // 2}"
        )
    off = m.C.reshape(-1, K, K).astype(np.int64)  # a copy, its diagonal set to 0
    np.einsum("nii->ni", off)[...] = 0
    table = _log_table(int(d.max()))  # L(x) of every x, (3, n) limbs: a cell is at most its d_j
    w = d - 2 * diag
    # |T_limb| <= 2**26.3 sum |weights| log2(2s) <= 2**26.3 4 s log2(2s) < 2**61
    low, middle, high = (np.einsum("nj,nj->n", w, v[d]) for v in table)
    mask = (1 << _LIMB) - 1
    if int(s.max()) < CEN_CELL_TABLE_TOTAL:
        cells = off.reshape(off.shape[0], -1)  # each at most its d_j and s
        top = min(int(d.max()), int(s.max()))
        E, H = (2 * v[cells].sum(axis=1) for v in _cell_table(top))  # 2S
        split = _CELL_BITS - _LIMB  # H 2**40 = (H mod 2**12) 2**14 2**26 + (H >> 12) 2**52
        low -= E & mask
        middle -= (E >> _LIMB) + ((H & ((1 << 2 * _LIMB - _CELL_BITS) - 1)) << split)
        high -= H >> (2 * _LIMB - _CELL_BITS)
    else:
        for limb, v in zip((low, middle, high), table, strict=True):
            limb -= 2 * np.einsum("njk,njk->n", off, v[off])
    middle += low >> _LIMB
    high += middle >> _LIMB
    low &= mask
    middle &= mask  # T = high 2**52 + middle 2**26 + low, the last two in [0, 2**26)
    # g = gcd(T mod s, s): every product below stays under 2**51 for s < 2**25
    shifted = (1 << _LIMB) % s
    remainder = (high % s * ((shifted * shifted) % s) + middle * shifted + low) % s
    g = np.gcd(remainder, s)
    high, rest = np.divmod(high, g)  # a long division of T by g, which divides it
    middle, rest = np.divmod((rest << _LIMB) + middle, g)
    low = ((rest << _LIMB) + low) // g
    T = np.ldexp(high.astype(np.float64), 2 * _LIMB) + ((middle << _LIMB) | low).astype(np.float64)
    return np.ldexp(T, -_LOG_BITS) / np.multiply(s // g, 2.0 * np.log(2.0 * (K - 1)))


def _one_k(stacks) -> int:
    ks = sorted({m.n_classes for m in stacks})
    if len(ks) > 1:
        raise ValueError(
            f"CEN of matrices with different numbers of classes (K = {ks}) cannot be compared "
            "exactly: their logarithm bases 2(K-1) differ; rank each K separately"
        )
    return ks[0]


def _cen_classes(stacks):
    """Classes of equal CEN from the prime exponents of R (module docstring) over the total."""
    _one_k(stacks)
    rows, columns, exponents, primes, s = _cen_exponents(stacks)
    n, m = s.size, primes.size
    if n * (m + 1) > CEN_MAX_KEY_ENTRIES:
        raise ValueError(
            f"exact CEN ranks of {n} matrices need {n} x {m + 1} integer keys ({m} distinct "
            f"primes), above the limit of {CEN_MAX_KEY_ENTRIES} entries; rank fewer matrices"
        )
    keys = np.zeros((n, m + 1), dtype=np.int64)
    keys[rows, columns] = exponents
    keys[:, m] = s
    keys //= np.gcd.reduce(keys, axis=1)[:, None]  # canonical e/s: equal CEN <=> equal rows
    keys, inverse = _classes(keys)
    approx = np.empty(keys.shape[0])
    approx[inverse] = np.concatenate([_cen_values(m) for m in stacks])  # equal in a class
    e_list, s_list, p_list = keys[:, :-1].tolist(), keys[:, -1].tolist(), primes.tolist()

    def compare(i: int, j: int) -> int:
        # sign of ln R_i / s_i - ln R_j / s_j = sign of ln prod_p p^(e_i s_j - e_j s_i)
        diff = [a * s_list[j] - b * s_list[i] for a, b in zip(e_list[i], e_list[j], strict=True)]
        up = prod(p**x for p, x in zip(p_list, diff, strict=True) if x > 0)
        down = prod(p**-x for p, x in zip(p_list, diff, strict=True) if x < 0)
        return _sign(up - down)

    return inverse, approx, VALUE_BOUNDS["cen"], compare
