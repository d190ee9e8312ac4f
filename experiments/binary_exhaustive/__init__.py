"""CEN and MCC of every binary confusion matrix on s samples (Figures 3 and 4 of the journal paper).

Jurman, Riccadonna & Furlanello (2012), "The binary case": MCC and CEN of "all the 4 598 125
possible confusion matrices for a binary classification task on s samples (2 ≤ s ≤ 100)",
shown for s = 5, 10, 25, 50, 75 and cumulatively (Figure 4), where "the (absolute) Pearson
correlation between the two metrics is only r ≈ 0.63"; and the curves of CEN and MCC of
[[T, F], [F, T]] against T/F (Figure 3), with CEN > 1 when T < F.

There are C(s + 3, 3) binary matrices on s samples, so 4 598 125 is the count for
1 ≤ s ≤ 100 (the range 2 ≤ s ≤ 100 has 4 598 121): the default range is 1 .. 100 and both
counts are reported.

Conventions, stated because the paper does not:

- The MCC is 0/0 when a row or a column of the matrix is empty (one true or one predicted
  class only); :func:`cenmcc.mcc` fills it with 0 (the papers' convention) and warns once. The
  warning is expected here and checked against our own count; Pearson's r is reported with
  those matrices (as filled) and, as a sensitivity check, without them.
- "CEN > 1" and the maximum of CEN are decided exactly: float values within
  :data:`CEN_BAND` of 1 (or of the maximum) are compared with :func:`cenmcc.tie_ranks`.

Figure 3 is analytic: for [[T, F], [F, T]] with ``x = F / (T + F)``,
``MCC = 1 - 2x`` and ``CEN = x (1 - log2 x)``, whose derivative ``1 - log2 x - 1/ln 2`` vanishes
at ``x* = 2^(1 - 1/ln 2) = 2/e``: the maximum is ``CEN(x*) = x*/ln 2 = 2/(e ln 2) ≈ 1.0615``, at
``T/F = (1 - x*)/x* = e/2 - 1 ≈ 0.359``. ``CEN = 1`` at x = 1/2 (T = F) and x = 1 (T = 0), and
CEN > 1 exactly for 1/2 < x < 1, i.e. 0 < T < F.

The modules: :mod:`.settings` (the printed values, Figure 4's panels), :mod:`.compute` (the run),
:mod:`.plots` (Figures 3 and 4) and :mod:`.command` (``python -m experiments binary``).
"""

from .compute import enumerate_metrics, pearson, run
from .settings import PRINTED_RANGE

__all__ = ["PRINTED_RANGE", "enumerate_metrics", "pearson", "run"]
