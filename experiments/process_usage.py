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


class Usage(NamedTuple):
    """Wall seconds and peak resident memory (MiB, summed over the process tree) of a command."""

    wall_seconds: float
    peak_mib: float
    returncode: int


class ProcessTree:
    """The processes descended from ``root``, followed from one scan of /proc to the next.

    Each process's parent is read once, in the first scan that sees it: a scan lists /proc and
    reads the parents of the processes new since the last scan, then the resident set of each
    member. Reading every process's ``stat`` at every scan, every 20 ms, took 14% of a core,
    taken from the command it measured on a 2-core machine. A process stays a member once
    seen in the tree, also if its parent ends before it (and it is given to another parent).
    """

    def __init__(self, root: int):
        self.member = {root: True}  # pid -> whether it descends from root (root included)

    def rss_bytes(self) -> int:
        """Resident bytes of the tree's processes now."""
        pids = {int(name) for name in os.listdir("/proc") if name.isdigit()}
        for gone in self.member.keys() - pids:  # a pid used again later is a new process
            del self.member[gone]
        parents = {pid: _parent(pid) for pid in pids - self.member.keys()}
        for new in parents:
            chain, ancestor = [], new
            while ancestor in parents and ancestor not in self.member:  # up to a known one
                chain.append(ancestor)
                ancestor = parents[ancestor]
            inside = self.member.get(ancestor, False)  # an unknown or ended parent: not ours
            self.member.update(dict.fromkeys(chain, inside))
        return sum(resident_bytes(pid) for pid, inside in self.member.items() if inside)


def resident_bytes(pid: int | str = "self") -> int:
    """The resident size in bytes of process ``pid`` (``/proc/<pid>/statm``); 0 if it ended."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _parent(pid: int) -> int | None:
    """The parent of ``pid`` (None if it has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2 :].split()[1])


#: Seconds a measured command has to stop after SIGTERM before it is killed.
STOP_SECONDS = 5.0


def measure(args: list[str], *, interval: float = 0.02, cwd: Path | None = None) -> Usage:
    """Run ``python <args>`` and return its wall time and the peak RSS of its process tree.

    If this process is interrupted meanwhile, the command gets SIGTERM (then SIGKILL after
    :data:`STOP_SECONDS`) before the interruption goes on.
    """
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, *args], cwd=cwd, stdout=subprocess.DEVNULL)
    tree, peak = ProcessTree(process.pid), 0
    try:
        while process.poll() is None:
            peak = max(peak, tree.rss_bytes())
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
