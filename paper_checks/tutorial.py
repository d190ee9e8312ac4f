"""Claims of the blog tutorial *Performance measures for multi-class problems* (R code).

The 100-sample five-class example is rebuilt from the tutorial's R label vectors. Its R code
builds caret confusion matrices, whose tables have the *predictions in rows* and the reference
in columns: the transpose of cenmcc's convention. Where a printed value comes from the printed
code rather than from the definition, the code is transcribed here with R's semantics, to show
that it produces the printed value.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
from scipy.stats import rankdata

import cenmcc

from . import tutorial_r
from .declarations import load
from .iris import SPECIES, gaussian_naive_bayes, load_iris, random_splits
from .record import (
    EXACT_TOLERANCE,
    Measured,
    NotCheckable,
)
from .sources import (
    TUTORIAL,
    TUTORIAL_CLASSES,
    TUTORIAL_PREDICTION_RUNS,
    TUTORIAL_REFERENCE_RUNS,
    labels_from_runs,
)

#: The tutorial's data: ``ref.labels`` and ``predictions`` as printed.
REFERENCE = labels_from_runs(TUTORIAL_REFERENCE_RUNS)
PREDICTIONS = labels_from_runs(TUTORIAL_PREDICTION_RUNS)

#: Seed of the random scores behind the rank-formula check.
SEED = 2001


def confusion() -> np.ndarray:
    """The tutorial's confusion matrix in cenmcc's convention (rows = reference)."""
    return cenmcc.confusion_matrix(REFERENCE, PREDICTIONS, labels=TUTORIAL_CLASSES)


def caret_table() -> np.ndarray:
    """caret's ``confusionMatrix(df$Prediction, df$Reference)$table``: rows = Prediction."""
    return confusion().T


def label_vectors():
    return Measured(
        (REFERENCE.size, PREDICTIONS.size, np.unique(REFERENCE).size),
        "lengths of ref.labels and predictions, and the number of reference classes",
    )


def accuracy():
    return Measured(cenmcc.accuracy(confusion()), "cenmcc.accuracy on the rebuilt matrix")


def weighted_accuracy():
    K = len(TUTORIAL_CLASSES)
    return Measured(
        cenmcc.weighted_accuracy(confusion(), np.full(K, 1 / K)),
        "cenmcc.weighted_accuracy with uniform weights 1/5",
    )


def weighted_accuracy_formula_as_printed():
    # sum_k w_k sum_{x: g(x) = k} I(g(x) = ĝ(x)): weighted counts of correct predictions.
    correct_per_class = np.diagonal(confusion())
    K = len(TUTORIAL_CLASSES)
    return Measured(
        (np.full(K, 1 / K) * correct_per_class).sum(),
        "the printed formula with w_k = 1/5 on the rebuilt data",
    )


def _calculate_w_accuracy(C, weights):
    """``calculate.w.accuracy`` as printed: checks the weights, then returns mean(accs)."""
    if len(weights) != C.shape[0]:
        raise ValueError("Number of weights should agree with the number of classes.")
    if not np.isclose(np.sum(weights), 1):
        raise ValueError("Weights do not sum to 1")
    accs = np.diagonal(C) / C.sum(axis=1)  # calculate.accuracy on each reference class
    return accs.mean()


def weighted_accuracy_code_uses_weights():
    C = confusion()
    w = C.sum(axis=1) / C.sum()  # class frequencies: 0.45, 0.10, 0.15, 0.25, 0.05
    code, weighted = _calculate_w_accuracy(C, w), cenmcc.weighted_accuracy(C, w)
    return Measured(
        abs(code - weighted),
        f"with class-frequency weights: the printed code returns {code:.4f}, sum_k w_k acc_k "
        f"is {weighted:.4f}",
    )


def precision_table():
    return Measured(
        cenmcc.precision(confusion()), "cenmcc.precision per class A-E on the rebuilt matrix"
    )


def recall_table():
    return Measured(cenmcc.recall(confusion()), "cenmcc.recall per class A-E on the rebuilt matrix")


