"""Simulations of performance measures on random confusion matrices, streamed in chunks.

``cenmcc.simulation`` is the engine behind the experiments of Jurman et al.: a
:class:`Simulation` names a generator of confusion matrices, :func:`run` draws and measures them
in chunks in parallel workers (joblib's loky or threading backends, or a dask.distributed
cluster), reduces each chunk to mergeable statistics and summarizes them in a :class:`Result`.
The same seed gives the same bits for any number of workers and any backend.

It needs the ``simulation`` extra (joblib); ``import cenmcc`` does not import it.
"""

from .engine import Result, Simulation, run
from .papers import Config, PaperGenerator

__all__ = ["Config", "PaperGenerator", "Result", "Simulation", "run"]
