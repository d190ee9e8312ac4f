"""What a measure promises: an audit of its properties, with a counterexample of each that
fails (the smallest where the exhaustive range holds one).

:func:`audit` takes a measure (a name of :data:`cenmcc.MEASURES`, a metric of cenmcc that
declares its direction, or a user :class:`cenmcc.Measure`) and a number of classes K, and
checks each property of :data:`PROPERTIES` on

- every K×K matrix of 1 to ``n_items`` items (:func:`cenmcc.matrices_with_total`): within that
  range a property that holds is proved for the measure as computed, and a counterexample is
  the smallest (fewest items, then the first in lexicographic order);
- then ``n_random`` random matrices of more items (counts multinomial with Dirichlet(1/2) class
  probabilities, sorted by their number of items): evidence, not proof; a counterexample found
  there is the first of them, not the smallest (``Result.smallest`` is False: one of fewer
  items may exist beyond the exhaustive range).

The measure is audited where it is defined, as Gösgens et al. consider a measure: one rule
leaves a matrix out of every check, the matrices where the measure meets a 0/0, those its
``UndefinedMetricWarning`` counts, whether it fills a value there (the MCC's 0 where a margin
is empty; the informedness's 0 for the ``B_k`` of a class never or always true) or leaves the
0/0 term out of a mean (the balanced accuracy's classes without true samples); a user
measure's NaN values. A check on a pair of matrices (a matrix and its transpose, say) leaves
out the pair where either is. Each result's ``method`` counts the matrices left out, of each
phase. Two values are equal when they differ by at most
``tolerance`` (1e-12 by default) times ``max(1, |a|, |b|)``; "better" and "worse" are beyond
that tolerance. An infinite value (the best of a measure bounded by ``inf``) is a value, equal
only to itself. The result of each property (:class:`Result`) says whether it holds (True,
False, or None where it has no meaning for the measure), its counterexample (the matrices
and the values) and whether it is the smallest, and how that was decided.

The properties follow Gösgens, Zhiyanov, Tikhonov & Prokhorenkova, "Good classification
measures and how to find them", NeurIPS 2021 (arXiv 2201.09044), restated on confusion matrices,
and, for K = 2, invariances under changes of the binary matrix after Sokolova & Lapalme, "A
systematic analysis of performance measures for classification tasks", Information Processing &
Management 45 (2009) 427-437, named by the change they make (``sl_*``): their numbering I1-I8
could not be confirmed (see :data:`SOKOLOVA_LAPALME`). Each property's definition, the
docstring of the function that checks it, is listed under "The properties" below.

Examples
--------
>>> import cenmcc
>>> properties = ["symmetry", "constant_baseline"]
>>> report = cenmcc.properties.audit("accuracy", 2, properties, n_items=8, n_random=10**4)
>>> report["symmetry"].holds, report["constant_baseline"].holds
(True, False)
>>> report["constant_baseline"].counterexample["expected"]
[1.0, 0.0]
"""

from __future__ import annotations

import inspect
import math
import textwrap
from collections.abc import Iterable

from .._memory import available_bytes, gib
from .._metric import Measure
from .._validation import check_integer, check_real
from ..registry import measure_named
from ._audit import EXHAUSTIVE_BUDGET, TOLERANCE, Result, _Audit, footprint
from ._checks import BINARY_ONLY, PROPERTIES, SOKOLOVA_LAPALME

__all__ = ["BINARY_ONLY", "PROPERTIES", "SOKOLOVA_LAPALME", "TOLERANCE", "Result", "audit"]


def _resolve(measure) -> Measure:
    if isinstance(measure, Measure):
        return measure
    if isinstance(measure, str):
        return measure_named(measure)
    named = getattr(measure, "measure", None)
    if isinstance(named, Measure):
        return named
    raise TypeError(
        f"measure must be a name of cenmcc.MEASURES, a metric of cenmcc that declares its "
        f"direction, or a cenmcc.Measure, got {measure!r}; wrap a function in "
        f"cenmcc.Measure(name, function, greater_is_better, bounds=...)"
    )


def _default_items(K: int) -> int:
    """The largest n with at most :data:`EXHAUSTIVE_BUDGET` matrices of 1 to n items."""
    n, count = 0, 0
    while True:
        count += math.comb(n + 1 + K * K - 1, K * K - 1)
        if count > EXHAUSTIVE_BUDGET:
            return max(n, 1)
        n += 1


