"""Metrics on probabilities and scores: log loss, Hand & Till's M, one-vs-rest curves.

Three kinds of evidence: scikit-learn as an independent oracle on random cases with ties, small
classes and binary problems; literal slow transcriptions of the sources' definitions (Grandini
et al. 2020, Eqs. 22-23; the blog tutorial's A(i|j) and its R code); and properties.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn import metrics as skm

from cenmcc import hand_till_auc, log_loss, one_vs_rest_pr_curves

TOL = 1e-12  # agreement asked of the oracles (issue 2, "Oracles")


# --- random cases -------------------------------------------------------------------------------


def random_labels(rng, K: int, n: int) -> np.ndarray:
    """Class indices 0..K-1, every class present, sizes imbalanced (classes of 1 sample occur)."""
    weights = rng.dirichlet(np.full(K, 0.7))
    y = np.concatenate([np.arange(K), rng.choice(K, size=n - K, p=weights)])
    return rng.permutation(y)


def random_scores(rng, y: np.ndarray, K: int) -> np.ndarray:
    """Rows on the simplex, of one of four kinds; three of them tie often within a column."""
    n = y.size
    kind = rng.integers(4)
    if kind == 0:  # continuous: no ties
        return rng.dirichlet(np.full(K, rng.uniform(0.3, 3)), size=n)
    if kind == 1:  # multiples of 1/m: many ties (m = 1 gives one-hot rows)
        m = int(rng.choice([1, 2, 3, 4, 5, 10]))
        return rng.multinomial(m, rng.dirichlet(np.ones(K)), size=n) / m
    if kind == 2:  # rows drawn from a pool of 1-3 rows: every column ties heavily
        pool = rng.dirichlet(np.ones(K), size=int(rng.integers(1, 4)))
        return pool[rng.integers(len(pool), size=n)]
    # informative, in multiples of 1/20 (ties): the true class gets about half the mass
    mass = 0.5 * rng.dirichlet(np.ones(K), size=n) + 0.5 * np.eye(K)[y]
    return np.array([rng.multinomial(20, row) for row in mass]) / 20


def random_case(rng, K: int | None = None):
    """(labels as strings, class names in column order, K, scores) for one random problem."""
    K = int(rng.integers(2, 6)) if K is None else K
    n = int(rng.integers(K, 80))
    y = random_labels(rng, K, n)
    names = np.array([f"c{k}" for k in range(K)])  # sorted, so column k is class names[k]
    return names[y], names, y, random_scores(rng, y, K)


def one_hot(y: np.ndarray, K: int) -> np.ndarray:
    return np.eye(K, dtype=int)[y]


def _max_abs(ours, theirs) -> float:
    return float(np.max(np.abs(np.asarray(ours, dtype=float) - theirs)))


def log_loss_disagreement(n_cases: int, seed: int) -> float:
    """Largest |log_loss - sklearn.metrics.log_loss| over random cases, away from probability 0
    (scikit-learn clips to [eps, 1 - eps]): delta / K is mixed into every row."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(n_cases):
        labels, names, y, p = random_case(rng)
        q = (1 - 1e-3) * p + 1e-3 / names.size
        if rng.integers(2):  # one more class, without samples, named through `labels`
            q = np.column_stack([q * (1 - 1e-3), np.full(y.size, 1e-3)])
            names = np.append(names, "z")
        ours = log_loss(labels, q, names)
        worst = max(worst, _max_abs(ours, skm.log_loss(labels, y_proba=q, labels=names)))
    return worst


