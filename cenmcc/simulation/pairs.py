"""Exact pair counts of a run's measures, overall and within each number of classes, in workers.

The degrees of consistency and discriminancy and Kendall's τ_b of two measures are functions
of the counts of concordant, discordant and tied pairs of matrices (:class:`cenmcc.PairCounts`),
which need every matrix's values at once. A run keeps them out of its memory:

- :class:`ColumnStore` writes each chunk's per-matrix values (K and every measure) at their
  place in one ``.npy`` file per column, in a temporary directory, as the chunks arrive; the
  files are read back memory-mapped, by whichever process needs them;
- :func:`count_pairs` then runs, as parallel tasks in the workers, the ranks of each column
  overall and within each K, ties decided by each column's rule (:class:`TieRule`; written
  back to the store; each task that ranks within K finds the rows of its K itself), and the
  counts of each pair of columns from their ranks
  (:func:`cenmcc.comparison.counts_from_ranks`), overall and within each K. From
  :data:`SPLIT_FROM` matrices a column's overall ranks are split into bands of its values,
  its ranks within K into groups of K, a pair's overall count into bands of the first
  column's ranks and its count within K into groups of K, as many tasks as keep the workers
  busy and share out evenly (:func:`splits`): on 16 cores one pair is counted by 32 tasks,
  not 2.

Ties: by default two values tie when they are equal as floats, which is exact for columns
whose equal values have equal bits (the values of :func:`cenmcc.ties.tie_values`; their
overall ranks also count the neighbours too close for their order to be proven,
:attr:`ColumnStore.undecided`). A column with a relative tolerance ties values as
:func:`cenmcc.pair_counts` does, in chains: its overall ranks are taken of its chained
groups (``tied-NAME.npy``, one sort of the whole column in a task, so that no group is split
between bands), and its ranks within each K of the groups of that K's values alone.

Every count is an exact integer, so the result is the same for any number of workers and any
schedule; the main process only waits.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import numpy as np

from cenmcc import _ranking
from cenmcc.comparison import FENWICK_FROM, PairCounts, counts_from_ranks, load_fenwick
from cenmcc.comparison import _dense_ranks as tie_group_ranks
from cenmcc.runtime.files import WriteError
from cenmcc.runtime.staging import locked
from cenmcc.ties import undecided

from .parallel import map_tasks
from .resources import available_bytes

#: The column that groups the matrices (their number of classes).
GROUP = "K"

#: Rows of a derived column computed at once (:meth:`ColumnStore.add`): 32 MiB of float64.
BLOCK_ROWS = 2**22

#: From this many matrices a pair's counts are split into several tasks (:func:`splits`).
SPLIT_FROM = 1_000_000

#: Peak working memory a matrix takes in a worker that ranks a column (the values, their
#: order, the ranks) or counts a pair (two rank arrays, the sort keys, the Fenwick tree's
#: arrays): measured at 2·10⁷, 34 bytes to rank and 35 to 44 to count (about 48 where the
#: first column ties, with the sort keys), rounded up.
PAIR_COUNT_BYTES = 56

#: Bytes a :class:`ColumnStore` of a run holds on disk per matrix (fewer than 2**31 matrices):
#: K (int16), then per measure its value (float64) and, once counted, its ranks overall (int32,
#: with their rows, int32, where they are split into bands), within its K (int32) and, for a
#: tolerance, its chained groups (int32). Measured unsplit, with the order by K (int32) that
#: the store then held too and no tolerance: 38 bytes a matrix for 2 measures, 134 for 8.
STORE_BYTES = 2
STORE_BYTES_PER_MEASURE = 8 + 4 + 4 + 4 + 4


#: A store's own temporary directory: ``<TMPDIR>/cenmcc-columns-<pid>-<unique>``.
COLUMNS_PREFIX = "cenmcc-columns-"

#: Held while this process makes a store's directory and locks it, or removes abandoned ones.
_MAKING = threading.Lock()


def _owner_lives(pid: int) -> bool:
    """Whether ``pid`` is a live process other than this one (which knows its own stores)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def remove_abandoned(parent=None) -> list[Path]:
    """Remove the store directories that killed runs left in ``parent``.

    A store's directory is abandoned when no process holds its lock and the process named in
    it (``cenmcc-columns-<pid>-...``) is not alive: a SIGKILL or an out-of-memory kill
    leaves it (58 MB for 2·10⁶ matrices and two measures). A store being made (named, not
    yet locked) has a live owner and is kept, as is every directory without a process id in
    its name (made by an earlier version of cenmcc, which cannot tell a live one).

    Parameters
    ----------
    parent : path, optional
        Where to look; by default the temporary directory (``tempfile.gettempdir()``).

    Returns
    -------
    list of pathlib.Path
        The directories removed.
    """
    parent = Path(tempfile.gettempdir() if parent is None else parent)
    removed = []
    with _MAKING:
        for directory in parent.glob(f"{COLUMNS_PREFIX}*"):
            pid, sep, _ = directory.name.removeprefix(COLUMNS_PREFIX).partition("-")
            if not (sep and pid.isdigit()) or directory.is_symlink() or not directory.is_dir():
                continue
            if _owner_lives(int(pid)):
                continue
            try:
                with locked(directory, blocking=False) as free:
                    if free:
                        shutil.rmtree(directory, ignore_errors=True)
                        removed.append(directory)
            except OSError:  # removed meanwhile, or another user's
                continue
    return removed


