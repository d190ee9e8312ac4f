"""A user's module, factory or setting that fails: one line naming the option, the exception's
type and where it was raised (issue 45 item 21)."""

import pytest

from cenmcc.commands import simulate as command

MODULE = """
def factory(a=1):
    return {}["x"]
"""


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["--generator", "study:factory", "--param", "a=2"],
            r"argument --param: study:factory(a=2) raised KeyError: 'x' (at {}:3, in factory)",
        ),
        (
            ["--generator", "study:factory", "--param", "b=2"],
            "argument --param: study:factory takes no 'b'; valid keys: a",
        ),
        (
            ["--generator", "broken:g"],
            "argument --generator: importing broken raised RuntimeError: boom (at {}:2, in "
            "<module>)",
        ),
        (
            ["--measure", "broken:M"],
            "argument --measure: importing broken raised RuntimeError: boom (at {}:2, in <module>)",
        ),
        (
            ["--param", "k_range=2"],
            "argument --param: papers: k_range must be a pair (low, high) of integers, got 2",
        ),
        (
            ["--param", "foo=2"],
            "argument --param: papers takes no 'foo'; valid keys: k_range, diagonal_range, ",
        ),
    ],
)
def test_a_failure_in_a_users_code_says_what_and_where(tmp_path, monkeypatch, capsys, argv, line):
    (tmp_path / "study.py").write_text(MODULE)
    (tmp_path / "broken.py").write_text('\nraise RuntimeError("boom")\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(tmp_path)
    with pytest.raises(SystemExit) as stop:
        command.main(["simulate", *argv, "--n", "100", "--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    module = "study.py" if "study" in line else "broken.py"
    assert line.format(tmp_path / module) in last
