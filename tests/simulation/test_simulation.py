"""Simulations of any measures on a user's own generator: API, checks, determinism, statistics."""

import json
import math
import re
import warnings

import numpy as np
import pytest
from scipy import special

import cenmcc
from cenmcc.simulation import KRatio, ParallelError, Simulation, pairs, run
from cenmcc.simulation.engine import _jackknife_groups
from cenmcc.simulation.jackknife import jackknife
from cenmcc.simulation.streaming import Moments
from cenmcc.simulation.studies import fit_k, intervals


def uniform_counts(rng, size):
    """Matrices of 3 and 4 classes with counts uniform in 1..50, as two stacks."""
    m = size // 2
    return [rng.integers(1, 51, size=(m, 3, 3)), rng.integers(1, 51, size=(size - m, 4, 4))]


def lazy_uniform_counts(rng, size):
    """:func:`uniform_counts`, its stacks drawn one at a time as they are asked for."""
    m = size // 2
    yield rng.integers(1, 51, size=(m, 3, 3))
    yield rng.integers(1, 51, size=(size - m, 4, 4))


def small_counts(rng, size):
    """5-class matrices with few samples: ties, and MCCs that are 0/0 (a single column)."""
    C = rng.integers(0, 3, size=(size, 5, 5))
    C[::7] = 0
    C[::7, :, 1] = rng.integers(1, 4, size=(len(C[::7]), 5))  # every sample predicted as 1
    return C


MEASURES = ("cen", "mcc", "cohen_kappa", "accuracy")


def test_the_statistics_are_those_of_the_matrices_drawn():
    sim = Simulation(
        uniform_counts, 900, measures=MEASURES, chunk_size=200, seed=2, keep_table=True
    )
    result = run(sim, jobs=1, quiet=True)
    t, s = result.table, result.summary
    assert (s["n_matrices"], s["n_chunks"]) == (900, 5)
    assert list(t["K"][:100]) == [3] * 100  # the first stack of the first chunk
    sign = {"cen": -1.0, "mcc": 1.0, "cohen_kappa": 1.0, "accuracy": 1.0}
    for name in MEASURES:
        m = s["measures"][name]
        assert m["mean"] == pytest.approx(t[name].mean(), rel=1e-12)
        assert m["sd"] == pytest.approx(t[name].std(ddof=1), rel=1e-12)
        for K in (3, 4):
            rows = t["K"] == K
            assert m["by_k"][str(K)]["n"] == rows.sum()
            assert m["by_k"][str(K)]["mean"] == pytest.approx(t[name][rows].mean(), rel=1e-12)
    for f, g in [("cen", "mcc"), ("mcc", "accuracy"), ("cen", "cohen_kappa")]:
        pair = result.pair(f, g)
        x, y = sign[f] * t[f], sign[g] * t[g]
        counts = cenmcc.pair_counts(x, y)
        assert pair["pair_counts"] == counts._asdict()
        assert pair["consistency"] == counts.consistency()
        assert pair["kendall_tau_b"] == counts.tau_b()
        assert pair["pearson"] == pytest.approx(np.corrcoef(x, y)[0, 1], rel=1e-12)
        for K in (3, 4):
            rows = t["K"] == K
            within = cenmcc.pair_counts(x[rows], y[rows])
            assert pair["by_k"][str(K)]["pair_counts"] == within._asdict()
    assert s["pairs"]["cen"]["mcc"]["consistency"] > 0.5  # oriented: they agree


def test_a_generator_may_yield_its_stacks_one_at_a_time():
    settings = {"measures": MEASURES, "chunk_size": 200, "seed": 2, "keep_table": True}
    eager = run(Simulation(uniform_counts, 900, **settings), jobs=1, quiet=True)
    lazy = run(Simulation(lazy_uniform_counts, 900, **settings), jobs=1, quiet=True)
    assert json.dumps(lazy.summary) == json.dumps(eager.summary)
    for name, column in eager.table.items():
        np.testing.assert_array_equal(lazy.table[name], column)


