"""The measures of Powers (2011), Gösgens et al. (2021) and Delgado & Núñez-González (2019)
against independent oracles, and the audit of measure properties (:mod:`cenmcc.properties`)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import cenmcc

pycm = pytest.importorskip("pycm")

#: Matrices in which every class has errors in its row and its column (PyCM's MCEN is "None"
#: where a class has none).
ORACLE_MATRICES = [
    [[20, 5], [10, 65]],
    [[3, 7], [9, 1]],
    [[3, 1, 2], [1, 4, 1], [2, 2, 5]],
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
    [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]],
]


def _pycm(C):
    K = len(C)
    table = {i: {j: int(C[i][j]) for j in range(K)} for i in range(K)}
    return pycm.ConfusionMatrix(matrix=table)


def _powers_eq42(C) -> Fraction:
    """Powers (2011) Eq. (42), transcribed in fractions: ``sum_k (t_k / s) (C_kk / t_k -
    FP_k / (s - t_k))``, the one-versus-rest informedness weighted by the prevalence."""
    F = [[Fraction(x) for x in row] for row in C]
    K = len(F)
    t = [sum(row) for row in F]
    p = [sum(F[i][k] for i in range(K)) for k in range(K)]
    s = sum(t)
    total = Fraction(0)
    for k in range(K):
        if t[k] and s - t[k]:
            total += t[k] / s * (F[k][k] / t[k] - (p[k] - F[k][k]) / (s - t[k]))
    return total


@pytest.mark.parametrize("C", ORACLE_MATRICES)
def test_mcen_against_pycm(C):
    assert float(cenmcc.mcen(C)) == pytest.approx(_pycm(C).overall_stat["Overall MCEN"], 1e-13)


@pytest.mark.parametrize("C", ORACLE_MATRICES)
def test_informedness_and_markedness_against_exact_fractions_and_pycm(C):
    assert float(cenmcc.informedness(C)) == pytest.approx(float(_powers_eq42(C)), 1e-15)
    transposed = np.transpose(C).tolist()  # Eq. (43) is Eq. (42) of the transposed matrix
    assert float(cenmcc.markedness(C)) == pytest.approx(float(_powers_eq42(transposed)), 1e-15)
    # PyCM gives each class's BM and MK and no multi-class form: weighted as Powers's
    # Eqs. (42) and (43) weight them, by the true and by the predicted class sizes.
    stats = _pycm(C).class_stat
    s, t, p = np.sum(C), np.sum(C, axis=1), np.sum(C, axis=0)
    bm = sum(t[k] / s * stats["BM"][k] for k in range(len(C)))
    mk = sum(p[k] / s * stats["MK"][k] for k in range(len(C)))
    assert float(cenmcc.informedness(C)) == pytest.approx(bm, 1e-13)
    assert float(cenmcc.markedness(C)) == pytest.approx(mk, 1e-13)


@pytest.mark.parametrize("C", ORACLE_MATRICES[:2])
def test_binary_forms(C):
    (tp, fn), (fp, tn) = C
    tpr, tnr, ppv, npv = tp / (tp + fn), tn / (tn + fp), tp / (tp + fp), tn / (tn + fn)
    assert float(cenmcc.informedness(C)) == pytest.approx(tpr + tnr - 1, 1e-14)
    assert float(cenmcc.markedness(C)) == pytest.approx(ppv + npv - 1, 1e-14)
    assert float(cenmcc.symmetric_balanced_accuracy(C)) == pytest.approx(
        (tpr + tnr + ppv + npv) / 4, 1e-14
    )
    # Powers (2011): for two classes the MCC is the geometric mean of BM and MK.
    product = float(cenmcc.informedness(C) * cenmcc.markedness(C))
    assert float(cenmcc.mcc(C)) ** 2 == pytest.approx(product, 1e-13)


@pytest.mark.parametrize("C", ORACLE_MATRICES)
def test_symmetric_balanced_accuracy_and_correlation_distance(C):
    sba = (cenmcc.balanced_accuracy(C) + cenmcc.balanced_accuracy(np.transpose(C))) / 2
    assert float(cenmcc.symmetric_balanced_accuracy(C)) == pytest.approx(float(sba), 1e-15)
    expected = math.acos(_pycm(C).overall_stat["Overall MCC"]) / math.pi
    assert float(cenmcc.correlation_distance(C)) == pytest.approx(expected, 1e-12)


def test_new_measures_are_named():
    for name in ("informedness", "markedness", "symmetric_balanced_accuracy"):
        assert cenmcc.MEASURES[name].greater_is_better
    for name in ("correlation_distance", "mcen"):
        assert not cenmcc.MEASURES[name].greater_is_better
        assert cenmcc.MEASURES[name].best == 0.0


# --- the audit ---------------------------------------------------------------------------------

audit = cenmcc.properties.audit

#: Small enough for a fast test, large enough for every counterexample below.
FAST = {"n_items": 6, "n_random": 2000}


def _smallest(C) -> int:
    return int(np.sum(C))


def _quiet(metric, C):
    """``metric(C)`` with its UndefinedMetricWarning ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        return metric(C)


