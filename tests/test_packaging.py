"""What ``pip install cenmcc`` ships and what importing it costs."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Imported only by the extras: tables and figures (pandas, matplotlib), workers (joblib).
EXTRAS_ONLY = ("pandas", "matplotlib", "joblib", "dask", "distributed")


def _imported_after(statement: str) -> list[str]:
    code = f"{statement}; import sys; print([m for m in {EXTRAS_ONLY!r} if m in sys.modules])"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return eval(done.stdout)


@pytest.mark.slow
def test_the_wheel_ships_only_the_library(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("cenmcc-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"cenmcc"}
    assert "cenmcc/simulation/engine.py" in names
    assert "cenmcc/commands/staging.py" in names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = [
        line.split(":", 1)[1].strip()
        for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist:")
    ]
    assert sorted(r.split(">")[0] for r in requires if "extra ==" not in r) == ["numpy", "scipy"]


def test_importing_the_metrics_loads_no_extra():
    assert _imported_after("import cenmcc") == []


def test_importing_the_engine_loads_no_extra():
    # joblib is imported when a run starts its workers, pandas and matplotlib when it saves.
    assert _imported_after("import cenmcc.simulation") == []
