"""Generic tests of every catalogued metric (tests/catalogue.py): bad input, no mutation, masked
arrays, dtypes, invariances, ranges and the undefined-value rule."""

import warnings

import catalogue
import exact
import numpy as np
import pytest
from catalogue import (
    COUNTS,
    INTEGER_COUNTS,
    LABELS,
    ONE_MEASURE,
    PROBABILITIES,
    SCORES,
    TWO_MEASURES,
    having,
    ids,
    quiet,
    sample,
)

import cenmcc


def test_every_public_name_is_catalogued_or_excluded():
    catalogued = {m.public for m in catalogue.CATALOGUE}
    public = set(cenmcc.__all__)
    assert catalogued <= public, f"catalogued but not public: {catalogued - public}"
    assert public >= catalogue.EXCLUDED, f"excluded but not public: {catalogue.EXCLUDED - public}"
    assert not catalogued & catalogue.EXCLUDED
    missing = public - catalogued - catalogue.EXCLUDED
    assert not missing, f"add {sorted(missing)} to tests/catalogue.py (or to EXCLUDED, with why)"
    assert len(set(ids(catalogue.CATALOGUE))) == len(catalogue.CATALOGUE)


# --- bad input -----------------------------------------------------------------------------------

_NAN = [[1.0, np.nan], [0, 2]]
BAD_COUNTS = [
    ([1, 2, 3], ValueError, "at least 2 dimensions"),
    (np.ones((2, 3), dtype=int), ValueError, "square"),
    (np.ones((1, 1), dtype=int), ValueError, "K >= 2"),
    ([[1, -1], [0, 2]], ValueError, r"non-negative, found -1 at index \(0, 1\)"),
    ([[0, 0], [0, 0]], ValueError, "no samples"),
    ([[[1, 0], [0, 1]], [[0, 0], [0, 0]]], ValueError, r"no samples .* at stack index \(1,\)"),
    ([[5, 1], [2]], ValueError, "C is ragged"),
]
BAD_FLOAT_COUNTS = [
    (_NAN, ValueError, "finite, found nan"),
    ([[1.0, np.inf], [0, 2]], ValueError, "finite, found inf"),
    (np.array([[2**62, 0], [0, 1]]), ValueError, "too large"),
]
_Y, _S = catalogue.SAMPLES[SCORES]
BAD_SCORES = [
    ((_Y[:, None], _S), ValueError, "y_true must be 1-D"),
    (([], np.zeros((0, 3))), ValueError, "empty"),
    ((_Y, _S[:, 0]), ValueError, r"2-D \(n_samples, K\)"),
    ((_Y[:-1], _S), ValueError, "one row per sample"),
    ((_Y, _S[:, :1]), ValueError, "K >= 2 columns"),
    ((_Y, np.where(_S == 0.1, np.nan, _S)), ValueError, "finite, found nan"),
    ((_Y, _S.astype(str)), TypeError, "real numbers"),
    ((np.minimum(_Y, 1), _S), ValueError, "2 distinct labels but .* 3 columns"),
    ((_Y, [*_S[:-1].tolist(), [0.5, 0.5]]), ValueError, "is ragged"),
    (([None, *_Y[1:]], _S), TypeError, "NoneType"),
    ((["a", *_Y[1:]], _S), TypeError, r"\['int64', 'str'\]"),
    (([np.nan, *_Y[1:]], _S), ValueError, "NaN label at index 0"),
]
BAD_PROBABILITIES = [
    ((_Y, _S - 0.2), ValueError, "non-negative"),
    ((_Y, _S * 1.1), ValueError, "must sum to 1"),
]
_F, _G = catalogue.SAMPLES[TWO_MEASURES]
BAD_MEASURES = [
    ((_F[None], _G[None]), ValueError, "must be 1-D"),
    ((np.where(_F == 0.4, np.nan, _F), _G), ValueError, "finite, found nan at index 1"),
    ((_F.astype(str), _G), TypeError, "real numbers"),
    (([[1, 2], [3]], _G), ValueError, "is ragged"),
]
BAD_LABELS = [
    (([0, 1], [0]), ValueError, "same length"),
    (([], []), ValueError, "empty"),
    (([[0, 1]], [[0, 1]]), ValueError, "1-D"),
    (([0, 0], [0, 0]), ValueError, "at least 2 classes"),
    (([None, 1], [1, 1]), TypeError, "NoneType"),
    ((["a", 1], [1, 1]), TypeError, r"\['int', 'str'\]"),
    ((["a", "b"], [1, 1]), TypeError, "same kind"),
    ((np.array(["a", "b"], dtype=object), np.array([1, 2], dtype=object)), TypeError, "same kind"),
    (([0.0, np.nan], [0.0, 1.0]), ValueError, "NaN label at index 1"),
    ((np.array([1 + 1j, 2]), [1, 2]), TypeError, "dtype complex128"),
]


