"""On-disk cache of sweep points, keyed by a content hash.

A point's key is the SHA-256 of a canonical JSON text of everything its result depends
on: the model's content hash (:func:`~nsfric.symbolic.content.model_hash`: every field of the model -- states,
parameters with their defaults and ranges, switching functions, modes with their
right-hand sides, outputs and resets -- SymPy expressions as ``srepr``), the bound parameter values, the solver with its tolerances and options, and
the versions of nsfric and of the numerical stack, and the content of nsfric's own
source (:func:`source_hash`: an edited solver or case is a new key, also without a new
version number).  The entries live in a few chunk files of :mod:`nsfric.chunk_store`
(not one file per point): each entry a checksummed line holding the whole specification
and the result; chunks are written whole and atomically by one writer each (a
temporary file renamed into place), every few thousand points or seconds and when the
sweep ends or is interrupted, so an interrupted sweep leaves only whole entries and
concurrent sweeps lose none.  An entry that cannot be read, fails its checksum, is not
strict JSON, holds another specification or a malformed result is recomputed and
stored anew, never trusted; a cache that cannot be written is skipped (noted for the
sidecar).  The one-file-per-point entries of older versions (``<key[:2]>/<key>.json``)
are ignored and left alone (their keys hold the older source, so they could not match).
"""
from __future__ import annotations

import hashlib
import json
import math
import os

from ..chunk_store import ChunkStore
from ..symbolic.content import model_hash  # noqa: F401  (re-exported)

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


def spec_text(spec: dict) -> str:
    """The canonical (sorted, strict, one-line) JSON text of ``spec``."""
    return json.dumps(_plain(spec), sort_keys=True, allow_nan=False, separators=(",", ":"))


def text_key(text: str) -> str:
    """The key of a :func:`spec_text`: its SHA-256."""
    return hashlib.sha256(text.encode()).hexdigest()


def content_key(spec: dict) -> str:
    """SHA-256 of the canonical (sorted, strict) JSON text of ``spec``."""
    return text_key(spec_text(spec))


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


def _valid_result(result) -> bool:
    """A (decoded) point's result: ``observables`` and ``estimate`` (numbers by name), ``stats``."""
    return (isinstance(result, dict) and all(isinstance(result.get(k), dict) for k in ("observables", "stats"))
            and isinstance(result.get("estimate", {}), dict)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                    for k in ("observables", "estimate") for v in result.get(k, {}).values()))


def _text(key, spec) -> str:
    return spec if isinstance(spec, str) else spec_text(spec if spec is not None else {"key": key})


class PointCache:
    """Sweep results by content key in the folder ``root`` (created on first store): a
    :class:`~nsfric.chunk_store.ChunkStore` of kind ``sweep`` whose entries hold each
    point's whole specification beside its result.  Stored entries are buffered: call
    :meth:`close` (or use the cache as a context manager) to write the rest."""

    KIND = "sweep"

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.store_ = ChunkStore(self.root, self.KIND)

    def load(self, key: str, spec=None):
        """The stored result of ``key`` (a dict), or None when absent or not trustworthy
        (a wrong checksum, not strict JSON, another specification, a malformed result).
        ``spec``: the specification (a dict, or its :func:`spec_text`; default ``{"key": key}``)."""
        result = self.store_.get(key, _text(key, spec))
        result = None if result is None else _decode(result)
        return result if _valid_result(result) else None

    def store(self, key: str, result: dict, spec=None) -> bool:
        """Buffer the entry (written in chunks); False (the cache skipped, a note recorded
        by :func:`nsfric.cache_store.skip`) when it cannot be written."""
        return self.store_.put(key, _text(key, spec), _encode(result))

    def want(self, keys):
        """Read only the entries of ``keys`` into memory (:meth:`ChunkStore.want`)."""
        self.store_.want(keys)

    def flush(self) -> bool:
        """Write the buffered entries now; False (and a note) when they cannot be written."""
        return self.store_.flush()

    def close(self) -> bool:
        """Write the buffered entries and merge small chunks."""
        return self.store_.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
