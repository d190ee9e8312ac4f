"""Simulations of a user's own generator: the API, its checks, determinism and statistics."""

import json

import numpy as np
import pytest

import cenmcc
from cenmcc.simulation.engine import Simulation, run


def uniform_counts(rng, size):
    """Matrices of 3 and 4 classes with counts uniform in 1..50, as two stacks."""
    m = size // 2
    return [rng.integers(1, 51, size=(m, 3, 3)), rng.integers(1, 51, size=(size - m, 4, 4))]


def one_dimension(rng, size):
    """A single array (not a list) of 5-class matrices."""
    return rng.integers(1, 20, size=(size, 5, 5))


def test_a_user_generator_gives_the_statistics_of_its_matrices():
    sim = Simulation(uniform_counts, n_matrices=900, chunk_size=200, n_resamples=50, seed=2)
    result = run(sim, jobs=1)
    s = result.summary
    assert s["n_matrices"] == 900
    assert s["n_chunks"] == 5
    assert list(result.per_k["K"]) == [3, 4]
    assert result.per_k["n_matrices"].sum() == 900
    assert s["k_fit"] is None  # two dimensions: too few to fit three constants
    assert "pearson_tmcc_kcen_fitted" not in s
    # Redraw the matrices: the same statistics from one pass over them.
    table = run(Simulation(uniform_counts, 900, 2, 200, 50, keep_table=True), jobs=1).table
    r = np.corrcoef(table["CEN"], table["MCC"])[0, 1]
    assert s["pearson_cen_mcc"] == pytest.approx(r, rel=1e-12)
    assert list(table["K"][:100]) == [3] * 100  # the first stack of the first chunk


def lazy_uniform_counts(rng, size):
    """:func:`uniform_counts`, its stacks drawn one at a time as they are asked for."""
    m = size // 2
    yield rng.integers(1, 51, size=(m, 3, 3))
    yield rng.integers(1, 51, size=(size - m, 4, 4))


def test_a_generator_may_yield_its_stacks_one_at_a_time():
    eager = run(Simulation(uniform_counts, 900, 2, 200, 50, keep_table=True), jobs=1)
    lazy = run(Simulation(lazy_uniform_counts, 900, 2, 200, 50, keep_table=True), jobs=1)
    assert json.dumps(lazy.summary) == json.dumps(eager.summary)
    assert lazy.table.equals(eager.table)


def test_a_user_generator_is_deterministic_across_workers_and_backends():
    sim = Simulation(one_dimension, n_matrices=600, chunk_size=150, n_resamples=30, seed=8)
    runs = [run(sim, jobs=1), run(sim, jobs=2), run(sim, jobs=2, backend="threading")]
    texts = {json.dumps(r.summary) for r in runs}
    assert len(texts) == 1


@pytest.mark.parametrize(
    ("generator", "message"),
    [
        (lambda rng, size: rng.integers(1, 9, size=(size, 3, 4)), r"chunk 0: stack 0 has shape"),
        (lambda rng, size: rng.integers(1, 9, size=(size - 1, 3, 3)), "chunk 0: 99 matrices"),
        (lambda rng, size: rng.integers(1, 9, size=(size + 1, 3, 3)), "chunk 0: more than"),
        (lambda rng, size: -rng.integers(1, 9, size=(size, 3, 3)), r"chunk 0, stack 0: .*negative"),
        (lambda rng, size: [np.full((size, 3, 3), np.nan)], r"chunk 0, stack 0: .*finite"),
    ],
)
def test_bad_generator_output_names_the_chunk_and_the_problem(generator, message):
    sim = Simulation(generator, n_matrices=300, chunk_size=100, n_resamples=10)
    with pytest.raises(RuntimeError, match=message):
        run(sim, jobs=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_matrices": 2}, "n_matrices"),
        ({"n_matrices": 10.5}, "n_matrices must be an integer"),
        ({"seed": -1}, "seed"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"n_resamples": 1}, "n_resamples"),
        ({"confidence_level": 1.5}, "confidence_level"),
        ({"generator": 3}, "generator must be callable"),
    ],
)
def test_bad_settings_are_refused(change, message):
    settings = {"generator": one_dimension, "n_matrices": 100} | change
    with pytest.raises((ValueError, TypeError), match=message):
        Simulation(**settings)


def test_other_measures_and_k_change_what_is_compared():
    """A reading of Eq. (3) is a pair of functions: the measures and k(K)."""

    def doubled_cen(m):
        return {"CEN": 2 * cenmcc.cen(m), "MCC": cenmcc.mcc(m), "tMCC": cenmcc.tmcc(m)}

    base = Simulation(one_dimension, n_matrices=400, chunk_size=100, n_resamples=20)
    plain = run(base, jobs=1).summary
    other = run(
        Simulation(one_dimension, 400, chunk_size=100, n_resamples=20, measures=doubled_cen),
        jobs=1,
    ).summary
    # tMCC/(k·2·CEN) is half of tMCC/(k·CEN); correlations do not change with the scale.
    assert other["mean_ratio_tmcc_kcen"] == pytest.approx(plain["mean_ratio_tmcc_kcen"] / 2)
    assert other["pearson_tmcc_kcen"] == pytest.approx(plain["pearson_tmcc_kcen"], rel=1e-12)
    halved = run(
        Simulation(one_dimension, 400, chunk_size=100, n_resamples=20, k=lambda K: 0.5 * K / K),
        jobs=1,
    ).summary
    ratio = plain["mean_ratio_tmcc_kcen"] * float(cenmcc.k_factor(5)) / 0.5
    assert halved["mean_ratio_tmcc_kcen"] == pytest.approx(ratio, rel=1e-12)


def test_the_pair_counts_are_those_of_the_per_matrix_values():
    """(CEN, -MCC) and (tMCC, k·CEN) counted on the kept table, K mixed, ties included."""
    sim = Simulation(uniform_counts, 600, chunk_size=150, n_resamples=20, seed=4, keep_table=True)
    result = run(sim, jobs=1)
    t = result.table
    K, cen = t["K"].to_numpy(), t["CEN"].to_numpy()
    expected = {
        "cen_mcc": cenmcc.pair_counts(cen, -t["MCC"].to_numpy()),
        "tmcc_kcen": cenmcc.pair_counts(t["tMCC"].to_numpy(), cenmcc.k_factor(K) * cen),
    }
    for key, counts in expected.items():
        assert result.summary[f"pairs_{key}"] == counts._asdict()
        assert result.summary[f"consistency_{key}"] == counts.concordant / (
            counts.concordant + counts.discordant
        )


def test_the_allocator_setting_is_taken_on_glibc_once_per_process():
    import platform

    from cenmcc.simulation.allocator import reuse_freed_memory

    taken = reuse_freed_memory()
    assert taken is (platform.libc_ver()[0] == "glibc")
    assert reuse_freed_memory() is taken
