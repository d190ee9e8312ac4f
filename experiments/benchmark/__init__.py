"""Benchmark the metric kernels against the floor and the peers, and time the experiments.

Kernels: on the same stack of random count matrices (entries uniform in [0, 999]) for each K,
the median CPU time of several repetitions of each implementation, and its ratio to the floor
(``np.log`` over the off-diagonal cells and one memory pass) and to its own floor, measured in
the same run; machines are shared and noisy, ratios
within one run are what compare. Slow peers (PyCM, scikit-learn) run on a subsample and are
scaled, and say so. Experiments: each ``python -m experiments`` command in a fresh process, with
its wall time and the peak resident memory of its process tree (workers included), and the
time of the computation alone as the run's ``timing.json`` reports it (generation, metrics and
statistics; no start-up, figures or tables). Scale (``--scale``): the random-matrix experiment
at 2·10⁵, 2·10⁶, 2·10⁷ and 10⁸ matrices (about 10 minutes on two cores), and at 2·10⁶ (or
each ``--scale-jobs-n``) with 1, 2, 4, ... workers up to the cores, each in a fresh process, in
``scale.csv`` and ``scale.md``, with a digest of each run's statistics (the same for every
number of workers).

Chunks: the CPU time of one chunk of the papers' generator (draws, CEN, MCC and tMCC, the
reduction) and of its parts against their floors, in ``chunks.csv``. Measures (with
``--scale``): the agreement study of eight measures against CEN and MCC alone, at 2·10⁶, in
``measures.csv``.

Every run writes into a scratch directory, removed however the benchmark ends.

The modules: :mod:`.settings` (what is timed, the sizes), :mod:`.compute` (the measurements),
:mod:`.plots` (the figure) and :mod:`.command` (``python -m experiments benchmark``).
"""
