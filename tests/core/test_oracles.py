"""Agreement with independent implementations: PyCM and scikit-learn, within 1e-12.

Documented differences:
- PyCM returns the string "None" for the overall CEN of a matrix with an empty class (its CEN_j is
  0/0 there), where Eq. (1) gives the empty class weight P_j = 0 and CEN is defined; and "None"
  for the MCC where it is 0/0, which cenmcc (like the papers and scikit-learn) sets to 0.
- scikit-learn's balanced accuracy leaves classes without true samples out of the mean, as
  cenmcc does; its kappa is NaN where kappa is 0/0, which cenmcc fills with 0.
"""

import warnings

import exact
import numpy as np
import pytest
from pycm import ConfusionMatrix
from pycm.class_funcs import CEN_calc
from pycm.overall_funcs import overall_CEN_calc, overall_MCC_calc
from sklearn import metrics as skm

import cenmcc

KS = range(2, 8)


def _labels(C):
    """Label vectors and sample weights that scikit-learn turns back into C."""
    K = C.shape[-1]
    return np.repeat(np.arange(K), K), np.tile(np.arange(K), K), C.ravel().astype(float)


def _sklearn(fn, C, **kw):
    y_true, y_pred, w = _labels(C)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(y_true, y_pred, sample_weight=w, **kw)


def _pycm_internals(C):
    """PyCM's own CEN and MCC functions (the ones its ConfusionMatrix calls), per matrix."""
    K = C.shape[-1]
    classes = list(range(K))
    table = {i: {j: int(C[i, j]) for j in classes} for i in classes}
    P = {i: int(C[i].sum()) for i in classes}  # actual positives: row sums
    TOP = {i: int(C[:, i].sum()) for i in classes}  # predicted positives: column sums
    TP = {i: int(C[i, i]) for i in classes}
    cen_j = {i: CEN_calc(classes, table, TOP[i], P[i], i) for i in classes}
    return overall_CEN_calc(classes, TP, TOP, P, cen_j), overall_MCC_calc(classes, table, TOP, P)


@pytest.mark.parametrize("K", KS)
def test_cen_and_mcc_against_pycm_functions(zoo, K):
    C = zoo[K]
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        ours_mcc = cenmcc.mcc(C)
    ours_cen = cenmcc.cen(C)
    n_none = {"cen": 0, "mcc": 0}
    for c, our_cen, our_mcc in zip(C, ours_cen, ours_mcc, strict=True):
        pycm_cen, pycm_mcc = _pycm_internals(c)
        empty_class = ((c.sum(axis=0) + c.sum(axis=1)) == 0).any()
        if pycm_cen == "None":
            assert empty_class  # PyCM gives up only where a class is empty
            n_none["cen"] += 1
        else:
            assert our_cen == pytest.approx(pycm_cen, abs=1e-12)
        if pycm_mcc == "None":
            assert our_mcc == 0.0
            n_none["mcc"] += 1
        else:
            assert our_mcc == pytest.approx(pycm_mcc, abs=1e-12)
    # The zoo holds such matrices on purpose, so both documented differences are exercised.
    assert n_none["cen"] > 0
    assert n_none["mcc"] > 0


def test_cen_and_mcc_against_pycm_public_api(zoo):
    for stack in zoo.values():
        for C in stack[:25]:
            cm = ConfusionMatrix(
                matrix={i: dict(enumerate(map(int, row))) for i, row in enumerate(C)}
            )
            if cm.overall_stat["Overall CEN"] != "None":
                assert cenmcc.cen(C) == pytest.approx(cm.overall_stat["Overall CEN"], abs=1e-12)
            if cm.overall_stat["Overall MCC"] != "None":
                assert cenmcc.mcc(C) == pytest.approx(cm.overall_stat["Overall MCC"], abs=1e-12)


@pytest.mark.parametrize("K", KS)
def test_scalar_metrics_against_scikit_learn(zoo, K):
    C = zoo[K][:200]  # scikit-learn needs ~2 ms per call: 1,200 matrices over all K
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        mcc, kappa = cenmcc.mcc(C), cenmcc.cohen_kappa(C)
    balanced = cenmcc.balanced_accuracy(C) if (C.sum(axis=-1) > 0).all() else None
    for i, c in enumerate(C):
        assert mcc[i] == pytest.approx(_sklearn(skm.matthews_corrcoef, c), abs=1e-12)
        expected_kappa = _sklearn(skm.cohen_kappa_score, c, labels=np.arange(K))
        if np.isnan(expected_kappa):
            assert kappa[i] == 0.0  # 0/0: our documented fill
        else:
            assert kappa[i] == pytest.approx(expected_kappa, abs=1e-12)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
            ours = cenmcc.balanced_accuracy(c) if balanced is None else balanced[i]
        assert ours == pytest.approx(_sklearn(skm.balanced_accuracy_score, c), abs=1e-12)


