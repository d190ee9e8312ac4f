"""Running the registry and writing what it found: REPORT.md, results.json, the README section
and the figure gallery (figures/README.md).

All three are written from one run (measured now), all together or not at all
(:func:`cenmcc.runtime.files.write_atomic_all`). results.json keeps every outcome, so the
report and the README section can be rendered again from it (:func:`outcomes_from_results`):
the tests check that the committed three agree with each other and with the registry.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from cenmcc.runtime.files import to_jsonable
from experiments.registry import EXPERIMENTS

from .record import (
    DIFFERS,
    ERROR,
    KINDS,
    NOT_CHECKABLE,
    RELATIONS,
    REPRODUCED,
    Outcome,
    Record,
    Value,
    evaluate,
)
from .sources import REFERENCES
from .summaries import SummaryError

PACKAGE_DIR = Path(__file__).resolve().parent
REPORT = PACKAGE_DIR / "REPORT.md"
RESULTS = PACKAGE_DIR / "results.json"
README = PACKAGE_DIR.parent / "README.md"
README_START = "<!-- results:start -->"
README_END = "<!-- results:end -->"
#: The figure gallery: every figure of the registry with its caption, rendered where it lies.
GALLERY = PACKAGE_DIR.parent / "figures" / "README.md"


def run_record(record: Record) -> Outcome:
    """Evaluate one record, keeping the warnings it emits and turning an exception into ERROR."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome = evaluate(record)
        except SummaryError as error:  # an experiment's output is unusable: say which and why
            outcome = Outcome(record, NOT_CHECKABLE, None, str(error))
        except Exception as error:  # reported as the record's outcome, never swallowed
            outcome = Outcome(record, ERROR, None, f"{type(error).__name__}: {error}")
    messages = tuple(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))
    return replace(outcome, warnings=messages)


def run_records(records, on_record: Callable[[int, Record], None] | None = None) -> list:
    """Run every record, in order; ``on_record(i, record)`` is called before each."""
    outcomes = []
    for i, record in enumerate(records):
        if on_record is not None:
            on_record(i, record)
        outcomes.append(run_record(record))
    return outcomes


def unusable_inputs(outcomes) -> dict[str, list[str]]:
    """Each problem with an experiment's output (the message) and the ids it left unchecked."""
    found: dict[str, list[str]] = {}
    for o in outcomes:
        if o.verdict == NOT_CHECKABLE and o.record.verdict != NOT_CHECKABLE and not o.missing:
            found.setdefault(o.detail, []).append(o.record.id)
    return found


def mismatches(outcomes) -> list[Outcome]:
    """The outcomes whose verdict is not the expected one (:attr:`Outcome.expected_verdict`)."""
    return [o for o in outcomes if o.verdict != o.expected_verdict]


def format_value(value: Value | None) -> str:
    """A measured or published value for a table: 6 significant digits, tuples in brackets."""
    if value is None:
        return "—"
    if isinstance(value, tuple):
        return "(" + ", ".join(format_value(v) for v in value) + ")"
    if not math.isfinite(value):  # a measured value, not a failure: "nan", "inf", "-inf"
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    if abs(value) < 1e-4:
        return f"{value:.1e}"
    return f"{value:.6g}"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def count_line(verdicts) -> str:
    """``"N claims: a reproduced, b differ, c not checkable"`` (and errors, if any)."""
    counts = Counter(verdicts)
    parts = [
        f"{counts[REPRODUCED]} reproduced",
        f"{counts[DIFFERS]} differ",
        f"{counts[NOT_CHECKABLE]} not checkable",
    ]
    if counts[ERROR]:
        parts.append(f"{counts[ERROR]} failed to run")
    return f"{sum(counts.values())} claims: " + ", ".join(parts)


def _note(outcome: Outcome) -> str:
    parts = [outcome.reason, outcome.note, outcome.detail]
    if outcome.warnings:
        parts.append("Warned: " + "; ".join(outcome.warnings))
    return " ".join(p.rstrip(".") + "." for p in parts if p)


def _kind_label(record: Record, verdict: str) -> str:
    """`` (definition)`` after a reproduced check without test power, else nothing."""
    return f" ({record.kind})" if verdict == REPRODUCED and record.kind != "claim" else ""


