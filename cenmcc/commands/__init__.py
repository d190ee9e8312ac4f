"""What every command shares: its options, its interruption and its outputs on disk.

The engine (:mod:`cenmcc.simulation`) computes; this package is the plumbing around it, shared
by ``python -m cenmcc.simulation``, ``python -m experiments`` and ``python -m paper_checks``:

- :mod:`~cenmcc.commands.signals`: SIGINT and SIGTERM raised as one exception, or held back
  over a step that must not be cut in two;
- :mod:`~cenmcc.commands.files`: output files written whole (atomically), and the same bytes on
  every rerun;
- :mod:`~cenmcc.commands.staging`: output directories swapped in whole once a run has written
  them, never replacing what a run did not write;
- :mod:`~cenmcc.commands.arguments`: the options shared by every command, checked when parsed;
- :mod:`~cenmcc.commands.simulate`: the library's own command, ``simulate`` and ``validate``;
- :mod:`~cenmcc.commands.report`: ``python -m cenmcc report``, a file of predictions made a
  report (:func:`cenmcc.report`), which needs no simulation extra.

Imports go one way. ``signals``, ``files`` and ``staging`` import nothing from
:mod:`cenmcc.simulation`, which imports them (:meth:`~cenmcc.simulation.Result.save` writes and
stages its outputs, a dask cluster starts with signals held back, the column store locks its
directory); ``simulate`` imports the engine, and ``arguments`` only in the functions of the
parallel options, so that ``report`` runs without it; the engine never imports them. This
``__init__`` imports nothing, so that the engine, importing ``staging``, imports no command.
"""
