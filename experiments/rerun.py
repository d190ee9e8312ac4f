"""Whether a rerun matches the committed results: the last line of ``python -m experiments all``.

A run stores every float at :data:`cenmcc.commands.files.SIGNIFICANT_DIGITS` significant
digits, the digits a rerun on another processor reproduces, so a rerun that computes the same
results rewrites the committed files byte for byte. :func:`rerun_line` says in one line whether
it did: the same claims with the same verdicts (``results.json``), and the largest relative
difference of any number stored in the text files it rewrote (JSON, CSV, Markdown), against
what git has committed (``git show HEAD:<path>``). Figures are compared byte for byte.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from .paths import REPO_ROOT

#: A number in a text file: an integer, a decimal or a float in scientific notation.
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")

#: Files compared number by number; any other file is compared byte for byte.
TEXT = (".json", ".csv", ".md")


def number_difference(committed: str, written: str) -> float | None:
    """The largest relative difference between the numbers of two texts otherwise equal.

    Returns
    -------
    float or None
        ``max |a - b| / max(|a|, |b|)`` over the numbers in the same places (0 for identical
        texts), or None if the texts differ elsewhere than in their numbers.

    Examples
    --------
    >>> round(number_difference("r,0.5,n,4", "r,0.4,n,4"), 12)
    0.2
    >>> number_difference("a,1", "b,1") is None
    True
    """
    if NUMBER.split(committed) != NUMBER.split(written):
        return None
    pairs = zip(NUMBER.findall(committed), NUMBER.findall(written), strict=True)
    return max((_relative(float(a), float(b)) for a, b in pairs if a != b), default=0.0)


def _relative(a: float, b: float) -> float:
    return 0.0 if a == b else abs(a - b) / max(abs(a), abs(b))


def verdicts(results_json: bytes) -> dict[str, str]:
    """Each claim's verdict in a paper checks' ``results.json``, by id."""
    return {r["id"]: r["verdict"] for r in json.loads(results_json)["records"]}


def compare(files: Mapping[str, tuple[bytes, bytes]]) -> str:
    """One line: whether the written files match the committed ones, and how far they differ.

    Parameters
    ----------
    files : mapping of str to (bytes, bytes)
        Each file's name (its path in the repository) to its committed and written contents.
        A file named ``results.json`` holds the paper checks' claims and verdicts.

    Returns
    -------
    str
        ``rerun matches the committed results: ...`` when every file is identical, otherwise
        ``rerun differs from the committed results: ...``, naming the claims whose verdict
        changed, the largest relative difference of a stored number and the file it is in,
        the files that differ in their text and the figures that differ in their bytes.
    """
    changed, worst, where, texts, figures, claims = [], 0.0, "", [], [], None
    for name, (committed, written) in sorted(files.items()):
        if Path(name).name == "results.json":
            before, after = verdicts(committed), verdicts(written)
            claims = len(after)
            changed += [
                f"{i}: {before.get(i, 'absent')} -> {after.get(i, 'absent')}"
                for i in sorted(before.keys() | after.keys())
                if before.get(i) != after.get(i)
            ]
        if committed == written:
            continue
        if Path(name).suffix not in TEXT:
            figures.append(name)
            continue
        found = number_difference(committed.decode(), written.decode())
        if found is None:
            texts.append(name)
        elif found > worst:
            worst, where = found, name
    parts = []
    if claims is not None:
        parts.append(
            f"verdict changed for {len(changed)} of {claims} claims ({'; '.join(changed)})"
            if changed
            else f"the same {claims} claims and verdicts"
        )
    if worst:
        parts.append(f"largest relative difference of a stored number {worst:.2g} ({where})")
    if texts:
        parts.append(f"text differs in {', '.join(texts)}")
    if figures:
        parts.append(f"figures differ in {', '.join(figures)}")
    if changed or worst or texts or figures:
        return "rerun differs from the committed results: " + "; ".join(parts)
    return (
        "rerun matches the committed results: "
        + "".join(p + ", and " for p in parts)
        + f"every stored number and figure identical ({len(files)} files compared)"
    )


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


def rerun_line(written: Iterable[tuple[Path, str]], root: Path = REPO_ROOT) -> str:
    """:func:`compare` for the files a run wrote, against what git has committed.

    Parameters
    ----------
    written : iterable of (Path, str)
        Each file the run wrote, with the path of its committed counterpart relative to
        ``root`` (the same file when the run wrote into the clone, ``figures/<folder>/<name>``
        for ``<out>/<folder>/<name>``). Files git has not committed (timings, the bulky tables
        git ignores) are left out.
    root : Path
        The clone.
    """
    if not in_git_clone(root):
        return f"rerun: no committed results to compare ({root} is not a git clone)"
    files = {}
    for path, name in written:
        before = committed(name, root)
        if before is not None and Path(path).is_file():
            files[name] = (before, Path(path).read_bytes())
    if not files:
        return "rerun: no committed results to compare"
    return compare(files)
