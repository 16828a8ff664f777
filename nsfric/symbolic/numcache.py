"""The disk cache of derived numerics: generated code per case and law, no SymPy needed.

One entry per (case, law, backend) holds what a reference solver reads of the model
(:func:`~nsfric.symbolic.frozen.model_record`) and the generated source of every
derived function used so far (right-hand sides, Jacobians, guards, their rates,
indicators, resets, outputs), in ``nsfric.io.cache_dir("numerics")`` (so under
``$NSFRIC_CACHE_DIR/numerics`` when that is set).

* **Key** (:func:`entry_key`), computed without SymPy: a SHA-256 of the cache format,
  the versions of nsfric, Python, NumPy and SymPy (read from the installed metadata),
  the backend, the case and law names, and the bytes of every source file of
  :mod:`nsfric.symbolic` and of the modules defining the case's class.  Editing a law,
  the derivation or the code generator gives a new key: the old entry is never read.
* **Never trusted blindly**: the file starts with a SHA-256 of its payload and the
  payload repeats the key; a truncated, edited or foreign file fails either check and
  counts as missing, so the entry is rebuilt (from SymPy) and replaced.  A stored
  function that does not compile counts as missing too.
* **Concurrent writers**: an entry is written to a temporary file beside it and moved
  into place with ``os.replace`` (atomic), after merging the functions another process
  stored meanwhile.  Readers see the old or the new file, never a mixture.

Set ``NSFRIC_NUMCACHE=0`` to bypass the cache (everything derived from SymPy).
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import platform
import sys
import tempfile
import types

import numpy as np

from ..io import _umask, cache_dir
from .frozen import FrozenModel, Reshaped, compile_function, load_function, model_record, namespace_recipe

#: bump when the entry layout changes
FORMAT = 1
_MAGIC = "nsfric-numcache"
HERE = os.path.dirname(os.path.abspath(__file__))


def enabled() -> bool:
    """False when ``NSFRIC_NUMCACHE`` is ``0`` (derive everything from SymPy)."""
    return os.environ.get("NSFRIC_NUMCACHE", "1") != "0"


def _digest_files(paths) -> str:
    h = hashlib.sha256()
    for path in sorted(set(paths)):
        with open(path, "rb") as f:
            data = f.read()
        h.update(f"{os.path.basename(path)}:{len(data)}:".encode())
        h.update(data)
    return h.hexdigest()


@functools.cache
def _symbolic_digest() -> str:
    files = [os.path.join(d, f) for d, _, fs in os.walk(HERE) for f in fs if f.endswith(".py")]
    return _digest_files(files)


@functools.cache
def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from .. import __version__

    try:
        sympy = version("sympy")
    except PackageNotFoundError:  # pragma: no cover - sympy is a core dependency
        sympy = "none"
    return f"{__version__}|{platform.python_version()}|{np.__version__}|{sympy}"


def class_files(cls) -> list:
    """Source files of the modules defining ``cls`` and its bases (a case's ``build``)."""
    files = []
    for c in cls.__mro__:
        mod = sys.modules.get(c.__module__)
        path = getattr(mod, "__file__", None)
        if path and path.endswith(".py") and c is not object:
            files.append(path)
    return files


def entry_key(case: str, law: str, backend: str = "numpy", files=()) -> str:
    """The entry's key (see module docstring); ``files`` are the case's own sources."""
    text = "\n".join([f"{_MAGIC}/{FORMAT}", _versions(), backend, case, law, _symbolic_digest(),
                      _digest_files(files)])
    return hashlib.sha256(text.encode()).hexdigest()


def _checksum(payload: str) -> str:
    return hashlib.sha256(payload.encode()).hexdigest()


def _read(path: str, key: str) -> dict | None:
    """The verified payload of the file at ``path``, or None (missing, truncated, wrong
    checksum, another key or format, not JSON)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        head, payload = text.split("\n", 1)
        if head != f"{_MAGIC} {FORMAT} sha256={_checksum(payload)}":
            return None
        data = json.loads(payload)
        if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("functions"), dict):
            return None
        return data
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def raw_spec(raw) -> dict | None:
    """``{src, name, ns}`` of a generated function (None: it cannot be restored)."""
    if not isinstance(raw, types.FunctionType):
        return None
    ns = namespace_recipe(raw)
    try:
        src = inspect.getsource(raw)
    except (OSError, TypeError):
        return None
    return None if ns is None else {"src": src, "name": raw.__name__, "ns": ns}


def _fn_spec(fn) -> dict | None:
    spec = raw_spec(getattr(fn, "raw", None))
    return spec and {**spec, "backend": fn.backend, "n": fn.n}


def encode(value) -> dict | None:
    """The JSON form of a derived function (or of ``(names, f)``, ``(guards, f)``, a
    reshaped Jacobian, ``None``); None when it cannot be stored."""
    if value is None:
        return {"none": True}
    if isinstance(value, Reshaped):
        spec = _fn_spec(value.f)
        return spec and {"reshape": list(value.shape), "fn": spec}
    if isinstance(value, tuple) and len(value) == 2:
        items, fn = value
        spec = None if fn is None else _fn_spec(fn)
        if fn is not None and spec is None:
            return None
        if all(isinstance(i, str) for i in items):
            return {"names": list(items), "fn": spec}
        guards = [[list(g.target) if isinstance(g.target, tuple) else g.target, g.label] for g in items]
        return {"guards": guards, "fn": spec}
    spec = _fn_spec(value)
    return spec and {"fn": spec}


def decode(obj: dict):
    """The inverse of :func:`encode` (raises on a malformed object)."""
    if obj.get("none"):
        return None
    fn = None if obj["fn"] is None else load_function(obj["fn"])
    if "reshape" in obj:
        return Reshaped(fn, obj["reshape"])
    if "names" in obj:
        return list(obj["names"]), fn
    if "guards" in obj:
        gs = [types.SimpleNamespace(target=tuple(t) if isinstance(t, list) else t, label=lab)
              for t, lab in obj["guards"]]
        return gs, fn
    return fn


class Entry:
    """One cache entry: the model record and the stored functions (see module docstring)."""

    def __init__(self, key: str, backend: str, model: dict, functions: dict | None = None):
        self.key, self.backend, self.model = key, backend, model
        self.functions = dict(functions or {})
        self.path = os.path.join(cache_dir("numerics"), f"{key}.json")

    @classmethod
    def load(cls, key: str, backend: str = "numpy"):
        """The verified entry of ``key``, or None (missing or not trustworthy)."""
        path = os.path.join(cache_dir("numerics"), f"{key}.json")
        data = _read(path, key)
        if data is None or not isinstance(data.get("model"), dict):
            return None
        return cls(key, backend, data["model"], data["functions"])

    def get(self, key: tuple):
        """``(True, value)`` for a stored function that loads, else ``(False, None)``."""
        name = json.dumps(list(key))
        if name not in self.functions:
            return False, None
        try:
            return True, decode(self.functions[name])
        except Exception:  # a stored function that does not load: rebuilt, never trusted
            del self.functions[name]
            return False, None

    def put(self, key: tuple, value) -> None:
        """Store ``value`` as ``key`` (if it can be stored) and save the entry."""
        obj = encode(value)
        if obj is not None:
            self.functions[json.dumps(list(key))] = obj
            self.save()

    def save(self) -> None:
        """Write the entry atomically, merged with what another process stored meanwhile.
        A cache folder that cannot be written leaves the entry in memory only."""
        current = _read(self.path, self.key)
        if current is not None:
            for name, obj in current["functions"].items():
                self.functions.setdefault(name, obj)
        payload = json.dumps({"format": FORMAT, "key": self.key, "model": self.model,
                              "functions": self.functions}, sort_keys=True)
        text = f"{_MAGIC} {FORMAT} sha256={_checksum(payload)}\n{payload}"
        tmp = None
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=os.path.dirname(self.path))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, self.path)
            tmp = None
        except OSError:
            pass
        finally:
            if tmp is not None and os.path.exists(tmp):
                os.remove(tmp)


def numeric_model(case: str, law: str, build, files=(), backend: str = "numpy"):
    """The model of ``case`` and ``law`` for a reference solver: a
    :class:`~nsfric.symbolic.frozen.FrozenModel` restored from its cache entry (no SymPy),
    or, on a miss, one around ``build()`` (the symbolic model) that fills a new entry.

    ``build`` is called at most once, and only when needed; ``files`` are the case's
    sources (:func:`class_files`).  With the cache off, or for a model that is not a
    hybrid model of modes, returns ``build()`` itself."""
    if not enabled():
        return build()
    key = entry_key(case, law, backend, files)
    entry = Entry.load(key, backend)
    if entry is not None:
        return FrozenModel(entry, build)
    model = build()
    try:
        record = model_record(model)
        json.dumps(record)
    except (AttributeError, TypeError, ValueError):  # not a HybridModel of plain names (a contact network)
        return model
    entry = Entry(key, backend, record)
    entry.save()
    return FrozenModel(entry, build, model)


def cached_lambdas(name: str, build, files=()) -> dict:
    """``{label: (f, args, *texts)}`` of generated functions (``f`` from ``lambdify``,
    called with the parameters ``args``; ``texts``: strings kept with it, such as the
    expression's text), restored from the entry ``name`` or built by ``build()`` (SymPy)
    and stored, under the same key rule, checks and atomic writes as the models' entries
    (Table 1's derived values of the block on the slope)."""
    if not enabled():
        return build()
    key = entry_key(name, "lambdas", "math", files)
    entry = Entry.load(key, "math")
    labels = entry.model.get("labels") if entry is not None else None
    if isinstance(labels, list) and sorted(entry.functions) == sorted(labels):
        try:  # in the order build() gave them
            return {label: (compile_function(entry.functions[label]["fn"]),
                            [str(a) for a in entry.functions[label]["args"]],
                            *[str(t) for t in entry.functions[label]["texts"]]) for label in labels}
        except Exception:  # a stored function that does not load: rebuilt, never trusted
            pass
    out = build()
    specs = {label: {"fn": raw_spec(f), "args": list(args), "texts": list(texts)}
             for label, (f, args, *texts) in out.items()}
    if all(s["fn"] is not None for s in specs.values()):
        entry = Entry(key, "math", {"labels": list(specs)}, specs)
        entry.save()
    return out
