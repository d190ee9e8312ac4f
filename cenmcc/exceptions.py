"""Warning classes raised by cenmcc."""


class UndefinedMetricWarning(UserWarning):
    """A metric was 0/0 for some matrices or classes and was filled with its documented value.

    cenmcc emits at most one such warning per call, with the number of filled values, never one
    per matrix.
    """
