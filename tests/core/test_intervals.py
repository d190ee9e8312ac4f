"""Confidence intervals of measures (cenmcc.confidence_interval), against scipy and each other."""

import numpy as np
import pytest
from scipy import stats

import cenmcc
from cenmcc.intervals.asymptotic import (
    delta_variance,
    gradient,
    kappa_standard_error,
    wilson_interval,
)
from cenmcc.intervals.gradients import GRADIENTS

C3 = np.array([[40, 5, 5], [4, 38, 8], [2, 6, 42]])


def expanded_labels(C):
    """The items of a confusion matrix as (true, predicted) label vectors."""
    K = C.shape[0]
    cells = np.repeat(np.arange(K * K), C.ravel())
    return cells // K, cells % K


def labels_statistic(name, K):
    """A vectorized statistic of (true, predicted) labels for scipy.stats.bootstrap."""

    def statistic(t, p, axis=-1):
        idx = np.moveaxis(t * K + p, axis, -1)
        counts = np.stack([(idx == c).sum(-1) for c in range(K * K)], -1)
        values, _ = cenmcc.measures(
            counts.reshape(*counts.shape[:-1], K, K), [name], count_undefined=True
        )
        return values[name]

    return statistic


@pytest.mark.parametrize("method", ["bca", "percentile"])
@pytest.mark.parametrize("name", ["mcc", "cen"])
def test_bootstrap_agrees_with_scipy_on_the_items(method, name):
    """Multinomial resampling of the counts is scipy's bootstrap of the items (B = 20,000)."""
    B = 20_000
    ours = cenmcc.confidence_interval(C3, name, method=method, n_resamples=B, random_state=1)
    theirs = stats.bootstrap(
        expanded_labels(C3),
        labels_statistic(name, 3),
        paired=True,
        vectorized=True,
        n_resamples=B,
        method="BCa" if method == "bca" else method,
        random_state=2,
    )
    # Monte Carlo error of a 2.5% quantile of 20,000 resamples: about 0.001 for these values
    assert ours.confidence_interval.low == pytest.approx(theirs.confidence_interval.low, abs=8e-3)
    assert ours.confidence_interval.high == pytest.approx(theirs.confidence_interval.high, abs=8e-3)
    assert ours.standard_error == pytest.approx(theirs.standard_error, rel=0.03)
    assert ours.statistic == pytest.approx(labels_statistic(name, 3)(*expanded_labels(C3)))


def test_bca_is_the_item_jackknifes_on_a_tiny_sample():
    """The K^2 weighted leave-one-out values give the n-item jackknife's BCa, on the same draws.

    BCa written out with scipy.stats.bootstrap's formulas, the jackknife over every item.
    """
    C = np.array([[3, 1], [2, 4]])
    B = 999
    ours = cenmcc.confidence_interval(C, "mcc", method="bca", n_resamples=B, random_state=5)
    t, p = expanded_labels(C)
    jack = [
        float(labels_statistic("mcc", 2)(np.delete(t, i), np.delete(p, i))) for i in range(t.size)
    ]
    d = np.mean(jack) - np.array(jack)
    a = (d**3).sum() / (6 * (d**2).sum() ** 1.5)
    rng = np.random.default_rng(5)
    draws = rng.multinomial(C.sum(), C.ravel() / C.sum(), size=(1, B))[0]
    values = cenmcc.measures(draws.reshape(B, 2, 2), ["mcc"], count_undefined=True)[0]["mcc"]
    theta = cenmcc.mcc(C)
    z0 = stats.norm.ppf(((values < theta).sum() + (values <= theta).sum()) / (2 * B))
    z = z0 + stats.norm.ppf([0.025, 0.975])
    levels = stats.norm.cdf(z0 + z / (1 - a * z))
    expected = np.percentile(values, 100 * levels)
    assert [ours.confidence_interval.low, ours.confidence_interval.high] == pytest.approx(expected)


