"""The agreement experiment's settings: the measures, the generators and the Config."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

import cenmcc
from cenmcc.simulation import DirichletClassifier, PaperGenerator, Simulation

#: The eight measures compared (names of :data:`cenmcc.MEASURES`), in the order of the figures.
MEASURES = (
    "cen",
    "mcc",
    "cohen_kappa",
    "accuracy",
    "balanced_accuracy",
    "f1_macro",
    "f1_micro",
    "tmcc",
)


#: Short labels for the crowded axes of the agreement matrices.
SHORT = {
    "cen": "CEN",
    "mcc": "MCC",
    "cohen_kappa": "$\\kappa$",
    "accuracy": "ACC",
    "balanced_accuracy": "BA",
    "f1_macro": "$F_1^{\\rm M}$",
    "f1_micro": "$F_1^{\\mu}$",
    "tmcc": "tMCC",
}


#: The pairs drawn against K, fixed before any run (not picked from the results): the papers'
#: pair and its transformation, κ against MCC (Delgado & Tibau 2019), balanced accuracy against
#: MCC (Chicco, Tötsch & Jurman 2021) and against accuracy (what imbalance should separate),
#: and macro F1 against MCC.
PAIRS_BY_K = (
    ("cen", "mcc"),
    ("cen", "tmcc"),
    ("mcc", "cohen_kappa"),
    ("mcc", "balanced_accuracy"),
    ("accuracy", "balanced_accuracy"),
    ("mcc", "f1_macro"),
)


#: Class-proportion concentration of the imbalanced classifier. Below 1 a symmetric Dirichlet
#: puts its mass near the corners of the simplex: a few large classes and many small or empty
#: ones, more so as K grows (a class's share has coefficient of variation
#: ``sqrt((K - 1)/(K α + 1))``: 1.0 at K = 3, 1.75 at K = 50). 0.3 is the value
#: :class:`~cenmcc.simulation.DirichletClassifier` documents as strongly imbalanced, and its
#: default, as in the run that issue 19 reports; it was not tuned to these results.
IMBALANCED = 0.3


#: Class-proportion concentration of the balanced classifier: shares within about 10% of 1/K
#: at K = 50 (coefficient of variation 0.099), less than the multinomial noise of 1,000
#: samples in 50 classes (0.22).
BALANCED = 100.0


@dataclasses.dataclass(frozen=True)
class Case:
    """One generator of the study.

    Attributes
    ----------
    name : str
        Its key in the summary and the tables.
    short, detail : str
        The two lines of its panels' titles (mathtext).
    generator : callable
    """

    name: str
    short: str
    detail: str
    generator: object

    @property
    def title(self) -> str:
        """Its title in one line of plain text (the summary's)."""
        return f"{self.short}, {self.detail}".replace("$\\alpha$", "α").replace("$K$", "K")

    def panel_title(self, letter: str) -> str:
        return f"({letter}) {self.short}\n{self.detail}"


CASES = (
    Case("papers", "papers' generator", "$K$ = 3–30", PaperGenerator()),
    Case(
        "imbalanced",
        "Dirichlet classifier, imbalanced",
        f"$\\alpha$ = {IMBALANCED:g}, $K$ = 3–50",
        DirichletClassifier(k_range=(3, 50), class_concentration=IMBALANCED),
    ),
    Case(
        "balanced",
        "Dirichlet classifier, balanced",
        f"$\\alpha$ = {BALANCED:g}, $K$ = 3–50",
        DirichletClassifier(k_range=(3, 50), class_concentration=BALANCED),
    ),
)


def class_balance(C: np.ndarray) -> np.ndarray:
    """How evenly the samples fall into the true classes: ``H(t / n) / ln K``, in [0, 1].

    The Shannon entropy of the true-class proportions (row sums over the total) over its
    largest value ``ln K``: 1 when every class has the same number of samples, 0 when one class
    has them all; an empty class adds nothing (0 ln 0 = 0).
    """
    true = C.sum(axis=-1, dtype=np.float64)
    p = true / true.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return -terms.sum(axis=-1) / math.log(C.shape[-1])


#: The class balance of each matrix: its mean per K describes each generator (not compared).
CLASS_BALANCE = cenmcc.Measure(
    "class_balance",
    class_balance,
    greater_is_better=True,
    label="class balance H(t)/ln K",
    bounds=(0.0, 1.0),
)


@dataclasses.dataclass(frozen=True)
class Config:
    """The study's settings.

    Attributes
    ----------
    n_matrices : int
        Matrices drawn from each generator.
    seed : int
        Seed of the run; generator i of :data:`CASES` runs with seed ``3 · seed + i``, so the
        three runs are independent and no two seeds share a stream.
    chunk_size : int
        Matrices per chunk; the first 64 whole chunks of each run are the replicates of the
        standard errors of the pair-count statistics.
    """

    n_matrices: int = 50_000
    seed: int = 0
    chunk_size: int = 2_500

    def simulation(self, index: int) -> Simulation:
        """The simulation of generator ``index`` of :data:`CASES`."""
        return Simulation(
            CASES[index].generator,
            self.n_matrices,
            measures=(*MEASURES, CLASS_BALANCE),
            pairs=tuple((f, g) for i, f in enumerate(MEASURES) for g in MEASURES[i + 1 :]),
            density_pairs=(("cen", "mcc"),),
            seed=len(CASES) * self.seed + index,
            chunk_size=self.chunk_size,
        )


def pairs_of(measures=MEASURES) -> list[tuple[str, str]]:
    """Every pair of the measures, in their order."""
    return [(f, g) for i, f in enumerate(measures) for g in measures[i + 1 :]]


#: A pair's overall statistics in the summary, each with its standard error.
STATISTICS = ("consistency", "discriminancy", "kendall_tau_b", "pearson")
