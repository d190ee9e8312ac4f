"""How a worker's C library hands memory back: kept for reuse, not returned page by page.

A chunk of the simulations allocates and frees the same few arrays of one to three MB for each
number of classes, hundreds of times a second. glibc's malloc serves blocks of that size with
``mmap`` (its threshold adapts, but is reset by every ``munmap``), so each new array is faulted
in from the kernel a page at a time: measured on 60 chunks of the papers' generator, 1.1 million
minor page faults and 1.9 s of system time in 6.7 s, with the same peak memory either way.
Setting the thresholds once per process keeps those blocks in the heap for reuse (Linux
``mallopt(3)``: ``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``).

A task that allocates far more than a chunk (the exact pair counts' ranks and counts of 10⁷
values) hands the free memory back when it ends, once the worker holds more than
:data:`KEEP_BYTES` over its size before its first such task (:func:`releasing_freed_memory`):
kept, it counts in the worker's resident size, and from 300 MB over its size after its first
task joblib's loky ends the worker as leaking and starts another (1 to 2 s, and a warning).
Smaller tasks keep it: handed back, it is faulted in again by the next task.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
from collections.abc import Callable
from pathlib import Path

#: ``mallopt`` parameters (glibc's malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

#: Blocks below this come from the heap and are reused (glibc's largest allowed value).
MMAP_THRESHOLD = 32 * 2**20
#: Free memory at the top of the heap kept before any is returned to the kernel.
TRIM_THRESHOLD = 256 * 2**20
#: Growth of a worker's resident size, since before its first large task, up to which it keeps
#: its free memory (:func:`releasing_freed_memory`): well under loky's 300 MB, over the 130–135
#: MiB of a run of 2·10⁶ (``scipy.stats``, imported by the first count, is 40 MiB of it).
KEEP_BYTES = 160 * 2**20

#: Resident bytes of this process before its first large task, by process id.
_reference: dict[int, int] = {}


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library, or None where it cannot be loaded."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c"))
    except (OSError, TypeError):
        return None


@functools.cache
def reuse_freed_memory() -> bool:
    """Let this process's malloc keep freed blocks of up to 32 MiB for reuse (once a process).

    Returns
    -------
    bool
        Whether the C library took the settings: False where it is not glibc (macOS, musl),
        which changes the speed only, never a result.
    """
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is None:
        return False
    return bool(
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )


def release_freed_memory() -> bool:
    """Hand the free memory of this process's heap back to the kernel (glibc's
    ``malloc_trim(0)``), after a task that allocated much more than a chunk.

    Returns
    -------
    bool
        Whether any memory was handed back: always False where the C library is not glibc.
    """
    trim = getattr(_libc(), "malloc_trim", None)
    return bool(trim(0)) if trim is not None else False


def resident_bytes(pid: int | str = "self") -> int:
    """The resident size in bytes of process ``pid``, this one by default (Linux's
    ``/proc/<pid>/statm``); 0 where unknown (an ended process, or no ``/proc``)."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def releasing_freed_memory(task: Callable) -> Callable:
    """``task``, then, however it ends, :func:`release_freed_memory` if this process has grown
    by more than :data:`KEEP_BYTES` since before its first task so wrapped.

    At 2·10⁶ matrices the pair-count tasks never grow a worker that far, and keep their free
    memory for the next task; at 2·10⁷ they grew it by 160–190 MiB before any was handed back.
    """

    @functools.wraps(task)
    def wrapped(*args, **kwargs):
        reference = _reference.setdefault(os.getpid(), resident_bytes())
        try:
            return task(*args, **kwargs)
        finally:
            if resident_bytes() - reference > KEEP_BYTES:
                release_freed_memory()

    return wrapped