MATRICES = [
    np.array([[30, 10], [5, 55]]),
    np.array([[7, 1], [3, 2]]),
    C3,
    np.array(
        [[20, 3, 0, 1, 0], [2, 15, 4, 0, 1], [0, 5, 30, 2, 0], [1, 0, 3, 9, 2], [0, 2, 0, 4, 11]]
    ),
]


@pytest.mark.parametrize("C", MATRICES, ids=lambda C: f"K={C.shape[0]}")
def test_fleiss_cohen_everitt_is_walds_delta_method(C):
    fce = cenmcc.confidence_interval(C, "cohen_kappa", method="fce")
    delta = cenmcc.confidence_interval(C, "cohen_kappa", method="wald")
    assert fce.standard_error == pytest.approx(delta.standard_error, rel=1e-6)
    assert fce.confidence_interval.low == pytest.approx(delta.confidence_interval.low, rel=1e-6)
    assert kappa_standard_error(C) == pytest.approx(fce.standard_error)


@pytest.mark.parametrize("C", MATRICES, ids=lambda C: f"K={C.shape[0]}")
def test_wilson_standard_error_is_walds_delta_method(C):
    wilson = cenmcc.confidence_interval(C, "accuracy", method="wilson")
    delta = cenmcc.confidence_interval(C, "accuracy", method="wald")
    assert wilson.standard_error == pytest.approx(delta.standard_error, rel=1e-6)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (80, 100), (100, 100), (999, 1234)])
def test_wilson_is_scipys(k, n):
    ci = stats.binomtest(k, n).proportion_ci(0.9, method="wilson")
    assert wilson_interval(k, n, 0.9) == pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-15)


def test_fisher_z_of_the_mcc_is_walds_standard_error_on_atanhs_scale():
    C = MATRICES[0]
    r = cenmcc.confidence_interval(C, "mcc", method="fisher_z")
    assert r.standard_error == cenmcc.confidence_interval(C, "mcc", method="wald").standard_error
    z = np.arctanh(r.statistic)
    half = stats.norm.ppf(0.975) * r.standard_error / (1 - r.statistic**2)
    assert (r.confidence_interval.low, r.confidence_interval.high) == pytest.approx(
        (np.tanh(z - half), np.tanh(z + half))
    )


@pytest.mark.parametrize("name", ["mcc", "cen", "f1_macro", "balanced_accuracy"])
def test_wald_standard_error_is_the_bootstraps_for_a_large_sample(name):
    C = 20 * C3
    delta = cenmcc.confidence_interval(C, name, method="wald")
    boot = cenmcc.confidence_interval(
        C, name, method="percentile", n_resamples=4000, random_state=0
    )
    assert delta.standard_error == pytest.approx(boot.standard_error, rel=0.06)


def population(K=3, accuracy=0.8):
    P = np.full((K, K), (1 - accuracy) / (K * (K - 1)))
    np.fill_diagonal(P, accuracy / K)
    return P


@pytest.mark.parametrize(("name", "method"), [("accuracy", "wilson"), ("mcc", "fisher_z")])
def test_coverage_of_95_percent_intervals(name, method):
    """Over 2,000 test sets of 300 items, the share of intervals holding the population value."""
    P = population()
    draws = np.random.default_rng(0).multinomial(300, P.ravel(), size=2000).reshape(-1, 3, 3)
    r = cenmcc.confidence_interval(draws, name, method=method)
    truth = float(cenmcc.measures(P, [name])[name])
    covered = (r.confidence_interval.low <= truth) & (truth <= r.confidence_interval.high)
    se = np.sqrt(0.95 * 0.05 / covered.size)  # 0.0049
    assert abs(covered.mean() - 0.95) < 4 * se


def test_random_state_reproduces():
    first = cenmcc.confidence_interval(C3, "cen", method="bca", n_resamples=999, random_state=7)
    again = cenmcc.confidence_interval(
        C3, "cen", method="bca", n_resamples=999, random_state=np.random.default_rng(7)
    )
    other = cenmcc.confidence_interval(C3, "cen", method="bca", n_resamples=999, random_state=8)
    assert first == again
    assert first.confidence_interval != other.confidence_interval