def test_accuracy_has_no_constant_baseline():
    """Accuracy favours the majority class: one item, always right or always wrong."""
    result = audit("accuracy", 2, ["constant_baseline"], **FAST)["constant_baseline"]
    assert result.holds is False
    first, second = result.counterexample["margins"]
    # By hand: true sizes (0, 1) and predicted (0, 1) leave one matrix, [[0, 0], [0, 1]],
    # accuracy 1; predicted (1, 0) leaves [[0, 0], [1, 0]], accuracy 0.
    assert first == {"true": [0, 1], "predicted": [0, 1]}
    assert second == {"true": [0, 1], "predicted": [1, 0]}
    assert result.counterexample["expected"] == [1.0, 0.0]
    assert result.method.startswith("exact")


def test_balanced_accuracy_is_not_symmetric_and_the_counterexample_is_smallest():
    result = audit("balanced_accuracy", 2, ["symmetry"], **FAST)["symmetry"]
    assert result.holds is False
    C, transposed = result.counterexample["matrices"]
    assert transposed == np.transpose(C).tolist()
    values = [float(_quiet(cenmcc.balanced_accuracy, X)) for X in (C, transposed)]
    assert result.counterexample["values"] == pytest.approx(values, abs=0)
    assert abs(values[0] - values[1]) > 1e-12
    smaller = cenmcc.matrices_with_total(range(1, _smallest(C)), 2)
    ba = _quiet(cenmcc.balanced_accuracy, smaller)
    ba_t = _quiet(cenmcc.balanced_accuracy, np.swapaxes(smaller, -1, -2))
    assert np.allclose(ba, ba_t, rtol=0, atol=1e-12)  # no smaller counterexample


def test_binary_cen_is_not_monotone():
    """The papers' binary CEN above 1: correcting an item can raise CEN (Jurman et al. 2012)."""
    result = audit("cen", 2, ["monotonicity"], **FAST)["monotonicity"]
    assert result.holds is False
    C, corrected = (np.array(x) for x in result.counterexample["matrices"])
    moved = C - corrected
    assert moved.sum() == 0
    assert np.count_nonzero(moved) == 2
    i, j = np.argwhere(moved == 1)[0]
    assert i != j
    assert corrected[i, i] == C[i, i] + 1  # one item of class i corrected
    before, after = float(cenmcc.cen(C)), float(cenmcc.cen(corrected))
    assert result.counterexample["values"] == [before, after]
    assert after > before  # CEN is an entropy: higher is worse


def test_mcc_is_not_a_distance_but_the_correlation_distance_is():
    result = audit("mcc", 2, ["distance"], **FAST)["distance"]
    assert result.holds is False
    x_z, x_y, y_z = (1 - float(cenmcc.mcc(C)) for C in result.counterexample["matrices"])
    assert result.counterexample["distances"] == pytest.approx([x_z, x_y, y_z], abs=1e-15)
    assert x_z > x_y + y_z
    x, _, z = result.counterexample["labelings"]
    assert (
        result.counterexample["matrices"][0]
        == cenmcc.confusion_matrix(x, z, labels=[0, 1]).tolist()
    )
    assert audit("correlation_distance", 2, ["distance"], **FAST)["distance"].holds is True
    assert audit("accuracy", 3, ["distance"], **FAST)["distance"].holds is True  # Hamming


def test_accuracy_changes_with_true_negatives():
    result = audit("accuracy", 2, ["sl_true_negatives"], **FAST)["sl_true_negatives"]
    assert result.holds is False
    C, more = result.counterexample["matrices"]
    assert np.subtract(more, C).tolist() == [[0, 0], [0, 1]]
    assert result.counterexample["values"] == [
        float(cenmcc.accuracy(C)),
        float(cenmcc.accuracy(more)),
    ]


def _user(name, function, **fields):
    return cenmcc.Measure(name, function, fields.pop("greater_is_better", True), **fields)


