"""cenmcc: Confusion Entropy, multi-class MCC and related measures on stacks of confusion matrices.

Every metric takes counts ``C`` of shape ``(..., K, K)`` (rows = true class, columns = predicted
class, integer or weighted counts) and returns shape ``(...)``, or ``(..., K)`` for per-class
values; one matrix and a stack of millions go through the same vectorized code.

Label vectors, as scikit-learn's metrics take them, go through :func:`confusion_matrix`, or
:func:`from_labels` for named measures: ``cenmcc.from_labels(y_true, y_pred, "mcc")``.
:data:`MEASURES` names every scalar measure of counts (a :class:`Measure` with its direction,
label, best value and range), and :func:`measures` computes several of one stack at once.

Undefined values follow one rule: where a metric is 0/0 it returns a documented fill value (the
``zero_division`` argument where there is one) and the call emits a single
:class:`UndefinedMetricWarning` with the number of filled values. Bad input raises ``ValueError``
or ``TypeError`` naming the problem.

Accepted range and precision of the metrics of counts: integer counts with every cell at most
``(2**63 - 1) / K^2``, and any finite non-negative float counts (subnormal to the largest
float). For all of them a metric is within 1e-15 of the exact value of its formula (relative
above 1), except the measures computed in float64 from the marginals (the symmetric balanced
accuracy, the correlation distance and MCEN: see each docstring). CEN's sum has no negative
term; the MCC, Cohen's kappa, the expected accuracy and the tMCC are ratios of sums taken as
exact integers (:mod:`cenmcc._exact`), and the informedness, the markedness and the macro MCC
sums over the classes of ratios of exact integers, each rounded once (so that an integer
multiple of the counts gives the same bits): totals above 2**31, and float counts that are not
small integer multiples of one power of two, take a slower exact path in Python integers.

Examples
--------
>>> import cenmcc
>>> C = cenmcc.confusion_matrix(["a", "b", "b", "c"], ["a", "b", "c", "c"])
>>> round(float(cenmcc.mcc(C)), 4), round(float(cenmcc.cen(C)), 4)
(0.7, 0.1981)
>>> round(float(cenmcc.from_labels(["a", "b", "b", "c"], ["a", "b", "c", "c"], "mcc")), 4)
0.7
"""

from . import families, properties
from ._marginals import Counts
from .accuracy import accuracy, balanced_accuracy, balanced_accuracy_weighted, weighted_accuracy
from .comparison import (
    PairCounts,
    degree_of_consistency,
    degree_of_discriminancy,
    pair_counts,
    tie_groups,
)
from .confusion import confusion_matrix
from .correlation import (
    cohen_kappa,
    correlation_distance,
    expected_accuracy,
    macro_mcc,
    mcc,
    micro_mcc,
)
from .entropy import cen, cen_per_class, mcen
from .enumeration import matrices_with_row_sums, matrices_with_total, weak_compositions
from .exceptions import CoverageWarning, UndefinedMetricWarning
from .families import (
    b_matrix,
    binary,
    complete_misclassification,
    constant,
    dice,
    single_column,
    swapped_pair,
    z_a,
)
from .fscore import f1_of_macro_averages, f1_score, precision, recall
from .informedness import informedness, markedness, symmetric_balanced_accuracy
from .intervals import confidence_interval
from .paired import compare_classifiers
from .registry import MEASURES, Measure, from_labels, measures
from .reporting import Report, report
from .scores import (
    HandTillAUC,
    OneVsRestCurves,
    PrecisionRecallCurve,
    hand_till_auc,
    log_loss,
    one_vs_rest_pr_curves,
)
from .ties import tie_ranks
from .tmcc import K_PAPER, k_factor, tmcc

__version__ = "0.1.0"

__all__ = [
    "K_PAPER",
    "MEASURES",
    "Counts",
    "CoverageWarning",
    "HandTillAUC",
    "Measure",
    "OneVsRestCurves",
    "PairCounts",
    "PrecisionRecallCurve",
    "Report",
    "UndefinedMetricWarning",
    "accuracy",
    "b_matrix",
    "balanced_accuracy",
    "balanced_accuracy_weighted",
    "binary",
    "cen",
    "cen_per_class",
    "cohen_kappa",
    "compare_classifiers",
    "complete_misclassification",
    "confidence_interval",
    "confusion_matrix",
    "constant",
    "correlation_distance",
    "degree_of_consistency",
    "degree_of_discriminancy",
    "dice",
    "expected_accuracy",
    "f1_of_macro_averages",
    "f1_score",
    "families",
    "from_labels",
    "hand_till_auc",
    "informedness",
    "k_factor",
    "log_loss",
    "macro_mcc",
    "markedness",
    "matrices_with_row_sums",
    "matrices_with_total",
    "mcc",
    "mcen",
    "measures",
    "micro_mcc",
    "one_vs_rest_pr_curves",
    "pair_counts",
    "precision",
    "properties",
    "recall",
    "report",
    "single_column",
    "swapped_pair",
    "symmetric_balanced_accuracy",
    "tie_groups",
    "tie_ranks",
    "tmcc",
    "weak_compositions",
    "weighted_accuracy",
    "z_a",
]
