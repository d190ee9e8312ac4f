"""The benchmark's figure: throughput of each implementation."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.ticker import NullLocator

from cenmcc.simulation.figures import subplots

from .settings import FLOOR


def plot(kernels: pd.DataFrame):
    """Throughput against K (log scales), one line per implementation, the floor dashed.

    cenmcc's kernels are solid lines, the peers dotted squares, each in its own colour.
    """
    fig, ax = subplots(width=9.0, height=4.2)
    ours = iter(plt.get_cmap("tab10").colors)
    peers = iter(plt.get_cmap("Dark2").colors)
    for name in dict.fromkeys(kernels["implementation"]):
        group = kernels[kernels["implementation"] == name]
        if name == FLOOR:
            style = {"linestyle": "--", "color": "black", "linewidth": 2}
        elif name.startswith("cenmcc"):
            style = {"marker": "o", "color": next(ours)}
        else:
            style = {"marker": "s", "linestyle": ":", "color": next(peers)}
        ax.plot(group["K"], group["matrices_per_second"], label=name, **style)
    sizes = sorted(kernels["K"].unique())
    ax.set(xscale="log", yscale="log", xlabel="number of classes K", ylabel="matrices per second")
    ax.set_title("Throughput on one core (CPU time)")
    ax.set_xticks(sizes, labels=[str(k) for k in sizes])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig
