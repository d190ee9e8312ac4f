"""Building confusion matrices from label vectors."""

from __future__ import annotations

import numpy as np

from ._labels import encode, read_label_set, read_pair, union
from ._validation import _first_index, real_array


def confusion_matrix(y_true, y_pred, labels=None, sample_weight=None) -> np.ndarray:
    """Confusion matrix of two label vectors: rows = true class, columns = predicted class.

    Parameters
    ----------
    y_true, y_pred : array_like, shape (n_samples,)
        True and predicted labels, all of one kind: numbers (integers and floats), booleans,
        strings or bytes. An object array (a pandas column) is read by the types of its values.
    labels : array_like, shape (K,), optional
        The classes, in the order of the rows and columns. Default: the sorted union of the labels
        in ``y_true`` and ``y_pred``. A sample whose label is not in ``labels`` is an error, never
        silently dropped.
    sample_weight : array_like, shape (n_samples,), optional
        Non-negative, finite weight of each sample; then the counts are float, and each must
        stay below the largest float.

    Returns
    -------
    ndarray, shape (K, K)
        ``C_ij`` = number (or total weight) of samples of true class ``labels[i]`` predicted as
        ``labels[j]``; ``int64`` without weights, ``float64`` with them.

    Raises
    ------
    TypeError
        Masked arrays; labels that are not numbers, booleans, strings or bytes (``None``,
        complex, dates); labels of different kinds in one array, or in ``y_true``, ``y_pred``
        and ``labels`` (strings never match numbers); weights that are not real numbers.
    ValueError
        Label arrays of different lengths or not 1-D, empty input, NaN labels (NaN equals no
        label, itself included), fewer than 2 classes, duplicate ``labels``, labels outside
        ``labels``, invalid weights, or weights whose sum in a cell passes the largest float.

    Notes
    -----
    Jurman, Riccadonna & Furlanello (2012), Methods: ``C_ij = |{s : tc(s) = i, pc(s) = j}|``.

    Labels are compared exactly, never through a common dtype (:mod:`cenmcc._labels`): ``3``
    and ``3.0`` are one class, ``2**53 + 1`` and ``2.0**53`` two, as are an ``int64`` and a
    ``uint64`` label above 2**63 that a float64 cast would merge.

    Examples
    --------
    >>> confusion_matrix(["a", "b", "b", "c"], ["a", "b", "c", "c"]).tolist()
    [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    """
    pair = read_pair(y_true, y_pred)
    classes = union(*pair) if labels is None else read_label_set(labels)
    K = classes.labels.size
    if K < 2:
        raise ValueError(
            f"a confusion matrix needs at least 2 classes, got {K}; pass `labels` to name them"
        )
    true, pred = (
        encode(y, classes, name=name, classes_name="labels")
        for y, name in zip(pair, ("y_true", "y_pred"), strict=True)
    )
    weights = None if sample_weight is None else _sample_weight(sample_weight, true.shape)
    counts = np.bincount(true * K + pred, weights=weights, minlength=K * K).reshape(K, K)
    if weights is not None and not np.all(np.isfinite(counts)):
        cell = _first_index(~np.isfinite(counts))
        raise ValueError(
            f"the sample weights of cell {cell} sum past the largest float "
            f"({np.finfo(np.float64).max:g}); divide sample_weight by a common factor"
        )
    return counts


def _sample_weight(sample_weight, shape: tuple) -> np.ndarray:
    """Finite, non-negative real weights, one per sample."""
    weights = real_array(sample_weight, name="sample_weight")
    if weights.shape != shape:
        raise ValueError(f"sample_weight must have shape {shape}, got {weights.shape}")
    bad = ~np.isfinite(weights) | (weights < 0)
    if np.any(bad):
        i = _first_index(bad)[0]
        raise ValueError(
            f"sample_weight must be finite and non-negative, found {weights[i]} at index {i}"
        )
    return weights
