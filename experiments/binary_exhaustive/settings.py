"""The binary experiment's settings: the printed count, range and correlation, Figure 4's panels."""

from __future__ import annotations

import numpy as np

#: The paper's range and count: "4 598 125 ... (2 ≤ s ≤ 100)" (Jurman et al. 2012).
PRINTED_COUNT = 4_598_125


PRINTED_RANGE = (2, 100)


#: "the (absolute) Pearson correlation between the two metrics is only r ≈ 0.63".
PRINTED_ABS_PEARSON = 0.63


#: Totals shown in Figure 4.
PANELS = (5, 10, 25, 50, 75)


#: Half-width of the band around 1 (and below the maximum) where CEN is decided exactly.
#: cenmcc.cen sums a handful of terms of size at most ~2 s ln(2s) and divides by 2 s ln 2, so
#: its rounding error is a few ulp of ln(2s)/ln 2, below 1e-13 for s <= 10^4; the band is four
#: orders of magnitude wider.
CEN_BAND = 1e-9


#: Where Figure 3's maximum is, ``x* = F / (T + F)``, derived in the module docstring (the
#: maximum and its T/F are :data:`cenmcc.families.BINARY_SYMMETRIC_CEN_MAX` and ``_ARGMAX``).
X_STAR = 2 / np.e
