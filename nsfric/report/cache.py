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
key holding the files the case wrote and ``manifest.json``, a checksummed entry of
:mod:`nsfric.cache_store` with the key's whole specification (:func:`case_spec`) and the
SHA-256 of every file: an entry whose manifest or any file does not match is a miss, its
case re-run and the entry replaced.  A plug-in case's key also holds the content of its
models (its laws may be defined outside its module).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile

from .. import cache_store
from ..io import cache_dir, versions

#: the folder of the nsfric package
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOWER = ("symbolic", "solvers", "schemes", "study")
GROUND = ("__init__.py", "errors.py", "io.py", "plotting.py", "plugins.py", "solution.py")
MANIFEST = "manifest.json"
KIND = "report"


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
    elif path.startswith(PACKAGE + os.sep) and os.path.dirname(path) != PACKAGE:
        # a case of a sub-package of nsfric (a paper): all of that package
        files += _py_files(os.path.dirname(path))
    elif path:
        files.append(path)
    for sub in LOWER:
        files += _py_files(os.path.join(PACKAGE, sub))
    files += [os.path.join(PACKAGE, f) for f in GROUND]
    return sorted(set(f for f in files if os.path.isfile(f)))


def _spec(parts, files) -> dict:
    """The whole specification of an entry: ``parts`` and the SHA-256 of every file."""
    sources = {}
    for f in files:
        with open(f, "rb") as fh:
            sources[os.path.relpath(f, PACKAGE)] = hashlib.sha256(fh.read()).hexdigest()
    return {"parts": [repr(p) for p in parts], "sources": sources}


def _model_contents(case) -> list:
    """The content hashes of a plug-in case's models (its laws may live in modules of
    their own, or in no file at all); nothing for nsfric's own cases (their sources are
    in the key)."""
    if all(c.__module__.startswith("nsfric.") or c is object for c in type(case).__mro__):
        return []
    from ..study.cache import model_hash

    return [model_hash(case.model(law)) for law in case.laws]


def case_spec(case) -> dict:
    """Everything the outputs of ``case`` depend on (see the module docstring)."""
    return _spec(["case", case.name, versions()["nsfric"], tuple(case.laws), case.t_end, _model_contents(case)],
                 source_files(case))


def case_key(case) -> str:
    """The cache key of ``case``'s outputs."""
    return cache_store.spec_key(case_spec(case))[:32]


def checks_spec() -> dict:
    """The specification of the symbolic checks (the ``symbolic`` package and the version)."""
    return _spec(["checks", versions()["nsfric"]], sorted(_py_files(os.path.join(PACKAGE, "symbolic"))))


def checks_key() -> str:
    """The cache key of the symbolic checks."""
    return cache_store.spec_key(checks_spec())[:32]


def _safe(rel) -> bool:
    return (isinstance(rel, str) and rel and not os.path.isabs(rel)
            and not os.path.normpath(rel).startswith(os.pardir) and rel != MANIFEST)


def _valid(manifest) -> bool:
    sums = manifest.get("sha256") if isinstance(manifest, dict) else None
    return (isinstance(sums, dict) and isinstance(manifest.get("files"), list)
            and all(_safe(rel) and isinstance(sums.get(rel), str) for rel in manifest["files"]))


def load(key: str, dest: str | None = None, spec=None):
    """The manifest of entry ``key`` (its files copied into ``dest`` if given), or None
    when the entry is missing or not whole: its manifest fails its checksum or holds
    another specification, or one of its files is missing or differs from the SHA-256
    stored for it (a truncated CSV is never copied).  Every file is verified before the
    first one is copied."""
    entry = os.path.join(cache_root(), key)
    manifest = cache_store.read(os.path.join(entry, MANIFEST), KIND, spec, _valid)
    if manifest is None:
        return None
    blobs = {}
    try:
        for rel in manifest["files"]:
            with open(os.path.join(entry, rel), "rb") as f:
                blobs[rel] = f.read()
            if hashlib.sha256(blobs[rel]).hexdigest() != manifest["sha256"][rel]:
                return None
        if dest is not None:
            for rel, blob in blobs.items():
                target = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(blob)
    except OSError:
        return None
    return manifest


def store(key: str, manifest: dict, src: str | None = None, spec=None) -> bool:
    """Store ``manifest`` (and the files ``manifest["files"]`` of ``src``, each with its
    SHA-256) as entry ``key``, atomically; a cache that cannot be written is skipped (it
    is only a cache; :func:`nsfric.cache_store.notes` says why)."""
    root = cache_root()
    final = os.path.join(root, key)
    try:
        os.makedirs(root, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".tmp-", dir=root)
    except OSError as e:
        cache_store.skip(KIND, final, f"cannot write: {e.strerror or e}")
        return False
    try:
        sums = {}
        for rel in manifest.get("files", []):
            target = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(os.path.join(src, rel), "rb") as f:
                blob = f.read()
            with open(target, "wb") as f:
                f.write(blob)
            sums[rel] = hashlib.sha256(blob).hexdigest()
        if not cache_store.write(os.path.join(tmp, MANIFEST), KIND, spec if spec is not None else {"key": key},
                                 {**manifest, "sha256": sums}):
            return False
        if os.path.isdir(final) and os.path.isfile(os.path.join(final, MANIFEST)):
            shutil.rmtree(final, ignore_errors=True)  # an entry of ours (it has a manifest)
        os.rename(tmp, final)
        tmp = None
        return True
    except OSError as e:
        cache_store.skip(KIND, final, f"cannot write: {e.strerror or e}")
        return False
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
