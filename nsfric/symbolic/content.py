"""The content hash of a model: a text of every field, SymPy expressions by ``srepr``.

:func:`model_hash` keys the caches of derived numerics (:mod:`nsfric.symbolic.numcache`)
and of sweep points (:mod:`nsfric.study.cache`): a law edited anywhere (a plug-in's
module, ``python -c``, a notebook) changes the model's content, hence its hash.
"""
from __future__ import annotations

import dataclasses
import hashlib

import sympy as sp

from ..memo import Identity, Memo

#: the content hash of each live model object (computing it writes out every expression)
_MODEL_HASHES = Memo(256, "nsfric.symbolic.content.model_hashes")


def model_hash(model) -> str:
    """Content hash of a :class:`~nsfric.symbolic.model.HybridModel`: SHA-256 of every
    field of the model and of its parameters, modes and sliding modes (SymPy expressions
    as ``srepr``), so any change of a law's formulas, a default or a range changes it."""
    return _MODEL_HASHES.get(Identity(model), lambda: hashlib.sha256(_canonical(model).encode()).hexdigest())


def _canonical(o) -> str:
    """A deterministic text of ``o``: dataclasses field by field, containers element by
    element, SymPy objects by ``srepr``, functions and classes by name (functions with a
    hash of their code), other objects by their public fields (never by ``repr``, which
    holds the object's address), anything else by ``repr``."""
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        inner = ", ".join(f"{f.name}={_canonical(getattr(o, f.name))}" for f in dataclasses.fields(o))
        return f"{type(o).__name__}({inner})"
    if isinstance(o, dict):
        return "{" + ", ".join(f"{_canonical(k)}: {_canonical(v)}" for k, v in o.items()) + "}"
    if isinstance(o, (list, tuple)):
        return "[" + ", ".join(_canonical(v) for v in o) + "]"
    if isinstance(o, sp.Basic):
        return sp.srepr(o)
    if isinstance(o, (str, int, float, complex, bool, type(None))):
        return repr(o)
    if isinstance(o, type) or callable(o) and hasattr(o, "__qualname__"):
        code = getattr(o, "__code__", None)  # a function: its name and its compiled body
        body = hashlib.sha256(code.co_code + repr(code.co_consts).encode()).hexdigest()[:16] if code else ""
        return f"{getattr(o, '__module__', '')}.{o.__qualname__}{'#' + body if body else ''}"
    fields = getattr(o, "__dict__", None)
    if fields is not None:  # a plain object (e.g. a multi-contact model): its public fields, not its address
        inner = ", ".join(f"{k}={_canonical(v)}" for k, v in sorted(fields.items()) if not k.startswith("_"))
        return f"{type(o).__qualname__}({inner})"
    return repr(o)