def test_the_same_seed_gives_the_same_bits_for_any_workers_and_backend():
    sim = Simulation(
        small_counts,
        600,
        measures=MEASURES,
        studies=(KRatio(n_resamples=40),),
        chunk_size=150,
        seed=8,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        runs = [
            run(sim, jobs=1, quiet=True),
            run(sim, jobs=2, quiet=True),
            run(sim, jobs=2, backend="threading", quiet=True),
        ]
    assert len({json.dumps(r.summary) for r in runs}) == 1
    assert len(runs[1].processes) >= 1


def test_the_k_ratio_counts_its_derived_columns_block_by_block(monkeypatch):
    # k(K)·CEN is written to the store a block of rows at a time, never whole in the caller's
    # memory; the counts are those of the whole columns.
    sim = Simulation(
        uniform_counts, 500, measures=("cen", "mcc"), studies=(KRatio(n_resamples=40),)
    )
    whole = run(sim, jobs=1, quiet=True)
    monkeypatch.setattr(pairs, "BLOCK_ROWS", 64)
    written = []
    write = pairs.ColumnStore.write
    monkeypatch.setattr(
        pairs.ColumnStore,
        "write",
        lambda store, start, columns: (
            written.append({name: len(v) for name, v in columns.items()})
            or write(store, start, columns)
        ),
    )
    blocks = run(sim, jobs=1, quiet=True)
    assert json.dumps(blocks.summary) == json.dumps(whole.summary)
    derived = [w["k_cen"] for w in written if "k_cen" in w]
    assert derived == [64] * 7 + [500 - 7 * 64]


@pytest.mark.parametrize(
    ("generator", "message"),
    [
        (lambda rng, size: None, r"chunk 0: got NoneType"),
        (lambda rng, size: 3.0, r"chunk 0: got float"),
        (
            lambda rng, size: [np.ones((3, 3))] * size,
            r"chunk 0: stack 0 has shape \(3, 3\).*np.stack",
        ),
        (lambda rng, size: rng.integers(1, 9, size=(size, 3, 4)), r"chunk 0: stack 0 has shape"),
        (lambda rng, size: np.zeros((0, 3, 3)), r"chunk 0: 0 matrices, expected 100"),
        (lambda rng, size: np.zeros((size, 3, 3)), r"chunk 0, stack 0: .*no samples"),
        (lambda rng, size: rng.integers(1, 9, size=(size - 1, 3, 3)), "chunk 0: 99 matrices"),
        (lambda rng, size: rng.integers(1, 9, size=(size + 1, 3, 3)), "chunk 0: more than"),
        (lambda rng, size: -rng.integers(1, 9, size=(size, 3, 3)), r"chunk 0, stack 0: .*negative"),
        (lambda rng, size: [np.full((size, 3, 3), np.nan)], r"chunk 0, stack 0: .*finite"),
        (lambda rng, size: {"a": 1, "b": 2}, r"chunk 0: got dict with keys \['a', 'b'\], expected"),
        (lambda rng, size: [{"C": 1}], r"chunk 0: stack 0 is a dict with keys \['C'\]"),
    ],
)
def test_bad_generator_output_names_the_chunk_and_the_problem(generator, message):
    with pytest.raises(ParallelError, match=message):
        run(Simulation(generator, 300, chunk_size=100), jobs=1, quiet=True)


def test_a_data_frame_from_the_generator_is_refused():
    import pandas as pd

    frame = pd.DataFrame(np.ones((3, 3)))
    with pytest.raises(ParallelError, match="chunk 0: got DataFrame"):
        run(Simulation(lambda rng, size: frame, 100), jobs=1, quiet=True)
    with pytest.raises(ParallelError, match="chunk 0: stack 0 is a DataFrame"):
        run(Simulation(lambda rng, size: [frame], 100), jobs=1, quiet=True)


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"n_matrices": 0}, ValueError, "n_matrices"),
        ({"n_matrices": 10.5}, TypeError, "n_matrices must be an integer"),
        ({"seed": -1}, ValueError, "seed"),
        ({"chunk_size": 0}, ValueError, "chunk_size"),
        ({"generator": 3}, TypeError, "generator must be callable"),
        ({"measures": ("cen", "nope")}, ValueError, r"unknown measure 'nope'.*cohen_kappa"),
        ({"measures": ("cen", "cen")}, ValueError, "more than once"),
        ({"measures": (np.mean,)}, TypeError, r"cenmcc.Measure\(name, function"),
        ({"measures": "cen"}, TypeError, "tuple of names"),
        ({"pairs": (("cen", "kappa"),)}, ValueError, "pairs: .* not a pair"),
        ({"studies": (object(),)}, TypeError, "lacks"),
    ],
)
def test_bad_settings_are_refused(change, error, message):
    settings = {"generator": uniform_counts, "n_matrices": 100} | change
    with pytest.raises(error, match=message):
        Simulation(**settings)


def test_a_users_measure_runs_and_bad_output_names_it():
    def half_accuracy(m):
        return cenmcc.accuracy(m) / 2

    mine = cenmcc.Measure("half_accuracy", half_accuracy, greater_is_better=True)
    result = run(
        Simulation(
            uniform_counts, 400, measures=("accuracy", mine), chunk_size=100, keep_table=True
        ),
        jobs=1,
        quiet=True,
    )
    np.testing.assert_array_equal(result.table["half_accuracy"], result.table["accuracy"] / 2)
    assert result.pair("accuracy", "half_accuracy")["consistency"] == 1.0
    for function, message in [
        (
            lambda m: cenmcc.accuracy(m)[:-1],
            r"measure .bad. returned shape \(49,\).*chunk 0, stack 0, expected \(50,\)",
        ),
        (lambda m: cenmcc.accuracy(m) / 0, r"measure 'bad' returned inf for matrix 0"),
        (lambda m: "text", "measure 'bad' returned str"),
    ]:
        bad = cenmcc.Measure("bad", function, greater_is_better=True)
        with pytest.raises(ParallelError, match=message), np.errstate(all="ignore"):
            run(Simulation(uniform_counts, 200, measures=("cen", bad), chunk_size=100), jobs=1)


