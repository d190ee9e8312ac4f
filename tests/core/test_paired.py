"""Paired comparison of two classifiers (cenmcc.compare_classifiers), against scipy, McNemar's
tests and each other."""

import numpy as np
import pytest
from scipy import stats
from test_intervals import OMITTING, labels_statistic

import cenmcc
from cenmcc.paired import joint_cells


def paired_labels(n_ab, n_ba, n_both, n_neither, K=3, seed=0):
    """Labels with given counts of items a gets right and b wrong, and so on (shuffled)."""
    rng = np.random.default_rng(seed)
    n = n_ab + n_ba + n_both + n_neither
    y = rng.integers(0, K, n)
    wrong = (y + rng.integers(1, K, n)) % K
    a_right = np.repeat([True, False, True, False], [n_ab, n_ba, n_both, n_neither])
    b_right = np.repeat([False, True, True, False], [n_ab, n_ba, n_both, n_neither])
    return y, np.where(a_right, y, wrong), np.where(b_right, y, wrong)


def test_comparison_agrees_with_scipy_on_the_items():
    y, a, b = paired_labels(40, 20, 120, 20)
    B = 20_000

    def difference(t, pa, pb, axis=-1):
        return labels_statistic("mcc", 3)(t, pa, axis) - labels_statistic("mcc", 3)(t, pb, axis)

    ours = cenmcc.compare_classifiers(
        y, a, b, "mcc", method="percentile", n_resamples=B, random_state=1
    )
    theirs = stats.bootstrap(
        (y, a, b), difference, paired=True, vectorized=True, n_resamples=B,
        method="percentile", random_state=2,
    )  # fmt: skip
    assert ours.statistic == pytest.approx(float(difference(y, a, b)))
    assert ours.confidence_interval.low == pytest.approx(theirs.confidence_interval.low, abs=0.01)
    assert ours.confidence_interval.high == pytest.approx(theirs.confidence_interval.high, abs=0.01)
    assert ours.standard_error == pytest.approx(theirs.standard_error, rel=0.03)


def test_delta_accuracy_difference_is_the_paired_wald_interval():
    n_ab, n_ba, n = 30, 15, 400
    y, a, b = paired_labels(n_ab, n_ba, 300, 55)
    r = cenmcc.compare_classifiers(y, a, b, "accuracy", method="wald")
    d = (n_ab - n_ba) / n
    assert r.statistic == pytest.approx(d)
    assert r.standard_error == pytest.approx(np.sqrt(n_ab + n_ba - n * d**2) / n, rel=1e-6)


def test_mcnemar_cross_checks_the_bootstrap_and_wald_pvalues():
    """At 30 against 15 discordant items the mid-p, the chi-square (0.0253), the bootstrap and
    Wald's p-value agree, and the exact test is a little larger (conservative)."""
    n_ab, n_ba = 30, 15
    y, a, b = paired_labels(n_ab, n_ba, 300, 55)
    mcnemar = cenmcc.compare_classifiers(y, a, b, "accuracy", method="mcnemar")
    exact = cenmcc.compare_classifiers(y, a, b, "accuracy", method="mcnemar-exact")
    chi2 = stats.chi2.sf((n_ab - n_ba) ** 2 / (n_ab + n_ba), 1)
    assert mcnemar.pvalue == pytest.approx(chi2, abs=0.002)
    assert exact.pvalue == pytest.approx(stats.binomtest(n_ab, n_ab + n_ba).pvalue)
    assert mcnemar.pvalue < exact.pvalue < mcnemar.pvalue + 0.02
    boot = cenmcc.compare_classifiers(
        y, a, b, "accuracy", method="percentile", n_resamples=9999, random_state=0
    )
    delta = cenmcc.compare_classifiers(y, a, b, "accuracy", method="wald")
    assert boot.pvalue == pytest.approx(mcnemar.pvalue, abs=0.01)  # 0.025; MC error 0.003
    assert delta.pvalue == pytest.approx(mcnemar.pvalue, abs=0.005)


