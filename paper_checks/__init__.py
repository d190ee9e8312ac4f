"""Every numeric and analytic claim of the five sources, as records checked against cenmcc.

Each claim is declared as data (id, source and location, claim, published value, tolerance and
why, the name of the check function that measures it, kind, note) in a TOML file beside the module
of its check functions, one per source (``jurman.toml``, ``jurman_experiments.toml``,
``jurman_families.toml``, ``protocol_checks.toml``, ``grandini.toml``, ``tutorial.toml``,
``mccpost.toml``; :mod:`~paper_checks.declarations` reads them), and becomes a
:class:`~paper_checks.record.Record`, gathered in :data:`~paper_checks.registry.REGISTRY`. The
measured values and verdicts are stored once, in ``paper_checks/results.json``.
``python -m paper_checks`` runs them all and writes ``paper_checks/REPORT.md`` and
``paper_checks/results.json``; pytest runs each as its own test, against results.json.
The blog tutorial's R code runs through ``Rscript`` where R is installed
(:mod:`~paper_checks.tutorial_r`); some claims about exact zeros are computed with fractions
(:mod:`~paper_checks.rational`). Unusable experiment outputs are named, with what is wrong
(:mod:`~paper_checks.summaries`).

Data flows one way: paper_checks imports cenmcc and experiments, never the reverse.
"""

from .record import (
    DIFFERS,
    NOT_CHECKABLE,
    REPRODUCED,
    Measured,
    NotCheckable,
    Outcome,
    Published,
    Record,
    evaluate,
)
from .registry import REGISTRY

__all__ = [
    "DIFFERS",
    "NOT_CHECKABLE",
    "REGISTRY",
    "REPRODUCED",
    "Measured",
    "NotCheckable",
    "Outcome",
    "Published",
    "Record",
    "evaluate",
]
