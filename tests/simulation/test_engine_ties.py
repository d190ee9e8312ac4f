"""How a simulation decides ties: exactly as cenmcc.tie_ranks, within a tolerance as
cenmcc.pair_counts, or as floats (cenmcc.simulation.Simulation's ``ties``)."""

import warnings

import numpy as np
import pytest

import cenmcc
from cenmcc.simulation import Simulation, pairs, run
from cenmcc.simulation.pairs import ColumnStore, TieRule, count_pairs


def scaled(rng, size):
    """3-class matrices drawn at 1x, 2x and 3x: equal MCC, CEN and accuracy, other floats."""
    base = rng.integers(0, 5, (size, 3, 3))
    base[base.sum(axis=(1, 2)) == 0] = 1
    return base * rng.integers(1, 4, (size, 1, 1))


def two_k(rng, size):
    """The same, half of the matrices with 4 classes."""
    half = size // 2
    four = rng.integers(0, 4, (size - half, 4, 4)) * rng.integers(1, 4, (size - half, 1, 1))
    four[four.sum(axis=(1, 2)) == 0] = 1
    return [scaled(rng, half), four]


def drawn(sim):
    """The matrices of a run, drawn again from its chunks' seeds, one array per stack."""
    stacks = []
    for chunk in sim.chunks():
        out = sim.generator(np.random.default_rng(chunk.seed), chunk.size)
        stacks += [out] if isinstance(out, np.ndarray) else list(out)
    return stacks


def exact_counts(stacks, f, g, same_direction):
    """Pair counts of two metrics' exact ranks (cenmcc.tie_ranks), oriented as a summary."""
    counts = cenmcc.pair_counts(cenmcc.tie_ranks(stacks, f), cenmcc.tie_ranks(stacks, g))
    return (counts if same_direction else counts.reversed())._asdict()


