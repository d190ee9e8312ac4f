"""The registry: every claim record of the five sources, in report order."""

from __future__ import annotations

from collections import Counter

from . import (
    gosgens,
    grandini,
    jurman,
    jurman_experiments,
    jurman_families,
    mccpost,
    protocol_checks,
    tutorial,
)
from .record import Record

#: Every record: the Jurman et al. papers first (the claims without an experiment, then those
#: an experiment backs), then the white paper, the two blog posts, and the properties
#: audited against Gösgens et al. (2021).
REGISTRY: tuple[Record, ...] = (
    *jurman.RECORDS,
    *jurman_experiments.RECORDS,
    *jurman_families.RECORDS,
    *protocol_checks.RECORDS,
    *grandini.RECORDS,
    *tutorial.RECORDS,
    *mccpost.RECORDS,
    *gosgens.RECORDS,
)

#: The id prefix of each source.
PREFIXES = ("plos2012-", "arxiv2010-", "grandini2020-", "tutorial-", "mccpost-", "gosgens2021-")


def check_registry(records) -> None:
    """Raise ``ValueError`` for a duplicated id or an id without a source prefix."""
    repeated = [name for name, n in Counter(r.id for r in records).items() if n > 1]
    if repeated:
        raise ValueError(f"duplicated record ids: {repeated}")
    unprefixed = [r.id for r in records if not r.id.startswith(PREFIXES)]
    if unprefixed:
        raise ValueError(f"record ids must start with one of {PREFIXES}: {unprefixed}")


check_registry(REGISTRY)