def hand_till_disagreement(n_cases: int, seed: int) -> float:
    """Largest |hand_till_auc - roc_auc_score(multi_class="ovo")| over random cases; for K = 2,
    where scikit-learn has no one-vs-one mode, the mean of the two one-vs-one ROC AUCs."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(n_cases):
        labels, names, y, p = random_case(rng)
        if names.size == 2:
            oracle = skm.roc_auc_score(one_hot(y, 2), p, average=None).mean()
        else:
            oracle = skm.roc_auc_score(labels, p, multi_class="ovo")
        worst = max(worst, _max_abs(hand_till_auc(labels, p), oracle))
    return worst


def one_vs_rest_disagreements(n_cases: int, seed: int) -> dict[str, float]:
    """Largest disagreements of one_vs_rest_pr_curves with precision_recall_curve (curve points
    and thresholds), average_precision_score and roc_auc_score, class by class."""
    rng = np.random.default_rng(seed)
    worst = {"pr_curve": 0.0, "average_precision": 0.0, "roc_auc": 0.0}
    for _ in range(n_cases):
        labels, names, y, p = random_case(rng)
        K = names.size
        r = one_vs_rest_pr_curves(labels, p)
        Y = one_hot(y, K)
        for key, oracle in [
            ("average_precision", skm.average_precision_score(Y, p, average=None)),
            ("roc_auc", skm.roc_auc_score(Y, p, average=None)),
        ]:
            worst[key] = max(worst[key], _max_abs(getattr(r, key), oracle))
        for k, curve in enumerate(r.curves):
            oracle = skm.precision_recall_curve(y == k, p[:, k])
            for ours, theirs in zip(curve, oracle, strict=True):
                assert ours.shape == theirs.shape
                worst["pr_curve"] = max(worst["pr_curve"], _max_abs(ours, theirs))
    return worst


# scikit-learn spends about 1 ms per binary curve, which sets these counts (the three tests take
# about 15 s): 2000 log-loss cases; 400 Hand & Till cases, about 4,000 one-vs-one AUCs; 500
# one-vs-rest cases, about 1,750 curves. K runs from 2 to 5, classes of 1 sample occur, and three
# cases in four have ties.


@pytest.mark.slow
def test_log_loss_agrees_with_scikit_learn():
    assert log_loss_disagreement(n_cases=2000, seed=1) <= TOL


@pytest.mark.slow
def test_hand_till_agrees_with_scikit_learn_ovo():
    assert hand_till_disagreement(n_cases=400, seed=2) <= TOL


@pytest.mark.slow
def test_one_vs_rest_agrees_with_scikit_learn():
    worst = one_vs_rest_disagreements(n_cases=500, seed=3)
    assert max(worst.values()) <= TOL, worst


@pytest.mark.parametrize("K", [2, 3])
def test_agrees_with_scikit_learn_on_larger_samples(K):
    rng = np.random.default_rng(K)
    y = random_labels(rng, K, 5000)
    mass = 0.7 * rng.dirichlet(np.ones(K), size=y.size) + 0.3 * np.eye(K)[y]
    p = np.array([rng.multinomial(100, row) for row in mass]) / 100  # ties
    ours = one_vs_rest_pr_curves(y, p)
    assert _max_abs(ours.roc_auc, skm.roc_auc_score(one_hot(y, K), p, average=None)) <= TOL
    oracle_ap = skm.average_precision_score(one_hot(y, K), p, average=None)
    assert _max_abs(ours.average_precision, oracle_ap) <= TOL
    if K == 2:
        expected = skm.roc_auc_score(one_hot(y, K), p, average=None).mean()
    else:
        expected = skm.roc_auc_score(y, p, multi_class="ovo")
    assert abs(hand_till_auc(y, p) - expected) <= TOL


# --- log loss -----------------------------------------------------------------------------------


def cross_entropy_eq23(y_true, proba, labels) -> float:
    """Grandini et al. (2020), Eq. (23) as printed: the sum over units of Eq. (22)."""
    total = 0.0
    for y_i, row in zip(y_true, proba, strict=True):
        p_true = [1.0 if label == y_i else 0.0 for label in labels]  # p(Y_i = k | X_i)
        total -= sum(t * math.log(q) for t, q in zip(p_true, row, strict=True) if t != 0)
    return total


def test_log_loss_is_eq_23_divided_by_the_number_of_samples():
    rng = np.random.default_rng(3)
    for _ in range(50):
        labels, names, y, p = random_case(rng)
        p = (1 - 1e-6) * p + 1e-6 / names.size
        expected = cross_entropy_eq23(labels, p, names) / y.size
        assert log_loss(labels, p) == pytest.approx(expected, rel=1e-13, abs=1e-15)


def test_log_loss_is_infinite_when_the_true_class_has_probability_zero():
    y = [0, 1, 1]
    p = [[1.0, 0.0], [0.5, 0.5], [1.0, 0.0]]  # sample 2 gives its true class probability 0
    assert log_loss(y, p) == math.inf
    # scikit-learn clips to eps instead: finite, (ln 2 + ln(1/eps)) / 3 up to 1 - eps rounding
    eps = np.finfo(float).eps
    clipped = skm.log_loss(y, y_proba=p)
    assert clipped == pytest.approx((math.log(2) - math.log(eps)) / 3, rel=1e-12)
    # a zero on a class that is not the true one does not matter
    assert log_loss([0, 1], [[1.0, 0.0], [0.0, 1.0]]) == 0.0


def test_log_loss_columns_follow_labels():
    y = ["b", "a", "b"]
    p = np.array([[0.2, 0.8], [0.6, 0.4], [0.1, 0.9]])
    assert log_loss(y, p) == log_loss(y, p[:, ::-1], labels=["b", "a"])
    assert log_loss(y, p, labels=["a", "b"]) == pytest.approx(
        -(math.log(0.8) + math.log(0.6) + math.log(0.9)) / 3, rel=1e-15
    )
    # an unused class needs `labels` and may take probability
    q = np.column_stack([p * 0.5, np.full(3, 0.5)])
    assert log_loss(y, q, labels=["a", "b", "c"]) == pytest.approx(log_loss(y, p) + math.log(2))


def test_log_loss_row_sums_are_checked_within_1e_8():
    y = [0, 1]
    log_loss(y, [[0.5, 0.5], [0.3, 0.7 + 5e-9]])  # accepted
    with pytest.raises(ValueError, match=r"row 1 sums to 1\.0000000199"):
        log_loss(y, [[0.5, 0.5], [0.3, 0.7 + 2e-8]])


# --- Hand & Till: literal transcriptions --------------------------------------------------------


def blog_A_conditional(y, scores, i: int, j: int) -> float:
    """A(i|j) as the blog defines it: the probability that a random member of class j has a lower
    class-i score than a random member of class i; every pair is counted, a tie counts 1/2."""
    f = [scores[t][i] for t in range(len(y)) if y[t] == i]  # class-i members
    g = [scores[t][i] for t in range(len(y)) if y[t] == j]  # class-j members
    count = 0.0
    for f_l in f:
        for g_m in g:
            count += 1.0 if g_m < f_l else 0.5 if g_m == f_l else 0.0
    return count / (len(f) * len(g))


def blog_M(y, scores, c: int) -> float:
    """M = 2 / (c (c - 1)) sum_{i<j} (A(i|j) + A(j|i)) / 2, literally."""
    total = 0.0
    for i in range(c):
        for j in range(i + 1, c):
            total += (blog_A_conditional(y, scores, i, j) + blog_A_conditional(y, scores, j, i)) / 2
    return 2 / (c * (c - 1)) * total


def blog_r_compute_A_conditional(y, scores, i: int, j: int) -> float:
    """The blog's R function compute.A.conditional, line by line; R's order() is stable."""
    pred_i = [scores[t][i] for t in range(len(y)) if y[t] == i]
    pred_j = [scores[t][i] for t in range(len(y)) if y[t] == j]
    all_preds = pred_i + pred_j
    classes = [i] * len(pred_i) + [j] * len(pred_j)
    o = sorted(range(len(all_preds)), key=lambda u: all_preds[u])  # order(all.preds)
    classes_o = [classes[u] for u in o]
    Si = sum(rank for rank, cls in enumerate(classes_o, start=1) if cls == i)
    ni, nj = len(pred_i), len(pred_j)
    return (Si - (ni * (ni + 1)) / 2) / (ni * nj)


def test_hand_till_equals_the_literal_pair_count():
    rng = np.random.default_rng(5)
    for trial in range(200):
        _, names, y, p = random_case(rng, K=int(rng.integers(2, 5)))
        if trial % 3 == 0:  # any real scores, not only probabilities: integers, negatives
            p = rng.integers(-3, 3, size=p.shape) if trial % 2 else rng.normal(size=p.shape)
        K = names.size
        r = hand_till_auc(y, p, pairwise=True)
        for i in range(K):
            for j in range(K):
                if i != j:  # both exact rationals with one rounding: bitwise equal
                    assert r.conditional[i, j] == blog_A_conditional(y, p.tolist(), i, j)
        assert r.auc == pytest.approx(blog_M(y, p.tolist(), K), abs=1e-15)
        assert r.auc == hand_till_auc(y, p)


def test_blog_r_code_counts_ties_as_zero():
    """The docstring's claim: order() breaks ties by position, so a tied pair counts 0."""
    rng = np.random.default_rng(6)
    for _ in range(100):
        _, _, y, p = random_case(rng, K=3)
        for i, j in [(0, 1), (1, 0), (1, 2), (2, 0)]:
            f = p[y == i, i]
            g = p[y == j, i]
            wins = np.sum(f[:, None] > g[None, :]) / (f.size * g.size)
            assert blog_r_compute_A_conditional(y, p.tolist(), i, j) == pytest.approx(wins)
    # one tie: Hand & Till count it 1/2, the R code 0
    y, s = [0, 1], [[0.5, 0.5], [0.5, 0.5]]
    assert hand_till_auc(y, s) == 0.5
    assert blog_r_compute_A_conditional(y, s, 0, 1) == blog_r_compute_A_conditional(y, s, 1, 0) == 0
    # without ties the R code and Hand & Till agree
    y = [0, 0, 1, 1, 2]
    s = rng.permutation(15).reshape(5, 3)
    r = hand_till_auc(y, s, pairwise=True)
    for i in range(3):
        for j in range(3):
            if i != j:
                assert r.conditional[i, j] == blog_r_compute_A_conditional(y, s.tolist(), i, j)


