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
