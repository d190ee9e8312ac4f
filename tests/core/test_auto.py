"""``method="auto"``, the default of confidence_interval and compare_classifiers (issue 46 item 3).

The choice reads the table the coverage experiment writes (cenmcc/intervals/_coverage_table.py);
the acceptance test draws from populations the experiment never saw.
"""

import re
import warnings

import numpy as np
import pytest

import cenmcc
from cenmcc.intervals import METHODS
from cenmcc.paired import METHODS as PAIRED_METHODS

#: Measures whose default the acceptance test checks.
SINGLE = ["mcc", "cen", "cohen_kappa", "macro_mcc", "accuracy"]
PAIRED = ["mcc", "macro_mcc", "accuracy"]


def unseen_binary() -> np.ndarray:
    """A binary task with prevalence 0.05 (recall 0.95 and 0.7): not in the experiment."""
    prior = np.array([0.95, 0.05])
    return prior[:, None] * np.array([[0.95, 0.05], [0.3, 0.7]])


def unseen_four() -> np.ndarray:
    """Four classes, priors 0.5 / 0.3 / 0.15 / 0.05, uneven errors: not in the experiment."""
    prior = np.array([0.5, 0.3, 0.15, 0.05])
    Q = np.array(
        [
            [0.9, 0.06, 0.03, 0.01],
            [0.15, 0.75, 0.08, 0.02],
            [0.05, 0.2, 0.7, 0.05],
            [0.1, 0.1, 0.3, 0.5],
        ]
    )
    return prior[:, None] * Q


def warned_measures(caught) -> set[str]:
    """The measures named in the CoverageWarnings caught."""
    named = set()
    for w in caught:
        if issubclass(w.category, cenmcc.CoverageWarning):
            named |= set(re.findall(r"'(\w+)' by '", str(w.message)))
    return named


def test_coverage_warning_is_a_public_user_warning():
    assert issubclass(cenmcc.CoverageWarning, UserWarning)
    assert "CoverageWarning" in cenmcc.__all__


def test_a_benign_test_set_gets_no_warning_and_says_its_method():
    rng = np.random.default_rng(0)
    P = np.full((3, 3), 0.05 / 3) + np.eye(3) * (0.9 / 3 - 0.05 / 3)
    C = rng.multinomial(1000, P.ravel() / P.sum()).reshape(3, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = cenmcc.confidence_interval(C, list(cenmcc.MEASURES)[:8], n_resamples=999)
        labels = np.repeat(np.argwhere(C >= 0), C.ravel(), axis=0)
        d = cenmcc.compare_classifiers(*labels.T, labels[:, 0], ["mcc", "accuracy"])
    assert all(x.method in METHODS for x in r.values())
    assert all(x.method in PAIRED_METHODS for x in d.values())


def test_auto_is_the_method_it_names():
    C = np.array([[40, 5, 5], [4, 38, 8], [2, 6, 42]])
    for name in ("mcc", "accuracy", "cen"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cenmcc.CoverageWarning)
            r = cenmcc.confidence_interval(C, name, n_resamples=999, random_state=1)
        assert r == cenmcc.confidence_interval(
            C, name, method=r.method, n_resamples=999, random_state=1
        )


def test_a_measure_gets_the_interval_it_gets_alone_whatever_else_is_asked():
    """Each method of one call starts its resamples from the seed's state: with the methods
    chosen here (Fisher's z, Wald, percentile and BCa; MOVER, BCa and percentile), asking for
    the measures together gave another percentile interval than asking for one alone."""
    C = np.array([[13, 4, 2], [1, 16, 0], [1, 3, 20]])
    names = ["mcc", "cen", "accuracy", "cohen_kappa", "balanced_accuracy"]
    options = {"random_state": 0, "n_resamples": 199}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.CoverageWarning)
        together = cenmcc.confidence_interval(C, names, **options)
        assert len({r.method for r in together.values()}) >= 3
        for name in names:
            alone = cenmcc.confidence_interval(C, name, **options)
            assert alone.confidence_interval == together[name].confidence_interval
        rng = np.random.default_rng(0)
        y = rng.integers(0, 4, 120)
        a, b = (np.where(rng.random(120) < p, y, rng.integers(0, 4, 120)) for p in (0.8, 0.7))
        names = ["mcc", "cen", "accuracy"]
        together = cenmcc.compare_classifiers(y, a, b, names, **options)
        assert len({r.method for r in together.values()}) == 3
        for name in names:
            alone = cenmcc.compare_classifiers(y, a, b, name, **options)
            assert alone.confidence_interval == together[name].confidence_interval


