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
    # where the balanced accuracy of C and of its transpose is defined: no empty row or column
    smaller = smaller[(smaller.sum(axis=-1) > 0).all(-1) & (smaller.sum(axis=-2) > 0).all(-1)]
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


def _correct_per_error(C):
    """Items right per item wrong: infinite (the best value) exactly on a perfect matrix."""
    correct = np.einsum("...ii->...", C).astype(np.float64)
    with np.errstate(divide="ignore"):
        return correct / (C.sum(axis=(-2, -1)) - correct)


def test_an_infinite_best_value_is_equal_only_to_itself():
    """Issue 45 item 6: with best = inf, ``|v - inf| <= tolerance * inf`` made every value
    equal to the best: maximal agreement failed on the first imperfect matrix of a measure that
    has it, and a measure whose perfect matrices miss the best passed its range."""
    odds = _user("correct_per_error", _correct_per_error, bounds=(0.0, math.inf))
    report = audit(odds, 2, ["range", "maximal_agreement"], n_items=4, n_random=0)
    assert report["maximal_agreement"].holds is True
    assert report["range"].holds is True
    assert report["range"].details["max"] == math.inf  # the perfect matrices are audited

    def shifted(C):  # (correct + 1) / (wrong + 1): finite on a perfect matrix
        correct = np.einsum("...ii->...", C)
        return (correct + 1.0) / (C.sum(axis=(-2, -1)) - correct + 1.0)

    finite = _user("shifted_odds", shifted, bounds=(0.0, math.inf))
    report = audit(finite, 2, ["range", "maximal_agreement"], n_items=4, n_random=0)
    for result in report.values():
        assert result.holds is False
        assert result.counterexample == {
            "matrices": [[[0, 0], [0, 1]]],
            "values": [2.0],
            "why": "perfect, not the best value",
        }


@pytest.mark.parametrize("every_class_present", [False, True])
def test_an_audit_without_random_matrices_runs(every_class_present):
    """Issue 45 item 13: ``n_random=0`` (documented as allowed) failed with an internal
    reshape error on the empty random segment."""
    report = audit("mcc", 3, n_items=3, n_random=0, every_class_present=every_class_present)
    assert report["symmetry"].holds is True
    method = report["monotonicity"].method
    assert method.startswith(
        "exhaustive: every 3×3 matrix of 1 to 3 items ("
        f"{len(cenmcc.matrices_with_total(range(1, 4), 3))} matrices; left out: "
    )
    assert "random" not in method


def test_the_audit_never_writes_into_the_array_a_user_measure_returns():
    """Issue 45 item 19: the audit left out the matrices outside its domain by writing NaN
    into the user's array (and failed on a read-only one)."""
    returned = []

    def kept(C):
        values = cenmcc.accuracy(C)
        returned.append((values, values.copy()))
        return values

    def read_only(C):
        values = cenmcc.accuracy(C)
        values.flags.writeable = False
        return values

    options = {"n_items": 3, "n_random": 0, "every_class_present": True}
    report = audit(_user("kept", kept, bounds=(0.0, 1.0)), 2, ["symmetry"], **options)
    assert report["symmetry"].holds is True
    assert all(np.array_equal(values, copy) for values, copy in returned)
    report = audit(_user("read_only", read_only, bounds=(0.0, 1.0)), 2, ["symmetry"], **options)
    assert report["symmetry"].holds is True


def test_one_rule_leaves_out_the_matrices_where_a_measure_meets_a_0_over_0():
    """Issue 45 item 24: the audit left out the matrices where the informedness filled a 0/0
    but kept those where the balanced accuracy left a 0/0 recall out of its mean, so for
    K = 2, where one is an affine function of the other (BM = 2 BA - 1), they were audited on
    different matrices. Now both leave out every matrix their warning counts, and each
    result's method says how many."""
    from cenmcc.properties._audit import _values

    M = cenmcc.matrices_with_total(range(1, 7), 2)
    left_out = np.isnan(_values(cenmcc.MEASURES["balanced_accuracy"], M))
    assert left_out.tolist() == np.isnan(_values(cenmcc.MEASURES["informedness"], M)).tolist()
    assert left_out.tolist() == (M.sum(axis=-1) == 0).any(axis=-1).tolist()  # a class not true
    result = audit("balanced_accuracy", 2, ["symmetry"], n_items=2, n_random=0)["symmetry"]
    # by hand: 4 matrices of 1 item, each with an empty row; 6 of the 10 of 2 items
    assert (
        result.method
        == "exhaustive: every 2×2 matrix of 1 to 2 items (14 matrices; left out: 10 undefined)"
    )
    result = audit("mcc", 2, ["symmetry"], n_items=2, n_random=0, every_class_present=True)
    # by hand: [[1, 0], [0, 1]] and [[0, 1], [1, 0]] have every class true and predicted
    assert result["symmetry"].method == (
        "exhaustive: every 2×2 matrix of 1 to 2 items "
        "(14 matrices; left out: 12 without every class, 0 undefined)"
    )


