"""What ``pip install cenmcc`` ships and what importing it costs."""

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _library_files() -> set[str]:
    """Every Python file of ``cenmcc/``, as a path relative to the checkout."""
    return {path.relative_to(ROOT).as_posix() for path in (ROOT / "cenmcc").rglob("*.py")}


def _library_packages() -> set[str]:
    """Every folder of ``cenmcc/`` that holds Python code, as a dotted package name."""
    return {name.rpartition("/")[0].replace("/", ".") for name in _library_files()}


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
    # Built from a copy without build/: setuptools ships whatever a stale build/lib holds.
    source = tmp_path / "source"
    generated = (".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__")
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*generated))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("cenmcc-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"cenmcc"}
    assert {name for name in names if name.endswith(".py")} == _library_files()
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = [
        line.split(":", 1)[1].strip()
        for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist:")
    ]
    assert sorted(r.split(">")[0] for r in requires if "extra ==" not in r) == ["numpy", "scipy"]


def test_the_build_finds_every_package_of_the_library():
    # setuptools' own reading of pyproject.toml, as the build backend resolves
    # [tool.setuptools.packages]; the wheel itself is built by the slow test above and by .ci/run.
    from setuptools.config.pyprojecttoml import expand_configuration

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found = expand_configuration(config, ROOT)["tool"]["setuptools"]["packages"]
    assert sorted(found) == sorted(_library_packages())


def test_importing_the_metrics_loads_no_extra():
    assert _imported_after("import cenmcc") == []


def test_importing_the_engine_loads_no_extra():
    # joblib is imported when a run starts its workers, pandas and matplotlib when it saves.
    assert _imported_after("import cenmcc.simulation") == []
