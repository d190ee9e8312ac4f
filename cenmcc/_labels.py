"""Class labels, validated and compared exactly.

Labels are never compared through a common NumPy dtype: NumPy casts int64 against float64, and
int64 against uint64, to float64, where ``2**53 + 1`` equals ``2.0**53`` and two labels above
2**53 can merge, counting a misprediction as correct. Here each label array is reduced to its
distinct values by :func:`numpy.unique` in its own dtype (exact), and only those few values are
compared and sorted as Python objects, which compare integers and floats exactly: ``3`` and
``3.0`` name the same class, ``2**53 + 1`` and ``2.0**53`` two classes.

The labels of one call are of one kind: numbers (integers and floats), booleans, strings or
bytes. An object array (a pandas column of strings, say) is read by the types of its values, so
that it matches a NumPy string array. ``None``, NaN (which equals no label, itself included)
and labels of different kinds in one array are refused with the offending values named.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validation import _first_index, as_array, is_real

#: The kind of labels of each NumPy dtype kind, and of each Python type in an object array.
_DTYPE_KINDS = {"b": "booleans", "i": "numbers", "u": "numbers", "f": "numbers"}
_DTYPE_KINDS |= {"U": "strings", "S": "bytes"}
_TYPE_KINDS = (
    ((bool, np.bool_), "booleans"),
    ((int, float, np.integer, np.floating), "numbers"),
    ((str,), "strings"),  # np.str_ is a str
    ((bytes,), "bytes"),  # np.bytes_ is a bytes
)


class Labels(NamedTuple):
    """A 1-D label array as its distinct labels and the position of each label among them.

    Attributes
    ----------
    distinct : ndarray, shape (m,)
        The distinct labels, sorted, in the array's dtype.
    index : ndarray of intp, shape (n,)
        ``distinct[index]`` is the array.
    kind : str
        "numbers", "booleans", "strings" or "bytes".
    """

    distinct: np.ndarray
    index: np.ndarray
    kind: str


class LabelSet(NamedTuple):
    """Classes in a chosen order: their labels and each label's position (an exact lookup)."""

    labels: np.ndarray
    position: dict
    kind: str


def read_labels(values, *, name: str) -> Labels:
    """Validate a 1-D label array of one kind, without NaN or ``None``, and find its classes.

    Raises
    ------
    TypeError
        For a masked array, labels that are not numbers, booleans, strings or bytes (``None``,
        complex, dates), or labels of several kinds in one array.
    ValueError
        For a ragged or not 1-D array, or a NaN label.
    """
    arr = as_array(values, name=name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}")
    if isinstance(values, list | tuple) and arr.dtype != object and len(set(map(type, values))) > 1:
        # NumPy cast a sequence of mixed types to one dtype: ["a", 1] to strings, [True, 2] to
        # integers, [2**53 + 1, 0.5] to floats (2**53 + 1 to 2**53). Keep the values as given.
        arr = np.array(values, dtype=object)
    _check_not_nan(arr, name)  # first: a missing value of a pandas column is a NaN
    kind = _kind(arr, name)
    distinct, index = np.unique(arr, return_inverse=True)
    return Labels(distinct, index.reshape(-1), kind)


def read_samples(y_true, *, name: str = "y_true") -> Labels:
    """:func:`read_labels` of the true labels of a sample, which must not be empty."""
    y = read_labels(y_true, name=name)
    if y.index.size == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed")
    return y


def read_pair(
    y_true, y_pred, names: tuple[str, str] = ("y_true", "y_pred")
) -> tuple[Labels, Labels]:
    """:func:`read_labels` of two label arrays of the same kind and the same, non-zero length."""
    return read_together((y_true, y_pred), names)