def audit(
    measure,
    n_classes: int,
    properties: Iterable[str] | None = None,
    *,
    n_items: int | None = None,
    n_random: int = 10**6,
    seed: int = 0,
    tolerance: float = TOLERANCE,
    every_class_present: bool = False,
) -> dict[str, Result]:
    """Which properties a measure has on K×K confusion matrices, with the smallest
    counterexample of each that fails.

    Parameters
    ----------
    measure : str, metric of cenmcc, or Measure
        A name of :data:`cenmcc.MEASURES`, a metric that declares its direction
        (``cenmcc.mcc``), or a :class:`cenmcc.Measure` (its ``greater_is_better``, ``best``
        and ``bounds`` are those audited).
    n_classes : int
        K >= 2.
    properties : iterable of str, optional
        Names of :data:`PROPERTIES`; by default all that have a meaning for K (the
        Sokolova-Lapalme invariances only for K = 2).
    n_items : int, optional
        Every matrix of 1 to ``n_items`` items is checked; by default the largest n with at
        most 300 000 matrices (49 for K = 2, 12 for K = 3, 7 for K = 4).
    n_random : int, default 10**6
        Random matrices of more items checked after them.
    seed : int, default 0
        Seed of the random matrices.
    tolerance : float, default 1e-12
        Relative tolerance of equalities (see the module docstring).
    every_class_present : bool, default False
        Audit only the matrices in which every class is true at least once and predicted at
        least once (and labelings that use every class): the domain on which Gösgens et al.
        (2021) state most of their results. A transform that leaves the domain is not checked.

    Returns
    -------
    dict of str to Result
        Each property's :class:`Result`, in the order asked.

    Raises
    ------
    ValueError
        An unknown property (the known ones are listed), a property without meaning for K
        (a Sokolova-Lapalme invariance for K != 2), an unknown measure name, an audit that
        needs more memory than this machine has available (refused before any work: its
        matrices are held at once, the work on them done in blocks), or a measure undefined
        on every matrix of the exhaustive range.
    TypeError
        A measure that is neither a name, a metric declaring its direction, nor a Measure.
    """
    chosen = _resolve(measure)
    K = check_integer(n_classes, name="n_classes", low=2)
    if properties is None:
        names = [p for p in PROPERTIES if K == 2 or p not in BINARY_ONLY]
    else:
        names = [properties] if isinstance(properties, str) else list(properties)
        for name in names:
            if name not in PROPERTIES:
                raise ValueError(
                    f"unknown property {name!r}; the known ones are {list(PROPERTIES)}"
                )
            if name in BINARY_ONLY and K != 2:
                raise ValueError(f"property {name!r} is defined for K = 2 only, got K = {K}")
    n = _default_items(K) if n_items is None else check_integer(n_items, name="n_items", low=1)
    n_random = check_integer(n_random, name="n_random", low=0)
    tolerance = check_real(tolerance, name="tolerance", low=0)
    n_exhaustive = math.comb(n + K * K, K * K) - 1  # every K×K matrix of 1 to n items
    needed, available = footprint(K, n_exhaustive, n_random, n), available_bytes()
    if needed > available:
        raise ValueError(
            f"the audit of {chosen.name!r} for K = {K} needs about {gib(needed)} of memory "
            f"({n_exhaustive:,} matrices of 1 to {n} items and {n_random:,} random ones), more "
            f"than the {gib(available)} available on this machine: lower n_random or n_items"
        )
    state = _Audit(chosen, K, n, n_random, seed, tolerance, bool(every_class_present))
    return {name: PROPERTIES[name](state) for name in names}


def _definitions() -> str:
    """The section of this module's docstring that defines each property of :data:`PROPERTIES`
    (the docstring of the function that checks it), so that ``help(cenmcc.properties)`` shows
    the definitions rather than the functions' names."""
    entries = (
        f"{name}\n{textwrap.indent(inspect.cleandoc(check.__doc__), '    ')}"
        for name, check in PROPERTIES.items()
    )
    return "\n\nThe properties\n--------------\n" + "\n\n".join(entries) + "\n"


if __doc__ is not None:  # None under python -OO, which strips every docstring
    __doc__ += _definitions()
