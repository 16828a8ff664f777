"""The package's layers import only downwards (SPEC §1), including imports inside
functions: symbolic -> solvers -> schemes -> study -> cases -> report -> cli, with the
helper modules at the package top (I/O, plotting, the Solution, errors) as the ground
floor, importing no layer."""
import ast
import pathlib

import pytest

import nsfric

ROOT = pathlib.Path(nsfric.__file__).parent
#: rank of each layer; a module may import its own layer or a lower rank only
RANKS = {"symbolic": 1, "solvers": 2, "schemes": 3, "study": 4, "cases": 5, "report": 6, "cli": 7}
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
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            if node.args and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("nsfric"):
                yield node.args[0].value, node.lineno


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