def _locked_directory() -> tuple[Path, int]:
    """A new store directory in the temporary directory, and the descriptor locking it."""
    with _MAKING:
        directory = Path(tempfile.mkdtemp(prefix=f"{COLUMNS_PREFIX}{os.getpid()}-"))
        lock = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(lock, fcntl.LOCK_EX)
    return directory, lock


class ColumnStore:
    """Columns of n values each, one ``.npy`` file per column in a directory of its own.

    Parameters
    ----------
    n : int
        Number of values (matrices) per column.
    directory : path, optional
        Where the files go; by default a new temporary directory (:data:`COLUMNS_PREFIX`),
        locked while the store is open and removed by :meth:`close`; a store left by a
        killed run is removed by the next one made (:func:`remove_abandoned`).
    """

    def __init__(self, n: int, directory=None):
        self.n = n
        self.owned = directory is None
        self._lock = None
        if directory is None:
            remove_abandoned()
            directory, self._lock = _locked_directory()
        self.directory = Path(directory)
        self.dtypes: dict[str, np.dtype] = {}
        self._offsets: dict[str, int] = {}  # column -> bytes before its values (the header)
        # column -> the ranks made of it ("overall", "grouped") -> how many band files hold
        # its overall ranks (1 for its ranks within K, which are one file per K)
        self.ranked: dict[str, dict[str, int]] = {}
        self.bounds: dict | None = None  # each K's rows in the order by K, once computed
        #: column -> neighbours of its overall ranks too close to be ordered for sure
        self.undecided: dict[str, int] = {}

    @staticmethod
    def disk_bytes(n: int, columns: int) -> int:
        """Bytes a run's store of ``n`` matrices holds on disk, with ``columns`` values a matrix
        besides K (:data:`STORE_BYTES`, :data:`STORE_BYTES_PER_MEASURE`)."""
        return n * (STORE_BYTES + STORE_BYTES_PER_MEASURE * columns)

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.npy"

    def write(self, start: int, columns: dict[str, np.ndarray]) -> None:
        """Write ``columns[name]`` at rows ``start, start + 1, ...`` of each column.

        Only those rows are mapped (:class:`numpy.memmap`), and unmapped at once, so the
        values written never count in this process's resident memory; the column's disk space
        was reserved when its file was made (:func:`reserve`), so a full disk is a
        :class:`~cenmcc.runtime.files.WriteError` naming the file, never a SIGBUS. Writing
        the 2·10⁶ rows of K and three measures in chunks of 10⁴ takes 0.5 s so (0.08 s with
        ``os.pwrite`` of the raw bytes, which this replaces: 0.3% of that run's 150 s).
        """
        for name, values in columns.items():
            self.ranked.pop(name, None)
            values = np.asarray(values)
            offset = self._offset(name, values.dtype)
            if values.size:
                rows = np.memmap(
                    self.path(name),
                    self.dtypes[name],
                    "r+",
                    offset + start * values.itemsize,
                    values.shape,
                )
                rows[:] = values
                del rows

    def _offset(self, name: str, dtype: np.dtype) -> int:
        """The header's bytes of column ``name``, whose ``.npy`` file is made at its first
        values (:func:`numpy.lib.format.open_memmap`), its disk space reserved whole
        (:func:`reserve`)."""
        if name not in self._offsets:
            path = self.path(name)
            with _named(path):
                column = np.lib.format.open_memmap(path, "w+", dtype, (self.n,))
                self._offsets[name] = column.offset
                self.dtypes[name] = column.dtype
                del column
            reserve(path)
        elif np.dtype(dtype) != self.dtypes[name]:
            raise TypeError(f"column {name!r} is {self.dtypes[name]}, got values of {dtype}")
        return self._offsets[name]

    def add(self, name: str, values) -> None:
        """A whole column (a value derived from the others, say): an array of :attr:`n`
        values, or a function of a range of rows (a ``slice``) returning their values, called
        on consecutive blocks of :data:`BLOCK_ROWS` rows so that the column is never whole in
        memory."""
        blocks = (
            [slice(0, self.n)]
            if not callable(values)
            else [slice(a, min(a + BLOCK_ROWS, self.n)) for a in range(0, self.n, BLOCK_ROWS)]
        )
        for rows in blocks:
            block = values(rows) if callable(values) else values
            if len(block) != rows.stop - rows.start:
                raise ValueError(
                    f"column {name!r} needs {rows.stop - rows.start} values for rows "
                    f"{rows.start}..{rows.stop - 1}, got {len(block)}"
                )
            self.write(rows.start, {name: block})
        self.flush()

    def flush(self) -> None:
        """End the writing of the columns written so far: a later write makes them anew."""
        self._offsets.clear()

    def read(self, name: str, rows: slice | None = None) -> np.ndarray:
        """A column, memory-mapped read-only; or only its ``rows`` (a slice of consecutive
        rows), read into memory, so that a process reading a column block by block does not
        keep the blocks it has read mapped."""
        whole = np.load(self.path(name), mmap_mode="r")
        if rows is None:
            return whole
        start, stop, step = rows.indices(whole.shape[0])
        if step != 1:
            raise ValueError(f"rows must be consecutive, got a step of {step}")
        offset = whole.offset + start * whole.itemsize
        return np.fromfile(self.path(name), whole.dtype, max(stop - start, 0), offset=offset)

    def close(self) -> None:
        """Close the files and remove the directory (if this store made it)."""
        self.flush()
        if self.owned:
            shutil.rmtree(self.directory, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def __enter__(self) -> ColumnStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def reserve(path: Path) -> None:
    """Allocate the disk space of the whole file ``path`` now (``posix_fallocate``), so that a
    write through a memory map never finds the disk full: that kills the process with SIGBUS,
    without a word, where a full disk found here is a :class:`WriteError`.

    Raises
    ------
    cenmcc.runtime.files.WriteError
        ``cannot write <path>: No space left on device (...)`` where the space is not there.
    """
    with _named(path), open(path, "r+b") as file:
        os.posix_fallocate(file.fileno(), 0, os.fstat(file.fileno()).st_size)


@contextmanager
def _named(path: Path):
    """Raise an OSError of the block (a full disk) as a :class:`WriteError` naming ``path``
    (a store's files are in the temporary directory, which TMPDIR moves)."""
    try:
        yield
    except OSError as err:
        reason = f"{err.strerror or err} (the temporary directory; set TMPDIR to a larger disk)"
        raise WriteError(path, reason) from None


def _save(path: Path, values: np.ndarray) -> None:
    """``numpy.save`` of a task's file of the store, a full disk named (:func:`_named`)."""
    with _named(path):
        np.save(path, values)


class TieRule(NamedTuple):
    """How the ranks of a column decide its ties (the default: equality of the floats).

    Attributes
    ----------
    rtol : float
        Above 0: values tie within this relative tolerance, chained as
        :func:`cenmcc.pair_counts` chains them.
    bound : (float, float) or None
        For values of :func:`cenmcc.ties.tie_values`: their ``(rel, abs)`` bound
        (:data:`cenmcc.ties.VALUE_BOUNDS`), to count the neighbours within it
        (:func:`cenmcc.ties.undecided`) into :attr:`ColumnStore.undecided`.
    """

    rtol: float = 0.0
    bound: tuple | None = None


EQUAL = TieRule()


class Counted(NamedTuple):
    """Pair counts of one pair of columns.

    Attributes
    ----------
    overall : PairCounts
        Over every pair of matrices.
    by_group : dict of int to PairCounts
        Over the pairs of matrices of each number of classes K (empty if not asked).
    left_out : int
        Matrices left out, undefined (NaN) on a column of ``omit`` (:func:`count_pairs`).
    """

    overall: PairCounts
    by_group: dict
    left_out: int = 0


def count_pairs(
    store: ColumnStore,
    pairs: Iterable[tuple[str, str]],
    *,
    by_group: bool = True,
    ties: dict[str, TieRule] | None = None,
    omit: Iterable[str] = (),
    **parallel,
) -> dict[tuple[str, str], Counted]:
    """Exact pair counts of each pair of columns of ``store``, overall and within each K.

    Parameters
    ----------
    store : ColumnStore
        Holding the columns named in ``pairs`` and, with ``by_group``, the column ``"K"``.
    pairs : iterable of (str, str)
        The pairs of columns (f, g).
    by_group : bool
        Also count the pairs within each K.
    ties : dict of str to TieRule, optional
        The rule of each column (:data:`EQUAL` for those left out). A column is ranked once,
        by the rule it is first counted with.
    omit : iterable of str
        Columns whose NaN values are left out: a pair with such columns is counted over the
        rows where they are defined (as :func:`cenmcc.pair_counts` of those rows alone), in
        a store of those rows (:func:`_defined_store`), each set of such columns once.
    **parallel
        ``jobs``, ``backend``, ``scheduler``, ``quiet``, as in
        :func:`cenmcc.simulation.parallel.iter_tasks`.

    Returns
    -------
    dict of (f, g) to Counted
    """
    pairs = list(dict.fromkeys(pairs))
    store.flush()
    by_omitted: dict = {}
    for pair in pairs:
        by_omitted.setdefault(tuple(n for n in dict.fromkeys(omit) if n in pair), []).append(pair)
    out = _count_pairs(store, by_omitted.pop((), []), by_group, ties, parallel)
    for i, (omitted, some) in enumerate(by_omitted.items()):
        sub = _defined_store(store, omitted, some, f"defined-{i}")
        try:
            counted = (
                _count_pairs(sub, some, by_group, ties, parallel)
                if sub.n >= 2
                else {pair: Counted(PairCounts(0, 0, 0, 0, 0, 0), {}) for pair in some}
            )
        finally:
            shutil.rmtree(sub.directory, ignore_errors=True)
        out |= {pair: c._replace(left_out=store.n - sub.n) for pair, c in counted.items()}
    return {pair: out[pair] for pair in pairs}


def _defined_store(store: ColumnStore, omitted, pairs, folder: str) -> ColumnStore:
    """A store, in the folder ``folder`` of ``store``'s, of K and the columns of ``pairs`` on
    the rows where no column of ``omitted`` is NaN, in their order (copied block by block)."""

    def defined(rows: slice) -> np.ndarray:
        return ~np.any([np.isnan(store.read(c, rows)) for c in omitted], axis=0)

    blocks = [slice(a, min(a + BLOCK_ROWS, store.n)) for a in range(0, store.n, BLOCK_ROWS)]
    n = sum(int(np.count_nonzero(defined(rows))) for rows in blocks)
    sub = ColumnStore(n, store.directory / folder)
    sub.directory.mkdir()
    start, columns = 0, [GROUP, *dict.fromkeys(name for pair in pairs for name in pair)]
    for rows in blocks if sub.n else ():
        keep = defined(rows)
        sub.write(start, {c: store.read(c, rows)[keep] for c in columns})
        start += int(np.count_nonzero(keep))
    sub.flush()
    return sub


def _count_pairs(store: ColumnStore, pairs: list, by_group: bool, ties, parallel: dict) -> dict:
    """:func:`count_pairs` of pairs without columns to omit."""
    if not pairs:
        return {}
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    rule = {name: (ties or {}).get(name, EQUAL) for name in names}
    directory = str(store.directory)
    if by_group and store.bounds is None:
        store.bounds = group_bounds(store)
    parallel_split = (parallel.get("jobs", -1), parallel.get("scheduler"))
    grouped = [n for n in names if by_group and "grouped" not in store.ranked.get(n, {})]
    parts = _parts(store.bounds, splits(store.n, len(grouped), *parallel_split)) if grouped else []
    ranks = [(directory, name, "grouped", part, rule[name]) for name in grouped for part in parts]
    unranked = [name for name in names if "overall" not in store.ranked.get(name, {})]
    chained = [(directory, name, rule[name].rtol) for name in unranked if rule[name].rtol]
    if chained:
        map_tasks(_tie_groups, chained, desc="pair counts: tolerance", **parallel)
    bands = splits(store.n, len(unranked), *parallel_split)
    ranks += [
        (directory, name, "overall", (b, bands), rule[name])
        for name in unranked
        for b in range(bands)
    ]
    ranked = map_tasks(_rank, ranks, desc="pair counts: ranks", **parallel)
    for (_, name, part, _, _), close in zip(ranks, ranked, strict=True):
        store.ranked.setdefault(name, {})[part] = bands if part == "overall" else 1
        if rule[name].bound is not None and part == "overall":
            store.undecided[name] = store.undecided.get(name, 0) + close
    k = splits(store.n, len(pairs), *parallel_split)
    counts = [
        (directory, (f, store.ranked[f]["overall"]), (g, store.ranked[g]["overall"]), band)
        for f, g in pairs
        for band in _bands(store.n, k)
    ]
    if by_group:
        counts += [
            (directory, (f, 1), (g, 1), part) for f, g in pairs for part in _parts(store.bounds, k)
        ]
    counted = map_tasks(_count, counts, desc="pair counts", **parallel)
    overall: dict = {pair: [] for pair in pairs}
    grouped: dict = {pair: {} for pair in pairs}
    for (_, (f, _), (g, _), part), result in zip(counts, counted, strict=True):
        if isinstance(part, dict):
            grouped[f, g] |= result
        else:
            overall[f, g].append(result)
    return {
        pair: Counted(PairCounts.total(overall[pair]), dict(sorted(grouped[pair].items())))
        for pair in pairs
    }


def splits(n: int, items: int, jobs: int, scheduler: str | None = None) -> int:
    """How many tasks each of ``items`` is split into: a pair's two counts (overall, within
    K), or a column's overall ranks (then ``items`` counts the columns to rank).

    Enough to give every worker a task (``jobs`` workers, -1 for one per core, or this
    machine's cores for a ``scheduler``'s cluster) and to share the tasks out evenly
    (:func:`_even_split`), one under :data:`SPLIT_FROM` matrices; on this machine, no more
    than make the tasks that run at once fit in the memory available now, at
    :data:`PAIR_COUNT_BYTES` a matrix each (so that a run never needs more than the unsplit
    counts did). The counts are exact integers, the same for any split.
    """
    workers = (os.cpu_count() or 1) if jobs < 0 or scheduler else jobs
    if n < SPLIT_FROM or workers == 1 or items < 1:
        return 1
    wanted = _even_split(items, workers)
    if scheduler:
        return wanted
    at_once = available_bytes() // (PAIR_COUNT_BYTES * n)
    return max(1, min(wanted, at_once // (2 * items)))


def _even_split(items: int, workers: int) -> int:
    """The parts per item, from enough for every worker to twice that, that finish soonest
    when ``workers`` take equal parts as they come (the fewest among equals): 3 columns on 2
    workers are ranked in 6 halves, 3 rounds of half a column, not in 2 rounds of a whole."""
    least = -(-workers // items)
    return min(range(least, 2 * least + 1), key=lambda k: (-(-items * k // workers)) / k)


def _bands(n: int, k: int) -> list[tuple[int, int | None]]:
    """``k`` bands ``[lo, hi)`` of the ranks ``0 .. n - 1`` of ``n`` values, the last open
    (:func:`cenmcc.comparison.counts_from_ranks`); one, ``(0, None)``, for ``k = 1``."""
    edges = sorted({n * i // k for i in range(k)})
    return list(zip(edges, [*edges[1:], None], strict=True))


def _parts(bounds: dict[int, tuple[int, int]], k: int) -> list[dict[int, tuple[int, int]]]:
    """``bounds`` (each K's rows) in at most ``k`` parts of consecutive K, of about equal rows:
    each K goes to the part its middle row falls in."""
    n = max((b for _, b in bounds.values()), default=0)
    parts: list[dict] = [{} for _ in range(k)]
    for key, (a, b) in bounds.items():
        parts[min(k - 1, (a + b) // 2 * k // max(n, 1))][key] = (a, b)
    return [part for part in parts if part] or [{}]


def group_bounds(store: ColumnStore) -> dict[int, tuple[int, int]]:
    """Each K's rows ``(start, stop)`` in the order of the matrices by K (:func:`_group_rows`),
    from a count of each K, block by block (in the calling process: a pass over 2 bytes a
    matrix)."""
    counts = np.zeros(0, dtype=np.int64)
    for start in range(0, store.n, BLOCK_ROWS):
        block = store.read(GROUP, slice(start, start + BLOCK_ROWS))
        found = np.bincount(block, minlength=counts.size)
        found[: counts.size] += counts
        counts = found
    stops = np.cumsum(counts)
    return {k: (int(stops[k] - counts[k]), int(stops[k])) for k in np.flatnonzero(counts)}


def _group_rows(directory: Path, part: dict[int, tuple[int, int]]) -> np.ndarray:
    """The rows of the matrices of the consecutive K of ``part`` (each K's rows in the order
    of the matrices by K), in that order: increasing K, each K's rows in their order (a radix
    sort of the int16 K of those rows)."""
    classes = np.load(directory / f"{GROUP}.npy", mmap_mode="r")
    rows = np.flatnonzero((classes >= min(part)) & (classes <= max(part)))
    return rows[np.argsort(classes[rows], kind="stable")]


def _tie_groups(task) -> None:
    """Task: the chained tolerance groups of a whole column, as their dense ranks
    (:func:`cenmcc.tie_groups`), into ``tied-NAME.npy``: its overall ranks are those of the
    groups (one sort of the column; about 21 bytes a matrix)."""
    directory, name, rtol = task
    directory = Path(directory)
    values = np.load(directory / f"{name}.npy", mmap_mode="r")
    _save(directory / f"tied-{name}.npy", tie_group_ranks(np.asarray(values), rtol, 0.0))


def _rank(task) -> int:
    """Task: ranks of a column, ``"overall"`` or ``"grouped"``, by its :class:`TieRule`.

    Overall, band ``b`` of ``k`` of its values (:func:`cenmcc._ranking.value_edges`): the rows
    in the band and their ranks among all the values (:func:`band_ranks`), as
    ``rank-NAME-b.npy`` (one row of ranks for ``k = 1``, else the rows over the ranks), sorted
    in pieces that stay in cache (:func:`cenmcc._ranking.ranks`). Grouped: dense ranks within
    each K of a part of the K (each K's rows ``(start, stop)`` in the order of the matrices by
    K, :func:`_group_rows`), in that order, as ``grouped-rank-NAME-K.npy``.

    With a tolerance, the overall ranks are those of the column's chained groups
    (:func:`_tie_groups`), and the ranks within each K those of the chained groups of its
    values. With a bound, returns how many neighbours of the sorted band, and the largest
    value below it, are undecided (:func:`cenmcc.ties.undecided`); else 0.

    Every task writes files of its own: where the store is on a file system that the workers
    of several machines share, two machines writing into one file could each write back
    whole pages, each over the other's values.
    """
    directory, name, part, arg, rule = task
    directory = Path(directory)
    if part == "overall":
        b, k = arg
        source = f"tied-{name}" if rule.rtol else name
        values = np.load(directory / f"{source}.npy", mmap_mode="r")
        edges = [None, *_ranking.value_edges(values, k), None]  # fewer than k bands: ties
        rows = ranks = np.empty(0, dtype=_ranking.index_dtype(values.size))
        if b + 1 < len(edges):
            rows, ranks = band_ranks(values, *edges[b : b + 2])
        _save(directory / f"rank-{name}-{b}.npy", ranks if k == 1 else np.stack([rows, ranks]))
        if rule.bound is None or not ranks.size:
            return 0
        return _undecided_in_band(values, rows if k > 1 else None, ranks, edges[b], rule.bound)
    if not arg:
        return 0  # no matrices
    values = np.load(directory / f"{name}.npy", mmap_mode="r")[_group_rows(directory, arg)]
    start = min(a for a, _ in arg.values())
    for key, (a, b) in arg.items():
        ranks = tie_group_ranks(values[a - start : b - start], rule.rtol, 0.0)
        _save(directory / f"grouped-rank-{name}-{key}.npy", ranks)
    return 0


def _undecided_in_band(values, rows, ranks, lo, bound) -> int:
    """Undecided neighbours among a band's values (its ``rows``, every row for None; their
    minimal ``ranks``) and the largest value below ``lo``, the band's smallest.

    The band sorted from its ranks: each value written at its rank, equal values at one,
    and the places after a run of equals filled with it.
    """
    v = np.asarray(values) if rows is None else values[rows]
    at = ranks - ranks.min()
    ordered = np.empty(v.size)
    ordered[at] = v
    filled = np.zeros(v.size, dtype=np.intp)
    filled[at] = at
    ordered = ordered[np.maximum.accumulate(filled)]
    if lo is not None:
        below = np.max(values, where=np.asarray(values) < lo, initial=-np.inf)
        ordered = np.concatenate(([below], ordered)) if below > -np.inf else ordered
    return int(np.count_nonzero(undecided(ordered, bound)))


def band_ranks(values: np.ndarray, lo: float | None, hi: float | None):
    """The rows of the values in ``[lo, hi)`` and their ranks among all ``values``: how many
    values are smaller, so that equal values share a rank. No ``lo``: from the smallest; no
    ``hi``: to the largest and NaN (last, each NaN its own rank, as NumPy sorts them).

    Returns
    -------
    rows, ranks : numpy.ndarray
        Of the index type of ``values`` (int32 below 2³¹ values).
    """
    dtype = _ranking.index_dtype(values.size)
    smaller, band = 0, None
    if lo is not None:
        band = ~(values < lo)
        smaller = values.size - int(np.count_nonzero(band))
    if hi is not None:
        band = values < hi if band is None else band & (values < hi)
    if band is None:
        rows, v = np.arange(values.size, dtype=dtype), np.array(values)
    else:
        rows = np.flatnonzero(band)
        v = values[rows]
    return rows.astype(dtype, copy=False), _ranking.ranks(v, dense=False, offset=smaller)


def _overall_ranks(directory: Path, name: str, k: int) -> np.ndarray:
    """The ranks of a column from its ``k`` band files (:func:`_rank`)."""
    if k == 1:
        return np.load(directory / f"rank-{name}-0.npy")
    bands = [np.load(directory / f"rank-{name}-{b}.npy") for b in range(k)]
    ranks = np.empty(sum(band.shape[-1] for band in bands), dtype=bands[0].dtype)
    for band in bands:
        if band.size:
            ranks[band[0]] = band[1]
    return ranks


def _count(task) -> PairCounts | dict[int, PairCounts]:
    """Task: the pair counts of two columns from their ranks: those of a band ``(lo, hi)`` of
    the first column's ranks (:func:`cenmcc.comparison.counts_from_ranks`), or those within
    each K of ``part`` (each K's rows in the order by K).

    From 10⁶ matrices the counts use scipy's Fenwick counter, in a band or within a K too
    (:data:`cenmcc.comparison.FENWICK_FROM`, :data:`~cenmcc.comparison.FENWICK_LOADED_FROM`).
    """
    directory, (f, kf), (g, kg), part = task
    directory = Path(directory)
    if np.load(directory / f"{f}.npy", mmap_mode="r").size >= FENWICK_FROM:
        load_fenwick()  # a large run's bands and groups are large too: loaded, it counts them
    if isinstance(part, dict):

        def grouped(name: str, k: int) -> np.ndarray:
            return np.load(directory / f"grouped-rank-{name}-{k}.npy")

        return {k: counts_from_ranks(grouped(f, k), grouped(g, k)) for k in part}
    return counts_from_ranks(
        _overall_ranks(directory, f, kf), _overall_ranks(directory, g, kg), *part
    )
