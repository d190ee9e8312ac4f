"""Where outputs go. Paths derive from this file's location, never from the working directory."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FIGURES = REPO_ROOT / "figures"
