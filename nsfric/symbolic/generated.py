"""Generated Python modules in the user cache directory, imported without SymPy.

:func:`load_source` writes a generated module to the user cache directory
(``$NSFRIC_CACHE_DIR/kernels``, else ``$XDG_CACHE_HOME/nsfric/kernels``, else
``~/.cache/nsfric/kernels``) under the hash of its text and imports it, so numba's
``cache=True`` (which keys compiled code by the source file) lets a second process skip
compilation.  Writes are atomic (a temporary file renamed into place), so concurrent
writers are safe, and a file whose text does not match its hash is rewritten, never
trusted.  Used by the compiled scheme kernels (:mod:`nsfric.symbolic.kernel`) and the
compiled DOP853 stepper (:mod:`nsfric.solvers.dop853_numba`).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile


def cache_dir() -> str:
    """The directory of generated kernels (created on first use)."""
    from ..io import cache_dir as user_cache

    path = user_cache("kernels")
    os.makedirs(path, exist_ok=True)
    return path


_MODULES: dict = {}


def load_source(source: str, stem: str = "kernel"):
    """Import the generated module ``source`` from the cache directory (see module
    docstring); one import per process and text."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    name = f"nsfric_{stem}_{digest}"
    mod = _MODULES.get(name)
    if mod is not None:
        return mod
    path = os.path.join(cache_dir(), name + ".py")
    try:
        with open(path, encoding="utf-8") as fh:
            ok = fh.read() == source
    except (OSError, UnicodeDecodeError):
        ok = False
    if not ok:  # missing or corrupt: (re)write atomically
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(source)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _MODULES[name] = mod
    return mod


def remembered_once(cache: dict, key, owner, build, failure=Exception):
    """``build()`` once per process and ``key`` of ``owner`` (an object that must be the
    very one of the remembered entry): the result, or the ``failure`` it raised, which is
    raised again without building again (compiled kernels and steppers: tried once)."""
    hit = cache.get(key)
    if hit is not None and hit[0] is owner:
        if isinstance(hit[1], failure):
            raise hit[1]
        return hit[1]
    try:
        out = build()
    except failure as e:
        cache[key] = (owner, e)
        raise
    cache[key] = (owner, out)
    return out