def test_a_large_test_set_gets_the_delta_method_without_resamples():
    """Smallest class >= auto.LARGE: Wald for every measure, measured by the experiment or not,
    in both functions (its bootstrap took 8 s a comparison at 10**6 items of 20 classes)."""
    from cenmcc.intervals import auto

    rng = np.random.default_rng(1)
    K, n = 3, 4 * auto.LARGE * 3
    y = rng.integers(0, K, n)
    a, b = (np.where(rng.random(n) < p, y, rng.integers(0, K, n)) for p in (0.8, 0.7))
    names = ["mcc", "cen", "f1_macro", "informedness"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", cenmcc.CoverageWarning)
        single = cenmcc.confidence_interval(cenmcc.confusion_matrix(y, a), names)
        paired = cenmcc.compare_classifiers(y, a, b, names)
    assert {r.method for r in single.values()} == {"wald"}
    assert {r.method for r in paired.values()} == {"wald"}
    assert {r.n_resamples for r in (*single.values(), *paired.values())} == {0}
    small = cenmcc.confusion_matrix(y[:300], a[:300])  # informedness: not in the experiment
    assert cenmcc.confidence_interval(small, "informedness").method == auto.FALLBACK


def test_a_stack_of_regimes_gets_each_its_method_and_one_warning():
    """A small imbalanced matrix and a large balanced one: auto chooses for each, and warns once
    for the call, with the word coverage, the measure and the regime."""
    small = np.array([[60, 2], [3, 1]])
    large = np.array([[450, 50], [50, 450]])
    with pytest.warns(cenmcc.CoverageWarning) as caught:
        r = cenmcc.confidence_interval(np.stack([small, large]), ["mcc", "cen"], n_resamples=999)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "coverage" in message
    assert "'mcc' by" in message
    assert "n = 66, K = 2, smallest class 4" in message
    for name, result in r.items():
        alone = cenmcc.confidence_interval(large, name, n_resamples=999, random_state=0)
        method = result.method if isinstance(result.method, str) else result.method[1]
        assert method == alone.method
        assert result.statistic[1] == alone.statistic


def test_per_class_recall_by_default_is_wilson():
    r = cenmcc.confidence_interval([[40, 10], [5, 45]], "recall")
    assert r.method == "wilson"


def acceptance_single(P: np.ndarray, n: int, calls: int, seed: int) -> dict[str, tuple]:
    """For each measure: the coverage of the default interval and the share of calls that warn
    about it, on ``calls`` test sets of ``n`` items from ``P``."""
    rng = np.random.default_rng(seed)
    K = P.shape[0]
    truth = cenmcc.measures(P, SINGLE)
    covered = {name: [] for name in SINGLE}
    warned = dict.fromkeys(SINGLE, 0)
    for C in rng.multinomial(n, P.ravel(), size=calls).reshape(-1, K, K):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = cenmcc.confidence_interval(C, SINGLE, n_resamples=999, random_state=rng)
        for name in warned_measures(caught):
            warned[name] += 1
        for name, x in r.items():
            low, high = x.confidence_interval
            covered[name].append(bool(low - 1e-9 <= truth[name] <= high + 1e-9))
    return {name: (np.mean(covered[name]), warned[name] / calls) for name in SINGLE}


def acceptance_paired(p: np.ndarray, n: int, calls: int, seed: int) -> dict[str, tuple]:
    """The same for compare_classifiers on a joint table ``p[t, a, b]``."""
    rng = np.random.default_rng(seed)
    a, b = (cenmcc.measures(p.sum(axis=axis), PAIRED) for axis in (2, 1))
    cells = np.argwhere(np.ones(p.shape, bool))
    covered = {name: [] for name in PAIRED}
    warned = dict.fromkeys(PAIRED, 0)
    for counts in rng.multinomial(n, p.ravel(), size=calls):
        y, pa, pb = np.repeat(cells, counts, axis=0).T
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = cenmcc.compare_classifiers(y, pa, pb, PAIRED, n_resamples=999, random_state=rng)
        for name in warned_measures(caught):
            warned[name] += 1
        for name, x in r.items():
            d = float(a[name] - b[name])
            low, high = x.confidence_interval
            covered[name].append(bool(low - 1e-9 <= d <= high + 1e-9))
    return {name: (np.mean(covered[name]), warned[name] / calls) for name in PAIRED}


def unseen_pair(P: np.ndarray) -> np.ndarray:
    """Two classifiers on P's task: a with P's conditionals, b with each recall 0.1 lower (the
    difference spread evenly), independent given the truth."""
    prior = P.sum(axis=1)
    Qa = P / prior[:, None]
    K = P.shape[0]
    Qb = Qa - 0.1 * np.eye(K) + 0.1 / (K - 1) * (1 - np.eye(K))
    return prior[:, None, None] * Qa[:, :, None] * Qb[:, None, :]


@pytest.mark.slow
@pytest.mark.parametrize("population", [unseen_binary, unseen_four])
def test_the_default_covers_or_warns_on_unseen_populations(population):
    """Issue 46's acceptance: at 80 items the default covers at least 0.92, or warns in at
    least nine calls of ten, for every measure, for both functions (300 test sets each: the
    coverage's binomial SE is about 0.016)."""
    P = population()
    for name, (coverage, warned) in acceptance_single(P, 80, 300, 0).items():
        assert coverage >= 0.92 or warned >= 0.9, ("interval", name, coverage, warned)
    for name, (coverage, warned) in acceptance_paired(unseen_pair(P), 80, 300, 1).items():
        assert coverage >= 0.92 or warned >= 0.9, ("difference", name, coverage, warned)


def test_an_empty_stack_by_default_is_empty():
    r = cenmcc.confidence_interval(np.zeros((0, 2, 2), int), "mcc")
    assert r.statistic.shape == r.confidence_interval.low.shape == (0,)
    assert r.method in METHODS