def micro_f1():
    return Measured(cenmcc.f1_score(confusion(), average="micro"), "cenmcc.f1_score, micro")


def _dollar(obj: dict, name: str):
    """R's ``obj$name`` on a list: the exact name, else the one name it is a prefix of, or NULL."""
    if name in obj:
        return obj[name]
    partial = [key for key in obj if key.startswith(name)]
    return obj[partial[0]] if len(partial) == 1 else None


def _r_not_equal(names: np.ndarray, value) -> np.ndarray:
    """R's ``names != value``: elementwise, and ``logical(0)`` (selects nothing) for NULL."""
    if value is None:
        return np.zeros(0, dtype=bool)
    return names != value


def _get_micro_f1(field: str) -> float:
    """``get.micro.f1(cm)`` with ``get.conf.stats`` as printed, reading ``x$<field>`` for fn."""
    names = np.array(TUTORIAL_CLASSES)
    table = caret_table()
    tp = fp = fn = 0
    for k, positive in enumerate(names):  # cm[[i]]: one confusionMatrix per positive class
        x = {"positive": positive, "table": table, "overall": None, "byClass": None}
        rows_fn = np.flatnonzero(_r_not_equal(names, _dollar(x, field)))
        tp += table[k, k]
        fp += table[k, names != positive].sum()
        fn += table[rows_fn, k].sum()  # x$table[colnames(x$table) != x$<field>, x$positive]
    pr, re = tp / (tp + fp), tp / (tp + fn)
    return 2 * ((pr * re) / (pr + re))


def micro_f1_printed_code():
    return Measured(
        _get_micro_f1("positie"),
        "get.micro.f1 as printed, with x$positie; the same code with x$positive gives "
        f"{_get_micro_f1('positive'):.2f}",
    )


def macro_f1():
    C = confusion()
    mean_of_f1 = cenmcc.f1_score(C, average="macro")
    return Measured(
        cenmcc.f1_of_macro_averages(C),
        f"cenmcc.f1_of_macro_averages (the tutorial's definition); the mean of the per-class "
        f"F1 scores would be {mean_of_f1:.4f}",
    )


def f1_relation_like_accuracy():
    C = confusion()
    K = len(TUTORIAL_CLASSES)
    micro, macro = cenmcc.f1_score(C, average="micro"), cenmcc.f1_of_macro_averages(C)
    acc, wacc = cenmcc.accuracy(C), cenmcc.weighted_accuracy(C, np.full(K, 1 / K))
    return Measured(
        (micro - macro, acc - wacc),
        f"micro F1 - macro F1 = {micro:.3f} - {macro:.3f}, accuracy - weighted accuracy = "
        f"{acc:.3f} - {wacc:.3f}; with the printed micro F1 0.88 the first gap would be "
        f"{0.88 - macro:.3f}, more than twice the second",
    )


#: The ten-class example's one-vs-all table, rows = truth: class 1 (TP 8, FN 2), others (FP 10,
#: TN 80).
TEN_CLASS_TABLE = np.array([[8, 2], [10, 80]])


def ten_class_table_totals():
    C = TEN_CLASS_TABLE
    return Measured((C[0].sum(), C.sum()), "size of class 1 and number of observations")


def ten_class_specificity():
    return Measured(cenmcc.recall(TEN_CLASS_TABLE)[1], "recall of the 'other' class")


def ten_class_precision():
    return Measured(cenmcc.precision(TEN_CLASS_TABLE)[0], "precision of class 1")


def _r_value(run: tutorial_r.RRun, name: str) -> float:
    return float(run.values[name])


