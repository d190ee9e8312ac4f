"""What a claim record is, and the one rule that turns a measurement into a verdict.

A :class:`Record` holds one numeric or analytic claim of a source: where it is printed, the claim
in words, the published value with its tolerance (and why that tolerance), the named function that
measures it, and the verdict and measured value of the committed ``results.json`` (filled in by
:func:`paper_checks.declarations.load`, never typed in). :func:`evaluate` runs the function and
derives the verdict from the measurement alone:

- ``reproduced``: the measured value satisfies the claimed relation to the published value
  within the tolerance;
- ``differs``: it does not (the record's note says why, and where the printed value comes from);
- ``not checkable``: the function returned :class:`NotCheckable`, with the reason.

The recorded verdict and value never enter the computation; they are what the runner and the
tests compare against.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

REPRODUCED = "reproduced"
DIFFERS = "differs"
NOT_CHECKABLE = "not checkable"
VERDICTS = (REPRODUCED, DIFFERS, NOT_CHECKABLE)
#: The outcome of a check that raised instead of measuring (never a recorded verdict).
ERROR = "error"

#: How the measured value must relate to the published one for the claim to hold.
RELATIONS = {
    "=": "equal within the tolerance",
    "<=": "at most the published value (plus the tolerance)",
    ">=": "at least the published value (minus the tolerance)",
    "<": "strictly below the published value",
    ">": "strictly above the published value",
    "in": "inside the published interval (lo, hi), widened by the tolerance",
    "covers": "an interval (lo, hi), widened by the tolerance, containing every published value",
}

#: What a record checks. A "claim" can fail; the other kinds hold by construction or almost
#: surely, so their "reproduced" has no test power and the report labels it.
KINDS = {
    "claim": "",
    "definition": "a definition or convention, true by construction",
    "consistency": "arithmetic consistency only, almost sure to hold",
}

#: A measured value matches the recorded one when equal within these (regression tolerance).
RECORDED_RTOL = 1e-9
RECORDED_ATOL = 1e-12

Value = float | tuple[float, ...]


@dataclass(frozen=True)
class Published:
    """A published value: the text as printed, its numeric reading and the tolerance.

    Attributes
    ----------
    text : str
        The value as the source prints it (or the claim's formula or bound, in short).
    value : float or tuple of float or None
        Its numeric reading; a tuple for a printed table or an interval; None when there is no
        number to compare with.
    tolerance : float or tuple of float
        Allowed absolute deviation, per element for a tuple; a tuple of the value's length gives
        each element its own (e.g. the standard errors of fitted constants).
    why : str
        Why this tolerance (usually half a unit of the last printed digit).
    """

    text: str
    value: Value | None
    tolerance: float | tuple[float, ...]
    why: str


def half_unit(text: str) -> float:
    """Half a unit of the last digit of a printed decimal number (``"0.408"`` -> ``0.0005``).

    A trailing ``%`` counts the digits of the fraction it stands for (``"88.9%"`` -> ``0.0005``).
    """
    number = text.strip().rstrip("%")
    decimals = len(number.partition(".")[2])
    if text.strip().endswith("%"):
        decimals += 2
    return 0.5 * 10.0**-decimals


def _reading(text: str) -> float:
    number = text.strip()
    if number.endswith("%"):
        return float(number[:-1]) / 100.0
    return float(number)


#: Tolerance of a value printed as a bare integer ("0", "1"): floating-point rounding only.
EXACT_TOLERANCE = 1e-12


def _is_exact(text: str) -> bool:
    """A bare integer (no decimals, no %): an exact value such as MCC 0 or recall 1."""
    return "." not in text and not text.strip().endswith("%")


def printed(*texts: str, label: str | None = None) -> Published:
    """A value printed as decimal text, with half a unit of the last printed digit as tolerance.

    Several texts make a tuple (a printed table); the tolerance is the largest half unit. A
    value printed as a bare integer ("0", "1") is exact: no rounding is implied, so its
    tolerance is floating-point rounding (:data:`EXACT_TOLERANCE`), not half a unit.
    """
    values = tuple(_reading(t) for t in texts)
    if all(_is_exact(t) for t in texts):
        tolerance, why = EXACT_TOLERANCE, "an exact value (printed without decimals)"
    else:
        tolerance = max(EXACT_TOLERANCE if _is_exact(t) else half_unit(t) for t in texts)
        why = "half a unit of the last printed digit"
    return Published(
        text=label or ", ".join(texts),
        value=values[0] if len(values) == 1 else values,
        tolerance=tolerance,
        why=why,
    )


def exact(value: Value, text: str | None = None) -> Published:
    """A printed integer (a count, a class size): no tolerance."""
    shown = text if text is not None else str(value)
    return Published(text=shown, value=value, tolerance=0.0, why="integer counts")


def expression(text: str, value: float) -> Published:
    """A printed arithmetic expression (e.g. ``(6 + 9 + 10 + 12) / 52``), evaluated exactly."""
    return Published(
        text=text, value=value, tolerance=1e-12, why="the printed expression itself; rounding only"
    )


def identity(text: str, tolerance: float = 1e-12) -> Published:
    """A stated identity or formula: the measured value is the largest gap between its sides."""
    return Published(
        text=text,
        value=0.0,
        tolerance=tolerance,
        why="floating-point rounding only (an identity holds exactly)",
    )


def bound(text: str, value: Value, tolerance: float = 1e-12) -> Published:
    """A stated bound, interval or comparison, checked up to floating-point rounding."""
    return Published(text=text, value=value, tolerance=tolerance, why="floating-point rounding")


def unavailable(text: str, value: Value | None = None) -> Published:
    """A printed value whose inputs are not available here (see the record's note)."""
    return Published(text=text, value=value, tolerance=0.0, why="not computed: inputs missing")


@dataclass(frozen=True)
class Measured:
    """What a check function measured; ``detail`` says on what (added to the report's note).

    ``facts`` are the other numbers of the measurement that the record's ``reason`` and
    ``note`` quote, by name (``"{discordant:,}"``): so that those texts follow the
    measurement and never keep a number from an earlier one (:func:`fill`).
    """

    value: Value
    detail: str = ""
    facts: Mapping[str, float | int | str] = field(default_factory=dict)


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(x: float, digits: int = 2) -> str:
    """``x`` as the reports print it, ``digits`` significant: ``1.2·10⁻³``."""
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"


class _Unmeasured:
    """A fact the measurement did not give, shown as such whatever its format."""

    def __format__(self, spec: str) -> str:
        return UNMEASURED


#: How :func:`fill` shows a fact that the measurement did not give.
UNMEASURED = "(not measured)"


class _Facts(dict):
    def __missing__(self, key):
        return _Unmeasured()


def fill(text: str, facts: Mapping) -> str:
    """``text`` with its fields (``{name}``, ``{name:.6f}``) filled from ``facts``; each fact
    the measurement did not give shows as :data:`UNMEASURED`. Literal braces are doubled."""
    return text.format_map(_Facts(facts))


@dataclass(frozen=True)
class NotCheckable:
    """Returned by a check function when the claim cannot be computed here, with the reason.

    ``missing`` names the optional program whose absence is the reason (see
    :attr:`Record.requires`), or is empty.
    """

    reason: str
    missing: str = ""


@dataclass(frozen=True)
class Record:
    """One claim of one source, its check, and its outcome in the committed results.json.

    Attributes
    ----------
    id : str
        ``<source>-<what>``, e.g. ``grandini2020-fig7-mcc``; the pytest id.
    source : str
        Bibliographic reference and location (section, figure, equation).
    claim : str
        The claim in words.
    published : Published
        The published value and its tolerance.
    compute : callable
        A named function without arguments returning :class:`Measured` or :class:`NotCheckable`.
    verdict : str or None
        The verdict in the committed ``results.json`` (one of :data:`VERDICTS`; None for a claim
        it does not hold yet).
    measured : float or tuple of float or None
        The measured value there (None for ``not checkable``).
    reason : str
        For ``differs``: why, in one line (REPORT.md shows it).
    note : str
        Anything else a reader needs: how it is computed, a proof, and for ``not checkable``
        what is missing.

        Both are format strings: a number of the measurement is quoted as a field naming one
        of its facts (:class:`Measured`, :func:`fill`), never typed in.
    relation : str
        How measured and published must relate for the claim to hold (see :data:`RELATIONS`).
    headline : bool
        Shown in the README's results table.
    warns : bool
        The computation meets a 0/0 and emits ``cenmcc.UndefinedMetricWarning`` (by design).
    kind : str
        One of :data:`KINDS`: ``"claim"`` (default), or ``"definition"``/``"consistency"`` for a
        check without test power, labelled so in the report.
    requires : str
        An optional program the check needs (e.g. ``"Rscript"``). Where it is absent the check
        returns ``NotCheckable(..., missing=requires)``, which is then the expected verdict.
    """

    id: str
    source: str
    claim: str
    published: Published
    compute: Callable[[], Measured | NotCheckable]
    verdict: str | None
    measured: Value | None
    reason: str = ""
    note: str = ""
    relation: str = "="
    headline: bool = False
    warns: bool = False
    kind: str = "claim"
    requires: str = ""

    def __post_init__(self):
        if self.verdict not in (*VERDICTS, None):
            raise ValueError(f"{self.id}: verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind must be one of {list(KINDS)}, got {self.kind!r}")
        if self.relation not in RELATIONS:
            raise ValueError(f"{self.id}: relation must be one of {list(RELATIONS)}")
        if self.verdict == DIFFERS and not self.reason:
            raise ValueError(f"{self.id}: a 'differs' record needs a reason")
        if self.verdict == NOT_CHECKABLE and not self.note:
            raise ValueError(f"{self.id}: a 'not checkable' record needs a note")


@dataclass(frozen=True)
class Outcome:
    """The result of running one record's check."""

    record: Record
    verdict: str | None
    measured: Value | None
    detail: str
    warnings: tuple[str, ...] = ()
    missing: str = ""
    facts: Mapping = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The record's reason with the facts of this measurement (:func:`fill`)."""
        return fill(self.record.reason, self.facts)

    @property
    def note(self) -> str:
        """The record's note with the facts of this measurement (:func:`fill`)."""
        return fill(self.record.note, self.facts)

    @property
    def expected_verdict(self) -> str:
        """The recorded verdict, or "not checkable" where the program it requires is absent."""
        if self.record.requires and self.missing == self.record.requires:
            return NOT_CHECKABLE
        return self.record.verdict

    @property
    def as_recorded(self) -> bool:
        """The verdict and the measured value are the expected ones (:attr:`expected_verdict`)."""
        if self.verdict != self.expected_verdict:
            return False
        return self.verdict != self.record.verdict or same_value(
            self.measured, self.record.measured
        )


def _elements(value: Value) -> tuple[float, ...]:
    return tuple(value) if isinstance(value, tuple) else (value,)


def holds(measured: Value, published: Published, relation: str) -> bool:
    """Whether ``measured`` stands in ``relation`` to the published value (element by element)."""
    tol = published.tolerance
    if isinstance(tol, tuple) and relation not in ("=", "<=", ">="):
        raise ValueError(f"a tolerance per element needs '=', '<=' or '>=', not {relation!r}")
    if relation == "in":
        lo, hi = published.value
        return all(lo - tol <= m <= hi + tol for m in _elements(measured))
    if relation == "covers":
        lo, hi = measured
        return all(lo - tol <= p <= hi + tol for p in _elements(published.value))
    pub = _elements(published.value)
    got = _elements(measured)
    if len(pub) == 1:
        pub = pub * len(got)
    tols = tol if isinstance(tol, tuple) else (tol,) * len(got)
    if not len(pub) == len(got) == len(tols):
        raise ValueError(
            f"measured {measured!r}, published {published.value!r} and tolerance {tol!r} differ "
            "in size"
        )
    compare = {
        "=": lambda m, p, t: abs(m - p) <= t,
        "<=": lambda m, p, t: m <= p + t,
        ">=": lambda m, p, t: m >= p - t,
        "<": lambda m, p, t: m < p,
        ">": lambda m, p, t: m > p,
    }[relation]
    return all(compare(m, p, t) for m, p, t in zip(got, pub, tols, strict=True))


def same_value(a: Value | None, b: Value | None) -> bool:
    """Equal up to :data:`RECORDED_RTOL` / :data:`RECORDED_ATOL` (None equals None only)."""
    if a is None or b is None:
        return a is None and b is None
    ea, eb = _elements(a), _elements(b)
    return len(ea) == len(eb) and all(
        math.isclose(x, y, rel_tol=RECORDED_RTOL, abs_tol=RECORDED_ATOL)
        for x, y in zip(ea, eb, strict=True)
    )


def evaluate(record: Record) -> Outcome:
    """Run the record's check; the verdict follows from the measurement (warnings pass through)."""
    result = record.compute()
    if isinstance(result, NotCheckable):
        return Outcome(record, NOT_CHECKABLE, None, result.reason, missing=result.missing)
    value = _as_value(result.value)
    verdict = REPRODUCED if holds(value, record.published, record.relation) else DIFFERS
    return Outcome(record, verdict, value, result.detail, facts=dict(result.facts))


def _as_value(value) -> Value:
    """Plain Python floats (NumPy scalars and arrays become floats and tuples)."""
    if isinstance(value, tuple | list) or getattr(value, "ndim", 0) > 0:
        return tuple(float(v) for v in value)
    return float(value)
