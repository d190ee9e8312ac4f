"""Shared algebra of a confusion-matrix stack, computed once and only when a metric needs it.

Every metric of cenmcc is a function of the row sums, column sums, diagonal and total of the
counts (plus, for CEN, a function of each cell). :class:`Counts` validates the input once and
computes each of these on first use; sums are exact for integer input.

A metric is a function of one block (:mod:`cenmcc._metric`): the stack is cut into blocks of
about :data:`BLOCK_CELLS` cells (:meth:`Counts.blocks`), small enough that the per-class
temporaries of a block stay in the CPU cache. Every metric accepts a :class:`Counts` in place of
an array, and a ``Counts`` keeps its blocks with what the metrics computed on them, so several
metrics of one stack share its validation and each block's marginals and exact sums
(:func:`cenmcc.measures` as well, in one pass).

With fewer than :data:`CLASSES_FIRST` classes, a block's float copy of the counts
(:attr:`Counts.cells`) is stored class by class: the cell (j, k) of every matrix of the block is
contiguous. NumPy's loops then run over the matrices rather than over K: a loop over a few
classes costs several times the arithmetic in it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterator
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from ._exact import ExactSums
from ._validation import check_counts, check_nonempty

#: Cells per block (2 MB of int64): enough that the fixed cost of NumPy's calls on a block is
#: small, few enough that a block and CEN's three float arrays as large stay in the L3 cache. Not
#: a power of two: stored class by class, the K^2 runs of a block's matrices would then lie a
#: multiple of 4 KiB apart for K = 2, 4 and 8, in the same few cache sets, and copying the
#: counts into them would cost four times as much.
BLOCK_CELLS = 250_000

#: Below this many classes, a block's float cells are stored class by class (:attr:`Counts.cells`).
CLASSES_FIRST = 16

#: Integer counts whose sums stay below this are summed exactly in float64.
_EXACT_FLOAT = 2**53

#: Below this many classes, row and column sums of integer counts are taken from the cells.
_CELLS_FOR_SUMS = 5

_SMALLEST_NORMAL = np.finfo(np.float64).tiny

#: What a ``Counts`` keeps of its blocks for its next metric (:meth:`Counts.blocks`): a few
#: numbers per matrix and class. The rest (scaled counts, cells, class units) is made again.
_KEPT = (
    "true",
    "pred",
    "diag",
    "total",
    "correct",
    "exact",
    "by_true_class",
    "by_predicted_class",
    "_spread",
)


class Counts:
    """Validated confusion matrices ``C`` of shape ``(..., K, K)`` with their marginals.

    Pass a ``Counts`` to several metrics to validate the stack only once and compute each
    marginal once: a ``Counts`` keeps, block by block, the marginals and exact sums that its
    metrics computed (about ``3K + 10`` numbers per matrix once all are asked for).

    Parameters
    ----------
    C : array_like, shape (..., K, K), or Counts
        Rows = true class, columns = predicted class. A ``Counts`` is validated already: the
        new one shares its read-only counts (as given, before any scaling of a block).
    name : str
        Name used in error messages.
    copy : bool, default True
        Whether to keep a private copy of the counts. With False, a C-contiguous ``int64`` or
        ``float64`` array is used in place (a read-only view of it): validation then reads each
        cell once and writes nothing, and the caller must not change the array while the
        ``Counts`` is in use.

    Attributes
    ----------
    C : ndarray, shape (..., K, K)
        The read-only counts, ``int64`` or ``float64``: a copy (changing the array given later
        changes nothing here) unless ``copy=False``.
    max_count : int or float
        The largest count (in a block, of the whole stack).
    cells : ndarray, shape (..., K, K)
        The counts as float64, stored class by class when K is small (:attr:`cells`).
    true, pred, diag : ndarray, shape (..., K)
        Row sums ``t_k`` (samples of true class k), column sums ``p_k`` (samples predicted as
        class k) and diagonal ``C_kk``.
    total, correct : ndarray, shape (...)
        Number of samples ``s`` and trace ``c``. A matrix without samples raises ``ValueError``
        when ``total`` is first needed. In the blocks that the metrics see (:meth:`blocks`),
        each float matrix is first scaled by a power of two (:func:`_rescale`), so that its
        sums neither overflow nor fall among the subnormal floats; ratios within one class
        use :attr:`by_true_class`, :attr:`by_predicted_class` and :attr:`by_class`, exact for
        matrices of any span.

    Raises
    ------
    TypeError, ValueError
        For invalid counts (see :func:`check_counts`).

    Examples
    --------
    >>> import cenmcc
    >>> m = cenmcc.Counts([[5, 1, 0], [2, 6, 1], [0, 1, 7]])
    >>> round(float(cenmcc.cen(m)), 4), round(float(cenmcc.mcc(m)), 4)
    (0.3863, 0.6743)
    """

    def __init__(self, C, *, name: str = "C", copy: bool = True):
        if isinstance(C, Counts):
            self.C, self.max_count = C.raw, C.max_count
        else:
            self.C, self.max_count = check_counts(C, name=name, copy=copy)
        self.raw = self.C  # the counts before any scaling (see blocks)
        self.name = name
        self.stack_shape = self.C.shape[:-2]
        self.first = 0  # index of the first matrix in the flattened stack it comes from
        self._kept = []  # the blocks made so far (see blocks), or None to keep none
        self._block_size = max(BLOCK_CELLS // (self.n_classes**2), 1)
        self._workspace = None  # a block's scratch arrays while it is the current block

    @classmethod
    def _for_one_call(cls, C) -> Counts:
        """``C`` validated for one metric call: in place when it can be (no copy), and keeping
        no blocks, since nothing outlives the call."""
        m = cls(C, copy=False)
        m._kept = None
        return m

    @property
    def n_classes(self) -> int:
        return self.C.shape[-1]

    @cached_property
    def cells(self) -> np.ndarray:
        """The counts as float64, shape ``(..., K, K)``, read-only: each integer count below
        2**53 exactly, larger ones rounded once.

        Below :data:`CLASSES_FIRST` classes they are stored class by class (for a block, the
        array ``(K, K, n)`` seen as ``(n, K, K)``), as are the arrays of :meth:`scratch`:
        NumPy's elementwise loops and its reductions over the classes then run over the
        matrices.
        """
        cells = self.scratch("cells")
        if self.n_classes >= CLASSES_FIRST:
            np.copyto(cells, self.C, "unsafe")
        else:  # copyto can pick a slow order for the transposition
            np.positive(self.C, out=cells)
        cells = cells.view()
        cells.flags.writeable = False
        return cells

    def scratch(self, name: str, class_axes: int = 2) -> np.ndarray:
        """An empty float64 array for a metric's temporaries: of shape ``(..., K, K)`` laid out
        as :attr:`cells` (``class_axes=2``), or ``(..., K)`` likewise (``class_axes=1``).

        While a block is the current block of :meth:`blocks`, the array named ``name`` is the
        same memory for every block: a fresh array of a few hundred KiB per block can cost more
        than the arithmetic on it (the C library hands such memory back to the system, which
        faults it in again, page by page). It is valid only until the next block.
        """
        if self._workspace is None:
            return _empty(self.C.shape[:-2], self.C.shape[-2:][:class_axes], self.n_classes)
        return self._workspace.get(name, class_axes)[: self.C.shape[0]]

    def _once(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """``compute()``, called once per ``key`` on this ``Counts``: in a block of
        :meth:`blocks`, a value that several metrics of one evaluation share (the MCC, for the
        MCC and the tMCC), kept until the next block."""
        memo = vars(self).setdefault("_memo", {})
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def _sums_cells(self, *, few_classes: bool = False) -> bool:
        """Whether to sum :attr:`cells` rather than the counts, for integer counts whose sums
        are exact in float64 (in any order): once the cells are made (by CEN), or for the row
        and column sums (``few_classes=True``) below :data:`_CELLS_FOR_SUMS` classes, where
        summing over K in the counts' layout costs more than making the cells. Stored class by
        class, the cells are summed over the matrices' rows or columns, a vector loop over the
        matrices; from :data:`CLASSES_FIRST` classes on, a matrix product with a vector of
        ones sums each matrix's rows and columns faster than any reduction of the counts."""
        K = self.n_classes
        if self.C.dtype.kind == "f" or self.max_count * K * K >= _EXACT_FLOAT:
            return False
        return "cells" in vars(self) or (few_classes and K < _CELLS_FOR_SUMS)

    def _class_sums(self, axis: int) -> np.ndarray:
        """Row sums (``axis=-1``) or column sums (``axis=-2``) of each matrix, in the dtype of
        the counts. Integer sums are laid out as :attr:`cells` whatever they are summed from,
        so that what a metric computes from them has the same bits in any stack."""
        subscripts = "...ij->...i" if axis == -1 else "...ij->...j"
        if self.C.dtype.kind == "f":
            return np.einsum(subscripts, self.C)
        sums = self._per_class_int64()
        if self._sums_cells(few_classes=True):
            out = self.scratch(f"sums over axis {axis}", 1)
            if self.n_classes < CLASSES_FIRST:
                self.cells.sum(axis=axis, out=out)
            elif axis == -1:
                np.matmul(self.cells, np.ones(self.n_classes), out=out)
            else:
                np.matmul(np.ones(self.n_classes), self.cells, out=out)
            np.copyto(sums, out, "unsafe")
        else:
            np.einsum(subscripts, self.C, out=sums)
        return sums

    def _per_class_int64(self) -> np.ndarray:
        """An empty int64 array of shape ``(..., K)``, laid out as :attr:`cells`."""
        return _empty(self.C.shape[:-2], self.C.shape[-1:], self.n_classes, np.int64)

    @cached_property
    def total(self) -> np.ndarray:
        # Integer counts are summed in one pass, exactly, without the row sums that the
        # accuracy does not need; float counts from their row sums, in that order.
        if self.C.dtype.kind == "f":
            total = np.einsum("...i->...", self.true)
        else:
            total = np.einsum("...ij->...", self.C)
        check_nonempty(total, name=self.name, first=self.first, stack_shape=self.stack_shape)
        return total

    @cached_property
    def correct(self) -> np.ndarray:
        if self._sums_cells():
            return np.einsum("...i->...", self.diag)
        return np.einsum("...ii->...", self.C)

    @cached_property
    def true(self) -> np.ndarray:
        return self._class_sums(-1)

    @cached_property
    def pred(self) -> np.ndarray:
        return self._class_sums(-2)

    @cached_property
    def diag(self) -> np.ndarray:
        # A copy: the diagonal view strides through every matrix, and each use of it would cost
        # as much as a pass over the whole stack. Integer counts as the row sums are laid out.
        if self.C.dtype.kind == "f":
            return np.einsum("...ii->...i", self.C).copy()
        source = self.cells if self._sums_cells() else self.C
        diag = self._per_class_int64()
        np.copyto(diag, np.einsum("...ii->...i", source), "unsafe")
        return diag

    @cached_property
    def exact(self) -> ExactSums:
        """The exact integer sums behind the MCC, kappa, the tMCC and the one-versus-rest
        measures (see :mod:`cenmcc._exact`)."""
        K = self.n_classes
        if self.C.dtype.kind == "f":
            return ExactSums(self.raw.reshape(-1, K, K))
        return ExactSums(
            self.C.reshape(-1, K, K),
            self.true.reshape(-1, self.n_classes),
            self.pred.reshape(-1, self.n_classes),
            self.total.reshape(-1),
            self.correct.reshape(-1),
        )

    def blocks(self) -> Iterator[Counts]:
        """Consecutive blocks of the flattened stack: ``Counts`` of about BLOCK_CELLS cells each.

        In a block, each float matrix is multiplied by the power of two that brings its largest
        cell to just below ``2**1000 / 2K`` (:func:`_rescale`); ``raw`` keeps the counts as given.
        The ``Counts`` keeps what the metrics cache on its blocks (marginals, exact sums) for its
        next metric. Each iteration sees its own copy of a block, with its own :attr:`cells`
        and :meth:`scratch` arrays, valid until the next block is asked for: two threads may
        iterate over the blocks of one ``Counts`` at once.
        """
        K = self.n_classes
        flat = self.raw.reshape(-1, K, K)
        kept = self._kept if self._kept is not None else []
        workspace = _Workspace((min(self._block_size, flat.shape[0]),), K)
        for i, start in enumerate(range(0, max(flat.shape[0], 1), self._block_size)):
            if i == len(kept):
                kept.append(self._block(flat[start : start + self._block_size], start))
            block = copy.copy(kept[i])  # what this iteration computes stays its own
            if block.C.dtype.kind == "f":
                block.C = _rescale(block.raw)
            block._workspace = workspace
            block.total  # noqa: B018 - computed now so that an empty matrix always raises
            yield block
            if self._kept is None:
                kept[i] = None
            else:
                vars(kept[i]).update({k: v for k, v in vars(block).items() if k in _KEPT})

    def _block(self, C: np.ndarray, start: int) -> Counts:
        """The block of the matrices ``C``, the first of them at ``start`` in the flat stack."""
        block = object.__new__(Counts)
        block.C = block.raw = C
        block.max_count, block.name, block.stack_shape = (
            self.max_count,
            self.name,
            self.stack_shape,
        )
        block.first = self.first + start
        block._kept, block._block_size, block._workspace = None, C.shape[0] or 1, None
        return block

    @property
    def span(self) -> slice:
        """The matrices of the flattened stack that a block (from :meth:`blocks`) holds."""
        return slice(self.first, self.first + self.C.shape[0])

    @cached_property
    def by_true_class(self) -> tuple[np.ndarray, np.ndarray]:
        """``(C_kk, t_k)`` of each class k, for ratios over the true class (the recall).

        Their ratio is the exact ratio rounded, however far a class's counts are from the
        other classes': float counts are on the block's scale, or, in a matrix spanning more
        than about 2**2000 (:attr:`_spread`), each class in the unit of its row's largest cell.
        """
        return self._per_class((self.diag, self.true), _by_true_class)

    @cached_property
    def by_predicted_class(self) -> tuple[np.ndarray, np.ndarray]:
        """``(C_kk, p_k)`` of each class k, for ratios over the predicted class (the
        precision); as :attr:`by_true_class`, with the unit of each column's largest cell."""
        return self._per_class((self.diag, self.pred), _by_predicted_class)

    @cached_property
    def by_class(self) -> ClassCounts:
        """The counts seen from each class j, its row and its column, with ``d_j = t_j + p_j``
        (for the F1 score and ``CEN_j``); as :attr:`by_true_class`, with the unit of the
        largest cell of the row and column of each class."""
        common = (self.C, self.C, self.diag, self.true + self.pred)
        return ClassCounts(*self._per_class(common, _by_class))

    @cached_property
    def _spread(self) -> np.ndarray:
        """The matrices of a float block in which :func:`_rescale` made a non-zero count
        subnormal or 0 (more than about 2**2000 below the largest): only there do ratios within
        one class need that class's own unit."""
        lost = (self.raw > 0) & (self.C < _SMALLEST_NORMAL)
        return np.flatnonzero(lost.any(axis=(-2, -1)))

    def _per_class(self, common: tuple, own: Callable) -> tuple:
        """``common``, per-class values on the block's scale, with those of the :attr:`_spread`
        matrices replaced by ``own`` of their counts, in each class's own unit."""
        if self.C.dtype.kind != "f" or not self._spread.size:
            return common
        values = tuple(np.array(x) for x in common)  # copies: the marginals stay as they are
        for x, y in zip(values, own(self.raw[self._spread]), strict=True):
            x[self._spread] = y
        return values


