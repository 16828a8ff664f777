"""One code-generation entry point: no module of nsfric calls ``lambdify`` but
:mod:`nsfric.symbolic.codegen` (issue 23 item 5), and what its options generate."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from nsfric.symbolic import codegen
from nsfric.symbolic.codegen import generate

ROOT = Path(__file__).resolve().parents[1] / "nsfric"
ALLOWED = {"symbolic/codegen.py"}


def lambdify_calls(source: str) -> list:
    """Line numbers of the calls of ``lambdify`` (a name or an attribute, e.g.
    ``sp.lambdify``, ``sympy.utilities.lambdify.lambdify``) and of references to it
    (``f = sp.lambdify``; ``from sympy import lambdify``) in ``source``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id == "lambdify":
            lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "lambdify":
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "lambdify" for a in node.names):
            lines.append(node.lineno)
    return sorted(set(lines))


@pytest.mark.parametrize("src, n", [
    ("import sympy as sp\nf = sp.lambdify(x, e)\n", 1),
    ("from sympy import lambdify\nf = lambdify(x, e)\n", 2),
    ("import sympy\ng = sympy.utilities.lambdify.lambdify\n", 1),
    ("from nsfric.symbolic.codegen import generate\nf = generate(e, x, raw=True)\n", 0),
    ("s = 'lambdify'  # the word in a string or a comment: lambdify\n", 0),
])
def test_the_scan_sees_every_form(src, n):
    assert len(lambdify_calls(src)) == n


def test_no_module_but_codegen_calls_lambdify():
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALLOWED:
            continue
        offenders += [f"{rel}:{line}" for line in lambdify_calls(path.read_text(encoding="utf-8"))]
    assert not offenders, ("call nsfric.symbolic.codegen.generate, not lambdify: " + ", ".join(offenders))
    assert lambdify_calls((ROOT / "symbolic/codegen.py").read_text(encoding="utf-8"))


x, y, a = sp.symbols("x y a", real=True)


def test_raw_without_cse_and_products_is_lambdify_itself():
    """The converted call sites' numbers: ``generate(..., cse=False, products=False,
    raw=True)`` writes the source ``lambdify(args, expr, backend)`` writes."""
    import inspect

    e = sp.Matrix([[x ** 3 * a + sp.exp(-y) * x ** 3, sp.sin(x) ** 5]])
    for backend in ("numpy", "math", "mpmath"):
        ours = generate(e, (x, y, a), backend, cse=False, products=False, raw=True)
        theirs = sp.lambdify((x, y, a), e, backend)  # the reference of this test only
        assert inspect.getsource(ours) == inspect.getsource(theirs), backend
    f = generate(e, (x, y, a), "numpy", cse=False, products=False, raw=True)
    assert f(1.5, 0.25, 2.0).shape == (1, 2)  # lambdify's shape, not flattened


def test_options_are_part_of_the_key():
    e = [x ** 3 + sp.exp(x ** 3)]
    default = generate(e, ([x],))
    assert generate(e, ([x],)) is default
    plain = generate(e, ([x],), cse=False, products=False)
    assert plain is not default
    import inspect

    assert "(x*x*x)" in inspect.getsource(default.raw) and "x**3" in inspect.getsource(plain.raw)
    assert np.array_equal(default(np.array([0.5])), plain(np.array([0.5])))


def test_mpmath_needs_raw_and_unknown_backends_fail():
    with pytest.raises(ValueError, match="raw=True"):
        generate([x], ([x],), "mpmath")
    with pytest.raises(ValueError, match="backend must be one of"):
        generate([x], ([x],), "fortran")


def test_unhashable_arguments_still_generate():
    f = generate(x + y, [[x], [y]], "math", raw=True)  # lists: frozen to tuples for the key
    assert f([1.0], [2.0]) == 3.0
    assert generate(x + y, [[x], [y]], "math", raw=True) is f


def test_the_memo_is_bounded():
    assert codegen.MEMO.maxsize >= 1
    before = len(codegen.MEMO)
    assert before <= codegen.MEMO.maxsize
