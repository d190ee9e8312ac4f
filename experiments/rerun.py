"""Whether a rerun's results are the committed ones: the one comparison of both.

``python -m experiments all`` compares each file it writes with the one git has committed
(:func:`settle`, the last line of its output), and ``paper_checks`` compares a fresh run's
outputs with those committed under ``figures/`` (:mod:`paper_checks.freshness`); both through
:func:`compare`, with one rule:

- text files (JSON, CSV, Markdown) are equal where their text is, apart from their numbers, and
  each number is equal to the committed one: integers exactly, other numbers within
  :data:`RTOL` and :data:`ATOL`; JSON files are compared value by value (the keys of
  :data:`VOLATILE` left out), the strings in them as text;
- a figure (:data:`FIGURES`) is equal when its bytes are, or when every number of the files
  beside it (its experiment's tables and summary) is equal: it is drawn from them (its bytes
  depend on matplotlib and its fonts too); any other file is equal when its bytes are.

A file equal within the tolerance but not byte for byte is one the rerun reproduced: ``all``
puts the committed bytes back after each experiment (:func:`settle`), so ``git status`` stays
clean and what is computed from it afterwards (the paper checks' report, the READMEs) comes
from the committed numbers. A file that differs beyond the tolerance is kept as the rerun
wrote it, and the numbers that differ are named. Files git does not hold (the timings, the
bulky per-matrix tables) are not compared.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from cenmcc.runtime.files import write_atomic

from .paths import REPO_ROOT

#: Relative tolerance of a stored number. A run stores 10 significant digits
#: (:data:`cenmcc.runtime.files.SIGNIFICANT_DIGITS`). Two x86-64 machines compute the same
#: run with different SIMD kernels of NumPy and of the BLAS (``exp``, ``log``, sums in another
#: order), which differ in the last bits of float64: measured at most 2.3e-11 relative where a
#: statistic cancels (the standard errors of the protocol's refitted readings). Rounded to 10
#: digits, such a difference either vanishes or, at a rounding boundary, moves the last digit
#: by one unit: at most 1e-9 relative. Ten such units leave a margin for a statistic that
#: cancels more on a machine not measured; a change of the results (another random stream,
#: another formula) moves them by far more.
RTOL = 1e-8

#: Absolute tolerance of a stored number: a quantity that is 0 in exact arithmetic is computed
#: as rounding noise, whose sign and size depend on the machine (a mean of centred values,
#: 1e-17), and is stored at 10 significant digits of that noise. Below 1e-12 a number of these
#: experiments (measures, correlations and their standard errors, of order 1e-6 to 1e3) is
#: such noise.
ATOL = 1e-12

#: Files compared number by number.
TEXT = (".json", ".csv", ".md")
#: Figures, equal where the numbers beside them are; any other file is compared byte for byte.
FIGURES = (".png", ".pdf", ".svg")

#: Top-level keys of a JSON file left out of the comparison, and why: they record the
#: environment, not a result, and differ between installs whose results are the same.
VOLATILE = {
    "symbolic": "the sympy version that ran the families' proofs (each proof's outcome is "
    "compared, under formulas)",
}

#: A number in a text: an integer, a decimal or a float in scientific notation.
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_INTEGER = re.compile(r"[-+]?\d+")

#: Differences named per file in the one-line verdict of :meth:`Comparison.line`.
SHOWN = 3


def same_number(committed: str, written: str) -> bool:
    """Whether two numbers as written are the same stored number.

    Integers are equal exactly; any other number within :data:`RTOL` and :data:`ATOL`.

    Examples
    --------
    >>> same_number("0.1234567891", "0.1234567892"), same_number("0.5", "0.5001")
    (True, False)
    >>> same_number("10000000000", "10000000001"), same_number("1e-17", "-3e-17")
    (False, True)
    """
    if committed == written:
        return True
    if _INTEGER.fullmatch(committed) and _INTEGER.fullmatch(written):
        return int(committed) == int(written)
    return math.isclose(float(committed), float(written), rel_tol=RTOL, abs_tol=ATOL)


def text_differences(committed: str, written: str, where: str = "") -> list[str]:
    """Where two texts differ beyond the tolerance, line by line.

    Parameters
    ----------
    committed, written : str
    where : str
        Where the texts are (a JSON path), before each line's number; a text of one line is
        named by ``where`` alone.

    Returns
    -------
    list of str
        For each line that differs, its numbers beyond the tolerance (``line 3: 0.5
        committed, 0.6 now``), or both lines (shortened) where it differs elsewhere than in
        its numbers; empty when the texts are equal within the tolerance.

    Examples
    --------
    >>> text_differences("K,r\\n3,0.5\\n", "K,r\\n3,0.6\\n")
    ['line 2: 0.5 committed, 0.6 now']
    >>> text_differences("r = 0.5", "r = 0.5000000001"), text_differences("a,1", "b,1")
    ([], ["line 1: 'a,1' committed, 'b,1' now"])
    """
    ours, theirs = committed.splitlines(), written.splitlines()
    if len(ours) != len(theirs):
        counted = f"{len(theirs)} lines now, {len(ours)} committed"
        return [f"{where}: {counted}" if where else counted]
    out = []
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True), start=1):
        if a == b:
            continue
        line = where if where and len(ours) == 1 else f"{where} line {i}".lstrip()
        if NUMBER.split(a) != NUMBER.split(b):
            out.append(f"{line}: {_short(a)!r} committed, {_short(b)!r} now")
            continue
        pairs = zip(NUMBER.findall(a), NUMBER.findall(b), strict=True)
        out += [f"{line}: {x} committed, {y} now" for x, y in pairs if not same_number(x, y)]
    return out


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def value_differences(committed, written, where: str = "") -> list[str]:
    """Where two parsed JSON values differ beyond the tolerance, by path (``.a.b[2]``).

    Numbers as :func:`same_number`, strings as :func:`text_differences`, anything else
    exactly.

    Examples
    --------
    >>> value_differences({"r": [0.5, 3], "s": "n = 4"}, {"r": [0.6, 3], "s": "n = 5"})
    ['.r[0]: 0.5 committed, 0.6 now', '.s: 4 committed, 5 now']
    """
    if isinstance(committed, dict) and isinstance(written, dict):
        out = [
            f"{where}.{k}: only in one of them" for k in sorted(committed.keys() ^ written.keys())
        ]
        for key in sorted(committed.keys() & written.keys()):
            out += value_differences(committed[key], written[key], f"{where}.{key}")
        return out
    if isinstance(committed, list) and isinstance(written, list):
        if len(committed) != len(written):
            return [f"{where}: {len(written)} items now, {len(committed)} committed"]
        return [
            d
            for i, (a, b) in enumerate(zip(committed, written, strict=True))
            for d in value_differences(a, b, f"{where}[{i}]")
        ]
    if _is_number(committed) and _is_number(written):
        same = same_number(json.dumps(committed), json.dumps(written))
        return [] if same else [f"{where}: {committed!r} committed, {written!r} now"]
    if isinstance(committed, str) and isinstance(written, str):
        return text_differences(committed, written, where)
    same = type(committed) is type(written) and committed == written  # True is not 1
    return [] if same else [f"{where}: {committed!r} committed, {written!r} now"]


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def file_differences(name: str, committed: bytes, written: bytes) -> list[str]:
    """Where a text file (:data:`TEXT`) differs from the committed one beyond the tolerance.

    A JSON file is compared value by value (:func:`value_differences`), its top-level keys of
    :data:`VOLATILE` left out; a CSV or Markdown file line by line (:func:`text_differences`).
    """
    if committed == written:
        return []
    if PurePosixPath(name).suffix != ".json":
        return text_differences(committed.decode(), written.decode())
    ours, theirs = json.loads(committed), json.loads(written)
    if isinstance(ours, dict) and isinstance(theirs, dict):
        ours, theirs = ({k: v for k, v in d.items() if k not in VOLATILE} for d in (ours, theirs))
    return value_differences(ours, theirs)


def verdicts(results_json: bytes) -> dict[str, str]:
    """Each claim's verdict in a paper checks' ``results.json``, by id."""
    return {r["id"]: r["verdict"] for r in json.loads(results_json)["records"]}


@dataclass(frozen=True)
class Comparison:
    """How files written by a rerun compare with the committed ones (:func:`compare`).

    Attributes
    ----------
    identical : tuple of str
        The files equal byte for byte.
    reproduced : tuple of str
        The files equal within the tolerance but not byte for byte (figures drawn from equal
        numbers included): their committed bytes stand for the rerun's.
    differences : dict of str to tuple of str
        The files that differ beyond the tolerance, each with what differs in it.
    claims : int or None
        Claims in a ``results.json`` compared (None if there was none).
    changed : tuple of str
        The claims whose verdict changed: ``id: before -> after``.
    """

    identical: tuple = ()
    reproduced: tuple = ()
    differences: dict = dataclasses.field(default_factory=dict)
    claims: int | None = None
    changed: tuple = ()

    @property
    def matches(self) -> bool:
        """Whether every file is equal within the tolerance and no verdict changed."""
        return not self.differences and not self.changed

    def merge(self, other: Comparison) -> Comparison:
        """The comparison of both sets of files."""
        counted = [c for c in (self.claims, other.claims) if c is not None]
        return Comparison(
            self.identical + other.identical,
            self.reproduced + other.reproduced,
            self.differences | other.differences,
            sum(counted) if counted else None,
            self.changed + other.changed,
        )

    def lines(self) -> list[str]:
        """Every difference beyond the tolerance, one line each: ``<file>: <what>``."""
        return [f"{name}: {d}" for name, found in sorted(self.differences.items()) for d in found]

    def line(self) -> str:
        """One line: whether the rerun matches the committed results, and where it does not.

        ``rerun matches the committed results: ...``, saying how many files were equal
        within the tolerance but not byte for byte, or ``rerun differs from the committed
        results: ...``, naming the claims whose verdict changed and the first
        :data:`SHOWN` differences of each file.
        """
        files = len(self.identical) + len(self.reproduced) + len(self.differences)
        parts = []
        if self.claims is not None:
            parts.append(
                f"verdict changed for {len(self.changed)} of {self.claims} claims "
                f"({'; '.join(self.changed)})"
                if self.changed
                else f"the same {self.claims} claims and verdicts"
            )
        tolerance = f"relative {RTOL:g}, absolute {ATOL:g}"
        if self.matches:
            kept = (
                f", {len(self.reproduced)} of them within it but not byte for byte, whose "
                "committed bytes are kept"
                if self.reproduced
                else ", all of them byte for byte"
            )
            parts.append(
                f"every stored number within the tolerance ({tolerance}) in the {files} files "
                f"compared{kept}"
            )
            return "rerun matches the committed results: " + "; ".join(parts)
        shown = []
        for name, found in sorted(self.differences.items()):
            more = f"; and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
            shown.append(f"{name} ({'; '.join(found[:SHOWN])}{more})")
        parts.append(
            f"{len(self.differences)} of {files} files differ beyond the tolerance "
            f"({tolerance}), kept as the rerun wrote them: {', '.join(shown)}"
        )
        if self.reproduced:
            parts.append(f"{len(self.reproduced)} within it, whose committed bytes are kept")
        return "rerun differs from the committed results: " + "; ".join(parts)


def compare(files: Mapping[str, tuple[bytes, bytes]]) -> Comparison:
    """Compare written files with the committed ones (see the module docstring).

    Parameters
    ----------
    files : mapping of str to (bytes, bytes)
        Each file's name (its path in the repository) to its committed and written contents.
        A file named ``results.json`` holds the paper checks' claims and verdicts.

    Returns
    -------
    Comparison
    """
    identical, reproduced, differences = [], [], {}
    claims, changed = None, []
    for name, (committed, written) in sorted(files.items()):
        path = PurePosixPath(name)
        if path.name == "results.json":
            before, after = verdicts(committed), verdicts(written)
            claims = len(after)
            changed += [
                f"{i}: {before.get(i, 'absent')} -> {after.get(i, 'absent')}"
                for i in sorted(before.keys() | after.keys())
                if before.get(i) != after.get(i)
            ]
        if committed == written:
            identical.append(name)
        elif path.suffix in TEXT:
            found = file_differences(name, committed, written)
            if found:
                differences[name] = tuple(found)
            else:
                reproduced.append(name)
    differing = {PurePosixPath(name).parent for name in differences}
    for name, (committed, written) in sorted(files.items()):
        path = PurePosixPath(name)
        if path.suffix in TEXT or committed == written:
            continue
        if path.suffix not in FIGURES:
            differences[name] = ("the bytes differ",)
        elif path.parent in differing:
            differences[name] = ("a figure drawn from numbers that differ",)
        else:
            reproduced.append(name)
    return Comparison(tuple(identical), tuple(reproduced), differences, claims, tuple(changed))


def committed(path: str, root: Path = REPO_ROOT) -> bytes | None:
    """The bytes git has committed at ``path`` (relative to ``root``); None if it has none."""
    shown = subprocess.run(["git", "show", f"HEAD:{path}"], cwd=root, capture_output=True)
    return shown.stdout if shown.returncode == 0 else None


def in_git_clone(root: Path = REPO_ROOT) -> bool:
    """Whether ``root`` is the top of a git clone with a commit (and git is installed)."""
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "--show-toplevel", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
        )
    except OSError:
        return False
    return top.returncode == 0 and Path(top.stdout.splitlines()[0]).resolve() == root.resolve()


def settle(written: Iterable[tuple[Path, str]], root: Path = REPO_ROOT) -> Comparison | None:
    """Compare the files a run wrote with what git has committed; keep the committed bytes of
    those it reproduced.

    Parameters
    ----------
    written : iterable of (Path, str)
        Each file the run wrote, with the path of its committed counterpart relative to
        ``root`` (the same file when the run wrote into the clone, ``figures/<folder>/<name>``
        for ``<out>/<folder>/<name>``). Files git has not committed (timings, the bulky tables
        git ignores) are left out.
    root : Path
        The clone.

    Returns
    -------
    Comparison or None
        None where ``root`` is not a git clone. Each file of :attr:`Comparison.reproduced`
        has been rewritten with its committed bytes.
    """
    if not in_git_clone(root):
        return None
    paths, files = {}, {}
    for path, name in written:
        before = committed(name, root)
        if before is not None and Path(path).is_file():
            paths[name], files[name] = Path(path), (before, Path(path).read_bytes())
    found = compare(files)
    for name in found.reproduced:
        write_atomic(paths[name], lambda tmp, name=name: tmp.write_bytes(files[name][0]))
    return found


def rerun_line(comparisons: Iterable[Comparison | None], root: Path = REPO_ROOT) -> str:
    """The last line of ``python -m experiments all``: :meth:`Comparison.line` of all the
    comparisons of :func:`settle` (one per step of the run)."""
    found = [c for c in comparisons if c is not None]
    if not found:
        return f"rerun: no committed results to compare ({root} is not a git clone)"
    merged = found[0]
    for c in found[1:]:
        merged = merged.merge(c)
    if not (merged.identical or merged.reproduced or merged.differences):
        return "rerun: no committed results to compare"
    return merged.line()
