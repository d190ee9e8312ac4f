"""The one style helper shared by every figure (Agg backend, no screen needed).

Figures are drawn at the size a journal prints them, :data:`COLUMN` (one column) or
:data:`PAGE` (the full text width) wide, with 7-8 point text, so that nothing shrinks when a
figure is placed: what is legible here is legible in print. Mathematics in labels is mathtext
(``"$A \\to \\infty$"``); large scatters are drawn with ``rasterized=True`` so that a PDF stays
vector where it is sparse and small where it is dense.

Draw a figure's contents inside :func:`style` as well as creating it with :func:`subplots`:
matplotlib reads most settings (title and legend fonts, legend frames) when an element is
created, not when the figure is saved. The settings read only when a file is written
(:data:`SAVE`: fonts embedded as TrueType in PDF, not Type 3) are therefore set for the process
when this module is imported, as the Agg backend is.
"""

from __future__ import annotations

from contextlib import contextmanager

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

#: Width in inches of one journal column (89 mm) and of the full text width (183 mm).
COLUMN = 3.5
PAGE = 7.2

STYLE = {
    "figure.dpi": 100,
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "figure.titlesize": 9,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.2,
    "lines.markersize": 3.5,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.minor.width": 0.4,
    "ytick.minor.width": 0.4,
    "xtick.major.size": 3,
    "ytick.major.size": 3,
    "xtick.minor.size": 1.8,
    "ytick.minor.size": 1.8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "legend.handlelength": 1.8,
    "image.cmap": "viridis",
}

#: Settings matplotlib reads when a file is written, outside any :func:`style` context.
SAVE = {
    "pdf.fonttype": 42,  # TrueType: text stays text in the PDF, as journals ask
    "ps.fonttype": 42,
}
matplotlib.rcParams.update(SAVE)


@contextmanager
def style():
    """Context in which figures get the project's style."""
    with plt.rc_context(STYLE):
        yield


def subplots(nrows: int = 1, ncols: int = 1, *, width: float = PAGE / 2, height: float = 2.6, **kw):
    """``plt.subplots`` in the project's style, ``width x height`` inches per panel."""
    with style():
        return plt.subplots(
            nrows, ncols, figsize=(width * ncols, height * nrows), layout="constrained", **kw
        )


def ordered_colors(n: int) -> list:
    """``n`` colours of the viridis map for an ordered parameter (small to large), dark to light.

    The light yellow end is left out: it does not show on white.
    """
    return [plt.get_cmap("viridis")(x) for x in np.linspace(0.0, 0.82, n)]


def legend_key(label: str, **line) -> Line2D:
    """A legend entry drawn as a line or marker (``Line2D`` keywords), with no data of its own."""
    return Line2D([], [], label=label, **line)


def close(fig) -> None:
    """Release a figure's memory once it is saved."""
    plt.close(fig)