def test_measures_built_to_fail_are_caught_with_their_counterexample():
    def recall_0(C):
        """The recall of class 0 alone: NaN (undefined) without true samples of class 0."""
        counts = np.asarray(C.C if isinstance(C, cenmcc.Counts) else C, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            return counts[..., 0, 0] / counts[..., 0, :].sum(axis=-1)

    doubled = _user("doubled", lambda C: 2 * cenmcc.accuracy(C), bounds=(0.0, 1.0))
    result = audit(doubled, 2, ["range"], **FAST)["range"]
    assert result.holds is False
    (C,) = result.counterexample["matrices"]
    assert result.counterexample["values"] == [2 * float(cenmcc.accuracy(C))] == [2.0]
    assert _smallest(C) == 1

    report = audit(_user("recall_0", recall_0, bounds=(0.0, 1.0)), 2, **FAST)
    (C,) = report["maximal_agreement"].counterexample["matrices"]
    assert not np.array_equal(C, np.diag(np.diag(C)))  # imperfect, yet recall 1
    assert float(recall_0(C)) == 1.0
    C, permuted = report["class_permutation"].counterexample["matrices"]
    assert float(recall_0(C)) != float(recall_0(permuted))
    assert report["symmetry"].holds is False

    shifted = _user(
        "shifted",
        lambda C: cenmcc.accuracy(C) * C.sum((-2, -1)) / (C.sum((-2, -1)) + 1),
        bounds=(0.0, 1.0),
    )
    result = audit(shifted, 2, ["scale_invariance"], **FAST)["scale_invariance"]
    assert result.holds is False
    C, scaled = (np.array(x) for x in result.counterexample["matrices"])
    assert np.array_equal(scaled, 2 * C)


@pytest.mark.parametrize("K", [2, 3])
def test_properties_with_proofs_are_never_reported_failing(K):
    """Symmetry, class relabelling and scaling leave the MCC and kappa unchanged; their
    expectation under random predictions is 0 (the numerator's expectation is 0 given the
    margins); accuracy is class-permutation invariant and symmetric."""
    known = ["symmetry", "class_permutation", "scale_invariance", "constant_baseline"]
    for name in ("mcc", "cohen_kappa"):
        report = audit(name, K, known, **FAST)
        assert all(result.holds for result in report.values()), name
        assert report["constant_baseline"].details["expected"] == pytest.approx(0, abs=1e-12)
    report = audit("accuracy", K, ["symmetry", "class_permutation", "strict_monotonicity"], **FAST)
    assert all(result.holds for result in report.values())
    report = audit("balanced_accuracy", 2, ["sl_positives_scaled", "sl_negatives_scaled"], **FAST)
    assert all(result.holds for result in report.values())


def test_a_user_measure_is_audited():
    youden = _user("youden", lambda C: cenmcc.informedness(C), bounds=(-1.0, 1.0))
    report = audit(youden, 2, **FAST)
    assert report["class_permutation"].holds is True
    assert report["symmetry"].holds is False
    assert set(report) == set(cenmcc.properties.PROPERTIES)
    assert "exhaustive" in report["symmetry"].method


def test_default_range_is_exhaustive_to_twelve_items_for_three_classes():
    assert cenmcc.properties._default_items(3) == 12


def test_bad_input_raises_one_clear_line():
    with pytest.raises(ValueError, match=r"unknown property 'symetry'; the known ones are \["):
        audit("mcc", 2, ["symetry"])
    with pytest.raises(ValueError, match="'sl_exchange' is defined for K = 2 only, got K = 3"):
        audit("mcc", 3, ["sl_exchange"])
    with pytest.raises(ValueError, match="unknown measure 'mmc'"):
        audit("mmc", 2)
    with pytest.raises(TypeError, match=r"cenmcc\.Measure"):
        audit(cenmcc.weighted_accuracy, 2)
    nowhere = _user("nowhere", lambda C: np.full(C.shape[:-2], np.nan), bounds=(0.0, 1.0))
    with pytest.raises(ValueError, match=r"'nowhere' is undefined on every 2×2 matrix of 1 to 3"):
        audit(nowhere, 2, n_items=3, n_random=0)
    with pytest.raises(ValueError, match="n_classes must be at least 2"):
        audit("mcc", 1)


def test_every_class_present_gives_the_results_of_goesgens_et_al():
    """On matrices where every class is true and predicted: balanced accuracy has a constant
    baseline (1/K), the correlation distance is a distance but has no constant baseline."""
    options = {**FAST, "every_class_present": True}
    report = audit("balanced_accuracy", 3, ["constant_baseline"], **options)
    assert report["constant_baseline"].details["expected"] == pytest.approx(1 / 3, abs=1e-12)
    report = audit("correlation_distance", 2, ["distance", "constant_baseline"], **options)
    assert report["distance"].holds is True
    first, second = report["constant_baseline"].counterexample["margins"]
    assert first == {"true": [1, 1], "predicted": [1, 1]}  # by hand: MCC ±1, CD 0 or 1
    assert report["constant_baseline"].counterexample["expected"][0] == 0.5
    assert all(min(m["true"] + m["predicted"]) > 0 for m in (first, second))


def test_the_constant_baseline_beyond_the_exhaustive_range_is_sampled():
    """Constant (1/2) up to 6 items, the accuracy beyond: caught by the sampled margins."""

    def function(C):
        return np.where(C.sum((-2, -1)) > 6, cenmcc.accuracy(C), 0.5)

    late = _user("late", function, bounds=(0.0, 1.0))
    result = audit(late, 2, ["constant_baseline"], n_items=6, n_random=20_000)
    result = result["constant_baseline"]
    assert result.holds is False
    assert "sampled" in result.method
    (margins,) = result.counterexample["margins"]
    assert sum(margins["true"]) > 6
    constant, mean = result.counterexample["expected"]
    assert constant == 0.5
    # By hand: the expected accuracy given the margins is sum_k t_k p_k / s^2.
    t, p = np.array(margins["true"]), np.array(margins["predicted"])
    exact = float(t @ p) / t.sum() ** 2
    assert abs(mean - exact) < 5 * result.counterexample["standard_error"] + 1e-12
    assert abs(exact - 0.5) > 0.01  # by hand, those margins' expectation is not the constant


def test_a_constant_baseline_undefined_on_every_pair_of_margins_is_undecided():
    """With every class present, K = 2, to 2 items, the one pair of margins (1, 1), (1, 1)
    holds [[1, 0], [0, 1]] and [[0, 1], [1, 0]]; a measure undefined on the second has an
    exact expectation for no pair of margins: the audit says so (None) rather than failing
    with an IndexError."""

    def function(C):
        C = np.asarray(C, dtype=np.float64)
        return np.where(np.einsum("...ii->...", C) > 0, cenmcc.accuracy(C), np.nan)

    measure = _user("defined_with_a_hit", function, bounds=(0.0, 1.0), undefined=0.0)
    result = audit(
        measure, 2, ["constant_baseline"], n_items=2, n_random=0, every_class_present=True
    )["constant_baseline"]
    assert result.holds is None
    assert result.counterexample is None
    assert "undecided" in result.method


@pytest.mark.parametrize("name", list(cenmcc.MEASURES))
def test_the_audit_leaves_out_the_same_matrices_in_a_stack_as_one_by_one(name):
    """Each metric's 0/0 mask has one row per matrix: the matrices the audit leaves out as
    undefined in a stack are those undefined alone (the F1 of the macro averages once laid
    its mask out class by class over the whole block, and the audit left out other matrices)."""
    from cenmcc.properties._audit import _values

    M = cenmcc.matrices_with_total(range(1, 4), 3)
    stacked = np.isnan(_values(cenmcc.MEASURES[name], M))
    alone = [np.isnan(_values(cenmcc.MEASURES[name], C[None]))[0] for C in M]
    assert stacked.tolist() == alone


def test_the_sampled_predictions_follow_the_hypergeometric_law_of_their_margins():
    """The sampled constant baseline's matrices keep their margins exactly, and each cell's
    mean is ``t_i p_j / s`` (the mean of the hypergeometric law) within 5 standard errors."""
    from cenmcc.properties._checks import _random_tables

    t = np.array([[2, 7, 4], [1, 1, 10]])
    p = np.array([[5, 5, 3], [4, 4, 4]])
    C = _random_tables(np.random.default_rng(0), t, p, 20_000)
    assert C.shape == (2, 20_000, 3, 3)
    assert np.array_equal(C.sum(axis=-1), np.broadcast_to(t[:, None], (2, 20_000, 3)))
    assert np.array_equal(C.sum(axis=-2), np.broadcast_to(p[:, None], (2, 20_000, 3)))
    expected = t[:, :, None] * p[:, None, :] / t.sum(axis=-1)[:, None, None]
    error = C.std(axis=1) / math.sqrt(20_000)
    assert np.all(np.abs(C.mean(axis=1) - expected) <= 5 * error + 1e-12)
