"""Bad input gets a clear error; undefined values get one warning per call; huge counts are fine.

The checks that apply to every metric are in tests/core/test_common.py, driven by
tests/catalogue.py."""

import warnings

import numpy as np
import pytest

import cenmcc
from cenmcc import reference


def test_weights_are_checked():
    C = [[3, 1], [1, 3]]
    with pytest.raises(ValueError, match="sum to 1"):
        cenmcc.weighted_accuracy(C, [0.5, 0.6])
    with pytest.raises(ValueError, match="non-negative"):
        cenmcc.weighted_accuracy(C, [1.5, -0.5])
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 2\)"):
        cenmcc.weighted_accuracy(C, [1.0])
    with pytest.raises(ValueError, match="finite"):
        cenmcc.balanced_accuracy_weighted(C, [np.nan, 1.0])
    with pytest.raises(ValueError, match="positive sum"):
        cenmcc.balanced_accuracy_weighted(C, [0.0, 0.0])
    assert cenmcc.weighted_accuracy(C, [0.5 + 5e-9, 0.5]) == pytest.approx(0.75)
    with pytest.raises(TypeError, match="weights must hold real numbers"):
        cenmcc.weighted_accuracy(C, None)  # only balanced_accuracy_weighted has a default


def test_arguments_are_named_in_errors():
    with pytest.raises(
        TypeError, match="mcc\\(\\) got an unexpected keyword argument 'zero_divison'"
    ):
        cenmcc.mcc([[1, 0], [0, 1]], zero_divison=1.0)
    with pytest.raises(TypeError, match="weighted_accuracy\\(\\) missing a required argument"):
        cenmcc.weighted_accuracy([[1, 0], [0, 1]])


def test_average_is_checked():
    with pytest.raises(ValueError, match="average must be one of"):
        cenmcc.f1_score([[1, 0], [0, 1]], average="samples")


def test_k_factor_needs_at_least_two_classes():
    with pytest.raises(ValueError, match=">= 2"):
        cenmcc.k_factor(1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"y_true": [0, 1], "y_pred": [0, 2], "labels": [0, 1]}, r"y_pred has labels not in"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "labels": [0, 1, 1]}, "unique"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [1.0]}, "sample_weight must"),
        ({"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [1.0, -1]}, "non-negative"),
    ],
)
def test_confusion_matrix_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cenmcc.confusion_matrix(**kwargs)


def test_confusion_matrix_keeps_the_given_label_order_and_loses_nothing():
    C = cenmcc.confusion_matrix(["b", "a", "c", "c"], ["b", "c", "c", "a"], labels=["c", "b", "a"])
    np.testing.assert_array_equal(C, [[1, 0, 1], [0, 1, 0], [1, 0, 0]])
    assert C.sum() == 4


def test_one_warning_per_call_with_a_count():
    stack = np.zeros((1000, 3, 3), dtype=int)
    stack[:, :, 0] = 5  # every sample predicted as class 0: MCC is 0/0
    stack[:400, 1, 1] = 1  # these 400 are defined
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = cenmcc.mcc(stack)
    assert len(caught) == 1
    assert issubclass(caught[0].category, cenmcc.UndefinedMetricWarning)
    assert "MCC is undefined (0/0) for 600 of 1000" in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the caller, not at cenmcc
    assert np.all(values[400:] == 0.0)


def test_zero_division_sets_the_fill_value():
    C = [[3, 0, 0], [2, 0, 0], [1, 0, 0]]
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="set to nan"):
        assert np.isnan(cenmcc.mcc(C, zero_division=np.nan))
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="precision is undefined"):
        np.testing.assert_array_equal(cenmcc.precision(C, zero_division=1.0), [0.5, 1.0, 1.0])


def test_defined_values_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cenmcc.mcc([[5, 1], [2, 7]])
        cenmcc.cen([[5, 0, 0], [0, 0, 0], [0, 0, 7]])  # an empty class has weight 0 in CEN
        cenmcc.balanced_accuracy_weighted([[5, 0, 0], [0, 0, 0], [0, 0, 7]])  # its weight is 0


def test_empty_stacks_give_empty_results():
    for metric in (cenmcc.cen, cenmcc.mcc, cenmcc.accuracy, cenmcc.tmcc):
        assert metric(np.zeros((0, 4, 4), dtype=int)).shape == (0,)
    assert cenmcc.cen_per_class(np.zeros((0, 4, 4))).shape == (0, 4)


