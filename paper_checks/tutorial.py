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
from .iris import SPECIES, gaussian_naive_bayes, load_iris, random_splits
from .record import (
    DIFFERS,
    EXACT_TOLERANCE,
    REPRODUCED,
    Measured,
    NotCheckable,
    Record,
    bound,
    exact,
    identity,
    printed,
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


RECORDS = (
    Record(
        id="tutorial-label-vectors",
        source=_src("'Data of a non-scoring classifier'"),
        claim="The example has N = 100 observations and five classes.",
        published=exact((100, 100, 5), "N = 100, |G| = 5"),
        compute=label_vectors,
        verdict=REPRODUCED,
        measured=(100.0, 100.0, 5.0),
        note="Both R label vectors, rebuilt from their rep() calls, have 100 entries.",
    ),
    Record(
        id="tutorial-accuracy",
        source=_src("'Calculating accuracy and weighted accuracy'"),
        claim="The accuracy is 0.78.",
        published=printed("0.78"),
        compute=accuracy,
        verdict=REPRODUCED,
        measured=0.78,
        headline=True,
    ),
    Record(
        id="tutorial-weighted-accuracy",
        source=_src("'Calculating accuracy and weighted accuracy'"),
        claim="The weighted accuracy with uniform weights is 0.69.",
        published=printed("0.69"),
        compute=weighted_accuracy,
        verdict=REPRODUCED,
        measured=0.6928888888888889,
        headline=True,
    ),
    Record(
        id="tutorial-weighted-accuracy-formula",
        source=_src("'Accuracy and weighted accuracy', formula"),
        claim="Weighted accuracy = sum_k w_k sum_{x: g(x)=k} I(g(x) = ĝ(x)), which gives the "
        "printed 0.69 with w_k = 1/5.",
        published=printed("0.69"),
        compute=weighted_accuracy_formula_as_printed,
        verdict=DIFFERS,
        measured=15.600000000000001,
        reason="Taken literally the formula sums weighted counts of correct predictions (78/5 = "
        "15.6); it lacks the division by each class's size that the code and the printed 0.69 use.",
    ),
    Record(
        id="tutorial-weighted-accuracy-code",
        source=_src("'Calculating accuracy and weighted accuracy', calculate.w.accuracy"),
        claim="calculate.w.accuracy(predictions, ref.labels, weights) weights the per-class "
        "accuracies by the given weights.",
        published=identity("calculate.w.accuracy(w) = sum_k w_k acc_k"),
        compute=weighted_accuracy_code_uses_weights,
        verdict=DIFFERS,
        measured=0.08711111111111114,
        reason="calculate.w.accuracy checks the weights but never uses them (it returns "
        "mean(accs)); harmless for the tutorial's uniform weights.",
    ),
    Record(
        id="tutorial-precision-table",
        source=_src("'One-vs-all confusion matrices', byClass table"),
        claim="Precision of classes A-E: 0.9459459, 0.5625000, 0.8333333, 0.7931034, 0.1666667.",
        published=printed("0.9459459", "0.5625000", "0.8333333", "0.7931034", "0.1666667"),
        compute=precision_table,
        verdict=REPRODUCED,
        measured=(
            0.9459459459459459,
            0.5625,
            0.8333333333333334,
            0.7931034482758621,
            0.16666666666666666,
        ),
        note="caret's precision (Pos Pred Value) reads its table's rows, which are predictions: "
        "the column sums of the matrix with rows = reference.",
    ),
    Record(
        id="tutorial-recall-table",
        source=_src("'One-vs-all confusion matrices', byClass table"),
        claim="Recall of classes A-E: 0.7777778, 0.9000000, 0.6666667, 0.9200000, 0.2000000.",
        published=printed("0.7777778", "0.9000000", "0.6666667", "0.9200000", "0.2000000"),
        compute=recall_table,
        verdict=REPRODUCED,
        measured=(0.7777777777777778, 0.9, 0.6666666666666666, 0.92, 0.2),
    ),
    Record(
        id="tutorial-micro-f1",
        source=_src("'Overall performance with micro-averaged F1'"),
        claim="The micro-averaged F1 is 0.88.",
        published=printed("0.88"),
        compute=micro_f1,
        verdict=DIFFERS,
        measured=0.78,
        headline=True,
        reason="Micro F1 equals the accuracy, 0.78; the printed 0.88 comes from the typo x$positie "
        "in get.conf.stats, which makes every fn 0 (tutorial-micro-f1-printed-code).",
    ),
    Record(
        id="tutorial-micro-f1-printed-code",
        source=_src("'Overall performance with micro-averaged F1', get.conf.stats"),
        claim="The printed code (get.conf.stats, get.micro.f1) prints 0.88.",
        published=printed("0.88"),
        compute=micro_f1_printed_code,
        verdict=REPRODUCED,
        measured=0.8764044943820225,
        note="Transcribed with R's semantics: x$positie matches no element (partial matching "
        "needs a prefix), so colnames(x$table) != NULL is logical(0), which selects no row: "
        "fn = 0 for every class, precision 0.78, recall 1, F1 = 2(0.78)/(1.78) = 0.876.",
    ),
    Record(
        id="tutorial-macro-f1",
        source=_src("'Class-specific performance with macro-averaged F1'"),
        claim="The macro-averaged F1 (harmonic mean of macro precision and macro recall) is 0.68.",
        published=printed("0.68"),
        compute=macro_f1,
        verdict=REPRODUCED,
        measured=0.6762072050083562,
        headline=True,
    ),
    Record(
        id="tutorial-f1-relation-like-accuracy",
        source=_src("'Class-specific performance with macro-averaged F1'"),
        claim="Micro- and macro-averaged F1 have a similar relationship to each other as the "
        "overall (0.78) and weighted accuracy (0.69): the micro average is the larger.",
        published=bound("micro F1 - macro F1 > 0 and ACC - weighted ACC > 0", 0.0),
        compute=f1_relation_like_accuracy,
        verdict=REPRODUCED,
        measured=(0.10379279499164384, 0.08711111111111114),
        relation=">",
        note="Similar in sign and size once micro F1 is computed correctly: micro F1 is the "
        "accuracy (0.78), and macro F1 (0.676) and the weighted accuracy (0.693) both give "
        "each class the same weight.",
    ),
    Record(
        id="tutorial-ten-class-table",
        source=_src("'Micro and macro averages of the F1-score', 10-class example"),
        claim="With 10 classes of 10 observations, class 1's one-vs-all table is TP 8, FP 10, "
        "FN 2, TN 80.",
        published=exact((10, 100), "10 observations in class 1, 100 in all"),
        compute=ten_class_table_totals,
        verdict=REPRODUCED,
        measured=(10.0, 100.0),
    ),
    Record(
        id="tutorial-ten-class-specificity",
        source=_src("'Micro and macro averages of the F1-score', 10-class example"),
        claim="The specificity is 80 / (80 + 10) = 88.9%.",
        published=printed("88.9%"),
        compute=ten_class_specificity,
        verdict=REPRODUCED,
        measured=0.8888888888888888,
    ),
    Record(
        id="tutorial-ten-class-precision",
        source=_src("'Micro and macro averages of the F1-score', 10-class example"),
        claim="Class 1 was correctly predicted in 8 of 18 instances (precision 44.4%).",
        published=printed("44.4%"),
        compute=ten_class_precision,
        verdict=REPRODUCED,
        measured=0.4444444444444444,
    ),
    Record(
        id="tutorial-pr-curves-mean-auc",
        source=_src("'One-vs-all precision-recall curves'"),
        claim="The mean AUC of the three one-vs-all naive Bayes models on the tutorial's iris "
        "split is 0.99.",
        published=printed("0.99"),
        compute=pr_curves_mean_auc,
        verdict=REPRODUCED,
        measured=(0.9852834918973223, 0.9852834918973223),
        requires=tutorial_r.RSCRIPT,
        note="Run by R (paper_checks/tutorial.R) with the tutorial's seed and split; klaR's "
        "NaiveBayes written from its documentation (klaR is not packaged), ROCR's ROC AUC as "
        "its Mann-Whitney form. The code's performance(pred, 'auc') is the ROC AUC, not the area "
        "under the precision-recall curve the text names (that one is in the detail).",
    ),
    Record(
        id="tutorial-proc-multiclass-auc",
        source=_src("'Generalized AUC for a single decision value'"),
        claim="pROC's multiclass.roc on aSAH$gos6 by aSAH$s100b gives 0.654.",
        published=printed("0.654"),
        compute=proc_multiclass_auc,
        verdict=REPRODUCED,
        measured=(0.6539999352499353, 0.6539999352499353),
        requires=tutorial_r.RSCRIPT,
        note="Measured: pROC's value run by R, and the same mean computed by cenmcc from the "
        "aSAH data R exports. gos6 level 2 has no patient, so pROC averages the 6 pairs of "
        "the 4 present levels.",
    ),
    Record(
        id="tutorial-proc-mean-of-pairwise",
        source=_src("'Generalized AUC for a single decision value'"),
        claim="pROC's multi-class value 'is simply the mean AUC from all pairwise class "
        "comparisons'.",
        published=identity("multiclass.roc AUC = mean pairwise AUC", tolerance=1e-9),
        compute=proc_mean_of_pairs,
        verdict=REPRODUCED,
        measured=0.0,
        requires=tutorial_r.RSCRIPT,
        note="It holds with pROC's per-pair orientation: each pair's AUC is taken in the "
        "direction pROC picks from the two medians, so a pair never counts below 1/2 when the "
        "medians order it; with one fixed orientation the mean is far lower (detail). Tolerance "
        "1e-9: pROC's value is read back from 17 printed digits.",
    ),
    Record(
        id="tutorial-hand-till-rank-formula",
        source=_src("'Generalization of the AUC by Hand and Till'"),
        claim="A(i|j) = (S_i - n_i (n_i + 1)/2) / (n_i n_j) is the probability that a class-j "
        "member has a lower estimated probability of class i than a class-i member.",
        published=identity("rank-sum formula = pair fraction"),
        compute=hand_till_rank_formula,
        verdict=REPRODUCED,
        measured=0.0,
        note="Without ties. With ties, the printed compute.A.conditional (order() puts tied "
        "class-i scores first) counts them as not lower, where Hand & Till count 1/2.",
    ),
    Record(
        id="tutorial-hand-till-mean-of-pairs",
        source=_src("'Implementation of the AUC generalization from Hand and Till'"),
        claim="The generalized AUC printed, 0.991, is the mean of the printed pairwise AUCs "
        "1, 1 and 0.97254.",
        published=printed("0.991"),
        compute=hand_till_mean_of_printed_pairs,
        verdict=REPRODUCED,
        measured=0.9908466666666667,
    ),
    Record(
        id="tutorial-hand-till-0988",
        source=_src("text after the Hand and Till output"),
        claim="'Using this approach, the generalized AUC is 0.988', for the same computation.",
        published=printed("0.988"),
        compute=hand_till_mean_of_printed_pairs,
        verdict=DIFFERS,
        measured=0.9908466666666667,
        reason="The text contradicts the output printed just above it: the mean of the printed "
        "pairwise AUCs is 0.991.",
        note="Probably left from an earlier run.",
    ),
    Record(
        id="tutorial-hand-till-pair-auc-attainable",
        source=_src("'Implementation of the AUC generalization from Hand and Till', pair_AUCs"),
        claim="The versicolor/virginica AUC is 0.97254 on the 60-sample test split.",
        published=printed("0.97254"),
        compute=hand_till_pair_auc_attainable,
        kind="consistency",
        verdict=REPRODUCED,
        measured=0.9725400457665904,
        note="Arithmetic consistency only: (a + b) / (2 n_i n_j) can print as 0.97254 for "
        "plausible test-set class sizes, a search almost sure to succeed; R replays the split "
        "itself (tutorial-hand-till-iris-pairs-r).",
    ),
    Record(
        id="tutorial-hand-till-iris-spread",
        source=_src("'Implementation of the AUC generalization from Hand and Till' and after"),
        claim="Naive Bayes on a random 90/60 split of iris has Hand & Till's AUC 0.991 (the "
        "output) or 0.988 (the text).",
        published=printed("0.988", "0.991"),
        compute=hand_till_iris_spread,
        verdict=REPRODUCED,
        measured=(0.9839015151515151, 1.0),
        relation="covers",
        note="Measured: the central 95% interval of M for a Gaussian naive Bayes (klaR's "
        "defaults) over seeded random splits standing in for R's; both printed values are "
        "plausible, neither can be reproduced to the digit.",
    ),
    Record(
        id="tutorial-hand-till-iris-setosa-pairs",
        source=_src("'Implementation of the AUC generalization from Hand and Till', pair_AUCs"),
        claim="The setosa/versicolor and setosa/virginica AUCs are both 1.",
        published=printed("1.00000", "1.00000"),
        compute=hand_till_iris_setosa_pairs,
        verdict=REPRODUCED,
        measured=(1.0, 1.0),
        note="Measured: the median over seeded random splits (Gaussian naive Bayes).",
    ),
    Record(
        id="tutorial-hand-till-iris-third-pair",
        source=_src("'Implementation of the AUC generalization from Hand and Till', pair_AUCs"),
        claim="The versicolor/virginica AUC is 0.97254, slightly below 1.",
        published=printed("0.97254"),
        compute=hand_till_iris_third_pair,
        verdict=REPRODUCED,
        measured=(0.9517045454545454, 1.0),
        relation="covers",
        note="Measured: its central 95% interval over seeded random splits.",
    ),
    Record(
        id="tutorial-pr-curves-mean-auc-spread",
        source=_src("'One-vs-all precision-recall curves'"),
        claim="The three one-vs-all naive Bayes models on a random 90/60 split of iris have a "
        "mean AUC of 0.99.",
        published=printed("0.99"),
        compute=pr_curves_mean_auc_spread,
        verdict=REPRODUCED,
        measured=(0.974915200617284, 0.998288403936671),
        relation="covers",
        note="Measured: the central 95% interval of the mean one-vs-all ROC AUC over seeded "
        "random splits (ROC, as the code's performance(pred, 'auc') computes; the mean average "
        "precision, the area the text names, is in the detail).",
    ),
    Record(
        id="tutorial-hand-till-iris-0991",
        source=_src("'Implementation of the AUC generalization from Hand and Till'"),
        claim="Hand & Till's generalized AUC of naive Bayes on the tutorial's iris split is 0.991.",
        published=printed("0.991"),
        compute=hand_till_iris_current_sampler,
        verdict=REPRODUCED,
        measured=(0.9908466819221968, 0.9908466819221968),
        headline=True,
        requires=tutorial_r.RSCRIPT,
        note="Measured: M by the tutorial's own multiclass.auc run by R (current sampler, "
        "R >= 3.6), then by cenmcc on the same posteriors.",
    ),
    Record(
        id="tutorial-hand-till-iris-0988",
        source=_src("text after the Hand and Till output"),
        claim="Hand & Till's generalized AUC on the same split is 0.988.",
        published=printed("0.988"),
        compute=hand_till_iris_old_sampler,
        verdict=REPRODUCED,
        measured=(0.9875776397515528, 0.9875776397515529),
        requires=tutorial_r.RSCRIPT,
        note="Measured as tutorial-hand-till-iris-0991, but with the sampler R used before 3.6 "
        "(sample.kind = 'Rounding'): the text's 0.988 is the same script on an older R, which "
        "explains its contradiction with the printed output (tutorial-hand-till-0988).",
    ),
    Record(
        id="tutorial-hand-till-iris-pairs-r",
        source=_src("'Implementation of the AUC generalization from Hand and Till', pair_AUCs"),
        claim="The pairwise AUCs are 1.00000 (setosa/versicolor), 1.00000 (setosa/virginica) "
        "and 0.97254 (versicolor/virginica).",
        published=printed(
            "1.00000",
            "1.00000",
            "0.97254",
            "1.00000",
            "1.00000",
            "0.97254",
            label="1.00000, 1.00000, 0.97254 (by R's code, then by cenmcc)",
        ),
        compute=hand_till_iris_pairs_r,
        verdict=REPRODUCED,
        measured=(1.0, 1.0, 0.9725400457665904, 1.0, 1.0, 0.9725400457665904),
        requires=tutorial_r.RSCRIPT,
        note="The tutorial's script run by R with the current sampler.",
    ),
)
