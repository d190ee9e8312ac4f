"""The random-matrix experiment's findings: the measured statistics next to the printed ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .settings import PRINTED

if TYPE_CHECKING:
    import pandas as pd


def report(summary: dict) -> pd.DataFrame:
    """The measured statistics next to the printed ones."""
    import pandas as pd

    rows = [
        ("pearson_tmcc_kcen", "r(tMCC, k·CEN)"),
        ("consistency_tmcc_kcen", "consistency(tMCC, k·CEN)"),
        ("ties_tmcc_kcen", "tied pairs (tMCC, k·CEN)"),
        ("mean_ratio_tmcc_kcen", "mean tMCC/(k·CEN)"),
        ("ci95_student", "95% bootstrap-t interval"),
        ("ci95_bca", "95% BCa interval"),
    ]

    def show(value):
        if isinstance(value, list):
            return "(" + ", ".join(f"{v:.7g}" for v in value) + ")"
        return f"{value:.10g}" if isinstance(value, float) else str(value)

    return pd.DataFrame(
        [
            {
                "statistic": label,
                "printed": show(PRINTED[key]) if key in PRINTED else "",
                "measured (printed k)": show(summary[key]),
                "measured (fitted k)": show(summary.get(key + "_fitted", "")),
            }
            for key, label in rows
        ]
    )