def _bad_cases():
    for metric in having(COUNTS):
        for C, error, match in BAD_COUNTS + BAD_FLOAT_COUNTS:
            yield metric, (C,), error, match
    for metric in having(INTEGER_COUNTS):
        for C, error, match in BAD_COUNTS:
            yield metric, (C,), error, match
        yield metric, (_NAN,), TypeError, "float counts"
    for metric in having(SCORES, PROBABILITIES):
        for inputs, error, match in BAD_SCORES:
            yield metric, inputs, error, match
    for metric in having(PROBABILITIES):
        for inputs, error, match in BAD_PROBABILITIES:
            yield metric, inputs, error, match
    for metric in having(TWO_MEASURES):
        yield metric, (_F, _G[:-1]), ValueError, "same length"
        for inputs, error, match in BAD_MEASURES:
            yield metric, inputs, error, match
    for metric in having(ONE_MEASURE):
        for inputs, error, match in BAD_MEASURES:
            yield metric, inputs[:1], error, match
    for metric in having(LABELS):
        for inputs, error, match in BAD_LABELS:
            yield metric, inputs, error, match


BAD_CASES = list(_bad_cases())


@pytest.mark.parametrize(
    ("metric", "inputs", "error", "match"),
    BAD_CASES,
    ids=[f"{m.id}-{i}" for i, (m, *_) in enumerate(BAD_CASES)],
)
def test_bad_input_raises_a_clear_error(metric, inputs, error, match):
    with pytest.raises(error, match=match):
        metric.call(*inputs)


# --- the caller's arrays -------------------------------------------------------------------------


@pytest.mark.parametrize("metric", catalogue.CATALOGUE, ids=ids(catalogue.CATALOGUE))
def test_the_callers_arrays_are_never_changed(metric):
    inputs = sample(metric.takes)
    before = [(x.copy(), x.flags.writeable) for x in inputs]
    quiet(metric, *inputs)
    for x, (copy, writeable) in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(x, copy, strict=True)
        assert x.flags.writeable == writeable


@pytest.mark.parametrize("metric", catalogue.CATALOGUE, ids=ids(catalogue.CATALOGUE))
def test_masked_arrays_are_refused(metric):
    inputs = sample(metric.takes)
    for position in range(len(inputs)):
        masked = list(inputs)
        masked[position] = np.ma.array(inputs[position])
        masked[position][(0,) * masked[position].ndim] = np.ma.masked
        with pytest.raises(TypeError, match="masked array"):
            metric.call(*masked)


# --- dtypes --------------------------------------------------------------------------------------

ACCEPTED = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
ACCEPTED_FLOATS = [np.float16, np.float32, np.float64]
REFUSED = [np.bool_, np.complex128, object, "U3", "m8[s]", "M8[s]", np.longdouble]

#: Integral sample inputs, so that every accepted dtype holds them exactly.
INTEGRAL = {
    COUNTS: catalogue.SAMPLES[COUNTS],
    INTEGER_COUNTS: catalogue.SAMPLES[INTEGER_COUNTS],
    SCORES: (_Y, np.round(_S * 20)),
    TWO_MEASURES: (np.round(_F * 10), _G),
    ONE_MEASURE: (np.round(_F * 10),),
}
NUMERIC = [m for m in catalogue.CATALOGUE if m.takes in INTEGRAL]


def _with_dtype(metric, dtype) -> list[tuple]:
    """The integral inputs of ``metric`` with each numeric input in turn cast to ``dtype``."""
    inputs = INTEGRAL[metric.takes]
    cast = []
    for position in catalogue.NUMERIC_INPUTS[metric.takes]:
        changed = list(inputs)
        changed[position] = inputs[position].astype(dtype)
        cast.append(tuple(changed))
    return cast


def _same(a, b) -> None:
    """Equal results, within 2e-15 (relative above 1) for float values."""
    if isinstance(a, tuple):  # NamedTuple results
        for x, y in zip(a, b, strict=True):
            _same(x, y)
        return
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "f":
        np.testing.assert_allclose(a, b, rtol=2e-15, atol=2e-15)
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ACCEPTED + ACCEPTED_FLOATS)
@pytest.mark.parametrize("metric", NUMERIC, ids=ids(NUMERIC))
def test_integer_and_float_dtypes_give_the_same_values(metric, dtype):
    expected = quiet(metric, *INTEGRAL[metric.takes])
    for inputs in _with_dtype(metric, dtype):
        if metric.takes == INTEGER_COUNTS and np.dtype(dtype).kind == "f":
            with pytest.raises(TypeError, match="float counts"):
                metric.call(*inputs)
        else:
            _same(quiet(metric, *inputs), expected)


