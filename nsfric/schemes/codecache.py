"""The discrete schemes' generated code in the disk cache of derived numerics.

A scheme reads its model through generated code: the field's functions (Newton
residuals and Jacobians, Taylor coefficients), plain data derived with SymPy (the
position/velocity split, the delta schemes' held states) and the source text of the
compiled (numba) kernels.  :class:`SchemeStore` keeps all of it in a *companion entry*
of the model's own entry (:mod:`nsfric.symbolic.numcache`), so a process that finds
them on disk runs a scheme without importing SymPy, with the very same code, hence
the same numbers.

* **Key**: a SHA-256 of the model entry's key (format, versions, backend, the model's
  content, every source of :mod:`nsfric.symbolic`) and of every source file
  of :mod:`nsfric.schemes` and of :mod:`nsfric.solvers.switching` (the mode logic the
  kernels paste in): editing a scheme, the tracer or a kernel generator gives a new key.
* **Checks and writes**: those of :class:`~nsfric.symbolic.numcache.Entry` (a checksum
  of the payload, the key repeated in it, a function that does not compile is rebuilt;
  atomic writes merged with other processes' additions).  A stored value of the wrong
  shape counts as missing and is rebuilt.
* **Kernels**: the stored source is imported from a file in the kernel cache directory
  (:func:`~nsfric.symbolic.kernel.load_source`), so numba's own ``cache=True`` finds the
  compiled machine code of an earlier process.

A symbolic model (one this process built, or ``NSFRIC_NUMCACHE=0``) has no entry: then
everything is derived from SymPy, as before.
"""
from __future__ import annotations

import functools
import json
import os

from .. import cache_store
from ..memo import Identity, Memo

from ..symbolic.frozen import FrozenModel
from ..symbolic.numcache import Entry, _digest_files, enabled

HERE = os.path.dirname(os.path.abspath(__file__))
#: the modules (besides nsfric/schemes) whose text shapes the generated code
EXTRA_SOURCES = (os.path.join(os.path.dirname(HERE), "solvers", "switching.py"),)


@functools.lru_cache(maxsize=1)
def schemes_digest() -> str:
    """The hash of every source of :mod:`nsfric.schemes` and :data:`EXTRA_SOURCES`."""
    files = [os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".py")]
    return _digest_files(files + list(EXTRA_SOURCES))


def companion_spec(model_key: str) -> dict:
    """The whole specification of the schemes' entry of the model entry ``model_key``."""
    return {"companion": model_key, "schemes": schemes_digest()}


def companion_key(model_key: str) -> str:
    """The key of the schemes' entry of the model entry ``model_key``."""
    return cache_store.spec_key(companion_spec(model_key))


class SchemeStore:
    """Generated functions, values and kernel sources of ``model`` for the schemes:
    from the companion entry where it holds them, else built on the symbolic model
    (SymPy) and stored (see module docstring)."""

    def __init__(self, model):
        self.model = model
        self.entry = None
        if isinstance(model, FrozenModel) and enabled():
            spec = companion_spec(model.entry.key)
            self.entry = Entry.load(spec, model.entry.backend) or Entry(spec, model.entry.backend,
                                                                         {"companion": model.entry.key})

    @property
    def symbolic(self):
        """The symbolic :class:`~nsfric.symbolic.derive.DerivedModel` (imports SymPy)."""
        from ..symbolic.derive import derive

        return derive(self.model)

    def function(self, key: tuple, make):
        """The generated function stored as ``key``, else ``make(derived)`` (stored)."""
        if self.entry is None:
            return make(self.symbolic)
        found, value = self.entry.get(key)
        if not found:
            value = make(self.symbolic)
            self.entry.put(key, value)
        return value

    def value(self, key: tuple, make, valid=lambda v: True):
        """The JSON value stored as ``key`` if ``valid(value)``, else ``make(derived)``
        stored; a fresh value goes through JSON too (lists, not tuples), so a first and
        a later process get the same thing."""
        if self.entry is None:
            return json.loads(json.dumps(make(self.symbolic)))
        name = json.dumps(["value", *key])
        obj = self.entry.functions.get(name)
        if isinstance(obj, dict) and "value" in obj:
            try:
                if valid(obj["value"]):
                    return obj["value"]
            except (TypeError, ValueError, KeyError, IndexError):
                pass
        value = json.loads(json.dumps(make(self.symbolic)))
        self.entry.functions[name] = {"value": value}
        self.entry.save()
        return value


_STORES = Memo(32, "nsfric.schemes.codecache.stores")


def store(model) -> SchemeStore:
    """The :class:`SchemeStore` of ``model`` (one per live model object)."""
    return _STORES.get(Identity(model), lambda: SchemeStore(model))


def is_index_list(v, n: int) -> bool:
    """Whether ``v`` is a list of state indices ``0 <= i < n`` (a stored value's check)."""
    return isinstance(v, list) and all(isinstance(i, int) and 0 <= i < n for i in v)


__all__ = ["SchemeStore", "companion_key", "companion_spec", "is_index_list", "schemes_digest", "store"]
