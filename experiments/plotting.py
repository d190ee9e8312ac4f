"""The one style helper shared by every figure (Agg backend, no screen needed)."""

from __future__ import annotations

from contextlib import contextmanager

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

STYLE = {
    "figure.dpi": 100,
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "image.cmap": "viridis",
    "savefig.bbox": "tight",
}


@contextmanager
def style():
    """Context in which figures get the project's style."""
    with plt.rc_context(STYLE):
        yield


def subplots(nrows: int = 1, ncols: int = 1, *, width: float = 4.2, height: float = 3.6, **kw):
    """``plt.subplots`` in the project's style, ``width x height`` inches per panel."""
    with style():
        return plt.subplots(
            nrows, ncols, figsize=(width * ncols, height * nrows), layout="constrained", **kw
        )


def close(fig) -> None:
    """Release a figure's memory once it is saved."""
    plt.close(fig)