@pytest.mark.parametrize("dtype", REFUSED)
@pytest.mark.parametrize("metric", NUMERIC, ids=ids(NUMERIC))
def test_non_real_dtypes_are_refused(metric, dtype):
    for inputs in _with_dtype(metric, dtype):
        with pytest.raises(TypeError, match=r"float counts|real numbers"):
            metric.call(*inputs)


LABELLED = having(LABELS, SCORES, PROBABILITIES)


@pytest.mark.parametrize("dtype", [*ACCEPTED, np.float32, np.float64, "U3", object])
@pytest.mark.parametrize("metric", LABELLED, ids=ids(LABELLED))
def test_labels_of_any_dtype_give_the_same_values(metric, dtype):
    inputs = sample(metric.takes)
    expected = quiet(metric, *inputs)
    n_labels = 2 if metric.takes == LABELS else 1
    cast = tuple(x.astype(dtype) for x in inputs[:n_labels]) + inputs[n_labels:]
    if np.dtype(dtype).kind in "iuf":
        _same(quiet(metric, *cast), expected)
    elif isinstance(expected, tuple):  # OneVsRestCurves: its labels are now of that dtype
        result = quiet(metric, *cast)
        assert list(map(str, result.labels.tolist())) == list(map(str, expected.labels.tolist()))
        _same(result[1:], expected[1:])
    else:  # strings: the same classes in the same order
        _same(quiet(metric, *cast), expected)


# --- properties of the count metrics -------------------------------------------------------------

COUNT_METRICS = having(COUNTS)


@pytest.fixture(scope="module")
def stack():
    """Random and degenerate integer matrices for K = 2..5 (conftest's zoo, smaller)."""
    from conftest import matrix_zoo

    rng = np.random.default_rng(1008)
    return {K: matrix_zoo(rng, 150, K) for K in range(2, 6)}


