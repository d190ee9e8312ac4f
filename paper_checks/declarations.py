"""Claims as data: each source's claims are declared in a TOML file beside its check functions.

``paper_checks/<module>.toml`` declares the claims that the check functions of
``paper_checks/<module>.py`` measure, in report order. The file's ``source`` is the reference
that each claim's ``location`` follows; then one ``[[claims]]`` table per claim:

``id``
    ``<source>-<what>``, e.g. ``grandini2020-fig7-mcc``.
``location`` or ``source``
    Where the claim is printed, after the file's ``source``; or, in full, ``source``.
``claim``
    The claim in words.
``published.<form>``, then its arguments
    The published value, its tolerance and why. The first key names the form: one of
    :data:`FORMS` (``published.printed = "0.408"``: half a unit of the last printed digit), a
    function of the module that returns a :class:`~paper_checks.record.Published` (e.g.
    ``published.monte_carlo``), or ``text`` for a value spelled out (``text``, ``value``,
    ``tolerance``, ``why``). The other keys are the form's keyword arguments.
``check``, ``args``
    The name of the module's check function, and its arguments if it takes any.
``relation``, ``kind``, ``headline``, ``warns``, ``requires``, ``reason``, ``note``
    As :class:`~paper_checks.record.Record` documents them (optional).

A measured value and a verdict are never declared: :func:`load` takes them from the committed
``paper_checks/results.json`` (:func:`recorded`), which ``python -m paper_checks`` writes, and
which a run and the tests compare a fresh evaluation against.
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import tomllib
from pathlib import Path

from .record import (
    Published,
    Record,
    Value,
    bound,
    exact,
    expression,
    identity,
    printed,
    unavailable,
)

#: The committed outcomes: what :func:`load` gives each record as its recorded verdict and value.
RESULTS = Path(__file__).resolve().with_name("results.json")

#: The forms of a published value that every module can name.
FORMS = {
    "printed": printed,
    "exact": exact,
    "expression": expression,
    "identity": identity,
    "bound": bound,
    "unavailable": unavailable,
}

#: The keys a claim may have besides ``published``, ``check``, ``args`` and its place.
OPTIONAL = ("relation", "kind", "headline", "warns", "requires", "reason", "note")


def _tuples(value):
    """TOML arrays as tuples, as the records hold them."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _as_value(value) -> Value | None:
    if value is None:
        return None
    return tuple(float(v) for v in value) if isinstance(value, list) else float(value)


@functools.cache
def recorded(path: Path = RESULTS) -> dict[str, tuple[str, Value | None]]:
    """Each id's verdict and measured value in the results.json at ``path`` (empty if none)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {r["id"]: (r["verdict"], _as_value(r["measured"])) for r in data["records"]}


def published(form: dict, module) -> Published:
    """The :class:`Published` a claim's ``published`` table declares (see the module docstring)."""
    form = {key: _tuples(value) for key, value in form.items()}
    name = next(iter(form))
    if name == "text":
        return Published(**form)
    factory = FORMS.get(name) or getattr(module, name, None)
    if not callable(factory):
        raise ValueError(f"unknown form of a published value: {name!r}")
    first = form.pop(name)
    kind = next(iter(inspect.signature(factory).parameters.values())).kind
    if kind is inspect.Parameter.VAR_POSITIONAL:
        return factory(*(first if isinstance(first, tuple) else (first,)), **form)
    return factory(first, **form)


def _record(claim: dict, source: str, module, outcomes) -> Record:
    claim = dict(claim)
    where = claim.get("id", "a claim without an id")
    try:
        place = claim.pop("source") if "source" in claim else f"{source}, {claim.pop('location')}"
        check = getattr(module, claim.pop("check"))
        args = claim.pop("args", ())
        fields = {
            "id": claim.pop("id"),
            "claim": claim.pop("claim"),
            "published": published(claim.pop("published"), module),
        }
    except (KeyError, AttributeError, TypeError, ValueError) as error:
        raise ValueError(f"{module.__name__}: {where}: {error!r}") from error
    unknown = set(claim) - set(OPTIONAL)
    if unknown:
        raise ValueError(f"{module.__name__}: {where}: unknown keys {sorted(unknown)}")
    verdict, measured = outcomes.get(fields["id"], (None, None))
    return Record(
        **fields,
        source=place,
        compute=functools.partial(check, *args) if args else check,
        verdict=verdict,
        measured=measured,
        **claim,
    )


def load(module_name: str) -> tuple[Record, ...]:
    """The records declared in ``<module>.toml``, with the module's checks and their outcomes.

    Called at the end of the module (``RECORDS = load(__name__)``), once its checks are defined.

    Raises
    ------
    ValueError
        For a claim with a missing or unknown key, a check the module lacks or an unknown form.
    """
    module = sys.modules[module_name]
    path = Path(module.__file__).with_suffix(".toml")
    data = tomllib.loads(path.read_text())
    outcomes = recorded()
    return tuple(_record(claim, data["source"], module, outcomes) for claim in data["claims"])
