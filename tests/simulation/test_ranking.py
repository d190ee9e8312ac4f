"""Ranks sorted in pieces of increasing values: those of one sort of all the values."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import cenmcc
from cenmcc import _ranking


@pytest.mark.parametrize("piece", [1, 7, 64, 10**6])
def test_ranks_sorted_in_pieces_are_those_of_one_sort(monkeypatch, piece):
    """Cut into pieces of increasing values, sorted one at a time, the values get the ranks
    of one sort: minimal (how many are smaller) and dense, ties in one piece, NaN last."""
    monkeypatch.setattr(_ranking, "SORT_PIECE", piece)
    rng = np.random.default_rng(5)
    values = np.concatenate([rng.integers(0, 40, 900) / 4, rng.random(300), [np.nan] * 7])
    rng.shuffle(values)
    numbers = ~np.isnan(values)
    for dense, method in [(True, "dense"), (False, "min")]:
        ranks = _ranking.ranks(values, dense=dense, offset=3)
        assert ranks.dtype == np.int32
        expected = stats.rankdata(values[numbers], method=method) - 1 + 3
        np.testing.assert_array_equal(ranks[numbers], expected)
        first = (np.unique(values[numbers]).size if dense else numbers.sum()) + 3
        assert sorted(ranks[~numbers]) == list(range(first, first + 7))
    assert _ranking.dense_ranks(values[:0]).size == 0


@pytest.mark.parametrize("block", [1, 5, 2**15])
def test_edges_below_each_value_are_those_searchsorted_finds(monkeypatch, block):
    monkeypatch.setattr(_ranking, "EDGE_BLOCK", block)
    rng = np.random.default_rng(2)
    values = np.concatenate(
        [rng.integers(-3, 4, 60) / 2, [np.nan, np.inf, -np.inf, -0.0, 0.0], rng.random(40)]
    )
    rng.shuffle(values)
    for edges in ([], [0.0], [-1.0, 0.0, 0.5, 1.5], sorted(rng.random(300))):
        below = _ranking.edges_below(values, edges)
        assert below.dtype == np.uint16
        np.testing.assert_array_equal(below, np.searchsorted(edges, values, side="right"))
    with pytest.raises(ValueError, match="at most 65535 edges"):
        _ranking.edges_below(values, list(range(2**16)))


def test_integer_edges_are_exact_beyond_float_precision():
    """Integers above 2**53 differ by less than a float64's step: their edges stay integers,
    so that the pieces are cut between values that a float would make equal."""
    values = 2**60 + np.arange(4000, dtype=np.int64)[::-1]
    edges = _ranking.value_edges(values, 4)
    assert all(type(edge) is int for edge in edges)
    assert len(edges) == 3  # distinct, though equal as floats
    np.testing.assert_array_equal(
        _ranking.edges_below(values, edges), np.searchsorted(np.array(edges), values, "right")
    )


@pytest.mark.parametrize("piece", [5, 64])
def test_public_ranks_and_pair_counts_rank_in_pieces(monkeypatch, piece):
    """tie_groups and pair_counts with exact ties rank in pieces: the same ranks and counts as
    one sort (the ranks' reference is SciPy's), for floats and for integers beyond 2**53; a
    tolerance still chains ties across the pieces' edges."""
    rng = np.random.default_rng(9)
    floats = rng.integers(0, 50, 3000) / 7
    integers = 2**60 + rng.integers(0, 50, 3000)
    expected = {
        "floats": stats.rankdata(floats, method="dense") - 1,
        "integers": stats.rankdata(integers - 2**60, method="dense") - 1,
    }
    chained = cenmcc.tie_groups(floats, atol=0.2)
    whole = cenmcc.pair_counts(floats, integers)
    monkeypatch.setattr(_ranking, "SORT_PIECE", piece)
    np.testing.assert_array_equal(cenmcc.tie_groups(floats), expected["floats"])
    np.testing.assert_array_equal(cenmcc.tie_groups(integers), expected["integers"])
    np.testing.assert_array_equal(cenmcc.tie_groups(floats, atol=0.2), chained)
    assert chained.max() == 0  # steps of 1/7 under 0.2: one chain
    assert cenmcc.pair_counts(floats, integers) == whole


def _sorted_by(order, values):
    """The values in ``order``, which must be a permutation of their indices."""
    assert order.dtype == np.intp
    np.testing.assert_array_equal(np.sort(order), np.arange(values.size))
    return values[order]


@given(
    st.one_of(
        st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64)),
        st.lists(st.floats(-1e-300, 1e-300)),  # a range too narrow for the key's scale
        st.lists(st.integers(-(2**63), 2**63 - 1)),
        st.lists(st.integers(0, 2**64 - 1)),
        st.lists(st.integers(2**60, 2**60 + 100)),  # equal as floats
        st.lists(st.sampled_from([-1.0, -0.0, 0.0, 1e-9, 1 + 2**-52, 1.0, 2**60])),
    ),
    st.sampled_from([0, 3]),
)
def test_sorting_order_sorts_any_real_values(values, radix_min):
    """Ordered by its key and then by a stable sort, the values come out sorted whatever the
    key (ties, NaN and infinities, integers beyond 2**53, a range of subnormals)."""
    values = np.array(values)
    with mock.patch.object(_ranking, "RADIX_MIN", radix_min):
        order = _ranking.sorting_order(values)
    np.testing.assert_array_equal(_sorted_by(order, values), np.sort(values))


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(1).random(5000),
        np.random.default_rng(2).lognormal(0, 6, 5000),  # most keys 0, a few spread
        # close values, all of key 0 beside one far away
        np.r_[1 + np.random.default_rng(3).integers(0, 2**12, 5000) * 2.0**-52, 2**40],
        np.random.default_rng(4).integers(0, 40, 5000).astype(np.float32),
        np.random.default_rng(5).integers(-(2**62), 2**62, 5000),
    ],
)
def test_sorting_order_by_key_is_a_sort(monkeypatch, values):
    """Above RADIX_MIN the values are ordered by the key, then by the final sort where keys
    are equal: sorted, whether the key spreads them or leaves many equal."""
    monkeypatch.setattr(_ranking, "RADIX_MIN", 64)
    np.testing.assert_array_equal(
        _sorted_by(_ranking.sorting_order(values), values), np.sort(values)
    )