def test_a_counterexample_of_the_random_search_is_not_called_the_smallest():
    """Issue 45 item 24: with every class present, the MCC's monotonicity for K = 3 holds on
    the exhaustive range (12 items) and fails beyond it: the counterexample the random search
    finds (47 items here) is labelled as not the smallest (one of 14 items exists)."""
    options = {"n_random": 10**4, "seed": 2021, "every_class_present": True}
    report = audit("mcc", 3, ["monotonicity", "symmetry", "distance"], **options)
    result = report["monotonicity"]
    assert result.holds is False
    assert result.smallest is False
    assert "random search" in result.method
    assert report["symmetry"].smallest is None  # no counterexample
    assert report["distance"].smallest is True
    small = audit("mcc", 3, ["monotonicity"], n_items=3, n_random=0)["monotonicity"]
    assert small.holds is True
    found = audit("cen", 2, ["monotonicity"], n_items=6, n_random=0)["monotonicity"]
    assert found.holds is False
    assert found.smallest is True


def test_help_of_the_package_defines_every_property():
    """Issue 45 item 24: ``help(cenmcc.properties)``, which the README points to for the
    definitions, showed the dict of check functions, not what each property means."""
    import pydoc

    text = pydoc.render_doc(cenmcc.properties, renderer=pydoc.plaintext)
    for name, check in cenmcc.properties.PROPERTIES.items():
        first_line = check.__doc__.strip().splitlines()[0]
        assert f"\n    {name}\n        {first_line}" in text, name


def test_an_audit_that_cannot_fit_is_refused_before_any_work(monkeypatch):
    """Issue 45 item 16: ``audit`` at K = 20 ended in a MemoryError after 35 s; what cannot
    fit is now refused at once, in one line with both figures, before a matrix is drawn."""
    from cenmcc.properties import _audit

    with pytest.raises(ValueError, match=r"^the audit of 'mcc' for K = 20 needs about [\d,.]+ "):
        audit("mcc", 20, n_random=10**12)  # 32 TB of counts: on no machine

    def no_work(*args, **kwargs):
        raise AssertionError("the audit began its work")

    monkeypatch.setattr(_audit, "matrices_with_total", no_work)
    monkeypatch.setattr(cenmcc.properties, "available_bytes", lambda: 2**30)
    message = (
        r"the audit of 'mcc' for K = 20 needs about [\d.]+ GiB of memory \(80,600 matrices of 1 "
        r"to 2 items and 1,000,000 random ones\), more than the 1\.0 GiB available on this "
        r"machine: lower n_random or n_items$"
    )
    with pytest.raises(ValueError, match=message):
        audit("mcc", 20)


def test_an_audit_in_blocks_finds_what_it_finds_at_once(monkeypatch):
    """Issue 45 item 16: the checks go block by block; with blocks of a few matrices the
    verdicts and counterexamples are those of one block (on the exhaustive matrices: the
    random ones are drawn block by block too, each block from its own seed)."""
    from cenmcc.properties import _audit

    options = {"n_items": 5, "n_random": 0, "every_class_present": False}
    whole = {name: audit(name, 2, **options) for name in ("cen", "balanced_accuracy")}
    monkeypatch.setattr(_audit, "BLOCK_CELLS", 4 * 7)  # 7 matrices a block
    assert _audit.block_rows(2) == 7
    for name, report in whole.items():
        assert audit(name, 2, **options) == report
