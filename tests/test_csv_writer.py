"""The CSV writer (``nsfric.io.csv_text``) writes the same bytes as the per-cell writer
it replaced: every numeric cell ``repr(float(v))`` through the csv module."""
from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nsfric.io import csv_text


def per_cell(columns: dict) -> str:
    """The writer before: each cell formatted alone, every row through the csv module."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(columns)
    w.writerow(names)
    cols = []
    for n in names:
        c = np.asarray(columns[n])
        cols.append(map(repr, c.astype(float).tolist()) if np.issubdtype(c.dtype, np.number) else map(str, c))
    w.writerows(zip(*cols))
    return buf.getvalue()


EDGES = {
    "signed zeros, non-finite": {"a": np.array([0.0, -0.0, np.nan, np.inf, -np.inf, -0.0]),
                                 "b": np.array([1e-300, 5e-324, 1.7976931348623157e308, -1e16, 0.1, 1 / 3])},
    "few distinct values": {"t": np.linspace(0, 1, 50), "mode": np.repeat([0.0, -0.0, 2.5, 1e-7, np.nan], 10),
                            "k": np.repeat(np.arange(5), 10)},
    "integers and floats": {"i": np.arange(-3, 3), "big": np.array([2 ** 60, 3, -2 ** 62, 0, 1, 7]),
                            "u": np.arange(6, dtype=np.uint8), "f32": np.linspace(0, 1, 6, dtype=np.float32)},
    "no rows": {"a": np.array([]), "b": np.array([])},
    "one column": {"only": np.array([1.5, -2.0, 1e22])},
    "unequal lengths": {"a": np.arange(5.0), "b": np.arange(3.0)},
    "strings need quoting": {"name": np.array(["plain", "with,comma", 'with"quote', ""]), "x": np.arange(4.0)},
    "object column": {"law": np.array(["c-sds", None, 1.5, "d"], dtype=object), "v": [1, 2, 3, 4]},
    "lists": {"a": [0.1, 0.2, 0.30000000000000004], "b": (1, 2, 3)},
    "bools": {"flag": np.array([True, False]), "x": np.array([1.0, 2.0])},
    "header needs quoting": {"a,b": np.array([1.0]), 'q"': np.array([2.0])},
    "no columns": {},
    "text beside numbers": {"law": np.array(["c-sds", "d-sds"] * 3), "x": np.linspace(-1, 1, 6),
                            "failure": np.array(["", "", "ZenoError: at x = 2.0", "", "", ""]), "k": np.arange(6)},
    "one empty text column": {"failure": np.array(["", "a", ""])},
    "a carriage return": {"s": np.array(["a\rb", "c"]), "x": np.array([1.0, 2.0])},
    "datetimes and complex": {"when": np.array(["2026-01-01T00:00", "2026-01-02T12:00"], dtype="datetime64[m]"),
                              "z": np.array([1 + 2j, -0.5j]), "x": np.array([0.5, -0.0])},
    "text with few distinct numbers": {"name": np.array(["a b", " lead", "trail "] * 20),
                                       "mode": np.repeat([0.0, -0.0, np.nan], 20)},
}


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # complex cells: their real part, as before
@pytest.mark.parametrize("name", list(EDGES))
def test_same_bytes_as_the_per_cell_writer(name):
    assert csv_text(EDGES[name]) == per_cell(EDGES[name])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=0, max_size=40),
       st.integers(min_value=1, max_value=4), st.booleans())
def test_same_bytes_on_any_floats(values, repeat, few):
    x = np.array(values, dtype=float)
    if few:  # a column of few distinct values (the shared texts' path)
        x = np.tile(x[:3], 10) if len(x) else x
    cols = {"x": x, "y": -x[::-1], "z": np.repeat(x[:1], len(x)) if len(x) else x}
    cols = {k: np.tile(v, repeat) for k, v in cols.items()}
    assert csv_text(cols) == per_cell(cols)


TEXT = st.text(alphabet=st.sampled_from(list('ab ,"\n\r;x')), max_size=4)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(TEXT, st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5)),
                max_size=30), st.booleans())
def test_same_bytes_on_text_beside_numbers(rows, objects):
    text = [r[0] for r in rows]
    cols = {"name": np.array(text, dtype=object if objects else str) if rows else np.array([], dtype=str),
            "x": np.array([r[1] for r in rows], dtype=float), "k": np.array([r[2] for r in rows], dtype=int)}
    assert csv_text(cols) == per_cell(cols)
    assert csv_text({"name": cols["name"]}) == per_cell({"name": cols["name"]})
