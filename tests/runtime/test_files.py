"""Output files are written whole and reproducibly: no date, and floats at the stored digits."""

import gzip
import json

import numpy as np
import pandas as pd

from cenmcc.runtime import files


def test_compressed_tables_carry_no_date_or_name(tmp_path):
    table = pd.DataFrame({"a": np.arange(5), "b": np.linspace(0, 1, 5)})
    first = files.write_table(tmp_path / "one.csv.gz", table).read_bytes()
    second = files.write_table(tmp_path / "two.csv.gz", table).read_bytes()
    assert first == second
    assert first[4:8] == b"\0\0\0\0"  # MTIME field of the gzip header
    assert first[3] & 0x08 == 0  # no FNAME flag
    assert gzip.decompress(first).decode() == table.to_csv(index=False)


def test_a_float_that_differs_beyond_the_stored_digits_writes_the_same_bytes(tmp_path):
    # Two processors' results for one statistic: they differ in the 16th significant digit.
    here, there = 0.9949348814528318, 0.9949348814528316
    written = []
    for i, value in enumerate((here, there)):
        summary = {"r": np.float64(value), "ci": [value, -value], "n": 5, "nan": float("nan")}
        table = pd.DataFrame({"reading": ["a"], "r": [value], "mixed": [value]}).astype(
            {"mixed": object}
        )
        json_text = files.write_json(tmp_path / f"{i}.json", summary).read_bytes()
        csv_text = files.write_table(tmp_path / f"{i}.csv", table).read_bytes()
        written.append((json_text, csv_text))
    assert written[0] == written[1]
    stored = f"{here:.{files.SIGNIFICANT_DIGITS}g}"
    assert json.loads(written[0][0]) == {
        "r": float(stored),
        "ci": [float(stored), -float(stored)],
        "n": 5,
        "nan": "nan",
    }
    assert written[0][1].decode() == f"reading,r,mixed\na,{stored},{stored}\n"


def test_a_difference_within_the_stored_digits_is_kept():
    value = 0.1234567891
    changed = value + 1e-10  # the 10th significant digit
    assert files.stored(value) != files.stored(changed)
    assert files.stored(1e-300) == 1e-300  # significant digits, not decimals
    assert files.stored(-2.5) == -2.5
