"""Protocol sensitivity: which reading of the random-matrix protocol gives the printed numbers.

Jurman & Furlanello (2010), Sec. 2, and Jurman, Riccadonna & Furlanello (2012) print, for their
200,000 random matrices, r(tMCC, k·CEN) = 0.9941477, a degree of consistency of 1 - 10⁻⁷, and a
mean tMCC/(k·CEN) of 1.000508 with the 95% bootstrap Student interval (1.000328, 1.000711),
which implies an SD of the ratio of about 0.044 at n = 200,000. The protocol as printed
(:mod:`experiments.random_matrices`) gives other values. This experiment reruns the
simulation under a grid of readings (:data:`READINGS`), each a named deviation from the printed
text (how N is drawn, where ρ applies, the integer ranges, the logarithm of k(N), the first line
of Eq. (3), the base of CEN's logarithm, k refitted, the interval, the tie rule), on the same
chunked deterministic engine (:mod:`cenmcc.simulation.engine`), and measures the distance of each
statistic from its published value in combined standard errors (:func:`distances`).

``python -m experiments protocol`` writes to ``figures/protocol/``: ``readings.csv`` and
``readings.md`` (one row per reading and statistic), ``protocol.png``/``.pdf`` and
``summary.json`` (every reading's statistics, how each standard error is obtained, the check of
the batch standard errors against independent seeds, the closest reading and the verdict).

The modules: :mod:`.settings` (the published targets and the readings), :mod:`.findings` (each
reading's statistics, distances and the verdict), :mod:`.compute` (the run), :mod:`.plots` (the
figure) and :mod:`.command` (``python -m experiments protocol``).
"""

from .compute import run
from .settings import N_PRINTED, SE_METHOD, THRESHOLD

__all__ = ["N_PRINTED", "SE_METHOD", "THRESHOLD", "run"]
