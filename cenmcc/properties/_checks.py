"""The properties an audit checks: one function per property, its docstring the definition
(Gösgens et al. 2021, Sokolova & Lapalme 2009), taking the audit's matrices and values
(:class:`~cenmcc.properties._audit._Audit`) and returning a :class:`Result`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from ._audit import TRIPLE_BUDGET, Result, _Audit, block_rows


def _range(a: _Audit) -> Result:
    """Range: every value lies within the measure's documented ``bounds``, and every diagonal
    matrix (a perfect classification) takes exactly (within the tolerance) the ``best`` value.

    The counterexample is the first matrix (in the audit's order: the smallest within the
    exhaustive range) outside the bounds, or the first diagonal matrix whose value is not the
    best. ``details`` holds the smallest and largest values found
    and the documented bounds. (Gösgens et al. 2021 assume a measure's range; this checks the
    range that cenmcc documents.)
    """
    low, high = a.measure.bounds
    v = a.values
    defined = ~np.isnan(v)
    outside = defined & ~(((v >= low) | a.equal(v, low)) & ((v <= high) | a.equal(v, high)))
    diagonal = _is_diagonal(a.M)
    not_best = diagonal & defined & ~a.equal(v, a.measure.best)
    details = {
        "min": float(np.min(v[defined])),
        "max": float(np.max(v[defined])),
        "bounds": [low, high],
        "best": a.measure.best,
    }
    for bad, why in ((outside, "outside the bounds"), (not_best, "perfect, not the best value")):
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            example = {"matrices": [a.M[i].tolist()], "values": [float(v[i])], "why": why}
            return a.failure(i, example, details)
    return Result(True, None, a.method(), details)


def _is_diagonal(M: np.ndarray) -> np.ndarray:
    return M.sum(axis=(-2, -1)) == np.einsum("...ii->...", M)


def _maximal_agreement(a: _Audit) -> Result:
    """Maximal agreement: the best value is taken by the diagonal matrices (perfect
    classifications) and only by them.

    Gösgens et al. 2021, "maximal agreement" (a measure is maximal exactly when the two
    labelings agree). Fails with the first diagonal matrix (in the audit's order) whose value
    is not the best, or the first other matrix whose value is at least as good as the best
    (within the tolerance).
    """
    best, v = a.measure.best, a.values
    diagonal = _is_diagonal(a.M)
    defined = ~np.isnan(v)
    at_best = defined & ~a.better(best, v)
    bad = (diagonal & defined & ~a.equal(v, best)) | (~diagonal & at_best)
    if not np.any(bad):
        return Result(True, None, a.method())
    i = int(np.flatnonzero(bad)[0])
    why = "perfect, not the best value" if diagonal[i] else "imperfect, yet the best value"
    example = {"matrices": [a.M[i].tolist()], "values": [float(v[i])], "why": why}
    return a.failure(i, example)


def _symmetry(a: _Audit) -> Result:
    """Symmetry: ``f(C) = f(C^T)``, truth and prediction exchanged (Gösgens et al. 2021,
    "symmetry")."""
    return a.compare(lambda M: np.swapaxes(M, -1, -2), "transpose")


def _class_permutation(a: _Audit) -> Result:
    """Class-permutation invariance: ``f(P C P^T) = f(C)`` for every permutation matrix P
    (classes renamed alike in truth and prediction).

    Checked for the swap of the first two classes and the cycle of all K, which generate every
    permutation: invariance under both, on a domain closed under them, is invariance under all.
    """
    K = a.K
    for perm in ([1, 0, *range(2, K)], [*range(1, K), 0]):
        cells = (np.array(perm)[:, None] * K + perm).ravel()  # C[perm][:, perm], flattened
        result = a.compare(
            lambda M, cells=cells: M.reshape(-1, K * K)[:, cells].reshape(-1, K, K),
            f"classes permuted as {perm}",
        )
        if not result.holds:
            return result
    return result


def _scale_invariance(a: _Audit) -> Result:
    """Scale invariance: ``f(λ C) = f(C)`` for whole λ ≥ 2, checked for λ = 2 and 3 (every
    count multiplied; the same classifier on a test set repeated λ times)."""
    for factor in (2, 3):
        result = a.compare(lambda M, factor=factor: M * factor, f"multiplied by {factor}")
        if not result.holds:
            return result
    return result


def _monotone(a: _Audit, strict: bool) -> Result:
    """The first matrix (smallest total, then order) with a correction of one misclassified
    item (one count moved from ``C_ij > 0``, ``i != j``, to ``C_ii``) that makes the value
    worse, or with ``strict`` not better; each cell's corrections are evaluated in turn (the
    corrected matrices block by block), in the exhaustive matrices first and in the random
    ones only if none of them fails."""
    for part in a.phases():
        first = None
        for i, j in itertools.permutations(range(a.K), 2):
            rows = part.start + np.flatnonzero(a.M[part, i, j] > 0)
            key = (part.start, i, j)
            if key not in a.corrected:  # shared by monotonicity and strict monotonicity
                a.corrected[key] = _corrected_values(a, rows, i, j)
            before, after = a.values[rows], a.corrected[key]
            bad = ~a.better(after, before) if strict else a.better(before, after)
            failing = np.flatnonzero(~np.isnan(before) & ~np.isnan(after) & bad)
            if failing.size and (first is None or rows[failing[0]] < first[0]):
                k = failing[0]
                first = (int(rows[k]), i, j, float(before[k]), float(after[k]))
        if first is not None:
            row, i, j, before, after = first
            corrected = a.M[row].copy()
            corrected[i, j] -= 1
            corrected[i, i] += 1
            example = {
                "matrices": [a.M[row].tolist(), corrected.tolist()],
                "values": [before, after],
                "why": "one misclassified item corrected: " + ("not better" if strict else "worse"),
            }
            return a.failure(row, example)
    return Result(True, None, a.method())


def _corrected_values(a: _Audit, rows: np.ndarray, i: int, j: int) -> np.ndarray:
    """The values of the audit's matrices ``rows`` with one item moved from cell (i, j) to
    (i, i), block by block (the corrected copies never more than a block)."""
    values = np.empty(len(rows))
    for block in a.blocks(slice(0, len(rows))):
        moved = a.M[rows[block]]  # a copy
        moved[:, i, j] -= 1
        moved[:, i, i] += 1
        values[block] = a.f(moved)
    return values


def _monotonicity(a: _Audit) -> Result:
    """Monotonicity: correcting one misclassified item (one count moved from ``C_ij``,
    ``i != j``, to ``C_ii``) never makes the value worse.

    A restatement on confusion matrices of the monotonicity of Gösgens et al. 2021, who ask
    that any change of one labeling towards the other improves the measure; this is the change
    of one item's predicted label to its true label.
    """
    return _monotone(a, strict=False)


def _strict_monotonicity(a: _Audit) -> Result:
    """Strict monotonicity: correcting one misclassified item (as in monotonicity) always makes
    the value better, beyond the tolerance (Gösgens et al. 2021, "strict monotonicity")."""
    return _monotone(a, strict=True)


def _constant_baseline(a: _Audit) -> Result:
    """Constant baseline: for a prediction independent of the truth with fixed class sizes,
    the expected value is the same whatever the class sizes.

    With ``s`` items, true class sizes ``t`` and predicted class sizes ``p`` (the row and
    column sums), the predicted labels a uniformly random permutation of a fixed list, the
    matrix follows the multivariate hypergeometric law of a table given its margins:
    ``P(C) = prod_i t_i! prod_j p_j! / (s! prod_ij C_ij!)``. The expectation of the measure is
    computed exactly (one sum over every matrix with those margins, the matrices being those
    of the exhaustive range) for every ``(t, p)`` of 1 to ``n_items`` items; the property holds
    when all these expectations are equal within 1e-9 relative (sums of up to 10^5 rounded
    terms). Beyond that range, sampled (:func:`_sampled_baseline`): the mean and standard error
    of random predictions for random margins. Gösgens et al. 2021, "constant baseline". The
    counterexample gives the two margins whose expectations differ, the smallest total first
    (or the sampled margins, their mean and its standard error). None (undecided) where no pair
    of margins of the exhaustive range has a value on every one of its matrices.
    """
    from scipy.special import gammaln

    M = a.M[: a.n_exhaustive]
    v = a.values[: a.n_exhaustive]
    t, p = M.sum(axis=-1), M.sum(axis=-2)
    s = t.sum(axis=-1)
    log_p = gammaln(t + 1).sum(-1) + gammaln(p + 1).sum(-1) - gammaln(s + 1)
    for block in a.blocks(slice(0, a.n_exhaustive)):  # the K² cells' terms, a block at a time
        log_p[block] -= gammaln(M[block] + 1).sum(axis=(-2, -1))
    margins, group = _unique_rows(np.concatenate([t, p], axis=-1))
    weight = np.exp(log_p)
    kept = np.isfinite(v)
    expected = np.bincount(group[kept], weight[kept] * v[kept], len(margins))
    mass = np.bincount(group[kept], weight[kept], len(margins))
    defined = mass > 1 - 1e-9  # every matrix of those margins has a value
    expected = expected[defined] / mass[defined]
    margins = margins[defined]
    if not len(margins):
        return Result(
            None,
            None,
            f"exact: no pair of margins of 1 to {a.n_items} items on which the measure is "
            "defined for every matrix: undecided (a larger n_items may decide it)",
        )
    sizes = margins[:, : a.K].sum(axis=-1)
    order = np.lexsort((np.arange(len(sizes)), sizes))
    expected, margins = expected[order], margins[order]
    scale = np.maximum(1.0, np.abs(expected))
    differ = np.abs(expected - expected[0]) > 1e-9 * np.maximum(scale, abs(expected[0]))
    method = (
        f"exact: expectation under the hypergeometric law of every pair of margins of 1 to "
        f"{a.n_items} items ({len(margins)} pairs)"
    )
    details = {"min": float(expected.min()), "max": float(expected.max())}
    if not np.any(differ):
        return _sampled_baseline(a, float(expected[0]), method, details)
    k = int(np.flatnonzero(differ)[0])
    example = {
        "margins": [_margins(margins[0], a.K), _margins(margins[k], a.K)],
        "expected": [float(expected[0]), float(expected[k])],
    }
    return Result(False, example, method, details, smallest=True)


def _unique_rows(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, axis=0, return_inverse=True)`` for a 2-D integer array: the distinct
    rows in lexicographic order, and the index of each row among them. Sorted with
    ``np.lexsort``, column by column, rather than as one structured value per row: 0.26 s
    rather than 1.25 s (CPU) on the 3×10^5 pairs of margins of a K = 3 audit."""
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    new = np.ones(len(keys), dtype=bool)
    np.any(ordered[1:] != ordered[:-1], axis=-1, out=new[1:])
    group = np.empty(len(keys), dtype=np.intp)
    group[order] = np.cumsum(new) - 1
    return ordered[new], group


