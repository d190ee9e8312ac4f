"""The exact pair counts of a run: per-matrix values spilled to files, counted in the workers."""

import itertools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import cenmcc
from cenmcc import _ranking
from cenmcc.runtime import staging
from cenmcc.simulation import pairs
from cenmcc.simulation.pairs import PAIR_COUNT_BYTES, ColumnStore, count_pairs
from cenmcc.simulation.parallel import ParallelError


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


def test_omitted_columns_are_counted_over_their_defined_rows(store):
    s, columns = store
    rng = np.random.default_rng(5)
    u = np.where(rng.random(s.n) < 0.2, np.nan, columns["h"])
    s.add("u", u)
    s.add("none", np.full(s.n, np.nan))
    asked = [("f", "g"), ("f", "u"), ("u", "g"), ("u", "none")]
    counted = count_pairs(s, asked, omit=["u", "none"], jobs=2, quiet=True)
    assert list(counted) == asked
    assert counted["f", "g"] == count_pairs(s, [("f", "g")], quiet=True)["f", "g"]
    defined, K = ~np.isnan(u), columns["K"]
    for f, g in asked[1:3]:
        x, y = (columns.get(name, u) for name in (f, g))  # u is not in columns
        assert counted[f, g].left_out == np.count_nonzero(~defined) > 0
        assert counted[f, g].overall == cenmcc.pair_counts(x[defined], y[defined])
        assert counted[f, g].by_group == {
            int(k): cenmcc.pair_counts(x[defined & (k == K)], y[defined & (k == K)])
            for k in np.unique(K)
        }
    assert counted["u", "none"] == pairs.Counted(cenmcc.PairCounts(0, 0, 0, 0, 0, 0), {}, s.n)
    assert not list(s.directory.glob("defined-*"))  # the stores of defined rows are removed


@pytest.mark.parametrize("k", [2, 3, 7])
def test_counts_split_into_bands_and_groups_of_k_are_those_of_one_task(store, monkeypatch, k):
    s, columns = store
    asked = []
    monkeypatch.setattr(pairs, "splits", lambda *args: asked.append(args) or k)
    counted = count_pairs(s, [("f", "g"), ("g", "h")], jobs=2, quiet=True)
    # columns to rank within K, then overall; pairs to count
    assert asked == [(3000, 3, 2, None), (3000, 3, 2, None), (3000, 2, 2, None)]
    assert len(list(s.directory.glob("rank-g-*.npy"))) == k
    # every task writes files of its own: one a K for the ranks within K
    grouped = sorted(p.name for p in s.directory.glob("grouped-rank-g-*.npy"))
    assert grouped == [f"grouped-rank-g-{k}.npy" for k in sorted(set(columns["K"].tolist()))]
    for f, g in [("f", "g"), ("g", "h")]:
        x, y, K = columns[f], columns[g], columns["K"]
        assert counted[f, g].overall == cenmcc.pair_counts(x, y)
        assert counted[f, g].by_group == {
            int(k): cenmcc.pair_counts(x[k == K], y[k == K]) for k in np.unique(K)
        }


def test_bands_of_values_rank_each_value_by_how_many_are_smaller():
    rng = np.random.default_rng(3)
    values = np.concatenate(
        [rng.integers(0, 30, 3000).astype(float), [np.nan] * 5, [-0.0, 0.0, np.inf, -np.inf]]
    )
    rng.shuffle(values)
    numbers = ~np.isnan(values)
    smaller = stats.rankdata(values[numbers], method="min") - 1
    for k in (1, 2, 5, 40, 5000):
        edges = [None, *_ranking.value_edges(values, k), None]
        assert len(edges) - 1 <= min(k, 33)  # an edge at each of 32 distinct numbers at most
        ranks = np.full(values.size, -1)
        for lo, hi in itertools.pairwise(edges):
            rows, in_band = pairs.band_ranks(values, lo, hi)
            assert rows.dtype == in_band.dtype == np.int32
            assert (ranks[rows] == -1).all()  # each value in one band
            ranks[rows] = in_band
        np.testing.assert_array_equal(ranks[numbers], smaller)
        # NaN last, each its own rank, as in a sort
        assert sorted(ranks[~numbers]) == list(range(numbers.sum(), values.size))


@pytest.mark.parametrize("piece", [1, 7, 64, 10**6])
def test_a_band_ranked_in_pieces_is_offset_by_the_values_below_it(monkeypatch, piece):
    """A band's values sorted in pieces get their minimal ranks among all the values."""
    monkeypatch.setattr(_ranking, "SORT_PIECE", piece)
    rng = np.random.default_rng(5)
    values = np.concatenate([rng.integers(0, 40, 900) / 4, rng.random(300), [np.nan] * 7])
    rng.shuffle(values)
    numbers = ~np.isnan(values)
    rows, smaller = pairs.band_ranks(values, 2.0, None)  # from 2 up: offset by those below
    band = ~(values < 2.0)
    np.testing.assert_array_equal(rows, np.flatnonzero(band))
    expected = stats.rankdata(values[numbers], method="min") - 1
    np.testing.assert_array_equal(smaller[numbers[band]], expected[values[numbers] >= 2.0])
    assert sorted(smaller[~numbers[band]]) == list(range(numbers.sum(), values.size))


