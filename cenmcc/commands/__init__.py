"""The command lines: their shared options, ``simulate`` and ``validate``, and ``report``.

- :mod:`~cenmcc.commands.arguments`: the options shared by every command, checked when parsed;
- :mod:`~cenmcc.commands.simulate`: the library's own command, ``simulate`` and ``validate``;
- :mod:`~cenmcc.commands.report`: ``python -m cenmcc report``, a file of predictions made a
  report (:func:`cenmcc.report`), which needs no simulation extra.

Imports go one way: the commands stand on the engine (:mod:`cenmcc.simulation`) and on
:mod:`cenmcc.runtime` (interruption, files, staging), and nothing in the library imports them
but the ``__main__`` entry points. ``arguments`` imports the engine only in the functions of the
parallel options, so that ``report`` runs without the simulation extra.
"""
