"""Memory a computation needs, checked against what the machine has before any work."""

import pytest

from cenmcc.simulation import resources


def test_require_memory_names_the_argument_and_both_figures():
    available = resources.available_bytes()
    resources.require_memory(available // 2, "--n 10")
    with pytest.raises(ValueError, match=r"--n 10\*\*18 needs about .* GiB .* GiB available"):
        resources.require_memory(2 * available, "--n 10**18")


def test_a_simulations_footprint_counts_its_measures_pairs_and_study_columns(monkeypatch):
    from cenmcc.simulation import KRatio, Simulation

    def counting(sim, **kwargs):
        parts = sim.footprint(**kwargs)
        return next(p.nbytes for p in parts if p.what == "counting the pairs")

    sim = Simulation(lambda rng, size: None, 1000, measures=("cen", "mcc"), studies=(KRatio(),))
    # K (2 bytes), then cen, mcc, tmcc and the study's two k·CEN (24 each:
    # the value, its ranks overall with their rows, within K, and its tolerance's groups);
    # pair-count tasks, two at once on two workers.
    assert sim.disk_bytes == 1000 * (2 + 24 * 5)
    assert counting(sim, jobs=2) == 1000 * 56 * 2
    # One pair: its two columns ranked overall and within K are four tasks, all at once on four.
    one_pair = Simulation(lambda rng, size: None, 1000, measures=("cen", "mcc"))
    assert counting(one_pair, jobs=4) == 1000 * 56 * 4
    # split further only as far as memory then holds
    assert counting(one_pair, jobs=8) == 1000 * 56 * 4
    # the pairs are counted on the cluster, and the chunks reduced there
    on_cluster = sim.footprint(scheduler="tcp://elsewhere:8786")
    assert counting(sim, scheduler="tcp://elsewhere:8786") == 0
    held = 2 * sim.jackknife_groups + 2
    assert max(on_cluster).nbytes == held * KRatio().footprint(sim).state


def test_the_bootstrap_states_grow_with_the_resamples_and_the_groups():
    """Calibrated: 24 bytes a resample, number of classes and state held (studies.py)."""
    from cenmcc.simulation import KRatio, Simulation
    from cenmcc.simulation.papers import PaperGenerator

    def study_bytes(n, resamples, chunk_size):
        sim = Simulation(
            PaperGenerator(),  # 28 numbers of classes
            n,
            studies=(KRatio(n_resamples=resamples),),
            chunk_size=chunk_size,
        )
        return sim.footprint(jobs=2)[-1].nbytes

    per_resample = study_bytes(200_000, 20_000, 2_000) - study_bytes(200_000, 10_000, 2_000)
    # 100 groups of one chunk: 202 states, and a chunk's in each of two workers
    assert per_resample / 10_000 == pytest.approx(202 * 28 * 24, rel=0.05)
    # ten chunks: ten groups, 22 states
    assert study_bytes(200_000, 999, 20_000) < study_bytes(200_000, 999, 2_000) / 5