@pytest.mark.parametrize("name", ["mcc", "cen", "cohen_kappa", "macro_mcc", "micro_mcc"])
def test_delta_comparison_standard_error_is_the_bootstraps(name):
    y, a, b = paired_labels(200, 120, 1200, 400)
    delta = cenmcc.compare_classifiers(y, a, b, name, method="wald")
    boot = cenmcc.compare_classifiers(
        y, a, b, name, method="percentile", n_resamples=2000, random_state=0
    )
    assert delta.standard_error == pytest.approx(boot.standard_error, rel=0.08)
    assert delta.statistic == boot.statistic


@pytest.mark.parametrize("method", ["bca", "percentile", "wald", "mover"])
def test_a_classifier_against_itself_differs_by_nothing(method):
    """MOVER's interval is not the point 0 (its limits, from each measure's asymmetric Fisher's
    z interval, cancel only in part at r = 1), but it holds 0 and p = 1."""
    y, a, _ = paired_labels(30, 15, 100, 20)
    r = cenmcc.compare_classifiers(y, a, a, "mcc", method=method, n_resamples=99, random_state=0)
    assert (r.statistic, r.standard_error, r.pvalue) == (0, 0, 1)
    if method == "mover":
        assert r.confidence_interval.low < 0 < r.confidence_interval.high
    else:
        assert tuple(r.confidence_interval) == (0, 0)


def test_comparison_reproduces_and_flags_an_undefined_measure():
    y, a, b = paired_labels(30, 15, 100, 20)
    kwargs = {"method": "bca", "n_resamples": 999, "random_state": 3}
    first = cenmcc.compare_classifiers(y, a, b, "cen", **kwargs)
    assert first == cenmcc.compare_classifiers(y, a, b, "cen", **kwargs)
    constant = np.zeros_like(y)  # predicts one class: its MCC is 0/0
    r = cenmcc.compare_classifiers(
        y, a, constant, "mcc", method="bca", n_resamples=99, random_state=0
    )
    assert r.undefined
    assert np.isnan(r.statistic)
    assert np.isnan(r.confidence_interval.low)
    assert r.n_undefined >= 99


@pytest.mark.parametrize(
    ("labels", "kwargs", "match"),
    [
        (
            ([0, 1, 1], [0, 1], [1, 1, 0]),
            {},
            "y_true, y_pred_a and y_pred_b must have the same length, got 3, 2 and 3",
        ),
        (([[0, 1]], [[0, 1]], [[1, 1]]), {}, "must be 1-D"),
        (([], [], []), {}, "y_true, y_pred_a and y_pred_b are empty"),
        (([0, 1], [0, 1], [1, 1]), {"method": "mcnemar"}, "'mcnemar' is for 'accuracy'"),
        (
            ([0, 1], [0, 1], [1, 1]),
            {"method": "mcnemar-exact", "measure": cenmcc.Measure("accuracy", len, True)},
            "'mcnemar-exact' is for 'accuracy', not a user's measure named 'accuracy'",
        ),
        (
            ([0, 1], [0, 1], [1, 1]),
            {"method": "mover", "measure": "accuracy"},
            r"'mover' \(Fisher's z\) is for measures whose range is \[-1, 1\]",
        ),
        (([0, 1], [0, 1], [1, 1]), {"method": "delta"}, "'delta' is retired: it was .* paired"),
        (([0, 1], [0, 1], [1, 1]), {"method": "wilson"}, "unknown method 'wilson'"),
        (([0, 1], [0, 1], [1, 1]), {"level": 2}, r"level must be in \(0, 1\)"),
        (([0, 1], [0, 1], [1, 1]), {"n_resamples": 10}, "too few for level"),
    ],
)
def test_comparison_bad_input_is_refused(labels, kwargs, match):
    measure = kwargs.pop("measure", "mcc")
    with pytest.raises(ValueError, match=match):
        cenmcc.compare_classifiers(*labels, measure, **kwargs)


def test_delta_micro_mcc_difference_is_the_paired_wald_interval_mapped():
    y, a, b = paired_labels(30, 15, 300, 55)
    micro = cenmcc.compare_classifiers(y, a, b, "micro_mcc", method="wald")
    accuracy = cenmcc.compare_classifiers(y, a, b, "accuracy", method="wald")
    assert micro.statistic == pytest.approx(1.5 * accuracy.statistic)  # K = 3
    assert micro.standard_error == pytest.approx(1.5 * accuracy.standard_error)
    assert micro.pvalue == pytest.approx(accuracy.pvalue)


