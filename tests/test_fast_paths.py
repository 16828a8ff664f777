"""Faster paths that must give what the plain ones gave (issue 11): the CSV text, column
by column, and the held-state test of the delta schemes without ``simplify``."""
import csv
import io

import numpy as np
import sympy as sp

from nsfric.io import csv_text
from nsfric.schemes.delta import sp_equal


def _per_cell(columns: dict) -> str:
    """The CSV text as it was written before: cell by cell."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(columns)
    w.writerow(names)
    cols = [np.asarray(columns[n]) for n in names]
    for i in range(len(cols[0])):
        w.writerow([repr(float(c[i])) if np.issubdtype(c.dtype, np.number) else str(c[i]) for c in cols])
    return buf.getvalue()


def test_csv_text_equals_the_per_cell_text():
    n = 257
    cols = {"t": np.linspace(0.0, 1.0, n), "i": np.arange(n), "stuck": np.arange(n) % 3 == 0,
            "mode": np.array(["slip+", "stick", "slip-"] * 85 + ["free", "free"]),
            "f32": np.linspace(0, 1, n, dtype=np.float32),
            "extreme": np.resize([1e-300, np.inf, -0.0, np.nan, -1.5e308], n)}
    text = csv_text(cols)
    assert text == _per_cell(cols)
    assert text.splitlines()[2].split(",")[1] == "1.0"  # integers written as floats


def test_sp_equal_decides_as_simplify_does():
    v, x, k, g = sp.symbols("v x k g")
    cases = [(v, v), (x + v - x, v), (sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1 + v, v), (g * sp.sin(x), v),
             (v + k, v), (2 * v / 2, v), (k * x / k, x), (sp.Integer(0), v)]
    for a, b in cases:
        assert sp_equal(a, b) == (sp.simplify(a - b) == 0), (a, b)
