"""Labels are compared exactly and of one kind: confusion_matrix and the score metrics."""

import numpy as np
import pandas as pd
import pytest

import cenmcc


def test_integer_labels_above_2_53_are_not_merged_with_a_float():
    # np.union1d casts both to float64, where 2**53 + 1 is 2**53: a miss counted as a hit.
    C = cenmcc.confusion_matrix(np.array([2**53 + 1, 0]), np.array([2.0**53, 0.0]))
    np.testing.assert_array_equal(C, [[1, 0, 0], [0, 0, 0], [0, 1, 0]])  # 0, 2.0**53, 2**53 + 1


def test_int64_and_uint64_labels_above_2_60_are_not_merged():
    C = cenmcc.confusion_matrix(
        np.array([2**60 + 1, 0], dtype=np.int64), np.array([2**60, 0], dtype=np.uint64)
    )
    assert cenmcc.accuracy(C) == 0.5


def test_a_list_mixing_integers_and_floats_keeps_every_value():
    C = cenmcc.confusion_matrix([2**53 + 1, 0.5], [2**53, 0.5])
    np.testing.assert_array_equal(C, [[1, 0, 0], [0, 0, 0], [0, 1, 0]])


def test_integers_and_integral_floats_match_only_when_equal():
    C = cenmcc.confusion_matrix(np.array([3, 1, 2]), np.array([3.0, 1.0, 2.5]))
    np.testing.assert_array_equal(C, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 1]])


def test_a_pandas_column_of_strings_matches_a_numpy_string_array():
    y_true = pd.Series(["cat", "dog", "cat", "bird"])  # dtype object
    y_pred = np.array(["cat", "dog", "dog", "bird"])
    C = cenmcc.confusion_matrix(y_true, y_pred)
    np.testing.assert_array_equal(C, [[1, 0, 0], [0, 1, 1], [0, 0, 1]])  # bird, cat, dog
    assert cenmcc.hand_till_auc(y_true, np.eye(3)[[1, 2, 1, 0]]) == 1.0


@pytest.mark.parametrize(
    ("y_true", "y_pred", "labels", "match"),
    [
        (np.array(["a", "b"], dtype=object), np.array([1, 2], dtype=object), None, "same kind"),
        ([True, False], [1, 0], None, "got booleans and numbers"),
        ([1, 2], [1, 2], ["1", "2"], "y_true and labels must hold labels of the same kind"),
        ([True, 2], [1, 2], None, r"\['bool', 'int'\]"),
        ([1 + 1j, 2], [1, 2], None, "got values of types"),
        (np.array([1 + 1j, 2]), [1, 2], None, "dtype complex128"),
        (np.array(["2020-01-01"], dtype="M8[D]"), [1], None, "dtype datetime64"),
        (pd.Series(["a", None], dtype=object), ["a", "b"], None, "NoneType"),
    ],
)
def test_labels_of_different_kinds_are_refused(y_true, y_pred, labels, match):
    with pytest.raises(TypeError, match=match):
        cenmcc.confusion_matrix(y_true, y_pred, labels=labels)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "labels"),
    [
        ([0.0, np.nan], [0.0, 1.0], None),
        ([0.0, 1.0], np.array([1, np.nan], dtype=object), None),
        ([0, 1], [0, 1], [0, np.nan, 1]),
        (pd.Series(["a", None]), ["a", "b"], None),  # a missing string is a NaN in pandas
    ],
)
def test_nan_labels_are_refused(y_true, y_pred, labels):
    with pytest.raises(ValueError, match="NaN label at index 1; NaN equals no label"):
        cenmcc.confusion_matrix(y_true, y_pred, labels=labels)


def test_equal_labels_of_different_types_repeat_in_labels():
    with pytest.raises(ValueError, match="labels must be unique, 3 repeats"):
        cenmcc.confusion_matrix([3, 4], [3, 4], labels=np.array([3, 3.0, 4], dtype=object))


@pytest.mark.parametrize("metric", [cenmcc.hand_till_auc, cenmcc.log_loss])
@pytest.mark.parametrize(
    ("y_true", "match"),
    [([0, None, 1], "NoneType"), (["a", 1, 1], r"\['int', 'str'\]"), ([0, np.nan, 1], "NaN")],
)
def test_score_metrics_refuse_none_mixed_and_nan_labels(metric, y_true, match):
    proba = np.array([[0.5, 0.5], [0.25, 0.75], [0.0, 1.0]])
    with pytest.raises(TypeError if "NaN" not in match else ValueError, match=match):
        metric(y_true, proba)


def test_score_metrics_match_labels_exactly():
    proba = np.array([[0.5, 0.5], [0.25, 0.75], [0.0, 1.0]])
    y = np.array([2**53 + 1, 2**53 + 1, 0])
    # 2.0**53 is not 2**53 + 1: the class has no sample, and y_true a label outside `labels`.
    with pytest.raises(
        ValueError, match=r"y_true has labels not in `labels`: \[9007199254740993\]"
    ):
        cenmcc.log_loss(y, proba, labels=np.array([0.0, 2.0**53]))
    assert cenmcc.log_loss(y, proba, labels=np.array([0, 2**53 + 1], dtype=np.uint64)) > 0


def test_weights_summing_past_the_largest_float_are_refused():
    with pytest.raises(ValueError, match=r"cell \(0, 0\) sum past the largest float"):
        cenmcc.confusion_matrix([0, 0, 1], [0, 0, 1], sample_weight=[1e308, 1e308, 1.0])
    with pytest.raises(ValueError, match=r"non-negative, found -1\.0 at index 1"):
        cenmcc.confusion_matrix([0, 1], [0, 1], sample_weight=[1.0, -1.0])
    C = cenmcc.confusion_matrix([0, 0, 1], [0, 0, 1], sample_weight=[1e308, 7e307, 1.0])
    assert np.all(np.isfinite(C))
