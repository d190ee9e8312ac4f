"""Evaluate and compare classifiers on one test set in one call: :func:`report`.

:func:`report` takes the true labels of a test set and the predictions of one or several
classifiers and returns a :class:`Report`: every measure with its interval, per-class precision,
recall and F1 with Wilson's intervals, the paired comparison of every two classifiers with
Holm's adjustment over all of them, and the confusion matrices, as pandas tables, a Markdown or
HTML page and a matplotlib figure. It is built from :func:`cenmcc.confusion_matrix`,
:func:`cenmcc.confidence_interval` and :func:`cenmcc.compare_classifiers`, whose numbers it
reports as they return them. ``python -m cenmcc report`` (:mod:`cenmcc.commands.report`) does
the same from a CSV or Parquet file.

pandas and matplotlib (the ``figures`` extra) are imported when a report is made or drawn:
``import cenmcc`` loads numpy only.
"""

from .tables import DEFAULT_MEASURES, Report, holm, report

__all__ = ["DEFAULT_MEASURES", "Report", "holm", "report"]