#: Margin pairs drawn beyond the exhaustive range, and the standard errors a sampled mean may
#: stray from the exact constant before the constant baseline fails.
N_MARGINS, N_STANDARD_ERRORS = 100, 5.0


def _sampled_baseline(a: _Audit, constant: float, method: str, details: dict) -> Result:
    """The constant baseline beyond the exhaustive range, by sampling.

    For :data:`N_MARGINS` pairs of margins with every class present and totals as the random
    matrices', ``n_random / N_MARGINS`` random predictions each (the matrix of a uniformly
    random permutation of the predicted labels, drawn from its law, :func:`_random_tables`,
    block by block: :func:`~cenmcc.properties._audit.block_rows`): the mean value and its
    standard error. The property fails where a mean is more than
    :data:`N_STANDARD_ERRORS` standard errors (plus the tolerance) from the exact constant of
    the exhaustive range.
    """
    draws = (len(a.M) - a.n_exhaustive) // N_MARGINS
    details = {**details, "expected": constant}
    if draws < 2:
        return Result(True, None, method, details)
    K = a.K
    rng = np.random.default_rng([a.seed, 1])
    totals = rng.integers(max(a.n_items + 1, K), a.random_totals[1] + 1, size=N_MARGINS)
    t, p = (1 + rng.multinomial(totals - K, np.full(K, 1.0 / K)) for _ in range(2))
    margins = np.concatenate([t, p], axis=-1)
    values = np.empty((N_MARGINS, draws))
    size = block_rows(K)  # tables per block: margins together, or one margin's draws in parts
    together, part = max(1, size // draws), min(draws, size)
    for m in range(0, N_MARGINS, together):
        group = slice(m, m + together)
        for d in range(0, draws, part):
            n = min(part, draws - d)
            tables = _random_tables(rng, t[group], p[group], n)
            values[group, d : d + n] = a.f(tables.reshape(-1, K, K)).reshape(-1, n)
    count = np.isfinite(values).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nanmean(np.where(count[:, None] > 1, values, 0.0), axis=-1)
        error = np.nanstd(np.where(count[:, None] > 1, values, 0.0), axis=-1, ddof=1)
    error = error / np.sqrt(np.maximum(count, 1))
    kept = count > 1
    gap = np.abs(mean - constant)
    bad = kept & (gap > N_STANDARD_ERRORS * error + a.tolerance * np.maximum(1.0, abs(constant)))
    method = (
        f"{method}; sampled: {N_MARGINS} pairs of margins of {totals.min()} to "
        f"{totals.max()} items, {draws} random predictions each, within "
        f"{N_STANDARD_ERRORS:g} standard errors"
    )
    if not np.any(bad):
        return Result(True, None, method, details)
    order = np.flatnonzero(bad)
    k = int(order[np.argmin(totals[order])])
    example = {
        "margins": [_margins(margins[k], K)],
        "expected": [constant, float(mean[k])],
        "standard_error": float(error[k]),
    }
    return Result(False, example, method, details, smallest=False)


def _random_tables(rng: np.random.Generator, t: np.ndarray, p: np.ndarray, draws: int):
    """``draws`` random K×K matrices for each pair of margins ``t[m], p[m]`` (row and column
    sums, shape (M, K)), shape (M, draws, K, K): the law of the confusion matrix when the
    predicted labels are a uniformly random permutation of a list with class sizes ``p``.

    That law is the multivariate hypergeometric law of a table given its margins, drawn row by
    row and, within a row, cell by cell: ``C_ij`` is hypergeometric, the row's items not yet
    placed drawn from the predicted labels left, of class j or of a later class. That is
    K(K-1) draws per matrix where shuffling the list of labels draws one per item: for K = 2
    and about 150 items, 0.2 s rather than 3 s (CPU) for the 10^6 matrices of an audit (the
    loop runs over the cells, never over the matrices).
    """
    K = t.shape[-1]
    C = np.empty((len(t), draws, K, K), dtype=np.int64)
    left = np.repeat(p[:, None, :], draws, axis=1)  # the predicted labels not yet placed
    for i in range(K - 1):
        need = np.repeat(t[:, None, i], draws, axis=1)  # the items of row i not yet placed
        later = left.sum(axis=-1)
        for j in range(K - 1):
            later -= left[..., j]
            C[..., i, j] = rng.hypergeometric(left[..., j], later, need)
            need -= C[..., i, j]
        C[..., i, K - 1] = need
        left -= C[..., i, :]
    C[..., K - 1, :] = left
    return C


def _margins(key: np.ndarray, K: int) -> dict:
    return {"true": key[:K].tolist(), "predicted": key[K:].tolist()}


def _distance(a: _Audit) -> Result:
    """Distance: a decreasing affine transform of the measure is a metric on labelings.

    A metric ``d`` on the labelings of n items into K classes has ``d(x, x) = 0``,
    ``d(x, y) > 0`` for ``x != y``, ``d(x, y) = d(y, x)`` and the triangle inequality
    ``d(x, z) <= d(x, y) + d(y, z)``, where ``d(x, y)`` is computed from the confusion matrix of
    truth ``x`` and prediction ``y``. ``d(x, x) = 0`` leaves one decreasing affine transform up
    to a positive factor, which no axiom sees: ``d = best - f`` (``f - best`` for a measure
    where lower is better). Gösgens et al. 2021, "distance" (they look for any monotone
    transform; the affine one is what the issue asks). Checked over every ordered triple of
    labelings of n items for n = 1, 2, ... up to the largest n with at most 2·10^7 triples (8
    for K = 2, 5 for K = 3); the counterexample is the first failure of the smallest n.
    None where the best value is infinite.
    """
    if not math.isfinite(a.measure.best):
        return Result(None, None, "no affine transform is 0 at an infinite best value")
    K = a.K
    n_max = max(1, int(math.log(TRIPLE_BUDGET) / (3 * math.log(K))))
    for n in range(1, n_max + 1):
        labelings = np.array(list(itertools.product(range(K), repeat=n)), dtype=np.int64)
        N = len(labelings)
        codes = labelings[:, None, :] * K + labelings[None, :, :]  # (N, N, n)
        cells = np.zeros((N * N, K * K), dtype=np.int64)
        np.add.at(cells, (np.repeat(np.arange(N * N), n), codes.ravel()), 1)
        matrices = cells.reshape(N, N, K, K)
        d = a.sign * (a.measure.best - a.f(matrices.reshape(-1, K, K))).reshape(N, N)
        failure = _metric_failure(a, d)
        if failure is not None:
            x, y, z, why = failure
            labels = [labelings[i].tolist() for i in (x, y, z) if i is not None]
            pairs = [(x, z), (x, y), (y, z)] if z is not None else [(x, y), (y, x)]
            example = {
                "labelings": labels,
                "matrices": [matrices[i, j].tolist() for i, j in pairs],
                "distances": [float(d[i, j]) for i, j in pairs],
                "why": why,
            }
            method = f"exhaustive: every triple of labelings of {n} items"
            return Result(False, example, method, smallest=True)
    return Result(
        True, None, f"exhaustive: every triple of labelings of 1 to {n_max} items ({K} classes)"
    )


def _metric_failure(a: _Audit, d: np.ndarray):
    """The first broken axiom of the distance matrix ``d``: ``(x, y, z or None, why)``."""
    N = len(d)
    undefined = np.isnan(d) | np.isnan(d.T)  # left out, as the measure is
    same = np.eye(N, dtype=bool)
    for bad, why in (
        (~same | (np.abs(d) <= a.tolerance), "d(x, x) is not 0"),
        (same | (d > a.tolerance), "d(x, y) <= 0 for x != y"),
        (a.equal(d, d.T), "d(x, y) != d(y, x)"),
    ):
        bad = bad | undefined
        if not np.all(bad):
            x, y = map(int, np.argwhere(~bad)[0])
            return x, y, None, why
    for y in range(N):
        through = d[:, y][:, None] + d[y, :][None, :]  # d(x, y) + d(y, z)
        broken = d > through + a.tolerance * np.maximum(1.0, np.abs(through))
        if np.any(broken):
            x, z = map(int, np.argwhere(broken)[0])
            return x, y, z, "d(x, z) > d(x, y) + d(y, z)"
    return None


def _binary_cells(a: _Audit, change: Callable[[np.ndarray], None], what: str) -> Result:
    def transform(M):
        changed = M.copy()
        change(changed)
        return changed

    return a.compare(transform, what)


def _sl(change: Callable[[np.ndarray], None], what: str, doc: str) -> Callable:
    def check(a: _Audit) -> Result:
        return _binary_cells(a, change, what)

    check.__doc__ = doc
    return check


def _add(i: int, j: int) -> Callable:
    def change(M):
        M[:, i, j] += 1

    return change


def _scale_row(i: int) -> Callable:
    def change(M):
        M[:, i, :] *= 2

    return change


def _exchange(M):
    M[...] = M[:, ::-1, ::-1]


_SL_SOURCE = (
    "After the invariances of Sokolova & Lapalme 2009 (their I1-I8; which number is this one "
    "is not confirmed), restated with class 0 positive: C = [[tp, fn], [fp, tn]], rows = truth. "
)

#: Invariances for K = 2 after Sokolova & Lapalme (2009), by name: the change of the matrix,
#: and its definition in our words. Sokolova & Lapalme number eight invariances I1-I8 under
#: changes of the binary confusion matrix; their text was not available to us (searches of
#: the public corpora found citations of the paper, never its definitions), so neither the
#: numbering nor the section and table that hold them could be confirmed. The properties are
#: therefore named by the change they make, not mapped to an I-number; the uniform change of
#: all four counts by one factor is checked, for every K, by ``scale_invariance``.
SOKOLOVA_LAPALME = {
    "sl_exchange": (
        _exchange,
        "positives and negatives exchanged",
        "Invariance under the exchange of positives and negatives: f([[tn, fp], [fn, tp]]) = f(C).",
    ),
    "sl_true_negatives": (
        _add(1, 1),
        "one more true negative",
        "Invariance under a change of tn: f with tn + 1 equals f(C).",
    ),
    "sl_true_positives": (
        _add(0, 0),
        "one more true positive",
        "Invariance under a change of tp: f with tp + 1 equals f(C).",
    ),
    "sl_false_positives": (
        _add(1, 0),
        "one more false positive",
        "Invariance under a change of fp: f with fp + 1 equals f(C).",
    ),
    "sl_false_negatives": (
        _add(0, 1),
        "one more false negative",
        "Invariance under a change of fn: f with fn + 1 equals f(C).",
    ),
    "sl_positives_scaled": (
        _scale_row(0),
        "the positive row doubled",
        "Invariance under a change of the positive class size at the same rates: "
        "f([[2 tp, 2 fn], [fp, tn]]) = f(C).",
    ),
    "sl_negatives_scaled": (
        _scale_row(1),
        "the negative row doubled",
        "Invariance under a change of the negative class size at the same rates: "
        "f([[tp, fn], [2 fp, 2 tn]]) = f(C).",
    ),
}

#: Every property, by name: the function that checks it (its docstring is the definition).
PROPERTIES: dict[str, Callable[[_Audit], Result]] = {
    "range": _range,
    "maximal_agreement": _maximal_agreement,
    "symmetry": _symmetry,
    "class_permutation": _class_permutation,
    "scale_invariance": _scale_invariance,
    "monotonicity": _monotonicity,
    "strict_monotonicity": _strict_monotonicity,
    "constant_baseline": _constant_baseline,
    "distance": _distance,
    **{
        name: _sl(change, what, _SL_SOURCE + doc)
        for name, (change, what, doc) in SOKOLOVA_LAPALME.items()
    },
}

#: The properties that have a meaning only for K = 2.
BINARY_ONLY = frozenset(SOKOLOVA_LAPALME)