def test_any_stack_shape():
    rng = np.random.default_rng(3)
    C = rng.integers(1, 30, size=(2, 3, 4, 5, 5))
    flat = cenmcc.cen(C.reshape(-1, 5, 5)).reshape(2, 3, 4)
    np.testing.assert_array_equal(cenmcc.cen(C), flat)
    assert cenmcc.mcc(C[0, 0, 0].tolist()) == pytest.approx(cenmcc.mcc(C[0, 0, 0]))


@pytest.mark.parametrize("scale", [10**9, 10**12])
def test_counts_up_to_1e12_are_exact_enough(scale):
    rng = np.random.default_rng(7)
    small = rng.integers(0, 10, size=(200, 6, 6))
    small[:, 0, 0] += 1
    big = small * scale  # s^2 would overflow int64 beyond about 3e9
    assert big.max() >= scale
    for fn in (cenmcc.mcc, cenmcc.cohen_kappa, cenmcc.cen, cenmcc.tmcc, cenmcc.accuracy):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
            np.testing.assert_allclose(fn(big), fn(small), rtol=0, atol=1e-12)
    slow = [reference.cen(C) for C in big[:20]]
    np.testing.assert_allclose(cenmcc.cen(big[:20]), slow, atol=1e-12)
    # A near-perfect classifier with 1e12 samples per class and a handful of errors:
    C = np.diag([scale] * 3) + np.array([[0, 1, 0], [0, 0, 2], [3, 0, 0]])
    # CEN is tiny (about 3e-8 at 1e9, 4e-11 at 1e12) yet keeps its relative precision: the
    # one-log-per-cell identity does not cancel catastrophically (checked to 1 ulp against a
    # 50-digit evaluation when this test was written).
    assert cenmcc.cen(C) == pytest.approx(reference.cen(C), rel=1e-12)
    assert 0 < cenmcc.cen(C) < 1e-7
    assert cenmcc.tmcc(C) > 0


#: Float counts at and beyond int64: each matrix is the small one below times a power of two.
SMALL = np.array([[8.0, 2.0], [1.0, 4.0]])
HUGE = [SMALL * 2.0**60, SMALL * 2.0**61, SMALL * 2.0**1000]


@pytest.mark.parametrize("C", HUGE, ids=["2^63", "2^64", "2^1003"])
def test_float_counts_beyond_int64_are_accepted_by_the_metrics(C):
    # Any finite non-negative float counts are accepted (cenmcc's docstring); every measure of
    # whole matrices is invariant to scaling by a power of two, which is exact.
    assert cenmcc.mcc(C) == cenmcc.mcc(SMALL)
    every = cenmcc.measures(C, list(cenmcc.MEASURES))
    assert every == cenmcc.measures(SMALL, list(cenmcc.MEASURES))


@pytest.mark.parametrize("C", HUGE, ids=["2^63", "2^64", "2^1003"])
@pytest.mark.parametrize("method", ["bca", "percentile", "wald", "fisher_z", "wilson"])
def test_float_counts_beyond_int64_are_refused_by_intervals_for_what_they_are(C, method):
    # An interval draws items, counted as int64: float counts are held to the limit of integer
    # counts, (2**63 - 1) // K**2 a cell, and the message says so (it said "at least 2 items"
    # or "non-negative, found -9223372036854775808" after an overflowing conversion).
    too_large = rf"holds a count of {int(C.max())}, too large to sum 2x2 cells exactly in int64"
    with pytest.raises(ValueError, match=too_large + ": resampling draws items"):
        cenmcc.confidence_interval(C, "accuracy", method=method, n_resamples=99)


def test_float_counts_of_items_up_to_the_integer_limit_are_resampled_as_integers():
    limit = (2**63 - 1) // 4  # a 2x2 cell, as for integer counts
    largest = np.nextafter(float(limit), 0)  # the largest float at most the limit
    C = np.array([[largest, 3.0], [1.0, 2.0]])
    as_int = np.array([[int(largest), 3], [1, 2]])
    r = cenmcc.confidence_interval(C, "accuracy", method="percentile", random_state=0)
    assert r == cenmcc.confidence_interval(as_int, "accuracy", method="percentile", random_state=0)
    with pytest.raises(ValueError, match=f"holds a count of {limit + 1}, too large"):
        cenmcc.confidence_interval(np.array([[float(limit), 0], [0, 1]]), "accuracy")


