"""What a run needs around its computation: its interruption and its outputs on disk.

Shared by the engine (:meth:`cenmcc.simulation.Result.save` writes and stages its outputs, a
dask cluster starts with signals held back, the column store locks its directory), by the
commands (:mod:`cenmcc.commands`) and by ``python -m experiments`` and ``python -m paper_checks``:

- :mod:`~cenmcc.runtime.signals`: SIGINT and SIGTERM raised as one exception, or held back
  over a step that must not be cut in two;
- :mod:`~cenmcc.runtime.files`: output files written whole (atomically), and the same bytes on
  every rerun;
- :mod:`~cenmcc.runtime.staging`: output directories swapped in whole once a run has written
  them, never replacing what a run did not write.

These modules import nothing else of cenmcc; this ``__init__`` imports nothing.
"""