def test_several_measures_share_the_resamples():
    both = cenmcc.confidence_interval(
        C3, ["mcc", "cen"], method="bca", n_resamples=999, random_state=3
    )
    alone = cenmcc.confidence_interval(
        C3, cenmcc.cen, method="bca", n_resamples=999, random_state=3
    )
    assert both["cen"] == alone
    assert list(both) == ["mcc", "cen"]


def test_a_stack_gives_arrays_of_its_shape():
    C = np.stack([C3, 2 * C3, C3.T, 3 * C3]).reshape(2, 2, 3, 3)
    r = cenmcc.confidence_interval(C, "mcc", n_resamples=99, random_state=0)
    assert r.statistic.shape == r.confidence_interval.low.shape == r.n_undefined.shape == (2, 2)
    assert np.all(r.confidence_interval.low < r.statistic)
    assert np.all(r.statistic < r.confidence_interval.high)


def test_undefined_resamples_are_counted():
    """MCC is 0/0 for a resample with an empty row or column: each one is counted."""
    C = np.array([[1, 1], [0, 8]])
    B = 999
    r = cenmcc.confidence_interval(C, "mcc", method="percentile", n_resamples=B, random_state=4)
    draws = np.random.default_rng(4).multinomial(10, C.ravel() / 10, size=B).reshape(B, 2, 2)
    empty = (draws.sum(-1) == 0).any(-1) | (draws.sum(-2) == 0).any(-1)
    assert r.n_undefined == empty.sum() > 0


def test_undefined_matrix_has_no_interval():
    C = np.array([C3[:2, :2], [[50, 0], [0, 0]]])
    for method in ("bca", "wald", "fisher_z"):
        r = cenmcc.confidence_interval(C, "mcc", method=method, n_resamples=99, random_state=0)
        assert r.undefined.tolist() == [False, True]
        assert np.isnan(r.confidence_interval.low[1])
        assert np.isnan(r.statistic[1])
        assert np.isfinite(r.confidence_interval.high[0])


# --- the MCCs' written-out delta method, and per-class Wilson intervals ------------------------

BINARY = [np.array([[30, 10], [5, 55]]), np.array([[7, 3], [20, 470]]), np.array([[1, 4], [2, 93]])]


@pytest.mark.parametrize("name", list(GRADIENTS))
@pytest.mark.parametrize("C", [*BINARY, *MATRICES], ids=lambda C: f"K={C.shape[0]}")
def test_written_gradients_give_the_numerical_delta_variance(name, C):
    """The written-out gradient and central differences give one variance (they may differ by
    a multiple of the ones vector, which the multinomial covariance ignores)."""
    function = cenmcc.MEASURES[name].function
    numerical = cenmcc.Measure(name, lambda C: function(C), True)  # not the built-in one
    p = (C / C.sum()).ravel()[None]
    written = delta_variance(p, gradient(C[None], cenmcc.MEASURES[name]), C.sum())
    expected = delta_variance(p, gradient(C[None], numerical), C.sum())
    assert written == pytest.approx(expected, rel=1e-6)


def binary_population(prevalence, sensitivity, specificity):
    P = [
        [prevalence * sensitivity, prevalence * (1 - sensitivity)],
        [(1 - prevalence) * (1 - specificity), (1 - prevalence) * specificity],
    ]
    return np.array(P)


@pytest.mark.parametrize(
    ("prevalence", "sensitivity", "specificity"), [(0.5, 0.8, 0.8), (0.1, 0.7, 0.95)]
)
def test_binary_mcc_standard_error_is_the_spread_of_simulated_test_sets(
    prevalence, sensitivity, specificity
):
    """The delta method's standard error at the population's proportions against the standard
    deviation of the MCC over 20,000 test sets of 2,000 items (its own relative error 0.5%)."""
    P, n = binary_population(prevalence, sensitivity, specificity), 2000
    draws = np.random.default_rng(3).multinomial(n, P.ravel(), size=20_000).reshape(-1, 2, 2)
    se = np.sqrt(delta_variance(P.ravel(), GRADIENTS["mcc"](P).ravel(), n))
    assert se == pytest.approx(cenmcc.mcc(draws).std(ddof=1), rel=0.03)


