"""Every experiment, declared once: its command, module, outputs, summary and figures.

``python -m experiments`` builds its commands and ``all`` from :data:`EXPERIMENTS`, the
benchmark times them from it, and paper_checks reads it to know where each summary is, what it
must hold, and which figures the gallery (figures/README.md) shows. A new experiment is a
package laid out as the others (:mod:`experiments`), whose ``command`` module has
``add_arguments(parser)`` (its own options only) and ``main(args, out) -> Computed`` (and
optionally ``check_arguments(parser, args)``), and one entry here, naming the shared options it
takes (:attr:`Experiment.options`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType


@dataclass(frozen=True)
class Figure:
    """A figure an experiment writes, shown in the gallery (figures/README.md).

    Attributes
    ----------
    file : str
        Its file name in the experiment's folder (a PNG).
    title : str
        A short title (also the image's alternative text).
    caption : str
        What it shows, in one sentence.
    """

    file: str
    title: str
    caption: str


@dataclass(frozen=True)
class Experiment:
    """One command of ``python -m experiments``.

    Attributes
    ----------
    command : str
        The command's name, ``python -m experiments <command>``.
    module : str
        The module with ``add_arguments(parser)``, ``main(args, out)`` and optionally
        ``check_arguments(parser, args)``: the experiment's ``command``.
    folder : str
        Its output directory, ``<out>/<folder>`` (``out`` is ``figures/`` by default).
    summary : str
        What it does, in one line (the command list of ``--help``).
    description : str
        What it does, for its own ``--help``.
    outputs : str
        The files it writes, for its ``--help``.
    summary_keys : tuple of str
        Top-level keys its ``summary.json`` must hold (paper_checks refuses a summary without
        them); empty for a command without a summary.
    figures : tuple of Figure
        Its figures in the gallery (figures/README.md), in order.
    options : tuple of str
        The shared option groups it takes after its own, in the order of its ``--help``:
        ``seed`` (``--seed``), ``parallel`` (``--jobs``, ``--backend``, ``--scheduler``) and
        ``output`` (``--out``, ``--quiet``), added by
        :func:`cenmcc.commands.arguments.add_option_groups`.
    in_all : bool
        Whether ``python -m experiments all`` runs it.
    updates : bool
        A run rewrites only some of the files and keeps the others
        (:func:`cenmcc.runtime.staging.staged_directory` with ``update=True``).
    files : tuple of str
        Every other file its ``main`` may write, whatever its options (tables, the figures'
        PDFs, a figure not in the gallery): with the figures and the runner's files, what
        :attr:`writes` lists.
    """

    command: str
    module: str
    folder: str
    summary: str
    description: str
    outputs: str
    summary_keys: tuple[str, ...] = ()
    figures: tuple[Figure, ...] = ()
    options: tuple[str, ...] = ("output",)
    in_all: bool = True
    updates: bool = False
    files: tuple[str, ...] = ()

    def load(self) -> ModuleType:
        """The experiment's module, imported."""
        return importlib.import_module(self.module)

    @property
    def writes(self) -> tuple[str, ...]:
        """Every file a run may write into its folder: the runner's (:data:`RUNNER_FILES`),
        its figures' and its other :attr:`files`. A file of the user's with one of these names
        is refused before the run (:func:`cenmcc.runtime.staging.check_replaceable`)."""
        return (*RUNNER_FILES, *(figure.file for figure in self.figures), *self.files)

    @property
    def epilog(self) -> str:
        """The end of its ``--help``: where its outputs go."""
        return (
            f"Writes to DIR/{self.folder}/ (default: figures/{self.folder}/): {self.outputs}, "
            "run.json (the command and its arguments) and timing.json (how long it took, on "
            "which machine; not in git). The previous outputs there are replaced only once the "
            "run has written all of its own; a directory no run wrote is never replaced."
        )


#: The file of a run's timings and machine, beside its outputs; git ignores it (.gitignore).
TIMING = "timing.json"

#: The files the runner writes beside an experiment's own (:class:`Computed`).
RUNNER_FILES = ("summary.json", "run.json", TIMING)


@dataclass(frozen=True)
class Computed:
    """What an experiment's ``main(args, out)`` returns to the runner, which writes it.

    The runner writes ``summary.json`` (the summary with the run's record under ``run``),
    ``run.json`` (the record alone) and ``timing.json`` (``computation_seconds``,
    ``command_seconds``, ``details`` and ``machine``), so timings never enter the results.

    Attributes
    ----------
    summary : dict or None
        The experiment's summary; None for a command that writes none (the benchmark).
    seconds : float or None
        The time of the computation alone (no start-up, figures or tables).
    details : dict
        The experiment's own breakdown of its time and settings (``timing.json``'s
        ``details``).
    """

    summary: dict | None
    seconds: float | None = None
    details: dict = field(default_factory=dict)


#: Every command, in the order ``all`` runs them and the gallery shows their figures (the
#: papers' order).
EXPERIMENTS = (
    Experiment(
        command="random-matrices",
        module="experiments.random_matrices.command",
        folder="random_matrices",
        options=("seed", "parallel", "output"),
        summary="the 200,000 random matrices: tMCC against k·CEN, the refitted k, Figure 2",
        description="Draws random confusion matrices as the papers describe (N = 3 to 30 "
        "classes, diagonal entries in 1..1000, off-diagonal entries in 1..⌊1000 ρ⌋ with ρ "
        "uniform in [0.01, 1]), measures CEN, MCC and tMCC, and compares tMCC with k·CEN: "
        "Pearson's r, the degree of consistency over all pairs, the mean ratio with bootstrap "
        "intervals, and k(N) refitted. The same seed gives the same results for any --jobs, "
        "backend or scheduler.",
        outputs="summary.json (every statistic, the printed values next to them), "
        "k_per_dimension.csv, figure2 and k_per_dimension (.png, .pdf), and with --table "
        "matrices.npz (every matrix's measures, not in git)",
        summary_keys=("n_matrices", "pearson_cen_mcc", "pearson_tmcc_kcen", "k_fit"),
        figures=(
            Figure(
                "figure2.png",
                "Figure 2: the 200,000 random matrices",
                "The journal's Figure 2 (the preprint's Figure 1): CEN against MCC (a) and "
                "k·CEN against tMCC (b) for the 200,000 random matrices as densities (matrices "
                "per cell, log scale), printed k.",
            ),
            Figure(
                "k_per_dimension.png",
                "The constant k of Eq. (3) per number of classes",
                "The empirical k of each N (mean ± 1 SD of tMCC/CEN over its matrices) "
                "against the printed k(N) of Eq. (3) and the k(N) refitted to the same "
                "matrices.",
            ),
        ),
        files=("k_per_dimension.csv", "figure2.pdf", "k_per_dimension.pdf", "matrices.npz"),
    ),
    Experiment(
        command="protocol",
        module="experiments.protocol.command",
        folder="protocol",
        options=("seed", "parallel", "output"),
        summary="which reading of the random-matrix protocol gives the printed numbers",
        description="Reruns the random matrices under named readings of the printed protocol "
        "(how N is drawn, where ρ applies, the integer ranges, the logarithm of k(N), the "
        "preprint's Eq. (3), the base of CEN's logarithm, k refitted, the interval, the tie "
        "rule) and measures the distance of each statistic from its published value in "
        "combined standard errors. Readings that differ only in the analysis share one "
        "simulation.",
        outputs="summary.json (every reading's statistics and distances, the closest reading "
        "and the verdict), readings.csv, readings.md and protocol (.png, .pdf)",
        summary_keys=("readings", "closest", "verdict"),
        figures=(
            Figure(
                "protocol.png",
                "Which reading of the protocol gives the printed numbers",
                "Distance of each reading's statistics from the published values, in combined "
                "standard errors (shaded: ±3).",
            ),
        ),
        files=("readings.csv", "readings.md", "protocol.pdf"),
    ),
    Experiment(
        command="discriminancy",
        module="experiments.discriminancy.command",
        folder="discriminancy",
        options=("output", "parallel"),
        summary="degrees of discriminancy of CEN, MCC and accuracy on small three-class problems",
        description="Enumerates every confusion matrix of three classes with given class sizes "
        "and counts the pairs that CEN, MCC and accuracy order alike, oppositely or as ties "
        "(exact ties, float ==, and a relative tolerance): the (2, 4, 3) case of the journal, "
        "then every split of --n-min to --n-max samples into three classes.",
        outputs="summary.json, cases.csv, cases.md and discriminancy (.png, .pdf)",
        summary_keys=("paper_case", "cases", "sweep"),
        figures=(
            Figure(
                "discriminancy.png",
                "Degrees of discriminancy, 9 to 19 samples in three classes",
                "Degrees of discriminancy of CEN over MCC (exact and float ties), CEN over ACC "
                "and MCC over ACC for every split of 9 to 19 samples into three classes; the "
                "(2, 4, 3) case circled, the printed 'about 6' dashed.",
            ),
        ),
        files=("cases.csv", "cases.md", "discriminancy.pdf"),
    ),
    Experiment(
        command="binary",
        module="experiments.binary_exhaustive.command",
        folder="binary",
        summary="CEN and MCC of every binary confusion matrix (Figures 3 and 4)",
        description="Enumerates every 2 x 2 confusion matrix with --s-min to --s-max samples, "
        "measures CEN and MCC, correlates them per number of samples and over all, and decides "
        "exactly where CEN exceeds 1 and where it is largest.",
        outputs="summary.json, by_total.csv, figure3 and figure4 (.png, .pdf), and with "
        "--save-matrices matrices_table.csv.gz (not in git)",
        summary_keys=("pearson_by_s", "share_cen_above_1", "figure3"),
        figures=(
            Figure(
                "figure3.png",
                "Figure 3: CEN and MCC of [[T, F], [F, T]]",
                "The journal's Figure 3: CEN and MCC of [[T, F], [F, T]] against T/F, with CEN "
                "> 1 for 0 < T < F and its maximum 2/(e ln 2) at T/F = e/2 - 1.",
            ),
            Figure(
                "figure4.png",
                "Figure 4: every binary confusion matrix",
                "The journal's Figure 4: CEN against MCC for every binary matrix on s = 5, 10, "
                "25, 50, 75 samples, and for all s = 1..100 (matrices per cell, log scale; r in "
                "each title).",
            ),
        ),
        files=("by_total.csv", "matrices_table.csv.gz", "figure3.pdf", "figure4.pdf"),
    ),
    Experiment(
        command="families",
        module="experiments.families.command",
        folder="families",
        summary="every closed form the papers print for the Z_A, dice, B(T, F) and binary "
        "families, checked",
        description="Evaluates each closed form printed by the preprint or the journal on a "
        "grid of parameters and compares it with CEN, MCC, accuracy and tMCC of the "
        "constructed matrix: one verdict per formula, with the smallest counterexample and the "
        "corrected form where it does not hold; the identities also in exact rational "
        "arithmetic and, with sympy, symbolically.",
        outputs="summary.json, formulas.csv, formulas.md, examples.csv, the figures z_a, dice, "
        "dice_limit and b (.png, .pdf), and with --table checks_table.csv.gz (not in git)",
        summary_keys=("formulas", "examples", "box1c_search"),
        figures=(
            Figure(
                "z_a.png",
                "The Z_A family",
                "ACC, MCC and CEN of Z_A against A for N = 3, 4, 5, 10, 30 (dotted: the MCC "
                "limit -1/(2(N - 1))): accuracy and MCC fall while CEN improves.",
            ),
            Figure(
                "dice.png",
                "Dice rolling on unbalanced classes",
                "CEN (dotted: its limit) and MCC of the dice-rolling matrices against A: MCC is "
                "0 for every A, CEN is not constant.",
            ),
            Figure(
                "dice_limit.png",
                "The dice-rolling limit",
                "The dice-rolling limit (N - 1)/(2N) log_{2N-2}(N + 1) against N, with CEN at "
                "A = 10⁹ (dots, N = 2..30) and the asymptote 1/2.",
            ),
            Figure(
                "b.png",
                "The B(T, F) family",
                "CEN and MCC of B(T, F) (T on the diagonal, F elsewhere) against T/F for N = 2, "
                "3, 5, 10, 30; the binary maximum of CEN is starred.",
            ),
        ),
        files=(
            "formulas.csv",
            "formulas.md",
            "examples.csv",
            "checks_table.csv.gz",
            "z_a.pdf",
            "dice.pdf",
            "dice_limit.pdf",
            "b.pdf",
        ),
    ),
    Experiment(
        command="agreement",
        module="experiments.agreement.command",
        folder="agreement",
        options=("seed", "parallel", "output"),
        summary="beyond the papers: which of eight measures rank matrices alike, by K and "
        "class imbalance",
        description="Compares eight measures (CEN, MCC, Cohen's kappa, accuracy, balanced "
        "accuracy, macro F1, micro F1, tMCC) on three generators: the papers' random matrices "
        "(K = 3 to 30) and a classifier with Dirichlet-distributed error rates on K = 3 to 50 "
        "classes, strongly imbalanced (class proportions from a Dirichlet of parameter 0.3) or "
        "balanced (100). For every pair of measures it counts every pair of matrices exactly, "
        "overall and within each K: the degrees of consistency and discriminancy and Kendall's "
        "tau_b, with the Pearson correlation, each with its standard error; then states what "
        "the numbers say. The same seed gives the same results for any --jobs, backend or "
        "scheduler.",
        outputs="summary.json (per generator, every pair's statistics with standard errors, "
        "its consistency per K, and the findings), pairs.csv, measures.csv, agreement.md, and "
        "agreement_matrices, consistency_by_k and cen_mcc_density (.png, .pdf)",
        summary_keys=("generators", "findings", "measures"),
        figures=(
            Figure(
                "agreement_matrices.png",
                "Which measures rank confusion matrices alike",
                "Degree of consistency of every pair of eight measures (oriented so that higher "
                "is better; 1: never ordered oppositely) on the papers' random matrices and on "
                "a Dirichlet classifier with imbalanced and with balanced classes.",
            ),
            Figure(
                "consistency_by_k.png",
                "Agreement against the number of classes",
                "Degree of consistency (±1 SE, shaded) against K of six pairs of measures under "
                "each generator.",
            ),
            Figure(
                "cen_mcc_density.png",
                "CEN against MCC beyond the papers",
                "CEN against MCC under each generator, as densities (matrices per cell, log "
                "scale).",
            ),
        ),
        files=(
            "measures.csv",
            "pairs.csv",
            "agreement.md",
            "agreement_matrices.pdf",
            "consistency_by_k.pdf",
            "cen_mcc_density.pdf",
        ),
    ),
    Experiment(
        command="coverage",
        module="experiments.coverage.command",
        folder="coverage",
        options=("seed", "output"),
        summary="coverage of the confidence intervals (level 0.95) of eight measures, by method, "
        "and of paired comparisons; the table of method='auto'",
        description="Draws 1,000 test sets from each population of a grid (K classes, "
        "balanced or imbalanced classes, a good or a poor classifier, n items) and of the "
        "published designs of Itaya et al. (2024) and Tamura et al. (2025), and counts the "
        "intervals (level 0.95) of MCC, CEN, kappa, accuracy, balanced accuracy, macro F1 and "
        "the macro and micro MCC (BCa, percentile and Wald for each; Fisher's z for the MCCs "
        "and kappa; Wilson for accuracy and the micro MCC, Fleiss-Cohen-Everitt for kappa; "
        "bootstrap with 999 resamples) that contain the population's value; cells below 0.93 "
        "are flagged. Paired scenarios (null, with equal MCCs, and not) give each paired "
        "method's type-I error, power and coverage on 400 test sets a cell. Writes the table "
        "method='auto' reads (cenmcc/intervals/_coverage_table.py). The default is a reduced "
        "grid (K = 2, 3; n = 50, 200, 1,000); --full runs K = 2, 3, 5, 10 and n up to 5,000 "
        "(about 15 minutes with --jobs 2). "
        "--speed times BCa of 8 measures (the first six, t-MCC and macro precision) against "
        "scikit-learn instead, and method='auto'.",
        outputs="coverage.csv, paired.csv, coverage.md, coverage.png, default.png and "
        "summary.json, or with --speed speed.csv and speed.md (each run keeps the tables it "
        "does not write)",
        figures=(
            Figure(
                "coverage.png",
                "Coverage of the confidence intervals",
                "Share of 1,000 test sets whose 95% interval contains the population's value, "
                "against the test set's size, for each measure and method (solid: 0.95; "
                "dashed: 0.93, below which a cell is flagged).",
            ),
            Figure(
                "default.png",
                "Where the default interval holds",
                "For each measure and cell (test set size n, smallest class), whether "
                "method='auto' covers at least 0.93 in the cell's neighbourhood (circle) or "
                "warns (cross).",
            ),
        ),
        in_all=False,
        updates=True,
        files=("coverage.csv", "paired.csv", "coverage.md", "speed.csv", "speed.md"),
    ),
    Experiment(
        command="properties",
        module="experiments.properties.command",
        folder="properties",
        summary="which properties each named measure has, with a counterexample of each that fails",
        description="Audits every measure of cenmcc.MEASURES with cenmcc.properties.audit for "
        "K = 2 and 3 (--classes): range, maximal agreement, symmetry, class-permutation and "
        "scale invariance, monotonicity, constant baseline, distance and the Sokolova-Lapalme "
        "invariances, exhaustively on small matrices and on --n-random random ones, on every "
        "matrix and on those with every class present. Takes minutes: not part of all.",
        outputs="summary.json, properties.csv (one row per measure, K, domain and property, "
        "with the counterexample, whether it is the smallest and the matrices left out) and "
        "properties.md (the table of marks, what is left out, and the counterexamples: the "
        "smallest from the exhaustive range, the others marked as found by the random search)",
        in_all=False,  # paper_checks audits what it checks itself (paper_checks/gosgens.py)
        files=("properties.csv", "properties.md"),
    ),
    Experiment(
        command="benchmark",
        module="experiments.benchmark.command",
        folder="benchmark",
        summary="time the metric kernels against the floor and the peers, and the experiments",
        description="Times CEN, MCC and accuracy on stacks of random count matrices against "
        "the floor (one np.log over every cell) and against PyCM and scikit-learn, then runs "
        "each experiment in a fresh process for its wall time, computation time and peak "
        "memory. With --scale, only the random-matrix experiment at several sizes and numbers "
        "of workers. Timings depend on the machine; ratios within one run compare.",
        outputs="kernels.csv, kernels.md and throughput.png, experiments.csv and "
        "experiments.md, or with --scale scale.csv and scale.md (each run keeps the tables it "
        "does not measure)",
        in_all=False,
        updates=True,
        files=(
            "kernels.csv",
            "kernels.md",
            "chunks.csv",
            "chunks.md",
            "experiments.csv",
            "experiments.md",
            "scale.csv",
            "scale.md",
            "measures.csv",
            "measures.md",
            "throughput.png",
        ),
    ),
)

#: The declarations by command.
BY_COMMAND = {experiment.command: experiment for experiment in EXPERIMENTS}
#: The declarations by output folder.
BY_FOLDER = {experiment.folder: experiment for experiment in EXPERIMENTS}
