"""The five sources, and the data they print (confusion matrices, label vectors), transcribed.

Matrices follow the sources' own convention, which is also cenmcc's: rows are the true
(actual, reference, gold) class, columns the predicted class. Each is transcribed from the
figure named in its constant; the printed row and column totals are kept next to it so that
they are checked too.
"""

from __future__ import annotations

import numpy as np

#: Short citations used in the records' ``source`` field, and the full references.
GRANDINI = "Grandini, Bagli & Visani (2020)"
JURMAN2010 = "Jurman & Furlanello (2010)"
JURMAN2012 = "Jurman, Riccadonna & Furlanello (2012)"
TUTORIAL = "Blog tutorial *Performance measures for multi-class problems*"
MCCPOST = "Blog post *Multiclass Matthew's Correlation Coefficient*"
GOSGENS = "Gösgens, Zhiyanov, Tikhonov & Prokhorenkova (2021)"

REFERENCES = {
    JURMAN2010: "Jurman G., Furlanello C. (2010). *A unifying view for performance measures in "
    "multi-class prediction.* arXiv:1008.2908",
    JURMAN2012: "Jurman G., Riccadonna S., Furlanello C. (2012). *A comparison of MCC and CEN "
    "error measures in multi-class prediction.* PLoS ONE 7(8): e41882. "
    "doi:10.1371/journal.pone.0041882",
    GRANDINI: "Grandini M., Bagli E., Visani G. (2020). *Metrics for multi-class classification: "
    "an overview.* arXiv:2008.05756",
    TUTORIAL: "*Performance measures for multi-class problems* (blog tutorial with R code)",
    MCCPOST: "*Multiclass Matthew's Correlation Coefficient* (blog post on the MCC code in "
    "Mead-Baseline and scikit-learn)",
    GOSGENS: "Gösgens M., Zhiyanov A., Tikhonov A., Prokhorenkova L. (2021). *Good "
    "classification measures and how to find them.* NeurIPS 2021. arXiv:2201.09044",
}


def both_papers(where2010: str, where2012: str) -> str:
    """The ``source`` of a claim both Jurman et al. papers print: the journal's place first."""
    return f"{JURMAN2012}, {where2012}; {JURMAN2010}, {where2010}"


class PrintedMatrix:
    """A confusion matrix as printed, with its printed row totals, column totals and total."""

    def __init__(self, counts, row_totals, column_totals, total):
        self.C = np.array(counts, dtype=np.int64)
        self.row_totals = tuple(row_totals)
        self.column_totals = tuple(column_totals)
        self.total = total

    @property
    def printed_marginals(self) -> tuple[int, ...]:
        return (*self.row_totals, *self.column_totals, self.total)


# Grandini et al. (2020). Fig. 2 and Fig. 7 print the same matrix; so do Fig. 4 and Fig. 8, and
# Fig. 11 and the left matrix of Fig. 12.
FIG1 = PrintedMatrix(
    [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]],
    (9, 14, 13, 16),
    (11, 11, 13, 17),
    52,
)
FIG2 = PrintedMatrix([[20, 5], [10, 15]], (25, 25), (30, 20), 50)  # TP FN / FP TN
FIG3 = PrintedMatrix(
    [[5, 23, 17, 17], [10, 540, 21, 14], [166, 96, 436, 110], [1, 2, 5, 87]],
    (62, 585, 808, 95),
    (182, 661, 479, 228),
    1550,
)
FIG4 = PrintedMatrix(
    [[50, 37, 24, 39], [10, 480, 5, 3], [14, 10, 765, 1], [0, 2, 9, 101]],
    (150, 498, 790, 112),
    (74, 529, 803, 144),
    1550,
)
FIG9 = PrintedMatrix([[40, 0], [10, 0]], (40, 10), (50, 0), 50)
FIG11 = PrintedMatrix([[45, 15], [25, 15]], (60, 40), (70, 30), 100)
FIG12_RIGHT = np.array([[25, 35], [5, 35]])

# The blog tutorial's R label vectors, as the runs of its rep() calls, in the printed order.
TUTORIAL_REFERENCE_RUNS = (("A", 45), ("B", 10), ("C", 15), ("D", 25), ("E", 5))
TUTORIAL_PREDICTION_RUNS = (
    ("A", 35), ("E", 5), ("D", 5),
    ("B", 9), ("D", 1),
    ("C", 7), ("B", 5), ("C", 3),
    ("D", 23), ("C", 2),
    ("E", 1), ("A", 2), ("B", 2),
)  # fmt: skip
TUTORIAL_CLASSES = ("A", "B", "C", "D", "E")


def labels_from_runs(runs) -> np.ndarray:
    """The label vector ``c(rep(l1, n1), rep(l2, n2), ...)``."""
    names, counts = zip(*runs, strict=True)
    return np.repeat(np.array(names), counts)