# --- Hand & Till: properties --------------------------------------------------------------------


def test_hand_till_is_invariant_under_strictly_increasing_column_transforms():
    # True by construction: A(i|j) depends only on the order and ties within column i. Checked on
    # exact integer ranks so that no float rounding can merge or split values.
    rng = np.random.default_rng(7)
    for _ in range(100):
        _, _, y, p = random_case(rng)
        ranks = rankdata(p, method="dense", axis=0)  # strictly increasing per column
        a = rng.uniform(0.5, 2, size=p.shape[1])
        transformed = a * ranks**3 + rng.integers(-5, 5, size=p.shape[1])  # exact on integers
        base = hand_till_auc(y, p, pairwise=True)
        for s in (ranks, transformed, np.exp(ranks)):
            r = hand_till_auc(y, s, pairwise=True)
            assert r.auc == base.auc
            np.testing.assert_array_equal(r.conditional, base.conditional)
        # reversing every column turns each A(i|j) into 1 - A(i|j): M into 1 - M
        assert hand_till_auc(y, -p) == pytest.approx(1 - base.auc, abs=1e-15)


def test_hand_till_changes_when_a_non_strict_transform_merges_values():
    y, s = [0, 1], np.array([[0.6, 0.4], [0.4, 0.6]])
    assert hand_till_auc(y, s) == 1.0
    assert hand_till_auc(y, np.minimum(s, 0.3)) == 0.5  # clipping ties everything


