"""The memory this machine has for a new computation, and a size as a message shows it: what
:mod:`cenmcc.properties` and :mod:`cenmcc.simulation.resources` check a computation against
before any work."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path


def available_bytes() -> int:
    """Memory available to a new computation: ``MemAvailable`` of /proc/meminfo, in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("/proc/meminfo has no MemAvailable line (Linux 3.14 or later needed)")


def gib(nbytes: int) -> str:
    """``nbytes`` for a message: in GiB, or in bytes as a power of ten beyond 2⁷⁰ (any size)."""
    return f"{nbytes / 2**30:,.1f} GiB" if nbytes < 2**70 else f"{Decimal(nbytes):.2e} bytes"