def _by_true_class(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows, _ = _in_class_units(C, C.max(axis=-1), columns=False)
    return np.einsum("...ii->...i", rows), np.einsum("...ij->...i", rows)


def _by_predicted_class(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    _, columns = _in_class_units(C, C.max(axis=-2), rows=False)
    return np.einsum("...ii->...i", columns), np.einsum("...ij->...j", columns)


def _by_class(C: np.ndarray) -> tuple[np.ndarray, ...]:
    rows, columns = _in_class_units(C, np.maximum(C.max(axis=-1), C.max(axis=-2)))
    d = np.einsum("...ij->...i", rows) + np.einsum("...ij->...j", columns)
    return rows, columns, np.einsum("...ii->...i", rows), d


class ClassCounts(NamedTuple):
    """A block's counts seen from each class (:attr:`Counts.by_class`).

    Attributes
    ----------
    rows : ndarray, shape (n, K, K)
        ``C``, each row j in the unit of class j.
    columns : ndarray, shape (n, K, K)
        ``C``, each column j in the unit of class j.
    diag, d : ndarray, shape (n, K)
        ``C_jj`` and ``d_j = t_j + p_j`` in the unit of class j.
    """

    rows: np.ndarray
    columns: np.ndarray
    diag: np.ndarray
    d: np.ndarray


def _rescale(C: np.ndarray) -> np.ndarray:
    """Float matrices ``(n, K, K)``, each multiplied by the power of two that brings its largest
    cell to ``[2**(e - 1), 2**e)`` with ``e = 1000 - bits(2K)``.

    The factor is a power of two, so the scaling is exact (up or down), and every metric of a
    whole matrix is invariant to it. Sums of cells stay below 2**1000 and finite whatever the
    counts, and the total is at least ``2**(e - 1)``: products of cells and logarithms are far
    from the subnormal range, where their rounding would lose relative precision. Only a cell
    more than about 2**2000 times smaller than the largest of its matrix can lose bits or become
    0; its share of every whole-matrix value is below 2**-2000.
    """
    _, exponent = np.frexp(C.max(axis=(-2, -1)))
    shift = 1000 - (2 * C.shape[-1]).bit_length() - exponent
    while np.any(shift):  # at most 3 exact multiplications (6 times faster than np.ldexp)
        part = np.clip(shift, -1000, 1000)  # 2.0**part is a normal float
        C = C * np.ldexp(1.0, part)[:, None, None]
        shift -= part
    return C


def _in_class_units(C: np.ndarray, top: np.ndarray, *, rows: bool = True, columns: bool = True):
    """``C`` with each row k (``rows``) and each column k (``columns``) divided by the power of
    two of ``top[..., k]``, the largest cell of class k: the class's cells end below 1, so
    their sums cannot overflow, and its largest cell in [1/2, 1). The scaling is exact except
    for a cell more than 2**1021 times smaller than its class's largest, which becomes
    subnormal (or 0) and is rounded by less than 2**-1074, far below the rounding of the sums
    it enters."""
    e = np.frexp(top)[1]
    return (
        np.ldexp(C, -e[..., :, None]) if rows else None,
        np.ldexp(C, -e[..., None, :]) if columns else None,
    )


class _Workspace:
    """Named float64 arrays of shape ``stack + (K,) * class_axes``, laid out as
    :attr:`Counts.cells`, each made on first use and then reused (:meth:`Counts.scratch`)."""

    def __init__(self, stack: tuple, K: int):
        self.stack, self.K, self.arrays = stack, K, {}

    def get(self, name: str, class_axes: int) -> np.ndarray:
        if name not in self.arrays:
            self.arrays[name] = _empty(self.stack, (self.K,) * class_axes, self.K)
        return self.arrays[name]


def _empty(stack: tuple, shape: tuple, K: int, dtype=np.float64) -> np.ndarray:
    """An empty array of shape ``stack + shape``, stored with the ``shape`` axes first (the
    matrices innermost) below :data:`CLASSES_FIRST` classes."""
    if K >= CLASSES_FIRST:
        return np.empty(stack + shape, dtype)
    a, b = len(shape), len(stack)
    return np.empty(shape + stack, dtype).transpose(*range(a, a + b), *range(a))
