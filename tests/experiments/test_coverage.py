"""The coverage experiment: its populations, cells and figure, and the macro and micro MCC in it."""

import numpy as np
import pytest

import cenmcc


@pytest.mark.parametrize("balance", ["balanced", "imbalanced"])
def test_coverage_populations_have_their_priors_and_recall(balance):
    from experiments.coverage.settings import IMBALANCE, population

    P = population(5, balance, "poor")
    assert P.sum() == pytest.approx(1)
    prior = P.sum(axis=1)
    assert prior.max() / prior.min() == pytest.approx(1 if balance == "balanced" else IMBALANCE)
    assert np.diag(P) / prior == pytest.approx(np.full(5, 0.6))


def test_coverage_cell_reports_every_method_and_measure():
    from experiments.coverage.compute import cell
    from experiments.coverage.settings import CLOSED_FORMS, FISHER_Z, MEASURES, METHODS

    rows = cell(2, 100, "balanced", "good", 60, np.random.SeedSequence(0))
    assert len(rows) == len(MEASURES) * len(METHODS) + len(FISHER_Z) + len(CLOSED_FORMS)
    assert {(r["measure"], r["method"]) for r in rows} == {
        *((name, method) for name in MEASURES for method in METHODS),
        *((name, "fisher_z") for name in FISHER_Z),
        *CLOSED_FORMS.items(),
    }  # two measures share Wilson's interval: neither replaces the other
    assert {"macro_mcc", "micro_mcc"} <= set(MEASURES)
    assert CLOSED_FORMS["micro_mcc"] == "wilson"
    for row in rows:
        assert 0 <= row["coverage"] <= 1
        assert row["flag"] == (row["coverage"] < 0.93)
        assert row["coverage_se"] == pytest.approx(
            np.sqrt(row["coverage"] * (1 - row["coverage"]) / 60)
        )