def weak_line(records, *, explain: bool = True) -> str:
    """How many reproduced records are definitions or consistency checks (no test power), and,
    if ``explain``, what each kind means."""
    weak = Counter(r.kind for r in records if r.verdict == REPRODUCED and r.kind != "claim")
    if not weak:
        return ""
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(weak.items()))
    if explain:
        parts += f": {'; '.join(KINDS[k] for k in sorted(weak))}"
    return (
        f" Of the reproduced, {sum(weak.values())} have no test power and are labelled so "
        f"({parts})."
    )


def _verdict_cell(outcome: Outcome) -> str:
    if outcome.verdict == outcome.record.verdict:
        return outcome.verdict + _kind_label(outcome.record, outcome.verdict)
    if outcome.verdict == outcome.expected_verdict:
        return f"{outcome.verdict} (recorded: {outcome.record.verdict}; {outcome.missing} absent)"
    return f"**{outcome.verdict}** (recorded: {outcome.record.verdict})"


def _tolerance_cell(record: Record) -> str:
    """The relation, the tolerance and why, e.g. ``= ±0.0005: half a unit of ...``."""
    published = record.published
    if published.value is None:
        return "—"
    if record.relation in ("<", ">"):
        return f"{record.relation} (strict, no tolerance)"
    return f"{record.relation} ±{format_value(published.tolerance)}: {published.why}"


