"""The documentation builds with warnings as errors (issue 15 item 2), and its
build-time figures are produced."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")
pytest.importorskip("sphinx_gallery")


def test_docs_build_with_warnings_as_errors(tmp_path):
    out = tmp_path / "html"
    env = {**os.environ, "MPLBACKEND": "Agg"}
    # the gallery's pages without running its scripts: tests/test_examples.py runs them
    res = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", "-D", "plot_gallery=0",
                          os.path.join(ROOT, "docs"), str(out), "-d", str(tmp_path / "doctrees")],
                         capture_output=True, text=True, timeout=850, env=env)
    assert res.returncode == 0, res.stderr[-3000:]
    for page in ("index", "install", "getting-started", "tutorial", "api", "schafer", "kuhn",
                 "krengel-matuttis", "schemes", "benchmarks", "changelog", "citing", "gallery/index"):
        assert (out / f"{page}.html").exists(), page
    figures = sorted({p.name for p in out.rglob("*.png")})
    stems = ("tutorial-reference", "tutorial-scheme", "tutorial-convergence", "schafer-fig2",
             "kuhn-fig4", "km-dry-oscillator", "fuhrer-sliding-plates")
    for stem in stems:
        assert f"{stem}.png" in figures, figures
    shown = {}
    for page in ("tutorial", "schafer", "kuhn", "krengel-matuttis", "schemes"):
        for src in re.findall(r'src="([^"]+\.png)"', (out / f"{page}.html").read_text()):
            shown.setdefault(os.path.basename(src), []).append(page)
    assert sorted(shown) == sorted(f"{s}.png" for s in stems), shown  # each figure once
    api = (out / "api.html").read_text()
    assert "simulate" in api and "Filippov" in (out / "theory.html").read_text()
    import nsfric
    undocumented = [name for name in nsfric.__all__ if name not in nsfric.REGISTRIES
                    and f'id="nsfric.{name}"' not in api]
    assert undocumented == [], undocumented      # every public name has its entry
    assert all(f"nsfric.{name}" in api for name in nsfric.REGISTRIES if name != "__version__")
    gallery = (out / "gallery" / "index.html").read_text()
    examples = sorted(p.stem for p in (Path(ROOT) / "examples").glob("*.py"))
    assert [e for e in examples if f"{e}.html" not in gallery] == [], gallery[-2000:]
    assert "Unreleased" in (out / "changelog.html").read_text()
    assert "10.1051/jp1:1996129" in (out / "citing.html").read_text()


def test_no_internal_labels_in_the_docs():
    """Pages speak to users: no issue numbers or branch names (they mean nothing outside)."""
    pages = [*Path(ROOT, "docs").glob("*.md"), Path(ROOT, "README.md"), Path(ROOT, "CHANGELOG.md"),
             *Path(ROOT, "examples").glob("*.py")]
    found = [(p.name, m.group(0)) for p in pages
             for m in re.finditer(r"(?i)\bissue\s*#?\d+|\bw\d+-[a-z]+\b", p.read_text())]
    assert found == []