@pytest.mark.parametrize(
    ("P", "n", "name", "method"),
    [
        (binary_population(0.5, 0.8, 0.8), 200, "mcc", "fisher_z"),
        (binary_population(0.2, 0.8, 0.9), 500, "mcc", "fisher_z"),
        (binary_population(0.1, 0.7, 0.95), 1000, "mcc", "fisher_z"),
        (population(), 300, "macro_mcc", "wald"),
        (population(5), 1000, "macro_mcc", "wald"),
        (population(), 300, "micro_mcc", "wald"),
        (population(), 300, "micro_mcc", "wilson"),
    ],
    ids=lambda x: x if isinstance(x, str | int) else "",
)
def test_coverage_of_the_mccs_closed_forms(P, n, name, method):
    """Over 2,000 test sets, the share of 95% intervals holding the population's value."""
    K = P.shape[0]
    draws = np.random.default_rng(4).multinomial(n, P.ravel(), size=2000).reshape(-1, K, K)
    r = cenmcc.confidence_interval(draws, name, method=method)
    truth = float(cenmcc.measures(P, [name])[name])
    covered = (r.confidence_interval.low <= truth) & (truth <= r.confidence_interval.high)
    assert not r.undefined.any()
    assert abs(covered.mean() - 0.95) < 4 * np.sqrt(0.95 * 0.05 / covered.size)  # 4 x 0.0049


@pytest.mark.parametrize("C", MATRICES, ids=lambda C: f"K={C.shape[0]}")
def test_micro_mcc_intervals_are_the_accuracys_mapped(C):
    K = C.shape[0]
    for method in ("wilson", "wald"):
        micro = cenmcc.confidence_interval(C, "micro_mcc", method=method)
        accuracy = cenmcc.confidence_interval(C, "accuracy", method=method)
        mapped = [(K * x - 1) / (K - 1) for x in accuracy.confidence_interval]
        assert list(micro.confidence_interval) == pytest.approx(mapped, rel=1e-9)
        assert micro.standard_error == pytest.approx(K / (K - 1) * accuracy.standard_error)


def test_binary_macro_mcc_is_the_mcc_and_its_wald_interval():
    C = BINARY[0]
    macro = cenmcc.confidence_interval(C, "macro_mcc", method="wald")
    mcc = cenmcc.confidence_interval(C, "mcc", method="wald")
    assert macro.statistic == pytest.approx(mcc.statistic)
    assert macro.standard_error == pytest.approx(mcc.standard_error, rel=1e-12)
    z = stats.norm.ppf(0.975)
    low = macro.statistic - z * macro.standard_error
    assert macro.confidence_interval.low == pytest.approx(low)


def test_wald_macro_mcc_of_a_stack_with_an_undefined_matrix_warns_nothing():
    """A class never predicted makes the macro MCC 0/0: that matrix's interval is NaN, the
    others' are unchanged, and no RuntimeWarning of inf * 0 escapes (the coverage experiment's
    draws at n = 50 met one)."""
    stack = np.array([C3, [[5, 1, 0], [2, 6, 0], [0, 1, 0]]])
    r = cenmcc.confidence_interval(stack, "macro_mcc", method="wald")
    alone = cenmcc.confidence_interval(C3, "macro_mcc", method="wald")
    assert r.undefined.tolist() == [False, True]
    assert np.isnan(r.confidence_interval.low[1])
    assert np.isnan(r.standard_error[1])
    assert r.standard_error[0] == pytest.approx(alone.standard_error, rel=1e-12)


