"""The property audit of every named measure, as a table."""

from __future__ import annotations

import json

import pandas as pd

import cenmcc

from .settings import DOMAINS, N_RANDOM, SEED


def run(
    classes=(2, 3), n_random: int = N_RANDOM, seed: int = SEED, n_items: int | None = None
) -> pd.DataFrame:
    """One row per measure, K, domain and property: the audit's verdict, its counterexample,
    whether that is the smallest (False: found by the random search) and how it was decided
    (``n_items``: the audit's exhaustive range, its default if None)."""
    rows = []
    for name in cenmcc.MEASURES:
        for K in classes:
            for domain, present in DOMAINS.items():
                report = cenmcc.properties.audit(
                    name,
                    K,
                    n_items=n_items,
                    n_random=n_random,
                    seed=seed,
                    every_class_present=present,
                )
                for prop, result in report.items():
                    rows.append(
                        {
                            "measure": name,
                            "K": K,
                            "domain": domain,
                            "property": prop,
                            "holds": result.holds,
                            "counterexample": json.dumps(result.counterexample),
                            "smallest": result.smallest,
                            "method": result.method,
                        }
                    )
    return pd.DataFrame(rows)


def summarize(table: pd.DataFrame) -> dict:
    holds = {}
    for row in table.itertuples():
        key = f"{row.measure}|{row.K}|{row.domain}"
        holds.setdefault(key, {})[row.property] = row.holds
    return {"holds": holds, "n_random": N_RANDOM}
