"""Every script in examples/ runs from outside the package and meets its closed form."""
import ast
import os
import re
import resource
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


#: each example's largest number of code lines (a law, a case or a tableau from outside in
#: a few dozen lines) and the modules of nsfric it may import besides the root
LIMITS = {"new_law.py": 30, "new_case.py": 49, "new_scheme.py": 49}
ALLOWED = {"nsfric", "nsfric.cli"}  # the package root and the command line (nsfric list)


def test_there_are_examples():
    assert set(LIMITS) <= {p.name for p in EXAMPLES}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs_and_meets_its_closed_form(path, tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert out.returncode == 0, out.stderr[-2000:]
    last = out.stdout.strip().splitlines()[-1]
    m = re.search(r"max(?:imum)? (?:relative )?error[^:]*:\s*([0-9.eE+-]+)\s*$", last)
    assert m, f"last line gives no maximum error: {last!r}"
    assert float(m.group(1)) < 1e-9, last
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert cpu < 20, f"{path.name} took {cpu:.1f} s of CPU (an example runs in seconds)"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_use_the_public_api_only(path):
    tree = ast.parse(path.read_text())
    imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imports += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert "nsfric" in imports
    assert not [i for i in imports if i and i.startswith("nsfric") and i not in ALLOWED], imports
    assert code_lines(path) <= LIMITS.get(path.name, 49)