def _exact_mcc_and_kappa(C) -> tuple[float, float]:
    """MCC and kappa from Python integers: exact up to the final rounding."""
    from fractions import Fraction

    C = [[int(x) for x in row] for row in C]
    K = len(C)
    s = sum(map(sum, C))
    c = sum(C[k][k] for k in range(K))
    t = [sum(row) for row in C]
    p = [sum(C[i][k] for i in range(K)) for k in range(K)]
    num = c * s - sum(tk * pk for tk, pk in zip(t, p, strict=True))
    den = (s * s - sum(x * x for x in p)) * (s * s - sum(x * x for x in t))
    mcc = 0.0 if den == 0 else np.sign(num) * float(Fraction(num * num, den)) ** 0.5
    kappa = float(Fraction(num, s * s - sum(tk * pk for tk, pk in zip(t, p, strict=True))))
    return mcc, kappa


@pytest.mark.parametrize("A", [10**6, 10**9, 10**12])
def test_mcc_keeps_its_precision_when_one_class_dominates(A):
    # Z_A (Jurman et al. 2012): all ones but A in the lower-left corner. s^2 - sum p^2 is a tiny
    # difference of huge numbers there; computed as sum p (s - p) it keeps every digit.
    rng = np.random.default_rng(A % 97)
    stacks = [cenmcc.families.z_a(N, A) for N in range(3, 8)]
    for _ in range(20):
        C = rng.integers(0, 5, size=(4, 4))
        C[rng.integers(4), rng.integers(4)] += A
        C[0, 0] += 1
        stacks.append(C)
    for C in stacks:
        mcc, kappa = _exact_mcc_and_kappa(C)
        assert cenmcc.mcc(C) == pytest.approx(mcc, rel=1e-12, abs=1e-300)
        assert cenmcc.cohen_kappa(C) == pytest.approx(kappa, rel=1e-12, abs=1e-300)