@pytest.mark.parametrize(
    ("function", "message"),
    [
        (  # the mask would be dropped and the -999 under it counted
            lambda m: np.ma.masked_equal(np.where(cenmcc.accuracy(m) > 0.5, -999.0, 0.5), -999.0),
            r"measure 'bad' returned a masked array \(MaskedArray of float64, shape \(50,\)\) on "
            "generator output of chunk 0, stack 0",
        ),
        (  # the imaginary part would be dropped, with a ComplexWarning printed by the worker
            lambda m: cenmcc.accuracy(m) + 1j,
            r"measure 'bad' returned ndarray of complex128, shape \(50,\) on .*chunk 0, stack 0, "
            "not real numbers",
        ),
        (lambda m: {"value": 1.0}, r"measure 'bad' returned dict with keys \['value'\]"),
    ],
)
def test_a_measure_returning_other_than_real_values_says_what_it_returned(function, message):
    bad = cenmcc.Measure("bad", function, greater_is_better=True)
    with pytest.raises(ParallelError, match=message):
        run(Simulation(uniform_counts, 200, measures=("cen", bad), chunk_size=100), jobs=1)


def _json_error(*args):
    """A user's function failing with an exception whose constructor needs three arguments."""
    raise json.JSONDecodeError("no JSON here", "doc", 0)


