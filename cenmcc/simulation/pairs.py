"""Exact pair counts of a run's measures, overall and within each number of classes, in workers.

The degrees of consistency and discriminancy and Kendall's τ_b of two measures are functions
of the counts of concordant, discordant and tied pairs of matrices (:class:`cenmcc.PairCounts`),
which need every matrix's values at once. A run keeps them out of its memory:

- :class:`ColumnStore` writes each chunk's per-matrix values (K and every measure) at their
  place in one ``.npy`` file per column, in a temporary directory, as the chunks arrive; the
  files are read back memory-mapped, by whichever process needs them;
- :func:`count_pairs` then runs, as parallel tasks in the workers: the order of the matrices
  by K (one task), the dense ranks of each column overall and within each K (two tasks per
  column, written back to the store), and the counts of each pair of columns from their
  ranks (:func:`cenmcc.comparison.counts_from_ranks`), overall and within each K (two tasks
  per pair: one pair keeps two workers busy).

Every count is an exact integer, so the result is the same for any number of workers and any
schedule; the main process only waits.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import numpy as np

from cenmcc.comparison import FENWICK_FROM, PairCounts, counts_from_ranks, load_fenwick

from .parallel import map_tasks
from .streaming import key_groups

#: The column that groups the matrices (their number of classes).
GROUP = "K"

#: Rows of a derived column computed at once (:meth:`ColumnStore.add`): 32 MiB of float64.
BLOCK_ROWS = 2**22

#: Bytes a run's store holds on disk per matrix (fewer than 2**31 matrices): K (int16) and the
#: order by K (int32), then per measure its value (float64) and, once counted, its dense ranks
#: overall and within its K (int32 each). Measured: 38 bytes a matrix for 2 measures, 134 for 8.
STORE_BYTES = 2 + 4
STORE_BYTES_PER_MEASURE = 8 + 4 + 4


class ColumnStore:
    """Columns of n values each, one ``.npy`` file per column in a directory of its own.

    Parameters
    ----------
    n : int
        Number of values (matrices) per column.
    directory : path, optional
        Where the files go; by default a new temporary directory, removed by :meth:`close`.
    """

    def __init__(self, n: int, directory=None):
        self.n = n
        self.owned = directory is None
        self.directory = Path(
            tempfile.mkdtemp(prefix="cenmcc-columns-") if directory is None else directory
        )
        self.dtypes: dict[str, np.dtype] = {}
        self._files: dict[str, tuple[int, int]] = {}  # name -> (file descriptor, header bytes)
        self.ranked: dict[str, set] = {}  # column -> the ranks made of it: "overall", "grouped"
        self.bounds: dict | None = None  # each K's rows in the order by K, once computed

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.npy"

    def write(self, start: int, columns: dict[str, np.ndarray]) -> None:
        """Write ``columns[name]`` at rows ``start, start + 1, ...`` of each column."""
        for name, values in columns.items():
            self.ranked.pop(name, None)
            values = np.ascontiguousarray(values)
            fd, offset = self._open(name, values.dtype)
            _write_all(fd, memoryview(values).cast("B"), offset + start * values.itemsize)

    def _open(self, name: str, dtype: np.dtype) -> tuple[int, int]:
        if name not in self._files:
            header = _npy_header(dtype, self.n)
            fd = os.open(self.path(name), os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
            os.write(fd, header)
            os.ftruncate(fd, len(header) + self.n * np.dtype(dtype).itemsize)
            self._files[name] = (fd, len(header))
            self.dtypes[name] = np.dtype(dtype)
        elif np.dtype(dtype) != self.dtypes[name]:
            raise TypeError(f"column {name!r} is {self.dtypes[name]}, got values of {dtype}")
        return self._files[name]

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
        """Close the files being written (they stay readable)."""
        for fd, _ in self._files.values():
            os.close(fd)
        self._files.clear()

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

    def __enter__(self) -> ColumnStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _write_all(fd: int, data: memoryview, offset: int) -> None:
    """Write all of ``data`` at ``offset``: one ``pwrite`` writes at most about 2 GiB on
    Linux, and may write less than it is given."""
    while data:
        written = os.pwrite(fd, data, offset)
        data, offset = data[written:], offset + written


def _npy_header(dtype: np.dtype, n: int) -> bytes:
    """The header of a ``.npy`` file of ``n`` values of ``dtype`` (NumPy's format 1.0)."""
    import io

    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buffer,
        {
            "descr": np.lib.format.dtype_to_descr(np.dtype(dtype)),
            "fortran_order": False,
            "shape": (n,),
        },
    )
    return buffer.getvalue()