def test_hand_till_is_one_for_perfectly_separated_scores():
    rng = np.random.default_rng(8)
    for K in range(2, 7):
        y = random_labels(rng, K, 200)
        s = np.eye(K)[y] + rng.uniform(0, 0.9, size=(200, K))  # class k's column: > 1 vs < 0.9
        r = hand_till_auc(y, s, pairwise=True)
        assert r.auc == 1.0
        np.testing.assert_array_equal(r.pairwise, np.ones((K, K)) - 0.5 * np.eye(K))
        curves = one_vs_rest_pr_curves(y, s)
        np.testing.assert_array_equal(curves.roc_auc, np.ones(K))
        np.testing.assert_array_equal(curves.average_precision, np.ones(K))


def test_hand_till_of_random_scores_is_near_one_half():
    # Scores independent of the classes: each A(i|j) is a Mann-Whitney statistic with mean 1/2
    # and variance (n_i + n_j + 1) / (12 n_i n_j). M is a mean of such terms, so its standard
    # deviation is at most the largest of theirs (about 0.0065 here); 5 of those is the bound.
    rng = np.random.default_rng(9)
    K, n = 5, 20_000
    y = rng.permutation(np.arange(n) % K)
    sizes = np.bincount(y).astype(float)
    ni, nj = np.meshgrid(sizes, sizes)
    sd_max = np.sqrt((ni + nj + 1) / (12 * ni * nj)).max()
    assert sd_max < 0.01
    M = hand_till_auc(y, rng.uniform(size=(n, K)))
    assert abs(M - 0.5) <= 5 * sd_max


