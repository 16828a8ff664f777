"""The disk cache of derived numerics: generated code per model, no SymPy needed.

One entry per model content and backend holds what a reference solver reads of the
model (:func:`~nsfric.symbolic.frozen.model_record`) and the generated source of every
derived function used so far (right-hand sides, Jacobians, guards, their rates,
indicators, resets, outputs), in ``nsfric.io.cache_dir("numerics")`` (so under
``$NSFRIC_CACHE_DIR/numerics`` when that is set).

* **Key** (:func:`content_spec`): the SHA-256 of the model's *content* -- every field of
  the model, its states, parameters and symbols in their order, modes, switching
  functions, resets and outputs, SymPy expressions by ``srepr``
  (:func:`~nsfric.symbolic.content.model_hash`) -- with the backend, the cache format,
  the versions of nsfric, Python, NumPy and SymPy and the hash of the code generator
  (every source of :mod:`nsfric.symbolic`).  A law edited anywhere -- in a plug-in's
  module, in ``python -c``, in a notebook -- is a new model, hence a new key.
* **Without SymPy**: a case of nsfric's own, in a process where no law from outside
  nsfric is registered (none can be without SymPy), finds its model's key through an
  *alias* (:func:`entry_key`, in ``cache_dir("numerics-alias")``) keyed by the case and
  law names and nsfric's own sources, which are then everything its model is built
  from; a miss builds the model and writes the alias.  Any other case (a plug-in, a
  class defined in ``__main__``) builds its model to find the key.
* **Models built without a case** (a user's ``couple(...)``, a test's, or a case's model
  this process built symbolically): every reference solver reads them through
  :func:`frozen_model`, their entry under the content key, so a second process derives
  nothing either (the two-disc reference of ``tests/test_planar_discs.py``: 9.3 s of CPU
  cold, 1.1 s warm; Schäfer's Figs 3-5 data in a fresh process: 21 s, 2.3 s).
* **Never trusted blindly**: entries and aliases are checksummed entries of
  :mod:`nsfric.cache_store` holding their whole specification; a truncated, edited or
  foreign file counts as missing, so the entry is rebuilt (from SymPy) and replaced.  A
  stored function that does not compile counts as missing too.
* **Concurrent writers**: an entry is written to a temporary file beside it and moved
  into place with ``os.replace`` (atomic), after merging the functions another process
  stored meanwhile.  Readers see the old or the new file, never a mixture.  A cache that
  cannot be written is skipped (the entry stays in memory; noted for the sidecar).

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
import types

import numpy as np

from .. import cache_store
from ..io import cache_dir
from ..memo import Identity, Memo
from .frozen import FrozenModel, IterationMatrix, Reshaped, compile_function, load_function, model_record, namespace_recipe

#: bump when the entry layout changes
FORMAT = 2
KIND = "numerics"
ALIAS = "numerics-alias"
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


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


@functools.lru_cache(maxsize=1)
def _symbolic_digest() -> str:
    files = [os.path.join(d, f) for d, _, fs in os.walk(HERE) for f in fs if f.endswith(".py")]
    return _digest_files(files)


@functools.lru_cache(maxsize=1)
def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from .._version import __version__

    try:
        sympy = version("sympy")
    except PackageNotFoundError:  # pragma: no cover - sympy is a core dependency
        sympy = "none"
    return f"{__version__}|{platform.python_version()}|{np.__version__}|{sympy}"


def class_files(cls) -> list:
    """Source files of the modules defining ``cls`` and its bases (a case's ``build``); for
    a module of a sub-package of nsfric outside :mod:`nsfric.symbolic` (a paper, whose
    systems sit beside its cases), every module of that package."""
    files = []
    for c in cls.__mro__:
        mod = sys.modules.get(c.__module__)
        path = getattr(mod, "__file__", None)
        if path and path.endswith(".py") and c is not object:
            files.append(path)
            folder = os.path.dirname(os.path.abspath(path))
            if folder.startswith(PACKAGE + os.sep) and not folder.startswith(HERE):
                files += [os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs if f.endswith(".py")]
    return files


def _inside(module: str | None) -> bool:
    """Whether ``module`` is one of nsfric's own (a file of the package)."""
    mod = sys.modules.get(module or "")
    path = os.path.abspath(getattr(mod, "__file__", None) or "")
    return bool(module) and module.split(".")[0] == "nsfric" and path.startswith(PACKAGE + os.sep)


def own_case(cls) -> bool:
    """Whether a case of class ``cls`` builds its models from nsfric's sources alone: the
    class and its bases are nsfric's, and no law from outside nsfric is registered (none
    can be while SymPy is not imported)."""
    if not all(c is object or _inside(c.__module__) for c in cls.__mro__):
        return False
    if "sympy" not in sys.modules:
        return True
    from .laws import NORMAL_LAWS, TANGENTIAL_LAWS

    return all(_inside(getattr(f, "__module__", None)) for reg in (TANGENTIAL_LAWS, NORMAL_LAWS)
               for f in dict.values(reg))


def entry_key(case: str, law: str, backend: str = "numpy", files=()) -> str:
    """The key of the *alias* of ``case`` and ``law`` (see module docstring): the
    format, versions, backend, names, the code generator's and ``files``' sources."""
    return cache_store.spec_key(_alias_spec(case, law, backend, files))


def _alias_spec(case, law, backend, files) -> dict:
    return {"format": FORMAT, "versions": _versions(), "backend": backend, "case": case, "law": law,
            "codegen": _symbolic_digest(), "sources": _digest_files(files)}


def content_spec(model, backend: str = "numpy") -> dict:
    """The whole specification of ``model``'s entry (see module docstring)."""
    from .content import model_hash

    return {"format": FORMAT, "versions": _versions(), "backend": backend, "codegen": _symbolic_digest(),
            "model": model_hash(model)}


def _is_entry(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("model"), dict) and isinstance(data.get("functions"), dict)


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
        kind = "iteration_matrix" if isinstance(value, IterationMatrix) else "reshape"
        return spec and {kind: list(value.shape), "fn": spec}
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
    if "iteration_matrix" in obj:
        return IterationMatrix(fn, obj["iteration_matrix"])
    if "names" in obj:
        return list(obj["names"]), fn
    if "guards" in obj:
        gs = [types.SimpleNamespace(target=tuple(t) if isinstance(t, list) else t, label=lab)
              for t, lab in obj["guards"]]
        return gs, fn
    return fn


class Entry:
    """One cache entry: the model record and the stored functions (see module docstring);
    ``spec`` is its whole specification, ``key`` the hash of it."""

    def __init__(self, spec: dict, backend: str, model: dict, functions: dict | None = None):
        self.spec, self.backend, self.model = spec, backend, model
        self.key = cache_store.spec_key(spec)
        self.functions = dict(functions or {})
        self.path = os.path.join(cache_dir(KIND), f"{self.key}.json")

    @classmethod
    def load(cls, spec: dict, backend: str = "numpy"):
        """The verified entry of ``spec``, or None (missing or not trustworthy)."""
        path = os.path.join(cache_dir(KIND), f"{cache_store.spec_key(spec)}.json")
        data = cache_store.read(path, KIND, spec, _is_entry)
        return None if data is None else cls(spec, backend, data["model"], data["functions"])

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
        A cache folder that cannot be written leaves the entry in memory only (noted)."""
        current = cache_store.read(self.path, KIND, self.spec, _is_entry)
        if current is not None:
            for name, obj in current["functions"].items():
                self.functions.setdefault(name, obj)
        cache_store.write(self.path, KIND, self.spec, {"model": self.model, "functions": self.functions})


def _alias_path(key: str) -> str:
    return os.path.join(cache_dir(ALIAS), f"{key}.json")


def numeric_model(case: str, law: str, build, files=(), backend: str = "numpy", own: bool = False):
    """The model of ``case`` and ``law`` for a reference solver: a
    :class:`~nsfric.symbolic.frozen.FrozenModel` restored from its cache entry (no SymPy
    for a case of nsfric's own, ``own``: see :func:`own_case`), or, on a miss, one
    around ``build()`` (the symbolic model) that fills a new entry.

    ``build`` is called at most once, and only when needed; ``files`` are the case's
    sources (:func:`class_files`).  With the cache off, or for a model that is not a
    hybrid model of modes, returns ``build()`` itself."""
    if not enabled():
        return build()
    alias = None
    if own:
        alias = _alias_path(entry_key(case, law, backend, files))
        spec = cache_store.read(alias, ALIAS, _alias_spec(case, law, backend, files),
                                lambda d: isinstance(d, dict) and d.get("format") == FORMAT)
        entry = None if spec is None else Entry.load(spec, backend)
        if entry is not None:
            return FrozenModel(entry, build)
    model = build()
    found = _content_entry(model, backend)
    if found is None:
        return model
    spec, entry = found
    if alias is not None:
        cache_store.write(alias, ALIAS, _alias_spec(case, law, backend, files), spec)
    return FrozenModel(entry, build, model)


def _content_entry(model, backend: str):
    """``(spec, entry)`` of ``model``'s entry under its content key (a new one, saved, on a
    miss), or None for a model that is not a hybrid model of plain names (a contact network)."""
    try:
        record = model_record(model)
        json.dumps(record)
    except (AttributeError, TypeError, ValueError):
        return None
    spec = content_spec(model, backend)
    entry = Entry.load(spec, backend)
    if entry is None:
        entry = Entry(spec, backend, record)
        entry.save()
    return spec, entry


_FROZEN = Memo(64, "nsfric.symbolic.numcache.frozen")


def frozen_model(model, backend: str = "numpy"):
    """The :class:`~nsfric.symbolic.frozen.FrozenModel` of a symbolic model built in this
    process without a case (a user's ``couple(...)``, a plug-in's): its entry under the
    model's content key, so its numerics are derived once per machine, not once per
    process (a reference solver reads the model through it).  The model itself where the
    cache is off, for a model that is already restored, and for one that is not a hybrid
    model of plain names.  One per live model (memoised by identity)."""
    if not enabled() or isinstance(model, FrozenModel) or not hasattr(model, "derived"):
        return model

    def build():
        found = _content_entry(model, backend)
        return model if found is None else FrozenModel(found[1], lambda: model, model)

    return _FROZEN.get(Identity(model), build)
def cached_lambdas(name: str, build, files=()) -> dict:
    """``{label: (f, args, *texts)}`` of generated functions (``f`` from ``lambdify``,
    called with the parameters ``args``; ``texts``: strings kept with it, such as the
    expression's text), restored from the entry ``name`` or built by ``build()`` (SymPy)
    and stored, under the same key rule, checks and atomic writes as the models' entries
    (Table 1's derived values of the block on the slope)."""
    if not enabled():
        return build()
    spec = _alias_spec(name, "lambdas", "math", files)
    entry = Entry.load(spec, "math")
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
        entry = Entry(spec, "math", {"labels": list(specs)}, specs)
        entry.save()
    return out