class Counted(NamedTuple):
    """Pair counts of one pair of columns.

    Attributes
    ----------
    overall : PairCounts
        Over every pair of matrices.
    by_group : dict of int to PairCounts
        Over the pairs of matrices of each number of classes K (empty if not asked).
    """

    overall: PairCounts
    by_group: dict


def count_pairs(
    store: ColumnStore, pairs: Iterable[tuple[str, str]], *, by_group: bool = True, **parallel
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
    **parallel
        ``jobs``, ``backend``, ``scheduler``, ``quiet``, as in
        :func:`cenmcc.simulation.parallel.iter_tasks`.

    Returns
    -------
    dict of (f, g) to Counted
    """
    pairs = list(dict.fromkeys(pairs))
    store.flush()
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    directory = str(store.directory)
    if by_group and store.bounds is None:
        (store.bounds,) = map_tasks(
            _group_order, [directory], desc="pair counts: order by K", **parallel
        )
    parts = {"overall": None, "grouped": store.bounds} if by_group else {"overall": None}
    ranks = [
        (directory, name, part, bounds)
        for name in names
        for part, bounds in parts.items()
        if part not in store.ranked.get(name, ())
    ]
    map_tasks(_rank, ranks, desc="pair counts: ranks", **parallel)
    for _, name, part, _ in ranks:
        store.ranked.setdefault(name, set()).add(part)
    counts = [(directory, f, g, None) for f, g in pairs]
    if by_group:
        counts += [(directory, f, g, store.bounds) for f, g in pairs]
    counted = map_tasks(_count, counts, desc="pair counts", **parallel)
    by_k = counted[len(pairs) :] if by_group else [{}] * len(pairs)
    return {
        pair: Counted(overall, grouped)
        for pair, overall, grouped in zip(pairs, counted[: len(pairs)], by_k, strict=True)
    }


def _group_order(directory: str) -> dict[int, tuple[int, int]]:
    """Task: the matrices in increasing K (stable), saved as ``order.npy``; each K's rows there."""
    group = np.load(Path(directory) / f"{GROUP}.npy")
    order = np.argsort(group, kind="stable")  # a radix sort for small integers
    np.save(Path(directory) / "order.npy", order.astype(_index_dtype(order.size)))
    return {k: (rows.start, rows.stop) for k, rows in key_groups(group[order])}


def _rank(task) -> None:
    """Task: the dense ranks of a column, ``"overall"`` (``rank-NAME.npy``) or ``"grouped"``:
    within each K (``bounds``: each K's rows in the order of ``order.npy``), in that order
    (``grouped-rank-NAME.npy``)."""
    directory, name, part, bounds = task
    directory = Path(directory)
    values = np.load(directory / f"{name}.npy")
    if part == "overall":
        np.save(directory / f"rank-{name}.npy", dense_ranks(values))
    else:
        values = values[np.load(directory / "order.npy")]
        ranks = np.empty(values.size, dtype=_index_dtype(values.size))
        for a, b in bounds.values():
            ranks[a:b] = dense_ranks(values[a:b])
        np.save(directory / f"grouped-rank-{name}.npy", ranks)


def _count(task) -> PairCounts | dict[int, PairCounts]:
    """Task: the pair counts of two columns from their ranks: overall (``bounds`` None), or
    within each K (``bounds``: each K's rows in the order by K).

    From 10⁶ matrices the counts use scipy's Fenwick counter, within each K too
    (:data:`cenmcc.comparison.FENWICK_FROM`, :data:`~cenmcc.comparison.FENWICK_LOADED_FROM`).
    """
    directory, f, g, bounds = task
    directory = Path(directory)
    if bounds is None:
        return counts_from_ranks(
            np.load(directory / f"rank-{f}.npy"), np.load(directory / f"rank-{g}.npy")
        )
    rf = np.load(directory / f"grouped-rank-{f}.npy", mmap_mode="r")
    if rf.size >= FENWICK_FROM:
        load_fenwick()  # a large run's groups are large too: loaded, it counts them from 10⁴ on
    rg = np.load(directory / f"grouped-rank-{g}.npy", mmap_mode="r")
    return {k: counts_from_ranks(rf[a:b], rg[a:b]) for k, (a, b) in bounds.items()}


def _index_dtype(n: int):
    return np.int32 if n < 2**31 - 1 else np.int64


def dense_ranks(values: np.ndarray) -> np.ndarray:
    """Dense ranks from 0 (equal values share a rank), int32 when they fit."""
    order = np.argsort(values)
    s = values[order]
    ranks = np.empty(values.size, dtype=_index_dtype(values.size))
    if values.size:
        ranks[order[0]] = 0
        ranks[order[1:]] = np.cumsum(s[1:] != s[:-1], dtype=ranks.dtype)
    return ranks
