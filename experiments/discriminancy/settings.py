"""The discriminancy experiment's settings: the journal's case, the sweep, the tie conventions."""

from __future__ import annotations

#: The case of Jurman et al. (2012), after Wei et al. (2010): class sizes 2, 4, 3.
PAPER_SIZES = (2, 4, 3)


#: "the degree of discriminancy of CEN over MCC is about 6" (Jurman et al. 2012).
PAPER_DISCRIMINANCY = 6.0


#: Sample sizes of Wei et al.'s Table 6 (Jurman et al. 2012: "ranging from 9 to 19 samples").
N_RANGE = (9, 19)


#: Default relative tolerance of the ``rtol`` convention: far above float64 rounding (~1e-16)
#: and far below the gaps between distinct values of these small problems.
RTOL = 1e-9


METRICS = ("cen", "mcc", "acc")


PAIRS = (("cen", "mcc"), ("cen", "acc"), ("mcc", "acc"))


CONVENTIONS = ("exact", "float_eq", "rtol")


SUFFIX = {"exact": "", "float_eq": "_float_eq", "rtol": "_rtol"}
