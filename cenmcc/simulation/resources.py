"""What this machine has, and a computation refused before any work if it would not fit.

It knows only the machine: the memory available (:func:`available_bytes`, from
:mod:`cenmcc._memory`, which the property audit checks too), the temporary
directory's free space, and how a refusal names the sizes (:class:`ResourceError`). What a
computation needs comes from its parts: a simulation adds up its own
(:meth:`cenmcc.simulation.Simulation.footprint`), from each part's figure.
"""

from __future__ import annotations

import shutil
import tempfile
from decimal import Decimal

from .._memory import available_bytes, gib


class ResourceError(ValueError):
    """A computation that would not fit this machine; ``setting`` is the one to change."""

    def __init__(self, message: str, setting: str = "n_matrices"):
        super().__init__(message)
        self.setting = setting


def require_memory(nbytes: int, what: str, detail: str = "", setting: str = "n_matrices") -> None:
    """Refuse a computation whose peak memory ``nbytes`` exceeds the memory available.

    Raises
    ------
    ResourceError
        Naming ``what`` asks for it (``"--n 10**12"``), both figures and ``detail``.
    """
    available = available_bytes()
    if nbytes > available:
        raise ResourceError(
            f"{what} needs about {gib(nbytes)} of memory, more than the {gib(available)} "
            f"available on this machine{detail}",
            setting,
        )


def require_disk(nbytes: int, what: str) -> None:
    """Refuse a computation whose files ``nbytes`` exceed the temporary directory's free space.

    Raises
    ------
    ResourceError
        Naming ``what`` asks for them, both figures and the directory (TMPDIR moves it).
    """
    where = tempfile.gettempdir()
    free = shutil.disk_usage(where).free
    if nbytes > free:
        raise ResourceError(
            f"{what} needs about {gib(nbytes)} of disk in {where}, more than the "
            f"{gib(free)} free there (set TMPDIR to a larger disk)"
        )


def number(value: int) -> str:
    """An integer as a message shows it: ``2,000,000``, or ``1.00e+400`` from 10¹⁵ on.

    Examples
    --------
    >>> number(2 * 10**6), number(10**400)
    ('2,000,000', '1.00e+400')
    """
    return f"{value:,}" if abs(value) < 10**15 else f"{Decimal(value):.2e}"
