"""Running the registry and writing what it found: REPORT.md, results.json, the README section.

The report and results are written from a run (measured now). The README's results section is
generated from the registry's *recorded* values, so it does not change from run to run; the
tests check that each record still measures its recorded value, and that the README section is
the one this module generates.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import tempfile
import threading
import warnings
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from cenmcc.simulation.outputs import to_jsonable

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


@dataclass(frozen=True)
class GalleryFigure:
    """A figure an experiment writes, shown in the README's results section.

    Attributes
    ----------
    path : str
        Where it is, relative to the repository root (under ``figures/``).
    title : str
        A short title (also the image's alternative text).
    command : str
        The ``python -m experiments`` command that writes it.
    caption : str
        What it shows, in one sentence.
    """

    path: str
    title: str
    command: str
    caption: str


#: Every PNG the experiments write, in the order of the papers.
GALLERY = (
    GalleryFigure(
        "figures/random_matrices/figure2.png",
        "Figure 2: the 200,000 random matrices",
        "random-matrices",
        "The journal's Figure 2 (the preprint's Figure 1): CEN against MCC (a) and k·CEN against "
        "tMCC (b) for the 200,000 random matrices as densities (matrices per cell, log scale), "
        "printed k.",
    ),
    GalleryFigure(
        "figures/random_matrices/k_per_dimension.png",
        "The constant k of Eq. (3) per number of classes",
        "random-matrices",
        "The empirical k of each N (mean ± 1 SD of tMCC/CEN over its matrices) against the "
        "printed k(N) of Eq. (3) and the k(N) refitted to the same matrices.",
    ),
    GalleryFigure(
        "figures/protocol/protocol.png",
        "Which reading of the protocol gives the printed numbers",
        "protocol",
        "Distance of each reading's statistics from the published values, in combined standard "
        "errors (shaded: ±3).",
    ),
    GalleryFigure(
        "figures/discriminancy/discriminancy.png",
        "Degrees of discriminancy, 9 to 19 samples in three classes",
        "discriminancy",
        "Degrees of discriminancy of CEN over MCC (exact and float ties), CEN over ACC and MCC "
        "over ACC for every split of 9 to 19 samples into three classes; the (2, 4, 3) case "
        "circled, the printed 'about 6' dashed.",
    ),
    GalleryFigure(
        "figures/binary/figure3.png",
        "Figure 3: CEN and MCC of [[T, F], [F, T]]",
        "binary",
        "The journal's Figure 3: CEN and MCC of [[T, F], [F, T]] against T/F, with CEN > 1 for "
        "0 < T < F and its maximum 2/(e ln 2) at T/F = e/2 - 1.",
    ),
    GalleryFigure(
        "figures/binary/figure4.png",
        "Figure 4: every binary confusion matrix",
        "binary",
        "The journal's Figure 4: CEN against MCC for every binary matrix on s = 5, 10, 25, 50, "
        "75 samples, and for all s = 1..100 (matrices per cell, log scale; r in each title).",
    ),
    GalleryFigure(
        "figures/families/z_a.png",
        "The Z_A family",
        "families",
        "ACC, MCC and CEN of Z_A against A for N = 3, 4, 5, 10, 30 (dotted: the MCC limit "
        "-1/(2(N - 1))): accuracy and MCC fall while CEN improves.",
    ),
    GalleryFigure(
        "figures/families/dice.png",
        "Dice rolling on unbalanced classes",
        "families",
        "CEN (dotted: its limit) and MCC of the dice-rolling matrices against A: MCC is 0 for "
        "every A, CEN is not constant.",
    ),
    GalleryFigure(
        "figures/families/dice_limit.png",
        "The dice-rolling limit",
        "families",
        "The dice-rolling limit (N - 1)/(2N) log_{2N-2}(N + 1) against N, with CEN at A = 10⁹ "
        "(dots, N = 2..30) and the asymptote 1/2.",
    ),
    GalleryFigure(
        "figures/families/b.png",
        "The B(T, F) family",
        "families",
        "CEN and MCC of B(T, F) (T on the diagonal, F elsewhere) against T/F for N = 2, 3, 5, "
        "10, 30; the binary maximum of CEN is starred.",
    ),
)


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
    parts = [outcome.record.reason, outcome.record.note, outcome.detail]
    if outcome.warnings:
        parts.append("Warned: " + "; ".join(outcome.warnings))
    return " ".join(p.rstrip(".") + "." for p in parts if p)


def _kind_label(record: Record, verdict: str) -> str:
    """`` (definition)`` after a reproduced check without test power, else nothing."""
    return f" ({record.kind})" if verdict == REPRODUCED and record.kind != "claim" else ""


def weak_line(records) -> str:
    """How many reproduced records are definitions or consistency checks (no test power)."""
    weak = Counter(r.kind for r in records if r.verdict == REPRODUCED and r.kind != "claim")
    if not weak:
        return ""
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(weak.items()))
    return (
        f" Of the reproduced, {sum(weak.values())} have no test power and are labelled so "
        f"({parts}: {'; '.join(KINDS[k] for k in sorted(weak))})."
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
                "recorded_verdict": o.record.verdict,
                "recorded_measured": o.record.measured,
                "note": o.record.note,
                "detail": o.detail,
                "warnings": list(o.warnings),
            }
            for o in outcomes
        ],
    }


@contextmanager
def deferred_signals(signals=(signal.SIGINT, signal.SIGTERM)):
    """Hold back ``signals`` inside the block, then deliver them to the handlers in place before.

    Python runs signal handlers in the main thread whichever thread the kernel picked, so
    recording them here (rather than masking, which covers one thread only) defers them
    reliably. Outside the main thread, where handlers cannot be set, it defers nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous = {s: signal.signal(s, lambda signum, frame: pending.append(signum)) for s in signals}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for signum in dict.fromkeys(pending):
            signal.raise_signal(signum)


def replace_all(texts: dict[Path, str], done: Callable[[], None] | None = None) -> None:
    """Write each text to its path, all of them or none (as far as a signal can tell).

    Every text is first written to a temporary file beside its path (removed if anything fails
    or a signal interrupts); the temporaries are then renamed over their paths with SIGINT and
    SIGTERM deferred (:func:`deferred_signals`), so an interruption lands before any file is
    replaced or after all are; ``done()``, if given, is called once all are, before the
    deferred signals are delivered.
    """
    temporaries: dict[Path, Path] = {}
    try:
        for path, text in texts.items():
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            os.close(fd)
            temporaries[path] = Path(tmp)
            Path(tmp).write_text(text)
            mode = path.stat().st_mode if path.exists() else 0o666 & ~_umask()
            os.chmod(tmp, stat.S_IMODE(mode))
        with deferred_signals():
            for path, tmp in temporaries.items():
                os.replace(tmp, path)
            if done is not None:
                done()
    finally:
        for tmp in temporaries.values():
            tmp.unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def results_text(outcomes) -> str:
    """results.json's text: :func:`results` as indented strict JSON."""
    return json.dumps(to_jsonable(results(outcomes)), indent=2, allow_nan=False) + "\n"


def output_texts(outcomes, report: Path = REPORT, results_path: Path = RESULTS) -> dict:
    """REPORT.md's and results.json's paths and texts, for :func:`replace_all`."""
    return {Path(report): render_report(outcomes), Path(results_path): results_text(outcomes)}


def write_outputs(outcomes, report: Path = REPORT, results_path: Path = RESULTS) -> None:
    """Write REPORT.md and results.json, both or neither (:func:`replace_all`)."""
    replace_all(output_texts(outcomes, report, results_path))


def readme_section(records) -> str:
    """The README's results section, from the registry's recorded values and verdicts."""
    records = list(records)
    lines = [
        README_START,
        "<!-- Generated from paper_checks' registry by `python -m paper_checks --readme`; "
        "tests/test_paper_checks.py checks that it is up to date. -->",
        "",
        f"**{count_line(r.verdict for r in records)}.**{weak_line(records)} "
        "[paper_checks/REPORT.md](paper_checks/REPORT.md) has every claim with its source, how "
        "it is computed and why it holds or not. The main ones (for a stated identity, "
        "*measured* is the largest gap found between its two sides; for a limit, the largest "
        "gap over the rate at which the exact form converges; for a range, the smallest and "
        "largest value found):",
        "",
        "| id | claim | published | measured | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in records:
        if r.headline:
            verdict = r.verdict + _kind_label(r, r.verdict)
            cells = (f"`{r.id}`", r.claim, r.published.text, format_value(r.measured), verdict)
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += ["", "Every claim that differs from the computation, and why:", ""]
    lines += [f"- `{r.id}`: {r.reason}" for r in records if r.verdict == DIFFERS]
    lines += gallery_section(GALLERY)
    lines.append(README_END)
    return "\n".join(lines)


def gallery_section(figures) -> list[str]:
    """The README's figures: each with what it shows and the command that writes it."""
    lines = [
        "",
        "### Figures",
        "",
        "`python -m experiments all` writes every figure; each line says which command writes "
        "it alone.",
    ]
    for figure in figures:
        lines += [
            "",
            f"**{figure.title}** (`python -m experiments {figure.command}`): {figure.caption}",
            "",
            f"![{figure.title}]({figure.path})",
        ]
    return lines


def readme_current(text: str) -> str | None:
    """The results section now in ``text`` (markers included), or None if it has none."""
    match = re.search(re.escape(README_START) + ".*?" + re.escape(README_END), text, re.S)
    return match.group(0) if match else None


def readme_text(records, path: Path = README) -> str | None:
    """The README at ``path`` with its results section regenerated; None if unchanged."""
    text = Path(path).read_text()
    current = readme_current(text)
    if current is None:
        raise ValueError(f"{path} has no {README_START} ... {README_END} section")
    new = readme_section(records)
    return None if new == current else text.replace(current, new)


def update_readme(records, path: Path = README) -> bool:
    """Replace the README's results section by :func:`readme_section`; True if it changed."""
    updated = readme_text(records, path)
    if updated is not None:
        replace_all({Path(path): updated})
    return updated is not None
