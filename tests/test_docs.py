"""The documentation builds with warnings as errors (issue 15 item 2), and its
build-time figures are produced."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")


def test_docs_build_with_warnings_as_errors(tmp_path):
    out = tmp_path / "html"
    env = {**os.environ, "MPLBACKEND": "Agg"}
    res = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
                          os.path.join(ROOT, "docs"), str(out), "-d", str(tmp_path / "doctrees")],
                         capture_output=True, text=True, timeout=850, env=env)
    assert res.returncode == 0, res.stderr[-3000:]
    for page in ("index", "getting-started", "tutorial", "api", "schafer", "kuhn",
                 "krengel-matuttis", "schemes", "benchmarks"):
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