def _lazy_json_error(rng, size):
    yield rng.integers(1, 51, size=(size // 2, 3, 3))
    _json_error()


@pytest.mark.parametrize(
    ("settings", "context"),
    [
        (
            {"measures": ("cen", cenmcc.Measure("bad", _json_error, True))},
            "measure 'bad' failed on generator output of chunk 0, stack 0",
        ),
        ({"generator": _json_error}, "the generator failed on chunk 0"),
        ({"generator": _lazy_json_error}, "the generator failed on chunk 0"),
    ],
)
def test_a_users_error_is_kept_as_it_was_with_where_it_failed(settings, context):
    # Re-raised as type(err)(message), an exception with required arguments became a TypeError.
    sim = Simulation(
        **({"generator": uniform_counts, "n_matrices": 200, "chunk_size": 100} | settings)
    )
    with pytest.raises(ParallelError) as caught:
        run(sim, jobs=1, quiet=True)
    assert f"({context}: JSONDecodeError: no JSON here: line 1 column 1 (char 0))" in str(
        caught.value
    )
    assert "TypeError" not in str(caught.value)


def test_a_study_error_in_the_callers_process_is_kept_as_it_was():
    class Broken(CountNegative):
        def summarize(self, state, run):
            _json_error()

    sim = Simulation(uniform_counts, 100, measures=("cen",), studies=(Broken(),))
    with pytest.raises(json.JSONDecodeError) as caught:
        run(sim, jobs=1, quiet=True)
    assert caught.value.__notes__ == ["study 'negative': summarize failed"]


def _scaled_summaries(scales: tuple[float, float]) -> tuple[dict, dict]:
    """The summaries of MCC and CEN, and of MCC and CEN times ``scales``, on the same matrices."""
    tiny = cenmcc.Measure("tiny", lambda m: cenmcc.mcc(m) * scales[0], greater_is_better=True)
    huge = cenmcc.Measure("huge", lambda m: cenmcc.cen(m) * scales[1], greater_is_better=False)
    return tuple(
        run(
            # float ties: the named MCC and CEN keep cenmcc's floats, as the scaled ones do
            Simulation(uniform_counts, 2000, measures=ms, chunk_size=250, ties="float"),
            jobs=2,
            quiet=True,
        ).summary
        for ms in (("mcc", "cen"), (tiny, huge))
    )


def test_statistics_of_values_near_1e300_or_1e_300_are_those_of_the_values_scaled_by_hand():
    # Their squares and cubes overflowed or underflowed: Pearson's r was inf, 1.0005 or -0.0
    # against an exact -0.32, and the SDs 0 or inf. Scaled by powers of two, every rounding
    # is the same: the statistics are those of MCC and CEN scaled, bit for bit.
    plain, scaled = _scaled_summaries((2.0**-900, 2.0**1000))
    pair, reference = scaled["pairs"]["tiny"]["huge"], plain["pairs"]["mcc"]["cen"]
    assert pair["pearson"] == reference["pearson"]
    assert pair["pearson_se"] == reference["pearson_se"]
    assert pair["by_k"]["3"]["pearson"] == reference["by_k"]["3"]["pearson"]
    for name, of, exponent in (("tiny", "mcc", -900), ("huge", "cen", 1000)):
        got, want = scaled["measures"][name], plain["measures"][of]
        for statistic in ("mean", "sd", "mean_se", "sd_se"):
            assert got[statistic] == math.ldexp(want[statistic], exponent)
            assert got["by_k"]["4"][statistic] == math.ldexp(want["by_k"]["4"][statistic], exponent)


def test_statistics_of_values_near_1e300_or_1e_300_are_accurate():
    plain, scaled = _scaled_summaries((1e-300, 1e300))
    pair, reference = scaled["pairs"]["tiny"]["huge"], plain["pairs"]["mcc"]["cen"]
    np.testing.assert_allclose(pair["pearson"], reference["pearson"], rtol=1e-14)
    for name, of, scale in (("tiny", "mcc", 1e-300), ("huge", "cen", 1e300)):
        for statistic, rtol in (("mean", 1e-13), ("sd", 1e-13), ("mean_se", 1e-12)):
            # A jackknife SE is a spread of means that agree to ~3 digits: 3 digits fewer.
            got, want = scaled["measures"][name][statistic], plain["measures"][of][statistic]
            np.testing.assert_allclose(got, want * scale, rtol=rtol)


def test_undefined_values_are_counted_and_warned_once_in_the_caller(capfd):
    sim = Simulation(small_counts, 700, measures=("cen", "mcc", "cohen_kappa"), chunk_size=175)
    with pytest.warns(cenmcc.UndefinedMetricWarning) as caught:
        result = run(sim, jobs=2, quiet=True)
    undefined = result.summary["measures"]["mcc"]["undefined"]
    assert undefined >= 700 // 7
    assert sum(k["undefined"] for k in result.summary["measures"]["mcc"]["by_k"].values()) == (
        undefined
    )
    mcc_warnings = [w for w in caught if str(w.message).startswith("MCC")]
    assert len(mcc_warnings) == 1
    assert f"{undefined:,} of 700 matrices" in str(mcc_warnings[0].message)
    assert "Warning" not in capfd.readouterr().err  # no worker printed one


def precision_0(C):
    """The precision of class 0, NaN (0/0) where no sample is predicted as class 0."""
    assert isinstance(C, np.ndarray)
    assert C.ndim == 3
    assert not C.flags.writeable
    return C[:, 0, 0] / C[:, :, 0].sum(axis=-1)  # NumPy's 0/0 warning is off: undefined=


def test_a_users_measure_gets_a_read_only_array_and_its_nan_are_filled_counted_and_warned():
    mine = cenmcc.Measure("precision_0", precision_0, True, bounds=(0, 1), undefined=0.25)
    sim = Simulation(small_counts, 700, measures=("cen", mine), chunk_size=175, keep_table=True)
    with pytest.warns(cenmcc.UndefinedMetricWarning) as caught:
        result = run(sim, jobs=1, quiet=True)
    table = result.table
    column = table["precision_0"]
    expected = np.sum([(C[:, 0].sum() == 0) for C in small_counts_chunks(sim)])
    undefined = result.summary["measures"]["precision_0"]["undefined"]
    assert undefined == expected > 0
    assert np.count_nonzero(column == 0.25) >= undefined
    mine_warnings = [w for w in caught if str(w.message).startswith("precision_0")]
    assert len(mine_warnings) == 1
    assert f"{undefined:,} of 700 matrices, set to 0.25" in str(mine_warnings[0].message)


def small_counts_chunks(sim):
    """Every matrix of ``sim`` (a :func:`small_counts` run), drawn as the chunks draw them."""
    return np.concatenate(
        [small_counts(np.random.default_rng(c.seed), c.size) for c in sim.chunks()]
    )


def sparse_counts(rng, size):
    """3- and 4-class matrices of few samples: many with no sample in a row or a column."""
    K = rng.integers(3, 5, size=size)
    return [rng.integers(0, 3, size=(int(np.sum(k == K)), k, k)) for k in (3, 4)]


def recall_1(C):
    """The recall of class 1, NaN (0/0) where class 1 has no sample."""
    return C[:, 1, 1] / C[:, 1, :].sum(axis=-1)


def test_a_measure_that_omits_its_undefined_values_leaves_them_out_of_moments_and_pairs():
    omitting = [
        cenmcc.Measure(name, function, True, bounds=(0, 1), undefined="omit")
        for name, function in (("precision_0", precision_0), ("recall_1", recall_1))
    ]
    measures = ("mcc", *omitting)
    density = (("mcc", "precision_0"),)
    sim = Simulation(
        sparse_counts, 1200, measures, chunk_size=150, density_pairs=density, keep_table=True
    )
    with pytest.warns(cenmcc.UndefinedMetricWarning) as caught:
        result = run(sim, jobs=1, quiet=True)
    table, summary = result.table, result.summary
    for f, g in sim.resolved_pairs:  # counted as cenmcc.pair_counts counts the defined rows
        entry = summary["pairs"][f][g]
        defined = ~(np.isnan(table[f]) | np.isnan(table[g]))
        assert entry["left_out"] == np.count_nonzero(~defined) > 0
        within = []
        for k in (3, 4):
            rows = defined & (table["K"] == k)
            counts = cenmcc.pair_counts(table[f][rows], table[g][rows], rtol=sim.tie_rtol)
            assert entry["by_k"][str(k)]["pair_counts"] == counts._asdict()
            within.append(counts)
        assert entry["within_k"]["pair_counts"] == {
            name: sum(getattr(c, name) for c in within) for name in cenmcc.PairCounts._fields
        }
        f_defined, g_defined = table[f][defined], table[g][defined]
        counts = cenmcc.pair_counts(f_defined, g_defined, rtol=sim.tie_rtol)
        assert entry["pair_counts"] == counts._asdict()
        assert entry["pearson"] == pytest.approx(np.corrcoef(f_defined, g_defined)[0, 1], 1e-12)
        assert all(math.isfinite(entry[f"{s}_se"]) for s in ("pearson", "consistency"))
    for measure in omitting:
        values, stated = table[measure.name], summary["measures"][measure.name]
        defined = values[~np.isnan(values)]
        assert stated["left_out"] == stated["undefined"] == values.size - defined.size > 0
        assert stated["mean"] == pytest.approx(defined.mean(), rel=1e-12)
        assert stated["sd"] == pytest.approx(defined.std(ddof=1), rel=1e-12)
        assert math.isfinite(stated["mean_se"])
        (message,) = [str(w.message) for w in caught if str(w.message).startswith(measure.name)]
        assert f"{stated['undefined']:,} of 1,200 matrices, left out of its moments" in message
    histogram = result.histograms["mcc", "precision_0"]  # the left out are not "outside"
    left_out = summary["pairs"]["mcc"]["precision_0"]["left_out"]
    assert histogram.counts.sum() + histogram.outside == 1200 - left_out
    with pytest.warns(cenmcc.UndefinedMetricWarning):
        on_two = run(sim, jobs=2, backend="loky", quiet=True)
    assert json.dumps(on_two.summary) == json.dumps(summary)


def test_a_users_nan_without_a_declared_meaning_is_refused_naming_the_fix():
    mine = cenmcc.Measure("precision_0", precision_0, True)
    sim = Simulation(small_counts, 200, measures=("cen", mine), chunk_size=100)
    with (
        pytest.raises(ParallelError, match=r"returned nan for matrix \d+; .*undefined=<value>"),
        np.errstate(invalid="ignore"),
    ):
        run(sim, jobs=1, quiet=True)


def test_measures_fills_a_users_nan_and_warns_once():
    mine = cenmcc.Measure("precision_0", precision_0, True, undefined=0.0)
    C = np.array([[[0, 2], [0, 3]], [[1, 1], [1, 3]], [[0, 1], [0, 1]]])
    with pytest.warns(cenmcc.UndefinedMetricWarning, match="for 2 of 3 value"):
        values = cenmcc.measures(C, [mine])
    assert values["precision_0"].tolist() == [0.0, 0.5, 0.0]
    with pytest.raises(ValueError, match="undefined must be a real number within bounds"):
        cenmcc.Measure("p", precision_0, True, bounds=(0, 1), undefined=2.0)
    omits = cenmcc.Measure("precision_0", precision_0, True, undefined="omit")
    with pytest.warns(cenmcc.UndefinedMetricWarning, match=r"2 of 3 value.*NaN \(left out"):
        values = cenmcc.measures(C, [omits])
    assert np.isnan(values["precision_0"]).tolist() == [True, False, True]
    with pytest.raises(ValueError, match="'omit' or None, got 'skip'"):
        cenmcc.Measure("p", precision_0, True, bounds=(0, 1), undefined="skip")


def test_the_balanced_accuracy_warning_says_the_classes_are_excluded():
    sim = Simulation(small_counts, 200, measures=("cen", "balanced_accuracy"), chunk_size=100)
    with pytest.warns(cenmcc.UndefinedMetricWarning) as caught:
        run(sim, jobs=1, quiet=True)
    (message,) = [str(w.message) for w in caught if "balanced accuracy" in str(w.message)]
    assert "excluded" in message
    assert "documented value" not in message


def test_a_generator_of_fractional_counts_gets_one_warning_saying_so():
    def fractional(rng, size):
        return rng.dirichlet(np.ones(9), size=size).reshape(size, 3, 3)

    sim = Simulation(fractional, 300, measures=("cen", "mcc"), chunk_size=100)
    with pytest.warns(UserWarning, match="non-integer counts") as caught:
        result = run(sim, jobs=1, quiet=True)
    (message,) = [str(w.message) for w in caught if "non-integer counts" in str(w.message)]
    assert "in 3 chunk(s)" in message
    assert math.isfinite(result.pair("cen", "mcc")["consistency"])
    with warnings.catch_warnings():  # whole-number floats are counts: no warning
        warnings.filterwarnings("error", message=".*non-integer counts")
        whole = Simulation(lambda r, n: np.floor(fractional(r, n) * 100) + 1, 200, chunk_size=100)
        run(whole, jobs=1, quiet=True)


class CountNegative:
    """A study of a user's own: how many matrices have an MCC below 0, per K."""

    name = "negative"
    measures = ("mcc",)

    def reduce(self, chunk):
        return {
            int(k): int(np.sum(chunk.columns["mcc"][k == chunk.K] < 0)) for k in np.unique(chunk.K)
        }

    def merge(self, a, b):
        return {k: a.get(k, 0) + b.get(k, 0) for k in sorted({*a, *b})}

    def statistics(self, state, run):
        return {"share": sum(state.values()) / run.simulation.n_matrices}

    def summarize(self, state, run):
        return {"by_k": state}


def test_a_study_streams_like_the_built_in_statistics():
    sim = Simulation(
        small_counts,
        500,
        measures=("cen",),
        studies=(CountNegative(),),
        chunk_size=50,
        keep_table=True,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        result = run(sim, jobs=1, quiet=True)
    study = result.study("negative")
    negative = int(np.sum(result.table["mcc"] < 0))
    assert sum(study["by_k"].values()) == negative
    assert study["share"] == negative / 500
    assert study["share_se"] > 0  # jackknifed over the 10 chunks
    assert [m.name for m in sim.resolved_measures] == ["cen", "mcc"]


def test_a_measure_named_as_a_studys_column_is_refused():
    # The study's k·CEN overwrote the user's k_cen in the store: Result.table["k_cen"] held the
    # study's values while the summary's mean was the user's.
    mine = cenmcc.Measure("k_cen", lambda m: 0.9 * cenmcc.cen(m), greater_is_better=False)
    with pytest.raises(
        ValueError,
        match="study 'k_ratio' adds a column 'k_cen' that would overwrite the measure 'k_cen'",
    ):
        Simulation(uniform_counts, 100, measures=(mine,), studies=(KRatio(),), keep_table=True)

    class AddsK(CountNegative):
        added_columns = ("K",)

    with pytest.raises(ValueError, match="'K' that would overwrite the number of classes"):
        Simulation(uniform_counts, 100, studies=(AddsK(),))


def test_a_study_column_that_was_not_declared_is_refused_before_it_overwrites():
    class Undeclared(CountNegative):
        def summarize(self, state, run):
            return run.count_pairs({"cen": lambda rows: np.zeros(rows.stop - rows.start)}, [])

    sim = Simulation(uniform_counts, 100, measures=("cen",), studies=(Undeclared(),))
    with pytest.raises(ValueError, match=r"a study's columns \['cen'\] would overwrite") as caught:
        run(sim, jobs=1, quiet=True)
    assert caught.value.__notes__ == ["study 'negative': summarize failed"]


def test_a_study_that_fails_is_named():
    class Broken(CountNegative):
        def reduce(self, chunk):
            raise ArithmeticError("no")

    with pytest.raises(ParallelError, match="study 'negative': reduce failed: ArithmeticError: no"):
        run(Simulation(uniform_counts, 100, studies=(Broken(),)), jobs=1, quiet=True)


def b_family(rng, size):
    """B(T, F): T on the diagonal, F elsewhere, where tMCC = CEN exactly (k = 1 fits)."""
    T, F = rng.integers(1, 50, size=(2, size))
    K = 4
    C = np.broadcast_to(F[:, None, None], (size, K, K)).copy()
    C[:, np.arange(K), np.arange(K)] = T[:, None]
    return C


def perfect_but_one(rng, size):
    C = np.broadcast_to(np.eye(3, dtype=int) * 5, (size, 3, 3)).copy()
    C[0, 0, 1] = 1
    return C


@pytest.mark.parametrize(
    "generator",
    [
        b_family,
        perfect_but_one,
        lambda rng, size: np.broadcast_to(np.eye(3, dtype=int) * 5, (size, 3, 3)),  # all perfect
        lambda rng, size: np.broadcast_to(np.ones((3, 3), dtype=int), (size, 3, 3)),  # identical
        lambda rng, size: np.broadcast_to([[3, 0], [4, 0]], (size, 2, 2)),  # one predicted class
    ],
)
def test_degenerate_statistics_are_undefined_with_a_reason_never_a_crash(generator):
    sim = Simulation(
        generator, 300, measures=("cen", "mcc"), studies=(KRatio(n_resamples=40),), chunk_size=100
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        result = run(sim, jobs=1, quiet=True)
    study = result.study("k_ratio")
    json.dumps(result.summary)  # a summary that can be written
    intervals = study["intervals"]
    if intervals["student"] is None:
        assert intervals["undefined"]


def test_too_few_resamples_for_an_interval_are_refused_before_the_work():
    with pytest.raises(ValueError, match="n_resamples must be an integer of at least 40"):
        KRatio(n_resamples=3)
    KRatio(n_resamples=40)


def test_the_jackknife_groups_are_consecutive_and_cover_every_chunk():
    groups = _jackknife_groups(250)
    assert len(groups) == 100
    assert [j for g in groups for j in g] == list(range(250))
    assert {len(g) for g in groups} == {2, 3}
    assert _jackknife_groups(7) == [[j] for j in range(7)]


def test_the_jackknife_of_a_mean_is_its_standard_error():
    """For a mean over equal groups the delete-a-group jackknife is SD(group means)/sqrt(g)."""
    rng = np.random.default_rng(3)
    groups = [rng.normal(size=50) for _ in range(20)]
    total, out = jackknife(lambda x: {"mean": x.mean()}, groups, lambda a, b: np.r_[a, b])
    assert np.array_equal(total, np.concatenate(groups))
    means = [g.mean() for g in groups]
    assert out["mean_se"] == pytest.approx(np.std(means, ddof=1) / math.sqrt(20), rel=1e-12)


def test_the_jackknife_merges_each_run_without_a_group_in_the_runs_order():
    """Without group g: the groups before it merged left to right, then those after it merged
    right to left; the run itself left to right. One group: no standard error."""
    seen = []

    def statistics(state):
        seen.append(state)
        return {"x": {"length": len(state)}}

    total, out = jackknife(statistics, list("abcd"), lambda a, b: f"({a} {b})")
    assert total == "(((a b) c) d)"
    assert sorted(seen[:-1]) == sorted(["(b (c d))", "(a (c d))", "((a b) d)", "((a b) c)"])
    assert seen[-1] == total
    assert out["x"] == {"length": len(total), "length_se": 0.0}  # every run without one: 9
    total, out = jackknife(statistics, ["a"], lambda a, b: f"({a} {b})")
    assert total == "a"
    assert math.isnan(out["x"]["length_se"])


def test_the_jackknife_does_not_hold_every_run_without_a_group():
    """The groups, their prefix merges and two more states at most are alive at once."""

    class State:
        alive = most = 0

        def __init__(self):
            State.alive += 1
            State.most = max(State.most, State.alive)

        def __del__(self):
            State.alive -= 1

    groups = [State() for _ in range(50)]
    jackknife(lambda s: {"one": 1.0}, groups, lambda a, b: State())
    assert State.most <= 2 * len(groups) + 2


def _per_k(K, mean, sem, n=100):
    K = np.asarray(K)
    return {
        "K": K,
        "mean": np.asarray(mean, float),
        "sem": np.asarray(sem, float),
        "n_matrices": np.full(K.size, n),
    }


def test_the_k_fit_recovers_the_curve_through_its_means():
    K = np.arange(3, 31)
    truth = (1.01, 0.2, -0.07)
    fit = fit_k(_per_k(K, cenmcc.k_factor(K, *truth), 1e-3 * (1 + K / 10)))
    np.testing.assert_allclose((fit.a, fit.b, fit.c), truth, rtol=1e-11)
    assert fit.chi2_reduced < 1e-18
    assert fit.n_dimensions == K.size


def test_the_k_fit_errors_are_those_of_the_linear_model_mapped_to_abc():
    """Against a literal transcription: the normal equations in (a, a·b, a·c), inverted, and
    their covariance carried to (a, b, c) by the delta method, with numbers where b and c are
    far from collinear enough for either to be exact to 1e-9."""
    rng = np.random.default_rng(5)
    K = np.arange(2, 9)
    sem = rng.uniform(1e-3, 2e-3, K.size)
    mean = cenmcc.k_factor(K, 1.1, 0.3, -0.1) + rng.normal(0, sem)
    fit = fit_k(_per_k(K, mean, sem))
    X = np.column_stack([np.ones(K.size), 1 / np.log(K), 1 / np.log(K) ** 2]) / sem[:, None]
    cov = np.linalg.inv(X.T @ X)
    alpha, beta, gamma = cov @ X.T @ (mean / sem)
    a, b, c = alpha, beta / alpha, gamma / alpha
    G = np.array([[1, 0, 0], [-b / a, 1 / a, 0], [-c / a, 0, 1 / a]])
    np.testing.assert_allclose((fit.a, fit.b, fit.c), (a, b, c), rtol=1e-9)
    se = np.sqrt(np.diag(G @ cov @ G.T))
    np.testing.assert_allclose((fit.a_se, fit.b_se, fit.c_se), se, rtol=1e-9)
    residual = (mean - cenmcc.k_factor(K, a, b, c)) / sem
    assert fit.chi2_reduced == pytest.approx(residual @ residual / (K.size - 3), rel=1e-9)


@pytest.mark.parametrize(
    ("K", "mean", "n"),
    [
        (np.arange(3, 6), np.ones(3), 100),  # three dimensions: no degree of freedom
        (np.arange(3, 9), np.ones(6), 1),  # no dimension with two matrices
        (np.arange(3, 9), 1 / np.log(np.arange(3, 9)), 100),  # a = 0: no b and c
        (np.full(6, 7), np.ones(6), 100),  # one K six times: the columns are dependent
    ],
)
def test_the_k_fit_is_undefined_where_the_means_cannot_give_it(K, mean, n):
    assert fit_k(_per_k(K, mean, np.full(len(K), 1e-3), n)) is None


def test_the_bca_interval_is_efron_and_tibshiranis():
    """BCa (Efron & Tibshirani 1993, Eq. 14.10) against scipy.special's normal distribution."""
    rng = np.random.default_rng(8)
    x = rng.gamma(2.0, size=400)
    n_star = rng.poisson(400, size=999).astype(float)
    mean_star = x.mean() + rng.normal(0, 0.07, 999) + 0.01
    sd_star = rng.uniform(1.3, 1.5, 999)
    out = intervals(Moments.of(x[:, None]), (n_star, mean_star, sd_star), 0.9)
    dev = x - x.mean()
    a = np.sum(dev**3) / (6 * np.sum(dev**2) ** 1.5)
    z0 = special.ndtri((np.sum(mean_star < x.mean()) + 0.5 * np.sum(mean_star == x.mean())) / 999)
    z = special.ndtri([0.05, 0.95])
    expected = np.quantile(mean_star, special.ndtr(z0 + (z0 + z) / (1 - a * (z0 + z))))
    np.testing.assert_allclose(out["bca"], expected, rtol=1e-12)


def test_a_run_records_where_its_chunks_ran():
    import os

    result = run(Simulation(uniform_counts, 400, chunk_size=100), jobs=2, quiet=True)
    pids = {pid for _, pid in result.processes}
    assert pids
    assert os.getpid() not in pids  # loky workers, not this process
    assert {pid for _, pid in run(Simulation(uniform_counts, 200), jobs=1).processes} == {
        os.getpid()
    }


# --------------------------------------------------------------------------------------------
# A run that would not fit is refused before any work


def _never_called(rng, size):
    raise AssertionError("the generator ran: the run was not refused before any work")


def test_run_refuses_ten_billion_matrices_at_once():
    with pytest.raises(ValueError, match=r"10,000,000,000 matrices needs about .* GiB"):
        run(Simulation(_never_called, 10**10), jobs=1, quiet=True)


def test_run_refuses_a_plan_of_absurdly_many_chunks(monkeypatch):
    sim = Simulation(_never_called, 10**8, chunk_size=1)
    monkeypatch.setattr(Simulation, "chunks", lambda self: pytest.fail("the run was planned"))
    with pytest.raises(ValueError, match=r"100,000,000 chunks, more than .*raise chunk_size"):
        run(sim, jobs=1, quiet=True)


def test_the_plan_counts_in_the_memory_a_run_needs(monkeypatch):
    from cenmcc.simulation import resources
    from cenmcc.simulation.plan import PLAN_BYTES_PER_CHUNK

    sim = Simulation(_never_called, 10**6, chunk_size=1)  # a million chunks: about 1 GB of plan
    plan = sim.footprint(jobs=1)[0]
    assert plan.nbytes == 10**6 * PLAN_BYTES_PER_CHUNK
    monkeypatch.setattr(resources, "available_bytes", lambda: 2**29)
    monkeypatch.setattr(Simulation, "chunks", lambda self: pytest.fail("the run was planned"))
    with pytest.raises(resources.ResourceError, match="for the plan of its chunks: raise chunk"):
        run(sim, jobs=1, quiet=True)


def test_simulate_refuses_resamples_that_would_not_fit_before_any_chunk(
    tmp_path, monkeypatch, capsys
):
    from cenmcc.commands import simulate as command

    monkeypatch.setattr(Simulation, "chunks", lambda self: pytest.fail("a chunk was planned"))
    argv = ["simulate", "--study", "k_ratio", "--resamples", "10000000", "--n", "200000"]
    with pytest.raises(SystemExit) as exit_info:
        command.main([*argv, "--chunk-size", "2000", "--out", str(tmp_path), "--quiet"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(
        r"argument --resamples: .* needs about [\d,.]+ GiB of memory, more than .* GiB of it "
        r"for the states of study 'k_ratio' .*: lower n_resamples$",
        err,
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("n", "chunk_size"),
    [(1, 10_000), (2, 10_000), (39, 10_000), (110, 100)],  # issue 45 item 12
)
def test_a_run_of_any_size_runs_and_says_which_errors_it_cannot_estimate(n, chunk_size):
    sim = Simulation(uniform_counts, n, measures=("cen", "mcc"), chunk_size=chunk_size)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run(sim, jobs=1, quiet=True)
    s = result.summary
    assert s["n_matrices"] == n
    assert sum(m["n"] for m in s["measures"]["cen"]["by_k"].values()) == n
    pair = result.pair("cen", "mcc")
    not_honest = s["standard_errors"]["not_honest"]
    if not math.isfinite(pair["consistency_se"]) or not math.isfinite(s["measures"]["cen"]["sd"]):
        assert not_honest  # each statistic without an error has a stated reason
    if not_honest:
        assert sum("not honest" in str(w.message) for w in caught) == 1
