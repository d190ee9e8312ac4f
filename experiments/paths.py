"""Where outputs go. Paths derive from this file's location, never from the working directory."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FIGURES = REPO_ROOT / "figures"


def output_dir(out: Path | None, name: str) -> Path:
    """The directory ``<out>/<name>`` (``out`` defaults to ``figures/``), created if missing."""
    path = (Path(out) if out is not None else FIGURES) / name
    path.mkdir(parents=True, exist_ok=True)
    return path
