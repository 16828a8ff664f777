"""Generated Python modules in the user cache directory, imported without SymPy.

:func:`load_source` writes a generated module to the user cache directory
(``$NSFRIC_CACHE_DIR/kernels``, else ``$XDG_CACHE_HOME/nsfric/kernels``, else
``~/.cache/nsfric/kernels``) under the hash of its text and imports it, so numba's
``cache=True`` (which keys compiled code by the source file) lets a second process skip
compilation.  Writes are atomic (:func:`nsfric.cache_store.write_text`: a temporary file
renamed into place), so concurrent writers are safe, and a file whose text is not the
very text of its name's hash is rewritten, never trusted.  A cache folder that cannot
be written is skipped (noted for the sidecar): the module is imported from a temporary
folder of the process instead.  Used by the compiled scheme kernels (:mod:`nsfric.symbolic.kernel`) and the
compiled DOP853 stepper (:mod:`nsfric.solvers.dop853_numba`).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile

from ..memo import Identity


KIND = "kernels"


def cache_dir() -> str:
    """The directory of generated kernels (not created here)."""
    from ..io import cache_dir as user_cache

    return user_cache(KIND)


_MODULES: dict = {}
_PRIVATE: list = []


def _private_dir() -> str:
    """A folder of this process for generated modules when the cache cannot be written
    (removed at exit)."""
    if not _PRIVATE:
        import atexit
        import shutil

        _PRIVATE.append(tempfile.mkdtemp(prefix="nsfric-kernels-"))
        atexit.register(shutil.rmtree, _PRIVATE[0], True)
    return _PRIVATE[0]


def load_source(source: str, stem: str = "kernel"):
    """Import the generated module ``source`` from the cache directory (see module
    docstring); one import per process and text.  A cache that cannot be written is
    skipped (:func:`nsfric.cache_store.skip`): the module is then imported from a
    folder of this process."""
    from .. import cache_store

    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    name = f"nsfric_{stem}_{digest}"
    mod = _MODULES.get(name)
    if mod is not None:
        return mod
    path = os.path.join(cache_dir(), name + ".py")
    try:
        with open(path, encoding="utf-8") as fh:
            ok = fh.read() == source  # the whole text: stronger than a checksum of it
    except (OSError, UnicodeDecodeError):
        ok = False
    if not ok and not cache_store.write_text(path, KIND, source):  # missing or corrupt: (re)written
        path = os.path.join(_private_dir(), name + ".py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _MODULES[name] = mod
    return mod


def remembered_once(memo, key, owner, build, failure=Exception):
    """``build()`` once per ``key`` of the live object ``owner`` (an
    :class:`~nsfric.memo.Identity`, never its bare ``id()``) in ``memo`` (a
    :class:`~nsfric.memo.Memo`): the result, or the ``failure`` it raised, which is
    raised again without building again (compiled kernels and steppers: tried once)."""
    return memo.get((Identity(owner), key), build, failure)
