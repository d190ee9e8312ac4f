"""Warning classes raised by cenmcc."""


class UndefinedMetricWarning(UserWarning):
    """A metric was 0/0 for some matrices or classes and was filled with its documented value.

    cenmcc emits at most one such warning per call, with the number of filled values, never one
    per matrix.

    Attributes
    ----------
    count : int
        The number of filled values (also in the message).
    """

    def __init__(self, message: str, count: int = 1):
        super().__init__(message)
        self.count = count


class CoverageWarning(UserWarning):
    """An interval chosen by ``method="auto"`` may cover less than its level.

    Emitted once per call of :func:`cenmcc.confidence_interval` or
    :func:`cenmcc.compare_classifiers` where, in the coverage experiment's cells nearest to the
    test set (its size, classes, smallest class and classes never predicted), no method
    covered the population's value at least 0.93 of the time (at level 0.95); the message
    names the measure, the regime and the coverage measured there.
    """