def render_report(outcomes) -> str:
    """REPORT.md: the counts, then one row per claim, then the references."""
    lines = [
        "# Paper checks: every numeric claim of the sources, checked",
        "",
        "Generated by `python -m paper_checks` (do not edit by hand). Each row is one record of "
        "`paper_checks/`; *published* is the value as printed, *measured* what cenmcc or the "
        "experiments compute now. A claim is reproduced when the measured value stands in the "
        "claimed relation to the published one within the tolerance (its column says why; the "
        "relations are below the table).",
        "",
        f"**{count_line(o.verdict for o in outcomes)}.**"
        + weak_line(o.record for o in outcomes if o.verdict == o.record.verdict),
        "",
        "| id | source | claim | published | measured | tolerance | verdict | note |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for o in outcomes:
        r = o.record
        cells = (
            f"`{r.id}`",
            r.source,
            r.claim,
            r.published.text,
            format_value(o.measured),
            _tolerance_cell(r),
            _verdict_cell(o),
            _note(o),
        )
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += ["", "## Tolerances and relations", ""]
    lines += [f"- `{r}`: the measured value is {why}." for r, why in RELATIONS.items()]
    lines += [
        "- Printed decimals: half a unit of the last printed digit. Identities and bounds: "
        "floating-point rounding (1e-12 unless the note says otherwise). Counts: exact. "
        "Statistics of the random matrices: the larger of the printed precision and the Monte "
        "Carlo error, 3·√2 standard errors (two independent runs). Limits: the gap to the "
        "limit must be within the rate at which the exact form converges (measured: their "
        "ratio, at most 1).",
        "",
        "## Sources",
        "",
    ]
    lines += [f"- **{short}**: {full}" for short, full in REFERENCES.items()]
    return "\n".join(lines) + "\n"


def results(outcomes) -> dict:
    """results.json: the counts and every record's outcome."""
    return {
        "counts": dict(Counter(o.verdict for o in outcomes)),
        "all_as_recorded": not mismatches(outcomes),
        "records": [
            {
                "id": o.record.id,
                "source": o.record.source,
                "claim": o.record.claim,
                "published": {
                    "text": o.record.published.text,
                    "value": o.record.published.value,
                    "tolerance": o.record.published.tolerance,
                    "why": o.record.published.why,
                },
                "relation": o.record.relation,
                "kind": o.record.kind,
                "measured": o.measured,
                "verdict": o.verdict,
                "reason": o.reason,
                "note": o.note,
                "facts": dict(o.facts),
                "detail": o.detail,
                "warnings": list(o.warnings),
                "missing": o.missing,
            }
            for o in outcomes
        ],
    }


def results_text(outcomes) -> str:
    """results.json's text: :func:`results` as indented strict JSON."""
    return json.dumps(to_jsonable(results(outcomes)), indent=2, allow_nan=False) + "\n"


def outcomes_from_results(data: dict, records) -> list[Outcome]:
    """The outcomes a results.json holds, each with its record from ``records`` (by id).

    The inverse of :func:`results` for everything the report and the README show, so both can
    be rendered again from results.json.

    Raises
    ------
    KeyError
        If results.json holds a record that ``records`` lacks.
    """
    by_id = {record.id: record for record in records}

    def value(v):
        if v is None:
            return None
        return tuple(float(x) for x in v) if isinstance(v, list) else float(v)

    return [
        Outcome(
            by_id[r["id"]],
            r["verdict"],
            value(r["measured"]),
            r["detail"],
            tuple(r["warnings"]),
            r["missing"],
            r["facts"],
        )
        for r in data["records"]
    ]


def output_texts(outcomes, out: Path | None = None) -> dict[Path, str]:
    """Each file a run writes and its text, all from ``outcomes``.

    REPORT.md and results.json in ``out``; without ``out``, in paper_checks/, with the README's
    results section (:func:`readme_text`) and the figure gallery (:func:`gallery_page`), which
    describe the repository's own outputs.
    """
    if out is not None:
        return {
            out / "REPORT.md": render_report(outcomes),
            out / "results.json": results_text(outcomes),
        }
    return {
        REPORT: render_report(outcomes),
        RESULTS: results_text(outcomes),
        README: readme_text(outcomes, README),
        GALLERY: gallery_page(),
    }


def readme_section(outcomes) -> str:
    """The README's results section, from the outcomes of one run (those of REPORT.md): the
    counts, the headline claims and a link to the figures (:func:`gallery_section`)."""
    outcomes = list(outcomes)
    lines = [
        README_START,
        "<!-- Generated by `python -m paper_checks` with paper_checks/REPORT.md (do not edit by "
        "hand). -->",
        "",
        f"**{count_line(o.verdict for o in outcomes)}.**"
        + weak_line((o.record for o in outcomes if o.verdict == o.record.verdict), explain=False)
        + " [paper_checks/REPORT.md](paper_checks/REPORT.md) has every claim with its source, "
        "how it is computed and why it holds or differs. The main ones (*measured*: for an "
        "identity, the largest gap between its sides; for a limit, that gap over the rate of "
        "convergence; for a range, the smallest and largest value):",
        "",
        "| id | claim | published | measured | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for o in outcomes:
        r = o.record
        if r.headline:
            cells = (f"`{r.id}`", r.claim, r.published.text, format_value(o.measured))
            lines.append("| " + " | ".join(_cell(c) for c in (*cells, _verdict_cell(o))) + " |")
    lines += gallery_section()
    lines.append(README_END)
    return "\n".join(lines)


def _anchor(title: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _gallery_path() -> str:
    return GALLERY.relative_to(PACKAGE_DIR.parent).as_posix()


def gallery_section() -> list[str]:
    """The README's pointer to the figures: the gallery page (:func:`gallery_page`)."""
    figures = sum(len(e.figures) for e in EXPERIMENTS)
    return [
        "",
        f"The {figures} figures, each with what it shows and the command that writes it, are in "
        f"[{_gallery_path()}]({_gallery_path()}).",
    ]


def gallery_page() -> str:
    """figures/README.md: every figure of the registry, with its caption and command: first a
    table of the commands and their figures, then each figure."""
    lines = [
        "# Figures",
        "",
        "Generated by `python -m paper_checks` from `experiments/registry.py` (do not edit by "
        "hand). `python -m experiments all` writes every figure of the commands it runs; each "
        "command writes its own alone. The benchmark's figure and tables are in "
        "[benchmark/](benchmark/).",
        "",
        "| command | figures |",
        "| --- | --- |",
    ]
    for experiment in EXPERIMENTS:
        if experiment.figures:
            links = ", ".join(
                f"[{figure.title}](#{_anchor(figure.title)})" for figure in experiment.figures
            )
            extra = "" if experiment.in_all else " (not in `all`)"
            lines.append(f"| `python -m experiments {experiment.command}`{extra} | {links} |")
    for experiment in EXPERIMENTS:
        for figure in experiment.figures:
            lines += [
                "",
                f"## {figure.title}",
                "",
                f"`python -m experiments {experiment.command}`: {figure.caption}",
                "",
                f"![{figure.title}]({experiment.folder}/{figure.file})",
            ]
    return "\n".join(lines) + "\n"


def readme_current(text: str) -> str | None:
    """The results section now in ``text`` (markers included), or None if it has none."""
    match = re.search(re.escape(README_START) + ".*?" + re.escape(README_END), text, re.S)
    return match.group(0) if match else None


def readme_text(outcomes, path: Path = README) -> str:
    """The README at ``path`` with its results section rendered from ``outcomes``.

    Raises
    ------
    ValueError
        If the README has no results section.
    """
    text = Path(path).read_text()
    current = readme_current(text)
    if current is None:
        raise ValueError(f"{path} has no {README_START} ... {README_END} section")
    return text.replace(current, readme_section(outcomes))
