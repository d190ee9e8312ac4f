"""Simulations of performance measures on random confusion matrices, streamed in chunks.

``cenmcc.simulation`` runs agreement studies between any measures on any generator of
confusion matrices: a :class:`Simulation` names a generator, how many matrices to draw, the
measures (names of :data:`cenmcc.MEASURES` or :class:`cenmcc.Measure` objects) and optional
studies; :func:`run` draws and measures the matrices in chunks in parallel workers (joblib's
loky or threading backends, or a dask.distributed cluster), reduces each chunk to mergeable
statistics, counts the pairs of matrices exactly, and returns a :class:`Result` with every
statistic and its standard error, which :meth:`Result.save` writes with its tables and
figures. The same seed gives the same bits for any number of workers and any backend.

Ties in the pair counts (consistency, discriminancy, τ_b) are decided by ``Simulation(ties=)``:
by default exactly for MCC, CEN (within one K) and accuracy of integer counts, as
:func:`cenmcc.tie_ranks` decides them, and within ``tie_rtol`` (chained, as
:func:`cenmcc.pair_counts`) for other measures; ``ties="float"`` lets rounding decide. The
summary's ``ties`` states the rule of each measure.

It needs the ``simulation`` extra (joblib; ``figures`` for the figures, ``dask`` for
clusters); ``import cenmcc`` does not import it.

Examples
--------
A generator is any function of a NumPy random generator and a number of matrices that returns
that many count matrices:

>>> from cenmcc.simulation import Simulation, run
>>> def draw(rng, size):
...     return rng.integers(1, 30, size=(size, 4, 4))
>>> result = run(Simulation(draw, 2000, measures=("cen", "mcc"), chunk_size=500), quiet=True)
>>> round(result.pair("cen", "mcc")["consistency"], 2)
0.82
"""

from .engine import Simulation, run
from .generators import DirichletClassifier
from .papers import PaperGenerator
from .parallel import ParallelError
from .result import Result
from .studies import ChunkData, KRatio, Study

__all__ = [
    "ChunkData",
    "DirichletClassifier",
    "KRatio",
    "PaperGenerator",
    "ParallelError",
    "Result",
    "Simulation",
    "Study",
    "run",
]
