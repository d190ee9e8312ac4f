"""Wall time and peak memory of a command, counting every process it starts (Linux /proc).

joblib's loky workers are separate processes, so the memory of a parallel run is the resident
set of the whole process tree, sampled every few milliseconds; its maximum is the peak.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


class Usage(NamedTuple):
    """Wall seconds and peak resident memory (MiB, summed over the process tree) of a command."""

    wall_seconds: float
    peak_mib: float
    returncode: int


def _tree_rss_bytes(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            statm = (entry / "statm").read_text().split()
        except OSError:  # the process ended while we looked
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        rss[int(entry.name)] = int(statm[1]) * PAGE_BYTES
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in tree]
        tree.update(children)
        frontier.extend(children)
    return sum(rss.get(pid, 0) for pid in tree)


#: Seconds a measured command has to stop after SIGTERM before it is killed.
STOP_SECONDS = 5.0


def measure(args: list[str], *, interval: float = 0.02, cwd: Path | None = None) -> Usage:
    """Run ``python <args>`` and return its wall time and the peak RSS of its process tree.

    If this process is interrupted meanwhile, the command gets SIGTERM (then SIGKILL after
    :data:`STOP_SECONDS`) before the interruption goes on.
    """
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, *args], cwd=cwd, stdout=subprocess.DEVNULL)
    peak = 0
    try:
        while process.poll() is None:
            peak = max(peak, _tree_rss_bytes(process.pid))
            time.sleep(interval)
    except BaseException:  # interrupted: stop the command too, and let it clean up
        process.terminate()
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        raise
    return Usage(time.perf_counter() - start, peak / 2**20, process.returncode)
