"""Properties that Gösgens et al. (2021) and the Jurman et al. papers state a measure has or
lacks, checked by :func:`cenmcc.properties.audit`.

Each check audits one measure for one property, for K = 2 and K = 3, on the matrices in which
every class is true and predicted (the domain of Gösgens et al.; ``every_class_present``), and
measures either the number of K for which a counterexample was found or, for a constant
baseline, the largest expectation found under random predictions. The exhaustive ranges are
smaller than the audit's defaults (:data:`N_ITEMS`), so that the checks take seconds.
"""

from __future__ import annotations

import cenmcc

from .declarations import load
from .record import Measured

#: The exhaustive range (every matrix of 1 to n items) per K, the random matrices after it, and
#: their seed.
N_ITEMS = {2: 24, 3: 8}
N_RANDOM, SEED = 20_000, 2021


def _audit(measure: str, prop: str, K: int, *, present: bool = True):
    return cenmcc.properties.audit(
        measure,
        K,
        [prop],
        n_items=N_ITEMS[K],
        n_random=N_RANDOM,
        seed=SEED,
        every_class_present=present,
    )[prop]


def failures(measure: str, prop: str, present: bool = True) -> Measured:
    """The number of K in (2, 3) for which ``prop`` fails for ``measure``, with the
    counterexamples in the detail."""
    results = {K: _audit(measure, prop, K, present=present) for K in (2, 3)}
    failing = {K: r for K, r in results.items() if r.holds is False}
    shown = "; ".join(f"K = {K}: {r.counterexample}" for K, r in failing.items())
    where = "every class present" if present else "every matrix"
    return Measured(
        float(len(failing)),
        f"{prop} of {measure} fails for {len(failing)} of K = 2, 3 ({where}; "
        f"{results[3].method}){': ' + shown if shown else ''}",
    )


def baseline(measure: str) -> Measured:
    """The largest |expected value| of ``measure`` under random predictions with fixed class
    sizes, over every pair of margins of the exhaustive range, K = 2 and 3."""
    largest, methods = 0.0, []
    for K in (2, 3):
        result = _audit(measure, "constant_baseline", K)
        details = result.details
        largest = max(largest, abs(details["min"]), abs(details["max"]))
        methods.append(f"K = {K}: {result.method}")
    return Measured(largest, "; ".join(methods))


#: The claims declared in gosgens.toml, each measured by the check it names.
RECORDS = load(__name__)
