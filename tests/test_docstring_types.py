"""Public docstrings name types that exist (issue 23: ``nsfric.simulate`` promised a
``DiscreteResult``, a type that had been merged into :class:`nsfric.Solution`)."""
import builtins
import inspect
import re
import sys

import numpy as np
import pytest

import nsfric

CALLABLES = [n for n in nsfric.__all__ if n not in nsfric.REGISTRIES and callable(getattr(nsfric, n))]


def returned_types(doc: str) -> list:
    """The type names of a numpydoc ``Returns`` section (``name : Type`` or ``Type``)."""
    m = re.search(r"\nReturns\n-+\n(.*?)(?:\n\s*\n|\Z)", "\n" + doc, re.S)  # up to a blank line
    if not m:
        return []
    lines = [ln for ln in m.group(1).splitlines() if ln.strip() and not ln[0].isspace()]  # not descriptions
    out = []
    for ln in lines:
        kind = ln.split(":", 1)[1] if ":" in ln else ln
        out += re.findall(r"\b([A-Z][A-Za-z0-9_]+)\b", kind)
    return out


def known(name: str) -> bool:
    """Defined by a module of nsfric (loaded by now), Python, NumPy or xarray."""
    import xarray

    import nsfric.study  # noqa: F401  (the modules that define the studies' result types)
    modules = [m for k, m in list(sys.modules.items()) if k == "nsfric" or k.startswith("nsfric.")]
    return any(hasattr(m, name) for m in modules + [builtins, np, xarray]) or name == "None"


@pytest.mark.parametrize("name", CALLABLES)
def test_returns_names_an_existing_type(name):
    doc = inspect.getdoc(getattr(nsfric, name)) or ""
    missing = [t for t in returned_types(doc) if not known(t)]
    assert not missing, f"nsfric.{name}'s docstring returns {missing}, which nsfric does not define"


def test_simulate_returns_a_solution():
    assert returned_types(inspect.getdoc(nsfric.simulate)) == ["Solution"]
