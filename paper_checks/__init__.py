"""Every numeric and analytic claim of the five sources, as records checked against cenmcc.

Each claim is a :class:`~paper_checks.record.Record` (id, source, claim, published value and
tolerance, the named function that measures it, the recorded verdict and measured value), kept as
data in one module per source (:mod:`~paper_checks.jurman`, :mod:`~paper_checks.grandini`,
:mod:`~paper_checks.tutorial`, :mod:`~paper_checks.mccpost`) and gathered in
:data:`~paper_checks.registry.REGISTRY`. ``python -m paper_checks`` runs them all and writes
``paper_checks/REPORT.md`` and ``paper_checks/results.json``; pytest runs each as its own test.
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
