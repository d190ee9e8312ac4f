"""Reproductions of the results of Jurman et al. (2010, 2012), one package per result.

Each experiment is a package of the same anatomy: ``settings`` (its constants, printed values
and configuration), ``compute`` (``run(...)``, returning its tables and summary), ``findings``
(prose and verdicts computed from the summary, where it states any), ``plots`` (figures drawn
from the tables, never rerunning a simulation) and ``command`` (``add_arguments(parser)``,
``main(args, out)`` and optionally ``check_arguments(parser, args)``, the hooks
``python -m experiments`` calls). Its ``__init__`` re-exports what other code uses; each is
declared once, in :mod:`experiments.registry`.
"""
