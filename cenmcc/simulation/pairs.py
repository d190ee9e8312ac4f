"""Exact pair counts of two measures over many objects, split into tasks that run in parallel.

:func:`cenmcc.pair_counts` counts the concordant, discordant and tied pairs of n objects in one
process. Here the value range of f is cut into P buckets and that of g into P buckets (equal
values always share a bucket), and the pairs fall into three kinds, each counted exactly:

- pairs inside one f-bucket: :func:`cenmcc.pair_counts` on the bucket (P tasks);
- pairs in different f-buckets and the same g-bucket: :func:`cenmcc.pair_counts` of the
  f-bucket index against g on the g-bucket (P tasks; a tie of the index is a pair of the
  previous kind, and is not used);
- pairs in different f-buckets and different g-buckets: ordered by the buckets alone, counted
  from the P x P table of bucket counts with two-dimensional cumulative sums.

The counts are integers, so they are the same for any P and any schedule; each task holds about
n/P objects, so the work spreads over the workers (2 P tasks, about twice the work of a single
count in all, on n/P objects each).
"""

from __future__ import annotations

import itertools

import joblib
import numpy as np

import cenmcc

from .parallel import iter_tasks

#: Fewest objects per bucket worth a task of its own.
MIN_BUCKET = 50_000


def _buckets(values: np.ndarray, n_buckets: int) -> np.ndarray:
    """Bucket of each value, cut at quantiles; equal values share a bucket."""
    edges = np.quantile(values, np.linspace(0, 1, n_buckets + 1)[1:-1])
    return np.searchsorted(edges, values, side="right").astype(np.int32)


def _count(task) -> tuple[int, ...]:
    """Pair counts of one task: ``(f, g)`` arrays of one bucket."""
    return tuple(cenmcc.pair_counts(*task))


def _between_buckets(table: np.ndarray) -> tuple[int, int]:
    """Concordant and discordant pairs of objects in different f- and g-buckets.

    ``table[p, r]`` objects lie in f-bucket p and g-bucket r. A pair from cells (p, r) and
    (q, s) with p < q is concordant when r < s and discordant when r > s.
    """
    t = table.astype(np.int64)
    below = np.cumsum(np.cumsum(t, axis=0), axis=1)  # below[p, r]: cells p' <= p, r' <= r
    rows = np.cumsum(t.sum(axis=1))  # objects in f-buckets <= p
    concordant = int((t[1:, 1:] * below[:-1, :-1]).sum())
    # discordant: cells p' < q with r' > s: (objects in rows < q) - (those with r' <= s)
    discordant = int((t[1:, :] * (rows[:-1, None] - below[:-1, :])).sum())
    return concordant, discordant


def pair_counts(f, g, *, n_buckets: int | None = None, **parallel) -> cenmcc.PairCounts:
    """Exact :func:`cenmcc.pair_counts` of ``f`` and ``g``, computed in parallel tasks.

    Parameters
    ----------
    f, g : ndarray, shape (n,)
        Finite values of the two measures on the same objects.
    n_buckets : int, optional
        Buckets per measure (so ``2 n_buckets`` tasks); it never changes the result. By default
        one (a single :func:`cenmcc.pair_counts` in this process) with fewer than four
        workers, since the tasks do about twice the work of a single count; else four per
        worker, and fewer when a bucket would hold under :data:`MIN_BUCKET` objects.
    **parallel
        ``jobs``, ``backend``, ``scheduler``, ``quiet``, as in
        :func:`cenmcc.simulation.parallel.iter_tasks`.

    Returns
    -------
    cenmcc.PairCounts
        Equal to ``cenmcc.pair_counts(f, g)``.
    """
    f, g = np.asarray(f), np.asarray(g)
    if f.shape != g.shape or f.ndim != 1:
        raise ValueError(f"f and g must be 1-D of the same length, got {f.shape} and {g.shape}")
    if n_buckets is None:
        jobs = parallel.get("jobs", -1)
        workers = joblib.cpu_count() if jobs == -1 else jobs
        n_buckets = 1 if workers < 4 else max(1, min(4 * workers, f.size // MIN_BUCKET))
    if n_buckets == 1:
        return cenmcc.pair_counts(f, g)
    fb, gb = _buckets(f, n_buckets), _buckets(g, n_buckets)
    table = np.bincount(fb * n_buckets + gb, minlength=n_buckets**2).reshape(n_buckets, -1)
    by_f = np.argsort(fb, kind="stable")
    by_g = np.argsort(gb, kind="stable")
    f_edges = np.searchsorted(fb[by_f], np.arange(n_buckets + 1))
    g_edges = np.searchsorted(gb[by_g], np.arange(n_buckets + 1))
    slices = [
        (values, order[a:b])
        for values, order, edges in ((f, by_f, f_edges), (fb, by_g, g_edges))
        for a, b in itertools.pairwise(edges)
    ]
    # Buckets of fewer than two objects hold no pair.
    tasks = [(values[idx], g[idx]) for values, idx in slices if idx.size >= 2]
    kinds = np.array([values is f for values, idx in slices if idx.size >= 2])
    counts = np.array(list(iter_tasks(_count, tasks, desc="pair counts", **parallel)), dtype=object)
    # Columns: n_pairs, concordant, discordant, f_only, g_only, both_tied.
    within = counts[kinds].sum(axis=0)
    across = counts[~kinds].sum(axis=0)
    concordant, discordant = _between_buckets(table)
    n = f.size
    return cenmcc.PairCounts(
        n_pairs=n * (n - 1) // 2,
        concordant=int(within[1] + across[1] + concordant),
        discordant=int(within[2] + across[2] + discordant),
        f_only=int(within[3] + across[3]),
        g_only=int(within[4]),
        both_tied=int(within[5]),
    )
