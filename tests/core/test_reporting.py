"""cenmcc.report: its numbers are those of the functions it is built from; Holm's adjustment
against a literal transcription; labels of every kind; bad input refused."""

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import cenmcc
from cenmcc.reporting import holm

MEASURES = ["mcc", "cen", "accuracy"]
OPTIONS = {"n_resamples": 199, "random_state": 0}


def three_classifiers(n=120, K=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    noisy = [np.where(rng.random(n) < right, y, rng.integers(0, K, n)) for right in (0.8, 0.7, 0.5)]
    return y, dict(zip(("a", "b", "c"), noisy, strict=True))


def recorded(call, *args, **kwargs):
    """``call(*args, **kwargs)`` and the messages of the warnings it emitted (its default
    interval may warn of its coverage on a test set this small)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args, **kwargs)
    return result, [str(w.message) for w in caught]


@pytest.fixture(scope="module")
def made():
    y, preds = three_classifiers()
    return y, preds, cenmcc.report(y, preds, measures=MEASURES, **OPTIONS)


def test_scores_are_the_intervals_of_the_confusion_matrices(made):
    y, preds, r = made
    assert list(r.scores.columns[:7]) == [
        *("classifier", "measure", "value", "low", "high", "method", "n_undefined"),
    ]
    for name, y_pred in preds.items():
        C = cenmcc.confusion_matrix(y, y_pred)
        np.testing.assert_array_equal(r.confusion[name].to_numpy(), C)
        expected, messages = recorded(cenmcc.confidence_interval, C, MEASURES, **OPTIONS)
        rows = r.scores[r.scores["classifier"] == name].set_index("measure")
        for m in MEASURES:
            e = expected[m]
            got = rows.loc[m]
            for text in messages:  # each warning about m is in its row, not only on stderr
                assert f"'{m}'" not in text or text in got["warning"]
            assert (got["value"], got["low"], got["high"]) == (
                e.statistic,
                e.confidence_interval.low,
                e.confidence_interval.high,
            )
            assert (got["method"], got["n_undefined"]) == (e.method, e.n_undefined)


def test_comparisons_are_compare_classifiers_and_holm(made):
    y, preds, r = made
    assert len(r.comparisons) == 3 * len(MEASURES)
    for row in r.comparisons.itertuples(index=False):
        e, messages = recorded(
            cenmcc.compare_classifiers, y, preds[row.a], preds[row.b], row.measure, **OPTIONS
        )
        assert all(text in row.warning for text in messages)
        assert (row.difference, row.low, row.high, row.pvalue, row.method) == (
            e.statistic,
            *e.confidence_interval,
            e.pvalue,
            e.method,
        )
    np.testing.assert_array_equal(r.comparisons["pvalue_holm"], holm(r.comparisons["pvalue"]))
    assert [(row.a, row.b) for row in r.comparisons.itertuples()][:: len(MEASURES)] == [
        ("a", "b"),
        ("a", "c"),
        ("b", "c"),
    ]


def test_per_class_are_wilson_intervals_and_f1(made):
    y, preds, r = made
    C = cenmcc.confusion_matrix(y, preds["b"])
    rows = r.per_class[r.per_class["classifier"] == "b"]
    np.testing.assert_array_equal(rows["support"], C.sum(axis=1))
    np.testing.assert_array_equal(rows["f1"], cenmcc.f1_score(C, average=None))
    for measure in ("precision", "recall"):
        e = cenmcc.confidence_interval(C, measure, method="wilson")
        np.testing.assert_array_equal(rows[measure], e.statistic)
        np.testing.assert_array_equal(rows[f"{measure}_low"], e.confidence_interval.low)
        np.testing.assert_array_equal(rows[f"{measure}_high"], e.confidence_interval.high)


def holm_literal(p):
    """Holm (1979), as written: sort the m p-values; the i-th smallest, p_(i), is adjusted to
    max over j <= i of min(1, (m - j + 1) p_(j)); untested (NaN) values are left out."""
    p = list(p)
    tested = [i for i, v in enumerate(p) if not np.isnan(v)]
    ordered = sorted(tested, key=lambda i: p[i])
    m = len(ordered)
    out = [float("nan")] * len(p)
    for rank, i in enumerate(ordered, start=1):
        out[i] = max(min(1.0, (m - j + 1) * p[ordered[j - 1]]) for j in range(1, rank + 1))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_holm_is_the_literal_step_down(seed):
    rng = np.random.default_rng(seed)
    p = rng.random(int(rng.integers(1, 30))) ** 3
    p[rng.random(p.size) < 0.2] = np.nan
    if p.size > 2:
        p[1] = p[0]  # a tie
    np.testing.assert_allclose(holm(p), holm_literal(p), rtol=1e-15)


def test_holm_by_hand():
    # m = 3: 0.01 * 3, max(0.03, 0.02 * 2), max(0.04, 0.9 * 1)
    assert holm([0.9, 0.01, 0.02]).tolist() == [0.9, 0.03, 0.04]
    assert holm([]).tolist() == []


def test_string_and_categorical_labels_give_the_numbers_of_their_codes(made):
    y, preds, r = made
    names = np.array(["ant", "bee", "cat", "dog"])
    frame = pd.DataFrame({k: pd.Categorical(names[v]) for k, v in preds.items()})
    s = cenmcc.report(names[y], frame, measures=MEASURES, **OPTIONS)
    pd.testing.assert_frame_equal(s.scores, r.scores)
    pd.testing.assert_frame_equal(s.comparisons, r.comparisons)
    assert list(s.confusion["a"].index) == list(names)
    assert list(s.per_class["class"][:4]) == list(names)


def test_one_classifier_has_no_comparison():
    y, preds = three_classifiers()
    r = cenmcc.report(y, preds["a"], measures=["accuracy"], **OPTIONS)
    assert r.scores["classifier"].tolist() == ["y_pred"]
    assert r.comparisons.empty
    assert "## Comparisons" not in r.to_markdown()


def test_default_measures_are_the_stated_ones():
    y, preds = three_classifiers(n=40)
    r = cenmcc.report(y, {"a": preds["a"]}, n_resamples=99, random_state=0)
    assert tuple(r.scores["measure"]) == cenmcc.reporting.DEFAULT_MEASURES


def warns_for_small_samples(C):
    """A user's measure whose computation warns (as an interval too few items for warns)."""
    warnings.warn("few items for 'noisy'", UserWarning, stacklevel=2)
    return cenmcc.accuracy(C)


def test_warnings_of_the_calls_are_shown_in_the_tables():
    y, preds = three_classifiers(n=60)
    noisy = cenmcc.Measure("noisy", warns_for_small_samples, True)
    r = cenmcc.report(y, preds, measures=["mcc", noisy], **OPTIONS)
    for table in (r.scores, r.comparisons):  # beside them, the default's coverage warnings
        noisy_rows = table.loc[table["measure"] == "noisy", "warning"]
        assert noisy_rows.str.contains("few items for 'noisy'", regex=False).all()
        mcc_rows = table.loc[table["measure"] == "mcc", "warning"]
        assert not mcc_rows.str.contains("few items", regex=False).any()
    page = r.to_markdown()
    assert "few items for 'noisy'" in page.split("## Scores")[1]
    assert "Holm" in page
    assert "[!" in page.split("## Scores")[1].split("\n\n")[1]


def test_html_is_one_page_with_its_figure(made):
    r = made[2]
    page = r.to_html()
    assert page.startswith("<!DOCTYPE html>")
    assert "data:image/png;base64," in page
    assert "http" not in page
    fig = r.plot()
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[:4] == ["MCC (higher is better)", "CEN (lower is better)", *titles[2:3], "a"]


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([0, 1, 1], {}), {}, ValueError, "no classifier"),
        (([0, 1, 1], {"a": [0, 1]}), {}, ValueError, "same length"),
        (([0, 1, 1], {"a": [0, 1, np.nan]}), {}, ValueError, "NaN label"),
        (([0, 1, 1], {"a": ["0", "1", "1"]}), {}, TypeError, "same kind"),
        (([0, 1, 1], [0, 1, 2]), {"labels": [0, 1]}, ValueError, "not in `labels`"),
        (([0, 1, 1], [0, 1, 1]), {"measures": ["mc"]}, ValueError, "unknown measure"),
        (([0, 1, 1], [0, 1, 1]), {"level": 95}, ValueError, "level"),
    ],
)
def test_bad_input_is_refused(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        cenmcc.report(*args, **kwargs)


def test_import_cenmcc_loads_no_pandas_nor_matplotlib():
    code = "import sys, cenmcc; print(sorted({'pandas', 'matplotlib'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_warning_is_shown_beside_the_measure_it_quotes_or_beside_every_one():
    from cenmcc.reporting.tables import _about

    caught = ["few items for 'mcc'", "0/0 in 'cen'", "method 'bca' undercovers", "few items"]
    assert _about(caught, "mcc", ["mcc", "cen"]) == (
        "few items for 'mcc'; method 'bca' undercovers; few items"
    )
    assert _about(caught, "accuracy", ["mcc", "cen", "accuracy"]) == (
        "method 'bca' undercovers; few items"
    )
