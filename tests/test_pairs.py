"""The exact pair counts of a run: per-matrix values spilled to files, counted in the workers."""

import numpy as np
import pytest

import cenmcc
from cenmcc.simulation.pairs import ColumnStore, count_pairs


@pytest.fixture
def store():
    rng = np.random.default_rng(11)
    n = 3000
    K = rng.integers(3, 7, size=n).astype(np.int16)
    f = rng.integers(0, 20, size=n).astype(float)  # few values: many ties
    g = np.round(f + rng.normal(size=n), 1)
    h = rng.random(n)
    with ColumnStore(n) as s:
        for start in reversed(range(0, n, 700)):  # written in chunks, out of order
            rows = slice(start, start + 700)
            s.write(start, {"K": K[rows], "f": f[rows], "g": g[rows], "h": h[rows]})
        yield s, {"K": K, "f": f, "g": g, "h": h}


@pytest.mark.parametrize(("jobs", "backend"), [(1, "loky"), (2, "loky"), (2, "threading")])
def test_counts_equal_the_counts_of_the_columns(store, jobs, backend):
    s, columns = store
    np.testing.assert_array_equal(s.read("g"), columns["g"])
    counted = count_pairs(s, [("f", "g"), ("g", "h")], jobs=jobs, backend=backend, quiet=True)
    for f, g in [("f", "g"), ("g", "h")]:
        x, y, K = columns[f], columns[g], columns["K"]
        assert counted[f, g].overall == cenmcc.pair_counts(x, y)
        assert counted[f, g].by_group == {
            int(k): cenmcc.pair_counts(x[k == K], y[k == K]) for k in np.unique(K)
        }


def test_a_column_of_another_type_or_length_is_refused(store):
    s, _ = store
    with pytest.raises(TypeError, match="column 'f' is float64"):
        s.write(0, {"f": np.zeros(3, dtype=np.int32)})
    with pytest.raises(ValueError, match="needs 3000 values"):
        s.add("x", np.zeros(5))


def test_the_store_removes_its_files():
    with ColumnStore(10) as s:
        s.write(0, {"a": np.arange(10.0)})
        directory = s.directory
        assert (directory / "a.npy").exists()
    assert not directory.exists()
