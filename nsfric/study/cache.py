"""On-disk cache of sweep points, keyed by a content hash.

A point's key is the SHA-256 of a canonical JSON text of everything its result depends
on: the model's content hash (:func:`model_hash`: every field of the model -- states,
parameters with their defaults and ranges, switching functions, modes with their
right-hand sides, outputs and resets -- SymPy expressions as ``srepr``), the bound parameter values, the solver with its tolerances and options, and
the versions of nsfric and of the numerical stack, and the content of nsfric's own
source (:func:`source_hash`: an edited solver or case is a new key, also without a new
version number).  An entry is one JSON file
``<key[:2]>/<key>.json`` holding its key and its result, written atomically (a
temporary file renamed into place), so an interrupted sweep leaves only whole entries.
An entry that cannot be read, is not strict JSON or holds another key is recomputed,
never trusted.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import tempfile

import sympy as sp

from ..io import json_text

_MODEL_HASHES: dict = {}
_SOURCE_HASH: list = []
#: the parts of the package a point's result cannot depend on
NOT_RESULTS = ("cli", "report")


def source_hash() -> str:
    """SHA-256 of nsfric's Python source that results depend on (every ``.py`` file of
    the package except :data:`NOT_RESULTS`), by relative path and content; computed once
    per process."""
    if not _SOURCE_HASH:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        files = []
        for d, subs, names in os.walk(root):
            subs[:] = sorted(x for x in subs if not (d == root and x in NOT_RESULTS) and x != "__pycache__")
            files += [os.path.join(d, n) for n in names if n.endswith(".py")]
        h = hashlib.sha256()
        for f in sorted(files):
            with open(f, "rb") as fh:
                h.update(os.path.relpath(f, root).encode() + b"\0" + hashlib.sha256(fh.read()).digest())
        _SOURCE_HASH.append(h.hexdigest())
    return _SOURCE_HASH[0]


def model_hash(model) -> str:
    """Content hash of a :class:`~nsfric.symbolic.model.HybridModel`: SHA-256 of every
    field of the model and of its parameters, modes and sliding modes (SymPy expressions
    as ``srepr``), so any change of a law's formulas, a default or a range changes it."""
    memo = _MODEL_HASHES.get(id(model))
    if memo is not None and memo[0] is model:
        return memo[1]
    digest = hashlib.sha256(_canonical(model).encode()).hexdigest()
    _MODEL_HASHES[id(model)] = (model, digest)
    return digest


def _canonical(o) -> str:
    """A deterministic text of ``o``: dataclasses field by field, containers element by
    element, SymPy objects by ``srepr``, anything else by ``repr``."""
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        inner = ", ".join(f"{f.name}={_canonical(getattr(o, f.name))}" for f in dataclasses.fields(o))
        return f"{type(o).__name__}({inner})"
    if isinstance(o, dict):
        return "{" + ", ".join(f"{_canonical(k)}: {_canonical(v)}" for k, v in o.items()) + "}"
    if isinstance(o, (list, tuple)):
        return "[" + ", ".join(_canonical(v) for v in o) + "]"
    if isinstance(o, sp.Basic):
        return sp.srepr(o)
    return repr(o)


def content_key(spec: dict) -> str:
    """SHA-256 of the canonical (sorted, strict) JSON text of ``spec``."""
    text = json.dumps(_plain(spec), sort_keys=True, allow_nan=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(o):
    """``o`` with floats as ``repr`` strings (exact, and NaN-safe), tuples as lists."""
    if isinstance(o, dict):
        return {str(k): _plain(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_plain(v) for v in o]
    if isinstance(o, bool) or o is None or isinstance(o, (str, int)):
        return o
    try:
        return repr(float(o))
    except (TypeError, ValueError):
        return repr(o)


def _encode(o):
    """Non-finite floats as ``{"float": "inf"}`` (strict JSON has no NaN or infinity)."""
    if isinstance(o, dict):
        return {k: _encode(v) for k, v in o.items()}
    if isinstance(o, float) and not math.isfinite(o):
        return {"float": repr(o)}
    return o


def _decode(o):
    if isinstance(o, dict):
        if set(o) == {"float"} and o["float"] in ("nan", "inf", "-inf"):
            return float(o["float"])
        return {k: _decode(v) for k, v in o.items()}
    return o


class PointCache:
    """Sweep results by content key in the folder ``root`` (created on first store)."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)

    def path(self, key: str) -> str:
        return os.path.join(self.root, key[:2], key + ".json")

    def load(self, key: str):
        """The stored result of ``key`` (a dict), or None when absent, unreadable, not
        strict JSON or stored under another key."""
        try:
            with open(self.path(key), encoding="utf-8") as f:
                entry = json.load(f, parse_constant=_reject)
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("result"), dict):
            return None
        return _decode(entry["result"])

    def store(self, key: str, result: dict):
        """Write the entry atomically (temporary file, then rename)."""
        target = self.path(key)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(target))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json_text({"key": key, "result": _encode(result)}))
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.remove(tmp)
            raise


def _reject(name):
    raise ValueError(f"not strict JSON: {name}")
