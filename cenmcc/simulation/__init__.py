"""Simulations of performance measures on random confusion matrices, streamed in chunks.

A :class:`Simulation` names a generator, how many matrices to draw, the measures and optional
studies; :func:`run` returns a :class:`Result`. The same seed gives the same bits for any
number of workers and any backend. It needs the ``simulation`` extra (joblib, tqdm; ``figures``
for the figures, ``dask`` for clusters); ``import cenmcc`` does not import it.

The modules, in the order the data flows through them:

- :mod:`~cenmcc.simulation.generators`: random confusion matrices (:class:`DirichletClassifier`);
- :mod:`~cenmcc.simulation.papers`: the papers' generator (:class:`PaperGenerator`);
- :mod:`~cenmcc.simulation.plan`: :class:`Simulation`, its chunks and their batches (the tasks);
- :mod:`~cenmcc.simulation.engine`: :func:`run`: the tasks in workers, merged, summarized;
- :mod:`~cenmcc.simulation.chunks`: one chunk in a worker, drawn, measured and reduced;
- :mod:`~cenmcc.simulation.measures`: a run's measures, named or a user's, checked as they run;
- :mod:`~cenmcc.simulation.agreement`: the statistics of the measures and their pairs, per chunk;
- :mod:`~cenmcc.simulation.within_k`: pair counts within each K, and their U-statistic SEs;
- :mod:`~cenmcc.simulation.streaming`: mergeable statistics, and how chunks combine;
- :mod:`~cenmcc.simulation.studies`: studies that stream like the rest (:class:`KRatio`);
- :mod:`~cenmcc.simulation.jackknife`: the standard errors of the merged statistics;
- :mod:`~cenmcc.simulation.pairs`: exact pair counts (consistency, discriminancy, τ_b) from disk;
- :mod:`~cenmcc.simulation.result`: :class:`Result`, its summary, tables and figures;
- :mod:`~cenmcc.simulation.figures`: the figures, in one style (matplotlib);
- :mod:`~cenmcc.simulation.validation`: standard errors checked over independent seeds;
- :mod:`~cenmcc.simulation.parallel`: tasks in parallel on joblib's backends or dask;
- :mod:`~cenmcc.simulation.cluster`: tasks on a dask.distributed cluster;
- :mod:`~cenmcc.simulation.tasks`: one task where it runs, its errors, the orphan watchdog;
- :mod:`~cenmcc.simulation.resources`: this machine's memory and disk, what would not fit them.

Saving (:meth:`Result.save`) stages its files through :mod:`cenmcc.runtime` (atomic writes,
whole-directory swaps, signals held over them); ``python -m cenmcc.simulation``'s command line
is :mod:`cenmcc.commands.simulate`, which stands on the engine.

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

from .engine import run
from .generators import DirichletClassifier
from .papers import PaperGenerator
from .parallel import ParallelError
from .plan import Simulation
from .result import Result
from .studies import ChunkData, Footprint, KRatio, Study

__all__ = [
    "ChunkData",
    "DirichletClassifier",
    "Footprint",
    "KRatio",
    "PaperGenerator",
    "ParallelError",
    "Result",
    "Simulation",
    "Study",
    "run",
]