def quiet_run(sim, **options):
    """The run, its warnings about MCCs that are 0/0 left out."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cenmcc.UndefinedMetricWarning)
        return run(sim, quiet=True, **options)


def test_exact_ties_are_those_of_tie_ranks():
    sim = Simulation(scaled, 3000, measures=("cen", "mcc", "accuracy"), chunk_size=500)
    result = quiet_run(sim, jobs=1)
    stacks = drawn(sim)
    C = np.concatenate(stacks)
    for f, g in [("cen", "mcc"), ("mcc", "accuracy"), ("cen", "accuracy")]:
        pair = result.pair(f, g)
        expected = exact_counts([C], f, g, sim.same_direction(f, g))
        assert pair["pair_counts"] == expected
        assert pair["by_k"]["3"]["pair_counts"] == expected
    # a replicate's own statistics decide ties by the same rule (the first of the strided
    # parts the 6 whole chunks are cut into, for 12 replicates)
    assert len(result.states[0].replicates) == 12
    first = result.states[0].replicates[0].statistics["cen", "mcc"]
    expected = exact_counts([stacks[0][0::2]], "cen", "mcc", False)
    ordered = expected["concordant"] + expected["discordant"]
    assert first["consistency"] == expected["concordant"] / ordered
    ties = result.summary["ties"]
    assert ties["measures"] == {"cen": "exact", "mcc": "exact", "accuracy": "exact"}
    assert ties["undecided"] == {"cen": 0, "mcc": 0, "accuracy": 0}
    # the exact values replace the floats, which are not computed: their 0/0 still counted
    undefined = cenmcc.measures(C, ["mcc"], count_undefined=True)[1]["mcc"]
    assert result.summary["measures"]["mcc"]["undefined"] == undefined == 1


def test_exact_ties_within_each_k_and_across_them():
    sim = Simulation(two_k, 2000, measures=("cen", "mcc", "accuracy"), chunk_size=400)
    result = quiet_run(sim, jobs=1)
    stacks = drawn(sim)
    by_k = {K: [s for s in stacks if s.shape[-1] == K] for K in (3, 4)}
    for f, g in [("cen", "mcc"), ("mcc", "accuracy")]:
        pair = result.pair(f, g)
        same = sim.same_direction(f, g)
        for K, part in by_k.items():
            assert pair["by_k"][str(K)]["pair_counts"] == exact_counts(part, f, g, same)
    # MCC and accuracy tie exactly across K too (tie_ranks ranks any mix of K for them)
    expected = exact_counts(stacks, "mcc", "accuracy", True)
    assert result.pair("mcc", "accuracy")["pair_counts"] == expected


def test_float_ties_are_those_of_the_floats():
    sim = Simulation(scaled, 3000, measures=("cen", "mcc"), chunk_size=500, ties="float")
    result = quiet_run(sim, jobs=1)
    C = np.concatenate(drawn(sim))
    with np.errstate(all="ignore"), pytest.warns(cenmcc.UndefinedMetricWarning):
        values = cenmcc.measures(C, ["cen", "mcc"])
    floats = cenmcc.pair_counts(-values["cen"], values["mcc"])._asdict()
    assert result.pair("cen", "mcc")["pair_counts"] == floats
    assert floats != exact_counts([C], "cen", "mcc", False)  # rounding decided some ties
    assert result.summary["ties"]["measures"] == {"cen": "float", "mcc": "float"}


def noisy(C):
    """Accuracy times 1 + a relative error of up to 3e-13: ties only within a tolerance."""
    return cenmcc.accuracy(C) * (1 + 1e-13 * (C[:, 0, 1] % 4))


def coarse(C):
    """A measure whose chains cross K: steps of 1e-4 for K = 3, of 5e-5 for K = 4, which a
    tolerance of 1.5e-4 (about 8e-5 here) chains for K = 4 only, and so for K = 3 overall."""
    K = C.shape[-1]
    return 0.5 + 0.01 * np.round(10 * cenmcc.accuracy(C)) + 1e-4 * (C[:, 1, 1] % 3) / (K - 2)


MINE = (
    cenmcc.Measure("noisy", noisy, greater_is_better=True),
    cenmcc.Measure("coarse", coarse, greater_is_better=True),
)


@pytest.mark.parametrize("split_from", [None, 100])
def test_tolerance_ties_are_those_of_pair_counts(monkeypatch, split_from):
    if split_from:  # the overall ranks in bands of values: no chain is split between two
        monkeypatch.setattr(pairs, "SPLIT_FROM", split_from)
    rtol = 1.5e-4
    sim = Simulation(
        two_k, 2000, measures=(*MINE, "mcc"), chunk_size=500, keep_table=True, tie_rtol=rtol
    )
    result = quiet_run(sim, jobs=2, backend="threading")
    t = result.table
    assert result.summary["ties"]["measures"] == {
        "noisy": "tolerance",
        "coarse": "tolerance",
        "mcc": "exact",
    }
    for f, g in [("noisy", "coarse"), ("coarse", "mcc")]:
        pair = result.pair(f, g)
        expected = cenmcc.pair_counts(t[f], t[g], rtol=rtol if g != "mcc" else 0.0)
        if g == "mcc":  # mcc exact, coarse within the tolerance
            r = cenmcc.tie_groups(t[f], rtol=rtol)
            expected = cenmcc.pair_counts(r, t[g])
        assert pair["pair_counts"] == expected._asdict()
        for K in (3, 4):
            rows = t["K"] == K
            r = cenmcc.tie_groups(t[f][rows], rtol=rtol)
            other = cenmcc.tie_groups(t[g][rows], rtol=rtol if g != "mcc" else 0.0)
            within = cenmcc.pair_counts(r, other)
            assert pair["by_k"][str(K)]["pair_counts"] == within._asdict()
    # within a K, chains are those of that K's values alone: here they differ from overall ones
    rows = t["K"] == 3
    overall = cenmcc.tie_groups(t["coarse"], rtol=rtol)[rows]
    within = cenmcc.tie_groups(t["coarse"][rows], rtol=rtol)
    assert np.unique(overall).size < np.unique(within).size


def test_float_counts_take_the_tolerance_rule_stated():
    def weighted(rng, size):
        return scaled(rng, size) * 0.5

    with pytest.warns(UserWarning, match="non-integer counts"):
        result = quiet_run(Simulation(weighted, 600, chunk_size=300), jobs=1)
    ties = result.summary["ties"]
    assert ties["measures"] == {"cen": "tolerance", "mcc": "tolerance"}
    assert "float counts" in ties["not_exact"]["cen"]
    assert ties["rtol"] == 1e-14


def test_undecided_neighbours_are_counted(tmp_path):
    u = 2.0**-53
    f = np.array([0.5, 1.0, 1.0 + 2 * u, 2.0, 1.0, 3.0])  # 1 and 1 + 2u: not provably ordered
    store = ColumnStore(f.size, tmp_path)
    store.write(0, {"f": f, "g": np.arange(f.size, dtype=float), "K": np.full(6, 2, np.int16)})
    rule = TieRule(bound=cenmcc.ties.VALUE_BOUNDS["mcc"])
    count_pairs(store, [("f", "g")], ties={"f": rule}, jobs=1, quiet=True)
    assert store.undecided == {"f": 1}


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        ({"ties": "exactly"}, ValueError, "ties must be one of"),
        ({"ties": None}, ValueError, "ties must be one of"),
        ({"tie_rtol": -1e-9}, ValueError, "tie_rtol"),
        ({"tie_rtol": "small"}, TypeError, "tie_rtol"),
    ],
)
def test_bad_ties_are_refused(settings, error, message):
    with pytest.raises(error, match=message):
        Simulation(scaled, 10, **settings)
