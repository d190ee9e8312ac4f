"""The random-matrix experiment's figures: Figure 2 and k per number of classes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cenmcc.simulation import figures

from .compute import STUDY, Outcome

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def plot(outcome: Outcome) -> Figure:
    """Figure 2 of Jurman et al. (2012) as densities: CEN against MCC, k·CEN against tMCC.

    Each panel is a 2-D histogram of every matrix (log-scaled counts), so the figure costs
    the same at any n; k is the printed one.
    """
    fig = figures.density_panels(
        [
            (outcome.histograms["mcc_cen"], "MCC", "CEN", "(a) CEN vs MCC"),
            (outcome.histograms["tmcc_kcen"], "tMCC", "k·CEN", "(b) k·CEN vs tMCC"),
        ]
    )
    ax = fig.axes[1]
    lo, hi = outcome.histograms["tmcc_kcen"].x_range
    with figures.style():
        ax.plot([lo, hi], [lo, hi], color="0.3", lw=0.8, ls="--", label="k·CEN = tMCC")
        ax.legend(loc="upper left")
    return fig


def plot_k(outcome: Outcome) -> Figure:
    """The empirical k per dimension (mean ± 1 SD of tMCC/CEN), the printed and the fitted k."""
    return figures.k_per_dimension(outcome.result.study(STUDY))
