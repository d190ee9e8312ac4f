"""The shared options: counts in powers of ten, output directories checked when parsed.

That a bad argument of any command fails before anything is touched is in test_staging.py.
"""

import argparse

import pytest

from cenmcc.commands import arguments


@pytest.mark.parametrize(
    ("text", "value"), [("20000000", 20_000_000), ("20_000_000", 20_000_000), ("2e7", 20_000_000)]
)
def test_counts_can_be_written_in_powers_of_ten(text, value):
    assert arguments.positive_int(text) == value


def test_an_output_directory_that_cannot_be_written_is_refused(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(argparse.ArgumentTypeError, match="not a directory"):
        arguments.output_root(str(tmp_path / "file"))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write in /proc"):
        arguments.output_root("/proc/new")
    assert arguments.output_root(str(tmp_path / "a" / "b")) == tmp_path / "a" / "b"
    assert not (tmp_path / "a").exists()  # checked, not created