def _close(a, b) -> None:
    """Both values within 1e-15 of one exact value: within 2e-15 (relative above 1)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    np.testing.assert_array_equal(np.isinf(a), np.isinf(b))
    finite = np.isfinite(a)
    scale = np.maximum(1.0, np.abs(b[finite]))
    assert np.all(np.abs(a[finite] - b[finite]) <= 2e-15 * scale)


INVARIANT = having(COUNTS, invariant=True)


@pytest.mark.parametrize("metric", INVARIANT, ids=ids(INVARIANT))
def test_invariant_under_scaling_and_relabelling(metric, stack):
    rng = np.random.default_rng(5)
    for K, C in stack.items():
        values = quiet(metric, C)
        for factor in (7, 0.37, 2.0**-1074, 2.0**-40, 2.0**990):
            _close(quiet(metric, C * factor), values)
        perm = rng.permutation(K)
        relabelled = quiet(metric, C[:, perm][:, :, perm])
        _close(relabelled, values[..., perm] if metric.per_class else values)


@pytest.mark.parametrize("metric", INVARIANT, ids=ids(INVARIANT))
def test_scaling_float_counts_by_a_power_of_two_changes_no_bit(metric, stack):
    for C in stack.values():  # cells below 2**25: exact at every scale below
        F = C.astype(np.float64)
        values = quiet(metric, F)
        for exponent in (-1074, -1050, -600, 600, 990):
            np.testing.assert_array_equal(quiet(metric, F * 2.0**exponent), values)


#: Metrics computed from ratios of exact integers of the counts, each rounded once (issue 45
#: item 7): an integer multiple of the counts gives the same bits, so a simulation's ties between
#: scaled matrices are ties of their floats.
SCALE_EXACT = [m for m in COUNT_METRICS if m.id in ("informedness", "markedness", "macro_mcc")]


@pytest.mark.parametrize("metric", SCALE_EXACT, ids=ids(SCALE_EXACT))
def test_integer_multiples_of_the_counts_give_the_same_bits(metric):
    rng = np.random.default_rng(45)
    for K in (2, 3, 4, 6):
        C = rng.integers(0, 30, size=(3000, K, K))
        C[: 300 * K : K, 1:] = 0  # some with one true class (0/0), or classes never true
        C[:, 0, 0] += 1
        values = quiet(metric, C)
        alone = [quiet(metric, C[i]) for i in range(0, 3000, 7)]
        np.testing.assert_array_equal(alone, values[::7])  # the same bits in any stack
        for k in range(2, 8):
            np.testing.assert_array_equal(quiet(metric, k * C), values)
        np.testing.assert_array_equal(quiet(metric, 3.0 * C), values)  # float counts
        # Totals past the float64-exact terms (about 2**26.5) and past the int64 path (2**31).
        for k in (10**6 + 3, 10**8 + 7):
            np.testing.assert_array_equal(quiet(metric, k * C[:100]), values[:100])


def test_the_macro_mcc_of_a_perfect_classification_is_1():
    rng = np.random.default_rng(46)
    assert cenmcc.macro_mcc([[671, 0], [0, 3]]) == 1.0  # issue 45 item 7
    for K in (2, 3, 5, 8):
        C = np.zeros((500, K, K), dtype=np.int64)
        np.einsum("nii->ni", C)[...] = rng.integers(1, 10**6, size=(500, K))
        np.testing.assert_array_equal(cenmcc.macro_mcc(C), 1.0)


@pytest.mark.parametrize("name", ["informedness", "markedness"])
def test_a_sum_of_one_vs_rest_terms_is_0_exactly_where_its_exact_value_is(name):
    """Terms that cancel exactly sum to 0, not to a few units of roundoff, so that a relative
    tie tolerance merges the matrices whose value is 0 (issue 45 item 7)."""
    M = cenmcc.matrices_with_total(range(1, 7), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        values = getattr(cenmcc, name)(M)
    oracle = getattr(exact, name)
    zero = np.array([oracle(exact.fractions_of(c.tolist())) == 0 for c in M])
    assert zero.sum() > 100
    assert np.all(values[zero] == 0.0)
    assert np.all(values[~zero] != 0.0)


SYMMETRIC = having(COUNTS, symmetric=True)


@pytest.mark.parametrize("metric", SYMMETRIC, ids=ids(SYMMETRIC))
def test_symmetric_metrics_ignore_which_axis_is_the_truth(metric, stack):
    for C in stack.values():
        _close(quiet(metric, np.swapaxes(C, -1, -2)), quiet(metric, C))


def test_symmetry_is_catalogued_where_it_holds(stack):
    """A metric not marked symmetric changes for some matrix when transposed."""
    for metric in having(COUNTS, symmetric=False):
        C = stack[3]
        transposed = quiet(metric, np.swapaxes(C, -1, -2))
        assert np.any(np.abs(transposed - quiet(metric, C)) > 1e-12), metric.id


@pytest.mark.parametrize("metric", COUNT_METRICS, ids=ids(COUNT_METRICS))
def test_shape_range_best_value_and_direction(metric, stack):
    for K, C in stack.items():
        values = quiet(metric, C.reshape(2, -1, K, K))
        assert values.shape == (2, C.shape[0] // 2) + ((K,) if metric.per_class else ())
        low, high = metric.bounds
        assert np.all((values >= low - 1e-15) & (values <= high + 1e-15)), metric.id
        if metric.best is None:
            continue
        perfect = np.diag(np.arange(1, K + 1))
        wrong = np.roll(perfect, 1, axis=1)  # every sample in the next class
        best, worse = quiet(metric, perfect), quiet(metric, wrong)
        assert np.all(best == metric.best)
        assert np.all(best > worse) if metric.greater_is_better else np.all(best < worse)


#: Matrices in which every kind of 0/0 occurs: one class only (perfect), one predicted class,
#: one true class, an empty class.
UNDEFINED = np.array(
    [
        [[5, 0, 0], [0, 0, 0], [0, 0, 0]],
        [[3, 0, 0], [2, 0, 0], [1, 0, 0]],
        [[3, 2, 1], [0, 0, 0], [0, 0, 0]],
        [[3, 0, 1], [0, 0, 0], [2, 0, 4]],
        [[3, 1, 1], [1, 3, 1], [1, 1, 3]],
    ]
)


@pytest.mark.parametrize("metric", COUNT_METRICS, ids=ids(COUNT_METRICS))
def test_undefined_values_get_one_warning_and_the_fill_value(metric):
    runs = []
    for fill in (0.0, 0.25):
        kwargs = {"zero_division": fill} if metric.zero_division else {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            runs.append(metric.call(UNDEFINED, **kwargs))
        assert len(caught) <= 1
        assert all(issubclass(w.category, cenmcc.UndefinedMetricWarning) for w in caught)
    if metric.zero_division:
        # The fill value changes exactly the values that a warning counted.
        changed = runs[0] != runs[1]
        if caught:
            assert np.any(changed), metric.id
        else:
            assert not np.any(changed), metric.id
    assert np.all(np.isfinite(runs[0]))