@pytest.mark.parametrize(("name", "axis"), [("recall", 1), ("precision", 0)])
def test_per_class_wilson_is_scipys_for_every_class(name, axis):
    stack = np.stack([C3, C3.T, np.array([[40, 5, 5], [4, 38, 8], [0, 0, 0]])])
    r = cenmcc.confidence_interval(stack, name, method="wilson", level=0.9)
    assert r.statistic.shape == r.confidence_interval.low.shape == (3, 3)
    for m, C in enumerate(stack):
        trials = C.sum(axis=axis)
        for k in range(3):
            if trials[k] == 0:
                assert r.undefined[m, k]
                assert np.isnan(r.confidence_interval.high[m, k])
                continue
            ci = stats.binomtest(int(C[k, k]), int(trials[k])).proportion_ci(0.9, "wilson")
            assert (r.confidence_interval.low[m, k], r.confidence_interval.high[m, k]) == (
                pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-15)
            )
            assert r.statistic[m, k] == pytest.approx(C[k, k] / trials[k])
    assert r.undefined.sum() == (1 if name == "recall" else 0)


def test_per_class_wilson_takes_the_function_and_one_matrix():
    by_name = cenmcc.confidence_interval(C3, "precision", method="wilson")
    by_function = cenmcc.confidence_interval(C3, cenmcc.precision, method="wilson")
    assert by_name.statistic.shape == (3,)
    np.testing.assert_array_equal(by_name.confidence_interval, by_function.confidence_interval)


KINKED = cenmcc.Measure("abs_mcc", lambda C: np.abs(cenmcc.mcc(C)), True)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"level": 0.0}, ValueError, r"level must be in \(0, 1\), got 0.0"),
        ({"level": 1}, ValueError, r"level must be in \(0, 1\), got 1"),
        ({"level": "95%"}, TypeError, "level must be a real number"),
        ({"n_resamples": 1}, ValueError, "n_resamples must be at least 2, got 1"),
        ({"n_resamples": 20}, ValueError, "too few for level 0.95: .* at least 39"),
        ({"n_resamples": 99.0}, TypeError, "n_resamples must be an integer"),
        ({"method": "student"}, ValueError, "unknown method 'student'"),
        ({"method": "wilson"}, ValueError, "'wilson' is for .*, not 'mcc'"),
        ({"method": "fce"}, ValueError, "'fce' is for 'cohen_kappa', not 'mcc'"),
        ({"measure": "macro_mcc", "method": "wilson"}, ValueError, "not 'macro_mcc'"),
        (
            {"measure": "recall", "method": "bca"},
            ValueError,
            "per-class 'recall' has Wilson's interval only",
        ),
        (
            {"measure": cenmcc.precision, "method": "wald"},
            ValueError,
            "per-class 'precision' has Wilson's interval only .* not 'wald'",
        ),
        ({"measure": "nope"}, ValueError, "unknown measure 'nope'"),
        ({"measure": 3}, TypeError, "measure must be a name"),
        ({"measure": ["mcc", "mcc"]}, ValueError, "asked for twice"),
        ({"measure": KINKED, "method": "wald"}, ValueError, "'abs_mcc' has no gradient"),
        ({"method": "delta"}, ValueError, "method 'delta' is retired: it was Fisher's z .* MCC"),
        (
            {"measure": "accuracy", "method": "fisher_z"},
            ValueError,
            "range is \\[-1, 1\\], not 'acc",
        ),
        (
            {"measure": cenmcc.Measure("mcc", cenmcc.mcc, True), "method": "fisher_z"},
            ValueError,
            r"not 'mcc' \(range \[-inf, inf\]\)",
        ),
        ({"counts": [[1.5, 2], [3, 4]]}, ValueError, "counts must be whole numbers"),
        ({"counts": [[1, 0], [0, 0]], "method": "bca"}, ValueError, "at least 2 items"),
    ],
)
def test_bad_input_is_refused(kwargs, error, match):
    args = {"counts": [[25, 25], [25, 25]], "measure": "mcc"} | kwargs
    with pytest.raises(error, match=match):
        cenmcc.confidence_interval(args.pop("counts"), args.pop("measure"), **args)


# --- a measure that omits its undefined values; built-ins by identity; empty stacks --------


def accuracy_unless_00_is_empty(C):
    """Accuracy, undefined (NaN) where cell (0, 0) is empty."""
    accuracy = np.trace(C, axis1=-2, axis2=-1) / C.sum(axis=(-2, -1))
    return np.where(C[..., 0, 0] > 0, accuracy, np.nan)