def test_a_pair_is_split_to_keep_every_worker_busy_in_the_memory_available(monkeypatch):
    n = pairs.SPLIT_FROM
    monkeypatch.setattr(pairs, "available_bytes", lambda: 2**60)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert pairs.splits(n - 1, 1, 16) == 1  # small counts stay whole
    assert pairs.splits(n, 1, 1) == 1
    assert pairs.splits(n, 1, 16) == 16
    assert pairs.splits(n, 1, -1) == 4
    assert pairs.splits(n, 2, 2) == 1
    assert pairs.splits(n, 0, 2) == 1  # nothing to split
    assert pairs.splits(n, 1, 2, "tcp://cluster:8786") == 4  # its workers: this machine's cores
    # Room for 8 tasks at once: two counts of a pair in 4 bands each, however many workers.
    monkeypatch.setattr(pairs, "available_bytes", lambda: 8 * PAIR_COUNT_BYTES * n)
    assert pairs.splits(n, 1, 16) == 4
    monkeypatch.setattr(pairs, "available_bytes", lambda: 0)
    assert pairs.splits(n, 1, 16) == 1


@pytest.mark.parametrize(
    ("items", "workers", "parts"), [(3, 2, 2), (5, 2, 2), (4, 2, 1), (3, 16, 10), (7, 16, 4)]
)
def test_items_are_split_into_parts_that_share_out_evenly(monkeypatch, items, workers, parts):
    """3 columns on 2 workers: 6 halves (3 rounds of half a column), not 3 wholes (2 rounds
    of a whole); the parts per item are at most twice the fewest that occupy every worker."""
    monkeypatch.setattr(pairs, "available_bytes", lambda: 2**60)
    assert pairs.splits(pairs.SPLIT_FROM, items, workers) == parts

    def rounds(k):  # in units of a whole item
        return -(-items * k // workers) / k

    least = -(-workers // items)
    assert all(rounds(parts) <= rounds(k) for k in range(least, 2 * least + 1))


def test_only_the_columns_not_yet_ranked_are_split_into_bands(store, monkeypatch):
    s, columns = store
    asked = []
    monkeypatch.setattr(pairs, "splits", lambda *args: asked.append(args) or 2)
    count_pairs(s, [("f", "g")], by_group=False, jobs=2, quiet=True)
    count_pairs(s, [("f", "h"), ("g", "h")], by_group=False, jobs=2, quiet=True)
    assert [args[1] for args in asked] == [2, 1, 1, 2]  # columns to rank, pairs to count
    assert not list(s.directory.glob("grouped-rank-*"))  # nothing ranked within K
    assert count_pairs(s, [("g", "h")], by_group=False, quiet=True)[
        "g", "h"
    ].overall == cenmcc.pair_counts(columns["g"], columns["h"])


def test_each_ks_rows_in_the_order_by_k_come_from_a_count_of_each_k(monkeypatch):
    monkeypatch.setattr(pairs, "BLOCK_ROWS", 7)  # counted over several blocks
    K = np.random.default_rng(4).choice([3, 5, 9, 12], size=100).astype(np.int16)
    with ColumnStore(K.size) as s:
        s.write(0, {"K": K})
        s.flush()
        bounds = pairs.group_bounds(s)
        order = np.argsort(K, kind="stable")
        assert list(bounds) == [3, 5, 9, 12]
        assert [b for _, b in bounds.values()][-1] == K.size
        for k, (a, b) in bounds.items():
            assert b - a == np.count_nonzero(k == K)
            assert (K[order[a:b]] == k).all()
        # the rows of a part of consecutive K are that part of the order by K
        for part in ({3: bounds[3]}, {5: bounds[5], 9: bounds[9]}, bounds):
            rows = pairs._group_rows(s.directory, part)
            a, b = min(a for a, _ in part.values()), max(b for _, b in part.values())
            np.testing.assert_array_equal(rows, order[a:b])


def test_groups_are_parted_whole_and_in_order():
    bounds = {3: (0, 10), 4: (10, 500), 5: (500, 520), 6: (520, 1000)}
    for k in (1, 2, 3, 8):
        parts = pairs._parts(bounds, k)
        assert 1 <= len(parts) <= k
        assert [key for part in parts for key in part] == list(bounds)
        assert all(part[key] == bounds[key] for part in parts for key in part)
    assert len(pairs._parts(bounds, 2)) == 2
    assert pairs._parts({}, 4) == [{}]


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


def test_a_derived_column_is_written_block_by_block_as_the_array_would_be(store, monkeypatch):
    s, columns = store
    monkeypatch.setattr(pairs, "BLOCK_ROWS", 700)
    asked = []

    def doubled(rows):
        asked.append((rows.start, rows.stop))
        return 2.0 * s.read("h", rows)

    s.add("doubled", doubled)
    np.testing.assert_array_equal(s.read("doubled"), 2.0 * columns["h"])
    assert asked == [(a, min(a + 700, 3000)) for a in range(0, 3000, 700)]
    with pytest.raises(ValueError, match=r"needs 700 values for rows 0\.\.699, got 3"):
        s.add("short", lambda rows: np.zeros(3))


def test_rows_of_a_column_are_read_into_memory(store):
    s, columns = store
    block = s.read("g", slice(1234, 2000))
    assert not isinstance(block, np.memmap)
    np.testing.assert_array_equal(block, columns["g"][1234:2000])
    np.testing.assert_array_equal(s.read("K", slice(2990, None)), columns["K"][2990:])
    with pytest.raises(ValueError, match="consecutive"):
        s.read("g", slice(0, 10, 2))


def test_a_column_is_written_whole_when_the_system_writes_part_of_it(monkeypatch):
    # One pwrite writes at most about 2 GiB on Linux: a column of 3·10⁸ float64 values would
    # lose its end if the store wrote it in one call.
    write = os.pwrite
    monkeypatch.setattr(os, "pwrite", lambda fd, data, offset: write(fd, data[:1000], offset))
    values = np.random.default_rng(0).random(10_000)
    with ColumnStore(values.size) as s:
        s.add("x", values)
        np.testing.assert_array_equal(s.read("x"), values)


#: A process that makes a store, says where, and waits to be killed.
HOLD_A_STORE = """
import time
import numpy as np
from cenmcc.simulation.pairs import ColumnStore
store = ColumnStore(10)
store.write(0, {"a": np.arange(10.0)})
print(store.directory, flush=True)
time.sleep(120)
"""


def _store_of_another_process(tmp_path):
    env = os.environ | {"TMPDIR": str(tmp_path), "PYTHONPATH": os.getcwd()}
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD_A_STORE], stdout=subprocess.PIPE, text=True, env=env
    )
    return process, Path(process.stdout.readline().strip())


