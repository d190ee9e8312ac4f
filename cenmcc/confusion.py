"""Building confusion matrices from label vectors."""

from __future__ import annotations

import numpy as np

from ._validation import check_label_set, check_labels, encode_labels, real_array


def confusion_matrix(y_true, y_pred, labels=None, sample_weight=None) -> np.ndarray:
    """Confusion matrix of two label vectors: rows = true class, columns = predicted class.

    Parameters
    ----------
    y_true, y_pred : array_like, shape (n_samples,)
        True and predicted labels, of any sortable type.
    labels : array_like, shape (K,), optional
        The classes, in the order of the rows and columns. Default: the sorted union of the labels
        in ``y_true`` and ``y_pred``. A sample whose label is not in ``labels`` is an error, never
        silently dropped.
    sample_weight : array_like, shape (n_samples,), optional
        Non-negative, finite weight of each sample; then the counts are float.

    Returns
    -------
    ndarray, shape (K, K)
        ``C_ij`` = number (or total weight) of samples of true class ``labels[i]`` predicted as
        ``labels[j]``; ``int64`` without weights, ``float64`` with them.

    Raises
    ------
    TypeError
        Labels that cannot be sorted (``None``, or numbers mixed with strings), or weights that
        are not real numbers.
    ValueError
        Label arrays of different lengths or not 1-D, empty input, fewer than 2 classes,
        duplicate ``labels``, labels outside ``labels``, or invalid weights.

    Notes
    -----
    Jurman, Riccadonna & Furlanello (2012), Methods: ``C_ij = |{s : tc(s) = i, pc(s) = j}|``.

    Examples
    --------
    >>> confusion_matrix(["a", "b", "b", "c"], ["a", "b", "c", "c"]).tolist()
    [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    """
    y_true, y_pred = check_labels(y_true, y_pred)
    labels = np.union1d(y_true, y_pred) if labels is None else check_label_set(labels)
    K = labels.size
    if K < 2:
        raise ValueError(
            f"a confusion matrix needs at least 2 classes, got {K}; pass `labels` to name them"
        )
    index = [
        encode_labels(y, labels, name=name) for y, name in ((y_true, "y_true"), (y_pred, "y_pred"))
    ]
    weights = None
    if sample_weight is not None:
        weights = real_array(sample_weight, name="sample_weight")
        if weights.shape != y_true.shape:
            raise ValueError(f"sample_weight must have shape {y_true.shape}, got {weights.shape}")
        if not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise ValueError("sample_weight must be finite and non-negative")
    counts = np.bincount(index[0] * K + index[1], weights=weights, minlength=K * K)
    return counts.reshape(K, K)
