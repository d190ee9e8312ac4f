"""Reproductions of the results of Jurman et al. (2010, 2012), one module per result.

Each experiment module exposes ``run(...)`` returning a tidy table and a summary dict,
``plot(table)`` returning a matplotlib Figure, and the CLI hooks ``add_arguments(parser)`` and
``main(args, out)`` used by ``python -m experiments``; each is declared once, in
:mod:`experiments.registry`.
"""
