"""Mergeable statistics and the parallel exact pair counts, against one pass over all the data."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cenmcc.simulation.streaming import (
    Histogram2D,
    KeyedMoments,
    Moments,
    OrderedReducer,
    PoissonBootstrap,
    add_by_key,
    key_groups,
)


def keyed(key: int, x: np.ndarray) -> KeyedMoments:
    """The moments of the rows ``x``, all of one key."""
    return KeyedMoments.of_parts([key], [Moments.of(x)])


def split(x: np.ndarray, rng: np.random.Generator, parts: int) -> list[np.ndarray]:
    cuts = np.sort(rng.choice(np.arange(1, len(x)), size=parts - 1, replace=False))
    return np.split(x, cuts)


@pytest.mark.parametrize("parts", [2, 3, 7, 40])
def test_merged_moments_equal_the_one_pass_moments(parts):
    rng = np.random.default_rng(parts)
    # Means far from 0 next to small spreads (as tMCC/(k·CEN), 1 ± 0.03), unequal scales:
    # where a naive sum of squares loses digits.
    x = rng.normal(size=(4000, 3)) * [0.03, 1.0, 50.0] + [1.0, -300.0, 0.5]
    x[:, 2] = rng.exponential(size=4000)  # skewed: a non-zero third moment
    merged = OrderedReducer(parts, Moments.merge)
    for i, piece in enumerate(split(x, rng, parts)):
        merged.add(i, Moments.of(piece))
    m = merged.result()
    assert m.n == len(x)
    np.testing.assert_allclose(m.mean, x.mean(axis=0), rtol=1e-12)
    cov = np.cov(x.T)
    np.testing.assert_allclose(np.diagonal(m.comoment) / (m.n - 1), np.diagonal(cov), rtol=1e-12)
    # Off the diagonal, relative to the scale of the entry (some covariances are near 0).
    sd = np.sqrt(np.diagonal(cov))
    np.testing.assert_allclose(
        m.comoment / (m.n - 1) / np.outer(sd, sd), np.corrcoef(x.T), atol=1e-12
    )
    dev = x - x.mean(axis=0)
    m2 = (dev**2).sum(axis=0)
    # The third moment relative to its scale (the skewness; column 0 is symmetric, near 0).
    np.testing.assert_allclose(m.third / m2**1.5, (dev**3).sum(axis=0) / m2**1.5, atol=1e-12)
    assert m.correlation(1, 2) == pytest.approx(np.corrcoef(x[:, 1], x[:, 2])[0, 1], rel=1e-12)


def test_scaled_moments_are_the_moments_of_the_scaled_columns():
    x = np.random.default_rng(1).exponential(size=(500, 2))
    a, b = Moments.of(x).scaled([2.5, -1.0]), Moments.of(x * [2.5, -1.0])
    np.testing.assert_allclose(a.mean, b.mean, rtol=1e-14)
    np.testing.assert_allclose(a.comoment, b.comoment, rtol=1e-13)
    np.testing.assert_allclose(a.third, b.third, rtol=1e-12)


@given(st.permutations(range(11)))
def test_the_reduction_gives_the_same_bits_in_any_order(order):
    rng = np.random.default_rng(3)
    pieces = [Moments.of(rng.normal(size=(int(rng.integers(2, 30)), 2)) + i) for i in range(11)]
    in_order = OrderedReducer(11, Moments.merge)
    shuffled = OrderedReducer(11, Moments.merge)
    for i in range(11):
        in_order.add(i, pieces[i])
    for i in order:
        shuffled.add(i, pieces[i])
    a, b = in_order.result(), shuffled.result()
    assert a.n == b.n
    for field in ("mean", "comoment", "third"):
        assert getattr(a, field).tobytes() == getattr(b, field).tobytes()


def test_the_reducer_refuses_a_missing_or_repeated_item():
    r = OrderedReducer(3, lambda a, b: a + b)
    r.add(1, 2)
    with pytest.raises(ValueError, match="already given"):
        r.add(1, 2)
    with pytest.raises(ValueError, match="only 0 of 3"):
        r.result()


def test_histograms_merge_exactly():
    rng = np.random.default_rng(5)
    x, y = rng.normal(size=(2, 3000))
    whole = Histogram2D.of(x, y, (-2, 2), (-1, 3), bins=17)
    parts = [
        Histogram2D.of(x[a:b], y[a:b], (-2, 2), (-1, 3), bins=17)
        for a, b in itertools.pairwise([0, 1000, 1001, 3000])
    ]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    np.testing.assert_array_equal(merged.counts, whole.counts)
    assert merged.outside == whole.outside == 3000 - whole.counts.sum()
    assert whole.outside > 0


@pytest.mark.parametrize("bins", [1, 7, 100, 200])
def test_histogram_counts_are_numpys_on_and_beside_every_edge(bins):
    rng = np.random.default_rng(bins)
    for low, high in [(0.0, 1.3), (-1.0, 1.0), (-0.37, 2.9)]:
        edges = np.linspace(low, high, bins + 1)
        on = rng.choice(edges, 400)
        x = np.concatenate(
            [
                rng.uniform(low - 0.3, high + 0.3, 2000),
                on,
                np.nextafter(on, np.inf),
                np.nextafter(on, -np.inf),
                [np.nan, np.inf, -np.inf, low, high],
            ]
        )
        y = rng.permutation(x)
        h = Histogram2D.of(x, y, (low, high), (low, high), bins)
        expected, _, _ = np.histogram2d(x, y, bins=bins, range=((low, high), (low, high)))
        np.testing.assert_array_equal(h.counts, expected)
        points = np.count_nonzero(~(np.isnan(x) | np.isnan(y)))  # NaN: left out, not outside
        assert h.outside == points - expected.sum() > 0


def test_poisson_bootstrap_sums_are_the_weighted_block_sums():
    rng = np.random.default_rng(6)
    y = rng.normal(size=250)
    blocks = rng.permutation(250) // 10
    weights = rng.poisson(1.0, size=(40, 25)).astype(float)
    # Two series sharing the blocks and weights add up to the bootstrap of the whole series.
    parts = PoissonBootstrap.of_series(
        [3, 5], [(y[:100], blocks[:100]), (y[100:], blocks[100:])], weights
    )
    whole = PoissonBootstrap.of_series([3], [(y, blocks)], weights)
    w = weights[:, blocks]  # the weight of each value in each resample
    expected = np.stack([w.sum(axis=1), w @ y, w @ y**2], axis=-1)
    np.testing.assert_allclose(whole.sums[0], expected, rtol=1e-12)
    np.testing.assert_allclose(parts.sums.sum(axis=0), whole.sums[0], rtol=1e-12)


def test_rows_are_added_key_by_key_and_a_one_sided_key_kept_as_it_is():
    a = np.array([[1.0, -0.0], [2.0, 3.0]])
    b = np.array([[10.0, 20.0], [-0.0, 0.5], [7.0, 8.0]])
    keys, out = add_by_key(np.array([3, 5]), a, np.array([4, 5, 9]), b)
    assert keys.tolist() == [3, 4, 5, 9]
    np.testing.assert_array_equal(out, [[1.0, -0.0], [10.0, 20.0], [2.0, 3.5], [7.0, 8.0]])
    assert np.signbit(out[0, 1])  # kept, not added to a zero
    same_keys, total = add_by_key(np.array([4, 5, 9]), b, np.array([4, 5, 9]), b)
    assert same_keys.tolist() == [4, 5, 9]
    np.testing.assert_array_equal(total, 2 * b)


@pytest.mark.parametrize("length", [0, 1, 2, 5, 28])
def test_a_batch_combines_pairwise_into_the_moments_of_all_its_rows(length):
    rng = np.random.default_rng(9)
    rows = [rng.normal(size=(20 + i, 2)) for i in range(length)]
    parts = [Moments.of(x) for x in rows]
    if length == 0:
        assert Moments.empty(2, (0,)).combined().n == 0
        return
    combined = KeyedMoments.of_parts(range(length), parts).total()
    whole = Moments.of(np.concatenate(rows))
    assert combined.n == whole.n
    for field in ("mean", "comoment", "third"):
        np.testing.assert_allclose(getattr(combined, field), getattr(whole, field), rtol=1e-12)
    if length == 5:  # neighbours first, the odd one out last: ((0 1)(2 3)) 4, bit for bit
        p = parts
        tree = p[0].merge(p[1]).merge(p[2].merge(p[3])).merge(p[4])
        for field in ("mean", "comoment", "third"):
            assert getattr(combined, field).tobytes() == getattr(tree, field).tobytes()


def test_merging_with_no_rows_changes_nothing():
    m = Moments.of(np.random.default_rng(7).normal(size=(30, 2)))
    empty = Moments.of(np.zeros((0, 2)))
    assert empty.n == 0
    for merged in (m.merge(empty), empty.merge(m)):
        assert merged.n == m.n
        assert merged.mean.tobytes() == m.mean.tobytes()
        assert merged.comoment.tobytes() == m.comoment.tobytes()
    assert empty.merge(empty).n == 0  # no division by zero


def test_keyed_moments_merge_key_by_key():
    rng = np.random.default_rng(8)
    x = {3: rng.normal(size=(40, 2)), 4: rng.normal(size=(25, 2)), 5: rng.normal(size=(10, 2))}
    a = keyed(3, x[3][:20]).merge(keyed(4, x[4]))
    b = keyed(5, x[5]).merge(keyed(3, x[3][20:]))
    merged = a.merge(b)
    assert merged.keys.tolist() == [3, 4, 5]
    for i, k in enumerate((3, 4, 5)):
        np.testing.assert_allclose(merged.moments[i].mean, x[k].mean(axis=0), rtol=1e-12)
        assert merged.moments[i].n == len(x[k])
    whole = Moments.of(np.concatenate([x[3], x[4], x[5]]))
    np.testing.assert_allclose(merged.total().comoment, whole.comoment, rtol=1e-12)


@pytest.mark.parametrize("shuffled", [False, True])
def test_moments_by_key_are_the_merged_moments_of_each_key_bit_for_bit(shuffled):
    rng = np.random.default_rng(9)
    key = np.repeat([3, 4, 7, 30], [50, 1, 200, 17])
    if shuffled:
        key = rng.permutation(key)
    x = rng.normal(size=(key.size, 3)) * [1.0, 1e-3, 40.0] + [0.5, 1.0, -3.0]
    groups = key_groups(key)
    assert [k for k, _ in groups] == [3, 4, 7, 30]
    by_key = KeyedMoments.by_key(groups, x)
    merged = keyed(3, x[key == 3])
    for k in (4, 7, 30):
        merged = merged.merge(keyed(k, x[key == k]))
    assert by_key.keys.tolist() == merged.keys.tolist()
    for name in ("n", "mean", "comoment", "third"):
        a, b = getattr(by_key.moments, name), getattr(merged.moments, name)
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), name


def test_the_third_moment_is_the_sum_of_cubed_deviations():
    x = np.random.default_rng(10).exponential(size=(500, 2))
    dev = x - x.mean(axis=0)
    np.testing.assert_allclose(Moments.of(x).third, (dev**3).sum(axis=0), rtol=1e-13)


def test_merging_tens_of_millions_of_rows_keeps_the_third_moment_exact():
    # n_a zeros and n_b ones: mean p = n_b / n, M2 = n p (1 - p), M3 = n p (1 - p) (1 - 2p).
    # The products of the two counts overflow int64 (1.5e7 · 5e6 · 1e7 > 9.2e18).
    na, nb = 15_000_000, 5_000_000
    zeros = Moments(na, np.zeros(1), np.zeros((1, 1)), np.zeros(1))
    ones = Moments(nb, np.ones(1), np.zeros((1, 1)), np.zeros(1))
    with np.errstate(over="raise"):
        merged = zeros.merge(ones)
    n, p = na + nb, nb / (na + nb)
    assert merged.n == n
    np.testing.assert_allclose(merged.mean, [p], rtol=1e-15)
    np.testing.assert_allclose(merged.comoment, [[n * p * (1 - p)]], rtol=1e-14)
    np.testing.assert_allclose(merged.third, [n * p * (1 - p) * (1 - 2 * p)], rtol=1e-14)
