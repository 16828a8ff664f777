"""Every script in examples/ (the docs' gallery) runs from outside the package and checks its
own result: a closed form met to 1e-9 (its last line), or the assertions it states."""
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
# the package root, the command line (nsfric list) and the LAMMPS adapter
ALLOWED = {"nsfric", "nsfric.cli", "nsfric.adapters"}
#: what the gallery must show (issue: a reference, a convergence study, a sweep on Dask, a
#: new law, case and scheme, verifying a LAMMPS run and one's own code)
GALLERY = {"plot_reference.py", "plot_convergence.py", "plot_sweep_dask.py", "new_law.py", "new_case.py",
           "new_scheme.py", "plot_verify_lammps.py", "plot_verify_my_code.py"}


def test_there_are_examples():
    assert set(LIMITS) | GALLERY <= {p.name for p in EXAMPLES}


def _asserts(path: Path) -> int:
    return sum(isinstance(n, ast.Assert) for n in ast.walk(ast.parse(path.read_text())))


def test_every_example_is_a_gallery_page_executed_by_the_docs_build():
    """sphinx-gallery needs a title in each docstring; its filename_pattern runs every script."""
    conf = {}
    exec((Path(ROOT) / "docs" / "conf.py").read_text(), conf)
    gallery = conf["sphinx_gallery_conf"]
    assert "sphinx_gallery.gen_gallery" in conf["extensions"]
    assert gallery["examples_dirs"] == "../examples" and gallery.get("plot_gallery", True) is True
    for path in EXAMPLES:
        assert re.search(gallery["filename_pattern"], str(path)), path.name
        lines = ast.get_docstring(ast.parse(path.read_text()), clean=False).strip().splitlines()
        assert len(lines) > 2 and set(lines[1]) == {"="} and len(lines[1]) >= len(lines[0]), path.name
    assert (Path(ROOT) / "examples" / "GALLERY_HEADER.rst").exists()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs_and_meets_its_closed_form(path, tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT, "MPLBACKEND": "Agg"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert out.returncode == 0, out.stderr[-2000:]
    last = out.stdout.strip().splitlines()[-1]
    m = re.search(r"max(?:imum)? (?:relative )?error[^:]*:\s*([0-9.eE+-]+)\s*$", last)
    assert m or _asserts(path), f"last line gives no maximum error and the script asserts nothing: {last!r}"
    assert m is None or float(m.group(1)) < 1e-9, last
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # seconds on a warm cache; a cold one adds the compilation of the kernels the example is
    # the first to need (plot_verify_lammps.py: 23 s of CPU inside the suite, 3 s warm)
    assert cpu < 45, f"{path.name} took {cpu:.1f} s of CPU (an example runs in seconds)"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_use_the_public_api_only(path):
    tree = ast.parse(path.read_text())
    imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imports += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert "nsfric" in imports
    assert not [i for i in imports if i and i.startswith("nsfric") and i not in ALLOWED], imports
    assert code_lines(path) <= LIMITS.get(path.name, 49)