def test_hand_till_follows_the_labels_order_and_class_permutations():
    rng = np.random.default_rng(10)
    for _ in range(50):
        labels, names, _, p = random_case(rng)
        perm = rng.permutation(names.size)
        base = hand_till_auc(labels, p, pairwise=True)
        r = hand_till_auc(labels, p[:, perm], labels=names[perm], pairwise=True)
        assert r.auc == pytest.approx(base.auc, abs=1e-15)
        np.testing.assert_array_equal(r.labels, names[perm])
        np.testing.assert_array_equal(r.conditional, base.conditional[np.ix_(perm, perm)])


def test_hand_till_binary_is_the_mean_of_the_two_one_vs_one_aucs():
    y = np.array([0, 0, 0, 1, 1])
    s = np.array([[0.9, 0.2], [0.4, 0.7], [0.3, 0.1], [0.35, 0.8], [0.1, 0.5]])
    # A(0|1): column 0, class 0 (0.9, 0.4, 0.3) above class 1 (0.35, 0.1): 5 of 6 pairs
    # A(1|0): column 1, class 1 (0.8, 0.5) above class 0 (0.2, 0.7, 0.1): 5 of 6 pairs
    r = hand_till_auc(y, s, pairwise=True)
    assert r.conditional[0, 1] == 5 / 6
    assert r.conditional[1, 0] == 5 / 6
    assert r.auc == 5 / 6


# --- one-vs-rest curves -------------------------------------------------------------------------


def test_one_vs_rest_curve_by_hand():
    y = ["x", "y", "x", "z", "x"]
    s = np.array(
        [[0.7, 0.2, 0.1], [0.7, 0.2, 0.1], [0.2, 0.1, 0.7], [0.2, 0.6, 0.2], [0.5, 0.4, 0.1]]
    )
    r = one_vs_rest_pr_curves(y, s)
    c = r.curves[0]  # class x: scores 0.7 (x), 0.7 (y), 0.2 (x), 0.2 (z), 0.5 (x)
    np.testing.assert_array_equal(c.thresholds, [0.2, 0.5, 0.7])
    np.testing.assert_allclose(c.precision, [3 / 5, 2 / 3, 1 / 2, 1], rtol=1e-15)
    np.testing.assert_allclose(c.recall, [1, 2 / 3, 1 / 3, 0], rtol=1e-15)
    # AP = (1/3)(1/2) + (1/3)(2/3) + (1/3)(3/5)
    assert r.average_precision[0] == pytest.approx((1 / 2 + 2 / 3 + 3 / 5) / 3, rel=1e-15)
    # ROC AUC of x: positives (0.7, 0.2, 0.5) vs negatives (0.7, 0.2): 0.5+1 + 0+0.5 + 0+1 = 3
    assert r.roc_auc[0] == 3 / 6
    np.testing.assert_array_equal(r.labels, ["x", "y", "z"])


def test_one_vs_rest_roc_auc_is_the_class_size_weighted_mean_of_a_i_given_j():
    rng = np.random.default_rng(11)
    for _ in range(50):
        _, _, y, p = random_case(rng)
        K = p.shape[1]
        A = hand_till_auc(y, p, pairwise=True).conditional
        n = np.bincount(y, minlength=K)
        expected = [(np.delete(A[k] * n, k)).sum() / (y.size - n[k]) for k in range(K)]
        np.testing.assert_allclose(one_vs_rest_pr_curves(y, p).roc_auc, expected, rtol=1e-14)


