"""Cache of case outputs for ``nsfric report``: a case is re-run only when its inputs changed.

The key of a case hashes its name, the nsfric version, its laws and end time, and the
source files it depends on: the case's own modules (``nsfric/cases/<stem>*.py`` for a
case defined in ``<stem>.py``, or the plug-in's module file), the case contract
(``cases/base.py``, ``cases/reference.py``) and every lower layer (``symbolic``,
``solvers``, ``schemes``, ``study`` and the ground-floor modules).  The verdict and
caption declarations are not part of it: verdicts are re-evaluated on every report.

Entries live in ``$NSFRIC_CACHE_DIR/report``, else the user cache folder
(``$XDG_CACHE_HOME/nsfric/report``, default ``~/.cache/nsfric/report``; the same rule as
the kernel and sweep caches, :func:`nsfric.io.cache_dir`), one folder per
key holding the files the case wrote and ``manifest.json``.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile

from ..io import cache_dir, versions

#: the folder of the nsfric package
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOWER = ("symbolic", "solvers", "schemes", "study")
GROUND = ("__init__.py", "errors.py", "io.py", "plotting.py", "plugins.py", "solution.py")
MANIFEST = "manifest.json"


def cache_root() -> str:
    """The folder of the report cache (see the module docstring)."""
    return cache_dir("report")


def _py_files(folder: str) -> list:
    out = []
    for d, _, files in os.walk(folder):
        out += [os.path.join(d, f) for f in files if f.endswith(".py")]
    return out


def source_files(case) -> list:
    """The source files the outputs of ``case`` depend on (sorted)."""
    module = sys.modules.get(type(case).__module__)
    path = os.path.abspath(getattr(module, "__file__", "") or "")
    cases_dir = os.path.join(PACKAGE, "cases")
    files = [os.path.join(cases_dir, f) for f in ("base.py", "reference.py")]
    if os.path.dirname(path) == cases_dir:
        stem = os.path.splitext(os.path.basename(path))[0]
        files += [os.path.join(cases_dir, f) for f in os.listdir(cases_dir)
                  if f.startswith(stem) and f.endswith(".py")]
    elif path:
        files.append(path)
    for sub in LOWER:
        files += _py_files(os.path.join(PACKAGE, sub))
    files += [os.path.join(PACKAGE, f) for f in GROUND]
    return sorted(set(f for f in files if os.path.isfile(f)))


def _digest(parts, files) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode() + b"\0")
    for f in files:
        h.update(os.path.relpath(f, PACKAGE).encode() + b"\0")
        with open(f, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()[:32]


def case_key(case) -> str:
    """The cache key of ``case``'s outputs."""
    return _digest(["case", case.name, versions()["nsfric"], tuple(case.laws), case.t_end],
                   source_files(case))


def checks_key() -> str:
    """The cache key of the symbolic checks (the ``symbolic`` package and the version)."""
    return _digest(["checks", versions()["nsfric"]], sorted(_py_files(os.path.join(PACKAGE, "symbolic"))))


def load(key: str, dest: str | None = None):
    """The manifest of entry ``key`` (its files copied into ``dest`` if given), or None."""
    entry = os.path.join(cache_root(), key)
    try:
        with open(os.path.join(entry, MANIFEST)) as f:
            manifest = json.load(f)
        if dest is not None:
            for rel in manifest["files"]:
                target = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(os.path.join(entry, rel), target)
    except (OSError, ValueError, KeyError):
        return None
    return manifest


def store(key: str, manifest: dict, src: str | None = None):
    """Store ``manifest`` (and the files ``manifest["files"]`` of ``src``) as entry ``key``,
    atomically; a cache that cannot be written is skipped silently (it is only a cache)."""
    root = cache_root()
    try:
        os.makedirs(root, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".tmp-", dir=root)
    except OSError:
        return
    try:
        for rel in manifest.get("files", []):
            target = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(os.path.join(src, rel), target)
        with open(os.path.join(tmp, MANIFEST), "w") as f:
            json.dump(manifest, f)
        final = os.path.join(root, key)
        if os.path.isdir(final):
            shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