def read_together(arrays, names: tuple[str, ...]) -> tuple[Labels, ...]:
    """:func:`read_labels` of label arrays (the truth first, then predictions) of the same kind
    and the same, non-zero length."""
    read = tuple(read_labels(x, name=name) for x, name in zip(arrays, names, strict=True))
    for other, name in zip(read[1:], names[1:], strict=True):
        check_same_kind((read[0].kind, other.kind), (names[0], name))
    lengths = [x.index.size for x in read]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"{_listed(names)} must have the same length, got {_listed(map(str, lengths))}"
        )
    if lengths[0] == 0:
        raise ValueError(f"{_listed(names)} are empty; at least one sample is needed")
    return read


def _listed(words) -> str:
    """``a and b``, ``a, b and c``."""
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def read_label_set(labels, *, name: str = "labels") -> LabelSet:
    """Validate class labels given in the caller's order: :func:`read_labels`, all distinct."""
    read = read_labels(labels, name=name)
    repeats = np.bincount(read.index, minlength=read.distinct.size) > 1
    if np.any(repeats):
        raise ValueError(f"{name} must be unique, {read.distinct[repeats].tolist()[0]!r} repeats")
    ordered = read.distinct[read.index]
    return LabelSet(ordered, {x: i for i, x in enumerate(ordered.tolist())}, read.kind)


def union(*labels: Labels) -> LabelSet:
    """The sorted classes of label arrays of the same kind (:func:`read_together`), compared
    exactly."""
    classes = sorted(set().union(*(x.distinct.tolist() for x in labels)))
    return LabelSet(
        np.array(classes, dtype=object), {x: i for i, x in enumerate(classes)}, labels[0].kind
    )


def encode(labels: Labels, classes: LabelSet, *, name: str, classes_name: str) -> np.ndarray:
    """The position in ``classes`` of each label; a label that is not a class is an error
    (up to five of them are named), never silently dropped."""
    check_same_kind((labels.kind, classes.kind), (name, classes_name))
    distinct = labels.distinct.tolist()
    unknown = [x for x in distinct if x not in classes.position]
    if unknown:
        raise ValueError(f"{name} has labels not in `{classes_name}`: {unknown[:5]}")
    positions = np.array([classes.position[x] for x in distinct], dtype=np.intp)
    return positions[labels.index]


def check_same_kind(kinds: tuple[str, str], names: tuple[str, str]) -> None:
    if kinds[0] != kinds[1]:
        raise TypeError(
            f"{names[0]} and {names[1]} must hold labels of the same kind, got {kinds[0]} and "
            f"{kinds[1]}: labels of different kinds never match"
        )


def _kind(arr: np.ndarray, name: str) -> str:
    if arr.dtype != object:
        if arr.dtype.kind in _DTYPE_KINDS and (arr.dtype.kind not in "iuf" or is_real(arr)):
            return _DTYPE_KINDS[arr.dtype.kind]
        raise TypeError(
            f"{name} must hold labels that are numbers, booleans, strings or bytes, "
            f"got dtype {arr.dtype}"
        )
    kinds, types = set(), set()
    for t in {type(x) for x in arr.tolist()}:
        kind = next((k for ts, k in _TYPE_KINDS if issubclass(t, ts)), None)
        kinds.add(kind)
        types.add("str" if kind == "strings" else "bytes" if kind == "bytes" else t.__name__)
    if len(kinds) > 1 or None in kinds:
        raise TypeError(
            f"{name} must hold labels of one kind (numbers, booleans, strings or bytes), got "
            f"values of types {sorted(types)}"
        )
    return kinds.pop() if kinds else "numbers"  # an empty object array


def _check_not_nan(arr: np.ndarray, name: str) -> None:
    if arr.dtype == object:
        nan = np.array([isinstance(x, float | np.floating) and math.isnan(x) for x in arr])
    else:
        nan = np.isnan(arr) if arr.dtype.kind == "f" else np.zeros(arr.shape, dtype=bool)
    if np.any(nan):
        raise ValueError(
            f"{name} has a NaN label at index {_first_index(nan)[0]}; NaN equals no label, "
            "itself included, so it cannot name a class"
        )