# --- bad input ----------------------------------------------------------------------------------

P2 = [[0.5, 0.5], [0.2, 0.8]]


@pytest.mark.parametrize(
    ("y", "p", "kwargs", "match"),
    [
        ([[0, 1]], P2, {}, "y_true must be 1-D"),
        ([], np.zeros((0, 2)), {}, "y_true is empty"),
        ([0, 1], [0.5, 0.5], {}, r"must be 2-D \(n_samples, K\)"),
        ([0, 1, 1], P2, {}, "one row per sample: y_true has 3 samples, proba has 2 rows"),
        ([0, 1], [[1.0], [1.0]], {}, "K >= 2 columns"),
        ([0, 1], [[0.5, np.nan], [0.2, 0.8]], {}, r"finite, found nan at index \(0, 1\)"),
        ([0, 1], [[0.5, 0.5], [-0.2, 1.2]], {}, r"non-negative, found -0.2 at index \(1, 0\)"),
        ([0, 1], [[0.5, 0.5], [0.2, 0.7]], {}, r"row 1 sums to 0\.8999"),
        ([0, 0], P2, {}, "1 distinct labels but proba has 2 columns; pass `labels`"),
        ([0, 1], P2, {"labels": [0, 1, 2]}, "labels has 3 entries but proba has 2 columns"),
        ([0, 1], P2, {"labels": [1, 1]}, "labels must be unique, 1 repeats"),
        ([0, 1], P2, {"labels": [[0, 1]]}, "labels must be 1-D"),
        ([0, 3], P2, {"labels": [0, 1]}, r"y_true has labels not in `labels`: \[3\]"),
    ],
)
def test_log_loss_rejects_bad_input(y, p, kwargs, match):
    with pytest.raises(ValueError, match=match):
        log_loss(y, p, **kwargs)


@pytest.mark.parametrize("function", [hand_till_auc, one_vs_rest_pr_curves])
@pytest.mark.parametrize(
    ("y", "s", "kwargs", "match"),
    [
        ([[0, 1]], P2, {}, "y_true must be 1-D"),
        ([0, 1], [0.5, 0.5], {}, r"must be 2-D \(n_samples, K\)"),
        ([0, 1, 1], P2, {}, "scores has 2 rows"),
        ([0, 1], [[1.0], [1.0]], {}, "K >= 2 columns"),
        ([0, 1], [[0.5, np.inf], [0.2, 0.8]], {}, r"finite, found inf at index \(0, 1\)"),
        ([0, 0], P2, {}, "1 distinct labels but scores has 2 columns; pass `labels`"),
        ([0, 0], P2, {"labels": [0, 1]}, r"classes \[1\] of `labels` have no samples"),
        ([0, 1], P2, {"labels": [0, 1, 2]}, "labels has 3 entries but scores has 2 columns"),
        (["a", "b"], P2, {"labels": ["a", "a"]}, "labels must be unique, 'a' repeats"),
        ([0, 3], P2, {"labels": [0, 1]}, r"y_true has labels not in `labels`: \[3\]"),
    ],
)
def test_score_metrics_reject_bad_input(function, y, s, kwargs, match):
    with pytest.raises(ValueError, match=match):
        function(y, s, **kwargs)


@pytest.mark.parametrize("function", [log_loss, hand_till_auc, one_vs_rest_pr_curves])
@pytest.mark.parametrize("bad", [[[True, False], [False, True]], [["a", "b"], ["c", "d"]]])
def test_scores_must_be_real_numbers(function, bad):
    with pytest.raises(TypeError, match="must hold real numbers"):
        function([0, 1], bad)


def test_score_metrics_accept_any_real_scores_but_log_loss_needs_probabilities():
    y, s = [0, 1, 1], [[3, -1], [2, 5], [-4, 0]]
    assert hand_till_auc(y, s) == 1.0  # integer scores, rows not on the simplex
    assert one_vs_rest_pr_curves(y, s).roc_auc.tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="non-negative"):
        log_loss(y, s)