def pr_curves_mean_auc():
    run = tutorial_r.tutorial_run()
    if isinstance(run, NotCheckable):
        return run
    y = np.searchsorted(np.array(SPECIES), run.species)
    curves = cenmcc.one_vs_rest_pr_curves(y, run.one_vs_all, labels=np.arange(len(SPECIES)))
    return Measured(
        (_r_value(run, "mean_one_vs_all_auc"), curves.roc_auc.mean()),
        "the tutorial's split and one-vs-all models run by R: the mean ROC AUC (what "
        "performance(pred, 'auc') computes) by R, then by cenmcc.one_vs_rest_pr_curves on R's "
        f"posteriors; their mean average precision (the area the text names) is "
        f"{curves.average_precision.mean():.4f}. {run.version}",
    )


def _proc_direction(control: np.ndarray, case: np.ndarray) -> str:
    """pROC's automatic direction: ``"<"`` (controls lower) unless the control median is higher."""
    return ">" if np.median(control) > np.median(case) else "<"


def _proc_pair_aucs(levels: np.ndarray, score: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The AUC of every pair of the present levels (in order), oriented as pROC orients it.

    cenmcc's two-class Hand & Till ``M`` on the scores ``(-s, s)`` is the probability that the
    second level's score is the higher (ties 1/2); pROC's direction ``">"`` takes the complement.
    """
    present = sorted(set(levels.tolist()), key=lambda v: (len(v), v))  # 1 < 3 < 10, as gos6
    names, aucs = [], []
    for a, b in combinations(present, 2):
        keep = np.isin(levels, (a, b))
        y, x = levels[keep], score[keep]
        higher_b = cenmcc.hand_till_auc(y, np.column_stack([-x, x]), labels=[a, b])
        direction = _proc_direction(x[y == a], x[y == b])
        names.append(f"{a}/{b}")
        aucs.append(higher_b if direction == "<" else 1 - higher_b)
    return names, np.array(aucs)


def proc_multiclass_auc():
    run = tutorial_r.proc_run()
    if isinstance(run, NotCheckable):
        return run
    _, aucs = _proc_pair_aucs(*run.asah)
    return Measured(
        (_r_value(run, "proc_multiclass_auc"), aucs.mean()),
        "pROC's multiclass.roc(aSAH$gos6, aSAH$s100b) run by R, then the mean of cenmcc's "
        f"pairwise AUCs oriented as pROC orients them. pROC warned: "
        f"{run.values.get('proc_warnings') or 'nothing'}. {run.version}",
    )


def proc_mean_of_pairs():
    run = tutorial_r.proc_run()
    if isinstance(run, NotCheckable):
        return run
    names, aucs = _proc_pair_aucs(*run.asah)
    proc_pairs = {r["pair"]: float(r["auc"]) for r in run.asah_pairs}
    unoriented = np.array(
        [aucs[i] if r["direction"] == "<" else 1 - aucs[i] for i, r in enumerate(run.asah_pairs)]
    )
    pair_gap = max(abs(proc_pairs[n] - a) for n, a in zip(names, aucs, strict=True))
    return Measured(
        abs(_r_value(run, "proc_multiclass_auc") - aucs.mean()),
        f"|pROC's multi-class AUC - mean of the {len(names)} pairwise AUCs of the present "
        f"levels {names}, computed by cenmcc and each oriented by pROC's median rule|; "
        f"largest gap to pROC's own pairwise AUCs {pair_gap:.1e}; without the orientation "
        f"(always 'second level higher') the mean would be {unoriented.mean():.3f}. "
        f"{run.version}",
    )


#: The pairwise AUCs the tutorial prints for iris (setosa/versicolor, setosa/virginica,
#: versicolor/virginica).
PRINTED_PAIR_AUCS = (1.0, 1.0, 0.97254)


def hand_till_mean_of_printed_pairs():
    c = 3
    return Measured(
        2 / (c * (c - 1)) * sum(PRINTED_PAIR_AUCS),
        "M = 2/(c(c-1)) sum_{i<j} A(i,j) over the printed pairwise AUCs",
    )


def _rounding_gap(gap: float) -> str:
    """A gap stated as ``less than 1e-12`` where it is floating-point rounding, else its value.

    Rounding differs from processor to processor in its last bits, so only its bound is
    reproducible: a rerun elsewhere writes the same report.
    """
    return f"less than {EXACT_TOLERANCE:g}" if gap < EXACT_TOLERANCE else f"at most {gap:.1e}"


def _hand_till_iris(sampler: str):
    run = tutorial_r.tutorial_run(sampler)
    if isinstance(run, NotCheckable):
        return run
    y = np.searchsorted(np.array(SPECIES), run.species)
    ours = cenmcc.hand_till_auc(y, run.posterior, labels=np.arange(len(SPECIES)))
    X, labels = load_iris()
    test = np.isin(np.arange(len(X)), run.rows - 1)
    rebuilt = gaussian_naive_bayes(X[~test], labels[~test], X[test], len(SPECIES))
    return Measured(
        (_r_value(run, "hand_till_m"), ours),
        f"the tutorial's script run by R (set.seed(12345), sample.kind = '{sampler}'): M by "
        "its multiclass.auc, then by cenmcc.hand_till_auc on R's posteriors; "
        "paper_checks.iris.gaussian_naive_bayes on R's split differs from R's posteriors by "
        f"{_rounding_gap(np.abs(rebuilt - run.posterior).max())}. {run.version}",
    )


def hand_till_iris_current_sampler():
    return _hand_till_iris("Rejection")


def hand_till_iris_old_sampler():
    return _hand_till_iris("Rounding")


def hand_till_iris_pairs_r():
    run = tutorial_r.tutorial_run()
    if isinstance(run, NotCheckable):
        return run
    y = np.searchsorted(np.array(SPECIES), run.species)
    ht = cenmcc.hand_till_auc(y, run.posterior, labels=np.arange(len(SPECIES)), pairwise=True)
    names = [f"pair_auc:{a}/{b}" for a, b in combinations(SPECIES, 2)]
    return Measured(
        (*(_r_value(run, n) for n in names), *ht.pairwise[np.triu_indices(len(SPECIES), 1)]),
        f"pair_AUCs printed by the tutorial's multiclass.auc run by R, then cenmcc's A(i, j) "
        f"on R's posteriors. {run.version}",
    )


#: Seed and number of the random 90/60 iris splits standing in for R's one split.
SPLIT_SEED, N_SPLITS = 12345, 500


@cache
def iris_runs() -> np.ndarray:
    """Per random split: Hand & Till's M, its three pairwise A(i, j), and the mean one-vs-rest
    ROC AUC and mean average precision of the tutorial's three binary naive Bayes models.

    Returns
    -------
    ndarray, shape (n_splits, 6)
        Splits whose test set lacks a species are skipped.
    """
    X, y = load_iris()
    K = len(SPECIES)
    classes = np.arange(K)
    rows = []
    for train, test in random_splits(SPLIT_SEED, N_SPLITS):
        if np.unique(y[test]).size < K:
            continue
        posterior = gaussian_naive_bayes(X[train], y[train], X[test], K)
        ht = cenmcc.hand_till_auc(y[test], posterior, labels=classes, pairwise=True)
        # "binarize the classifier": one two-class model per species, its posterior of TRUE
        one_vs_all = np.column_stack(
            [
                gaussian_naive_bayes(X[train], (y[train] == k).astype(int), X[test], 2)[:, 1]
                for k in classes
            ]
        )
        curves = cenmcc.one_vs_rest_pr_curves(y[test], one_vs_all, labels=classes)
        pairs = ht.pairwise[np.triu_indices(K, 1)]
        rows.append((ht.auc, *pairs, curves.roc_auc.mean(), curves.average_precision.mean()))
    return np.array(rows)


def _central_95(values) -> tuple[float, float]:
    return tuple(np.quantile(values, [0.025, 0.975]))


def _spread_detail(values, what: str) -> str:
    q = np.quantile(values, [0.025, 0.5, 0.975])
    return (
        f"{what} over {len(values)} random 90/60 splits of iris (seed {SPLIT_SEED}): median "
        f"{q[1]:.4f}, central 95% from {q[0]:.4f} to {q[2]:.4f}"
    )


def hand_till_iris_spread():
    auc = iris_runs()[:, 0]
    detail = _spread_detail(auc, "Hand & Till's M of a Gaussian naive Bayes")
    share = [(auc <= v).mean() for v in (0.988, 0.991)]
    return Measured(
        _central_95(auc),
        f"{detail}; 0.988 and 0.991 are at the {share[0]:.0%} and {share[1]:.0%} quantiles",
    )


def hand_till_iris_setosa_pairs():
    runs = iris_runs()
    both = np.mean((runs[:, 1] == 1) & (runs[:, 2] == 1))
    return Measured(
        (np.median(runs[:, 1]), np.median(runs[:, 2])),
        f"median A(setosa, versicolor) and A(setosa, virginica) over {len(runs)} random 90/60 "
        f"splits of iris (seed {SPLIT_SEED}); both are exactly 1 in {both:.1%} of the splits",
    )


def hand_till_iris_third_pair():
    A = iris_runs()[:, 3]
    return Measured(_central_95(A), _spread_detail(A, "A(versicolor, virginica)"))


def pr_curves_mean_auc_spread():
    runs = iris_runs()
    return Measured(
        _central_95(runs[:, 4]),
        _spread_detail(runs[:, 4], "mean one-vs-all ROC AUC (what the code computes)")
        + "; "
        + _spread_detail(runs[:, 5], "mean average precision (the area the text names)"),
    )


def hand_till_pair_auc_attainable():
    target = PRINTED_PAIR_AUCS[2]
    n_test, per_class = 60, 50  # 150 - 0.6 * 150 test samples; 50 iris flowers per class
    ni, nj = np.meshgrid(np.arange(1, per_class + 1), np.arange(1, per_class + 1), indexing="ij")
    possible = (ni + nj <= n_test) & (ni + nj >= n_test - per_class)
    den = 2 * ni * nj  # A(i,j) = (a + b) / (2 n_i n_j) with integer pair counts a, b
    nearest = np.rint(target * den) / den
    error = np.where(possible, np.abs(nearest - target), np.inf)
    sizes = [
        (int(a), int(b)) for a, b in zip(ni[error < 5e-6], nj[error < 5e-6], strict=True) if a <= b
    ]
    return Measured(
        nearest.flat[np.argmin(error)],
        "the attainable A(i,j) nearest to 0.97254 on a 60-sample test set; test-set sizes "
        f"(versicolor, virginica, either order) that print as 0.97254: {sizes}",
    )


def _a_conditional_by_ranks(f, g):
    """A(i|j) = (S_i - n_i (n_i + 1) / 2) / (n_i n_j), S_i the rank sum of the class-i scores."""
    ranks = rankdata(np.concatenate([f, g], axis=-1), axis=-1)
    s_i = ranks[..., : f.shape[-1]].sum(axis=-1)
    n_i, n_j = f.shape[-1], g.shape[-1]
    return (s_i - n_i * (n_i + 1) / 2) / (n_i * n_j)


def hand_till_rank_formula():
    rng = np.random.default_rng(SEED)
    gaps = []
    for n_i, n_j in ((1, 1), (3, 7), (20, 20), (50, 13)):
        f = rng.random((500, n_i))  # class-i members' estimated probability of class i
        g = rng.random((500, n_j)) * rng.uniform(0.2, 1.0, (500, 1))  # class-j members'
        pairs = (g[:, None, :] < f[:, :, None]).mean(axis=(1, 2))
        gaps.append(np.abs(_a_conditional_by_ranks(f, g) - pairs).max())
    return Measured(
        max(gaps),
        "max |rank formula - fraction of (class i, class j) pairs with g < f| over 2,000 random "
        f"score sets without ties (seed {SEED})",
    )


def _src(where: str) -> str:
    return f"{TUTORIAL}, {where}"


#: The claims declared in tutorial.toml, each measured by the check it names.
RECORDS = load(__name__)
