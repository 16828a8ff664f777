"""docs/architecture.md lists every module of the package (so it stays the map of the tree)."""
import pathlib

import nsfric

ROOT = pathlib.Path(nsfric.__file__).parent
DOC = ROOT.parent / "docs" / "architecture.md"


def test_every_module_is_in_the_architecture_page():
    text = DOC.read_text()
    missing = [str(p.relative_to(ROOT.parent)) for p in sorted(ROOT.rglob("*.py"))
               if "/_" not in str(p.relative_to(ROOT)).replace("__init__", "init")
               and f"`{p.relative_to(ROOT.parent)}`" not in text]
    assert not missing, "modules missing from docs/architecture.md: " + ", ".join(missing)