# --- labels: the one label path of confusion_matrix ------------------------------------------


@pytest.mark.parametrize(
    ("labels", "error", "match"),
    [
        (
            (["a", "b", "a"], [0, 1, 0], [0, 1, 1]),
            TypeError,
            "y_true and y_pred_a must hold labels of the same kind, got strings and numbers",
        ),
        (
            ([0, 1, 0], [0, 1, 0], ["a", "b", "b"]),
            TypeError,
            "y_true and y_pred_b must hold labels of the same kind",
        ),
        (
            ([0.0, 1.0, np.nan], [0, 1, 1], [0, 1, 0]),
            ValueError,
            "y_true has a NaN label at index 2",
        ),
        (([0, 1, 1], [0, None, 1], [0, 1, 0]), TypeError, "y_pred_a must hold labels of one kind"),
    ],
)
def test_labels_are_checked_as_confusion_matrix_checks_them(labels, error, match):
    """Issue 45 item 3: string truth against integer predictions counted nothing as correct,
    NaN labels counted as a class, None gave a raw TypeError."""
    with pytest.raises(error, match=match):
        cenmcc.compare_classifiers(*labels, "accuracy", method="wald")
    if labels[0] == [0, 1, 1]:  # the same refusal as confusion_matrix's
        with pytest.raises(error, match="y_pred must hold labels of one kind"):
            cenmcc.confusion_matrix(labels[0], labels[1])


def test_labels_above_2_53_stay_apart():
    """2**53 + 1 and 2.0**53 are two classes: b, which confuses them, is wrong on half."""
    y = np.array([2**53 + 1, 2**53] * 10)  # int64
    b = np.full(20, 2.0**53)
    r = cenmcc.compare_classifiers(y, y, b, "accuracy", method="wald")
    assert (r.statistic_a, r.statistic_b) == (1.0, 0.5)
    expected = cenmcc.accuracy(cenmcc.confusion_matrix(y, b))
    assert r.statistic_b == expected


def test_joint_cells_are_the_unique_rows_of_the_codes_in_row_major_order():
    """The joint table's cells and counts are numpy's unique rows of (true, a, b), the
    literal definition, with string labels coded by their sorted position."""
    rng = np.random.default_rng(3)
    names = np.array(["ant", "bee", "cat", "dog", "eel"])
    codes = rng.integers(0, 5, (3, 2000))
    codes[1, :1000] = codes[0, :1000]  # a right on half the items: repeated cells
    cells, counts, K = joint_cells(*names[codes])
    rows, expected = np.unique(codes.T, axis=0, return_counts=True)
    assert K == 5
    np.testing.assert_array_equal(cells, rows)
    np.testing.assert_array_equal(counts, expected)


# --- a measure that omits its undefined values; a standard error of 0; memory ---------------


@pytest.mark.parametrize("method", ["bca", "percentile"])
def test_identical_predictions_with_an_omitting_measure_differ_by_nothing(method):
    """Issue 45 item 2: resamples where the measure is undefined (NaN - NaN) are left out
    (and counted), so identical predictions give 0 and p = 1, never a rejection."""
    y = np.array([0] * 2 + [1] * 38)
    a = np.array([0, 1] + [1] * 30 + [0] * 8)
    r = cenmcc.compare_classifiers(
        y, a, a, OMITTING, method=method, n_resamples=999, random_state=0
    )
    assert (r.statistic, *r.confidence_interval, r.standard_error, r.pvalue) == (0, 0, 0, 0, 1)
    draws = np.random.default_rng(0).multinomial(40, [1 / 40, 1 / 40, 30 / 40, 8 / 40], size=999)
    assert r.n_undefined == (draws[:, 0] == 0).sum() > 0  # cell (0, 0) of both emptied


