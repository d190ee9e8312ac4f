"""Every command's ``--help`` reads as help: no docstring markup, every default shown."""

import argparse
import re

import pytest

from cenmcc.commands import report as report_command
from cenmcc.commands import simulate as simulation_command
from experiments import __main__ as experiments_main
from experiments.registry import EXPERIMENTS
from paper_checks import __main__ as paper_checks_main

#: Sphinx and numpydoc markup, and references meant for developers.
MARKUP = re.compile(r"``|:(func|class|mod|meth|data|attr|exc):`|\bissue \d")


def _parsers() -> dict[str, argparse.ArgumentParser]:
    parser = experiments_main.build_parser()
    commands = [e.command for e in EXPERIMENTS] + ["all"]
    return {
        "python -m experiments": parser,
        **{f"experiments {c}": parser.parse_args([c]).parser for c in commands},
        "python -m paper_checks": paper_checks_main.build_parser(),
        "python -m cenmcc": report_command.build_parser(),
        "python -m cenmcc report": report_command.build_parser()
        .parse_args(["report", "FILE", "--truth", "t", "--pred", "p"])
        .parser,
        "python -m cenmcc.simulation": simulation_command.build_parser(),
        **{
            f"cenmcc.simulation {c}": simulation_command.build_parser().parse_args([c]).parser
            for c in ("simulate", "validate")
        },
    }


PARSERS = _parsers()


def _option_help(text: str, option: str) -> str:
    """The help of ``option`` in a formatted help: its line and the indented ones after it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"  (-\w, )?{option}\b", line))
    end = next(
        (i for i in range(start + 1, len(lines)) if not lines[i].startswith(" " * 4)), len(lines)
    )
    return " ".join(lines[start:end])


@pytest.mark.parametrize("name", PARSERS)
def test_help_has_no_markup_and_shows_every_default(name, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    parser = PARSERS[name]
    text = parser.format_help()
    assert not MARKUP.search(text), MARKUP.search(text)
    for action in parser._actions:  # argparse has no public list of a parser's options
        default = action.default
        nothing = default is None or default is False or default in ([], argparse.SUPPRESS)
        if action.option_strings and not nothing:
            assert "default" in _option_help(text, action.option_strings[-1]), action.dest


def test_the_sizes_seeds_and_workers_show_their_values(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    text = PARSERS["experiments random-matrices"].format_help()
    for option, value in (
        ("--n", "200000"),
        ("--seed", "0"),
        ("--jobs", "-1"),
        ("--chunk-size", "10000"),
        ("--resamples", "999"),
    ):
        assert f"(default: {value})" in _option_help(text, option), option


def test_each_command_says_what_it_writes_and_all_passes_its_options_on(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    for experiment in EXPERIMENTS:
        text = PARSERS[f"experiments {experiment.command}"].format_help()
        assert f"DIR/{experiment.folder}/" in " ".join(text.split())
    everything = PARSERS["experiments all"].format_help()
    for option in ("--seed", "--jobs", "--backend", "--scheduler", "--out", "--quiet"):
        assert option in everything
