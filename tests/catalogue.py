"""One catalogue of every public metric of cenmcc and its properties.

After scikit-learn's ``sklearn/metrics/tests/test_common.py``: each metric is listed once, with
what it takes and which properties it has, and the generic tests (``test_common.py``,
``test_exactness.py``) are driven by this list. Every name of ``cenmcc.__all__`` is either
catalogued here or in :data:`EXCLUDED` with the reason, so that a new metric is covered the day
it is added (``test_common.test_every_public_name_is_catalogued_or_excluded``).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings
from collections.abc import Callable

import exact
import numpy as np

import cenmcc

# What a metric takes (the positional inputs of ``Metric.call``):
COUNTS = "counts"  # C, shape (..., K, K), integer or float counts
INTEGER_COUNTS = "integer counts"  # C, integer counts only
LABELS = "labels"  # y_true, y_pred
SCORES = "scores"  # y_true, scores (n_samples, K)
PROBABILITIES = "probabilities"  # y_true, proba (n_samples, K), rows on the simplex
TWO_MEASURES = "two measures"  # f, g: two measures on the same n objects
ONE_MEASURE = "one measure"  # values of one measure on n objects

#: The largest CEN of any matrix (binary, T/F = e/2 - 1): Jurman et al. (2012), "The binary case".
CEN_MAX = 2 / (math.e * math.log(2))


@dataclasses.dataclass(frozen=True)
class Metric:
    """A public metric of cenmcc, called one way, with the properties that hold for it.

    Attributes
    ----------
    id : str
        The test id: the public name, with the variant in brackets (``f1_score[macro]``).
    call : callable
        ``call(*inputs, **kwargs)`` with the inputs that ``takes`` names.
    takes : str
        One of the input kinds above.
    public : str
        The name in ``cenmcc.__all__``; ``id`` up to a bracket by default.
    per_class : bool
        Returns shape ``(..., K)`` for counts ``(..., K, K)`` (else ``(...)``).
    symmetric : bool
        Unchanged when ``C`` is transposed (truth and prediction swapped).
    invariant : bool
        Unchanged when ``C`` is multiplied by a positive number and when the classes are
        relabelled (per-class values then follow the relabelling).
    bounds, best : tuple of float, float or None
        The range of the values and the best value (None: not a performance measure).
    greater_is_better : bool or None
        The direction of the values.
    zero_division : bool
        Takes a ``zero_division`` fill value for its 0/0 values.
    exact : callable or None
        ``exact(F)``: the exact value of one matrix of fractions (:mod:`exact`).
    """

    id: str
    call: Callable
    takes: str
    public: str = ""
    per_class: bool = False
    symmetric: bool = False
    invariant: bool = False
    bounds: tuple[float, float] | None = None
    best: float | None = None
    greater_is_better: bool | None = None
    zero_division: bool = False
    exact: Callable | None = None

    def __post_init__(self):
        if not self.public:
            object.__setattr__(self, "public", self.id.split("[")[0])


def _uniform(K: int) -> np.ndarray:
    return np.full(K, 1 / K)


def _n_classes(C) -> int:
    """K of counts ``C``, or 2 where ``C`` has no K: the call then fails on ``C`` itself."""
    if isinstance(C, cenmcc.Counts):
        return C.n_classes
    try:
        return np.shape(C)[-1]
    except (ValueError, IndexError):
        return 2


def _count_metric(id, call, *, exact, best=1.0, bounds=(0.0, 1.0), **properties) -> Metric:
    """A metric of counts with the common properties: invariant, higher is better by default."""
    return Metric(
        id,
        call,
        COUNTS,
        invariant=True,
        bounds=bounds,
        best=best,
        greater_is_better=None if best is None else best == bounds[1],
        exact=exact,
        **properties,
    )


def _averages(public: str, function, per_class_exact, symmetric_averages) -> list[Metric]:
    """A per-class metric with its ``average`` variants."""
    entries = []
    for average in (None, "micro", "macro", "weighted"):
        entries.append(
            _count_metric(
                f"{public}[{average}]",
                functools.partial(function, average=average),
                exact=exact.averaged(per_class_exact, average),
                per_class=average is None,
                symmetric=average in symmetric_averages,
                zero_division=average != "micro",
            )
        )
    return entries


CATALOGUE: list[Metric] = [
    _count_metric("accuracy", cenmcc.accuracy, symmetric=True, exact=exact.accuracy),
    _count_metric("balanced_accuracy", cenmcc.balanced_accuracy, exact=exact.balanced_accuracy),
    _count_metric(
        "balanced_accuracy_weighted[frequency]",
        cenmcc.balanced_accuracy_weighted,
        symmetric=True,  # with the class frequencies as weights it is the accuracy
        zero_division=True,
        exact=exact.balanced_accuracy_frequency,
    ),
    _count_metric(
        "balanced_accuracy_weighted[ones]",
        lambda C, **kw: cenmcc.balanced_accuracy_weighted(C, np.ones(_n_classes(C)), **kw),
        zero_division=True,
        exact=exact.weighted_recall(np.ones, normalized=True),
    ),
    _count_metric(
        "weighted_accuracy[uniform]",
        lambda C, **kw: cenmcc.weighted_accuracy(C, _uniform(_n_classes(C)), **kw),
        zero_division=True,
        exact=exact.weighted_recall(_uniform, normalized=False),
    ),
    *(  # the two chance-corrected agreements
        _count_metric(
            name,
            getattr(cenmcc, name),
            symmetric=True,
            bounds=(-1.0, 1.0),
            zero_division=True,
            exact=getattr(exact, name),
        )
        for name in ("mcc", "cohen_kappa")
    ),
    # The averages of the one-vs-rest binary MCCs.
    _count_metric(
        "macro_mcc",
        cenmcc.macro_mcc,
        symmetric=True,
        bounds=(-1.0, 1.0),
        zero_division=True,
        exact=exact.macro_mcc,
    ),
    _count_metric(
        "micro_mcc", cenmcc.micro_mcc, symmetric=True, bounds=(-1.0, 1.0), exact=exact.micro_mcc
    ),
    _count_metric(
        "expected_accuracy",
        cenmcc.expected_accuracy,
        symmetric=True,
        best=None,  # the accuracy of chance: not a performance measure
        exact=exact.expected_accuracy,
    ),
    _count_metric(
        "cen", cenmcc.cen, symmetric=True, best=0.0, bounds=(0.0, CEN_MAX), exact=exact.cen
    ),
    _count_metric(
        "cen_per_class",
        cenmcc.cen_per_class,
        per_class=True,
        symmetric=True,
        best=0.0,
        bounds=(0.0, CEN_MAX),
        zero_division=True,
        exact=exact.cen_per_class,
    ),
    _count_metric(
        "tmcc",
        cenmcc.tmcc,
        symmetric=True,
        best=0.0,
        bounds=(0.0, math.inf),
        zero_division=True,
        exact=exact.tmcc,
    ),
    *_averages("precision", cenmcc.precision, exact.precision, ("micro",)),
    # Recall weighted by support is sum_k C_kk / s: the accuracy, symmetric.
    *_averages("recall", cenmcc.recall, exact.recall, ("micro", "weighted")),
    *_averages("f1_score", cenmcc.f1_score, exact.f1, (None, "micro", "macro")),
    _count_metric(
        "f1_of_macro_averages",
        cenmcc.f1_of_macro_averages,
        symmetric=True,  # the harmonic mean of macro-precision and macro-recall, which swap
        zero_division=True,
        exact=exact.f1_of_macro_averages,
    ),
    # From Powers (2011), Eqs. (42) and (43); Gosgens et al. (2021) below, float64 from the
    # marginals, so outside the 1e-15 guarantee of tests/core/test_exactness.py (exact=None).
    *(
        _count_metric(name, getattr(cenmcc, name), bounds=(-1.0, 1.0), exact=getattr(exact, name))
        for name in ("informedness", "markedness")
    ),
    _count_metric(
        "symmetric_balanced_accuracy",
        cenmcc.symmetric_balanced_accuracy,
        symmetric=True,
        exact=None,
    ),
    _count_metric(
        "correlation_distance",
        cenmcc.correlation_distance,
        symmetric=True,
        best=0.0,
        zero_division=True,
        exact=None,
    ),
    _count_metric("mcen", cenmcc.mcen, symmetric=True, best=0.0, exact=None),
    *(
        Metric(
            f"tie_ranks[{name}]", functools.partial(cenmcc.tie_ranks, metric=name), INTEGER_COUNTS
        )
        for name in ("mcc", "cen", "accuracy")
    ),
    # measures and from_labels give the values of MEASURES' functions (tests/core/test_registry.py
    # checks them bit for bit against those functions); here through one measure each.
    _count_metric(
        "measures[mcc]",
        lambda C: cenmcc.measures(C, "mcc")["mcc"],
        symmetric=True,
        bounds=(-1.0, 1.0),
        exact=exact.mcc,
    ),
    Metric(
        "from_labels[mcc]", lambda y_true, y_pred: cenmcc.from_labels(y_true, y_pred, "mcc"), LABELS
    ),
    Metric("confusion_matrix", cenmcc.confusion_matrix, LABELS),
    Metric("hand_till_auc", cenmcc.hand_till_auc, SCORES),
    Metric("one_vs_rest_pr_curves", cenmcc.one_vs_rest_pr_curves, SCORES),
    Metric("log_loss", cenmcc.log_loss, PROBABILITIES),
    Metric("pair_counts", cenmcc.pair_counts, TWO_MEASURES),
    Metric("degree_of_consistency", cenmcc.degree_of_consistency, TWO_MEASURES),
    Metric("degree_of_discriminancy", cenmcc.degree_of_discriminancy, TWO_MEASURES),
    Metric("tie_groups", cenmcc.tie_groups, ONE_MEASURE),
]

#: Public names that compute no value from counts, labels, scores or measures, and why.
EXCLUDED = {
    # Constructors of the papers' closed-form matrix families (tests/core/test_families.py).
    "families",
    "b_matrix",
    "binary",
    "complete_misclassification",
    "constant",
    "dice",
    "single_column",
    "swapped_pair",
    "z_a",
    # The audit of a measure's properties (tests/core/test_properties_audit.py).
    "properties",
    # Enumerations of every matrix of a shape (tests/core/test_enumeration.py).
    "matrices_with_row_sums",
    "matrices_with_total",
    "weak_compositions",
    # Classes: validated counts, result containers, the warning, a named measure.
    "Counts",
    "Measure",
    "HandTillAUC",
    "OneVsRestCurves",
    "PairCounts",
    "PrecisionRecallCurve",
    "UndefinedMetricWarning",
    "CoverageWarning",
    # Eq. (3)'s constant k(K) and its printed coefficients: a curve in the number of classes,
    # not a measure of data (tests/core/test_validation.py checks its parameters).
    "K_PAPER",
    "k_factor",
    # The named measures: catalogued through their functions (tests/core/test_registry.py checks
    # each against its function).
    "MEASURES",
    # Inference about a measure: intervals of any measure, not measures
    # (tests/core/test_intervals.py).
    "confidence_interval",
    "compare_classifiers",
    # The report of classifiers built from the above, and its container
    # (tests/core/test_reporting.py).
    "report",
    "Report",
}

BY_ID = {metric.id: metric for metric in CATALOGUE}


def having(*takes: str, **properties) -> list[Metric]:
    """The catalogued metrics that take one of ``takes`` (any if none) and have the properties."""
    return [
        m
        for m in CATALOGUE
        if (not takes or m.takes in takes)
        and all(getattr(m, name) == value for name, value in properties.items())
    ]


def ids(metrics: list[Metric]) -> list[str]:
    return [m.id for m in metrics]


# --- one valid input of each kind ------------------------------------------------------------

#: Two 3 x 3 matrices in which every class is true and predicted: nothing is 0/0.
COUNTS_SAMPLE = np.array(
    [[[5, 1, 0], [2, 6, 1], [0, 1, 7]], [[3, 0, 1], [1, 4, 0], [2, 2, 5]]], dtype=np.int64
)
_Y = np.array([0, 0, 1, 1, 2, 2, 1])
_SCORES = np.array(
    [
        [0.8, 0.1, 0.1],
        [0.4, 0.5, 0.1],
        [0.4, 0.4, 0.2],
        [0.1, 0.8, 0.1],
        [0.2, 0.2, 0.6],
        [0.1, 0.3, 0.6],
        [0.25, 0.5, 0.25],
    ]
)

SAMPLES = {
    COUNTS: (COUNTS_SAMPLE,),
    INTEGER_COUNTS: (COUNTS_SAMPLE,),
    LABELS: (_Y, np.array([0, 2, 1, 1, 2, 0, 1])),
    SCORES: (_Y, _SCORES),
    PROBABILITIES: (_Y, _SCORES),
    TWO_MEASURES: (np.array([0.1, 0.4, 0.4, 0.9, 0.3]), np.array([1, 3, 2, 5, 3])),
    ONE_MEASURE: (np.array([0.1, 0.4, 0.4, 0.9, 0.3]),),
}

#: Which inputs of each kind hold numbers whose dtype the metric checks (their positions).
NUMERIC_INPUTS = {
    COUNTS: (0,),
    INTEGER_COUNTS: (0,),
    LABELS: (),
    SCORES: (1,),
    PROBABILITIES: (),
    TWO_MEASURES: (0, 1),
    ONE_MEASURE: (0,),
}


def sample(takes: str) -> tuple[np.ndarray, ...]:
    """A fresh, writable copy of the sample inputs of a kind."""
    return tuple(x.copy() for x in SAMPLES[takes])


def quiet(metric: Metric, *inputs, **kwargs):
    """``metric.call(*inputs, **kwargs)`` with UndefinedMetricWarning ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        return metric.call(*inputs, **kwargs)
