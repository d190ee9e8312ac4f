"""Claims are declared as data (paper_checks/*.toml); measured values live in results.json only."""

import ast
import json
import sys
import types
from pathlib import Path

import pytest

from paper_checks import declarations
from paper_checks.record import DIFFERS, REPRODUCED, Published, printed
from paper_checks.registry import REGISTRY

PAPER_CHECKS = Path(declarations.__file__).parent


def _check():
    return None


@pytest.fixture
def source(tmp_path, monkeypatch):
    """A module ``claims_x`` with one check, ``_check``, whose declarations ``write`` sets."""
    module = types.ModuleType("claims_x")
    module.__file__ = str(tmp_path / "claims_x.py")
    module.check = _check
    module.half = lambda text: Published(text, 0.5, 0.1, "a form of the module")
    monkeypatch.setitem(sys.modules, "claims_x", module)

    def write(*claims: str) -> Path:
        path = tmp_path / "claims_x.toml"
        path.write_text('source = "Someone (2000)"\n' + "".join(f"[[claims]]\n{c}" for c in claims))
        return path

    return write


CLAIM = 'id = "grandini2020-x"\nlocation = "Fig. 1"\nclaim = "c"\ncheck = "check"\n'


def test_a_declaration_becomes_a_record_with_its_outcome_in_results_json(source, monkeypatch):
    monkeypatch.setattr(declarations, "recorded", lambda: {"grandini2020-x": (DIFFERS, 0.25)})
    source(
        CLAIM + 'published.printed = ["0.5", "0.7"]\npublished.label = "(0.5, 0.7)"\n'
        'reason = "why"\nrelation = "<="\n'
    )
    (record,) = declarations.load("claims_x")
    assert record.source == "Someone (2000), Fig. 1"
    assert record.published == printed("0.5", "0.7", label="(0.5, 0.7)")
    assert record.compute is _check
    assert (record.verdict, record.measured, record.relation) == (DIFFERS, 0.25, "<=")


def test_forms_of_the_module_arguments_and_explicit_values(source, monkeypatch):
    monkeypatch.setattr(declarations, "recorded", dict)
    source(
        CLAIM + 'published.half = "½"\nargs = [1, 2]\n',
        CLAIM.replace("-x", "-y")
        + 'published.text = "t"\npublished.value = [1, 2]\npublished.tolerance = 0.0\n'
        'published.why = "w"\n',
    )
    half, spelled = declarations.load("claims_x")
    assert half.published == Published("½", 0.5, 0.1, "a form of the module")
    assert (half.compute.func, half.compute.args) == (_check, (1, 2))
    assert spelled.published == Published("t", (1, 2), 0.0, "w")
    assert (spelled.verdict, spelled.measured) == (None, None)  # not in results.json yet


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('published.printed = "0.5"\nmeasured = 0.5\n', r"unknown keys \['measured'\]"),
        ('published.printed = "0.5"\nverdict = "reproduced"\n', r"unknown keys \['verdict'\]"),
        ('published.guess = "0.5"\n', "unknown form of a published value: 'guess'"),
        ("", "KeyError\\('published'\\)"),
    ],
)
def test_a_bad_declaration_is_named(source, extra, message):
    path = source(CLAIM + extra)
    with pytest.raises(ValueError, match=message) as caught:
        declarations.load("claims_x")
    assert "claims_x: grandini2020-x" in str(caught.value), path


def test_a_missing_check_is_named(source):
    source(CLAIM.replace('"check"', '"nowhere"') + 'published.printed = "0.5"\n')
    with pytest.raises(ValueError, match=r"grandini2020-x.*nowhere"):
        declarations.load("claims_x")


def test_no_module_types_a_measured_value_or_verdict():
    """Records are declared in the TOML files, never as Record(...) literals with their outcome."""
    typed = []
    for path in PAPER_CHECKS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Record":
                typed += [
                    f"{path.name}:{node.lineno}"
                    for k in node.keywords
                    if k.arg in ("measured", "verdict") and not isinstance(k.value, ast.Name)
                ]
    assert typed == []


def test_every_claim_is_declared_in_a_toml_file_and_has_its_outcome_in_results_json():
    declared = [
        claim["id"]
        for path in sorted(PAPER_CHECKS.glob("*.toml"))
        for claim in declarations.tomllib.loads(path.read_text())["claims"]
    ]
    assert sorted(declared) == sorted(r.id for r in REGISTRY)
    saved = json.loads(declarations.RESULTS.read_text())["records"]
    assert {r["id"]: r["verdict"] for r in saved} == {r.id: r.verdict for r in REGISTRY}
    assert all(r.reason for r in REGISTRY if r.verdict == DIFFERS)
    assert sum(r.verdict == REPRODUCED for r in REGISTRY) == 140
