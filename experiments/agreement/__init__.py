"""Beyond the papers: which of eight measures rank confusion matrices alike, by K and imbalance.

The papers compare two measures, CEN and MCC, on one generator of random matrices. This
experiment compares eight, CEN, MCC, Cohen's κ, accuracy, balanced accuracy, macro F1, micro
F1 and tMCC, on three generators (:data:`CASES`):

- ``papers``: the papers' random matrices (:class:`cenmcc.simulation.PaperGenerator`, K = 3..30);
- ``imbalanced``: a classifier with Dirichlet-distributed error rates on strongly imbalanced
  classes (:class:`cenmcc.simulation.DirichletClassifier`, K = 3..50, class proportions from a
  symmetric Dirichlet of parameter :data:`IMBALANCED` = 0.3);
- ``balanced``: the same classifier on balanced classes (parameter :data:`BALANCED` = 100).

For every pair of measures, oriented so that higher is better (CEN and tMCC negated), the
engine (:func:`cenmcc.simulation.run`) counts every pair of matrices exactly, overall and within
each K, for Huang & Ling's (2005) degrees of consistency and discriminancy and Kendall's τ_b,
and jackknifes the Pearson correlation; every value has its standard error. A consistency of 1
means the two measures never order two matrices oppositely; 1/2, that they agree no more than
chance.

Accuracy and micro F1 are the same number for single-label multi-class matrices (micro
precision and micro recall both equal the trace over the total), so their consistency is 1 by
construction; the agreement matrices show it, and the findings say so, as a check of the counts.

``python -m experiments agreement`` writes to ``figures/agreement/``: ``summary.json`` (per
generator, every pair's statistics with standard errors and its consistency per K, and the
findings computed from them), ``pairs.csv`` (every pair, overall and per K), ``measures.csv``
(each measure's mean and SD, overall and per K, and its undefined values), ``agreement.md``
(the consistency and τ_b of every pair under each generator), and the figures
``agreement_matrices``, ``consistency_by_k`` and ``cen_mcc_density`` (.png, .pdf).

The modules: :mod:`.settings` (the measures, the generators, the Config), :mod:`.compute` (the
run, its summary and tables), :mod:`.findings` (what the numbers say), :mod:`.plots` (the
figures) and :mod:`.command` (``python -m experiments agreement``).
"""

from .compute import run

__all__ = ["run"]
