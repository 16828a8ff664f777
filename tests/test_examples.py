"""Every script in examples/ runs from outside the package and meets its closed form."""
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))
ROOT = str(Path(__file__).resolve().parent.parent)


def code_lines(path: Path) -> int:
    """Lines of code: not blank, not a comment, not the module docstring."""
    src = path.read_text()
    doc = ast.parse(src).body[0]
    skip = set(range(doc.lineno, doc.end_lineno + 1)) if isinstance(doc, ast.Expr) else set()
    return sum(1 for i, line in enumerate(src.splitlines(), 1)
               if i not in skip and line.strip() and not line.strip().startswith("#"))


def test_there_are_examples():
    assert [p.name for p in EXAMPLES if p.name == "new_law.py"] == ["new_law.py"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs_and_meets_its_closed_form(path, tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    last = out.stdout.strip().splitlines()[-1]
    m = re.search(r"max(?:imum)? error[^:]*:\s*([0-9.eE+-]+)\s*$", last)
    assert m, f"last line gives no maximum error: {last!r}"
    assert float(m.group(1)) < 1e-9, last


def test_new_law_uses_the_public_api_only():
    path = [p for p in EXAMPLES if p.name == "new_law.py"][0]
    tree = ast.parse(path.read_text())
    imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imports += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert "nsfric" in imports
    assert not [i for i in imports if i and i.startswith("nsfric.")], imports
    assert code_lines(path) <= 30
