"""The property audit experiment's settings."""

from __future__ import annotations

#: The random matrices checked after the exhaustive range, per measure and K (the audit's
#: default is 10**6; 10**5 keeps the whole table to a few minutes on one core).
N_RANDOM = 10**5


SEED = 2021


DOMAINS = {"all": False, "present": True}


MARK = {True: "✓", False: "✗", None: "–"}
