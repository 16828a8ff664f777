"""Checksummed cache entries: the one on-disk format of every nsfric cache.

An entry is one file: a header line ``nsfric-cache <FORMAT> <kind> sha256=<hex>``, then
the payload, the strict JSON text of ``{"spec": ..., "data": ...}``.  ``spec`` is the
*whole specification* the entry's key was computed from (:func:`spec_key`: a SHA-256 of
its canonical JSON text), ``data`` what is cached.

* **Read** (:func:`read`): an entry is served only if the file is readable text, its
  header names this format and kind, the SHA-256 of the payload matches, the payload is
  strict JSON (no ``NaN``), its stored specification equals the one asked for, and the
  caller's ``check`` of the data passes (e.g. :func:`all_finite`).  Anything else --
  missing, truncated, one flipped digit, garbage, an empty file, a directory, an entry of
  an older format -- is a *miss*: the caller rebuilds the value and :func:`write`
  replaces the entry.
* **Write** (:func:`write`): to a temporary file beside the entry, moved into place with
  ``os.replace`` (atomic: readers see the old or the new entry, never a mixture).  A
  cache that cannot be written (read-only folder, full disk, a cache path that is a
  file) is *skipped*: the run goes on without it and :func:`notes` records why, for the
  sidecar of the outputs (``"cache": [{"kind", "path", "skipped"}]``).  An empty
  directory occupying an entry's path is replaced; a non-empty one is left alone (its
  files are not nsfric's) and the write is skipped.  Non-finite floats in the data are
  stored as ``{"__float__": "inf"}`` (strict JSON has none); a caller that needs finite
  numbers says so with ``check=all_finite``.

This module is on the ground floor: it imports no layer of nsfric.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from .outputs import umask

#: bump when the entry layout changes (older entries are then misses)
FORMAT = 2
MAGIC = "nsfric-cache"

_NOTES: list = []


def canonical(spec) -> str:
    """The canonical JSON text of ``spec`` (sorted keys, tuples as lists, floats by
    ``repr`` so that ``1`` and ``1.0`` and every last digit differ, non-finite floats
    allowed as text)."""
    return json.dumps(_plain(spec), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _plain(o):
    if isinstance(o, dict):
        return {str(k): _plain(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_plain(v) for v in o]
    if isinstance(o, bool) or o is None or isinstance(o, str):
        return o
    if isinstance(o, int):
        return o
    try:
        return {"float": repr(float(o))}
    except (TypeError, ValueError):
        return {"repr": repr(o)}


def spec_key(spec) -> str:
    """SHA-256 (hex) of :func:`canonical` ``(spec)``: an entry's key."""
    return hashlib.sha256(canonical(spec).encode()).hexdigest()


def checksum(payload: str) -> str:
    return hashlib.sha256(payload.encode()).hexdigest()


def header(kind: str, payload: str) -> str:
    return f"{MAGIC} {FORMAT} {kind} sha256={checksum(payload)}"


def _encode(o):
    """Non-finite floats as ``{"__float__": "inf"}`` (strict JSON has none)."""
    if isinstance(o, dict):
        return {k: _encode(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_encode(v) for v in o]
    if isinstance(o, float) and not math.isfinite(o):
        return {"__float__": repr(o)}
    return o


def _decode(o):
    if isinstance(o, dict):
        if len(o) == 1 and o.get("__float__") in ("nan", "inf", "-inf"):
            return float(o["__float__"])
        return {k: _decode(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_decode(v) for v in o]
    return o


def _reject(name):
    raise ValueError(f"not strict JSON: {name}")


def all_finite(data) -> bool:
    """Whether every number in ``data`` (nested dicts and lists) is finite."""
    if isinstance(data, dict):
        return all(all_finite(v) for v in data.values())
    if isinstance(data, (list, tuple)):
        return all(all_finite(v) for v in data)
    if isinstance(data, float):
        return math.isfinite(data)
    return True


def read(path: str, kind: str, spec=None, check=None):
    """The data of the entry at ``path`` if it is whole and trustworthy (see the module
    docstring), else None.  ``spec``: the specification it must have been stored with
    (None: any); ``check(data)``: a further test of the data (False or an exception: a
    miss)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        head, payload = text.split("\n", 1)
        if head != header(kind, payload):
            return None
        obj = json.loads(payload, parse_constant=_reject)
        if not isinstance(obj, dict) or set(obj) != {"spec", "data"}:
            return None
        if spec is not None and canonical(obj["spec"]) != canonical(spec):
            return None
        data = _decode(obj["data"])
        if check is not None and not check(data):
            return None
        return data
    except (OSError, ValueError, UnicodeDecodeError, TypeError, KeyError, IndexError, AttributeError):
        return None


def write(path: str, kind: str, spec, data, root: str | None = None) -> bool:
    """Write the entry atomically (see the module docstring); False (and a note) when
    the cache cannot be written (``root``: the cache folder the note names, default the
    entry's folder)."""
    try:
        payload = json.dumps({"spec": json.loads(canonical(spec)), "data": _encode(data)}, sort_keys=True,
                             allow_nan=False)
    except (TypeError, ValueError) as e:
        skip(kind, root or path, f"not storable: {e}")
        return False
    return write_text(path, kind, f"{header(kind, payload)}\n{payload}", root)


def write_text(path: str, kind: str, text: str, root: str | None = None) -> bool:
    """Write ``text`` to ``path`` atomically; False (and a note) when it cannot be
    written (an empty directory in the way is replaced, a non-empty one is kept)."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)  # OSError for a non-empty directory: not ours, kept
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~umask())
        os.replace(tmp, path)
        tmp = None
        return True
    except OSError as e:
        skip(kind, root or path, f"cannot write: {e.strerror or e}")
        return False
    finally:
        if tmp is not None:
            try:
                os.remove(tmp)
            except OSError:
                pass


def skip(kind: str, path: str, reason: str) -> None:
    """Record that the cache ``kind`` was skipped (once per kind and reason); ``path``: an
    entry (its folder is named) or the cache folder itself."""
    folder = os.path.abspath(path)
    if not folder.endswith(os.sep + kind) and os.path.splitext(folder)[1]:
        folder = os.path.dirname(folder)
    note = {"kind": kind, "path": folder, "skipped": reason}
    if not any(n["kind"] == kind and n["skipped"] == reason for n in _NOTES):
        _NOTES.append(note)


def notes() -> list:
    """The caches skipped so far in this process (for the outputs' sidecars)."""
    return [dict(n) for n in _NOTES]


def clear_notes() -> None:
    """Forget the notes (at the start of a command)."""
    _NOTES.clear()


__all__ = ["FORMAT", "all_finite", "canonical", "clear_notes", "notes", "read", "skip", "spec_key",
           "write", "write_text"]