def test_a_store_left_by_a_killed_run_is_removed_by_the_next_one(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    killed, left = _store_of_another_process(tmp_path)
    live, kept = _store_of_another_process(tmp_path)
    try:
        killed.kill()
        killed.communicate()
        assert left.parent == tmp_path
        assert (left / "a.npy").exists()
        old = tmp_path / "cenmcc-columns-abcd1234"  # an earlier version's: cannot tell
        old.mkdir()
        with ColumnStore(10) as s:
            assert not left.exists()
            assert sorted(tmp_path.iterdir()) == sorted([kept, old, s.directory])
        assert sorted(tmp_path.iterdir()) == sorted([kept, old])
    finally:
        live.kill()
        live.communicate()
    assert pairs.remove_abandoned() == [kept]


def test_a_locked_store_is_kept_whatever_its_process_id(tmp_path):
    held = tmp_path / f"{pairs.COLUMNS_PREFIX}{os.getpid()}-x"
    free = tmp_path / f"{pairs.COLUMNS_PREFIX}{os.getpid()}-y"
    held.mkdir()
    free.mkdir()
    with staging.locked(held):
        assert pairs.remove_abandoned(tmp_path) == [free]
    assert list(tmp_path.iterdir()) == [held]


#: A store of 10⁶ float64 values (8 MB) written into a temporary directory of 1 MB.
FILLS_THE_DISK = """
import numpy as np
from cenmcc.runtime.files import WriteError
from cenmcc.simulation.pairs import ColumnStore

with ColumnStore(10**6) as store:
    try:
        store.write(0, {"x": np.ones(10**6)})
    except WriteError as err:
        print(err)
print("left:", list(store.directory.parent.iterdir()))
"""


#: A process in user and mount namespaces of its own, as root there: it may mount a tmpfs.
NAMESPACE = ("unshare", "--user", "--map-root-user", "--mount")


def test_a_full_disk_is_an_error_naming_the_file_not_a_sigbus(tmp_path):
    """On a real 1 MB tmpfs, mounted in a mount namespace of the test's own (``unshare``, which
    needs no root where user namespaces are allowed): a write through the memory map of a
    file whose pages the disk cannot hold killed the process with SIGBUS."""
    small = tmp_path / "small"
    small.mkdir()
    mount = 'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$1" -c "$2"'
    env = os.environ | {"TMPDIR": str(small), "PYTHONPATH": os.getcwd()}
    done = subprocess.run(
        [*NAMESPACE, "sh", "-c", mount, str(small), sys.executable, FILLS_THE_DISK],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr  # -7: SIGBUS
    assert re.fullmatch(
        rf"cannot write {re.escape(str(small))}/{pairs.COLUMNS_PREFIX}\d+-\w+/x\.npy: No space "
        r"left on device \(the temporary directory; set TMPDIR to a larger disk\)\nleft: \[\]\n",
        done.stdout,
    ), done.stdout


def test_a_full_disk_in_a_task_names_the_file(store, monkeypatch):
    s, _ = store

    def disk_full(path, values):
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(np, "save", disk_full)
    named = rf"cannot write {re.escape(str(s.directory))}/[\w-]+\.npy: No space left on device"
    with pytest.raises(ParallelError, match=named):
        count_pairs(s, [("f", "g")], jobs=1, quiet=True)
