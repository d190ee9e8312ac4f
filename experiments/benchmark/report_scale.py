"""Time ``cenmcc.report`` at scale (issue 48 item 3): 10**6 items, 20 classes, 5 classifiers,
8 measures, every paired comparison; wall and CPU time, peak memory, and the joint cells each
comparison resamples.

Two kinds of errors: ``neighbours`` (each classifier errs on the hard items, 25 % of them, to a
class next to the true one on a ring: the joint tables have few non-empty cells, as the errors
of real classifiers concentrate on confusable classes), and ``uniform`` (independent errors to
any class: nearly every one of the K^3 cells is non-empty, the worst case). The multinomial
resampling of L non-empty cells costs about B * L binomial draws per comparison.

    python -m experiments.benchmark.report_scale --errors neighbours
    python -m experiments.benchmark.report_scale --errors uniform

Measured on 2026-11-28 on the shared 2-core machine (one core): 2.7 s CPU with neighbours'
errors (180 non-empty cells per pair) and 7.3 s with uniform errors (7,000-8,000 cells per
pair), peak RSS 0.24 GiB, where every class has 1,000 items or more and ``method="auto"`` takes
the delta method. Before that rule it took BCa for every measure: 6.9 s and 110 s, the bulk of
the latter in ``numpy.random.Generator.multinomial`` (B * L = 8 * 10^7 binomial draws of about
100-150 ns), which a test set with a smaller class still pays.
"""

from __future__ import annotations

import argparse
import itertools
import resource
import time

import numpy as np

import cenmcc
from cenmcc.paired import joint_cells

MEASURES = [*cenmcc.reporting.DEFAULT_MEASURES, "informedness", "macro_mcc"]


def labels(n: int, K: int, classifiers: int, errors: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    hard = rng.random(n) < 0.25
    predictions = {}
    for q in range(classifiers):
        if errors == "neighbours":
            wrong = hard & (rng.random(n) < 0.3 + 0.1 * q)
            step = rng.choice([-1, 1], n)
        else:
            wrong = rng.random(n) < 0.1 + 0.04 * q
            step = rng.integers(1, K, n)
        predictions[f"model {q}"] = np.where(wrong, (y + step) % K, y)
    return y, predictions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--K", type=int, default=20)
    parser.add_argument("--classifiers", type=int, default=5)
    parser.add_argument("--resamples", type=int, default=9999)
    parser.add_argument("--errors", choices=("neighbours", "uniform"), default="neighbours")
    args = parser.parse_args()
    y, predictions = labels(args.n, args.K, args.classifiers, args.errors)
    cells = [len(joint_cells(y, predictions[a], predictions[b])[0])
             for a, b in itertools.combinations(predictions, 2)]  # fmt: skip
    wall, cpu = time.perf_counter(), time.process_time()
    report = cenmcc.report(
        y, predictions, measures=MEASURES, n_resamples=args.resamples, random_state=0
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(
        f"{args.n:,} items, K = {args.K}, {args.classifiers} classifiers, {len(MEASURES)} "
        f"measures, B = {args.resamples}, {args.errors} errors: {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU, peak RSS {peak:.2f} GiB; non-empty joint cells per pair "
        f"{min(cells)}-{max(cells)}; {len(report.comparisons)} comparison rows"
    )


if __name__ == "__main__":
    main()