def test_omitted_resamples_of_a_comparison_are_those_of_either_classifier():
    y = np.array([0] * 3 + [1] * 37)
    a = np.array([0, 1, 1] + [1] * 30 + [0] * 7)
    b = np.array([0, 0, 1] + [1] * 33 + [0] * 4)
    r = cenmcc.compare_classifiers(y, a, b, OMITTING, method="percentile", n_resamples=1999,
                                   random_state=2)  # fmt: skip
    full = cenmcc.Measure("accuracy_00", cenmcc.accuracy, True)  # never undefined
    f = cenmcc.compare_classifiers(y, a, b, full, method="percentile", n_resamples=1999,
                                   random_state=2)  # fmt: skip
    assert 0 < r.n_undefined < 1999
    assert np.isfinite([*r.confidence_interval, r.standard_error, r.pvalue]).all()
    assert r.standard_error != f.standard_error


def test_a_wald_pvalue_of_a_zero_standard_error_is_nan_with_a_reason():
    """Issue 45 item 5: a right on three items, b wrong on them: the delta method's standard
    error is 0 and its p-value was exactly 0."""
    y, a, b = [0, 1, 2], [0, 1, 2], [1, 2, 0]
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="standard error of 0"):
        r = cenmcc.compare_classifiers(y, a, b, "accuracy", method="wald")
    assert (r.statistic, r.standard_error) == (1, 0)
    assert np.isnan(r.pvalue)


def test_the_comparison_of_many_classes_works_in_blocks():
    """Issue 45 item 16: the resamples of the K^3 joint table were drawn at once (1,999 x
    27,000 counts here, 430 MB); now in blocks of a few MB, and the same draws."""
    import tracemalloc

    rng = np.random.default_rng(0)
    y = rng.integers(0, 30, 600)
    a, b = np.where(rng.random(600) < 0.8, y, rng.integers(0, 30, 600)), rng.permutation(y)
    tracemalloc.start()
    r = cenmcc.compare_classifiers(y, a, b, "accuracy", method="percentile", n_resamples=1999,
                                   random_state=0)  # fmt: skip
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100 * 2**20
    right = (a == y).astype(int) - (b == y)
    assert r.statistic == pytest.approx(right.mean())
    assert r.standard_error == pytest.approx(right.std() / np.sqrt(600), rel=0.1)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: cenmcc.compare_classifiers(
                [0, 1] * 5, [0, 1] * 5, [1, 0] * 5, "mcc", method="bca", n_resamples=10**12
            ),
            "a bootstrap of 1,000,000,000,000 resamples of 2 classes needs about",
        ),
        (
            lambda: cenmcc.compare_classifiers(
                np.arange(10**5), np.arange(10**5), np.arange(10**5), "mcc", method="wald"
            ),
            "the comparison of 100,000 classes needs about",
        ),
        (
            lambda: cenmcc.confidence_interval(
                [[5, 1], [2, 6]], "mcc", method="bca", n_resamples=10**12
            ),
            "a bootstrap of 1,000,000,000,000 resamples needs about",
        ),
    ],
    ids=["resamples", "classes", "confidence_interval"],
)
def test_what_cannot_fit_is_refused_before_the_work(call, match):
    with pytest.raises(ValueError, match=f"{match} .* GiB of memory, more than this machine's"):
        call()


def test_mover_of_a_perfect_classifier_is_an_interval():
    """Issue 46: where a's MCC is 1 its delta variance is 0 and the correlation of the two MCCs
    is 0/0; MOVER crashed (Brent's method on a NaN end). The interval is then b's Fisher's z
    interval moved by the difference, and contains the difference."""
    T = np.array([[[69, 7], [0, 0]], [[0, 0], [2, 2]]])  # truth x a x b
    y, a, b = np.repeat(np.argwhere(T >= 0), T.ravel(), axis=0).T
    r = cenmcc.compare_classifiers(y, a, b, "mcc", method="mover")
    assert r.statistic_a == 1
    b_alone = cenmcc.confidence_interval(np.array([[69, 7], [2, 2]]), "mcc", method="fisher_z")
    low, high = b_alone.confidence_interval
    assert r.confidence_interval.low == pytest.approx(1 - high)
    assert r.confidence_interval.high == pytest.approx(1 - low)
    assert 0 <= r.pvalue < 0.05  # b's upper limit tends to 1 only as z does: never 0 here