@pytest.mark.parametrize("K", KS)
def test_precision_recall_f1_against_scikit_learn(zoo, K):
    C = zoo[K][:60]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        ours = {
            avg: np.stack(
                [cenmcc.precision(C, avg), cenmcc.recall(C, avg), cenmcc.f1_score(C, avg)]
            )
            for avg in (None, "micro", "macro", "weighted")
        }
    for avg, values in ours.items():
        for i, c in enumerate(C):
            expected = _sklearn(
                skm.precision_recall_fscore_support,
                c,
                labels=np.arange(K),
                average=avg,
                zero_division=0,
            )[:3]
            np.testing.assert_allclose(values[:, i], expected, atol=1e-12)


def test_confusion_matrix_against_scikit_learn():
    rng = np.random.default_rng(1)
    for _ in range(50):
        K = int(rng.integers(2, 6))
        n = int(rng.integers(1, 200))
        y_true, y_pred = rng.integers(0, K, n), rng.integers(0, K, n)
        w = rng.random(n)
        labels = np.arange(K)
        np.testing.assert_array_equal(
            cenmcc.confusion_matrix(y_true, y_pred, labels=labels),
            skm.confusion_matrix(y_true, y_pred, labels=labels),
        )
        np.testing.assert_allclose(
            cenmcc.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w),
            skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w),
            atol=1e-12,
        )


@pytest.mark.parametrize("K", KS)
def test_macro_and_micro_mcc_against_scikit_learn_one_vs_rest(zoo, K):
    """Each class's MCC against the rest is scikit-learn's MCC of the labels binarised for it;
    the micro MCC is its MCC of the K binarised label vectors end to end (the pooled table)."""
    C = zoo[K][:20]  # scikit-learn needs ~2 ms per call
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        macro, micro = cenmcc.macro_mcc(C), cenmcc.micro_mcc(C)
    y_true, y_pred, _ = _labels(C[0])
    for i, c in enumerate(C):
        w = c.ravel().astype(float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            per_class = [
                skm.matthews_corrcoef(y_true == k, y_pred == k, sample_weight=w) for k in range(K)
            ]
            pooled = skm.matthews_corrcoef(
                np.concatenate([y_true == k for k in range(K)]),
                np.concatenate([y_pred == k for k in range(K)]),
                sample_weight=np.tile(w, K),
            )
        assert macro[i] == pytest.approx(np.mean(per_class), abs=1e-12)
        assert micro[i] == pytest.approx(pooled, abs=1e-12)


@pytest.mark.parametrize("K", KS)
def test_macro_mcc_against_its_exact_value(zoo, K):
    """Float64 from the marginals: within 1e-12 of its exact value on counts of this size."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        values = cenmcc.macro_mcc(zoo[K][:60])
    for c, value in zip(zoo[K][:60], values, strict=True):
        expected = float(exact.macro_mcc(exact.fractions_of(c.tolist())))
        assert value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("K", [2, 3, 5])
def test_informedness_and_markedness_against_pycm_per_class(K):
    """PyCM gives each class's one-versus-rest BM and MK and no multi-class form: cenmcc's
    informedness and markedness are their means weighted by the true and by the predicted
    class sizes (Powers 2011, Eqs. (42) and (43), as the docstrings state)."""
    rng = np.random.default_rng(40 + K)
    for C in rng.integers(1, 20, size=(10, K, K)):
        cm = ConfusionMatrix(matrix={i: {j: int(C[i, j]) for j in range(K)} for i in range(K)})
        bm = np.array([cm.BM[k] for k in range(K)])
        mk = np.array([cm.MK[k] for k in range(K)])
        s = C.sum()
        assert cenmcc.informedness(C) == pytest.approx(C.sum(axis=1) @ bm / s, abs=1e-12)
        assert cenmcc.markedness(C) == pytest.approx(C.sum(axis=0) @ mk / s, abs=1e-12)
