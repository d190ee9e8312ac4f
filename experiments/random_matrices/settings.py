"""The random-matrix experiment's settings: the printed values and the Config."""

from __future__ import annotations

import dataclasses

from cenmcc.simulation import KRatio, PaperGenerator, Simulation

#: The values printed by Jurman & Furlanello (2010), Sec. 2 (the journal version, Jurman,
#: Riccadonna & Furlanello 2012, prints the same ratio and interval and "about 0.994").
PRINTED = {
    "pearson_tmcc_kcen": 0.9941477,
    "consistency_tmcc_kcen": 1 - 1e-7,
    "ties_tmcc_kcen": 0,
    "mean_ratio_tmcc_kcen": 1.000508,
    "ci95_student": [1.000328, 1.000711],
}


@dataclasses.dataclass(frozen=True)
class Config:
    """The random-matrix experiment: the papers' generator and the run's settings.

    Attributes
    ----------
    n_matrices : int
        Number of matrices (200,000 in the papers).
    generator : PaperGenerator
        The papers' generator; its defaults are the printed protocol.
    chunk_size : int
        Matrices per chunk. Chunk j is drawn from its own stream (child j of
        ``numpy.random.SeedSequence(seed)``), so the matrices depend on the seed and the chunk
        size, never on the number of workers.
    seed : int
        Seed of the run.
    n_resamples : int
        Bootstrap resamples for the confidence intervals of the mean ratio.
    confidence_level : float
        Level of the two-sided bootstrap intervals.
    """

    n_matrices: int = 200_000
    generator: PaperGenerator = dataclasses.field(default_factory=PaperGenerator)
    chunk_size: int = 10_000
    seed: int = 0
    n_resamples: int = 999
    confidence_level: float = 0.95

    def __post_init__(self):
        self.simulation()  # checks every setting

    def simulation(self, **changes) -> Simulation:
        """This experiment as a :class:`~cenmcc.simulation.Simulation` (``changes`` to it)."""
        settings = {
            "measures": MEASURES,
            "studies": (self.study(),),
            "pairs": (("cen", "mcc"),),
            "density_pairs": (("cen", "mcc"),),
            "histogram_bins": 200,
        } | changes
        return Simulation(
            self.generator,
            n_matrices=self.n_matrices,
            seed=self.seed,
            chunk_size=self.chunk_size,
            **settings,
        )

    def study(self, **changes) -> KRatio:
        """The papers' study of tMCC against k·CEN, with the printed k by default."""
        return KRatio(
            n_resamples=self.n_resamples, confidence_level=self.confidence_level, **changes
        )


#: The bootstrap intervals of the mean ratio.
INTERVALS = ("student", "percentile", "bca")


#: The measures of every matrix.
MEASURES = ("cen", "mcc", "tmcc")
