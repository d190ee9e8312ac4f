"""MEASURES, measures() and from_labels(): named measures, several at once, and label input."""

import functools
import inspect
import math
import pickle
import warnings

import numpy as np
import pytest

import cenmcc
from cenmcc import correlation
from cenmcc._metric import count_metric

REQUIRED = ["cen", "mcc", "cohen_kappa", "accuracy", "balanced_accuracy", "tmcc", "f1_macro"]


@pytest.fixture
def stack(zoo):
    """Integer matrices with every kind of 0/0, a 2-D stack shape, and a float copy."""
    C = zoo[4][:400].reshape(2, 200, 4, 4)
    return {"int": C, "float": C * 0.37}


@pytest.fixture
def tiny_blocks(monkeypatch):
    """Cut every stack into blocks of a few matrices."""
    monkeypatch.setattr(cenmcc._marginals, "BLOCK_CELLS", 40)


def _recorded(call):
    """``call()`` and the UndefinedMetricWarnings it emits."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    assert all(issubclass(w.category, cenmcc.UndefinedMetricWarning) for w in caught)
    return value, caught


def test_the_names_are_stable_and_the_mapping_read_only():
    assert set(REQUIRED) <= set(cenmcc.MEASURES)
    assert "f1_micro" in cenmcc.MEASURES
    assert "expected_accuracy" not in cenmcc.MEASURES  # not a performance measure
    assert all(name == m.name for name, m in cenmcc.MEASURES.items())
    with pytest.raises(TypeError):
        cenmcc.MEASURES["mcc"] = cenmcc.MEASURES["cen"]
    with pytest.raises(AttributeError):
        cenmcc.MEASURES["mcc"].name = "other"  # frozen


@pytest.mark.parametrize("name", list(cenmcc.MEASURES))
def test_each_measure_has_its_range_best_value_and_direction(name, zoo):
    m = cenmcc.MEASURES[name]
    low, high = m.bounds
    for K, C in zoo.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
            values = m.function(C)
        assert np.all((values >= low - 1e-15) & (values <= high + 1e-15))
        perfect = np.diag(np.arange(1, K + 1))
        wrong = np.roll(perfect, 1, axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
            best, worse = m.function(perfect), m.function(wrong)
        assert best == m.best
        assert best > worse if m.greater_is_better else best < worse
    assert isinstance(m.label, str)
    assert m.label


@pytest.mark.parametrize("kind", ["int", "float"])
def test_values_are_the_functions_bit_for_bit(stack, kind, tiny_blocks):
    C = stack[kind]
    together, caught = _recorded(lambda: cenmcc.measures(C))
    assert list(together) == list(cenmcc.MEASURES)
    expected_warnings = []
    for name, measure in cenmcc.MEASURES.items():
        alone, alone_caught = _recorded(lambda measure=measure: measure.function(C))
        np.testing.assert_array_equal(together[name], alone, strict=True)
        expected_warnings += [str(w.message) for w in alone_caught]
    # One warning per measure with 0/0 values, the same as its function's.
    assert [str(w.message) for w in caught] == expected_warnings
    assert len(caught) >= 5


@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("name", list(cenmcc.MEASURES))
def test_a_measure_called_on_counts_is_its_function(stack, kind, name):
    # MEASURES["f1_macro"](C) raised "'Measure' object is not callable" (issue 45, item 26).
    measure = cenmcc.MEASURES[name]
    C = stack[kind]
    alone, caught = _recorded(lambda: measure.function(C))
    called, called_caught = _recorded(lambda: measure(C))
    np.testing.assert_array_equal(called, alone, strict=True)
    assert called.shape == C.shape[:-2]
    assert [str(w.message) for w in called_caught] == [str(w.message) for w in caught]
    one = [[5, 1, 0], [2, 6, 1], [0, 1, 7]]
    assert measure(one) == measure.function(one)
    assert np.ndim(measure(one)) == 0
    of_counts, _ = _recorded(lambda: measure(cenmcc.Counts(C[0])))
    np.testing.assert_array_equal(of_counts, alone[0], strict=True)
    with pytest.raises(ValueError, match="must be non-negative"):
        measure(-C)


def test_a_user_measure_called_on_counts_fills_and_warns_as_measures_does(stack):
    def precision_0(C):
        return C[..., 0, 0] / C[..., :, 0].sum(axis=-1)

    C = stack["int"]
    for undefined in (0.0, "omit"):
        mine = cenmcc.Measure("p0", precision_0, True, bounds=(0.0, 1.0), undefined=undefined)
        called, caught = _recorded(lambda mine=mine: mine(C))
        expected, expected_caught = _recorded(lambda mine=mine: cenmcc.measures(C, [mine]))
        np.testing.assert_array_equal(called, expected["p0"], strict=True)
        assert len(caught) == 1
        assert str(caught[0].message) == str(expected_caught[0].message)
    with np.errstate(invalid="ignore"), pytest.raises(ValueError, match="must be finite"):
        cenmcc.Measure("p0", precision_0, True)(C)


@pytest.mark.parametrize("kind", ["int", "float"])
def test_undefined_counts_are_the_warnings_counts(stack, kind):
    C = stack[kind]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # count_undefined warns about nothing
        values, undefined = cenmcc.measures(C, count_undefined=True)
    for name, measure in cenmcc.MEASURES.items():
        alone, caught = _recorded(lambda measure=measure: measure.function(C))
        np.testing.assert_array_equal(values[name], alone)
        assert undefined[name] == sum(w.message.count for w in caught)
        assert str(undefined[name]) in "".join(str(w.message) for w in caught) or not caught
    assert undefined["mcc"] > 0
    assert undefined["accuracy"] == 0


def test_a_single_matrix_gives_scalars_and_names_keep_their_order():
    C = [[5, 1, 0], [2, 6, 1], [0, 1, 7]]
    values = cenmcc.measures(C, ["mcc", "cen"])
    assert list(values) == ["mcc", "cen"]
    assert values["mcc"] == cenmcc.mcc(C)
    assert np.ndim(values["cen"]) == 0
    assert cenmcc.measures(C, "accuracy") == {"accuracy": cenmcc.accuracy(C)}
    assert cenmcc.measures(cenmcc.Counts(C), []) == {}


@pytest.mark.parametrize(
    ("names", "error", "match"),
    [
        (["mcc", "f1"], ValueError, r"unknown measure 'f1'; the known names are \['cen', 'mcc'"),
        ("MCC", ValueError, "unknown measure 'MCC'"),
        (["mcc", "mcc"], ValueError, "'mcc' is asked for twice"),
        ([cenmcc.mcc], TypeError, "names must hold measure names or Measure objects"),
        ([3], TypeError, "got 3"),
    ],
)
def test_unknown_names_are_refused(names, error, match):
    with pytest.raises(error, match=match):
        cenmcc.measures([[1, 2], [3, 4]], names)


def test_the_counts_are_checked_once_for_all_measures():
    with pytest.raises(ValueError, match="non-negative"):
        cenmcc.measures([[1, -2], [3, 4]], ["mcc", "cen"])


def test_every_measure_sees_the_same_blocks(stack, tiny_blocks):
    seen = {"a": [], "b": []}

    def spy(key):
        @count_metric()
        def compute(block):
            seen[key].append(block)
            return block.correct / block.total, None

        return cenmcc.Measure(key, compute, True, key, 1.0, (0.0, 1.0))

    values = cenmcc.measures(stack["int"], [spy("a"), "cen", spy("b")])
    assert len(seen["a"]) > 10
    assert all(a is b for a, b in zip(seen["a"], seen["b"], strict=True))
    assert "true" in seen["a"][0].__dict__  # a marginal that CEN cached, there for "b"
    np.testing.assert_array_equal(values["a"], cenmcc.accuracy(stack["int"]))


def test_mcc_and_tmcc_share_each_blocks_mcc(stack, tiny_blocks, monkeypatch):
    """The tMCC is computed from the MCC: asked for together, each block's MCC is computed once,
    and both keep the bits they have alone."""
    blocks = []
    compute = correlation._mcc

    def counted(m, zero_division):
        blocks.append(m)
        return compute(m, zero_division)

    monkeypatch.setattr(correlation, "_mcc", counted)
    values, undefined = cenmcc.measures(stack["int"], ["mcc", "tmcc"], count_undefined=True)
    shared = len(blocks)
    assert shared > 10
    assert len({id(b) for b in blocks}) == shared  # once per block
    assert undefined["mcc"] == undefined["tmcc"] > 0  # each counts the 0/0 MCCs it filled
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        np.testing.assert_array_equal(values["mcc"], cenmcc.mcc(stack["int"]))
        np.testing.assert_array_equal(values["tmcc"], cenmcc.tmcc(stack["int"]))
    assert len(blocks) == 3 * shared  # alone, each of the two computes it again


def test_a_user_measure_without_a_kernel_gets_the_validated_counts_as_a_read_only_array(stack):
    got = []

    def k_cen(C):
        got.append(C)
        return cenmcc.k_factor(4) * cenmcc.cen(C)

    user = cenmcc.Measure("k_cen", k_cen, False, "k·CEN", 0.0, (0.0, math.inf))
    values = cenmcc.measures(stack["int"], [user, "mcc"], count_undefined=True)[0]
    assert type(got[0]) is np.ndarray
    assert not got[0].flags.writeable
    np.testing.assert_array_equal(got[0], stack["int"])
    np.testing.assert_array_equal(values["k_cen"], cenmcc.k_factor(4) * cenmcc.cen(stack["int"]))
    # Its UndefinedMetricWarnings are counted, not shown, with count_undefined=True.
    mcc_again = cenmcc.Measure("mcc_again", cenmcc.mcc, True, "MCC", 1.0, (-1.0, 1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values, undefined = cenmcc.measures(stack["int"], [mcc_again, "mcc"], count_undefined=True)
    assert undefined["mcc_again"] == undefined["mcc"] > 0
    np.testing.assert_array_equal(values["mcc_again"], values["mcc"])
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        cenmcc.measures(stack["int"], [mcc_again])


def test_a_user_measure_must_return_one_value_per_matrix():
    per_class = cenmcc.Measure("recalls", cenmcc.recall, True, "R", 1.0, (0.0, 1.0))
    with pytest.raises(ValueError, match=r"'recalls' returned shape \(2, 2\).* shape \(2,\)"):
        cenmcc.measures(np.ones((2, 2, 2), dtype=int), [per_class])


@pytest.mark.parametrize(
    ("fields", "error", "match"),
    [
        (("", cenmcc.mcc, True, "MCC", 1.0, (-1, 1)), ValueError, "name must not be empty"),
        ((3, cenmcc.mcc, True, "MCC", 1.0, (-1, 1)), TypeError, "name must be a str"),
        (("m", "mcc", True, "MCC", 1.0, (-1, 1)), TypeError, "function must be callable"),
        (("m", cenmcc.mcc, 1, "MCC", 1.0, (-1, 1)), TypeError, "greater_is_better must be a bool"),
        (("m", cenmcc.mcc, True, None, 1.0, (-1, 1)), TypeError, "label must be a str"),
        (("m", cenmcc.mcc, True, "MCC", 2.0, (-1, 1)), ValueError, "best 2.0 must be within"),
        (("m", cenmcc.mcc, True, "MCC", 1.0, (-1,)), TypeError, "bounds must be two real"),
        (("m", cenmcc.mcc, True, "MCC", "1", (-1, 1)), TypeError, "best a real number"),
    ],
)
def test_a_measure_checks_its_fields(fields, error, match):
    with pytest.raises(error, match=match):
        cenmcc.Measure(*fields)


# --- label input ------------------------------------------------------------------------------

Y_TRUE = ["cat", "dog", "dog", "bird", "cat", "bird"]
Y_PRED = ["cat", "dog", "cat", "bird", "cat", "dog"]


def test_from_labels_is_the_measures_of_the_confusion_matrix():
    C = cenmcc.confusion_matrix(Y_TRUE, Y_PRED)
    assert cenmcc.from_labels(Y_TRUE, Y_PRED, "mcc") == cenmcc.mcc(C)
    assert cenmcc.from_labels(Y_TRUE, Y_PRED, cenmcc.MEASURES["cen"]) == cenmcc.cen(C)
    assert cenmcc.from_labels(Y_TRUE, Y_PRED, ["cen", "tmcc"]) == cenmcc.measures(
        C, ["cen", "tmcc"]
    )
    assert list(cenmcc.from_labels(Y_TRUE, Y_PRED)) == list(cenmcc.MEASURES)
    weights = [1.0, 2.0, 0.5, 1.0, 1.0, 3.0]
    labels = ["dog", "cat", "bird", "fish"]
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="recall"):  # no fish
        value = cenmcc.from_labels(
            Y_TRUE, Y_PRED, "recall_macro", labels=labels, sample_weight=weights
        )
    C = cenmcc.confusion_matrix(Y_TRUE, Y_PRED, labels=labels, sample_weight=weights)
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        assert value == cenmcc.recall(C, "macro")


def test_from_labels_agrees_with_scikit_learn():
    from sklearn import metrics as skm

    assert cenmcc.from_labels(Y_TRUE, Y_PRED, "mcc") == pytest.approx(
        skm.matthews_corrcoef(Y_TRUE, Y_PRED), abs=1e-15
    )
    assert cenmcc.from_labels(Y_TRUE, Y_PRED, "f1_macro") == pytest.approx(
        skm.f1_score(Y_TRUE, Y_PRED, average="macro"), abs=1e-15
    )


COUNT_METRICS = [
    cenmcc.accuracy,
    cenmcc.balanced_accuracy,
    cenmcc.balanced_accuracy_weighted,
    cenmcc.weighted_accuracy,
    cenmcc.mcc,
    cenmcc.cohen_kappa,
    cenmcc.expected_accuracy,
    cenmcc.cen,
    cenmcc.cen_per_class,
    cenmcc.tmcc,
    cenmcc.precision,
    cenmcc.recall,
    cenmcc.f1_score,
    cenmcc.f1_of_macro_averages,
    cenmcc.measures,
]


@pytest.mark.parametrize("metric", COUNT_METRICS, ids=lambda f: f.__name__)
def test_label_vectors_given_to_a_count_metric_point_to_the_label_path(metric):
    name = metric.__name__
    if name != "weighted_accuracy" and name != "balanced_accuracy_weighted":
        with pytest.raises(TypeError, match=f"{name} takes confusion-matrix counts C, not labels"):
            metric(np.array(Y_TRUE), np.array(Y_PRED))
    with pytest.raises(ValueError, match=r"at least 2 dimensions .* for labels use") as error:
        metric([0, 1, 1, 2])
    matrix = f"cenmcc.{name}(cenmcc.confusion_matrix(y_true, y_pred))"
    assert matrix in str(error.value)
    if name in cenmcc.MEASURES:
        assert f"cenmcc.from_labels(y_true, y_pred, '{name}')" in str(error.value)
    else:
        assert "cenmcc.from_labels" in str(error.value)


def test_counts_of_a_label_vector_point_to_the_label_path():
    with pytest.raises(ValueError, match=r"for label vectors use cenmcc\.confusion_matrix"):
        cenmcc.Counts([0, 1, 1])


def test_the_label_path_is_named_for_mcc_exactly():
    with pytest.raises(TypeError) as error:
        cenmcc.mcc([0, 1, 1], [0, 1, 0])
    assert str(error.value) == (
        "mcc takes confusion-matrix counts C, not labels; for labels use "
        "cenmcc.from_labels(y_true, y_pred, 'mcc') or "
        "cenmcc.mcc(cenmcc.confusion_matrix(y_true, y_pred))"
    )


def test_the_decorated_metrics_keep_their_signature_docs_and_pickle():
    assert list(inspect.signature(cenmcc.mcc).parameters) == ["C", "zero_division"]
    assert list(inspect.signature(cenmcc.precision).parameters) == [
        "C",
        "average",
        "zero_division",
    ]
    assert cenmcc.mcc.__doc__.startswith("Matthews correlation coefficient")
    assert cenmcc.precision.__doc__.startswith("Precision:")
    assert pickle.loads(pickle.dumps(cenmcc.mcc)) is cenmcc.mcc
    # Counts, matrices, stacks and class weights go through untouched.
    C = [[5, 1], [2, 6]]
    assert cenmcc.weighted_accuracy(C, [0.5, 0.5]) == cenmcc.balanced_accuracy(C)
    assert cenmcc.precision(cenmcc.Counts(C), "macro") == cenmcc.precision(C, average="macro")


def test_a_users_measure_needs_only_a_name_a_function_and_a_direction():
    m = cenmcc.Measure("half_accuracy", lambda C: cenmcc.accuracy(C) / 2, greater_is_better=True)
    assert (m.label, m.bounds, m.best) == ("half_accuracy", (-math.inf, math.inf), math.inf)
    bounded = cenmcc.Measure("error", lambda C: 1 - cenmcc.accuracy(C), False, bounds=(0, 1))
    assert bounded.best == 0.0


def test_a_named_measure_is_its_public_function():
    """Each metric declares its measure once: MEASURES holds the public function itself, or a
    partial of it for the averages."""
    for name, m in cenmcc.MEASURES.items():
        function = getattr(m.function, "func", m.function)
        assert function is getattr(cenmcc, function.__name__)
        if function is m.function:
            assert (name, function.measure) == (function.__name__, m)
    assert cenmcc.precision.measure is None  # per class: named only through its averages


def test_a_partial_of_a_metric_is_evaluated_with_the_named_measures(stack, tiny_blocks):
    mine = cenmcc.Measure("mine", functools.partial(cenmcc.f1_score, average="macro"), True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values, undefined = cenmcc.measures(stack["int"], [mine, "f1_macro"], count_undefined=True)
    np.testing.assert_array_equal(values["mine"], values["f1_macro"], strict=True)
    assert undefined["mine"] == undefined["f1_macro"] > 0
    with pytest.raises(ValueError, match="average must be one of"):
        cenmcc.measures(
            stack["int"],
            [cenmcc.Measure("bad", functools.partial(cenmcc.recall, average="mean"), True)],
        )
