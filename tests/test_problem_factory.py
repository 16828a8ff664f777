"""``ProblemFactory`` (issue 23 item 4): the engine declares what its schemes and studies
read of a case, so they depend on that protocol, not on ``nsfric.cases`` above them."""
import ast
import pathlib

import pytest

import nsfric
from nsfric.cases import CASES, get_case

ROOT = pathlib.Path(nsfric.__file__).parent


def protocol_members() -> set:
    from nsfric.problems import ProblemFactory

    import typing

    return set(typing._get_protocol_attrs(ProblemFactory))  # noqa: SLF001 (3.11: no __protocol_attrs__)


def test_every_case_is_a_problem_factory():
    assert nsfric.ProblemFactory is __import__("nsfric.problems", fromlist=["x"]).ProblemFactory
    for name in CASES:
        assert isinstance(get_case(name), nsfric.ProblemFactory), name
    assert not isinstance(object(), nsfric.ProblemFactory)


def _annotation_names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)} | \
        {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def case_accesses():
    """``(attribute, where, allowed-extra)`` for every member read on a case in
    ``nsfric/schemes`` and ``nsfric/study``: ``case.X``, ``self.case.X``, ``getattr``/``hasattr``
    of them, and the same on any parameter annotated with ``ProblemFactory`` (one annotated
    ``Problem | ProblemFactory`` may also read the Problem's fields)."""
    from dataclasses import fields

    from nsfric.solvers.base import Problem

    problem_fields = {f.name for f in fields(Problem)}
    for pkg in ("schemes", "study"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
                names = {"case": set()}
                for a in fn.args.args + fn.args.kwonlyargs:
                    ann = _annotation_names(a.annotation) if a.annotation is not None else set()
                    if "ProblemFactory" in ann:
                        names[a.arg] = problem_fields if "Problem" in ann else set()
                if "case" in names and any(a.arg == "case" and a.annotation is not None
                                           and "Problem" in _annotation_names(a.annotation)
                                           for a in fn.args.args + fn.args.kwonlyargs):
                    names["case"] = problem_fields

                def target(node):
                    if isinstance(node, ast.Name) and node.id in names:
                        return names[node.id]
                    if isinstance(node, ast.Attribute) and node.attr == "case" and \
                            isinstance(node.value, ast.Name) and node.value.id == "self":
                        return set()
                    return None

                for node in ast.walk(fn):
                    where = f"{path.relative_to(ROOT.parent)}:{getattr(node, 'lineno', 0)}"
                    if isinstance(node, ast.Attribute):
                        extra = target(node.value)
                        if extra is not None:
                            yield node.attr, where, extra
                    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                            and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 \
                            and isinstance(node.args[1], ast.Constant):
                        extra = target(node.args[0])
                        if extra is not None:
                            yield node.args[1].value, where, extra


def test_schemes_and_studies_read_only_the_protocol():
    members = protocol_members()
    seen = list(case_accesses())
    assert len(seen) > 20  # the scan finds the accesses (scheme_problem, check_law, ...)
    assert {"scheme_problem", "check_law", "numeric_model", "reference_solution", "units"} <= {a for a, _, _ in seen}
    bad = sorted({(a, w) for a, w, extra in seen if a not in members and a not in extra})
    assert not bad, f"read on a case but not declared by ProblemFactory: {bad}"


def test_the_members_are_documented():
    from nsfric.problems import ProblemFactory

    doc = ProblemFactory.__doc__
    for name in protocol_members():
        assert f"{name} :" in doc or getattr(ProblemFactory, name, None).__doc__, name


@pytest.mark.parametrize("fn", ["nsfric.schemes.base:simulate", "nsfric.schemes.batch:simulate_batch",
                                "nsfric.study.runs:problem_of", "nsfric.study.convergence:converge",
                                "nsfric.study.sweep:sweep"])
def test_the_engine_functions_take_it(fn):
    import importlib
    import inspect

    module, name = fn.split(":")
    sig = inspect.signature(getattr(importlib.import_module(module), name))
    first = next(iter(sig.parameters.values()))
    assert "ProblemFactory" in str(first.annotation), (fn, first.annotation)
