"""Degrees of discriminancy and consistency of CEN, MCC and accuracy on every small 3-class problem.

Jurman, Riccadonna & Furlanello (2012), "Relationships between CEN and MCC": for three classes
with 2, 4 and 3 samples, over every confusion matrix, "the degree of discriminancy of CEN over
MCC is about 6", and "similar results hold for all the 12 small sample size cases on three
classes listed in Tab. 6 of [Wei et al. 2010], ranging from 9 to 19 samples". That table is not
available, so the sweep covers every split of n = 9 .. 19 samples into three non-empty classes.

Each case enumerates every 3x3 matrix with the given class sizes
(:func:`cenmcc.matrices_with_row_sums`) and counts pairs (:func:`cenmcc.pair_counts`, Huang &
Ling 2005) under three tie conventions:

- ``exact`` (the default): ranks from :func:`cenmcc.tie_ranks`, equal exactly when the values
  are mathematically equal;
- ``float_eq``: plain float ``==`` on the values of :func:`cenmcc.cen`, :func:`cenmcc.mcc` and
  :func:`cenmcc.accuracy`;
- ``rtol``: the float values with a relative tolerance (chained, see :mod:`cenmcc.comparison`).

Orientation: CEN is lower-better, MCC and accuracy higher-better; every pair is compared as
(-CEN, MCC, ACC), so a degree of consistency above 1/2 means the two measures mostly agree on
which matrix is better. The degree of discriminancy ``|P| / |Q|`` does not depend on orientation.

The class sizes' order does not matter: swapping two classes in both rows and columns maps the
matrices with sizes (a, b, c) one-to-one onto those with sizes (b, a, c) and leaves every metric
unchanged. :func:`order_check` verifies it on the counts; the sweep then has one row per
unordered split (sizes in non-decreasing order) unless ``ordered=True``.

The modules: :mod:`.settings` (the journal's case, the sweep, the tie conventions),
:mod:`.compute` (the run), :mod:`.plots` (the figure) and :mod:`.command` (``python -m experiments
discriminancy``).
"""

from .compute import run

__all__ = ["run"]
