"""The benchmark's settings: the implementations timed and the sizes of the scale table."""

from __future__ import annotations

from .. import baselines

FLOOR = "floor: np.log over the off-diagonal cells + one memory pass"


MEMORY_PASS = "floor: one memory pass (C.sum over each matrix)"


COMBINED = "cenmcc: cen + mcc + accuracy"


SHARED = "cenmcc: cen + mcc + accuracy of one Counts"


#: Peers too slow for a whole stack: (label, function, subsample size).
PEERS = (
    ("PyCM ConfusionMatrix (public API)", "pycm", baselines.pycm_public, 100),
    ("PyCM CEN/MCC functions", "pycm", baselines.pycm_functions, 1000),
    ("scikit-learn matthews_corrcoef", "sklearn", baselines.sklearn_mcc, 200),
)


#: Chunks of the papers' generator timed by :func:`measure_chunks` (10,000 matrices each).
THROUGHPUT_CHUNKS = 20


#: The measures of the chunk throughput (issue 20: CEN, MCC and tMCC).
THROUGHPUT_MEASURES = ("cen", "mcc", "tmcc")


#: Sizes of the scale table (``--scale``), and the size of its ``--jobs`` series.
SCALE_N = (200_000, 2_000_000, 20_000_000, 100_000_000)


SCALE_JOBS_N = 2_000_000


#: The measures of the eight-measure agreement study (issue 19), against CEN and MCC alone.
EIGHT_MEASURES = "cen,mcc,cohen_kappa,accuracy,balanced_accuracy,f1_macro,f1_micro,tmcc"
