"""The 200,000 random confusion matrices: tMCC against k·CEN, the fitted k and Figure 2.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012), "Relationships
between CEN and MCC", check Eq. (3), ``tMCC ≈ k(K)·CEN``, on 200,000 random matrices of
dimension 3 to 30: every diagonal entry a uniform random integer in [1, 1000], every
off-diagonal entry a uniform random integer in [1, ⌊1000·ρ_i⌋] with ρ_i uniform in [0.01, 1].
They print a Pearson correlation of 0.9941477 between tMCC and k·CEN, a degree of consistency
of 1 - 10⁻⁷ with no ties, and a mean ratio tMCC/(k·CEN) of 1.000508 with the 95% bootstrap
Student interval (1.000328, 1.000711).

This module is the papers' generator (:class:`Config`, :class:`PaperGenerator`) on the
streaming engine of :mod:`cenmcc.simulation`: chunks drawn from their own streams,
reduced in the workers to mergeable statistics, bit-identical for any number of workers and
any backend, memory flat in n but for 28 bytes a matrix (and 38 more while the exact pair
counts run).

``python -m experiments random-matrices`` writes to ``figures/random_matrices/``:
``summary.json`` (every statistic, the printed values next to them), ``k_per_dimension.csv``
(the empirical k per K), ``figure2.png``/``.pdf`` (Figure 2 as densities) and
``k_per_dimension.png``/``.pdf``; with ``--table``, every matrix's measures in
``matrices.npz`` (not in git).

The modules: :mod:`.settings` (the printed values, the Config), :mod:`.compute` (the run),
:mod:`.findings` (the measured values next to the printed ones), :mod:`.plots` (the figures) and
:mod:`.command` (``python -m experiments random-matrices``).
"""

from .compute import run
from .settings import PRINTED, Config

__all__ = ["PRINTED", "Config", "run"]