OMITTING = cenmcc.Measure(
    "accuracy_00", accuracy_unless_00_is_empty, True, bounds=(0.0, 1.0), undefined="omit"
)


def test_omitted_resamples_are_left_out_of_the_percentile_interval():
    """Issue 45 item 2: the undefined resamples of [[4, 6], [20, 70]] (about 1.7%) were sorted
    as if +inf, moving the upper end from 0.82 to 0.84, with a NaN standard error."""
    C, B = np.array([[4, 6], [20, 70]]), 9999
    r = cenmcc.confidence_interval(C, OMITTING, method="percentile", n_resamples=B, random_state=0)
    draws = np.random.default_rng(0).multinomial(100, C.ravel() / 100, size=B).reshape(B, 2, 2)
    values = accuracy_unless_00_is_empty(draws)
    kept = values[~np.isnan(values)]
    assert r.n_undefined == B - kept.size > 100
    assert list(r.confidence_interval) == pytest.approx(np.quantile(kept, [0.025, 0.975]))
    assert r.confidence_interval.high == pytest.approx(0.82)
    assert r.standard_error == pytest.approx(kept.std(ddof=1))


def test_omitted_resamples_and_jackknife_values_are_left_out_of_bca():
    """BCa from the defined resamples, and the jackknife of the defined leave-one-out values
    (cell (0, 0) holds one item: leaving it out is undefined, and left out)."""
    C, B = np.array([[1, 3], [2, 14]]), 2999
    r = cenmcc.confidence_interval(C, OMITTING, method="bca", n_resamples=B, random_state=1)
    n = C.sum()
    draws = np.random.default_rng(1).multinomial(n, C.ravel() / n, size=B).reshape(B, 2, 2)
    values = accuracy_unless_00_is_empty(draws)
    kept = values[~np.isnan(values)]
    t, p = expanded_labels(C)
    jack = []
    for i in range(n):
        loo = np.zeros((2, 2), int)
        np.add.at(loo, (np.delete(t, i), np.delete(p, i)), 1)
        jack.append(accuracy_unless_00_is_empty(loo))
    jack = np.array(jack)
    jack = jack[~np.isnan(jack)]
    assert jack.size == n - 1
    d = jack.mean() - jack
    a = (d**3).sum() / (6 * (d**2).sum() ** 1.5)
    theta = accuracy_unless_00_is_empty(C)
    z0 = stats.norm.ppf(((kept < theta).sum() + (kept <= theta).sum()) / (2 * kept.size))
    z = z0 + stats.norm.ppf([0.025, 0.975])
    expected = np.percentile(kept, 100 * stats.norm.cdf(z0 + z / (1 - a * z)))
    assert r.n_undefined == B - kept.size > 0
    assert list(r.confidence_interval) == pytest.approx(expected)


def test_a_matrix_whose_every_resample_is_omitted_has_no_interval():
    def only_c3(C):
        return np.where((C == C3).all(axis=(-2, -1)), 1.0, np.nan)

    never = cenmcc.Measure("only_c3", only_c3, True, bounds=(0.0, 1.0), undefined="omit")
    r = cenmcc.confidence_interval(C3, never, method="percentile", n_resamples=99, random_state=0)
    assert r.n_undefined == 99
    assert np.isnan([*r.confidence_interval, r.standard_error]).all()


def error_rate(C):
    return 1 - np.trace(C, axis1=-2, axis2=-1) / C.sum(axis=(-2, -1))


@pytest.mark.parametrize(
    ("measure", "method"),
    [
        (cenmcc.Measure("accuracy", error_rate, False, bounds=(0.0, 1.0)), "wilson"),
        (cenmcc.Measure("micro_mcc", error_rate, False, bounds=(0.0, 1.0)), "wilson"),
        (cenmcc.Measure("cohen_kappa", error_rate, False, bounds=(0.0, 1.0)), "fce"),
    ],
    ids=lambda x: x if isinstance(x, str) else x.name,
)
def test_a_closed_form_is_never_chosen_by_a_measures_name(measure, method):
    """Issue 45 item 4: a user's error rate named "accuracy" got the accuracy's Wilson
    interval (0.729, 0.856) around its statistic 0.20."""
    with pytest.raises(ValueError, match=f"not a user's measure named '{measure.name}'"):
        cenmcc.confidence_interval(C3, measure, method=method)


