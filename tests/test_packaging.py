"""What a user of the scientific-Python ecosystem expects of a package: a licence, a
citation file, a changelog, PEP 561's marker, a pure-Python wheel that carries them."""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import yaml

import nsfric

ROOT = Path(__file__).resolve().parent.parent


def test_licence_citation_and_changelog():
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["version"] == nsfric.__version__
    assert cff["license"] == "MIT" and cff["references"]
    dois = [r["doi"] for r in cff["references"] if "doi" in r]
    assert "10.1051/jp1:1996129" in dois and all(d.startswith("10.") for d in dois)
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog\n\n## Unreleased")


def test_the_wheel_is_pure_python_and_carries_the_marker_and_licence(tmp_path):
    src = tmp_path / "src"
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not files:                                     # not a git checkout: copy the tree
        shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build"))
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PIP_NO_INDEX": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("nsfric-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "nsfric/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names), names[-8:]
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