def one_vs_rest_mccs(P):
    """The binary MCC of each class's 2 x 2 table against the rest, written out."""
    mccs = []
    for k in range(P.shape[0]):
        tp = P[k, k]
        fn, fp = P[k].sum() - tp, P[:, k].sum() - tp
        tn = P.sum() - tp - fn - fp
        mccs.append((tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    return np.array(mccs)


def test_coverage_of_the_macro_and_micro_mcc_against_their_population_values():
    """The population's macro MCC is the mean of its classes' one-vs-rest MCCs and its micro MCC
    ``(K acc - 1) / (K - 1)``; at n = 1,000 the intervals of both cover it about 95% of the
    time (the imbalanced population's micro MCC, 0.4, taken for its macro MCC, 0.287, would be
    missed by nearly every interval)."""
    from experiments.coverage.compute import cell
    from experiments.coverage.settings import population

    K, test_sets = 3, 100
    P = population(K, "imbalanced", "poor")
    rows = cell(K, 1000, "imbalanced", "poor", test_sets, np.random.SeedSequence(1))
    new = [r for r in rows if r["measure"] in ("macro_mcc", "micro_mcc")]
    assert {(r["measure"], r["method"]) for r in new} == {
        *(("macro_mcc", m) for m in ("bca", "percentile", "wald", "fisher_z")),
        *(("micro_mcc", m) for m in ("bca", "percentile", "wald", "fisher_z", "wilson")),
    }
    macro = one_vs_rest_mccs(P).mean()
    micro = (K * np.trace(P) - 1) / (K - 1)
    assert micro - macro > 0.1  # the two averages differ here (not in a balanced population)
    for r in new:
        truth = macro if r["measure"] == "macro_mcc" else micro
        assert r["population_value"] == pytest.approx(truth, abs=1e-12)
        assert r["undefined_sets"] == 0
        assert 0.85 <= r["coverage"] <= 1, (r["measure"], r["method"], r["coverage"])


def test_coverage_of_the_micro_mcc_is_the_accuracy_s():
    """The micro MCC is an increasing affine function of the accuracy: from the same resamples
    its intervals cover exactly when the accuracy's do. The bootstrap's ends at n = 50 are often
    ``c / n`` itself, equal to the population's accuracy 0.9, which summing ``P`` puts at
    0.9000000000000001: without a tolerance those ties were misses for the accuracy and hits
    for the micro MCC (here BCa's 0.945 against 0.98)."""
    from experiments.coverage.compute import cell

    rows = cell(3, 50, "imbalanced", "good", 200, np.random.SeedSequence(2))
    coverage = {(r["measure"], r["method"]): r["coverage"] for r in rows}
    for method in ("bca", "percentile", "wald", "wilson"):
        assert coverage["micro_mcc", method] == coverage["accuracy", method], method


def test_coverage_figure_has_a_panel_per_measure():
    import matplotlib.pyplot as plt

    from experiments.coverage.compute import run
    from experiments.coverage.plots import ALL_METHODS, plot
    from experiments.coverage.settings import MEASURES

    table, paired, _ = run({"K": (3,), "n": (50,), "test_sets": 20}, seed=0)
    assert paired.empty  # no paired scenarios asked for
    fig = plot(table)
    try:
        titles = [ax.get_title() for ax in fig.axes if ax.has_data()]
        assert titles == [cenmcc.MEASURES[name].label for name in MEASURES]
        assert len(titles) == 8
        assert len(ALL_METHODS) == len(set(ALL_METHODS)) == 6
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert sorted(legend) == sorted(ALL_METHODS)
    finally:
        plt.close(fig)


def test_published_designs_are_the_papers_matrices():
    """Itaya et al.'s binary design has MCC 0.8; Tamura et al.'s three classes and paired joint
    table are probabilities (their counts over 500)."""
    from experiments.coverage.settings import DESIGNS, TAMURA_PAIRED

    P, sizes = DESIGNS["itaya2024"]
    assert float(cenmcc.mcc(P)) == pytest.approx(0.8)
    assert sizes == (50, 100, 500, 1000, 5000, 10000)
    assert DESIGNS["tamura2025"][0].sum() == pytest.approx(1)
    assert TAMURA_PAIRED.shape == (3, 3, 3)
    assert TAMURA_PAIRED.sum() == pytest.approx(1)
    assert TAMURA_PAIRED[0, 0, 0] == pytest.approx(190 / 500)


def test_paired_scenarios_have_the_differences_they_are_named_for():
    from experiments.coverage.settings import paired_scenarios

    for name, p in paired_scenarios().items():
        assert p.sum() == pytest.approx(1)
        a, b = (float(cenmcc.mcc(p.sum(axis=axis))) for axis in (2, 1))
        if name.startswith("null"):
            assert a == pytest.approx(b, abs=1e-12), name
        elif name.startswith("MCC 0.05 apart"):
            assert a - b == pytest.approx(0.05, abs=1e-9), name
        else:
            assert a - b > 0.05, name


def test_paired_cell_reports_every_method_with_its_size():
    from experiments.coverage.compute import paired_cell, paired_measures
    from experiments.coverage.settings import PAIRED_METHODS

    rows = paired_cell("null: equal, balanced binary", 100, 8, np.random.SeedSequence(0))
    expected = {(name, m) for m in PAIRED_METHODS for name in paired_measures(m)}
    assert {(r["measure"], r["method"]) for r in rows} == expected
    assert ("accuracy", "mcnemar") in expected
    assert ("accuracy", "mover") not in expected  # MOVER is for measures in [-1, 1]
    for r in rows:
        assert r["null"]
        assert r["test_sets"] == 8
        assert 0 <= r["rejected"] <= 1
        assert 0 <= r["coverage"] <= 1


def test_the_generated_table_is_what_auto_reads():
    """The module the experiment writes defines SINGLE and PAIRED, from which
    :func:`cenmcc.intervals.auto.choose` picks, for a cell's own regime, a method measured there.
    """
    from cenmcc.intervals import auto
    from experiments.coverage.compute import coverage_module, run

    table, paired, _ = run({"K": (2,), "n": (50, 1000), "test_sets": 10}, seed=0)
    paired_rows = paired.iloc[:0]
    source = coverage_module(table, paired_rows, "test")
    namespace = {}
    exec(compile(source, "_coverage_table.py", "exec"), namespace)  # the generated module
    single = namespace["SINGLE"]
    assert namespace["PAIRED"] == {}
    assert set(single) == set(table["measure"])
    entry = single["mcc"]
    assert len(entry["regime"]) == 8  # two n, two balances, two classifiers
    features = np.array(entry["regime"])
    methods, coverage = auto.choose(
        features, cenmcc.MEASURES["mcc"], single, list(entry["coverage"])
    )
    measured = table[table["measure"] == "mcc"]
    for method, worst in zip(methods, coverage, strict=True):
        assert method in set(measured["method"])
        assert worst in set(measured[measured["method"] == method]["coverage"].round(4))