def test_the_built_in_function_in_a_users_measure_is_the_built_in():
    mine = cenmcc.Measure("my_accuracy", cenmcc.MEASURES["accuracy"].function, True)
    ours = cenmcc.confidence_interval(C3, mine, method="wilson")
    assert (
        ours.confidence_interval
        == cenmcc.confidence_interval(C3, "accuracy", method="wilson").confidence_interval
    )


def test_a_users_measure_named_mcc_gets_no_written_gradient():
    """A measure named "mcc" that is half the MCC: its Wald interval is half the MCC's
    standard error, from its own (numerical) gradient, not the MCC's written one."""
    half = cenmcc.Measure("mcc", lambda C: cenmcc.mcc(C) / 2, True, bounds=(-0.5, 0.5))
    ours = cenmcc.confidence_interval(C3, half, method="wald")
    mcc = cenmcc.confidence_interval(C3, "mcc", method="wald")
    assert ours.standard_error == pytest.approx(mcc.standard_error / 2, rel=1e-6)


@pytest.mark.parametrize(
    ("measure", "method"),
    [
        *((name, method) for name in ("mcc", "cen") for method in ("bca", "percentile", "wald")),
        ("mcc", "fisher_z"),
        ("accuracy", "wilson"),
        ("micro_mcc", "wilson"),
        ("cohen_kappa", "fce"),
        ("recall", "wilson"),
    ],
)
@pytest.mark.parametrize("shape", [(0, 2, 2), (2, 0, 3, 3)])
def test_an_empty_stack_gives_empty_results(measure, method, shape):
    """Issue 45 item 13: an empty stack failed with a reshape error."""
    r = cenmcc.confidence_interval(np.zeros(shape, int), measure, method=method)
    expected = shape[:-2] + ((shape[-1],) if measure == "recall" else ())
    for field in (r.statistic, *r.confidence_interval, r.standard_error, r.n_undefined):
        assert field.shape == expected


def test_wald_accepts_a_gradient_near_zero_in_one_cell():
    """CEN's slope in cell (0, 1) of this matrix is 1e-4: its one-sided differences differ by
    3% of themselves, which is rounding, not a kink (it was refused)."""
    C = np.array([[584, 371], [20, 25]])
    r = cenmcc.confidence_interval(C, "cen", method="wald")
    boot = cenmcc.confidence_interval(
        C, "cen", method="percentile", n_resamples=2000, random_state=0
    )
    assert r.standard_error == pytest.approx(boot.standard_error, rel=0.08)


def test_wald_of_a_perfect_classification_is_a_point():
    """Accuracy is 1 near a diagonal matrix: its slopes are rounding noise, not a kink (it was
    refused)."""
    r = cenmcc.confidence_interval(np.diag([18, 12, 20]), "accuracy", method="wald")
    assert (r.statistic, *r.confidence_interval, r.standard_error) == pytest.approx(
        (1, 1, 1, 0), abs=1e-9
    )


@pytest.mark.parametrize("measure", ["accuracy", "micro_mcc"])
def test_wilson_of_counts_near_the_int64_limit_does_not_overflow(measure):
    # correct * (n - correct) / n**3 in int64 overflowed to a negative variance (sqrt: NaN and a
    # RuntimeWarning, an error here) for counts well inside the documented limit.
    C = np.array([[2**40, 2**38], [2**37, 3 * 2**36]])
    r = cenmcc.confidence_interval(C, measure, method="wilson")
    expected = cenmcc.confidence_interval(C // 2**30, measure, method="wilson")
    assert np.isfinite(r.standard_error)
    assert r.standard_error > 0
    assert r.standard_error == pytest.approx(expected.standard_error / 2**15, rel=1e-9)
