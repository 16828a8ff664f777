"""The package's layers import only downwards (SPEC §1), including imports inside
functions: symbolic -> solvers -> schemes -> study -> cases -> adapters -> report -> cli, with the
helper modules at the package top (I/O, plotting, the Solution, errors) as the ground
floor, importing no layer; the papers (``nsfric.papers``) sit on top of the engine,
which never names them.  A reference is an import statement, ``__import__`` or
``importlib.import_module`` of a module-name string, or a ``sys.modules`` key; no module
imports the package root, relatively or not."""
import ast
import pathlib
import re

import pytest

import nsfric
from nsfric.plugins import GROUPS  # entry-point group names, not modules

ROOT = pathlib.Path(nsfric.__file__).parent
#: rank of each layer; a module may import its own layer or a lower rank only
RANKS = {"symbolic": 1, "solvers": 2, "schemes": 3, "study": 4, "cases": 5, "adapters": 5.5, "report": 6, "cli": 7,
         "papers": 8}
#: a string naming a module of the package
MODULE_NAME = re.compile(r"^nsfric(\.\w+)*$")
GROUND = 0


def layer_of(module: str):
    """Rank of ``nsfric.<module>``: a layer's rank, 0 for ground-floor helpers, None for
    the package root (which re-exports the API and may import everything)."""
    parts = module.split(".")
    if parts[0] != "nsfric":
        return None
    if len(parts) == 1:
        return None
    return RANKS.get(parts[1], GROUND)


def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported_modules(path: pathlib.Path, root: pathlib.Path = ROOT):
    """Every ``nsfric`` module imported anywhere in ``path`` (AST: also inside functions),
    with the line number; relative imports resolved against the module's package."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if node.module is None or node.level and not node.module:
                # ``from . import x``: each name may be a submodule
                for a in node.names:
                    yield f"{mod}.{a.name}", node.lineno
            else:
                yield mod, node.lineno
        if isinstance(node, ast.ImportFrom) and node.level and not node.module:
            if ".".join(package.split(".")[: len(package.split(".")) - (node.level - 1)]) == "nsfric":
                for a in node.names:  # ``from .. import name``: a submodule, or the root itself
                    if not (root / a.name).is_dir() and not (root / f"{a.name}.py").exists():
                        yield "nsfric", node.lineno
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        # a module named by a string: __import__, importlib.import_module, sys.modules keys,
        # entry-point targets -- any string that is a module name of the package
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                and node.value not in GROUPS.values()):
            text = node.value.split(":")[0]
            if MODULE_NAME.match(text) and text != "nsfric":
                yield text, node.lineno
            elif "nsfric.papers" in node.value:
                yield "nsfric.papers", node.lineno
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            head = str(node.values[0].value)
            if head.startswith("nsfric."):
                yield head.rstrip("."), node.lineno


def upward_imports(root: pathlib.Path = ROOT):
    bad = []
    for path in sorted(root.rglob("*.py")):
        me = layer_of(module_name(path, root))
        if me is None:
            continue
        for mod, line in imported_modules(path, root):
            if mod == "nsfric":
                bad.append(f"{path.relative_to(root.parent)}:{line} imports the package root")
                continue
            them = layer_of(mod)
            if them is None:
                continue
            if them > me:
                bad.append(f"{path.relative_to(root.parent)}:{line} imports {mod} (layer {them} > {me})")
    return bad


def test_layers_import_only_downwards():
    bad = upward_imports()
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_layers_exist():
    for layer in RANKS:
        assert (ROOT / layer / "__init__.py").exists(), layer


@pytest.mark.parametrize("source,expected", [
    ("from ...cases import get_case\n", "nsfric.cases"),
    ("def f():\n    from ...cases.base import Case\n", "nsfric.cases.base"),
    ("import nsfric.cli\n", "nsfric.cli"),
    ("def f():\n    __import__('nsfric.report')\n", "nsfric.report"),
    ("from ... import cases\n", "nsfric.cases"),
    ("import importlib\ndef f():\n    importlib.import_module('nsfric.cli.names')\n", "nsfric.cli"),
    ("import sys\nm = sys.modules.get('nsfric.report.page')\n", "nsfric.report"),
    ("import importlib\nm = importlib.import_module(f'nsfric.cases.{1}')\n", "nsfric.cases"),
    ("X = 'nsfric.papers.kuhn:PAPER'\n", "nsfric.papers"),
])
def test_walker_sees_upward_imports(tmp_path, source, expected):
    """The walker catches an upward import wherever it is written (a mutant check)."""
    root = tmp_path / "nsfric"
    (root / "symbolic" / "sub").mkdir(parents=True)
    for f in ("__init__.py", "symbolic/__init__.py", "symbolic/sub/__init__.py"):
        (root / f).write_text("")
    probe = root / "symbolic" / "sub" / "probe.py"
    probe.write_text(source)
    mods = [m for m, _ in imported_modules(probe, root)]
    assert any(m.startswith(expected) for m in mods), mods
    assert any("probe" in b for b in upward_imports(root))
    probe.write_text("from .. import laws\nfrom ...io import write_text\nfrom ..cases import x\n")
    assert upward_imports(root) == []


def test_walker_sees_the_package_root(tmp_path):
    """``from ... import name`` of a name that is no module imports the package root."""
    root = tmp_path / "nsfric"
    (root / "symbolic").mkdir(parents=True)
    for f in ("__init__.py", "symbolic/__init__.py", "io.py"):
        (root / f).write_text("")
    probe = root / "symbolic" / "probe.py"
    probe.write_text("from .. import io\n")
    assert upward_imports(root) == []
    probe.write_text("from .. import __version__\n")
    assert any("package root" in b for b in upward_imports(root))


def test_no_engine_module_names_a_paper():
    """The engine's paths name no paper system, and its code no paper package (its
    docstrings may cite one)."""
    papers = {p.name for p in (ROOT / "papers").iterdir() if p.is_dir() and not p.name.startswith("_")}
    assert papers >= {"fuhrer2024", "krengel_matuttis", "schafer1996", "kuhn"}
    systems = ("sliding_plates", "slope_block", "km_", "kuhn", "pile", "heap", "oblique_impact", "normal_impact",
               "column", "dry_oscillator", "polygon", "block_corners", "fuhrer", "krengel", "schafer")
    engine = [p for p in ROOT.rglob("*.py") if "papers" not in p.relative_to(ROOT).parts]
    named = [str(p.relative_to(ROOT)) for p in engine if any(s in p.stem for s in systems)]
    assert not named, named


def test_papers_register_through_entry_points():
    """Each paper package registers its cases and its Paper through the installed entry
    points, as a user's plug-in does."""
    from importlib.metadata import entry_points

    cases = {ep.name: ep.value for ep in entry_points(group="nsfric.cases")}
    papers = {ep.value.split(":")[0] for ep in entry_points(group="nsfric.papers")}
    assert {f"nsfric.papers.{p}" for p in ("fuhrer2024", "krengel_matuttis", "schafer1996", "kuhn")} <= papers
    for name in ("sliding-plates", "slope-block", "km-pile", "normal-impact", "kuhn-contact"):
        assert cases[name].startswith("nsfric.papers."), cases[name]