def test_a_counts_object_is_validated_once_and_shared(zoo):
    C = zoo[4]
    m = cenmcc.Counts(C)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        for fn in (cenmcc.cen, cenmcc.mcc, cenmcc.accuracy, cenmcc.tmcc, cenmcc.cohen_kappa):
            np.testing.assert_array_equal(fn(m), fn(C))
        np.testing.assert_array_equal(cenmcc.f1_score(m, "macro"), cenmcc.f1_score(C, "macro"))
    assert cenmcc._metric.as_counts(m) is m
    empty = cenmcc.Counts(np.zeros((2, 3, 3)))  # checked when a metric first needs the totals
    with pytest.raises(ValueError, match=r"no samples .* at stack index \(0,\)"):
        cenmcc.accuracy(empty)


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Cut every stack into blocks of a few matrices, as a huge stack would be."""
    monkeypatch.setattr(cenmcc._marginals, "BLOCK_CELLS", 40)


def test_blocked_evaluation_is_exact_and_keeps_one_warning(zoo, tiny_blocks):
    C = zoo[3][:300].reshape(3, 100, 3, 3)  # many blocks, and a 2-D stack shape
    reference = {
        name: [fn(c) for c in C.reshape(-1, 3, 3)]
        for name, fn in {"cen": cenmcc.cen, "acc": cenmcc.accuracy}.items()
    }
    np.testing.assert_array_equal(cenmcc.cen(C).ravel(), reference["cen"])
    np.testing.assert_array_equal(cenmcc.accuracy(C).ravel(), reference["acc"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per_class = cenmcc.precision(C)
    expected = int((C.sum(axis=-2) == 0).sum())  # classes never predicted
    assert per_class.shape == (3, 100, 3)
    assert len(caught) == 1
    assert f"for {expected} of {C.size // 3}" in str(caught[0].message)
    w = np.random.default_rng(0).dirichlet(np.ones(3), size=(3, 100))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        blocked = cenmcc.weighted_accuracy(C, w)
        one_by_one = [
            cenmcc.weighted_accuracy(c, wi)
            for c, wi in zip(C.reshape(-1, 3, 3), w.reshape(-1, 3), strict=True)
        ]
    np.testing.assert_allclose(blocked.ravel(), one_by_one, rtol=0, atol=1e-15)


def test_an_empty_matrix_deep_in_a_blocked_stack_is_named_by_its_index(tiny_blocks):
    C = np.ones((4, 50, 3, 3), dtype=int)
    C[2, 37] = 0
    with pytest.raises(ValueError, match=r"at stack index \(2, 37\)"):
        cenmcc.mcc(C)


def test_counts_of_counts_share_the_validated_array():
    C = np.array([[5, 1, 0], [2, 6, 1], [0, 1, 7]])
    m = cenmcc.Counts(C)
    again = cenmcc.Counts(m, name="D")
    assert again.C is m.C
    assert again.name == "D"
    assert again.max_count == 7
    assert cenmcc.mcc(again) == cenmcc.mcc(C)
    block = next(cenmcc.Counts(C * 1e-320).blocks())  # scaled inside; Counts sees the counts
    np.testing.assert_array_equal(cenmcc.Counts(block).C, [C * 1e-320])


def test_counts_own_what_they_validated():
    """Changing the caller's array after building a Counts changes nothing (issue 13)."""
    C = np.array([[5, 1, 0], [2, 6, 1], [0, 1, 7]])
    m = cenmcc.Counts(C)
    before = (cenmcc.cen(m), cenmcc.mcc(m))
    C[0, 0] = -100
    assert (cenmcc.cen(m), cenmcc.mcc(m)) == before
    with pytest.raises(ValueError, match="read-only"):
        m.C[0, 0] = 3


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: cenmcc.k_factor(np.nan), ValueError, "finite number of classes >= 2, got .*nan"),
        (lambda: cenmcc.k_factor([3, 1.5]), ValueError, ">= 2, got .*1.5"),
        (lambda: cenmcc.k_factor(3 + 5j), TypeError, "real number of classes"),
        (lambda: cenmcc.k_factor(True), TypeError, "real number of classes"),
        (lambda: cenmcc.k_factor(3, a=np.nan), ValueError, "a must be finite"),
        (lambda: cenmcc.tie_groups([1.0, 2.0], rtol=np.nan), ValueError, "rtol must be finite"),
        (lambda: cenmcc.tie_groups([1.0, 2.0], atol="0"), TypeError, "atol must be a real"),
        (lambda: cenmcc.pair_counts([1, 2], [2, 1], rtol=-1), ValueError, "non-negative"),
        (
            lambda: cenmcc.weak_compositions(np.uint64(2**64 - 1), 1),
            ValueError,
            "18446744073709551615, too large",
        ),
        (lambda: cenmcc.weighted_accuracy([[1, 2], [3, 4]], ["a", "b"]), TypeError, "real"),
        (lambda: cenmcc.k_factor(np.ma.array([3, 4], mask=[0, 1])), TypeError, "K is a masked"),
        (lambda: cenmcc.k_factor(np.array([3], "m8[s]")), TypeError, "real number of classes"),
        (lambda: cenmcc.tie_groups([1.0], atol=np.timedelta64(1)), TypeError, "atol must be a"),
        (lambda: cenmcc.weak_compositions(2, True), TypeError, "parts must be an integer"),
        (lambda: cenmcc.weak_compositions(np.ma.array([2]), 2), TypeError, "totals is a masked"),
        (lambda: reference.cen(np.ma.array([[1, 2], [3, 4]])), TypeError, "C is a masked"),
        (
            lambda: cenmcc.confusion_matrix([1, 2], [2, 1], sample_weight=["a", "b"]),
            TypeError,
            "sample_weight must hold real numbers",
        ),
        (lambda: cenmcc.confusion_matrix([1, 2], [2, 1], labels=[1, None]), TypeError, "labels"),
    ],
)
def test_every_parameter_is_checked(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_k_factor_takes_real_k_for_a_curve():
    assert cenmcc.k_factor(3.0) == cenmcc.k_factor(3)
    assert cenmcc.k_factor(3) > cenmcc.k_factor(3.5) > cenmcc.k_factor(4)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cenmcc.precision([[1, 0], [1, 0]]),
        lambda: cenmcc.f1_score([[1, 0], [0, 0]], average="macro"),
        lambda: cenmcc.mcc([[1, 0], [1, 0]]),
        lambda: cenmcc.tmcc(cenmcc.Counts([[1, 0], [1, 0]])),
        lambda: cenmcc.degree_of_consistency([1, 1], [2, 2]),
        lambda: cenmcc.degree_of_discriminancy([1, 2], [2, 1]),
    ],
)
def test_warnings_point_at_the_caller(call):
    with pytest.warns(cenmcc.UndefinedMetricWarning) as record:
        call()
    assert record[0].filename == __file__
